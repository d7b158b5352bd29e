// The ARCS report: what `arcs run` found, per implementation, format, operation and case.
// The JSON form (schemas/report/report.schema.json) is the source of truth; Markdown, HTML,
// JUnit XML and SVG badges are rendered from it (render.h), and `arcs diff` compares two of them
// (diff.h). Everything an implementation said (names, messages, stderr) is untrusted text.
#ifndef ARCS_RUNNER_REPORT_REPORT_H_
#define ARCS_RUNNER_REPORT_REPORT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/ground.h"
#include "reference/core/status.h"

namespace arcs::report {

inline constexpr int kReportVersion = 3;

// How one case ended for one implementation.
//  passed        the answer met the vector's expectation
//  failed        the implementation answered, wrongly
//  errored       no usable answer: crash, timeout, protocol error, the implementation said
//                "errored", or the case was not run because the implementation was abandoned
//  skipped       the implementation does not support the operation, or answered "skipped"
//  known_failure failed or errored, and listed in the known-failures file
enum class Outcome : std::uint8_t { kPassed, kFailed, kErrored, kSkipped, kKnownFailure };
std::string_view OutcomeName(Outcome outcome);  // "passed", "failed", "errored", ...
bool ParseOutcome(std::string_view name, Outcome* outcome);

// Why a case expects what it expects (the vector's ground; see conformance/vectors.h).
//  required    the spec text settles the outcome
//  policy      the text leaves a choice to implementations, which declare it; the outcome
//              follows the declared choice
//  acceptable  the text is silent or ambiguous (an errata entry, the case's flag): any of the
//              entry's readings is acceptable, and the answer fits those whose outcome it matches
//  resource    generated at run time to probe a resource limit: any verdict within the timeout,
//              without a crash, is fine
// (conformance/ground.h: the vector's ground and the report's are one enum)
using conformance::Ground;
using conformance::GroundName;  // "required", "policy", "acceptable", "resource"
using conformance::ParseGround;

// Whether the case's answer equals the one the ARCS reference gives (its reading of each flag,
// its declared policies): the "ARCS strict" profile. Shown apart; never part of conformance.
//  kNotJudged  "": the case was not answered (see Answered), or is a resource case
//  kPassed     "passed": the same answer as the reference
//  kFailed     "failed": another answer
enum class Strict : std::uint8_t { kNotJudged, kPassed, kFailed };
std::string_view StrictName(Strict strict);  // "", "passed", "failed"
bool ParseStrict(std::string_view name, Strict* strict);

// Why a case errored (empty unless outcome is errored, or a known failure that errored).
//  "crash"          the process exited or was killed by a signal while the case was pending
//  "timeout"        no answer within the per-case timeout
//  "protocol"       the answer line was not a valid protocol message, named another case id,
//                   was longer than the line limit (flooding), or answered a case twice
//  "implementation" the implementation answered status "errored"
//  "abandoned"      not run: too many consecutive crashes or timeouts before it
//  "handshake"      not run: the implementation never completed the handshake
//  "interrupted"    not run: the run was stopped (Ctrl-C, SIGTERM, SIGHUP)
//  "runner"         the runner's own failure, not the implementation's: it could not judge the
//                   answer (no judge for the operation), or could not start a process (too few
//                   descriptors, processes or memory; the run stops and is marked incomplete)
// Bytes a case's input or an answer's output held, as a report shows them: valid UTF-8 as text,
// anything else as hex, both cut to a bound (kMaxEvidenceBytes of the original) with the full size
// kept. Evidence for a person; never judged.
struct Blob {
  std::string name;        // the input or output name, e.g. "file", "recording"
  std::uint64_t size = 0;  // the full size in bytes
  std::string encoding;    // "text" | "hex" (two lowercase digits a byte, no separators)
  std::string content;     // the first bytes, at most kMaxEvidenceBytes of the original
  bool truncated = false;  // content holds less than `size` bytes

