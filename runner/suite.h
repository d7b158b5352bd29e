// The suite `arcs run` plays: every vector of every format of the registry, once per operation the
// vector has an expectation for, scored at the level of that operation's own requirements.
#ifndef ARCS_RUNNER_SUITE_H_
#define ARCS_RUNNER_SUITE_H_

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "conformance/format.h"
#include "conformance/vectors.h"
#include "protocol/protocol.h"
#include "reference/core/status.h"
#include "runner/report/report.h"

namespace arcs::runner {

struct SuiteCase {
  const conformance::FormatModule* format = nullptr;
  const conformance::VectorCase* vector = nullptr;
  const conformance::OperationCase* expectation = nullptr;  // this operation's
  std::string operation;
  std::string level;        // "MUST" | "SHOULD" | "MAY": the strongest of the operation's rules
  std::string request_id;   // "<case id>/<operation>", unique in the suite
  std::string vector_path;  // the manifest's repository path, or what made a generated case
  // The input files' bytes by input name, shared by the case's operations; null for a resource
  // probe until it is run.
  std::shared_ptr<const protocol::Inputs> inputs;
  // The resource probe whose inputs the case sends, or null for a vector's case. A probe's inputs
  // are tens of megabytes: the suite holds none, and `arcs run` makes them as it sends the case
  // and again if its judgement reads them (RunImplementation).
  const conformance::ResourceProbe* probe = nullptr;
  // A probe's inputs while `arcs run` runs it, made when a judgement first reads them.
  const conformance::MadeInputs* made = nullptr;

  conformance::CaseInput Input() const {
    return {inputs.get(), vector->limits, vector->args, made};
  }
  bool resource_probe() const {
    return expectation->expect.ground == conformance::Ground::kResource;
  }
  // The case as the protocol sends it (no inputs while they are null).
  protocol::CaseRequest Request() const;
  std::size_t InputBytes() const;  // 0 while the inputs are null
  // The bytes of the case's request line ("\n" included); a probe's inputs are made to measure it.
  std::size_t RequestLineBytes() const;
};

struct SuiteFilter {
  std::vector<std::string> formats;     // empty: all
  std::vector<std::string> operations;  // empty: all
  std::vector<std::string> levels;      // empty: all
  std::vector<std::string> globs;       // fnmatch against "<id>" or "<id>/<operation>"; empty: all
  bool resource_probes = true;          // the cases made at run time (conformance/format.h)
  bool Empty() const;
  // Whether it can leave out some cases of a format it keeps (every selector but the format's).
  bool LeavesOutCases() const;
  std::vector<std::string> Describe() const;  // e.g. {"--format spool", "--filter spool-11.*"}
};

struct Suite {
  // The cases point into these: each format's manifest, and the cases of its resource probes.
  std::deque<conformance::Manifest> manifests;
  std::vector<SuiteCase> cases;  // sorted by (format, id, operation)
  // Every requirement the cases cite, from the catalogues, sorted by (format, id).
  std::vector<report::RequirementInfo> requirements;
};

// Loads every format's manifest and catalogue under `root` (the source tree) and keeps the
// cases the filter selects. Fails on unreadable data or a filter naming an unknown format,
// operation or level.
Result<Suite> LoadSuite(const std::string& root, const SuiteFilter& filter);

// Where the suite's data lives when --suite is not given: $ARCS_SOURCE_DIR, else, for an installed
// arcs, <prefix>/share/arcs beside its <prefix>/bin, else the source tree it was built from.
std::string DefaultSuiteRoot();

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_SUITE_H_
