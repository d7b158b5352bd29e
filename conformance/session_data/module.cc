#include "conformance/session_data/module.h"

#include "conformance/session_data/checker.h"
#include "conformance/session_data/render_judge.h"
#include "conformance/session_data/verbs.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::conformance::session_data {

namespace {

using arcs::session_data::Limits;

// ARCS's limits: the spec sets none (RFC 8259 §9 lets a reader set them; errata SD-E23).
const std::vector<BoundLimit<Limits>>& SessionDataLimits() {
  static const Limits d;
  static const std::vector<BoundLimit<Limits>> limits = {
      {{"max_file_bytes", d.max_file_bytes, "SD-JSON-3", "bytes of a session file read"},
       &Limits::max_file_bytes},
      {{kMaxJsonDepthLimit, d.max_json_depth, "SD-JSON-3",
        "nesting of arrays and objects (the top-level object is 1)"},
       &Limits::max_json_depth},
  };
  return limits;
}

// A JSON object with the members every session has, near its start.
bool LooksLikeSessionData(std::string_view head) {
  return head.find("\"schemaVersion\"") != std::string_view::npos &&
         (head.find("\"exchanges\"") != std::string_view::npos ||
          head.find("\"sessionId\"") != std::string_view::npos);
}

void ValidateFile(jsonl::ByteSource* source, const CompanionSources&, const LimitValues& limits,
                  Diagnostics* out) {
  Validate(source, ToSessionDataLimits(limits), out);
}

protocol::Answer ValidateAnswer(const CaseInput& input) {
  return ValidateCaseAnswer(Module(), input);
}

// Rendered for every JSON object, refused otherwise (SD-RENDER-6, errata SD-E26).
protocol::Answer RenderAnswer(const CaseInput& input) {
  protocol::Answer answer;
  std::optional<std::string> markdown =
      arcs::session_data::RenderFile(input.Input("file"), ToSessionDataLimits(input.limits));
  if (markdown) {
    answer.outputs["markdown"] = std::move(*markdown);
  } else {
    answer.verdict = protocol::Verdict::kInvalid;
  }
  return answer;
}

// The problems, one line: the first few, and how many more.
std::string Summarize(const std::vector<RenderProblem>& problems) {
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < problems.size() && k < 3; ++k) {
    lines.push_back(problems[k].requirement + ": " + problems[k].message);
  }
  if (problems.size() > 3) lines.push_back("and " + std::to_string(problems.size() - 3) + " more");
  return Join(lines, "; ");
}

// The properties of expect_render, each scored at its requirement's level: a MUST fails the case,
// a SHOULD (thinking set apart, SD-RENDER-4) only the strict profile.
std::string CheckRender(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kValid || check.expected_properties.empty()) {
    return "";
  }
  auto markdown = check.answer.outputs.find("markdown");
  if (markdown == check.answer.outputs.end()) return "no output \"markdown\"";
  json::Document doc;
  Result<RenderExpectation> expected =
      doc.Parse(check.expected_properties)
          ? ReadRenderExpectation(doc.root(), "/expect_render")
          : Result<RenderExpectation>(Status(StatusCode::kParseError, doc.error().message));
  if (!expected.ok()) return "the vector's expect_render: " + expected.status().message();
  std::vector<RenderProblem> must, should;
  for (RenderProblem& p : JudgeRender(markdown->second, *expected)) {
    (Module().LevelOf(p.requirement) == Level::kMust ? must : should).push_back(std::move(p));
  }
  if (check.advisory) *check.advisory = Summarize(should);
  return Summarize(must);
}

FormatModule Build() {
  FormatModule m;
  m.name = "session-data";
  m.title = "SessionData 1.0";
  m.spec = "session-data.md";
  m.spec_version = "1.0";
  m.rule_prefix = "SD-";
  m.sniff = LooksLikeSessionData;
  m.limits = LimitSpecs(SessionDataLimits());
  m.policies = {
      {"statement",
       {"rules", "schema", "both"},
       "both",
       "session-data.md states the format twice, the Go types with Validate() and a JSON Schema, "
       "and names neither the authority (errata SD-E1)"},
  };
  m.operations = {
      {"validate",
       "judges whether a session conforms under the declared statement (rules, schema or both); "
       "findings cite the catalogue",
       {"file"},
       "valid",
       "invalid",
       ValidateAnswer},
      {"render",
       "writes the session as a Markdown transcript (output markdown), or refuses a file that is "
       "not one JSON text holding an object",
       {"file"},
       "rendered",
       "refused",
       RenderAnswer,
       CheckRender},
  };
  m.rules = AllRules;
  m.validator = ValidateFile;
  m.verbs = Verbs();
  m.catalogue_text = CatalogueText;
  return m;
}

}  // namespace

const FormatModule& Module() {
  static const FormatModule module = Build();
  return module;
}

Limits ToSessionDataLimits(const LimitValues& values) {
  return ToReferenceLimits(SessionDataLimits(), values);
}

}  // namespace arcs::conformance::session_data
