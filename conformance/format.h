// A format ARCS certifies, as one module: everything the runner, `arcs validate`, `arcs serve`,
// the vector and catalogue tests need to know about it. Each format defines its module in its own
// folder (conformance/<format>/module.cc); conformance/registry.cc is the only list of formats,
// and nothing outside a format's folders includes that format's headers. ADDING_A_FORMAT.md
// walks through a new one.
#ifndef ARCS_CONFORMANCE_FORMAT_H_
#define ARCS_CONFORMANCE_FORMAT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/catalogue.h"
#include "protocol/protocol.h"
#include "reference/core/diagnostics.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/status.h"

namespace arcs::conformance {

// A resource limit the spec obliges implementations to set (Spool §10.1): its name in a case's
// args.limits and on the command line, the reference's default, and the requirement a finding
// over it cites.
struct LimitSpec {
  std::string_view name;
  std::uint64_t default_value;
  std::string_view rule_id;
  std::string_view what;  // one line for --help
};

// The operation every format has: its validator's verdict on a case's input (ValidateCaseAnswer).
inline constexpr std::string_view kValidateOperation = "validate";

// The names of the limits ARCS itself acts on wherever a format has them: `arcs validate` reads a
// file of a format that bounds its lines as JSON Lines (and says so of one pretty-printed JSON
// document), at the format's JSON depth bound.
inline constexpr std::string_view kMaxLineBytesLimit = "max_line_bytes";
inline constexpr std::string_view kMaxJsonDepthLimit = "max_json_depth";

// Limit values by name, every limit of the format present: its defaults, overridden.
using LimitValues = std::map<std::string, std::uint64_t, std::less<>>;

// A limit of the module bound to the field of the reference's own Limits struct that holds it,
// so that a module writes each limit once and converts both ways with the helpers below.
template <typename Limits>
struct BoundLimit {
  LimitSpec spec;
  std::uint64_t Limits::*field;
};

template <typename Limits>
std::vector<LimitSpec> LimitSpecs(const std::vector<BoundLimit<Limits>>& bound) {
  std::vector<LimitSpec> specs;
  for (const BoundLimit<Limits>& l : bound) specs.push_back(l.spec);
  return specs;
}

// The reference's limits from limit values (a name absent keeps the struct's default).
template <typename Limits>
Limits ToReferenceLimits(const std::vector<BoundLimit<Limits>>& bound, const LimitValues& values) {
  Limits limits;
  for (const BoundLimit<Limits>& l : bound) {
    auto it = values.find(l.spec.name);
    if (it != values.end()) limits.*l.field = it->second;
  }
  return limits;
}

// A choice the spec leaves to implementations, declared once in the protocol hello.
struct PolicySpec {
  std::string_view name;
  std::vector<std::string_view> choices;
  std::string_view reference_choice;  // what the reference declares
  std::string_view passage;           // where the spec leaves the choice, e.g. "spool.md §11.4.3"
};

// A hash chain over the lines of an input (Lightbox's events.jsonl): each line an object whose
// `hash_member` holds the line's own hash and whose `link_member` the previous line's (null on the
// first). An integrity check rejects nearly every change to such an input, so `arcs fuzz` seals
// some of its mutants again to reach the rules behind the check (runner/fuzz/rechain.h).
struct HashChain {
  std::string_view input;  // the case input that holds the chain: "events"
  std::string_view hash_member;
  std::string_view link_member;
  // The hash of one line's object as the format computes it (its link included), or why it has
  // none (not an object, a float in it, ...).
  Result<std::string> (*line_hash)(std::string_view line) = nullptr;
};

// What one case gives an operation: its named inputs and its limits (already checked).
// A file read beside the one a format validates (see FormatModule::companions).
struct Companion {
  std::string_view input;      // its input name in cases, "meta"
  std::string_view file_name;  // its name in the validated file's folder, "meta.json"
};
// The companions found, by input name; an absent one is not in the map.
using CompanionSources = std::map<std::string, jsonl::ByteSource*, std::less<>>;

// A resource probe's inputs, made when first read and then kept: `arcs run` holds none of a
// probe's tens of megabytes while its answer comes in, and most judgements never read them.
class MadeInputs {
 public:
  explicit MadeInputs(protocol::Inputs (*generate)()) : generate_(generate) {}
  const protocol::Inputs& Get() const;

