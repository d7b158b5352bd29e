#include "runner/report/sample.h"

#include <algorithm>
#include <set>
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
// Text GitHub-flavoured Markdown would turn into links and notifications.
constexpr std::string_view kLinks =
    "see https://evil.example/x, www.evil.example, mailto:a@evil.example, b@evil.example "
    "and @octocat";

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

// The case judged against the ARCS strict profile.
CaseResult Strictly(CaseResult c, Strict strict) {
  c.strict = strict;
  return c;
}

CaseResult Policy(CaseResult c, std::string policy) {
  c.ground = Ground::kPolicy;
  c.policy = std::move(policy);
  return c;
}

// An acceptable case of `flag`, with the readings its answer fits.
CaseResult Acceptable(CaseResult c, std::string flag, std::vector<std::string> readings) {
  c.ground = Ground::kAcceptable;
  c.flag = std::move(flag);
  c.readings = std::move(readings);
  return c;
}

// A generated case probing a resource limit (any verdict is fine): deep nesting.
CaseResult DeepNesting(std::uint64_t peak_rss_bytes) {
  CaseResult c = Case("spool-limit-deep-nesting", "validate", "MUST", Outcome::kPassed, {});
  c.ground = Ground::kResource;
  c.peak_rss_bytes = peak_rss_bytes;
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

// What a failure shows: text, binary and cut inputs, the implementation's findings and outputs,
// and, from a hostile implementation, hostile text wherever it could put some.
Evidence SampleEvidence(const CaseResult& c, bool hostile) {
  Evidence e;
  e.vector = "vectors/" + c.format + "/manifest.json";
  e.files = {"vectors/" + c.format + "/cases/3.6-lines.spool"};
  // Quotes as the manifests hold them: a table row, inline code and emphasis in Markdown.
  e.spec_text =
      "§3.6: \"Each line MUST be a complete JSON object.\"; §6.1 (optional fields): \"| `author` | "
      "string | Creator's name | | `tags` | array of strings | **Free** *labels* |\"; errata SP-E5";
  e.inputs.push_back(MakeBlob("file", "{\"type\":\"header\"}\n{\"type\":\"end\"}\n"));
  e.expected_errors = {"SP-3.6-1"};
  e.verdict = c.outcome == Outcome::kErrored ? "" : "valid";
  if (c.operation == "validate") {
    e.reference_verdict = "invalid";
    e.reference_findings = {
        {"SP-3.6-1", "error", 2, "line 2 is not a complete JSON object", ""},
        {"SP-5.1-2", "error", 1, "\"x\" is not a lowercase hyphenated UUID", "/id"}};
    e.reference_findings_total = 2;
  }
  if (!hostile) return e;
  // What a hostile input makes the reference quote, and paths that must never become links.
  e.files = {"vectors/spool/cases/" + std::string(kAttribute), "javascript:alert(8)",
             "vectors/../../etc/passwd"};
  e.spec_text += "; §9: \"| " + std::string(kScript) + " | " + std::string(kMarkdown) + " |\"";
  e.reference_findings.push_back(
      {"SP-4.3-1", "error", 3, std::string(kEndScript), "/" + std::string(kAttribute)});
  e.reference_findings_total = 3;
  e.inputs.push_back(MakeBlob("binary", std::string_view("\x00\xff\xfe<script>", 11)));
  e.inputs.push_back(MakeBlob("long", std::string(5000, 'x') + std::string(kEndScript)));
  e.expected_properties = "{\"answers\":[\"" + std::string(kAttribute).substr(2) + "\"]}";
  e.expected_warnings = {"SP-2.3-4"};
  e.findings.push_back({std::string(kScript), "error", 2,
                        std::string(kEndScript) + " " + std::string(kLinks),
                        std::string(kSingleQuote)});
  e.findings.push_back({"SP-3.6-1", "warning", 0, "\x1b[31mred\x07", ""});
  e.findings_total = 60;
  e.outputs.push_back(MakeBlob("file", std::string(kEndStyle) + "\n{\"type\":\"end\"}\n"));
  e.reference_outputs.push_back(MakeBlob("file", "{\"type\":\"header\"}\n{\"type\":\"end\"}\n"));
  return e;
}

// Sorts the cases as report.h requires, gives each a time and each failure its evidence, and fills
// in the counts.
void Finish(ImplementationReport* impl, bool hostile) {
  std::sort(impl->cases.begin(), impl->cases.end(), [](const CaseResult& a, const CaseResult& b) {
    return std::tie(a.format, a.id, a.operation) < std::tie(b.format, b.id, b.operation);
  });
  for (std::size_t i = 0; i < impl->cases.size(); ++i) {
    CaseResult& c = impl->cases[i];
    c.seconds = 0.125 * static_cast<double>(i + 1);
    if (c.outcome == Outcome::kFailed || c.outcome == Outcome::kErrored ||
        c.outcome == Outcome::kKnownFailure) {
      c.evidence = SampleEvidence(c, hostile);
    }
  }
  Recount(impl);
}

// Every requirement the cases cite, as the runner lists them from the catalogues.
std::vector<RequirementInfo> Requirements(const std::vector<ImplementationReport>& impls) {
  std::set<std::pair<std::string, std::string>> cited;
  for (const ImplementationReport& impl : impls) {
    for (const CaseResult& c : impl.cases) {
      for (const std::string& id : c.requirements) cited.emplace(c.format, id);
    }
  }
  std::vector<RequirementInfo> out;
  for (const auto& [format, id] : cited) {
    // "SP-11.4-3" is in section "11.4".
    const std::size_t dash = id.find('-'), last = id.rfind('-');
    const std::string section = dash < last ? id.substr(dash + 1, last - dash - 1) : "";
    const std::string level = id == "SP-2.3-4" || id == "SP-3.6-2" ? "SHOULD" : "MUST";
    out.push_back({id, format, section, level,
                   "Readers " + level + " do what " + id + " says. " + std::string(kEndScript)});
  }
  return out;
}

// The flags the sample's acceptable cases name, and the readings of SP-E14 (§2.3 `iso8601`).
constexpr std::string_view kIso8601Flag = "SP-E14";
constexpr std::string_view kLineEndFlag = "SP-E5";
constexpr std::string_view kRfc3339 = "rfc3339";
constexpr std::string_view kAnyIso8601 = "iso8601";

// The two SP-E14 cases, passed with the reading each answer fits; the ARCS strict profile takes
// rfc3339.
std::vector<CaseResult> Iso8601Cases(std::string_view basic_reading,
                                     std::string_view week_reading) {
  auto strict = [](std::string_view reading) {
    return reading == kRfc3339 ? Strict::kPassed : Strict::kFailed;
  };
  return {
      Strictly(Acceptable(Case("spool-2.3-iso8601-basic", "validate", "SHOULD", Outcome::kPassed,
                               {"SP-2.3-4"}),
                          std::string(kIso8601Flag), {std::string(basic_reading)}),
               strict(basic_reading)),
      Strictly(Acceptable(Case("spool-2.3-iso8601-week", "validate", "SHOULD", Outcome::kPassed,
                               {"SP-2.3-4"}),
                          std::string(kIso8601Flag), {std::string(week_reading)}),
               strict(week_reading)),
  };
}

// The reference: one reading of each flag (consistent), and the strict profile matched wherever
// it is judged, its known failure included (the profile is the reference's own answer).
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
      Strictly(Case("spool-3.4-bom", "roundtrip", "MUST", Outcome::kPassed, {"SP-3.4-1"}),
               Strict::kPassed),
      Strictly(Case("spool-3.4-bom", "validate", "MUST", Outcome::kPassed, {"SP-3.4-1"}),
               Strict::kPassed),
      Strictly(
          Acceptable(Case("spool-3.6-crlf", "validate", "SHOULD", Outcome::kPassed, {"SP-3.6-2"}),
                     std::string(kLineEndFlag), {"any-line-end", "lf-or-crlf"}),
          Strict::kPassed),
      Strictly(Policy(Failing(Case("spool-11.1-minimal", "validate", "MAY", Outcome::kKnownFailure,
                                   {"SP-11.1-1", "SP-11.1-2"}),
                              "valid", "invalid (SP-3.6-1)"),
                      "invalid_line=reject"),
               Strict::kPassed),
      Strictly(Policy(Case("spool-11.4-skip", "validate", "MUST", Outcome::kPassed, {"SP-11.4-3"}),
                      "invalid_line=reject"),
               Strict::kPassed),
      DeepNesting(std::uint64_t{12} << 20),
  };
  impl.cases[1].rules = "agree";
  impl.cases[3].mismatch = "rejected";  // spool-11.1-minimal: expected valid
  for (CaseResult& c : Iso8601Cases(kRfc3339, kRfc3339)) impl.cases.push_back(std::move(c));
  Finish(&impl, false);
  return impl;
}

