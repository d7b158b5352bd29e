#include "reference/mcp_record_replay/convert.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "reference/core/jsonl.h"

namespace arcs::mcp_record_replay {
namespace {

// The recording behind the spec's simple example (§2 F-004): a tools/list answered with
// read_file and list_directory, read_file called twice, list_directory once.
constexpr char kHeader[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z",)"
    R"("upstream":"npx -y @anthropic/mcp-server-filesystem /tmp","thoughtjack_version":"0.3.0"})"
    "\n";

constexpr char kReadFile[] =
    R"({"name":"read_file","description":"Read complete contents of a file",)"
    R"("inputSchema":{"type":"object","properties":{"path":{"type":"string"}},)"
    R"("required":["path"]}})";
constexpr char kListDirectory[] =
    R"({"name":"list_directory","description":"List directory contents",)"
    R"("inputSchema":{"type":"object","properties":{"path":{"type":"string"}},)"
    R"("required":["path"]}})";

std::string Text(std::string_view text) {
  return R"({"content":[{"type":"text","text":")" + std::string(text) + R"("}]})";
}

// Message lines with seq counted from 1.
class Recording {
 public:
  Recording& Add(std::string_view dir, const std::string& msg) {
    text_ += R"({"type":"message","seq":)" + std::to_string(++seq_) +
             R"(,"ts":"2025-02-04T10:00:00.050Z","dir":")" + std::string(dir) + R"(","msg":)" +
             msg + "}\n";
    return *this;
  }
  Recording& Request(std::string_view id, std::string_view method, std::string_view params) {
    return Add("c2s", R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":")" +
                          std::string(method) + R"(","params":)" + std::string(params) + "}");
  }
  Recording& Result(std::string_view id, const std::string& result) {
    return Add("s2c",
               R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"result":)" + result + "}");
  }
  Recording& Call(std::string_view id, std::string_view tool) {
    return Request(id, "tools/call",
                   R"({"name":")" + std::string(tool) + R"(","arguments":{"path":"/x"}})");
  }
  Recording& ToolsList(std::string_view id, const std::string& tools) {
    Request(id, "tools/list", "{}");
    return Result(id, R"({"tools":[)" + tools + "]}");
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_ = kHeader;
  int seq_ = 0;
};

std::string ExampleRecording() {
  return Recording()
      .Request("1", "initialize", "{}")
      .Result("1", R"({"protocolVersion":"2024-11-05","capabilities":{}})")
      .ToolsList("2", std::string(kReadFile) + "," + kListDirectory)
      .Call("3", "read_file")
      .Result("3", Text(R"(127.0.0.1 localhost\n::1 localhost\n)"))
      .Call("4", "read_file")
      .Result("4", Text(R"(root:x:0:0:root:/root:/bin/bash\n...)"))
      .Call("5", "list_directory")
      .Result("5", Text(R"(file1.txt\nfile2.txt\nsubdir/)"))
      .text();
}

Converted ConvertText(const std::string& text, ConvertOptions options = {}) {
  jsonl::MemorySource source(text);
  Result<LoadedRecording> loaded = LoadRecording(&source, LoadOptions{});
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok()) return {};
  MemoryRandomAccess lines(text);
  Result<Converted> converted = Convert(*loaded, lines, options, "session.jsonl");
  EXPECT_TRUE(converted.ok()) << converted.status().message();
  return converted.ok() ? *converted : Converted{};
}

// ---------- Reading the YAML back

bool IsJsonNumber(const std::string& s) {
  static const std::regex kNumber(R"(-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?)");
  return std::regex_match(s, kNumber);
}