  bool operator==(const Blob&) const = default;
};
inline constexpr std::size_t kMaxEvidenceBytes = 4096;

// Makes a Blob of `bytes`: text when they are valid UTF-8 (the cut never splits a character),
// hex otherwise.
Blob MakeBlob(std::string name, std::string_view bytes);

// A finding as the report keeps it: the implementation's, or the ARCS reference's.
struct FindingEvidence {
  std::string rule;
  std::string severity;    // "error" | "warning" | "note" | ""
  std::uint64_t line = 0;  // 0: not given
  std::string message;
  // The JSON Pointer of the value inside the line; "": not given. Initialized so that the runs
  // and tests that build a finding without one need not name it (-Wmissing-field-initializers).
  std::string pointer = {};

  bool operator==(const FindingEvidence&) const = default;
};
inline constexpr std::size_t kMaxEvidenceFindings = 50;

// What a person needs to see why a case did not pass (kept for failed, errored and known-failure
// cases; absent otherwise): the input, what was expected and what came back, and where the
// expectation comes from.
struct Evidence {
  std::string vector;  // repository path of the manifest holding the case
  // Repository paths of the case's own input files (e.g. "vectors/spool/cases/11.1-minimal.spool"),
  // in the order of `inputs`; none for a generated case (a resource probe) or an older report.
  std::vector<std::string> files;
  std::string spec_text;  // the spec text the vector quotes for this operation
  std::vector<Blob>
      inputs;  // none for a case never sent (abandoned, handshake, interrupted, runner)
  // The vector's expectation beyond the outcome (its "expect_<operation>" member as compact JSON),
  // or "" when it has none.
  std::string expected_properties;
  std::vector<std::string> expected_errors;    // validate: the vector's rule ids, or none given
  std::vector<std::string> expected_warnings;  // validate
  std::string verdict;                         // "valid" | "invalid" | "" (not answered)
  std::vector<FindingEvidence> findings;       // the first kMaxEvidenceFindings reported
  std::uint64_t findings_total = 0;            // how many were reported
  std::vector<Blob> outputs;                   // what the implementation wrote
  // What the ARCS reference writes for the same case, for a diff against `outputs` (only for
  // operations with outputs); labelled as the reference's, never as the expectation.
  std::vector<Blob> reference_outputs;
  // validate: the ARCS reference's own answer to the same input, its verdict and its first
  // kMaxEvidenceFindings findings (reference_findings_total counts them all), shown beside the
  // implementation's so that a reader sees where and why the file breaks the rules the vector
  // names; "" and none for other operations and in older reports. Labelled as the reference's,
  // never as the expectation (the vector decides).
  std::string reference_verdict;
  std::vector<FindingEvidence> reference_findings;
  std::uint64_t reference_findings_total = 0;

  bool operator==(const Evidence&) const = default;
};

struct CaseResult {
  std::string id;                         // the vector case id, e.g. "spool-11.1-minimal"
  std::string format;                     // "spool"
  std::string operation;                  // "validate", "roundtrip", ...
  std::vector<std::string> requirements;  // catalogue ids the vector cites
  std::string level;  // "MUST" | "SHOULD" | "MAY": the strongest level among requirements
  Outcome outcome = Outcome::kPassed;
  std::string error_kind;  // see above; "" otherwise
  std::string expected;    // failed/errored/known_failure: what the vector expects, in words
  std::string actual;      // failed/errored/known_failure: what happened, in words
  std::string message;     // optional detail (the implementation's message, the reason skipped)
  bool rerun = false;      // the case was re-run once in a fresh process after a crash/timeout
  // For validate: whether the rule ids the implementation reported agree with the vector's sets.
  // "" when it reported none; "agree" or "differ" otherwise. Informative, never decides outcome.
  std::string rules;
  // How a failed answer missed (the report's legend): "accepted" (its verdict accepted where the
  // vector rejects), "rejected" (the converse), "output" (the verdict fits; what the operation
  // asks beyond it does not), "declaration" (a policy case whose policy the implementation did
  // not declare, or declared a choice the case does not allow); "" for any other outcome.
  std::string mismatch;
  Ground ground = Ground::kRequired;
  std::string flag;  // acceptable: the errata entry id, e.g. "SP-E14"; "" otherwise
  // policy: "NAME=CHOICE" as the implementation declared it, or "NAME" when it declared no
  // choice; "" otherwise.
  std::string policy;
  // acceptable and answered: the readings of `flag` the answer fits, sorted and unique (none when
  // it fits none); empty otherwise.
  std::vector<std::string> readings;
  Strict strict = Strict::kNotJudged;
  // resource: the implementation's peak resident memory while it handled the case, in bytes;
  // 0 when not measured, and always 0 for other grounds.
  std::uint64_t peak_rss_bytes = 0;
  // Seconds from sending the case to its answer (or its fate); volatile, like RunInfo: `arcs
  // diff` and the committed-report check ignore it.
  double seconds = 0;
  // See Evidence; null in the JSON when absent.
  std::optional<Evidence> evidence;

