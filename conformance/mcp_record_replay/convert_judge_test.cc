#include "conformance/mcp_record_replay/convert_judge.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "reference/core/jsonl.h"
#include "reference/mcp_record_replay/convert.h"

namespace arcs::conformance::mcp_record_replay {
namespace {

// The spec's two examples (§2 F-004), byte for byte (a test below compares them with the spec).
constexpr char kSimpleExample[] = R"yaml(# Auto-generated from session.jsonl
# Recorded: 2025-02-04T10:00:00Z
# Upstream: npx -y @anthropic/mcp-server-filesystem /tmp
#
# To add injection, edit the response.content fields below.

server:
  name: "replay-session"
  version: "1.0.0"

tools:
  # Extracted from tools/list response
  - tool:
      name: read_file
      description: "Read complete contents of a file"
      inputSchema:
        type: object
        properties:
          path:
            type: string
        required: ["path"]
    
    response:
      # All observed responses (in call order)
      sequence:
        - content:
            - type: text
              text: "127.0.0.1 localhost\n::1 localhost\n"
        - content:
            - type: text
              text: "root:x:0:0:root:/root:/bin/bash\n..."
      on_exhausted: last

  - tool:
      name: list_directory
      description: "List directory contents"
      inputSchema:
        type: object
        properties:
          path:
            type: string
        required: ["path"]
    
    response:
      content:
        - type: text
          text: "file1.txt\nfile2.txt\nsubdir/"
)yaml";
constexpr char kPhasedExample[] = R"yaml(# Auto-generated from session.jsonl (phased style)
# Phase transition after 3 tool calls

server:
  name: "replay-session"
  capabilities:
    tools:
      listChanged: true

baseline:
  tools:
    - tool:
        name: read_file
        # ... schema from tools/list
      response:
        # Responses from calls 1-3 (benign phase)
        sequence:
          - content: [{ type: text, text: "..." }]
          - content: [{ type: text, text: "..." }]
          - content: [{ type: text, text: "..." }]
        on_exhausted: last

phases:
  - name: attack
    advance:
      on: tools/call
      count: 3
    
    # TODO: Replace with malicious responses
    replace_tools:
      read_file:
        tool:
          name: read_file
          # ... same schema
        response:
          content:
            - type: text
              text: |
                File contents...
                
                [INJECT YOUR PAYLOAD HERE]
)yaml";

constexpr char kReadFileDefinition[] =
    R"({"name":"read_file","description":"Read complete contents of a file",)"
    R"("inputSchema":{"type":"object","properties":{"path":{"type":"string"}},)"
    R"("required":["path"]}})";
constexpr char kListDirectoryDefinition[] =
    R"({"name":"list_directory","description":"List directory contents",)"
    R"("inputSchema":{"type":"object","properties":{"path":{"type":"string"}},)"
    R"("required":["path"]}})";

std::string Text(std::string_view text) {
  return R"({"content":[{"type":"text","text":")" + std::string(text) + R"("}]})";
}

// What the simple example shows of its recording: read_file's two results, list_directory's one.
std::string SimpleExpectation(const std::string& read_file_results = "") {
  return R"({"style":"simple","tools":[{"name":"read_file","definition":)" +
         std::string(kReadFileDefinition) + R"(,"results":[)" +
         (read_file_results.empty() ? Text(R"(127.0.0.1 localhost\n::1 localhost\n)") + "," +
                                          Text(R"(root:x:0:0:root:/root:/bin/bash\n...)")
                                    : read_file_results) +
         R"(]},{"name":"list_directory","definition":)" + kListDirectoryDefinition +
         R"(,"results":[)" + Text(R"(file1.txt\nfile2.txt\nsubdir/)") + "]}]}";
}

// The phased example: read_file's schema is elided ("# ... schema from tools/list"), so no
// definition; three results "..." before the phase advances after 3 calls.
std::string PhasedExpectation(std::string_view phase_after = "3") {
  return R"({"style":"phased","phase_after":)" + std::string(phase_after) +
         R"(,"baseline":[{"name":"read_file","results":[)" + Text("...") + "," + Text("...") + "," +
         Text("...") + "]}]}";
}

