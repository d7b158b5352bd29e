// RenderJunit (render.h).
#include <algorithm>
#include <cstdio>
#include <set>

#include "reference/core/strings.h"
#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/render_common.h"

namespace arcs::report {
namespace {

constexpr std::size_t kMaxMessageBytes = 500;
constexpr std::size_t kMaxBodyBytes = 4000;

std::string E(std::string_view text) { return EscapeXml(text); }

// Dots separate levels of a JUnit classname; inside one name they would invent levels.
std::string ClassPart(std::string_view name) {
  std::string part(name);
  std::replace(part.begin(), part.end(), '.', '_');
  return part;
}

// Seconds as JUnit's time attribute: a decimal with millisecond precision.
std::string Time(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", seconds < 0 ? 0.0 : seconds);
  return buffer;
}

struct Tally {
  std::uint64_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  void Add(const CaseResult& c) {
    const Outcome outcome = c.outcome;
    seconds += c.seconds;
    ++tests;
    failures += outcome == Outcome::kFailed;
    errors += outcome == Outcome::kErrored;
    skipped += outcome == Outcome::kSkipped || outcome == Outcome::kKnownFailure;
  }
  std::string Attributes() const {
    return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
           "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) +
           "\" time=\"" + Time(seconds) + "\"";
  }
};

std::string OneLine(const CaseResult& c) {
  std::string line;
  for (char ch : internal::ExpectedActual(c))
    line += ch == '\n' ? std::string("; ") : std::string(1, ch);
  return E(Truncate(line, kMaxMessageBytes));
}

// The case's ground and what goes with it, as testcase properties: CI systems that show them
// (GitLab, Jenkins) tell a required failure from a policy or an ambiguous passage. Members that
// do not apply to the case are left out.
std::string Properties(const CaseResult& c) {
  std::string out = "      <properties>\n";
  auto property = [&out](std::string_view name, std::string_view value) {
    if (value.empty()) return;
    out += "        <property name=\"" + std::string(name) + "\" value=\"" +
           E(Truncate(value, kMaxMessageBytes)) + "\"/>\n";
  };
  property("ground", GroundName(c.ground));
  property("flag", c.flag);
  property("policy", c.policy);
  property("readings", Join(c.readings));
  property("strict", StrictName(c.strict));
  property("peak_rss_bytes", c.peak_rss_bytes == 0 ? "" : std::to_string(c.peak_rss_bytes));
  return out + "      </properties>\n";
}

// The evidence a CI log can hold: where the vector is, what it quotes, the inputs' first bytes and
// the implementation's verdict and findings (the HTML report shows the rest).
std::string EvidenceText(const CaseResult& c) {
  if (!c.evidence) return "";
  const Evidence& e = *c.evidence;
  std::string text = "\nvector: " + e.vector;
  if (!e.spec_text.empty()) text += "\nspec: " + e.spec_text;
  for (const Blob& input : e.inputs) {
    text += "\ninput " + input.name + " (" + std::to_string(input.size) + " bytes, " +
            input.encoding + "):\n" + Truncate(input.content, 400);
    while (text.ends_with('\n')) text.pop_back();
  }
  if (!e.verdict.empty()) text += "\nverdict: " + e.verdict;
  for (const FindingEvidence& f : e.findings) {
    text += "\nfinding: " + f.rule + " " + f.severity;
    if (f.line) text += " line " + std::to_string(f.line);
    if (!f.message.empty()) text += ": " + f.message;
  }
  return text;
}

std::string TestCase(const ImplementationReport& impl, const CaseResult& c) {
  std::string out = "    <testcase classname=\"" + E(ClassPart(impl.name)) + "." +
                    E(ClassPart(c.format)) + "." + E(ClassPart(c.operation)) + "\" name=\"" +
                    E(c.id) + "\" time=\"" + Time(c.seconds) + "\">\n" + Properties(c);
  const std::string body =
      E(Truncate(internal::ExpectedActual(c) + EvidenceText(c), kMaxBodyBytes));
  switch (c.outcome) {
    case Outcome::kPassed:
      return out + "    </testcase>\n";
    case Outcome::kFailed:
      return out + "      <failure message=\"" + OneLine(c) + "\" type=\"failed\">" + body +
             "</failure>\n    </testcase>\n";
    case Outcome::kErrored:
      return out + "      <error message=\"" + OneLine(c) + "\" type=\"" +
             E(c.error_kind.empty() ? "errored" : c.error_kind) + "\">" + body +
             "</error>\n    </testcase>\n";
    case Outcome::kSkipped:
      return out + "      <skipped message=\"" + E(Truncate(c.message, kMaxMessageBytes)) +
             "\"/>\n    </testcase>\n";
    case Outcome::kKnownFailure:
      return out + "      <skipped message=\"known failure: " + OneLine(c) +
             "\"/>\n    </testcase>\n";
  }
  return out + "    </testcase>\n";
}

}  // namespace

std::string RenderJunit(const Report& report) {
  Tally all;
  std::string suites;
  for (const ImplementationReport& impl : report.implementations) {
    // The declared formats in their order, then any format only the cases name.
    std::vector<std::string> formats;
    for (const FormatSummary& f : impl.formats) formats.push_back(f.format);
    std::set<std::string> extra;
    for (const CaseResult& c : impl.cases) {
      if (std::find(formats.begin(), formats.end(), c.format) == formats.end()) {
        extra.insert(c.format);
      }
    }
    formats.insert(formats.end(), extra.begin(), extra.end());

    for (const std::string& format : formats) {
      Tally tally;
      std::string cases;
      for (const CaseResult& c : impl.cases) {
        if (c.format != format) continue;
        tally.Add(c);
        all.Add(c);
        cases += TestCase(impl, c);
      }
      std::string certification;
      for (const FormatSummary& f : impl.formats) {
        if (f.format == format) certification = internal::CertificationText(f);
      }
      suites += "  <testsuite name=\"" + E(impl.name) + "/" + E(format) + "\"" +
                tally.Attributes() + ">\n    <properties>\n" +
                "      <property name=\"version\" value=\"" + E(impl.version) + "\"/>\n" +
                "      <property name=\"certification\" value=\"" + E(certification) +
                "\"/>\n    </properties>\n" + cases + "  </testsuite>\n";
    }
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ARCS\"" +
         all.Attributes() + ">\n" + suites + "</testsuites>\n";
}

}  // namespace arcs::report