 private:
  protocol::Inputs (*generate_)();
  mutable std::optional<protocol::Inputs> made_;
};

struct CaseInput {
  const protocol::Inputs* inputs = nullptr;  // name -> bytes
  LimitValues limits;
  std::string_view args = {};        // the case's args object as compact JSON, "" for none
  const MadeInputs* made = nullptr;  // where `inputs` is null until they are first read
  const std::string& Input(std::string_view name) const;  // "" when absent
  bool Has(std::string_view name) const;
  const protocol::Inputs* All() const;  // null when there are none
};

// A member of a case's args besides `limits`: a choice the user of an implementation makes on
// its command line, which a case states (TJ-SPEC-010's match mode: errata MRR-E1 "Inputs, not
// policies"). An absent one means the spec's default.
struct ArgumentSpec {
  std::string_view name;
  std::string_view what;  // its values and default, one line
  bool (*valid)(const json::Value& value);
};

// A case the runner makes at run time to probe an implementation's resource limits: the spec
// obliges implementations to set limits (Spool §10.1), and no committed vector can show they are
// there without setting them itself. Too big to commit, the input is generated for the run and
// dropped after it. Any verdict passes if it comes within the timeout and without a crash; the
// report shows the implementation's peak memory for it. Where the spec itself fixes the limit
// (Model IO's MI11: 100,000,000 bytes of content in a session), the text settles the outcome of
// an operation, and the probe requires it.
struct ResourceProbe {
  std::string_view name;  // the case id is "<format>-resource-<name>"
  std::string_view description;
  std::vector<std::string_view> requirements;  // the limit requirements it probes
  std::string_view spec_text;
  std::map<std::string, std::string> (*generate)();  // the named inputs
  // operation -> the outcome the text requires; an operation not listed may give any verdict.
  std::map<std::string_view, std::string_view> required_outcomes = {};
};

// Where the errata leave open whether an operation refuses an input the format's validator finds
// invalid (Model IO's hash of an invalid session: errata MIO-E4), and whose refusal the entry's
// readings explain: a disagreement over such an input is no finding of `arcs fuzz`.
struct AnswerCheck;
struct RefusalReading {
  std::string_view operation;
  std::string_view flag;
  bool reference_may_refuse = true;       // the reference refuses, the implementation serves
  bool implementation_may_refuse = true;  // the implementation refuses, the reference serves
  // What an answer that serves an input the reference refuses must still hold: the output the
  // serving reading computes (Model IO: the hash §4.3's code gives an invalid session). "" when
  // it does; null when nothing is known to hold it to.
  std::string (*check_served)(const AnswerCheck& check) = nullptr;
};

class FormatModule;

// The reference's answer to one case (its operation's `reference` over the case's input),
// computed when first asked for and then kept: the checks of an answer, the evidence of a failed
// case and `arcs fuzz` share one computation. Both the input and a known answer must outlive it.
class LazyReferenceAnswer {
 public:
  using Compute = protocol::Answer (*)(const CaseInput&);
  // `known`: the answer when already computed (arcs fuzz asks `arcs serve`'s code first), or null.
  LazyReferenceAnswer(Compute compute, const CaseInput& input,
                      const protocol::Answer* known = nullptr)
      : compute_(compute), input_(input), known_(known) {}
  const protocol::Answer& Get() const;
  Compute compute() const { return compute_; }

 private:
  Compute compute_;
  const CaseInput& input_;
  const protocol::Answer* known_;
  mutable std::optional<protocol::Answer> computed_;
};

struct PropertyReadings {
  std::string flag;
  std::vector<std::string> readings;
  std::string arcs;
};

// An answer to hold to what an operation asks beyond its verdict.
struct AnswerCheck {
  const CaseInput& input;
  const protocol::Answer& answer;
  const std::map<std::string, std::string>& policies;  // as the implementation declared them
  // The case's expectation is an acceptable set: the implementation's reading of the ambiguity
  // may keep or drop what ARCS's reading does not.
  bool ambiguous = false;
  // A hash case's claim that it hashes as another case does (OperationCase::same_hash_as): where
  // it is made, the readings differ only on whether to hash, never on the value.
  std::string_view same_hash_as = {};
  // The case's expect_<operation> member as compact JSON, "" for none (OperationCase).
  std::string_view expected_properties = {};
  // Where a check puts what the answer misses at a SHOULD: it costs the implementation nothing
  // but the strict profile, and the report shows it. Null when nobody listens.
  std::string* advisory = nullptr;
  // Where a check whose expected properties differ by the readings of a flag (but whose outcome
  // word does not) reports the flag, the readings the answer agrees with and the ARCS reading, so
  // that the report follows the reading an implementation takes as for an acceptable outcome.
  // Null when nobody listens.
  PropertyReadings* readings = nullptr;
  // The reference's answer to the case, shared with whoever holds the case; null when none is.
  const LazyReferenceAnswer* reference = nullptr;

