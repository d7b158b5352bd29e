#include "reference/mcp_record_replay/recording.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace arcs::mcp_record_replay {
namespace {

// Expected ids follow conformance/mcp_record_replay/requirements.json and the ARCS readings of
// errata.md, as cited beside each case.
constexpr char kHeader[] =
    R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00.000Z",)"
    R"("upstream":"npx server","thoughtjack_version":"0.3.0"})"
    "\n";

std::string Message(int seq, std::string_view dir, std::string_view msg, std::string extra = "") {
  return R"({"type":"message","seq":)" + std::to_string(seq) +
         R"(,"ts":"2025-02-04T10:00:00.050Z","dir":")" + std::string(dir) + R"(","msg":)" +
         std::string(msg) + extra + "}\n";
}

constexpr char kRequest[] = R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})";
constexpr char kResponse[] = R"({"jsonrpc":"2.0","id":1,"result":{}})";
constexpr char kFooter[] =
    R"({"type":"footer","total_messages":2,"duration_ms":50,"client_messages":1,)"
    R"("server_messages":1})"
    "\n";

// "line:rule" for errors, "line:rule!" for warnings.
std::vector<std::string> Check(std::string_view text, Limits limits = {}) {
  std::vector<std::string> out;
  jsonl::MemorySource source(text);
  const Status s = CheckRecording(&source, limits, [&](RecordingFinding f) {
    const std::string id =
        f.rule_id.empty() ? f.schema_location + "#" + f.schema_keyword : f.rule_id;
    out.push_back(std::to_string(f.line) + ":" + id + (f.warning ? "!" : ""));
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

using Ids = std::vector<std::string>;

// The schema statement is the appendix's block, byte for byte (when the spec is beside the tree).
TEST(RecordingTest, TheEmbeddedSchemaIsTheSpecsBlock) {
  const char* root = std::getenv("ARCS_SOURCE_DIR");
  std::ifstream spec(std::string(root ? root : ".") + "/../shared/specs/mcp-record-replay.md");
  if (!spec) GTEST_SKIP() << "the spec is not beside the tree";
  const std::string text((std::istreambuf_iterator<char>(spec)), std::istreambuf_iterator<char>());
  const std::size_t appendix = text.find("## 9. Appendix: Recording Format JSON Schema");
  ASSERT_NE(appendix, std::string::npos);
  const std::size_t begin = text.find("```json\n", appendix) + 8;
  const std::size_t end = text.find("```", begin);
  EXPECT_EQ(text.substr(begin, end - begin), RecordingSchemaText());
}

TEST(RecordingTest, TheSpecsSessionIsValid) {
  EXPECT_EQ(Check(kHeader + Message(1, "c2s", kRequest) +
                  Message(2, "s2c", kResponse, R"(,"latency_ms":50)") + kFooter),
            Ids{});
  EXPECT_EQ(Check(kHeader), Ids{});  // EC-REC-001: a header-only recording
  EXPECT_EQ(Check(kHeader + Message(0, "c2s", kRequest)), Ids{});  // no footer: EC-REC-011
}

TEST(RecordingTest, TruncatedAndUnterminatedLastLines) {
  // EC-REC-002: a last line cut mid-object is not JSON (MRR-E10); a whole one without LF (MRR-E9).
  EXPECT_EQ(Check(kHeader + std::string(R"({"type":"message","seq":1,"ts")")), Ids{"2:MRR-JSON-1"});
  std::string whole = kHeader + Message(1, "c2s", kRequest);
  whole.pop_back();
  EXPECT_EQ(Check(whole), Ids{"2:MRR-JSON-2"});
}

// The reading each finding names (Finding::reading): "line:rule@reading".
std::vector<std::string> Readings(std::string_view text) {
  std::vector<std::string> out;
  jsonl::MemorySource source(text);
  const Status s = CheckRecording(&source, Limits{}, [&](RecordingFinding f) {
    out.push_back(std::to_string(f.line) + ":" + f.rule_id + "@" + f.reading);
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(RecordingTest, ACutLastLineAfterAHeaderNamesMrrE49) {
  // A valid portion before it: `load-tolerance` would validate as the loader loads (MRR-E49).
  EXPECT_EQ(Readings(kHeader + std::string(R"({"type":"message","seq":1,"ts")")),
            Ids{"2:MRR-JSON-1@MRR-E49"});
  // A cut header alone has no valid portion: invalid under every reading.
  EXPECT_EQ(Readings(std::string(kHeader).substr(0, 30)),
            (Ids{"1:MRR-JSON-1@", "1:MRR-HEADER-1@"}));
  // A corrupt line ended by LF is not truncated (MRR-E10).
  EXPECT_EQ(Readings(kHeader + std::string(R"({"type":"message","seq":1,"ts")") + "\n"),
            Ids{"2:MRR-JSON-1@"});
}

TEST(RecordingTest, HeaderPositionVersionAndFooterLast) {
  EXPECT_EQ(Check(""), Ids{"0:MRR-HEADER-1"});
  EXPECT_EQ(Check(Message(1, "c2s", kRequest) + kHeader),
            (Ids{"1:MRR-HEADER-1", "2:MRR-HEADER-2"}));
  std::string v2 = kHeader;
  v2.replace(v2.find("1.0"), 3, "2.0");
  EXPECT_EQ(Check(v2), Ids{"1:MRR-HEADER-3"});  // EC-REC-008
  EXPECT_EQ(Check(kHeader + std::string(kFooter) + Message(3, "c2s", kRequest)),
            (Ids{"2:MRR-FOOTER-3!", "2:MRR-FOOTER-3!", "2:MRR-FOOTER-3!", "3:MRR-FOOTER-1"}));
}

TEST(RecordingTest, SerdeFields) {
  // Both statements refuse these, each citing its own requirement (errata MRR-E2).
  EXPECT_EQ(Check(kHeader + Message(-1, "c2s", kRequest)),
            (Ids{"2:#/definitions/message/properties/seq#minimum", "2:MRR-MESSAGE-2"}));
  EXPECT_EQ(Check(kHeader + Message(1, "C2S", kRequest)),
            (Ids{"2:#/definitions/message/properties/dir#enum", "2:MRR-MESSAGE-4"}));
  EXPECT_EQ(Check(kHeader + Message(1, "c2s", kRequest, R"(,"latency_ms":-5)")),
            (Ids{"2:#/definitions/message/properties/latency_ms#minimum", "2:MRR-MESSAGE-6"}));
  // null: None for serde, not an integer for the schema (MRR-E2).
  EXPECT_EQ(Check(kHeader + Message(1, "c2s", kRequest, R"(,"latency_ms":null)")),
            Ids{"2:#/definitions/message/properties/latency_ms#type"});
  // One `required` error per missing member, as draft-07 validators report them.
  EXPECT_EQ(Check(kHeader + std::string(R"({"type":"message","seq":1})") + "\n"),
            (Ids{"2:#/definitions/message#required", "2:#/definitions/message#required",
                 "2:#/definitions/message#required", "2:MRR-MESSAGE-3", "2:MRR-MESSAGE-4",
                 "2:MRR-MESSAGE-5"}));
  // A type no definition has: the oneOf itself.
  EXPECT_EQ(Check(kHeader + std::string(R"({"type":"Message"})") + "\n"),
            (Ids{"2:##oneOf", "2:MRR-FORMAT-8"}));
  // 1.0 is an integer to draft-07, a float to serde (MRR-E2).
  EXPECT_EQ(Check(kHeader + Message(1, "c2s", kRequest, R"(,"latency_ms":1.0)")),
            Ids{"2:MRR-MESSAGE-6"});
}

// A Serde field's finding names the member by its pointer, and says what the value is.
TEST(RecordingTest, SerdeFieldFindingsNameTheMember) {
  std::vector<std::string> found;
  const std::string text = kHeader + std::string(R"({"type":"message","seq":"1","ts":[],)") +
                           R"("dir":"c2s","dir":"s2c","msg":)" + kRequest + "}\n";
  jsonl::MemorySource source(text);
  ASSERT_TRUE(CheckRecording(&source, {}, [&](RecordingFinding f) {
                if (!f.rule_id.empty())
                  found.push_back(f.rule_id + " " + f.pointer + " " + f.message);
              }).ok());
  EXPECT_EQ(found,
            (std::vector<std::string>{
                "MRR-JSON-4 /dir a member name repeated in its object",
                "MRR-MESSAGE-2 /seq seq is a string, not an unsigned 64-bit integer written with "
                "digits only",
                "MRR-MESSAGE-3 /ts ts is an array, not a date-time string",
                "MRR-MESSAGE-4 /dir dir is written twice: serde refuses it"}));
}

// What a value is, with its article: "an array", "an object", "a number", "null".
TEST(RecordingTest, SerdeFieldFindingsSayWhatTheValueIs) {
  const auto messages = [](const std::string& header) {
    std::vector<std::string> found;
    const std::string text = header + "\n";
    jsonl::MemorySource source(text);
    EXPECT_TRUE(CheckRecording(&source, {}, [&](RecordingFinding f) {
                  if (f.rule_id.starts_with("MRR-HEADER")) found.push_back(f.message);
                }).ok());
    return found;
  };
  const std::string start =
      R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z",)";
  EXPECT_EQ(messages(start + R"("upstream":{},"thoughtjack_version":"0.3.0"})"),
            std::vector<std::string>{"upstream is an object, not a string"});
  EXPECT_EQ(messages(start + R"("upstream":null,"thoughtjack_version":"0.3.0"})"),
            std::vector<std::string>{"upstream is null, not a string"});
  EXPECT_EQ(messages(start + R"("upstream":"x","thoughtjack_version":"0.3.0","tags":["a",7]})"),
            std::vector<std::string>{"tags is an array holding a number"});
  EXPECT_EQ(messages(start + R"("upstream":"x","thoughtjack_version":"0.3.0","tags":true})"),
            std::vector<std::string>{"tags is a boolean, not an array of strings"});
}

TEST(RecordingTest, SeqIncreasesGapsAllowed) {
  EXPECT_EQ(Check(kHeader + Message(5, "c2s", kRequest) + Message(9, "s2c", kResponse)), Ids{});
  EXPECT_EQ(Check(kHeader + Message(2, "c2s", kRequest) + Message(2, "s2c", kResponse)),
            Ids{"3:MRR-MESSAGE-7"});
}

TEST(RecordingTest, JsonRpcDeparturesAndPairingAreWarnings) {
  // EC-REC-003 and EC-REC-004: repeated ids and answers out of order pair in file order.
  const std::string two = kHeader + Message(1, "c2s", kRequest) + Message(2, "c2s", kRequest) +
                          Message(3, "s2c", kResponse) + Message(4, "s2c", kResponse);
  EXPECT_EQ(Check(two), Ids{});
  EXPECT_EQ(Check(kHeader + Message(1, "s2c", kResponse)), Ids{"2:MRR-JSONRPC-7!"});
  EXPECT_EQ(Check(kHeader + Message(1, "c2s", R"({"jsonrpc":"2.0","id":1.0,"method":"m"})") +
                  Message(2, "s2c", kResponse)),
            Ids{});  // 1.0 pairs with 1: ids compare by value, and 1.0 has no fractional part
  EXPECT_EQ(Check(kHeader + Message(1, "c2s", R"({"jsonrpc":"2.0"})")), Ids{"2:MRR-MESSAGE-9!"});
}

TEST(RecordingTest, NotJsonBomBlankLinesAndLimits) {
  EXPECT_EQ(Check("\xEF\xBB\xBF" + std::string(kHeader)), Ids{"1:MRR-JSON-3"});
  EXPECT_EQ(Check(kHeader + std::string("\n")), Ids{"2:MRR-JSON-1"});
  EXPECT_EQ(
      Check(kHeader + Message(1, "c2s", R"({"jsonrpc":"2.0","method":"m","params":[1e400]})")),
      Ids{"2:MRR-JSON-1"});
  Limits shallow;
  shallow.max_json_depth = 2;
  EXPECT_EQ(Check(kHeader + Message(1, "c2s", kRequest) + kFooter, shallow), Ids{"2:MRR-JSON-5"});
}

}  // namespace
}  // namespace arcs::mcp_record_replay