// Hostile text everywhere an implementation could put some, and a flag named with it; SP-E14 read
// two ways (inconsistent), SP-E5 never answered (consistent: nothing to compare), a policy it
// declared no choice for.
ImplementationReport Hostile() {
  ImplementationReport impl;
  impl.name = std::string(kScript) + " py.spool";
  impl.version = std::string(kAttribute) + " " + std::string(kLinks);
  impl.language = std::string(kMarkdown);
  impl.homepage = "javascript:alert(6)";
  impl.command = std::string("python3 adapter.py --x='y' ") + std::string(kSingleQuote);
  impl.formats.push_back(Format("spool", "partial", {{"validate", true}, {"roundtrip", false}}));
  impl.formats.back().missing = {"roundtrip: not supported", std::string(kEndScript)};
  impl.formats.back().policies = {{"invalid_line", "skip"}, {std::string(kAttribute), "x"}};
  impl.formats.push_back(Format("lightbox", "none", {{"validate", true}}));
  impl.formats.back().missing = {"validate: 1 MUST case failed"};

  CaseResult lightbox = Strictly(
      Policy(Failing(Case("lightbox-2.1-hash", "validate", "MUST", Outcome::kFailed, {"LB-2.1-1"}),
                     "invalid (LB-2.1-1)", "valid"),
             "digest_case"),
      Strict::kFailed);
  lightbox.format = "lightbox";
  lightbox.mismatch = "accepted";
  CaseResult crash = Acceptable(
      Failing(Case("spool-3.6-crlf", "validate", "SHOULD", Outcome::kErrored, {"SP-3.6-2"}),
              "valid", "crash: killed by signal 11 (SIGSEGV)"),
      std::string(kLineEndFlag), {});
  crash.error_kind = "crash";
  crash.rerun = true;
  // Answered, but fitting no reading of its flag.
  CaseResult hostile_id = Strictly(
      Acceptable(
          Failing(Case(std::string(kEndStyle), "validate", "MUST", Outcome::kFailed, {"SP-11.4-3"}),
                  std::string(kCdata),
                  std::string(kEndScript) + "\n\x1b[31mred\x07 \xE2\x80\xAE" + "evil"),
          "SP-E" + std::string(kEndScript), {}),
      Strict::kFailed);
  hostile_id.message = std::string(kScript) + "\r\nsecond line\t" + std::string(kMarkdown) + " " +
                       std::string(kLinks);
  hostile_id.rules = "differ";
  hostile_id.mismatch = "output";
  CaseResult skipped = Case("spool-3.4-bom", "roundtrip", "MUST", Outcome::kSkipped, {"SP-3.4-1"});
  skipped.message = "unsupported: " + std::string(kSingleQuote) + " " + std::string(kLinks);
  CaseResult abandoned =
      Policy(Failing(Case("spool-11.4-skip", "validate", "MUST", Outcome::kErrored, {"SP-11.4-3"}),
                     "valid", "not run: abandoned"),
             "invalid_line=skip");
  abandoned.error_kind = "abandoned";

  impl.cases = {
      std::move(lightbox),
      std::move(hostile_id),
      std::move(skipped),
      Strictly(Case("spool-3.4-bom", "validate", "MUST", Outcome::kPassed, {"SP-3.4-1"}),
               Strict::kPassed),
      std::move(crash),
      std::move(abandoned),
      DeepNesting(std::uint64_t{3} << 29),
  };
  for (CaseResult& c : Iso8601Cases(kAnyIso8601, kRfc3339)) impl.cases.push_back(std::move(c));
  impl.abandoned = true;
  impl.restarts = 3;
  impl.stderr_tail = std::string("Traceback:\n") + std::string(kEndScript) + "\n\x01\x02</pre>";
  Finish(&impl, true);
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
  report.requirements = Requirements(report.implementations);
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
