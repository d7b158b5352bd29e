#include "conformance/vectors.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "reference/core/io.h"
#include "reference/core/json_fields.h"
#include "reference/core/strings.h"

namespace arcs::conformance {
namespace {

constexpr int kManifestVersion = 3;

bool SortedUnique(const std::vector<std::string>& ids) {
  return std::adjacent_find(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
           return a >= b;
         }) == ids.end();
}

// The outcome words an operation's answers can have.
bool IsOutcome(const OperationSpec& op, std::string_view outcome) {
  return outcome == op.valid_outcome || outcome == op.invalid_outcome;
}

// An errata entry's id ("SP-E14"): capitals, "-E", digits. No quote id has this form.
bool IsErrataId(std::string_view id) {
  const std::size_t e = id.find("-E");
  if (e == std::string_view::npos || e == 0 || e + 2 == id.size()) return false;
  const auto upper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  return std::all_of(id.begin(), id.begin() + e, upper) &&
         std::all_of(id.begin() + e + 2, id.end(), digit);
}

// The manifest's "quotes" table and the ids the operations cite from it.
struct Quotes {
  std::map<std::string, std::string> texts;
  std::set<std::string> cited;
};

// An operation's "cites" as the text it stands for (vectors/README.md): each quotation, each run
// of errata ids as one "errata A, B", joined with "; ".
void ResolveCites(json::FieldReader* f, Quotes* quotes, OperationCase* c) {
  std::vector<std::string> cites;
  f->StringList("cites", &cites);
  if (f->ok() && cites.empty()) f->Fail(f->Pointer("cites"), "is empty");
  std::vector<std::string> parts;
  std::vector<std::string> errata;
  const auto end_errata = [&] {
    if (!errata.empty()) parts.push_back("errata " + Join(errata));
    errata.clear();
  };
  for (std::size_t i = 0; i < cites.size() && f->ok(); ++i) {
    const std::string& id = cites[i];
    if (IsErrataId(id)) {
      errata.push_back(id);
      c->errata_cited.push_back(id);
      continue;
    }
    const auto quote = quotes->texts.find(id);
    if (quote == quotes->texts.end()) {
      f->Fail(json::ElementPointer(f->Pointer("cites"), i),
              "\"" + id + "\" is neither a quote of /quotes nor an errata id");
      return;
    }
    end_errata();
    parts.push_back(quote->second);
    quotes->cited.insert(id);
  }
  end_errata();
  c->spec_text = Join(parts, "; ");
}

class ExpectationReader {
 public:
  ExpectationReader(const FormatModule& format, const OperationSpec& op, Status* status)
      : format_(format), op_(op), status_(status) {}

  void Read(const json::Value* value, const std::string& pointer, Expectation* e) {
    json::FieldReader f(value, pointer, status_);
    if (!f.ok()) return;
    if (f.OptionalString("outcome", &e->outcome)) {
      e->ground = Ground::kRequired;
      CheckOutcome(&f, "outcome", e->outcome);
    } else if (f.OptionalString("flag", &e->flag)) {
      e->ground = Ground::kAcceptable;
      f.StringMap("readings", &e->outcomes);
      f.String("arcs", &e->arcs_reading);
      CheckReadings(&f, *e);
      if (f.OptionalString("policy", &e->policy)) CheckReadingsSplit(&f, *e);
    } else if (f.OptionalString("policy", &e->policy)) {
      e->ground = Ground::kPolicy;
      f.StringMap("outcomes", &e->outcomes);
      CheckPolicy(&f, *e);
    } else {
      f.Fail(pointer, "needs \"outcome\" (required), \"policy\" or \"flag\" (acceptable)");
    }
    f.Finish();
  }

 private:
  void CheckOutcome(json::FieldReader* f, std::string_view member, const std::string& outcome) {
    if (f->ok() && !IsOutcome(op_, outcome)) {
      f->Fail(f->Pointer(member),
              "\"" + outcome + "\" is not an outcome of " + std::string(op_.name) + " (" +
                  std::string(op_.valid_outcome) + " or " + std::string(op_.invalid_outcome) + ")");
    }
  }

  void CheckPolicy(json::FieldReader* f, const Expectation& e) {
    if (!f->ok()) return;
    const PolicySpec* policy = format_.FindPolicy(e.policy);
    if (!policy) {
      f->Fail(f->Pointer("policy"),
              "\"" + e.policy + "\" is not a policy of " + std::string(format_.name));
      return;
    }
    std::set<std::string> choices(policy->choices.begin(), policy->choices.end());
    std::set<std::string> listed;
    for (const auto& [choice, outcome] : e.outcomes) {
      listed.insert(choice);
      if (!choices.contains(choice)) {
        f->Fail(json::MemberPointer(f->Pointer("outcomes"), choice), "not a choice of " + e.policy);
      }
      CheckOutcomeAt(f, json::MemberPointer(f->Pointer("outcomes"), choice), outcome);
    }
    if (f->ok() && listed != choices) {
      f->Fail(f->Pointer("outcomes"),
              "must list every choice of " + e.policy + " (" +
                  Join(std::vector<std::string>(choices.begin(), choices.end())) + ")");
    }
  }