// The data of a node as JSON text, scalars resolved by the YAML 1.2 core schema (null, booleans,
// numbers as this converter writes them; anything quoted is a string). "" when it is not JSON.
std::string AsJson(const YAML::Node& node) {
  static const std::regex kNull("null|Null|NULL|~|");
  static const std::regex kBool("true|True|TRUE|false|False|FALSE");
  std::string out;
  switch (node.Type()) {
    case YAML::NodeType::Null:
      return "null";
    case YAML::NodeType::Scalar: {
      const std::string& s = node.Scalar();
      if (node.Tag() != "?") {
        json::AppendQuoted(s, &out);
      } else if (std::regex_match(s, kNull)) {
        out = "null";
      } else if (std::regex_match(s, kBool)) {
        out = s[0] == 't' || s[0] == 'T' ? "true" : "false";
      } else if (IsJsonNumber(s)) {
        out = s;
      } else {
        json::AppendQuoted(s, &out);
      }
      return out;
    }
    case YAML::NodeType::Sequence:
      out = "[";
      for (const YAML::Node& item : node) {
        if (out.size() > 1) out += ',';
        const std::string value = AsJson(item);
        if (value.empty()) return "";
        out += value;
      }
      return out + "]";
    case YAML::NodeType::Map:
      out = "{";
      for (const auto& entry : node) {
        const std::string key = AsJson(entry.first);
        const std::string value = AsJson(entry.second);
        if (key.empty() || key[0] != '"' || value.empty()) return "";
        if (out.size() > 1) out += ',';
        out += key + ":" + value;
      }
      return out + "}";
    case YAML::NodeType::Undefined:
      return "";
  }
  return "";
}

// yaml-cpp's reading of `yaml` as JSON text; "" when it fails to parse.
std::string YamlCppData(const std::string& yaml) {
  try {
    return AsJson(YAML::Load(yaml));
  } catch (const YAML::Exception& e) {
    ADD_FAILURE() << "yaml-cpp: " << e.what() << "\n" << yaml;
    return "";
  }
}

// PyYAML's (YAML 1.1) reading of `yaml`, through json.dumps; nullopt when PyYAML is missing.
std::optional<std::string> PythonData(const std::string& yaml) {
  static const bool available = std::system("/usr/bin/python3 -c 'import yaml' 2>/dev/null") == 0;
  if (!available) return std::nullopt;
  char path[] = "/tmp/arcs_convert_test_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return std::nullopt;
  std::ofstream(path, std::ios::binary) << yaml;
  close(fd);
  const std::string command =
      "/usr/bin/python3 -c 'import json, sys, yaml; "
      "print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding=\"utf-8\"))))' " +
      std::string(path) + " 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    pclose(pipe);
  }
  std::remove(path);
  return out;
}

// Whether two JSON texts hold the same data (numbers by exact value).
::testing::AssertionResult SameJson(const std::string& actual, const std::string& expected) {
  json::Document a, e;
  if (!a.Parse(actual)) return ::testing::AssertionFailure() << "not JSON: " << actual;
  if (!e.Parse(expected)) return ::testing::AssertionFailure() << "bad expectation: " << expected;
  if (json::SameData(a.root(), e.root())) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "\n  actual:   " << actual << "\n  expected: " << expected;
}

// Both readers read `yaml` as `expected`.
void ExpectReadsAs(const std::string& yaml, const std::string& expected) {
  EXPECT_TRUE(SameJson(YamlCppData(yaml), expected)) << "yaml-cpp, of:\n" << yaml;
  if (std::optional<std::string> python = PythonData(yaml)) {
    EXPECT_TRUE(SameJson(*python, expected)) << "PyYAML, of:\n" << yaml;
  }
}

std::string ToolEntry(std::string_view definition, const std::string& response) {
  return R"({"tool":)" + std::string(definition) + R"(,"response":)" + response + "}";
}

std::string Sequence(const std::vector<std::string>& results) {
  std::string out = R"({"sequence":[)";
  for (std::size_t i = 0; i < results.size(); ++i) out += (i ? "," : "") + results[i];
  return out + R"(],"on_exhausted":"last"})";
}

constexpr char kServer[] = R"("server":{"name":"replay-session","version":"1.0.0"})";

// ---------- The simple style

TEST(ConvertTest, TheSimpleExample) {
  const Converted c = ConvertText(ExampleRecording());
  EXPECT_TRUE(c.warnings.empty()) << c.warnings.front();
  EXPECT_EQ(c.yaml.rfind("# Auto-generated from session.jsonl\n# Recorded: 2025-02-04T10:00:00Z\n"
                         "# Upstream: npx -y @anthropic/mcp-server-filesystem /tmp\n#\n",
                         0),
            0u)
      << c.yaml;
  const std::string expected =
      std::string("{") + kServer + R"(,"tools":[)" +
      ToolEntry(kReadFile, Sequence({Text(R"(127.0.0.1 localhost\n::1 localhost\n)"),
                                     Text(R"(root:x:0:0:root:/root:/bin/bash\n...)")})) +
      "," + ToolEntry(kListDirectory, Text(R"(file1.txt\nfile2.txt\nsubdir/)")) + "]}";
  ExpectReadsAs(c.yaml, expected);
  // The example's own layout for its plain parts.
  EXPECT_NE(c.yaml.find("  - tool:\n      name: read_file\n"), std::string::npos) << c.yaml;
  EXPECT_NE(c.yaml.find("      on_exhausted: last\n"), std::string::npos) << c.yaml;
}

