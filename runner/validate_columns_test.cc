#include "runner/validate_columns.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs::runner {
namespace {

Finding At(std::uint64_t line, std::uint64_t column, std::string pointer, std::string rule = "R") {
  Finding f;
  f.rule_id = std::move(rule);
  f.location = {line, column, std::move(pointer)};
  f.message = "m";
  return f;
}

// "line:column pointer" of each finding once placed over `text`.
std::vector<std::string> Placed(std::string_view text, const FileShape& shape,
                                const std::vector<Finding>& findings) {
  Diagnostics d;
  for (const Finding& f : findings) d.Add(f);
  jsonl::MemorySource source(text);
  EXPECT_TRUE(PlaceFindings(&source, shape, &d).ok());
  std::vector<std::string> out;
  for (const Finding& f : d.findings()) {
    out.push_back(std::to_string(f.location.line) + ":" + std::to_string(f.location.column) + " " +
                  f.location.pointer);
  }
  return out;
}

const FileShape kLines{1 << 20, 0};
const FileShape kDocument{std::nullopt, 1 << 20};

TEST(PlaceFindingsTest, ALinesPointerGetsTheColumnOfItsMember) {
  const std::string text =
      "{\"id\":\"a\",\"ts\":1}\n"
      "\n"
      "{\"id\":\"b\",  \"data\":{\"x\":[0,{\"y\":2}]}}\r\n";
  EXPECT_EQ(Placed(text, kLines,
                   {At(3, 0, "/data/x/1/y"), At(1, 0, "/ts"), At(3, 0, "/data/missing"),
                    At(3, 0, "/data/x/1/y", "S")}),
            (std::vector<std::string>{"1:11 /ts", "3:13 /data/missing", "3:29 /data/x/1/y",
                                      "3:29 /data/x/1/y"}));
}

TEST(PlaceFindingsTest, WhatTheCheckerPlacedOrCannotBePlacedStays) {
  const std::string text = "{\"a\":1}\n{\"b\":2}\n";
  EXPECT_EQ(Placed(text, kLines,
                   {At(1, 3, "/a"),           // the checker's own column
                    At(0, 0, "/a"),           // the file as a whole, in a JSON Lines file
                    At(2, 0, ""),             // no pointer
                    At(2, 0, "meta.json/x"),  // a pointer into another file
                    At(9, 0, "/b")}),         // a line the file does not have
            (std::vector<std::string>{"0:0 /a", "1:3 /a", "2:0 ", "2:0 meta.json/x", "9:0 /b"}));
}

TEST(PlaceFindingsTest, LineOnesColumnsCountTheByteOrderMark) {
  // As the checkers count it (Spool's column of a BOM line's error starts at 4).
  EXPECT_EQ(Placed("\xEF\xBB\xBF{\"a\":1,\"b\":2}\n", kLines, {At(1, 0, "/b")}),
            std::vector<std::string>{"1:11 /b"});
}

TEST(PlaceFindingsTest, ALineOverTheBoundIsNotRead) {
  const FileShape small{8, 0};
  EXPECT_EQ(Placed("{\"a\":1,\"b\":2}\n{\"b\":2}\n", small, {At(1, 0, "/b"), At(2, 0, "/b")}),
            (std::vector<std::string>{"1:0 /b", "2:2 /b"}));
}

TEST(PlaceFindingsTest, ADocumentsPointerGetsItsLineAndColumn) {
  const std::string text =
      "{\n"
      "  \"schema_version\": \"1\",\n"
      "  \"interactions\": [\n"
      "    {\"i\": 0},\n"
      "    {\"i\": 7}\n"
      "  ]\n"
      "}\n";
  EXPECT_EQ(Placed(text, kDocument,
                   {At(0, 0, "/interactions/1/i"), At(0, 0, "/adapter_id"), At(0, 0, "")}),
            (std::vector<std::string>{"0:0 ", "1:1 /adapter_id", "5:6 /interactions/1/i"}));
}

TEST(PlaceFindingsTest, ADocumentWithAByteOrderMark) {
  EXPECT_EQ(Placed("\xEF\xBB\xBF{\"a\": 1}", kDocument, {At(0, 0, "/a")}),
            std::vector<std::string>{"1:5 /a"});
}

TEST(PlaceFindingsTest, NothingToPlaceReadsNothing) {
  // A source that fails on any read: a file with no unplaced pointer is not read again.
  class Failing : public jsonl::ByteSource {
   public:
    Result<std::size_t> Read(char*, std::size_t) override {
      return Status(StatusCode::kIoError, "read");
    }
  } failing;
  Diagnostics d;
  d.Add(At(1, 4, "/a"));
  EXPECT_TRUE(PlaceFindings(&failing, kLines, &d).ok());
  EXPECT_TRUE(PlaceFindings(&failing, kDocument, &d).ok());
  d.Add(At(1, 0, "/a"));
  EXPECT_FALSE(PlaceFindings(&failing, kLines, &d).ok());
  EXPECT_EQ(d.findings()[1].location.column, 0u);  // kept as the checker gave it
}

}  // namespace
}  // namespace arcs::runner
