#include "reference/core/diagnostics.h"

#include <algorithm>
#include <bit>
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

// The counts are taken as the feeds are found, not by counting each word's bits after:
// std::popcount of a word is a call into libgcc where the build targets no particular x86-64, and a
// document of 100 MB has 1.6 million words. A text with no feed at all (a document written on one
// line) keeps no bits.
void LineFeeds::Append(std::string_view bytes) {
  for (std::size_t at = bytes.find('\n'); at != std::string_view::npos;
       at = bytes.find('\n', at + 1)) {
    const std::size_t offset = size_ + at;
    if (bits_.size() <= offset / 64) bits_.resize(offset / 64 + 1);
    bits_[offset / 64] |= std::uint64_t{1} << (offset % 64);
    // The first feed of its group, and of any group before it without one: the feeds before them.
    while (counts_.size() <= offset / 64 / kWordsPerCount) counts_.push_back(feeds_);
    ++feeds_;
  }
  size_ += bytes.size();
}

Location LineFeeds::LocationOf(std::size_t offset) const {
  offset = std::min(offset, size_);
  if (bits_.empty()) return {1, offset + 1, ""};
  const std::size_t word = offset / 64;
  // The line feeds before `offset`: every one when it is past the last; otherwise those of its
  // own word below it, and of the words before.
  std::uint64_t feeds = feeds_;
  std::uint64_t below = 0;
  if (word < bits_.size()) {
    below = bits_[word] & ((std::uint64_t{1} << (offset % 64)) - 1);
    feeds = static_cast<std::uint64_t>(std::popcount(below));
    if (word > 0) {
      feeds += counts_[(word - 1) / kWordsPerCount];
      for (std::size_t w = (word - 1) / kWordsPerCount * kWordsPerCount; w < word; ++w) {
        feeds += static_cast<std::uint64_t>(std::popcount(bits_[w]));
      }
    }
  }
  // The line starts after the last of them (one finding's search; a long line is a long search).
  std::size_t line_start = 0;
  if (below != 0) {
    line_start = word * 64 + 63 - static_cast<std::size_t>(std::countl_zero(below)) + 1;
  } else {
    for (std::size_t w = std::min(word, bits_.size()); w-- > 0;) {
      if (bits_[w] != 0) {
        line_start = w * 64 + 63 - static_cast<std::size_t>(std::countl_zero(bits_[w])) + 1;
        break;
      }
    }
  }
  return {feeds + 1, offset - line_start + 1, ""};
}

}  // namespace arcs
