// The columns of the report's JSON form: for each struct of report.h, one list of its members in
// the order the JSON holds them, each under its JSON name. ToJson and FromJson (report.cc) both
// walk these lists, so a new column is its member in report.h and one line here.
//
// A list is VisitFields(record, visitor), calling, in order:
//   v(name, member)           a member, always written and required when read
//   v.Optional(name, member)  written always, read when present (a member added after reports
//                             were committed: older ones leave it at its default)
//   v.Check(name, member, rule)
//                             a bound the reader checks at this point of the list, on a member
//                             already read (the writer skips it): rule returns what is wrong
//                             with the value, without its place (the reader adds the pointer)
// How a member is written and read follows from its C++ type (report.cc).
#ifndef ARCS_RUNNER_REPORT_REPORT_FIELDS_H_
#define ARCS_RUNNER_REPORT_REPORT_FIELDS_H_

#include <concepts>
#include <string>
#include <type_traits>

#include "reference/core/status.h"
#include "runner/report/report.h"

namespace arcs::report::internal {

// A record of type S, const (written) or not (read).
template <typename T, typename S>
concept RecordOf = std::same_as<std::remove_const_t<T>, S>;

inline Status NotNegative(const double& value) {
  return value < 0 ? Status(StatusCode::kParseError, "must not be negative") : Status::Ok();
}
inline Status AtLeastOne(const int& value) {
  return value < 1 ? Status(StatusCode::kParseError, "must be at least 1") : Status::Ok();
}
inline Status TextOrHex(const std::string& encoding) {
  return encoding != "text" && encoding != "hex"
             ? Status(StatusCode::kParseError, "expected \"text\" or \"hex\"")
             : Status::Ok();
}
// Checked before anything else is read: another version may have another shape.
inline Status ThisVersion(const int& version) {
  return version != kReportVersion
             ? Status(StatusCode::kUnsupported, std::to_string(version) +
                                                    " is not supported (this build reads version " +
                                                    std::to_string(kReportVersion) + ")")
             : Status::Ok();
}

void VisitFields(RecordOf<Counts> auto& c, auto& v) {
  v("passed", c.passed);
  v("failed", c.failed);
  v("errored", c.errored);
  v("skipped", c.skipped);
  v("known_failures", c.known_failures);
  v("total", c.total);
}

void VisitFields(RecordOf<FlagSummary> auto& f, auto& v) {
  v("flag", f.flag);
  v("cases", f.cases);
  v("readings", f.readings);
  v("consistent", f.consistent);
  v("taken", f.taken);
}

void VisitFields(RecordOf<StrictCounts> auto& s, auto& v) {
  v("passed", s.passed);
  v("failed", s.failed);
  v("not_judged", s.not_judged);
}

void VisitFields(RecordOf<OperationSummary> auto& op, auto& v) {
  v("operation", op.operation);
  v("supported", op.supported);
  v("counts", op.counts);
  v("by_level", op.by_level);
}

void VisitFields(RecordOf<FormatSummary> auto& f, auto& v) {
  v("format", f.format);
  v("certification", f.certification);
  v("missing", f.missing);
  v("policies", f.policies);
  v("counts", f.counts);
  v("operations", f.operations);
  v("flags", f.flags);
  v("strict", f.strict);
}

void VisitFields(RecordOf<Blob> auto& b, auto& v) {
  v("name", b.name);
  v("size", b.size);
  v("encoding", b.encoding);
  v.Check("encoding", b.encoding, TextOrHex);
  v("content", b.content);
  v("truncated", b.truncated);
}

void VisitFields(RecordOf<FindingEvidence> auto& f, auto& v) {
  v("rule", f.rule);
  v("severity", f.severity);
  v("line", f.line);
  v("message", f.message);
  v.Optional("pointer", f.pointer);  // since the reference's findings were kept
}

void VisitFields(RecordOf<Evidence> auto& e, auto& v) {
  v("vector", e.vector);
  v.Optional("files", e.files);  // since the report linked the case's files
  v("spec_text", e.spec_text);
  v("inputs", e.inputs);
  v("expected_properties", e.expected_properties);
  v("expected_errors", e.expected_errors);
  v("expected_warnings", e.expected_warnings);
  v("verdict", e.verdict);
  v("findings", e.findings);
  v("findings_total", e.findings_total);
  v("outputs", e.outputs);
  v("reference_outputs", e.reference_outputs);
  // Since the report showed the reference's findings beside the implementation's.
  v.Optional("reference_verdict", e.reference_verdict);
  v.Optional("reference_findings", e.reference_findings);
  v.Optional("reference_findings_total", e.reference_findings_total);
}

void VisitFields(RecordOf<CaseResult> auto& c, auto& v) {
  v("id", c.id);
  v("format", c.format);
  v("operation", c.operation);
  v("requirements", c.requirements);
  v("level", c.level);
  v("outcome", c.outcome);
  v("error_kind", c.error_kind);
  v("expected", c.expected);
  v("actual", c.actual);
  v("message", c.message);
  v("rerun", c.rerun);
  v("rules", c.rules);
  v("mismatch", c.mismatch);
  v("ground", c.ground);
  v("flag", c.flag);
  v("policy", c.policy);
  v("readings", c.readings);
  v("strict", c.strict);
  v("peak_rss_bytes", c.peak_rss_bytes);
  v("seconds", c.seconds);
  v.Check("seconds", c.seconds, NotNegative);
  v("evidence", c.evidence);
}

void VisitFields(RecordOf<ImplementationReport> auto& impl, auto& v) {
  v("name", impl.name);
  v("version", impl.version);
  v("language", impl.language);
  v("homepage", impl.homepage);
  v("command", impl.command);
  v("summary", impl.summary);
  v("formats", impl.formats);
  v("cases", impl.cases);
  v("abandoned", impl.abandoned);
  v("restarts", impl.restarts);
  v("stderr_tail", impl.stderr_tail);
}

void VisitFields(RecordOf<RunInfo> auto& run, auto& v) {
  v("arcs_version", run.arcs_version);
  v("started_at", run.started_at);
  v("seconds", run.seconds);
  v("jobs", run.jobs);
  v("timeout_seconds", run.timeout_seconds);
  v.Optional("cpu_timeout_seconds", run.cpu_timeout_seconds);  // since --timeout-cpu
  // The schema's bounds, checked once the numbers are read.
  v.Check("seconds", run.seconds, NotNegative);
  v.Check("jobs", run.jobs, AtLeastOne);
  v.Check("timeout_seconds", run.timeout_seconds, NotNegative);
  v.Check("cpu_timeout_seconds", run.cpu_timeout_seconds, NotNegative);
  v("filters", run.filters);
  v("known_failures", run.known_failures);
}

void VisitFields(RecordOf<RequirementInfo> auto& r, auto& v) {
  v("id", r.id);
  v("format", r.format);
  v("section", r.section);
  v("level", r.level);
  v("text", r.text);
}

void VisitFields(RecordOf<Report> auto& r, auto& v) {
  v("report_version", r.report_version);
  v.Check("report_version", r.report_version, ThisVersion);
  v("complete", r.complete);
  v("run", r.run);
  v("implementations", r.implementations);
  v("requirements", r.requirements);
}

}  // namespace arcs::report::internal

#endif  // ARCS_RUNNER_REPORT_REPORT_FIELDS_H_