  void CheckReadings(json::FieldReader* f, const Expectation& e) {
    if (!f->ok()) return;
    std::set<std::string> outcomes;
    for (const auto& [reading, outcome] : e.outcomes) {
      CheckOutcomeAt(f, json::MemberPointer(f->Pointer("readings"), reading), outcome);
      outcomes.insert(outcome);
    }
    if (f->ok() && outcomes.size() < 2) {
      f->Fail(f->Pointer("readings"),
              "an acceptable set needs readings with different outcomes (else it is required)");
    }
    if (f->ok() && !e.outcomes.contains(e.arcs_reading)) {
      f->Fail(f->Pointer("arcs"), "\"" + e.arcs_reading + "\" is not one of the readings");
    }
  }

  // Every reading named "<reading>-<choice>" by a choice of the policy, and every choice with
  // a reading.
  void CheckReadingsSplit(json::FieldReader* f, const Expectation& e) {
    if (!f->ok()) return;
    const PolicySpec* policy = format_.FindPolicy(e.policy);
    if (!policy) {
      f->Fail(f->Pointer("policy"),
              "\"" + e.policy + "\" is not a policy of " + std::string(format_.name));
      return;
    }
    std::set<std::string_view> chosen;
    for (const auto& [reading, outcome] : e.outcomes) {
      const std::string_view choice = ReadingChoice(reading, *policy);
      if (choice.empty()) {
        f->Fail(json::MemberPointer(f->Pointer("readings"), reading),
                "must be named <reading>-<choice>, a choice of " + e.policy);
        return;
      }
      chosen.insert(choice);
    }
    if (chosen.size() != policy->choices.size()) {
      f->Fail(f->Pointer("readings"), "must give readings under every choice of " + e.policy);
    }
  }

  void CheckOutcomeAt(json::FieldReader* f, const std::string& pointer,
                      const std::string& outcome) {
    if (f->ok() && !IsOutcome(op_, outcome)) {
      f->Fail(pointer, "\"" + outcome + "\" is not an outcome of " + std::string(op_.name));
    }
  }

