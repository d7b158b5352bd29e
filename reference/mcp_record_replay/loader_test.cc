#include "reference/mcp_record_replay/loader.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs::mcp_record_replay {
namespace {

constexpr char kHeader[] =
    R"({"type":"header","version":"1.0","name":"t","tags":["a"],"recorded_at":"2025-02-04T10:00:00Z","upstream":"srv","thoughtjack_version":"0.1"})";
constexpr char kRequest[] =
    R"({"type":"message","seq":1,"ts":"2025-02-04T10:00:00.1Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/list"}})";
constexpr char kResponse[] =
    R"({"type":"message","seq":2,"ts":"2025-02-04T10:00:00.2Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":{}},"latency_ms":7})";
constexpr char kFooter[] =
    R"({"type":"footer","total_messages":2,"duration_ms":9,"client_messages":1,"server_messages":1})";

Result<LoadedRecording> Load(const std::string& text, LoadOptions options = {}) {
  jsonl::MemorySource source(text);
  return LoadRecording(&source, options);
}

std::string Lines(std::initializer_list<std::string_view> lines) {
  std::string out;
  for (std::string_view l : lines) out += std::string(l) + "\n";
  return out;
}

TEST(LoaderTest, IndexesMessagesAndReadsThemAgain) {
  const std::string text = Lines({kHeader, kRequest, kResponse, kFooter});
  Result<LoadedRecording> r = Load(text);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->header.upstream, "srv");
  EXPECT_EQ(r->header.name, "t");
  EXPECT_EQ(r->header.tags, std::vector<std::string>{"a"});
  ASSERT_EQ(r->messages.size(), 2u);
  EXPECT_EQ(r->messages[0].kind, MessageKind::kRequest);
  EXPECT_EQ(r->messages[1].dir, Direction::kServerToClient);
  EXPECT_EQ(r->messages[1].latency_ms, 7u);
  EXPECT_TRUE(r->has_footer);
  EXPECT_TRUE(r->notes.empty());
  json::Document line;
  ASSERT_TRUE(ReadMessageLine(MemoryRandomAccess(text), r->messages[1], &line).ok());
  EXPECT_EQ(json::ToString(*line.root().Find("msg")), R"({"jsonrpc":"2.0","id":1,"result":{}})");
}

TEST(LoaderTest, LoadsWhatValidateFindsInvalidButTheTypesRead) {
  // A second header, seq going backwards, a message after the footer (errata MRR-E11).
  std::string back = kResponse;
  back.replace(back.find("\"seq\":2"), 7, "\"seq\":0");
  Result<LoadedRecording> r = Load(Lines({kHeader, kRequest, kHeader, kFooter, back}));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->messages.size(), 2u);
  EXPECT_EQ(r->notes.size(), 1u);  // the second header, passed over
}

TEST(LoaderTest, HeaderOnlyAndNoFooterLoad) {
  Result<LoadedRecording> r = Load(Lines({kHeader}));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->messages.empty());
  EXPECT_FALSE(r->has_footer);
  ASSERT_EQ(r->notes.size(), 1u);  // EC-REC-011's info message
  EXPECT_NE(r->notes[0].find("EC-REC-011"), std::string::npos);
}

TEST(LoaderTest, SkipsATruncatedFinalLine) {
  const std::string text = Lines({kHeader, kRequest}) + std::string(kResponse).substr(0, 40);
  Result<LoadedRecording> r = Load(text);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->messages.size(), 1u);
  EXPECT_NE(r->notes[0].find("EC-REC-002"), std::string::npos);
}

TEST(LoaderTest, UsesAWholeFinalLineWithoutItsNewline) {
  Result<LoadedRecording> r = Load(Lines({kHeader, kRequest}) + kResponse);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->messages.size(), 2u);  // errata MRR-E9 ndjson-newline: the line is used
}

TEST(LoaderTest, RefusesCorruption) {
  struct Case {
    const char* what;
    std::string text;
    StatusCode code;
  };
  std::string v2 = kHeader;
  v2.replace(v2.find("\"1.0\""), 5, "\"2.0\"");
  std::string no_ts = kRequest;
  no_ts.erase(no_ts.find("\"ts\""), 30);
  const Case cases[] = {
      {"a corrupt middle line", Lines({kHeader, "{\"type\":", kRequest}), StatusCode::kParseError},
      {"a corrupt final line with its LF (MRR-E10)", Lines({kHeader, kRequest, "{\"type\":"}),
       StatusCode::kParseError},
      {"no header first", Lines({kRequest, kHeader}), StatusCode::kParseError},
      {"an empty file", "", StatusCode::kParseError},
      {"only a truncated header", std::string(kHeader).substr(0, 30), StatusCode::kParseError},
      {"version 2.0 (EC-REC-008)", Lines({v2}), StatusCode::kUnsupported},
      {"a message the types cannot read", Lines({kHeader, no_ts}), StatusCode::kParseError},
      {"an unknown type", Lines({kHeader, R"({"type":"note"})"}), StatusCode::kParseError},
  };
  for (const Case& c : cases) {
    Result<LoadedRecording> r = Load(c.text);
    ASSERT_FALSE(r.ok()) << c.what;
    EXPECT_EQ(r.status().code(), c.code) << c.what << ": " << r.status().message();
  }
}

TEST(LoaderTest, BomAndBlankLinesFollowThePolicies) {
  const std::string bom = "\xEF\xBB\xBF" + Lines({kHeader, "", kRequest});
  EXPECT_TRUE(Load(bom).ok());
  LoadOptions refuse_bom;
  refuse_bom.ignore_bom = false;
  EXPECT_FALSE(Load(bom, refuse_bom).ok());
  LoadOptions refuse_blank;
  refuse_blank.ignore_blank_lines = false;
  EXPECT_FALSE(Load(Lines({kHeader, "", kRequest}), refuse_blank).ok());
  EXPECT_TRUE(Load(Lines({kHeader, kRequest}), refuse_blank).ok());
}

TEST(LoaderTest, ALineOverALimitIsRefused) {
  LoadOptions small;
  small.limits.max_line_bytes = 100;
  EXPECT_FALSE(Load(Lines({kHeader}), small).ok());
  // Not taken for a blank line, which the blank_lines policy would pass over.
  LoadOptions header_fits;
  header_fits.limits.max_line_bytes = sizeof kHeader;
  EXPECT_TRUE(Load(Lines({kHeader, std::string(20, ' ')}), header_fits).ok());
  EXPECT_FALSE(Load(Lines({kHeader, std::string(sizeof kHeader + 1, ' ')}), header_fits).ok());
  LoadOptions shallow;
  shallow.limits.max_json_depth = 1;  // msg is at depth 2
  EXPECT_FALSE(Load(Lines({kHeader, kRequest}), shallow).ok());
}

}  // namespace
}  // namespace arcs::mcp_record_replay
