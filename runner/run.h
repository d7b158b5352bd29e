// Scoring one implementation: the suite's cases through the supervisor, each answer judged, known
// failures applied, the per-format summaries and certification computed. `arcs run` (the command
// line, run_command.cc) and the runner benchmark both drive this.
#ifndef ARCS_RUNNER_RUN_H_
#define ARCS_RUNNER_RUN_H_

#include <atomic>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "reference/core/status.h"
#include "runner/report/report.h"
#include "runner/suite.h"

namespace arcs::runner {

// The known-failures file: one `CASE_ID/OPERATION` per line, optionally prefixed by
// `IMPLEMENTATION_NAME:` to apply to that implementation only; `#` starts a comment.
struct KnownFailures {
  std::string path;
  // implementation name ("" for every implementation) -> request ids ("<case id>/<operation>")
  std::map<std::string, std::set<std::string>> entries;
  bool Lists(const std::string& implementation, const std::string& request_id) const;
};
Result<KnownFailures> ParseKnownFailures(const std::string& path, std::string_view text);

struct RunOptions {
  int jobs = 1;
  double timeout_seconds = 10;
  int max_consecutive_failures = 3;
  bool filtered = false;    // the suite is a selection: no format can be certified "full"
  bool progress = false;    // draw a progress bar on stderr
  bool pin_workers = true;  // see supervisor::Options::pin_workers
};

struct ImplementationRun {
  report::ImplementationReport report;
  bool must_failed = false;       // a MUST case failed or errored and is not a known failure
  std::uint64_t stale_known = 0;  // listed known failures that passed
  std::string runner_error;       // what stopped the runner itself (supervisor::RunSummary), or ""
};

// Runs `command` (/bin/sh -c) over every case of the suite. `reference` only changes how the
// command is named in the report ("arcs serve").
ImplementationRun RunImplementation(const std::string& command, bool reference, const Suite& suite,
                                    const RunOptions& options, const KnownFailures& known,
                                    const std::atomic<bool>* stop);

// The shell command that runs the arcs binary at `arcs_path` as the reference server.
std::string ReferenceCommand(const std::string& arcs_path);

bool IsFailure(report::Outcome outcome);  // failed or errored

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_RUN_H_
