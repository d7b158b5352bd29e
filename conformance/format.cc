#include "conformance/format.h"

#include <algorithm>
#include <memory>

#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::conformance {

const protocol::Inputs& MadeInputs::Get() const {
  if (!made_) made_ = generate_();
  return *made_;
}

const protocol::Inputs* CaseInput::All() const {
  return inputs ? inputs : made ? &made->Get() : nullptr;
}

const std::string& CaseInput::Input(std::string_view name) const {
  static const std::string kNone;
  const protocol::Inputs* all = All();
  if (!all) return kNone;
  auto it = all->find(std::string(name));
  return it == all->end() ? kNone : it->second;
}

bool CaseInput::Has(std::string_view name) const {
  const protocol::Inputs* all = All();
  return all && all->contains(std::string(name));
}

bool FormatModule::IsNativeRuleId(std::string_view id) const {
  return std::any_of(
      native_rule_prefixes.begin(), native_rule_prefixes.end(), [&](std::string_view prefix) {
        if (!id.starts_with(prefix) || id.size() == prefix.size()) return false;
        const std::string_view rest = id.substr(prefix.size());
        return std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
      });
}

std::string FormatModule::Folder() const {
  std::string folder(name);
  std::replace(folder.begin(), folder.end(), '-', '_');
  return folder;
}

std::string FormatModule::CataloguePath() const {
  return "conformance/" + Folder() + "/requirements.json";
}

std::string FormatModule::ErrataPath() const { return "conformance/" + Folder() + "/errata.md"; }

std::string FormatModule::ManifestPath() const { return "vectors/" + Folder() + "/manifest.json"; }

const OperationSpec* FormatModule::FindOperation(std::string_view operation) const {
  for (const OperationSpec& op : operations) {
    if (op.name == operation) return &op;
  }
  return nullptr;
}

const PolicySpec* FormatModule::FindPolicy(std::string_view policy) const {
  for (const PolicySpec& p : policies) {
    if (p.name == policy) return &p;
  }
  return nullptr;
}

const LimitSpec* FormatModule::FindLimit(std::string_view limit) const {
  for (const LimitSpec& l : limits) {
    if (l.name == limit) return &l;
  }
  return nullptr;
}

LimitValues FormatModule::DefaultLimits() const {
  LimitValues values;
  for (const LimitSpec& l : limits) values[std::string(l.name)] = l.default_value;
  return values;
}

Status FormatModule::SetLimit(std::string_view limit, std::uint64_t value,
                              LimitValues* values) const {
  if (!FindLimit(limit)) {
    std::vector<std::string> known;
    for (const LimitSpec& l : limits) known.emplace_back(l.name);
    return Status(StatusCode::kInvalidArgument, "unknown " + std::string(name) + " limit '" +
                                                    std::string(limit) +
                                                    "' (known: " + Join(known) + ")");
  }
  (*values)[std::string(limit)] = value;
  return Status::Ok();
}

Result<LimitValues> FormatModule::LimitsFromArgs(std::string_view args) const {
  LimitValues values = DefaultLimits();
  if (args.empty()) return values;
  json::Document doc;
  Status status = json::ParseData(args, &doc);
  if (!status.ok()) return status;
  json::FieldReader f(&doc.root(), "", &status);
  f.ForEachMember(
      "limits", false, [&](std::string_view limit, const json::Value& value, const std::string& p) {
        std::optional<std::int64_t> n =
            value.is_number() ? json::ToInt64(value.text()) : std::nullopt;
        if (!n || *n < 0) {
          f.Fail(p, "expected a non-negative integer");
          return;
        }
        if (Status s = SetLimit(limit, static_cast<std::uint64_t>(*n), &values); !s.ok()) {
          f.Fail(p, s.message());
        }
      });
  for (const ArgumentSpec& a : arguments) {
    const json::Value* v = f.OptionalAny(a.name);
    if (v && !a.valid(*v)) f.Fail(f.Pointer(a.name), "expected " + std::string(a.what));
  }
  f.Finish();
  if (!status.ok()) return status;
  return values;
}

const Catalogue& FormatModule::BuiltInCatalogue() const {
  return EmbeddedCatalogue(catalogue_text);
}

Level FormatModule::LevelOf(std::string_view rule_id) const {
  const Requirement* r = BuiltInCatalogue().Find(rule_id);
  return r ? r->level : Level::kMust;
}

const protocol::Answer& LazyReferenceAnswer::Get() const {
  if (known_) return *known_;
  if (!computed_) computed_ = compute_(input_);
  return *computed_;
}

const protocol::Answer& AnswerCheck::ReferenceBy(LazyReferenceAnswer::Compute compute,
                                                 std::optional<protocol::Answer>* scratch) const {
  if (reference && reference->compute() == compute) return reference->Get();
  *scratch = compute(input);
  return **scratch;
}

void FormatModule::Validate(jsonl::ByteSource* source, const CompanionSources& companions,
                            const LimitValues& limits, Diagnostics* diagnostics) const {
  diagnostics->LevelsFrom([this](std::string_view rule_id) { return LevelOf(rule_id); });
  validator(source, companions, limits, diagnostics);
}

protocol::Answer ValidateCaseAnswer(const FormatModule& format, const CaseInput& input) {
  const OperationSpec* validate = format.FindOperation(kValidateOperation);
  if (!validate || validate->inputs.empty() || !format.validator) {
    protocol::Answer refused;
    refused.status = protocol::AnswerStatus::kErrored;
    refused.reason = std::string(format.name) + " has no validate operation with an input";
    return refused;
  }
  jsonl::MemorySource main(input.Input(validate->inputs.front()));
  std::vector<std::unique_ptr<jsonl::MemorySource>> owned;
  CompanionSources companions;
  for (const Companion& c : format.companions) {
    if (!input.Has(c.input)) continue;
    owned.push_back(std::make_unique<jsonl::MemorySource>(input.Input(c.input)));
    companions.emplace(std::string(c.input), owned.back().get());
  }
  Diagnostics diagnostics;
  format.Validate(&main, companions, input.limits, &diagnostics);
  protocol::Answer answer;
  answer.verdict =
      diagnostics.has_errors() ? protocol::Verdict::kInvalid : protocol::Verdict::kValid;
  answer.findings_given = true;
  for (const Finding& f : diagnostics.findings()) {
    answer.findings.push_back({f.rule_id, std::string(SeverityName(f.severity)), f.location.line,
                               f.location.pointer, f.message, f.reading});
  }
  return answer;
}

std::set<std::string> BrokenRules(const FormatModule& format, const CaseInput& input) {
  std::set<std::string> broken;
  for (const protocol::ReportedFinding& f : ValidateCaseAnswer(format, input).findings) {
    broken.insert(f.rule);
  }
  if (format.more_broken_rules) broken.merge(format.more_broken_rules(input));
  return broken;
}

}  // namespace arcs::conformance
