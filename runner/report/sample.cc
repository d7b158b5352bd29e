#include "runner/report/sample.h"

#include <algorithm>
#include <tuple>

namespace arcs::report::testing {
namespace {

constexpr std::string_view kScript = "<script>alert(1)</script>";
constexpr std::string_view kAttribute = "\"><img src=x onerror=alert(2)>";
constexpr std::string_view kEndScript = "</script><script>alert(3)</script>";
constexpr std::string_view kSingleQuote = "' onmouseover='alert(4)";
constexpr std::string_view kEndStyle = "</style><style>body{display:none}</style>";
constexpr std::string_view kMarkdown = "| `code` [link](javascript:alert(5)) *em*";
constexpr std::string_view kCdata = "]]><![CDATA[<x>";

CaseResult Case(std::string id, std::string operation, std::string level, Outcome outcome,
                std::vector<std::string> requirements) {
  CaseResult c;
  c.id = std::move(id);
  c.format = "spool";
  c.operation = std::move(operation);
  c.level = std::move(level);
  c.outcome = outcome;
  c.requirements = std::move(requirements);
  return c;
}

CaseResult Failing(CaseResult c, std::string expected, std::string actual) {
  c.expected = std::move(expected);
  c.actual = std::move(actual);
  return c;
}

FormatSummary Format(std::string format, std::string certification,
                     std::vector<std::pair<std::string, bool>> operations) {
  FormatSummary f;
  f.format = std::move(format);
  f.certification = std::move(certification);
  for (auto& [name, supported] : operations) {
    OperationSummary op;
    op.operation = name;
    op.supported = supported;
    f.operations.push_back(std::move(op));
  }
  return f;
}

// Sorts the cases as report.h requires and fills in the counts.
void Finish(ImplementationReport* impl) {
  std::sort(impl->cases.begin(), impl->cases.end(), [](const CaseResult& a, const CaseResult& b) {
    return std::tie(a.format, a.id, a.operation) < std::tie(b.format, b.id, b.operation);
  });
  Recount(impl);
}

ImplementationReport Reference() {
  ImplementationReport impl;
  impl.name = "arcs-reference";
  impl.version = "0.3.0";
  impl.language = "C++";
  impl.homepage = "https://example.org/arcs";
  impl.command = "(reference)";
  impl.formats.push_back(Format("spool", "full", {{"validate", true}, {"roundtrip", true}}));
  impl.formats.back().policies = {{"invalid_line", "reject"}};
  impl.cases = {
      Case("spool-3.4-bom", "roundtrip", "MUST", Outcome::kPassed, {"SP-3.4-1"}),
      Case("spool-3.4-bom", "validate", "MUST", Outcome::kPassed, {"SP-3.4-1"}),
      Case("spool-3.6-crlf", "validate", "SHOULD", Outcome::kPassed, {"SP-3.6-2"}),
      Failing(Case("spool-11.1-minimal", "validate", "MAY", Outcome::kKnownFailure,
                   {"SP-11.1-1", "SP-11.1-2"}),
              "valid", "invalid (SP-3.6-1)"),
      Case("spool-11.4-skip", "validate", "MUST", Outcome::kPassed, {"SP-11.4-3"}),
  };
  impl.cases[1].rules = "agree";
  Finish(&impl);
  return impl;
}

ImplementationReport Hostile() {
  ImplementationReport impl;
  impl.name = std::string(kScript) + " py.spool";
  impl.version = std::string(kAttribute);
  impl.language = std::string(kMarkdown);
  impl.homepage = "javascript:alert(6)";
  impl.command = std::string("python3 adapter.py --x='y' ") + std::string(kSingleQuote);
  impl.formats.push_back(Format("spool", "partial", {{"validate", true}, {"roundtrip", false}}));
  impl.formats.back().missing = {"roundtrip: not supported", std::string(kEndScript)};
  impl.formats.back().policies = {{"invalid_line", "skip"}, {std::string(kAttribute), "x"}};
  impl.formats.push_back(Format("lightbox", "none", {{"validate", true}}));
  impl.formats.back().missing = {"validate: 1 MUST case failed"};

  CaseResult lightbox =
      Failing(Case("lightbox-2.1-hash", "validate", "MUST", Outcome::kFailed, {"LB-2.1-1"}),
              "invalid (LB-2.1-1)", "valid");
  lightbox.format = "lightbox";
  CaseResult crash =
      Failing(Case("spool-3.6-crlf", "validate", "SHOULD", Outcome::kErrored, {"SP-3.6-2"}),
              "valid", "crash: killed by signal 11 (SIGSEGV)");
  crash.error_kind = "crash";
  crash.rerun = true;
  CaseResult hostile_id = Failing(
      Case(std::string(kEndStyle), "validate", "MUST", Outcome::kFailed, {"SP-11.4-3"}),
      std::string(kCdata), std::string(kEndScript) + "\n\x1b[31mred\x07 \xE2\x80\xAE" + "evil");
  hostile_id.message = std::string(kScript) + "\r\nsecond line\t" + std::string(kMarkdown);
  hostile_id.rules = "differ";
  CaseResult skipped = Case("spool-3.4-bom", "roundtrip", "MUST", Outcome::kSkipped, {"SP-3.4-1"});
  skipped.message = "unsupported: " + std::string(kSingleQuote);
  CaseResult abandoned =
      Failing(Case("spool-11.4-skip", "validate", "MUST", Outcome::kErrored, {"SP-11.4-3"}),
              "valid", "not run: abandoned");
  abandoned.error_kind = "abandoned";

  impl.cases = {
      std::move(lightbox),
      std::move(hostile_id),
      std::move(skipped),
      Case("spool-3.4-bom", "validate", "MUST", Outcome::kPassed, {"SP-3.4-1"}),
      std::move(crash),
      std::move(abandoned),
  };
  impl.abandoned = true;
  impl.restarts = 3;
  impl.stderr_tail = std::string("Traceback:\n") + std::string(kEndScript) + "\n\x01\x02</pre>";
  Finish(&impl);
  return impl;
}

}  // namespace

Report SampleReport() {
  Report report;
  report.complete = false;
  report.run.arcs_version = "0.3.0";
  report.run.started_at = "2025-01-02T03:04:05Z";
  report.run.seconds = 1.25;
  report.run.jobs = 2;
  report.run.timeout_seconds = 10;
  report.run.filters = {"--format spool", std::string(kScript)};
  report.run.known_failures = "known-failures.txt";
  report.implementations = {Reference(), Hostile()};
  return report;
}

const std::vector<std::string_view>& HostileStrings() {
  static const std::vector<std::string_view> kStrings = {
      kScript, kAttribute, kEndScript, kSingleQuote, kEndStyle,     kCdata,
      "<img",  "\x1b[31m", "\x07",     "\x01",       "\xE2\x80\xAE"};
  return kStrings;
}

std::size_t Occurrences(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

}  // namespace arcs::report::testing
