// Scoring one implementation: the suite's cases through the supervisor, each answer judged, known
// failures applied, the per-format summaries and certification computed. `arcs run` (the command
// line, run_command.cc) and the runner benchmark both drive this.
#ifndef ARCS_RUNNER_RUN_H_
#define ARCS_RUNNER_RUN_H_

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "reference/core/status.h"
#include "runner/report/report.h"
#include "runner/suite.h"

namespace arcs::runner {

// A known-failures list: one `CASE_ID/OPERATION` per line, where either part may be a glob
// (fnmatch: `*`, `?`, `[...]`), optionally prefixed by `IMPLEMENTATION_NAME:` to apply to that
// implementation only; `#` starts a comment. A list whose entries all carry the same prefix names
// its implementation (the shipped lists do), and is refused for another.
struct KnownFailureEntry {
  std::string path;            // the list's file
  std::string implementation;  // "" for every implementation
  std::string pattern;         // "<case id>/<operation>", may hold glob characters
  std::size_t line = 0;
  bool Matches(const std::string& implementation_name, const std::string& request_id) const;
};
struct KnownFailures {
  std::string path;
  std::vector<KnownFailureEntry> entries;  // in the file's order (lists merged: one after another)
  // The implementation every entry names, or "" when some entry names none (or there are none).
  std::string NamedImplementation() const;
  // The index of the first entry listing the case for the implementation, or -1.
  int Find(const std::string& implementation, const std::string& request_id) const;
};
Result<KnownFailures> ParseKnownFailures(const std::string& path, std::string_view text);

// What `--write-known-failures` writes for an implementation: `old_text` (its list, "" for none)
// pruned of the entries for this implementation that listed no failure of this run (in a filtered
// run, an entry that names no case run is kept: the run cannot tell), then an entry for each
// failure no remaining entry lists; comments and other implementations' entries kept. Each new
// entry is prefixed by the implementation's name, so the list names its implementation. Fails,
// writing nothing, when the run stopped before it ran every case (a case "interrupted", or not
// run for the runner's own failure): the cases not run would be listed as failures.
Result<std::string> WriteKnownFailures(const std::string& path, std::string_view old_text,
                                       const report::ImplementationReport& implementation,
                                       bool filtered);

struct RunOptions {
  int jobs = 1;
  double timeout_seconds = 10;     // per case, wall clock
  double cpu_timeout_seconds = 0;  // per case, CPU time; 0: none (see supervisor::Options)
  // For the hello of each process started; 0: HandshakeTimeout's default.
  double handshake_timeout_seconds = 0;
  int max_consecutive_failures = 3;
  bool filtered =
      false;  // the suite is a selection: a known-failures entry may name a case left out
  // Cases of the formats run were left out (an operation, level, case or probe filter, --trace):
  // no format can be certified "full". `--format` alone leaves out none of the formats it keeps.
  bool cases_left_out = false;
  bool progress = false;    // draw a progress bar on stderr
  bool pin_workers = true;  // see supervisor::Options::pin_workers
  // Every protocol line written ('>') and read ('<'): see supervisor::Options::trace.
  std::function<void(char direction, std::string_view line)> trace;
};

struct ImplementationRun {
  report::ImplementationReport report;
  bool must_failed = false;       // a MUST case failed or errored and is not a known failure
  std::uint64_t stale_known = 0;  // listed known failures that passed
  // Entries of the known-failures list that listed no failure of this run (their lines, with the
  // entry), each a reason to fail the run as stale_known is; only for an unfiltered run.
  std::vector<std::string> unused_entries;
  protocol::ImplementationHello hello;  // as its first process said it (empty without one)
  std::string runner_error;  // what stopped the runner itself (supervisor::RunSummary), or ""
  // Why the implementation never shook hands (nothing was run), or "".
  std::string handshake_error;
};

// Runs `command` (/bin/sh -c) over every case of the suite. `reference` only changes how the
// command is named in the report ("arcs serve").
ImplementationRun RunImplementation(const std::string& command, bool reference, const Suite& suite,
                                    const RunOptions& options, const KnownFailures& known,
                                    const std::atomic<bool>* stop);

// The shell command that runs the arcs binary at `arcs_path` as the reference server.
std::string ReferenceCommand(const std::string& arcs_path);

bool IsFailure(report::Outcome outcome);  // failed or errored

// The wall-clock limit per case: `wall` when given, else a backstop well behind a CPU time limit
// (an implementation that sleeps or waits does not spend CPU time), else 10 s.
double WallTimeout(std::optional<double> wall, double cpu_seconds);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_RUN_H_