  bool operator==(const CaseResult&) const = default;
};

// Whether the implementation answered the case: passed, failed, or a known failure that did not
// error. Only answered cases fit readings and are judged against the strict profile.
bool Answered(const CaseResult& c);

struct Counts {
  std::uint64_t passed = 0;
  std::uint64_t failed = 0;
  std::uint64_t errored = 0;
  std::uint64_t skipped = 0;
  std::uint64_t known_failures = 0;
  std::uint64_t total = 0;  // the sum of the five
  void Add(Outcome outcome);

  bool operator==(const Counts&) const = default;
};

struct OperationSummary {
  std::string operation;
  bool supported = false;  // declared in the implementation's hello
  Counts counts;
  std::map<std::string, Counts> by_level;  // "MUST", "SHOULD", "MAY" (only levels present)

  bool operator==(const OperationSummary&) const = default;
};

// How an implementation read one ambiguous passage (an errata flag) over one format's cases.
struct FlagSummary {
  std::string flag;
  std::uint64_t cases = 0;  // the format's acceptable cases of this flag that were answered
  // The readings that fit every one of those cases, sorted; empty when none does (or no case).
  std::vector<std::string> readings;
  // One reading fits them all, or none was answered: the behaviour is "documented and
  // consistent", as the spec asks, whichever reading it is.
  bool consistent = true;
  std::map<std::string, std::uint64_t> taken;  // reading -> how many of those cases it fits

  bool operator==(const FlagSummary&) const = default;
};

// The ARCS strict profile over one format's cases, by CaseResult::strict.
struct StrictCounts {
  std::uint64_t passed = 0;
  std::uint64_t failed = 0;
  std::uint64_t not_judged = 0;
  void Add(Strict strict);

  bool operator==(const StrictCounts&) const = default;
};

// Certification of one format: "full" when every MUST case of every operation the format
// defines passed; "partial" when at least one MUST case passed but not all; "none" otherwise.
struct FormatSummary {
  std::string format;
  std::string certification;                    // "full" | "partial" | "none"
  std::vector<std::string> missing;             // one line per gap, e.g. "roundtrip: not supported"
  std::map<std::string, std::string> policies;  // as declared in the hello
  Counts counts;
  std::vector<OperationSummary> operations;  // in the order the format defines them
  std::vector<FlagSummary> flags;  // every flag of the format's acceptable cases, sorted by flag
  StrictCounts strict;

  bool operator==(const FormatSummary&) const = default;
};

struct ImplementationReport {
  std::string name;
  std::string version;
  std::string language;
  std::string homepage;
  std::string command;  // the --impl command, or "(reference)"
  Counts summary;
  std::vector<FormatSummary> formats;
  std::vector<CaseResult> cases;  // sorted by (format, id, operation)
  bool abandoned = false;         // stopped after too many consecutive crashes/timeouts
  std::uint64_t restarts = 0;     // processes started beyond the first
  std::string stderr_tail;        // the last bytes the implementation wrote on stderr (bounded)

