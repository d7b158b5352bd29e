#include "conformance/vectors.h"

#include <algorithm>
#include <set>

#include "reference/core/json_fields.h"
#include "reference/core/strings.h"

namespace arcs::conformance {
namespace {

constexpr int kManifestVersion = 2;

bool SortedUnique(const std::vector<std::string>& ids) {
  return std::adjacent_find(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) {
           return a >= b;
         }) == ids.end();
}

// The outcome words an operation's answers can have.
bool IsOutcome(const OperationSpec& op, std::string_view outcome) {
  return outcome == op.valid_outcome || outcome == op.invalid_outcome;
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
                   const std::string& pointer, Status* status, OperationCase* c) {
  json::FieldReader f(&value, pointer, status);
  c->operation = op.name;
  f.StringList("requirements", &c->requirements);
  if (f.ok() && c->requirements.empty()) f.Fail(f.Pointer("requirements"), "is empty");
  f.String("spec_text", &c->spec_text);
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
              const std::string& pointer, Status* status, VectorCase* c) {
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
    ReadOperation(format, op, *one, op_pointer, status, &c->operations.emplace_back());
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

std::string_view GroundName(Ground ground) {
  switch (ground) {
    case Ground::kRequired:
      return "required";
    case Ground::kPolicy:
      return "policy";
    case Ground::kAcceptable:
      return "acceptable";
    case Ground::kResource:
      return "resource";
  }
  return "";
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
  std::set<std::string> ids;
  f.ForEach("cases", true, [&](const json::Value& item, const std::string& pointer) {
    VectorCase& c = manifest.cases.emplace_back();
    ReadCase(format, folder, item, pointer, &status, &c);
    if (status.ok() && !ids.insert(c.id).second) {
      f.Fail(json::MemberPointer(pointer, "id"), "\"" + c.id + "\" is used twice");
    }
  });
  f.Finish();
  if (!status.ok()) return Status(status.code(), path + ": " + status.message());
  return manifest;
}

}  // namespace arcs::conformance