std::vector<std::string> Judge(std::string_view yaml, const std::string& expectation) {
  json::Document doc;
  EXPECT_TRUE(doc.Parse(expectation)) << doc.error().message << "\n" << expectation;
  return JudgeConvert(yaml, doc.root());
}

// The problems, one per line, for failure messages.
std::string Lines(const std::vector<std::string>& problems) {
  std::string out;
  for (const std::string& p : problems) out += "\n  " + p;
  return out;
}

// Exactly one problem, containing `part`.
void ExpectProblem(const std::vector<std::string>& problems, std::string_view part) {
  ASSERT_EQ(problems.size(), 1u) << Lines(problems);
  EXPECT_NE(problems[0].find(part), std::string::npos) << Lines(problems);
}

TEST(ConvertJudgeTest, TheExamplesAreTheSpecsBlocks) {
  const char* root = std::getenv("ARCS_SOURCE_DIR");
  std::ifstream spec(std::string(root ? root : ".") + "/../shared/specs/mcp-record-replay.md");
  if (!spec) GTEST_SKIP() << "the spec is not beside the tree";
  const std::string text((std::istreambuf_iterator<char>(spec)), std::istreambuf_iterator<char>());
  for (const auto& [title, block] :
       {std::pair{"**Generated Config Example (Simple):**", kSimpleExample},
        std::pair{"**Generated Config Example (Phased):**", kPhasedExample}}) {
    const std::size_t at = text.find(title);
    ASSERT_NE(at, std::string::npos) << title;
    const std::size_t begin = text.find("```yaml\n", at) + 8;
    EXPECT_EQ(text.substr(begin, text.find("```", begin) - begin), block) << title;
  }
}

// ---------- What passes

TEST(ConvertJudgeTest, TheSimpleExamplePasses) {
  EXPECT_TRUE(Judge(kSimpleExample, SimpleExpectation()).empty())
      << Lines(Judge(kSimpleExample, SimpleExpectation()));
}

TEST(ConvertJudgeTest, ThePhasedExamplePasses) {
  EXPECT_TRUE(Judge(kPhasedExample, PhasedExpectation()).empty())
      << Lines(Judge(kPhasedExample, PhasedExpectation()));
}

TEST(ConvertJudgeTest, LayoutQuotingAndCommentsAreFree) {
  // The example's data as JSON text (YAML 1.2), members reordered, one result as a one-item
  // sequence, no on_exhausted.
  const std::string json =
      R"({"tools":[{"response":{"sequence":[)" + Text(R"(127.0.0.1 localhost\n::1 localhost\n)") +
      "," + Text(R"(root:x:0:0:root:/root:/bin/bash\n...)") + R"(]},"tool":)" +
      kReadFileDefinition + R"(},{"tool":)" + kListDirectoryDefinition +
      R"(,"response":{"sequence":[)" + Text(R"(file1.txt\nfile2.txt\nsubdir/)") +
      R"(],"on_exhausted":"last"}}],"server":7})";
  EXPECT_TRUE(Judge(json, SimpleExpectation()).empty()) << Lines(Judge(json, SimpleExpectation()));
}

TEST(ConvertJudgeTest, ScalarsResolveByTheYaml12CoreSchema) {
  const std::string yaml = R"(tools:
  - tool: {name: t}
    response:
      yes: yes
      "on": on
      y: n
      int: +0012
      float: 1.50e+2
      dot: .5
      octal: 0o17
      hex: 0x1F
      big: 12345678901234567890123
      str_tag: !!str 3
      int_tag: !!int "4"
      quoted_null: "null"
      nulls: [null, Null, ~, NULL]
      blank:
      bools: [true, False, TRUE]
      underscore: 1_000
      sexagesimal: 1:20
      empty: {}
      text: |
        two
        lines
)";
  const std::string expectation =
      R"({"style":"simple","tools":[{"name":"t","results":[{"yes":"yes","on":"on","y":"n",)"
      R"("int":12,"float":150,"dot":0.5,"octal":15,"hex":31,"big":12345678901234567890123,)"
      R"("str_tag":"3","int_tag":4,"quoted_null":"null","nulls":[null,null,null,null],"blank":null,)"
      R"("bools":[true,false,true],"underscore":"1_000","sexagesimal":"1:20","empty":{},)"
      R"("text":"two\nlines\n"}]}]})";
  EXPECT_TRUE(Judge(yaml, expectation).empty()) << Lines(Judge(yaml, expectation));
}