  // The answer `compute` gives the input: the shared one when `compute` is what `reference`
  // computes with, else computed now into *scratch.
  const protocol::Answer& ReferenceBy(LazyReferenceAnswer::Compute compute,
                                      std::optional<protocol::Answer>* scratch) const;
};

// One operation of a format (validate, roundtrip, verify, hash, ...).
struct OperationSpec {
  std::string_view name;
  std::string_view summary;  // what the implementation does, one line
  // The inputs a case of this operation carries, by name.
  std::vector<std::string_view> inputs;
  // What an answer's verdict means here: the outcome word for "valid", then for "invalid".
  std::string_view valid_outcome;
  std::string_view invalid_outcome;
  // The reference's answer (id and status left to the caller).
  protocol::Answer (*reference)(const CaseInput& input);
  // Checks what else the operation asks of an answer besides its verdict (a round trip's
  // output when it accepts; a chain's first broken event when it is broken). "" when it holds,
  // else what is wrong. Null when the verdict is all there is.
  std::string (*check_answer)(const AnswerCheck& check) = nullptr;
};

// What a format's own command produced: lines for standard output and for standard error, and
// the exit status. The runner prints them, escaped: they quote files (names, content).
struct VerbOutput {
  int exit_code = 0;
  std::vector<std::string> out;
  std::vector<std::string> err;
  // A document the verb made (SessionData's Markdown transcript): written to standard output byte
  // for byte after `out`, since escaping it would change it.
  std::string document;
};

// A command of the format's own, `arcs <format> <verb> ARGS...` (Lightbox: verify, hash).
struct VerbSpec {
  std::string_view name;
  std::string_view help;     // usage, what it does, exit statuses
  std::string_view summary;  // one line for `arcs FORMAT --help`
  VerbOutput (*run)(const std::vector<std::string>& args);
  // Non-empty: the verb is also the command `arcs VERB FILE`, run by the format the file's name or
  // content tells (`arcs render session.json`), and `arcs --help` lists it with this line.
  std::string_view file_command_summary = {};
};

class FormatModule {
 public:
  std::string_view name;  // "spool": directory names, --format, the protocol
  // A shorter name for the format's commands, as its spec writes them ("mcp": `arcs mcp replay`
  // for TJ-SPEC-010's `thoughtjack replay`); "" for none. `arcs NAME VERB` works either way.
  std::string_view command_alias;
  std::string_view title;         // "Spool 1.0"
  std::string_view spec;          // the normative text's file name in the shared specs folder
  std::string_view spec_version;  // "1.0"
  // Requirement ids are rule_prefix, the section and a number ("SP-4.2-1"), except the ids the
  // spec gives its own requirements, kept as it writes them (Model IO's invariants MI1..MI12;
  // TJ-SPEC-010's EC-REC-001, F-002, NFR-001): those start with one of native_rule_prefixes and
  // go on with digits only.
  std::string_view rule_prefix;                        // "SP-"
  std::vector<std::string_view> native_rule_prefixes;  // {"MI"}; empty when the spec names none
  bool IsNativeRuleId(std::string_view id) const;
  // How a file of the format is named: an extension (".spool") or a whole file name
  // ("events.jsonl", matched after a '/').
  std::vector<std::string_view> extensions;
  std::string_view extension_rule;  // the requirement that names the extension, if the spec has one
  // Whether the first bytes of a file (up to 64 KiB) look like this format.
  bool (*sniff)(std::string_view head) = nullptr;
  std::vector<LimitSpec> limits;
  std::vector<ArgumentSpec> arguments;
  std::vector<PolicySpec> policies;
  std::vector<OperationSpec> operations;
  std::vector<HashChain> hash_chains;
  std::vector<RefusalReading> refusal_readings;
  // Inputs the test harness provides rather than the recording under test (MCP replay's upstream:
  // the table of a stub server): `arcs fuzz` never mutates them.
  std::vector<std::string_view> harness_inputs;
  // Played against every operation whose inputs a probe provides.
  std::vector<ResourceProbe> resource_probes;
  // Every rule id the validator can cite. Levels are not here: they come from the catalogue.
  std::vector<std::string_view> (*rules)() = nullptr;
  // A format whose recordings are folders (Lightbox: a session folder holding events.jsonl and
  // meta.json): the file inside a folder that `arcs validate FOLDER` reads; "" for none.
  std::string_view folder_file;
  // Files read beside the one validated, when present, by input name (Lightbox: "meta" from
  // meta.json). Cases carry them as named inputs like the main one.
  std::vector<Companion> companions;
  // The format's validator: the verdict on a file and the companions found beside it, every
  // finding into *diagnostics. Callers use Validate, which gives the findings their levels.
  void (*validator)(jsonl::ByteSource* source, const CompanionSources& companions,
                    const LimitValues& limits, Diagnostics* diagnostics) = nullptr;
  // The format's own commands.
  std::vector<VerbSpec> verbs;
  // Rules a validate case's input breaks beyond those its validator reports: where the validator
  // stops early or cites a field table for what also breaks an invariant, the invariants judged
  // on their own (Model IO). Null when the validator's findings say it all (BrokenRules).
  std::set<std::string> (*more_broken_rules)(const CaseInput& input) = nullptr;
  // The catalogue as built into the binary (requirements.json, embedded at build time), so the
  // level of every finding comes from the catalogue and nowhere else.
  std::string_view (*catalogue_text)() = nullptr;

