#include "conformance/model_io/checker.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs::conformance::model_io {
namespace {

// The bytes of a MemorySource, read as from a file or a pipe: not in memory (no Unread), so the
// validator reads them into a copy it decodes in place, instead of reading them where they stand.
class StreamedSource : public jsonl::ByteSource {
 public:
  explicit StreamedSource(std::string_view bytes) : bytes_(bytes) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override { return bytes_.Read(buf, size); }

 private:
  jsonl::MemorySource bytes_;
};

std::vector<std::string> FindingsFrom(jsonl::ByteSource* source, arcs::model_io::Limits limits) {
  Diagnostics diagnostics;
  Validate(source, limits, &diagnostics);
  diagnostics.Sort();
  std::vector<std::string> out;
  for (const Finding& f : diagnostics.findings()) {
    out.push_back(f.rule_id + " " + std::to_string(f.location.line) + ":" +
                  std::to_string(f.location.column) + " " + f.location.pointer);
  }
  return out;
}

// The findings of `text`, which must be the same whether it is read where it stands in memory or
// read from a stream into a copy.
std::vector<std::string> Findings(std::string_view text, arcs::model_io::Limits limits = {}) {
  jsonl::MemorySource in_memory(text);
  StreamedSource streamed(text);
  std::vector<std::string> found = FindingsFrom(&in_memory, limits);
  EXPECT_EQ(FindingsFrom(&streamed, limits), found) << "streamed: " << text;
  return found;
}

TEST(ModelIoChecker, AJsonErrorIsPlacedByLineAndColumn) {
  EXPECT_EQ(Findings("{\n  \"a\": 1,\n  \"b\": tru\n}"),
            std::vector<std::string>{"MIO-JSON-1 3:11 "});  // the newline where 'e' must be
  EXPECT_EQ(Findings("\xEF\xBB\xBF{}"), std::vector<std::string>{"MIO-JSON-1 1:1 "});
}

// The document decodes its strings in place: a place is still counted in the file as written,
// where an escaped line feed is no line feed.
TEST(ModelIoChecker, APlaceIsCountedInTheTextAsWrittenNotAsDecoded) {
  std::vector<std::string> repeated = Findings(R"({"a":"x\ny\nz",)"
                                               "\n"
                                               R"("a":1})");
  std::erase_if(repeated, [](const std::string& f) { return !f.starts_with("MIO-JSON"); });
  EXPECT_EQ(repeated, std::vector<std::string>{"MIO-JSON-2 2:4 /a"});  // just after the name
  EXPECT_EQ(Findings(R"({"a":"\n\n\n", "b": tru})"), std::vector<std::string>{"MIO-JSON-1 1:24 "});
}

TEST(ModelIoChecker, ARepeatedNameAndTheInvariantsEachHaveAFinding) {
  EXPECT_EQ(Findings(R"({"model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m",
"mode":"record","mode":"replay","interactions":[]})"),
            std::vector<std::string>{"MIO-JSON-2 2:23 /mode"});  // just after the repeated name
  EXPECT_EQ(
      Findings(R"({"model_io_schema_version":"1","adapter_id":"a","mode":"x",
"interactions":{}})"),
      (std::vector<std::string>{"MI4 0:0 /interactions", "MIO-FIELDS-5 0:0 /interactions",
                                "MI3 0:0 /mode", "MI2 0:0 /model_id", "MIO-FIELDS-3 0:0 /model_id",
                                "MI1 0:0 /model_io_schema_version"}));
  EXPECT_EQ(Findings("[1e400]"),
            (std::vector<std::string>{"MIO-JSON-1 0:0 ", "MIO-JSON-4 0:0 /0"}));
  EXPECT_EQ(Findings(R"({"a":"\udc00"})"),
            std::vector<std::string>{"MIO-JSON-3 1:14 "});  // after its string
}

// Each finding names the errata entry whose reading alone makes it one ("" where the text does).
std::vector<std::string> Readings(std::string_view text) {
  jsonl::MemorySource source(text);
  Diagnostics diagnostics;
  Validate(&source, {}, &diagnostics);
  diagnostics.Sort();
  std::vector<std::string> out;
  for (const Finding& f : diagnostics.findings()) out.push_back(f.rule_id + " " + f.reading);
  return out;
}

TEST(ModelIoChecker, AFindingThatRestsOnAReadingNamesItsEntry) {
  const std::string session =
      R"({"adapter_id":"a","model_id":"m","mode":"record","interactions":[],)";
  EXPECT_EQ(Readings(session + R"("model_io_schema_version":"1.0.0-rc.1"})"),
            std::vector<std::string>{"MI1 MIO-E10"});  // SemVer 2.0.0 allows the pre-release
  EXPECT_EQ(Readings(session + R"("model_io_schema_version":"01.0.0"})"),
            std::vector<std::string>{"MI1 "});  // SemVer 2.0.0 forbids the leading zero
  EXPECT_EQ(Readings(session + R"("model_io_schema_version":"1.0.0","stats":"none",)"
                               R"("created_at_utc":null,"ended_at_utc":"2026-01-05"})"),
            (std::vector<std::string>{"MIO-FIELDS-6 MIO-E14", "MIO-FIELDS-9 MIO-E15",
                                      "MIO-FIELDS-8 MIO-E33"}));  // by pointer
  EXPECT_EQ(Readings("\xEF\xBB\xBF{}"), std::vector<std::string>{"MIO-JSON-1 MIO-E17"});
}

TEST(ModelIoChecker, AFileOverTheLimitIsNotRead) {
  arcs::model_io::Limits limits;
  limits.max_file_bytes = 10;
  EXPECT_EQ(Findings(R"({"model_io_schema_version":"1.0.0"})", limits),
            std::vector<std::string>{"MIO-JSON-5 0:0 "});
}

}  // namespace
}  // namespace arcs::conformance::model_io