TEST(ConvertJudgeTest, NoToolsMeansAbsentNullOrEmpty) {
  const std::string none = R"({"style":"simple","tools":[]})";
  for (const char* yaml : {"server: {name: x}\n", "tools:\n", "tools: []\n", "tools: null\n"}) {
    EXPECT_TRUE(Judge(yaml, none).empty()) << yaml << Lines(Judge(yaml, none));
  }
  ExpectProblem(Judge("tools: [{tool: {name: a}}]\n", none), "tools: expected no tools");
}

TEST(ConvertJudgeTest, AToolWithoutResultsIsNotJudgedOnItsResponse) {
  const std::string expectation = R"({"style":"simple","tools":[{"name":"a","results":[]}]})";
  EXPECT_TRUE(Judge("tools: [{tool: {name: a}, response: 5}]\n", expectation).empty());
  EXPECT_TRUE(Judge("tools: [{tool: {name: a}}]\n", expectation).empty());
}

TEST(ConvertJudgeTest, TheReferenceConverterPasses) {
  const std::string header =
      R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z",)"
      R"("upstream":"npx","thoughtjack_version":"0.3.0"})"
      "\n";
  std::string text = header;
  int seq = 0;
  const auto line = [&](std::string_view dir, const std::string& msg) {
    text += R"({"type":"message","seq":)" + std::to_string(++seq) +
            R"(,"ts":"2025-02-04T10:00:00.050Z","dir":")" + std::string(dir) + R"(","msg":)" + msg +
            "}\n";
  };
  line("c2s", R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  line("s2c", R"({"jsonrpc":"2.0","id":1,"result":{"tools":[)" + std::string(kReadFileDefinition) +
                  "," + kListDirectoryDefinition + "]}}");
  const std::pair<const char*, std::string> calls[] = {
      {"read_file", Text(R"(127.0.0.1 localhost\n::1 localhost\n)")},
      {"read_file", Text(R"(root:x:0:0:root:/root:/bin/bash\n...)")},
      {"list_directory", Text(R"(file1.txt\nfile2.txt\nsubdir/)")}};
  for (const auto& [tool, result] : calls) {
    const std::string id = std::to_string(seq + 10);
    line("c2s", R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":"tools/call","params":{"name":")" +
                    tool + R"("}})");
    line("s2c", R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":)" + result + "}");
  }
  jsonl::MemorySource source(text);
  Result<arcs::mcp_record_replay::LoadedRecording> loaded =
      arcs::mcp_record_replay::LoadRecording(&source, {});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  arcs::mcp_record_replay::MemoryRandomAccess lines(text);
  Result<arcs::mcp_record_replay::Converted> simple =
      arcs::mcp_record_replay::Convert(*loaded, lines, {}, "session.jsonl");
  ASSERT_TRUE(simple.ok());
  EXPECT_TRUE(Judge(simple->yaml, SimpleExpectation()).empty())
      << Lines(Judge(simple->yaml, SimpleExpectation()));
  Result<arcs::mcp_record_replay::Converted> phased = arcs::mcp_record_replay::Convert(
      *loaded, lines, {arcs::mcp_record_replay::ConvertStyle::kPhased, 2}, "session.jsonl");
  ASSERT_TRUE(phased.ok());
  const std::string expectation =
      R"({"style":"phased","phase_after":2,"baseline":[{"name":"read_file","definition":)" +
      std::string(kReadFileDefinition) + R"(,"results":[)" +
      Text(R"(127.0.0.1 localhost\n::1 localhost\n)") + "," +
      Text(R"(root:x:0:0:root:/root:/bin/bash\n...)") +
      R"(]},{"name":"list_directory","results":[]}]})";
  EXPECT_TRUE(Judge(phased->yaml, expectation).empty()) << Lines(Judge(phased->yaml, expectation));
}