  // The format's folder in each part (reference/, conformance/, vectors/, schemas/, fuzz/): its
  // name with '_' for '-' ("model-io" lives in model_io/), a name C++ and CMake take as it is.
  std::string Folder() const;
  // Repository paths, by convention from the folder.
  std::string CataloguePath() const;  // conformance/<folder>/requirements.json
  std::string ErrataPath() const;     // conformance/<folder>/errata.md
  std::string ManifestPath() const;   // vectors/<folder>/manifest.json

  const OperationSpec* FindOperation(std::string_view operation) const;
  const PolicySpec* FindPolicy(std::string_view policy) const;
  const LimitSpec* FindLimit(std::string_view limit) const;
  LimitValues DefaultLimits() const;
  // Sets a limit by name; kInvalidArgument naming the known limits when there is no such limit.
  Status SetLimit(std::string_view limit, std::uint64_t value, LimitValues* values) const;
  // The limits of a case's args object (compact JSON text, "" for none): {"limits": {...}} and
  // the format's arguments, nothing else; every name in limits must be a limit of the format and
  // every value a count, every argument valid.
  Result<LimitValues> LimitsFromArgs(std::string_view args) const;
  // The embedded catalogue, parsed once.
  const Catalogue& BuiltInCatalogue() const;
  // The level of a requirement by the embedded catalogue (kMust for an unknown id, which the
  // catalogue test forbids).
  Level LevelOf(std::string_view rule_id) const;
  // Runs the validator, every finding's level taken from the catalogue (LevelOf): the one place
  // a level is decided, so that a checker never states one.
  void Validate(jsonl::ByteSource* source, const CompanionSources& companions,
                const LimitValues& limits, Diagnostics* diagnostics) const;
};

// The reference's answer to a validate case of `format`: its validator over the case's first input
// of the operation and the companions the case carries, every finding with its rule id. Every
// module's validate operation answers with it.
protocol::Answer ValidateCaseAnswer(const FormatModule& format, const CaseInput& input);

// Every rule id the input of a validate case breaks under some reading the reference knows: its
// validator's findings of every severity, with or without an errata reading, and the module's
// more_broken_rules. The judge holds the rules an implementation names to these: a named rule
// passes when the file really breaks it, whichever rule the reference itself names.
std::set<std::string> BrokenRules(const FormatModule& format, const CaseInput& input);

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_FORMAT_H_