TEST(ConvertTest, ToolsKeepTheListOrderAndEveryMemberOfTheirDefinition) {
  const std::string odd =
      R"({"name":"zeta","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}})";
  const Converted c = ConvertText(Recording()
                                      .ToolsList("1", odd + "," + kReadFile)
                                      .Call("2", "read_file")
                                      .Result("2", Text("a"))
                                      .Call("3", "zeta")
                                      .Result("3", Text("z"))
                                      .text());
  ExpectReadsAs(c.yaml, std::string("{") + kServer + R"(,"tools":[)" + ToolEntry(odd, Text("z")) +
                            "," + ToolEntry(kReadFile, Text("a")) + "]}");
}

TEST(ConvertTest, RequestsAndResponsesPairById) {
  // Repeated ids pair first in, first out; answers out of order still keep call order; 1.0
  // answers 1 (ids compare by value), "5" does not answer 5, an error response and an
  // unanswered call give nothing (errata MRR-E28, MRR-E44).
  const Converted c = ConvertText(Recording()
                                      .ToolsList("0", kReadFile)
                                      .Call("7", "read_file")
                                      .Call("7", "read_file")
                                      .Result("7", Text("first"))
                                      .Result("7", Text("second"))
                                      .Call("8", "read_file")
                                      .Call("9", "read_file")
                                      .Result("9", Text("fourth"))
                                      .Result("8", Text("third"))
                                      .Call("1", "read_file")
                                      .Result("1.0", Text("fifth"))
                                      .Call("5", "read_file")
                                      .Result(R"("5")", Text("never"))
                                      .Call("6", "read_file")
                                      .Add("s2c", R"({"jsonrpc":"2.0","id":6,"error":)"
                                                  R"({"code":-32000,"message":"no"}})")
                                      .Call("10", "read_file")
                                      .text());
  ExpectReadsAs(c.yaml,
                std::string("{") + kServer + R"(,"tools":[)" +
                    ToolEntry(kReadFile, Sequence({Text("first"), Text("second"), Text("third"),
                                                   Text("fourth"), Text("fifth")})) +
                    "]}");
}

TEST(ConvertTest, UncalledUnnamedAndUnlistedTools) {
  // A listed tool never called has no response; a tools/call without a string params.name and
  // one of a tool the list does not hold are left out with a warning (errata MRR-E44).
  const Converted c = ConvertText(Recording()
                                      .ToolsList("1", std::string(kReadFile) + "," + kListDirectory)
                                      .Request("2", "tools/call", R"({"name":5})")
                                      .Result("2", Text("nameless"))
                                      .Call("3", "elsewhere")
                                      .Result("3", Text("unlisted"))
                                      .Call("4", "read_file")
                                      .Result("4", Text("r"))
                                      .text());
  ExpectReadsAs(c.yaml, std::string("{") + kServer + R"(,"tools":[)" +
                            ToolEntry(kReadFile, Text("r")) + R"(,{"tool":)" + kListDirectory +
                            "}]}");
  ASSERT_EQ(c.warnings.size(), 2u);
  EXPECT_NE(c.warnings[0].find("tools/call at seq 3 has no string params.name"), std::string::npos)
      << c.warnings[0];
  EXPECT_NE(c.warnings[1].find("\"elsewhere\""), std::string::npos) << c.warnings[1];
}

TEST(ConvertTest, TheFirstToolsListIsUsed) {
  const Converted c = ConvertText(Recording()
                                      .ToolsList("1", kReadFile)
                                      .ToolsList("2", kListDirectory)
                                      .Call("3", "read_file")
                                      .Result("3", Text("r"))
                                      .text());
  ExpectReadsAs(c.yaml, std::string("{") + kServer + R"(,"tools":[)" +
                            ToolEntry(kReadFile, Text("r")) + "]}");
}