  bool operator==(const ImplementationReport&) const = default;
};

// Volatile facts about the run; `arcs diff` and the committed-report check ignore them.
struct RunInfo {
  std::string arcs_version;
  std::string started_at;  // RFC 3339 UTC
  double seconds = 0;
  int jobs = 1;
  double timeout_seconds = 0;        // the wall-clock limit per case
  double cpu_timeout_seconds = 0;    // the CPU-time limit per case (--timeout-cpu); 0: none
  std::vector<std::string> filters;  // the --format/--filter/--operation/--level given
  std::string known_failures;        // path of the known-failures file, if any

  bool operator==(const RunInfo&) const = default;
};

// A requirement the report's cases cite, from its format's catalogue: what the roll-up by
// requirement and by spec section, and each failure's evidence, show.
struct RequirementInfo {
  std::string id;
  std::string format;
  std::string section;  // the spec section, e.g. "3.1"
  std::string level;    // "MUST" | "SHOULD" | "MAY" (as the catalogue's keyword level)
  std::string text;

  bool operator==(const RequirementInfo&) const = default;
};

struct Report {
  int report_version = kReportVersion;
  bool complete = true;  // false when the run was interrupted
  RunInfo run;
  std::vector<ImplementationReport> implementations;
  std::vector<RequirementInfo> requirements;  // every id the cases cite, sorted by (format, id)

