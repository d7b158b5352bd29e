// Vector manifests, version 3 (vectors/<format>/manifest.json, documented in vectors/README.md):
// the cases of a format, each with named inputs, args, and per operation its own requirements
// and expectation; the quotations that justify them stated once, in the manifest's "quotes", and
// cited by id. Tests are data: this only loads them, strictly; runner/judge.h judges answers
// against them, for the reference and every implementation alike.
#ifndef ARCS_CONFORMANCE_VECTORS_H_
#define ARCS_CONFORMANCE_VECTORS_H_

#include <map>
#include <string>
#include <vector>

#include "conformance/format.h"
#include "conformance/ground.h"
#include "reference/core/status.h"

namespace arcs::conformance {

// What a vector expects of one operation, by its ground (conformance/ground.h):
//  kRequired    the quoted text settles the outcome.
//  kPolicy      the text leaves a choice to implementations; the outcome follows the choice the
//               implementation declares (`outcomes`: choice -> outcome, every choice listed).
//  kAcceptable  the text is silent or ambiguous: any reading of the errata entry `flag` is
//               acceptable (`outcomes`: reading -> outcome); `arcs_reading` is the reference's.
//               With `policy` too, each reading is split by the policy's choices and named
//               "<reading>-<choice>": only the readings of the declared choice are acceptable
//               (SessionData: a reading of a statement, under the statement declared).
//  kResource    a resource probe (format.h): any verdict, in time and without a crash. Never in
//               a manifest; the runner makes these cases.
struct Expectation {
  Ground ground = Ground::kRequired;
  std::string outcome;                          // kRequired
  std::string policy;                           // kPolicy; kAcceptable split by a policy
  std::string flag;                             // kAcceptable
  std::map<std::string, std::string> outcomes;  // kPolicy, kAcceptable
  std::string arcs_reading;                     // kAcceptable
};

// The ARCS checker's exact rule-id sets for a validate case (informative for other
// implementations; the reference must match them).
struct RuleSets {
  bool given = false;
  std::vector<std::string> errors;    // sorted, unique
  std::vector<std::string> warnings;  // sorted, unique
};

struct OperationCase {
  std::string operation;
  std::vector<std::string> requirements;
  // The quotations and errata entries the operation cites (its "cites"), as one text:
  // `§x.y: "..."; §z: "..."; errata SP-E14, SP-E32`.
  std::string spec_text;
  std::vector<std::string> errata_cited = {};  // the errata ids among the cites, in order
  Expectation expect;
  RuleSets rules;
  // What the operation asks of an answer beyond its verdict, as the manifest's "expect_<operation>"
  // member holds it (compact JSON; "" for none): SessionData's expect_render. The operation's
  // check reads it.
  std::string expected_properties;
  // A hash operation's claim that this case hashes as another does (Model IO's MI12 proofs: two
  // sessions that differ only in what the core leaves out): that case's id, or "".
  std::string same_hash_as;
};

struct VectorCase {
  std::string id;
  std::string description;
  std::map<std::string, std::string> inputs;  // input name -> file path, resolved
  std::string args;                           // the args object as compact JSON, "" for none
  LimitValues limits;                         // from args, over the format's defaults
  std::vector<OperationCase> operations;      // in the format's operation order
};

struct Manifest {
  std::string format;
  std::string spec;
  std::string spec_version;
  std::string catalogue;  // repository path of the requirement catalogue the cases cite
  std::string errata;     // repository path of the errata the flags name
  std::vector<VectorCase> cases;
};

// The choice of `policy` a reading split by it names ("go-folding-rules" -> "rules"); "" when it
// names none.
std::string_view ReadingChoice(std::string_view reading, const PolicySpec& policy);

// Loads and checks a manifest of `format`: every member known and typed, case ids unique and
// prefixed with the format, every operation one the format defines with the inputs it needs,
// every cited quote in the manifest's table and every quote cited, every outcome one of the
// operation's, every policy the format's with all its choices, every acceptable set with two
// readings that differ (split by a policy: under each of its choices) and, across the cases of a
// flag, the same reading names; rule sets sorted and unique, args limits the format's; a
// same_hash_as naming another case. The message names the offending place as a JSON Pointer.
Result<Manifest> LoadManifest(const std::string& path, const FormatModule& format);

// What a loaded manifest names outside itself, held to the tree at `root` (the repository root):
// every input file exists and every file of the format's cases/ folder is some case's input;
// every flag and every cited errata id is an entry ("### ID") of the errata. (The requirement ids
// the cases cite are held to the catalogue by conformance/catalogue_test.cc.)
Status CheckManifestReferences(const Manifest& manifest, const FormatModule& format,
                               const std::string& root);

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_VECTORS_H_
