// Vector manifests (vectors/<format>/manifest.json, documented in vectors/README.md) and the
// runner that holds the reference implementation to them. Tests are data: this only runs them.
#ifndef ARCS_CONFORMANCE_VECTORS_H_
#define ARCS_CONFORMANCE_VECTORS_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/status.h"

namespace arcs::conformance {

struct VectorCase {
  std::string id;
  std::string description;
  std::string file;  // resolved against the manifest's folder
  std::vector<std::string> requirements;
  std::vector<std::pair<std::string, std::uint64_t>> limits;
  bool expect_valid = true;
  std::vector<std::string> expected_errors;    // sorted, unique rule ids
  std::vector<std::string> expected_warnings;  // sorted, unique rule ids
  // "accept" or "reject"; for implementation-defined cases, the outcome per policy value.
  std::string read_result;
  std::string read_policy;
  std::map<std::string, std::string> read_outcomes;
};

struct Manifest {
  std::string format;
  std::string catalogue;  // repository path of the requirement catalogue the cases cite
  std::vector<VectorCase> cases;
};

Result<Manifest> LoadManifest(const std::string& path);

struct CaseResult {
  std::string id;
  std::vector<std::string> problems;  // empty when the reference met every expectation
  bool passed() const { return problems.empty(); }
};

// Runs one Spool case against the reference: the validator's verdict, error and warning rule
// sets, and the reader's outcome, with a lossless round trip when it accepts.
CaseResult RunSpoolCase(const VectorCase& c);

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_VECTORS_H_