// ---------- What fails

TEST(ConvertJudgeTest, WrongOrder) {
  const std::string swapped =
      R"({"style":"simple","tools":[{"name":"list_directory","results":[]},)"
      R"({"name":"read_file","results":[]}]})";
  ExpectProblem(Judge(kSimpleExample, swapped),
                R"(tools: the tools are ["read_file", "list_directory"] (2), expected )"
                R"(["list_directory", "read_file"] (2))");
}

TEST(ConvertJudgeTest, AMissingOrExtraTool) {
  ExpectProblem(
      Judge(kSimpleExample, R"({"style":"simple","tools":[{"name":"read_file","results":[]}]})"),
      "the tools are");
  ExpectProblem(Judge(kSimpleExample,
                      R"({"style":"simple","tools":[{"name":"read_file","results":[]},)"
                      R"({"name":"list_directory","results":[]},{"name":"x","results":[]}]})"),
                "expected [\"read_file\", \"list_directory\", \"x\"] (3)");
}

TEST(ConvertJudgeTest, ASequenceMissingAnItem) {
  const std::vector<std::string> problems =
      Judge(kSimpleExample, SimpleExpectation(Text("a") + "," + Text("b") + "," + Text("c")));
  ASSERT_EQ(problems.size(), 3u) << Lines(problems);
  EXPECT_EQ(problems[0], "tools[0].response.sequence: 2 results, expected 3");
  EXPECT_EQ(problems[1],
            "tools[0].response.sequence[0].content[0].text: expected the string \"a\", found the "
            "string \"127.0.0.1 localhost\\n::1 localhost\\n\"");
}

TEST(ConvertJudgeTest, ANumberIsNotAString) {
  const std::string expectation =
      R"({"style":"simple","tools":[{"name":"t","results":[{"count":1}]}]})";
  ExpectProblem(Judge("tools: [{tool: {name: t}, response: {count: \"1\"}}]", expectation),
                "tools[0].response.count: expected the number 1, found the string \"1\"");
  EXPECT_TRUE(Judge("tools: [{tool: {name: t}, response: {count: 1.0}}]", expectation).empty());
  ExpectProblem(Judge("tools: [{tool: {name: t}, response: {count: .inf}}]", expectation),
                "found the number .inf");
  ExpectProblem(Judge("tools: [{tool: {name: t}, response: {count: 1, more: 2}}]", expectation),
                "tools[0].response.more: not expected, found the number 2");
  ExpectProblem(Judge("tools: [{tool: {name: t}, response: {}}]", expectation),
                "tools[0].response.count: missing, expected the number 1");
  ExpectProblem(Judge("tools: [{tool: {name: t}, response: {count: 1, count: 1}}]", expectation),
                "tools[0].response.count: the key is repeated");
  ExpectProblem(Judge("tools: [{tool: {name: t}, response: {count: 1, 2: 1}}]", expectation),
                "a key that is not a string (the number 2)");
  ExpectProblem(Judge("tools: [{tool: {name: t}, response: {count: !foo 1}}]", expectation),
                "tagged \"!foo\"");
}

TEST(ConvertJudgeTest, PlainYesAndOnAreStrings) {
  const std::string expectation =
      R"({"style":"simple","tools":[{"name":"on","results":[{"yes":"yes","flag":true}]}]})";
  EXPECT_TRUE(Judge("tools:\n- tool:\n    name: on\n  response:\n    yes: yes\n    flag: true\n",
                    expectation)
                  .empty());
  ExpectProblem(Judge("tools:\n- tool:\n    name: on\n  response:\n    yes: yes\n    flag: yes\n",
                      expectation),
                "tools[0].response.flag: expected true, found the string \"yes\"");
}