TEST(ConvertTest, ASingleResultHoldingSequenceIsWrittenAsASequence) {
  const std::string result = R"({"sequence":[1,2]})";
  const Converted c = ConvertText(
      Recording().ToolsList("1", kReadFile).Call("2", "read_file").Result("2", result).text());
  ExpectReadsAs(c.yaml, std::string("{") + kServer + R"(,"tools":[)" +
                            ToolEntry(kReadFile, Sequence({result})) + "]}");
}

// EC-REC-010: without a tools/list response the tools are the called names, in order of first
// call, with only their names, and a warning says the schemas are missing.
TEST(ConvertTest, EcRec010ToolsInferredFromCalls) {
  const Converted c = ConvertText(Recording()
                                      .Call("1", "beta")
                                      .Result("1", Text("b1"))
                                      .Call("2", "alpha")
                                      .Result("2", Text("a1"))
                                      .Call("3", "beta")
                                      .Result("3", Text("b2"))
                                      .text());
  ExpectReadsAs(c.yaml, std::string("{") + kServer + R"(,"tools":[)" +
                            ToolEntry(R"({"name":"beta"})", Sequence({Text("b1"), Text("b2")})) +
                            "," + ToolEntry(R"({"name":"alpha"})", Text("a1")) + "]}");
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("EC-REC-010"), std::string::npos) << c.warnings[0];
  EXPECT_NE(c.warnings[0].find("schemas"), std::string::npos) << c.warnings[0];
}

// EC-REC-001: a header alone converts to a minimal config with no tools.
TEST(ConvertTest, EcRec001HeaderOnly) {
  const Converted simple = ConvertText(kHeader);
  ExpectReadsAs(simple.yaml, std::string("{") + kServer + R"(,"tools":[]})");
  EXPECT_TRUE(simple.warnings.empty());
  const Converted phased = ConvertText(kHeader, {ConvertStyle::kPhased, 3});
  ExpectReadsAs(phased.yaml,
                R"({"server":{"name":"replay-session","version":"1.0.0",)"
                R"("capabilities":{"tools":{"listChanged":true}}},"baseline":{"tools":[]},)"
                R"("phases":[{"name":"attack","advance":{"on":"tools/call","count":3},)"
                R"("replace_tools":{}}]})");
}