  const FormatModule& format_;
  const OperationSpec& op_;
  Status* status_;
};

void ReadRuleSets(json::FieldReader* parent, Status* status, RuleSets* rules) {
  const json::Value* value = parent->Optional("rules", json::Kind::kObject);
  if (!value) return;
  rules->given = true;
  json::FieldReader f(value, parent->Pointer("rules"), status);
  f.StringList("errors", &rules->errors);
  f.StringList("warnings", &rules->warnings);
  f.Finish();
  for (std::string_view list : {"errors", "warnings"}) {
    const auto& ids = list == "errors" ? rules->errors : rules->warnings;
    if (f.ok() && !SortedUnique(ids)) f.Fail(f.Pointer(list), "must be sorted and unique");
  }
}

void ReadOperation(const FormatModule& format, const OperationSpec& op, const json::Value& value,
                   const std::string& pointer, Quotes* quotes, Status* status, OperationCase* c) {
  json::FieldReader f(&value, pointer, status);
  c->operation = op.name;
  f.StringList("requirements", &c->requirements);
  if (f.ok() && c->requirements.empty()) f.Fail(f.Pointer("requirements"), "is empty");
  if (f.ok() && !SortedUnique(c->requirements)) {
    f.Fail(f.Pointer("requirements"), "must be sorted and unique");
  }
  ResolveCites(&f, quotes, c);
  ExpectationReader(format, op, status)
      .Read(f.Required("expect", json::Kind::kObject), f.Pointer("expect"), &c->expect);
  ReadRuleSets(&f, status, &c->rules);
  f.OptionalString("same_hash_as", &c->same_hash_as);
  if (const json::Value* properties =
          f.Optional("expect_" + std::string(op.name), json::Kind::kObject)) {
    c->expected_properties = json::ToString(*properties);
  }
  f.Finish();
}

void ReadCase(const FormatModule& format, const std::string& folder, const json::Value& value,
              const std::string& pointer, Quotes* quotes, Status* status, VectorCase* c) {
  json::FieldReader f(&value, pointer, status);
  f.String("id", &c->id);
  if (f.ok() && !c->id.starts_with(std::string(format.name) + "-")) {
    f.Fail(f.Pointer("id"), "must start with \"" + std::string(format.name) + "-\"");
  }
  f.String("description", &c->description);
  f.StringMap("inputs", &c->inputs);
  for (auto& [name, file] : c->inputs) file = folder + file;
  if (const json::Value* args = f.Optional("args", json::Kind::kObject)) {
    c->args = json::ToString(*args);
  }
  Result<LimitValues> limits = format.LimitsFromArgs(c->args);
  if (f.ok() && !limits.ok()) f.Fail(f.Pointer("args"), limits.status().message());
  if (limits.ok()) c->limits = std::move(*limits);
  const json::Value* operations = f.Required("operations", json::Kind::kObject);
  for (const OperationSpec& op : format.operations) {
    const json::Value* one = operations ? operations->Find(op.name) : nullptr;
    if (!one || !f.ok()) continue;
    const std::string op_pointer = json::MemberPointer(f.Pointer("operations"), op.name);
    for (std::string_view input : op.inputs) {
      // A companion (meta.json beside events.jsonl) may be absent, as beside a file on disk.
      const bool optional = std::any_of(format.companions.begin(), format.companions.end(),
                                        [&](const Companion& c) { return c.input == input; });
      if (f.ok() && !optional && !c->inputs.contains(std::string(input))) {
        f.Fail(op_pointer, "needs the input \"" + std::string(input) + "\"");
      }
    }
    ReadOperation(format, op, *one, op_pointer, quotes, status, &c->operations.emplace_back());
  }
  if (operations && f.ok()) {
    for (const json::Member& m : operations->members()) {
      if (!format.FindOperation(m.name)) {
        f.Fail(json::MemberPointer(f.Pointer("operations"), m.name),
               "not an operation of " + std::string(format.name));
      }
    }
    if (f.ok() && c->operations.empty()) f.Fail(f.Pointer("operations"), "is empty");
  }
  f.Finish();
}

// "/cases/<i>/operations/<operation>".
std::string OperationPointer(std::size_t i, const OperationCase& op) {
  return json::MemberPointer(json::MemberPointer(json::ElementPointer("/cases", i), "operations"),
                             op.operation);
}

std::string Listed(const std::set<std::string>& names) {
  return Join(std::vector<std::string>(names.begin(), names.end()));
}

// A reading name means one interpretation across a flag's cases (vectors/README.md): every case of
// a flag lists the same reading names, in every operation. Fails at the first that differs.
void CheckFlagReadings(const Manifest& manifest, json::FieldReader* f) {
  struct FirstSeen {
    std::set<std::string> names;
    std::string pointer;
  };
  std::map<std::string, FirstSeen> by_flag;
  for (std::size_t i = 0; i < manifest.cases.size() && f->ok(); ++i) {
    for (const OperationCase& op : manifest.cases[i].operations) {
      if (op.expect.ground != Ground::kAcceptable) continue;
      std::set<std::string> names;
      for (const auto& [reading, outcome] : op.expect.outcomes) names.insert(reading);
      const auto [first, added] =
          by_flag.try_emplace(op.expect.flag, FirstSeen{names, OperationPointer(i, op)});
      if (!added && first->second.names != names) {
        f->Fail(OperationPointer(i, op) + "/expect/readings",
                "the cases of " + op.expect.flag + " must list the same readings (" +
                    Listed(names) + " here, " + Listed(first->second.names) + " at " +
                    first->second.pointer + ")");
        return;
      }
    }
  }
}

// A hash case's same_hash_as names another case of the manifest.
void CheckSameHash(const Manifest& manifest, const std::set<std::string>& ids,
                   json::FieldReader* f) {
  for (std::size_t i = 0; i < manifest.cases.size() && f->ok(); ++i) {
    for (const OperationCase& op : manifest.cases[i].operations) {
      const std::string& other = op.same_hash_as;
      if (other.empty() || (other != manifest.cases[i].id && ids.contains(other))) continue;
      f->Fail(OperationPointer(i, op) + "/same_hash_as",
              "\"" + other + "\" is not another case of the manifest");
      return;
    }
  }
}

}  // namespace

std::string_view ReadingChoice(std::string_view reading, const PolicySpec& policy) {
  for (std::string_view choice : policy.choices) {
    if (reading.size() > choice.size() + 1 && reading.ends_with(choice) &&
        reading[reading.size() - choice.size() - 1] == '-') {
      return choice;
    }
  }
  return {};
}

