// `arcs fuzz`'s engine: differential fuzzing of an implementation through the runner protocol.
// Seeds are the suite's vectors; each mutant (runner/fuzz/mutate.h) goes to the implementation
// (a Session, restarted on crash) and to the reference in process, and the two answers are
// compared as the judges compare: the verdict as the operation's outcome word, and what the
// operation asks beyond it through the format's own check (runner/judge.h), held to the reference
// first. Crashes, timeouts, protocol errors and "errored" answers are findings too.
//
// No coverage comes back from a foreign process: a mutant joins the corpus when it shows a new
// signature, that is a new (operation, implementation outcome, reference outcome, rule ids of
// both) tuple, so the corpus grows towards inputs that make either side say something new.
#ifndef ARCS_RUNNER_FUZZ_FUZZ_H_
#define ARCS_RUNNER_FUZZ_FUZZ_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runner/suite.h"

namespace arcs::fuzz {

// Where a run stands, after a round.
struct FuzzProgress {
  std::uint64_t execs = 0;
  std::size_t findings = 0;
  std::uint64_t known = 0;  // disagreements a known signature matched
  std::size_t corpus = 0;
  double seconds = 0;  // since the start
};

struct FuzzOptions {
  std::string command;          // the implementation, run with /bin/sh -c
  std::uint64_t seed = 1;       // the same seed and runs give the same run, whatever the jobs
  std::uint64_t runs = 0;       // mutants to try; 0: until `seconds` pass
  double seconds = 60;          // 0: until `runs` are done
  int jobs = 1;                 // sessions side by side
  double timeout_seconds = 10;  // per case
  // Seeds larger than this are left out, and mutants are cut to it.
  std::size_t max_input_bytes = std::size_t{1} << 20;
  std::size_t minimize_asks = 400;  // per finding
  // A folder the corpus is kept in between runs: read (sorted by name) before the first mutant,
  // its entries joining the seeds; the mutants kept are written there at the end. "" for none.
  // Only regular files are read (never opened when they are not), each at most what an entry of
  // max_input_bytes takes (kMaxEntryFileSlack past its base64).
  std::string corpus_dir;
  // The entries read from corpus_dir and the mutants kept, together, hold at most this many bytes
  // of inputs (and the corpus at most 10,000 entries): what is past it is left out.
  std::size_t max_corpus_bytes = std::size_t{256} << 20;
  // Findings already known (`--known-failures`): a disagreement whose signature one of these
  // matches (KnownSignatureMatches) is counted against it, neither filed nor minimized.
  std::vector<std::string> known_signatures;
  // Called by the lead worker after each round of mutants, for a progress line. Null: none.
  std::function<void(const FuzzProgress&)> on_progress;
};

// Whether a known-failures entry matches a finding's signature: equal, or equal with each '*' of
// the entry standing for any text. No other character is special: signatures hold brackets.
bool KnownSignatureMatches(std::string_view entry, std::string_view signature);

// What a corpus entry's file may hold besides its inputs in base64 (its origin, names, quotes).
inline constexpr std::size_t kMaxEntryFileSlack = std::size_t{64} << 10;

// A disagreement the spec does not leave open, minimized.
struct Finding {
  std::string signature;  // what dedups findings: operation, kind, both outcomes, rule ids
  std::string kind;       // "verdict", "output", "crash", "timeout", "protocol", "errored"
  std::string format;
  std::string operation;
  std::string origin;                  // the vector case the mutant came from
  std::string mutations;               // the mutations applied, in order
  std::string implementation_outcome;  // "valid", "invalid", "accept", ..., or the fate
  std::string reference_outcome;
  std::vector<std::string> rules;             // the rule ids either side reported (errors)
  std::string detail;                         // what the check or the fate says (untrusted text)
  std::map<std::string, std::string> inputs;  // minimized
  std::string args;                           // the origin's args (compact JSON, "" for none)
  std::uint64_t found_bytes = 0;              // the mutant's size before minimizing
  std::uint64_t found_at = 0;                 // the run that found it
};

// A disagreement the spec may leave open (runner/fuzz/open_verdicts.h): shown, not a finding, so
// not minimized. One per signature, as first met.
struct OpenDisagreement {
  std::string signature;
  std::string origin;     // the first mutant's origin case
  std::string mutations;  // and its mutations
  std::string reason;     // why the spec may leave it open
  std::uint64_t count = 0;
  std::uint64_t found_at = 0;  // the run that first met it
};

// Where the workers' time went, summed over them (minimizing included): what bounds a run.
struct TimeShares {
  double mutating = 0;
  double reference = 0;       // the reference's answers, in process
  double implementation = 0;  // asking the implementation: the protocol and its work
};

struct FuzzReport {
  std::string implementation;  // its hello's name
  std::uint64_t execs = 0;     // mutants tried (minimizing not counted)
  // Of the mutants tried, those both sides judged (the implementation answered, crashed, ...),
  // and those the implementation skipped. A run that compared none showed nothing.
  std::uint64_t compared = 0;
  std::uint64_t skipped = 0;
  double seconds = 0;
  std::size_t seeds = 0;       // the suite's cases, plus the entries read from corpus_dir
  std::size_t too_large = 0;   // cases and entries over max_input_bytes, left out
  std::size_t loaded = 0;      // entries read from corpus_dir
  std::size_t unreadable = 0;  // files of corpus_dir that are not entries of this suite, or not
                               // regular files
  std::size_t past_cap = 0;    // entries of corpus_dir left out: the corpus was full
  // Why entries of corpus_dir were left out (too large, not regular files, past the cap), the
  // first kCorpusNotes, each naming its file; and how many were left out so.
  std::vector<std::string> corpus_notes;
  std::size_t corpus_left_out = 0;
  // The seeds left out because the implementation's hello does not declare their format and
  // operation: never sent (as `arcs run` sends no such case).
  std::size_t undeclared = 0;
  std::size_t corpus = 0;  // seeds plus the mutants kept
  // (seconds since the start, corpus size) each time the corpus grew.
  std::vector<std::pair<double, std::size_t>> growth;
  // Disagreements on a verdict the spec may leave open: counted, not findings; the first
  // kOpenKept signatures are kept.
  std::uint64_t open_disagreements = 0;
  std::vector<OpenDisagreement> open;
  std::vector<Finding> findings;      // one per signature, in the order found, the first 1,000
  std::uint64_t findings_unkept = 0;  // disagreements with a signature past those: not minimized
  // By entry of FuzzOptions::known_signatures: the disagreements it matched (not findings).
  std::vector<std::uint64_t> known_hits;
  std::uint64_t restarts = 0;
  std::size_t workers = 0;  // the sessions that started, of the jobs asked for
  TimeShares spent;
  std::string error;         // what stopped the run before it began (no hello, say), or ""
  bool interrupted = false;  // the stop flag ended the run (at whatever stage)
};

inline constexpr std::size_t kCorpusNotes = 20;

// Fuzzes `options.command` with the cases of `suite` as seeds (resource probes left out).
FuzzReport Fuzz(const FuzzOptions& options, const runner::Suite& suite,
                const std::atomic<bool>* stop);

// The report as JSON (the CI summary): execs, execs/s, seeds, corpus, growth, open
// disagreements, findings with their inputs in base64.
std::string SummaryJson(const FuzzReport& report);

// The command that finds `finding` again: `base` (arcs fuzz with the run's implementation, filters
// and seed) for found_at + 1 mutants. Exact whatever -j and the time the first run had: rounds
// make each mutant depend only on the seed, its run and the runs before it.
inline std::string ReproduceCommand(std::string_view base, const Finding& finding) {
  return std::string(base) + " --runs " + std::to_string(finding.found_at + 1);
}

// Writes each finding as a candidate vector under `dir`: DIR/<id>/ with its inputs and
// candidate.json, a manifest entry whose expectation is left for a person to fill in from the spec
// text (never the reference's answer), with both outcomes and the rule ids beside it.
Status WriteCandidates(const FuzzReport& report, const std::string& dir,
                       std::string_view reproduce);

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_FUZZ_H_