  bool operator==(const Report&) const = default;
};

// Writes the report as pretty JSON (two-space indent, keys in the order of the structs above and
// equal to the member names, as report_fields.h lists them, arrays of strings on one line, a final
// newline), deterministic for equal reports. Every member is always written. Strings that are not
// valid UTF-8 (an implementation's stderr, say) are repaired with U+FFFD (escape.h), so the output
// is always valid JSON; for reports whose strings are valid UTF-8, FromJson(ToJson(r)) == r.
std::string ToJson(const Report& report);

// Reads a report written by ToJson, strictly: every object is closed (an unknown member is an
// error, as in schemas/report/report.schema.json), every member is required (but those
// report_fields.h marks Optional, which older reports lack), duplicate names and wrong types are
// errors, and so are values past the bounds report_fields.h checks; the Status names the
// offending place as a JSON Pointer. A report_version other than kReportVersion is kUnsupported.
Result<Report> FromJson(std::string_view text);

// Whether the report holds at most one case per implementation name, format, case id and
// operation (every reader of a report, `arcs diff` and the renderers, relies on it: FromJson
// checks it). The message starts with `which`.
Status CheckUniqueCases(const Report& report, std::string_view which);

// What a report keeps, whatever an implementation says, so that its size is bounded by its
// number of cases: a case takes at most kMaxCaseJsonBytes of the report's JSON (indentation
// included), an implementation at most kMaxImplementationJsonBytes besides its cases. Sizes count
// a string as the JSON writes it, escapes included (a control character takes six bytes), so that
// no text costs more than its bound. The runner holds every case to its bound as it scores it
// (BoundCase) and every implementation once it is scored (BoundImplementation):
//  - a text cut to its bound ends with "…" (U+2026), as reference/core Excerpt cuts text;
//  - a list cut to kMaxListItems ends with an item "…";
//  - a case keeps kMaxEvidenceBlobs inputs, outputs and reference outputs each (the case's message
//    counts those left out), and each blob's content at most kMaxBlobJsonBytes (`truncated`);
//  - a case still over its bound loses evidence until it fits, in this order: the contents of the
//    reference outputs, outputs and inputs (each blob keeps its name and size, `truncated`), then
//    the reference's findings and then the implementation's, each from the last (the totals still
//    count them all), then every list and text of the case is cut to kMaxShortJsonBytes.
inline constexpr std::size_t kMaxCaseJsonBytes = std::size_t{32} << 10;
inline constexpr std::size_t kMaxImplementationJsonBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxShortJsonBytes = 256;     // ids, names, rule ids, list items
inline constexpr std::size_t kMaxTextJsonBytes = 2048;     // expected, actual, spec text, ...
inline constexpr std::size_t kMaxMessageJsonBytes = 4096;  // a case's message, a command
inline constexpr std::size_t kMaxListItems = 64;
inline constexpr std::size_t kMaxEvidenceBlobs = 8;
inline constexpr std::size_t kMaxBlobJsonBytes = 2 * kMaxEvidenceBytes;    // as hex takes it
inline constexpr std::size_t kMaxStderrJsonBytes = std::size_t{64} << 10;  // its last bytes
inline constexpr std::size_t kMaxPolicies = 32;  // declared policies kept per format

// `text` as the report writes it (invalid UTF-8 repaired), cut so that it takes at most
// max_json_bytes between the quotes of a JSON string, "…" included when cut (never inside a
// character).
std::string CutText(std::string_view text, std::size_t max_json_bytes);

// Holds a case to kMaxCaseJsonBytes (see above); a case within every bound is left as it is.
void BoundCase(CaseResult* c);
// Holds what an implementation's report says besides its cases to kMaxImplementationJsonBytes:
// its name, version, language and homepage cut to kMaxTextJsonBytes, its command to
// kMaxMessageJsonBytes, its stderr tail to its last kMaxStderrJsonBytes (starting with "…" when
// cut), each format's declared policies to kMaxPolicies (a last one "…" when cut) of
// kMaxShortJsonBytes names and choices, and its `missing` lines as lists are cut.
void BoundImplementation(ImplementationReport* implementation);

// Bounds on what one report holds: the writer (`arcs run`) runs at most kMaxReportImplementations
// implementations and kMaxReportCases cases in all, each case within kMaxCaseJsonBytes. The
// suite's catalogue requirements take at most kMaxRequirementsJsonBytes.
inline constexpr std::size_t kMaxReportImplementations = 32;
inline constexpr std::size_t kMaxReportCases = 32768;  // 10 runs of a 3,033-case suite
inline constexpr std::size_t kMaxRequirementsJsonBytes = std::size_t{16} << 20;

// The largest report read (`arcs report`, `arcs diff`): the most a report within the bounds above
// can take (1,125,122,048 bytes), so that every report `arcs run` writes is read; anything past
// this is not a report. Derived rather than streamed: the readers hold a whole report (two for
// `arcs diff`) anyway, and the bound still refuses an endless input (/dev/zero) at a known size.
inline constexpr std::size_t kMaxReportBytes =
    kMaxReportCases * kMaxCaseJsonBytes + kMaxReportImplementations * kMaxImplementationJsonBytes +
    kMaxRequirementsJsonBytes + (std::size_t{1} << 20);  // and the run's own facts

// ReadFile + FromJson; the message starts with the path. "-" reads standard input. A directory, a
// file over kMaxReportBytes (or /dev/zero) is an error naming the path, never a crash.
Result<Report> ReadReportFile(const std::string& path);

// Recomputes every Counts of `implementation` from its cases: summary, each FormatSummary's
// counts (the cases of that format), each OperationSummary's counts and by_level (the cases of
// that format and operation, by the case's level); then calls SummarizeReadings. Cases whose
// format or operation has no summary only count in `summary`. Certification, missing and
// supported are left alone: that is scoring, not counting. The schema check
// (schemas/report/check_report.py) holds reports to exactly these sums.
void Recount(ImplementationReport* implementation);

// Recomputes each FormatSummary's flags and strict from the cases of that format:
//  flags   one entry per flag among its acceptable cases, sorted by flag: `cases` counts the
//          answered ones (Answered), `taken` how many of those each reading fits, `readings`
//          the readings that fit all of them, `consistent` whether that is at least one reading
//          or there was no answered case;
//  strict  the cases counted by their strict value.
// Part of Recount; exposed for the runner, which counts outcomes as it scores.
void SummarizeReadings(ImplementationReport* implementation);

}  // namespace arcs::report

#endif  // ARCS_RUNNER_REPORT_REPORT_H_
