#include "runner/report/diff.h"

#include <map>

#include "reference/core/strings.h"
#include "runner/report/escape.h"
#include "runner/report/render_common.h"

namespace arcs::report {
namespace {

constexpr std::size_t kMaxValueBytes = 200;

using CaseMap = std::map<CaseKey, const CaseResult*>;

Result<CaseMap> IndexCases(const Report& report, std::string_view which) {
  if (Status s = CheckUniqueCases(report, std::string(which) + " report: "); !s.ok()) {
    return Status(StatusCode::kInvalidArgument, s.message());
  }
  CaseMap cases;
  for (const ImplementationReport& impl : report.implementations) {
    for (const CaseResult& c : impl.cases)
      cases.emplace(CaseKey{impl.name, c.format, c.id, c.operation}, &c);
  }
  return cases;
}

// The compared fields of a case, by name, as display strings.
std::vector<std::pair<std::string_view, std::string>> ComparedFields(const CaseResult& c) {
  return {{"outcome", std::string(OutcomeName(c.outcome))},
          {"error_kind", c.error_kind},
          {"expected", c.expected},
          {"actual", c.actual},
          {"level", c.level},
          {"requirements", Join(c.requirements)},
          {"rules", c.rules},
          {"ground", std::string(GroundName(c.ground))},
          {"flag", c.flag},
          {"policy", c.policy},
          {"readings", Join(c.readings)},
          {"strict", std::string(StrictName(c.strict))}};
}

// The compared facts of a format, by name, as display strings.
std::vector<std::pair<std::string, std::string>> FormatFacts(const FormatSummary& f) {
  std::string policies, operations;
  for (const auto& [name, value] : f.policies) {
    policies += (policies.empty() ? "" : ", ") + name + "=" + value;
  }
  for (const OperationSummary& op : f.operations) {
    operations +=
        (operations.empty() ? "" : ", ") + op.operation + (op.supported ? "" : " (unsupported)");
  }
  return {{"certification", f.certification},
          {"missing", Join(f.missing)},
          {"policies", policies},
          {"operations", operations}};
}

// How a flag was read, for display: "consistent: rfc3339 (2)", "takes different readings:
// iso8601 (1), rfc3339 (1)".
std::string Reading(const FlagSummary& flag) {
  const std::string taken = internal::ReadingsTaken(flag);
  return std::string(flag.consistent ? "consistent" : internal::Inconsistency(flag)) +
         (taken.empty() ? "" : ": " + taken);
}

// A "consistency" change for each flag of the format read consistently in one report and not in
// the other. A flag new to the report had no consistency to lose: listed, never a regression.
void CompareFlags(const std::string& implementation, const FormatSummary& old_format,
                  const FormatSummary& new_format, ReportDiff* diff) {
  std::map<std::string, const FlagSummary*> old_flags;
  for (const FlagSummary& flag : old_format.flags) old_flags.emplace(flag.flag, &flag);
  for (const FlagSummary& flag : new_format.flags) {
    auto found = old_flags.find(flag.flag);
    const bool known = found != old_flags.end();
    if (known ? found->second->consistent == flag.consistent : flag.consistent) continue;
    const bool regression = known && !flag.consistent;
    diff->regressions += regression;
    diff->formats.push_back({implementation, new_format.format, "consistency", flag.flag,
                             known ? Reading(*found->second) : "(not in the old report)",
                             Reading(flag), regression});
  }
}

void CompareFormats(const Report& old_report, const Report& new_report, ReportDiff* diff) {
  using FormatMap = std::map<std::pair<std::string, std::string>, const FormatSummary*>;
  auto index = [](const Report& report) {
    FormatMap formats;
    for (const ImplementationReport& impl : report.implementations) {
      for (const FormatSummary& f : impl.formats)
        formats.emplace(std::pair{impl.name, f.format}, &f);
    }
    return formats;
  };
  const FormatMap old_formats = index(old_report), new_formats = index(new_report);
  for (const auto& [key, old_format] : old_formats) {
    auto found = new_formats.find(key);
    if (found == new_formats.end()) {
      diff->formats.push_back(
          {key.first, key.second, "removed", "", old_format->certification, "", false});
      continue;
    }
    const auto old_facts = FormatFacts(*old_format), new_facts = FormatFacts(*found->second);
    for (std::size_t i = 0; i < old_facts.size(); ++i) {
      if (old_facts[i].second != new_facts[i].second) {
        diff->formats.push_back({key.first, key.second, old_facts[i].first, "", old_facts[i].second,
                                 new_facts[i].second, false});
      }
    }
    CompareFlags(key.first, *old_format, *found->second, diff);
  }
  for (const auto& [key, new_format] : new_formats) {
    if (!old_formats.contains(key)) {
      diff->formats.push_back(
          {key.first, key.second, "added", "", "", new_format->certification, false});
    }
  }
}

void AddNotes(const Report& old_report, const Report& new_report, ReportDiff* diff) {
  if (!old_report.complete) diff->notes.push_back("the old report is incomplete (interrupted)");
  if (!new_report.complete) diff->notes.push_back("the new report is incomplete (interrupted)");
  std::map<std::string, const ImplementationReport*> old_impls;
  for (const ImplementationReport& impl : old_report.implementations) {
    old_impls.emplace(impl.name, &impl);
  }
  for (const ImplementationReport& impl : new_report.implementations) {
    auto found = old_impls.find(impl.name);
    if (found == old_impls.end()) {
      diff->notes.push_back("implementation added: " + impl.name);
      continue;
    }
    if (found->second->version != impl.version) {
      diff->notes.push_back("implementation " + impl.name + ": version " + found->second->version +
                            " -> " + impl.version);
    }
    if (impl.abandoned && !found->second->abandoned) {
      diff->notes.push_back("implementation " + impl.name + " was abandoned in the new run");
    }
    old_impls.erase(found);
  }
  for (const auto& [name, impl] : old_impls) {
    diff->notes.push_back("implementation removed: " + name);
  }
}

std::string Show(std::string_view text) { return Printable(Truncate(text, kMaxValueBytes)); }

std::string KeyText(const CaseKey& key) {
  return Show(key.implementation) + "  " + Show(key.format) + "  " + Show(key.id) + "  " +
         Show(key.operation);
}

std::string Plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace

Result<ReportDiff> Compare(const Report& old_report, const Report& new_report) {
  Result<CaseMap> old_cases = IndexCases(old_report, "old");
  if (!old_cases.ok()) return old_cases.status();
  Result<CaseMap> new_cases = IndexCases(new_report, "new");
  if (!new_cases.ok()) return new_cases.status();

  ReportDiff diff;
  auto old_it = old_cases->begin();
  auto new_it = new_cases->begin();
  // Both maps are ordered by key: one merge pass finds changed, removed and added cases in order.
  while (old_it != old_cases->end() || new_it != new_cases->end()) {
    const bool take_old = new_it == new_cases->end() ||
                          (old_it != old_cases->end() && old_it->first <= new_it->first);
    const bool take_new = old_it == old_cases->end() ||
                          (new_it != new_cases->end() && new_it->first <= old_it->first);
    CaseChange change;
    change.key = take_old ? old_it->first : new_it->first;
    if (take_old) change.old_case = *old_it++->second;
    if (take_new) change.new_case = *new_it++->second;
    if (change.old_case && change.new_case) {
      const auto old_fields = ComparedFields(*change.old_case);
      const auto new_fields = ComparedFields(*change.new_case);
      for (std::size_t i = 0; i < old_fields.size(); ++i) {
        if (old_fields[i].second != new_fields[i].second) {
          change.fields.emplace_back(old_fields[i].first);
        }
      }
      if (change.fields.empty()) continue;
    }
    change.regression = change.old_case && change.old_case->outcome == Outcome::kPassed &&
                        (!change.new_case || change.new_case->outcome != Outcome::kPassed);
    diff.regressions += change.regression;
    diff.cases.push_back(std::move(change));
  }
  CompareFormats(old_report, new_report, &diff);
  AddNotes(old_report, new_report, &diff);
  return diff;
}

std::string FormatDiff(const ReportDiff& diff) {
  std::string regressions, changed, added, removed;
  std::size_t outcome_changes = 0, record_changes = 0, added_count = 0, removed_count = 0;
  for (const CaseChange& c : diff.cases) {
    std::string line;
    if (c.old_case && c.new_case) {
      const bool outcome_changed = c.old_case->outcome != c.new_case->outcome;
      outcome_changes += outcome_changed;
      record_changes += !outcome_changed;
      line = "  " + KeyText(c.key) + ": " + std::string(OutcomeName(c.old_case->outcome)) +
             (outcome_changed ? " -> " + std::string(OutcomeName(c.new_case->outcome)) : "") + "\n";
      const auto old_fields = ComparedFields(*c.old_case);
      const auto new_fields = ComparedFields(*c.new_case);
      for (std::size_t i = 0; i < old_fields.size(); ++i) {
        const std::string_view name = old_fields[i].first;
        const std::string &before = old_fields[i].second, &after = new_fields[i].second;
        if (name == "outcome" || before == after) continue;
        // A passed case stores no expected and actual: a case that now fails shows what it
        // expected and got, not a change from nothing; one that now passes, nothing.
        const bool passing_side =
            (name == "expected" || name == "actual") && (before.empty() || after.empty());
        if (passing_side && after.empty()) continue;
        line += "      " + std::string(name) + ": " +
                (passing_side ? "\"" + Show(after) + "\""
                              : "\"" + Show(before) + "\" -> \"" + Show(after) + "\"") +
                "\n";
      }
      (c.regression ? regressions : changed) += line;
    } else if (c.new_case) {
      ++added_count;
      added += "  " + KeyText(c.key) + ": " + std::string(OutcomeName(c.new_case->outcome)) + "\n";
    } else {
      ++removed_count;
      line = "  " + KeyText(c.key) + ": " + std::string(OutcomeName(c.old_case->outcome)) +
             " -> (removed)\n";
      (c.regression ? regressions : removed) += line;
    }
  }
  std::string formats;
  for (const FormatChange& f : diff.formats) {
    // A consistency change is named by its flag: "SP-E14 \"consistent: ...\" -> \"takes
    // different readings: ...\"".
    std::string line = "  " + Show(f.implementation) + "/" + Show(f.format) + ": " +
                       (f.what == "consistency" ? Show(f.flag) : f.what);
    if (f.what != "added" && f.what != "removed") {
      line += " \"" + Show(f.old_value) + "\" -> \"" + Show(f.new_value) + "\"";
    }
    (f.regression ? regressions : formats) += line + "\n";
  }
  std::string notes;
  for (const std::string& note : diff.notes) notes += "  " + Show(note) + "\n";

  std::string out;
  auto section = [&out](std::string_view title, const std::string& body) {
    if (!body.empty()) out += std::string(title) + ":\n" + body;
  };
  section("regressions", regressions);
  section("changed", changed);
  section("added", added);
  section("removed", removed);
  section("formats", formats);
  section("notes", notes);
  if (!diff.HasDifferences()) {
    out += "arcs diff: no differences\n";
  } else {
    out += "arcs diff: " + Plural(diff.regressions, "regression", "regressions") + ", " +
           Plural(outcome_changes, "outcome change", "outcome changes") + ", " +
           Plural(record_changes, "other case change", "other case changes") + ", " +
           Plural(added_count, "case added", "cases added") + ", " +
           Plural(removed_count, "case removed", "cases removed") + ", " +
           Plural(diff.formats.size(), "format change", "format changes") + "\n";
  }
  return out;
}

}  // namespace arcs::report