Result<Manifest> LoadManifest(const std::string& path, const FormatModule& format) {
  json::Document doc;
  if (Status s = json::LoadDataFile(path, &doc); !s.ok()) return s;
  const std::string folder = path.substr(0, path.find_last_of('/') + 1);
  Status status;
  Manifest manifest;
  json::FieldReader f(&doc.root(), "", &status);
  int version = 0;
  f.Int("manifest_version", &version);
  if (f.ok() && version != kManifestVersion) {
    f.Fail(f.Pointer("manifest_version"),
           "this build reads version " + std::to_string(kManifestVersion));
  }
  f.String("format", &manifest.format);
  if (f.ok() && manifest.format != format.name) {
    f.Fail(f.Pointer("format"), "expected \"" + std::string(format.name) + "\"");
  }
  f.String("spec", &manifest.spec);
  f.String("spec_version", &manifest.spec_version);
  f.String("catalogue", &manifest.catalogue);
  f.String("errata", &manifest.errata);
  Quotes quotes;
  f.StringMap("quotes", &quotes.texts);
  std::set<std::string> ids;
  f.ForEach("cases", true, [&](const json::Value& item, const std::string& pointer) {
    VectorCase& c = manifest.cases.emplace_back();
    ReadCase(format, folder, item, pointer, &quotes, &status, &c);
    if (status.ok() && !ids.insert(c.id).second) {
      f.Fail(json::MemberPointer(pointer, "id"), "\"" + c.id + "\" is used twice");
    }
  });
  if (f.ok()) CheckFlagReadings(manifest, &f);
  if (f.ok()) CheckSameHash(manifest, ids, &f);
  // A quotation no operation cites is a stale one (or a misspelt id whose citation failed).
  for (const auto& [id, text] : quotes.texts) {
    if (f.ok() && !quotes.cited.contains(id)) {
      f.Fail(json::MemberPointer(f.Pointer("quotes"), id), "is cited by no operation");
    }
  }
  f.Finish();
  if (!status.ok()) return Status(status.code(), path + ": " + status.message());
  return manifest;
}

namespace {

std::set<std::string> ErrataIds(const std::string& text) {
  std::set<std::string> ids;
  for (std::string_view line : LinesWithEnds(text)) {
    if (!line.starts_with("### ")) continue;
    line.remove_prefix(4);
    const std::size_t end = line.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
    const std::string_view id = line.substr(0, end);
    if (IsErrataId(id)) ids.insert(std::string(id));
  }
  return ids;
}

std::vector<std::string> UnknownErrata(const Manifest& manifest, const std::set<std::string>& ids) {
  std::vector<std::string> unknown;
  for (const VectorCase& c : manifest.cases) {
    for (const OperationCase& op : c.operations) {
      std::vector<std::string> cited = op.errata_cited;
      if (!op.expect.flag.empty()) cited.push_back(op.expect.flag);
      for (const std::string& id : cited) {
        if (!ids.contains(id)) unknown.push_back(c.id + "/" + op.operation + ": " + id);
      }
    }
  }
  return unknown;
}

std::vector<std::string> InputProblems(const Manifest& manifest, const std::string& cases_dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> problems;
  std::set<fs::path> named;
  for (const VectorCase& c : manifest.cases) {
    for (const auto& [name, file] : c.inputs) {
      named.insert(fs::path(file).lexically_normal());
      if (!fs::is_regular_file(file)) problems.push_back(c.id + ": input " + name + " " + file);
    }
  }
  std::error_code error;
  for (const auto& entry : fs::recursive_directory_iterator(cases_dir, error)) {
    if (entry.is_regular_file() && !named.contains(entry.path().lexically_normal())) {
      problems.push_back("named by no case: " + entry.path().string());
    }
  }
  if (error) problems.push_back(cases_dir + ": " + error.message());
  return problems;
}

}  // namespace

Status CheckManifestReferences(const Manifest& manifest, const FormatModule& format,
                               const std::string& root) {
  Result<std::string> errata = ReadFile(root + "/" + manifest.errata);
  if (!errata.ok()) return errata.status();
  std::vector<std::string> problems;
  if (const auto unknown = UnknownErrata(manifest, ErrataIds(*errata)); !unknown.empty()) {
    problems.push_back("not an entry of " + manifest.errata + ": " + Join(unknown, "; "));
  }
  const std::string manifest_path = format.ManifestPath();
  const std::string cases_dir =
      root + "/" + manifest_path.substr(0, manifest_path.find_last_of('/') + 1) + "cases";
  if (const auto inputs = InputProblems(manifest, cases_dir); !inputs.empty()) {
    problems.push_back("missing or stray input files: " + Join(inputs, "; "));
  }
  if (problems.empty()) return Status();
  return Status(StatusCode::kParseError,
                std::string(format.name) + " manifest: " + Join(problems, "; "));
}

}  // namespace arcs::conformance
