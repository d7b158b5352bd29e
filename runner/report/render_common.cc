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

namespace {

struct MustCounts {
  std::uint64_t passed = 0;
  std::uint64_t total = 0;
};

MustCounts CountMust(const FormatSummary& format) {
  MustCounts counts;
  for (const OperationSummary& op : format.operations) {
    auto must = op.by_level.find("MUST");
    if (must == op.by_level.end()) continue;
    counts.passed += must->second.passed;
    counts.total += must->second.total;
  }
  return counts;
}

}  // namespace

int MustPassedPercent(const FormatSummary& format) {
  const MustCounts must = CountMust(format);
  if (must.total == 0) return 0;
  return static_cast<int>(must.passed * 100 / must.total);
}

std::string CertificationMeaning(const FormatSummary& format) {
  const MustCounts must = CountMust(format);
  std::string text = std::to_string(must.passed) + " of " + std::to_string(must.total) +
                     " MUST cases passed (a known failure does not pass)";
  text +=
      "; full needs every MUST case of every operation the format defines, in a run of the "
      "whole suite (no filter)";
  return text;
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
  // The runner sets at most one of them: an error kind when there was no answer, a mismatch when
  // there was a wrong one.
  const std::string& how = c.error_kind.empty() ? c.mismatch : c.error_kind;
  if (!how.empty()) {
    text += " (";
    text += how;
    text += ')';
  }
  return text;
}

std::string GroundText(const CaseResult& c) {
  std::string text(GroundName(c.ground));
  switch (c.ground) {
    case Ground::kRequired:
      break;
    case Ground::kPolicy:
      text += ' ';
      text += c.policy;
      break;
    case Ground::kAcceptable:
      text += ' ';
      text += c.flag;
      if (!Answered(c)) break;
      text += c.readings.empty() ? ", fits no reading" : ", fits ";
      for (std::size_t i = 0; i < c.readings.size(); ++i) {
        if (i > 0) text += ", ";
        text += c.readings[i];
      }
      break;
    case Ground::kResource:
      if (c.peak_rss_bytes == 0) break;
      text += ", peak memory ";
      text += ByteSize(c.peak_rss_bytes);
      break;
  }
  return text;
}

std::string CaseDetail(const CaseResult& c) {
  std::string text = ExpectedActual(c);
  if (!text.empty()) text += '\n';
  text += "ground: ";
  text += GroundText(c);
  if (c.strict != Strict::kNotJudged) {
    text += c.strict == Strict::kPassed ? "\nARCS strict: the reference's answer"
                                        : "\nARCS strict: not the reference's answer";
  }
  return text;
}

std::string ByteSize(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  constexpr std::array<std::string_view, 4> kUnits = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024;
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f ", value);
  return buffer + std::string(kUnits[unit]);
}

std::string ReadingsTaken(const FlagSummary& flag) {
  std::string text;
  for (const auto& [reading, cases] : flag.taken) {
    if (!text.empty()) text += ", ";
    text += reading;
    text += " (";
    text += std::to_string(cases);
    text += ')';
  }
  return text;
}

std::string_view Inconsistency(const FlagSummary& flag) {
  return flag.taken.empty() ? "fits no reading" : "takes different readings";
}

std::string ConsistencyText(const FlagSummary& flag) {
  if (!flag.consistent) return "no: " + std::string(Inconsistency(flag));
  if (flag.readings.empty()) return "yes";
  std::string text = "yes: ";
  for (std::size_t i = 0; i < flag.readings.size(); ++i) {
    if (i) text += ", ";
    text += flag.readings[i];
  }
  return text;
}

std::string StrictLine(const StrictCounts& strict) {
  return "ARCS strict profile (the reference's own choices; not part of conformance): " +
         std::to_string(strict.passed) + " of " + std::to_string(strict.passed + strict.failed) +
         " match";
}

std::string RunDescription(const RunInfo& run, std::string (*escape)(std::string_view)) {
  // Any double a report may hold (up to 1.8e308) fits, never cut off.
  auto seconds = [](double value) {
    char buffer[32];
    if (value < 1e9) {
      std::snprintf(buffer, sizeof buffer, "%.1f", value);
    } else {
      std::snprintf(buffer, sizeof buffer, "%.3g", value);
    }
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
  if (run.cpu_timeout_seconds > 0) {
    text += ", CPU time limit ";
    text += seconds(run.cpu_timeout_seconds);
    text += " s";
  }
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
