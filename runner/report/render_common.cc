#include "runner/report/render_common.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace arcs::report::internal {
namespace {

constexpr std::array<std::string_view, 3> kLevels = {"MUST", "SHOULD", "MAY"};

}  // namespace

std::vector<std::pair<std::string_view, std::uint64_t>> CountColumns(const Counts& counts) {
  return {{"passed", counts.passed},
          {"failed", counts.failed},
          {"errored", counts.errored},
          {"skipped", counts.skipped},
          {"known failures", counts.known_failures},
          {"total", counts.total}};
}

std::vector<std::string> OrderedLevels(const std::map<std::string, Counts>& by_level) {
  std::vector<std::string> levels;
  for (std::string_view level : kLevels) {
    if (by_level.contains(std::string(level))) levels.emplace_back(level);
  }
  for (const auto& [level, counts] : by_level) {
    if (std::find(kLevels.begin(), kLevels.end(), level) == kLevels.end()) {
      levels.push_back(level);
    }
  }
  return levels;
}

int MustPassedPercent(const FormatSummary& format) {
  std::uint64_t passed = 0, total = 0;
  for (const OperationSummary& op : format.operations) {
    auto must = op.by_level.find("MUST");
    if (must == op.by_level.end()) continue;
    passed += must->second.passed;
    total += must->second.total;
  }
  if (total == 0) return 0;
  return static_cast<int>(passed * 100 / total);
}

std::string CertificationText(const FormatSummary& format) {
  if (format.certification == "partial") {
    return "partial " + std::to_string(MustPassedPercent(format)) + "%";
  }
  return format.certification;
}

std::string ExpectedActual(const CaseResult& c) {
  std::string text;
  if (!c.expected.empty()) text += "expected: " + c.expected;
  if (!c.actual.empty()) text += (text.empty() ? "" : "\n") + ("actual: " + c.actual);
  if (!c.message.empty()) text += (text.empty() ? "" : "\n") + ("message: " + c.message);
  return text;
}

std::string OutcomeText(const CaseResult& c) {
  std::string text(OutcomeName(c.outcome));
  if (!c.error_kind.empty()) text += " (" + c.error_kind + ")";
  return text;
}

std::string RunDescription(const RunInfo& run, std::string (*escape)(std::string_view)) {
  auto seconds = [](double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", value);
    return std::string(buffer);
  };
  std::string text = "arcs " + escape(run.arcs_version);
  if (!run.started_at.empty()) text += ", started " + escape(run.started_at);
  text += ", " + seconds(run.seconds) + " s, " + std::to_string(run.jobs) + " job(s), timeout " +
          seconds(run.timeout_seconds) + " s per case";
  if (!run.filters.empty()) {
    text += ", filters:";
    for (const std::string& filter : run.filters) text += " " + escape(filter);
  }
  if (!run.known_failures.empty()) text += ", known failures: " + escape(run.known_failures);
  return text + ".";
}

}  // namespace arcs::report::internal