TEST(ConvertJudgeTest, ADefinitionThatDiffers) {
  std::string yaml = kSimpleExample;
  yaml.replace(yaml.find("List directory contents"), 4, "Show");
  yaml.replace(yaml.find("required: [\"path\"]"), 18, "required: []");
  const std::vector<std::string> problems = Judge(yaml, SimpleExpectation());
  ASSERT_EQ(problems.size(), 2u) << Lines(problems);
  EXPECT_EQ(problems[0],
            "tools[0].tool.inputSchema.required: expected a sequence of 1 items, found a sequence "
            "of 0 items");
  EXPECT_NE(problems[1].find("tools[1].tool.description: expected the string \"List directory "
                             "contents\", found the string \"Show directory contents\""),
            std::string::npos)
      << problems[1];
}

TEST(ConvertJudgeTest, AResponseThatIsNeitherInlineNorASequence) {
  std::string yaml = kSimpleExample;
  yaml.replace(yaml.find("sequence:"), 9, "responses:");
  ExpectProblem(Judge(yaml, SimpleExpectation()), "tools[0].response.sequence: missing");
}

TEST(ConvertJudgeTest, PhasedAdvance) {
  ExpectProblem(Judge(kPhasedExample, PhasedExpectation("5")),
                "phases[0].advance.count: expected the number 5, found the number 3");
  std::string quoted = kPhasedExample;
  quoted.replace(quoted.find("on: tools/call"), 14, "\"on\": \"tools/call\"");
  EXPECT_TRUE(Judge(quoted, PhasedExpectation()).empty());
  std::string boolean = kPhasedExample;
  boolean.replace(boolean.find("on: tools/call"), 14, "true: tools/call");
  ExpectProblem(Judge(boolean, PhasedExpectation()), "phases[0].advance.on: missing");
  ExpectProblem(
      Judge("baseline: {tools: []}\n", R"({"style":"phased","phase_after":3,"baseline":[]})"),
      "phases: expected a list");
}

TEST(ConvertJudgeTest, NotOneMappingDocument) {
  ExpectProblem(Judge("- a\n- b\n", SimpleExpectation()), "the document is not a mapping");
  ExpectProblem(Judge("", SimpleExpectation()), "expected one YAML document, found none");
  ExpectProblem(Judge("# only a comment\n", SimpleExpectation()),
                "expected one YAML document, found none");
  ExpectProblem(Judge("a: 1\n---\nb: 2\n", SimpleExpectation()),
                "expected one YAML document, found more");
  // yaml-cpp 0.7 reads these as endless empty documents.
  for (const char* endless : {",", ",server:\n  name: x\n", "{a: 1}\n,b: 2\n"}) {
    ExpectProblem(Judge(endless, SimpleExpectation()), "expected one YAML document, found more");
  }
  ExpectProblem(Judge("tools: [1, 2\n", SimpleExpectation()), "not YAML: ");
  ExpectProblem(Judge("a: *nowhere\n", SimpleExpectation()), "not YAML: ");
  // Bytes that are not UTF-8: judged or refused, never a crash.
  (void)Judge(std::string("tools: \"\xff\xfe\"\n"), SimpleExpectation());
}

TEST(ConvertJudgeTest, AliasesCannotMultiplyTheWork) {
  // Billion laughs: each level ten aliases of the one below.
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char level = 'b'; level <= 'j'; ++level) {
    bomb += std::string(1, level) + ": &" + level + " [";
    for (int i = 0; i < 10; ++i)
      bomb += std::string(i ? ", *" : "*") + static_cast<char>(level - 1);
    bomb += "]\n";
  }
  const std::string expectation = R"({"style":"simple","tools":[{"name":"t","results":[{}]}]})";
  ExpectProblem(Judge(bomb + "tools: [{tool: {name: t}, response: *j}]\n", expectation),
                "tools[0].response: expected a mapping, found a sequence of 10 items");
  // One wide mapping looked into a thousand times through aliases.
  std::string wide = "m: &m {";
  for (int i = 0; i < 2000; ++i) wide += (i ? ", k" : "k") + std::to_string(i) + ": 0";
  wide += "}\ntools: [";
  for (int i = 0; i < 1000; ++i) wide += i ? ", *m" : "*m";
  wide += "]\n";
  const std::vector<std::string> problems = Judge(wide, expectation);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems.front().find("not judged past 1000000 nodes"), std::string::npos)
      << Lines(problems);
  // An alias of a collection inside itself.
  const std::vector<std::string> cycle =
      Judge("tools: [{tool: {name: t}, response: &r [*r]}]\n", expectation);
  EXPECT_FALSE(cycle.empty());
}

