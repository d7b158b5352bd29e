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
  // Appended piece by piece: GCC 12 at -O3 misreads `literal + std::string` (-Wrestrict, GCC bug
  // 105651).
  auto line = [&text](std::string_view label, const std::string& value) {
    if (value.empty()) return;
    if (!text.empty()) text += '\n';
    text += label;
    text += value;
  };
  line("expected: ", c.expected);
  line("actual: ", c.actual);
  line("message: ", c.message);
  return text;
}

std::string OutcomeText(const CaseResult& c) {
  std::string text(OutcomeName(c.outcome));
  if (!c.error_kind.empty()) {
    text += " (";
    text += c.error_kind;
    text += ')';
  }
  return text;
}

std::string RunDescription(const RunInfo& run, std::string (*escape)(std::string_view)) {
  auto seconds = [](double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", value);
    return std::string(buffer);
  };
  // Appended piece by piece, for GCC 12's -Wrestrict (see ExpectedActual).
  std::string text = "arcs ";
  text += escape(run.arcs_version);
  if (!run.started_at.empty()) {
    text += ", started ";
    text += escape(run.started_at);
  }
  text += ", ";
  text += seconds(run.seconds);
  text += " s, ";
  text += std::to_string(run.jobs);
  text += " job(s), timeout ";
  text += seconds(run.timeout_seconds);
  text += " s per case";
  if (!run.filters.empty()) {
    text += ", filters:";
    for (const std::string& filter : run.filters) {
      text += ' ';
      text += escape(filter);
    }
  }
  if (!run.known_failures.empty()) {
    text += ", known failures: ";
    text += escape(run.known_failures);
  }
  text += '.';
  return text;
}

}  // namespace arcs::report::internal