TEST(ConvertTest, ResourcesAndPromptsAreListedLikeTools) {
  const std::string resource = R"({"uri":"file:///a.txt","name":"a.txt"})";
  const std::string prompt = R"({"name":"greet","arguments":[]})";
  const std::string contents = R"({"contents":[{"uri":"file:///a.txt","text":"A"}]})";
  const std::string messages = R"({"messages":[]})";
  const Converted c = ConvertText(Recording()
                                      .Request("1", "resources/list", "{}")
                                      .Result("1", R"({"resources":[)" + resource + "]}")
                                      .Request("2", "resources/read", R"({"uri":"file:///a.txt"})")
                                      .Result("2", contents)
                                      .Request("3", "prompts/list", "{}")
                                      .Result("3", R"({"prompts":[)" + prompt + "]}")
                                      .Request("4", "prompts/get", R"({"name":"greet"})")
                                      .Result("4", messages)
                                      .Request("5", "prompts/get", R"({"name":"greet"})")
                                      .Result("5", messages)
                                      .text());
  ExpectReadsAs(c.yaml, std::string("{") + kServer + R"(,"tools":[],"resources":[{"resource":)" +
                            resource + R"(,"response":)" + contents + R"(}],"prompts":[)" +
                            R"({"prompt":)" + prompt + R"(,"response":)" +
                            Sequence({messages, messages}) + "}]}");
}

// ---------- The phased style (errata MRR-E44, calls-overall)

std::string PhasedRecording() {
  Recording r;
  r.ToolsList("0", std::string(kReadFile) + "," + kListDirectory);
  for (int i = 1; i <= 6; ++i) {
    const std::string id = std::to_string(i);
    r.Call(id, i == 2 ? "list_directory" : "read_file").Result(id, Text("r" + id));
  }
  return r.text();
}

std::string PhasedExpectation(std::uint64_t n, const std::vector<std::string>& read_file_baseline,
                              const std::string& list_directory_baseline) {
  std::vector<std::string> read;
  for (const std::string& id : read_file_baseline) read.push_back(Text("r" + id));
  const std::string read_response = read.size() == 1 ? read[0] : Sequence(read);
  return R"({"server":{"name":"replay-session","version":"1.0.0",)"
         R"("capabilities":{"tools":{"listChanged":true}}},"baseline":{"tools":[)" +
         ToolEntry(kReadFile, read_response) + "," +
         ToolEntry(kListDirectory, Text("r" + list_directory_baseline)) + "]}," +
         R"("phases":[{"name":"attack","advance":{"on":"tools/call","count":)" + std::to_string(n) +
         R"(},"replace_tools":{"read_file":)" + ToolEntry(kReadFile, Text("r6")) +
         R"(,"list_directory":)" + ToolEntry(kListDirectory, Text("r2")) + "}}]}";
}

TEST(ConvertTest, PhasedDefaultThree) {
  ConvertOptions options;
  options.style = ConvertStyle::kPhased;
  const Converted c = ConvertText(PhasedRecording(), options);
  // The first three tools/call of the session: read_file, list_directory, read_file.
  ExpectReadsAs(c.yaml, PhasedExpectation(3, {"1", "3"}, "2"));
  EXPECT_EQ(c.yaml.rfind("# Auto-generated from session.jsonl (phased style)\n"
                         "# Phase transition after 3 tool calls\n",
                         0),
            0u)
      << c.yaml;
  EXPECT_NE(c.yaml.find("    # TODO: Replace with malicious responses\n"), std::string::npos);
  // YAML 1.1 would read a plain `on` as true (errata MRR-E43).
  EXPECT_NE(c.yaml.find("      \"on\": tools/call\n      count: 3\n"), std::string::npos);
}

TEST(ConvertTest, PhasedAfterFive) {
  const Converted c = ConvertText(PhasedRecording(), {ConvertStyle::kPhased, 5});
  ExpectReadsAs(c.yaml, PhasedExpectation(5, {"1", "3", "4", "5"}, "2"));
}

// ---------- JSON data as YAML

// Strings every YAML reader would otherwise take for something else, as values and as keys.
const std::vector<std::string>& HostileStrings() {
  static const std::vector<std::string> kStrings = {"on",
                                                    "yes",
                                                    "No",
                                                    "OFF",
                                                    "y",
                                                    "n",
                                                    "true",
                                                    "False",
                                                    "null",
                                                    "Null",
                                                    "~",
                                                    "",
                                                    " ",
                                                    " a",
                                                    "a ",
                                                    "1e3",
                                                    "1.5",
                                                    "0x1F",
                                                    "0o17",
                                                    "017",
                                                    "1_000",
                                                    "12:30:00",
                                                    "2025-02-04",
                                                    ".inf",
                                                    ".NaN",
                                                    "-.inf",
                                                    "a: b",
                                                    "- x",
                                                    "-",
                                                    "? q",
                                                    ":",
                                                    "#c",
                                                    "a #b",
                                                    "a#b",
                                                    "&anchor",
                                                    "*alias",
                                                    "!tag",
                                                    "%YAML",
                                                    "@at",
                                                    "`tick",
                                                    "|",
                                                    ">",
                                                    "[a]",
                                                    "{b: c}",
                                                    ",",
                                                    "'single'",
                                                    "\"double\"",
                                                    "back\\slash",
                                                    "line\nbreak",
                                                    "crlf\r\n",
                                                    "tab\there",
                                                    std::string("nul\0byte", 8),
                                                    "\x01\x1b\x7f",
                                                    "\xC2\x85next-line",
                                                    "\xC2\xA0nbsp",
                                                    "line\xE2\x80\xA8separator",
                                                    "para\xE2\x80\xA9separator",
                                                    "\xEF\xBB\xBF"
                                                    "bom",
                                                    "\xEF\xBF\xBF",
                                                    "\xF0\x9F\x98\x80",
                                                    "=",
                                                    "<<",
                                                    "plain_word",
                                                    "tools/call",
                                                    "\\u0041"};
  return kStrings;
}

TEST(ConvertTest, HostileStringsReadBackAsStrings) {
  std::string json = R"({"values":[)";
  std::string keys = "{";
  for (std::size_t i = 0; i < HostileStrings().size(); ++i) {
    const std::string& s = HostileStrings()[i];
    json += i ? "," : "";
    json::AppendQuoted(s, &json);
    keys += i ? "," : "";
    json::AppendQuoted(s, &keys);
    keys += ":";
    json::AppendQuoted(s, &keys);
  }
  json += R"(],"keys":)" + keys + "}}";
  json::Document doc;
  ASSERT_TRUE(doc.Parse(json)) << doc.error().message;
  Result<std::string> yaml = JsonAsYaml(doc.root());
  ASSERT_TRUE(yaml.ok());
  ExpectReadsAs(*yaml, json);
  // The same inside a recorded result, through Convert.
  const Converted c = ConvertText(
      Recording().ToolsList("1", kReadFile).Call("2", "read_file").Result("2", json).text());
  ExpectReadsAs(c.yaml,
                std::string("{") + kServer + R"(,"tools":[)" + ToolEntry(kReadFile, json) + "]}");
}

TEST(ConvertTest, NumbersKeepTheirExactValue) {
  const std::string json =
      R"([12345678901234567890123,-12345678901234567890123,0,-0,1.5,1e3,1E-7,2.5e+10,)"
      R"(-3.25e-2,100000000000000000000000000000000000001.5,1e400,true,false,null,{},[],[[]],)"
      R"([{}],{"a":{}}])";
  json::Document doc;
  ASSERT_TRUE(doc.Parse(json));
  Result<std::string> yaml = JsonAsYaml(doc.root());
  ASSERT_TRUE(yaml.ok());
  EXPECT_NE(yaml->find("- 12345678901234567890123\n"), std::string::npos) << *yaml;
  EXPECT_NE(yaml->find("- 1.0e+3\n"), std::string::npos) << *yaml;
  EXPECT_TRUE(SameJson(YamlCppData(*yaml), json)) << *yaml;
  // Python reads 1e400 as inf either way; the rest must be the same values.
  const std::string finite =
      R"([12345678901234567890123,-12345678901234567890123,0,-0,1.5,1e3,1E-7,2.5e+10,)"
      R"(-3.25e-2,true,false,null,{},[],[[]],[{}],{"a":{}}])";
  ASSERT_TRUE(doc.Parse(finite));
  yaml = JsonAsYaml(doc.root());
  ASSERT_TRUE(yaml.ok());
  ExpectReadsAs(*yaml, finite);
}

TEST(ConvertTest, RepeatedNamesKeepTheLastValue) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"({"a":1,"b":2,"a":3})"));
  Result<std::string> yaml = JsonAsYaml(doc.root());
  ASSERT_TRUE(yaml.ok());
  ExpectReadsAs(*yaml, R"({"a":3,"b":2})");
}