TEST(ConvertJudgeTest, DeepNestingIsRefusedBeforeParsing) {
  for (const std::string& deep :
       {"tools: " + std::string(100000, '['), "tools: " + std::string(100000, '{'),
        "tools:\n- " + std::string(300, '[') + std::string(300, ']')}) {
    ExpectProblem(Judge(deep, SimpleExpectation()),
                  "not judged: flow collections nest deeper than 256");
  }
  // Block nesting: yaml-cpp's own depth guard.
  std::string block = "tools:\n";
  for (int i = 0; i < 100000; ++i) block += "- ";
  ExpectProblem(Judge(block + "x\n", SimpleExpectation()), "not YAML: ");
}

TEST(ConvertJudgeTest, BracketsInsideScalarsAreNotNesting) {
  const std::string many(1000, '[');
  const std::string yaml = "tools:\n- tool: {name: t}\n  response:\n    plain: a" + many +
                           "\n    quoted: \"" + many + "\"\n    single: '" + many +
                           "'\n    block: |\n      " + many + "\n      " + many + "\n    # " +
                           many + "\n    flow: [\"" + many + "\", '" + many + "']\n";
  const std::string expectation =
      R"({"style":"simple","tools":[{"name":"t","results":[{"plain":"a)" + many +
      R"(","quoted":")" + many + R"(","single":")" + many + R"(","block":")" + many + R"(\n)" +
      many + R"(\n","flow":[")" + many + R"(",")" + many + R"("]}]}]})";
  EXPECT_TRUE(Judge(yaml, expectation).empty()) << Lines(Judge(yaml, expectation));
}

TEST(ConvertJudgeTest, TheExpectationIsReadStrictly) {
  json::Document doc;
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {R"({"style":"fancy","tools":[]})", "/expect_convert/style: must be"},
           {R"({"style":"simple"})", "/expect_convert/tools"},
           {R"({"style":"simple","tools":[],"phase_after":3})", "phase_after"},
           {R"({"style":"phased","phase_after":3,"baseline":[],"tools":[]})", "tools"},
           {R"({"style":"phased","baseline":[]})", "phase_after"},
           {R"({"style":"simple","tools":[{"name":"a"}]})", "/expect_convert/tools/0/results"},
           {R"({"style":"simple","tools":[{"name":"a","results":[],"definition":{"name":"b"}}]})",
            "/expect_convert/tools/0/definition/name: differs from name"},
       }) {
    ASSERT_TRUE(doc.Parse(text));
    Result<ConvertExpectation> read = ReadConvertExpectation(doc.root(), "/expect_convert");
    ASSERT_FALSE(read.ok()) << text;
    EXPECT_NE(read.status().message().find(message), std::string::npos) << read.status().message();
    const std::vector<std::string> problems = JudgeConvert("tools: []", doc.root());
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].rfind("the vector's expect_convert: ", 0), 0u) << problems[0];
  }
}

TEST(ConvertJudgeTest, ProblemsAreCapped) {
  std::string yaml = "tools: [";
  std::string expectation = R"({"style":"simple","tools":[)";
  for (int i = 0; i < 200; ++i) {
    yaml +=
        (i ? ", " : "") + std::string("{tool: {name: t") + std::to_string(i) + "}, response: 1}";
    expectation +=
        (i ? "," : "") + std::string(R"({"name":"t)") + std::to_string(i) + R"(","results":[2]})";
  }
  const std::vector<std::string> problems = Judge(yaml + "]", expectation + "]}");
  ASSERT_EQ(problems.size(), 51u);
  EXPECT_EQ(problems.back(), "and 150 more problems");
}

}  // namespace
}  // namespace arcs::conformance::mcp_record_replay
