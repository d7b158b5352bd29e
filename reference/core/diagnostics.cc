#include "reference/core/diagnostics.h"

#include <algorithm>
#include <tuple>

#include "reference/core/strings.h"

namespace arcs {

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kMust:
      return "MUST";
    case Level::kShould:
      return "SHOULD";
    case Level::kMay:
      return "MAY";
  }
  return "MUST";
}

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

bool FindingLess(const Finding& a, const Finding& b) {
  return std::tie(a.location.line, a.location.column, a.location.pointer, a.rule_id, a.message) <
         std::tie(b.location.line, b.location.column, b.location.pointer, b.rule_id, b.message);
}

void Diagnostics::Add(Finding finding) {
  if (keep_ && !keep_(finding.rule_id)) {
    ++ignored_count_;
    return;
  }
  if (readings_as_warnings_ && !finding.reading.empty() && finding.severity == Severity::kError) {
    finding.severity = Severity::kWarning;
  }
  if (finding.severity == Severity::kError) ++error_count_;
  if (finding.severity == Severity::kWarning) ++warning_count_;
  if (findings_.size() >= max_findings_) {
    ++dropped_count_;
    return;
  }
  if (level_of_) finding.level = level_of_(finding.rule_id);
  if (finding.message.size() > kMaxMessageBytes) {
    finding.message = Excerpt(finding.message, kMaxMessageBytes);
  }
  if (finding.location.pointer.size() > kMaxPointerBytes) {
    finding.location.pointer = Excerpt(finding.location.pointer, kMaxPointerBytes);
  }
  findings_.push_back(std::move(finding));
}

void Diagnostics::Relocate(
    const std::function<void(const Finding& finding, Location* location)>& place) {
  for (Finding& f : findings_) {
    Location location = f.location;
    place(f, &location);
    f.location = std::move(location);
  }
  Sort();
}

void Diagnostics::Sort() { std::stable_sort(findings_.begin(), findings_.end(), FindingLess); }

Location LocationOf(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const std::size_t line_start = before.rfind('\n') + 1;  // npos + 1 == 0
  return {static_cast<std::uint64_t>(std::count(before.begin(), before.end(), '\n')) + 1,
          offset - line_start + 1, ""};
}

LineFeeds::LineFeeds(std::string_view text) : size_(text.size()) {
  for (std::size_t at = text.find('\n'); at != std::string_view::npos;
       at = text.find('\n', at + 1)) {
    offsets_.push_back(at);
  }
}

Location LineFeeds::LocationOf(std::size_t offset) const {
  offset = std::min(offset, size_);
  // The line feeds before `offset`; the last of them ends the line before offset's.
  const auto before = std::lower_bound(offsets_.begin(), offsets_.end(), offset);
  const std::size_t line_start = before == offsets_.begin() ? 0 : *(before - 1) + 1;
  return {static_cast<std::uint64_t>(before - offsets_.begin()) + 1, offset - line_start + 1, ""};
}

}  // namespace arcs