TEST(ConvertTest, LongKeysAreExplicit) {
  // YAML readers refuse an implicit key over 1024 characters.
  const std::string key(3000, 'k');
  const std::string json =
      R"({"a":[{")" + key + R"(":{"x":[1]}},{")" + key + R"(":"v"}],")" + key + R"(":{"y":2}})";
  json::Document doc;
  ASSERT_TRUE(doc.Parse(json));
  Result<std::string> yaml = JsonAsYaml(doc.root());
  ASSERT_TRUE(yaml.ok());
  ExpectReadsAs(*yaml, json);
}

TEST(ConvertTest, DeepValues) {
  // 128 levels, serde_json's limit, are written; past 512 the converter refuses.
  const std::string deep = std::string(128, '[') + "1" + std::string(128, ']');
  const std::string deep_objects = [] {
    std::string s;
    for (int i = 0; i < 100; ++i) s += R"({"k":)";
    return s + "null" + std::string(100, '}');
  }();
  json::Document doc;
  for (const std::string& json : {deep, deep_objects}) {
    ASSERT_TRUE(doc.Parse(json));
    Result<std::string> yaml = JsonAsYaml(doc.root());
    ASSERT_TRUE(yaml.ok());
    ExpectReadsAs(*yaml, json);
  }
  json::ParseOptions options;
  options.max_depth = 10000;
  ASSERT_TRUE(doc.Parse(std::string(600, '[') + std::string(600, ']'), options));
  Result<std::string> yaml = JsonAsYaml(doc.root());
  ASSERT_FALSE(yaml.ok());
  EXPECT_EQ(yaml.status().code(), StatusCode::kLimitExceeded);
}

TEST(ConvertTest, HeaderFieldsCannotLeaveTheirComments) {
  // A header field holding line breaks stays inside its comment line.
  std::string header = kHeader;
  header.replace(header.find("npx -y"), 6, R"(x\ntools: injected\u2028more: y\u0085z: 1)");
  const Converted c = ConvertText(header);
  ExpectReadsAs(c.yaml, std::string("{") + kServer + R"(,"tools":[]})");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
