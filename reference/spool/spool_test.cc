#include "reference/spool/spool.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "reference/core/io.h"

namespace arcs::spool {
namespace {

constexpr std::string_view kSession =
    R"({"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01T00:00:00Z"})";

Result<File> ReadBytes(std::string_view bytes, ReadOptions options = {},
                       Diagnostics* notes = nullptr) {
  jsonl::MemorySource source(bytes);
  return Read(&source, options, notes);
}

TEST(SpoolRead, ToleratesWhatReadersMust) {
  std::string file =
      "\xEF\xBB\xBF" + std::string(kSession) + "\r\n\n  \r\n" +
      R"( {"id":"00000000-0000-0000-0000-000000000001","ts":9,"type":"x_new","x_a":{"b":1e400}} )" +
      "\n" +
      R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"prompt","content":"dup"})";
  Result<File> read = ReadBytes(file);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->entries.size(), 3u);
  EXPECT_EQ(read->entries[1].line, 4u);
  EXPECT_EQ(read->entries[1].type(), "x_new");
  std::string out;
  Write(*read, &out);
  EXPECT_EQ(
      out,
      std::string(kSession) + "\n" +
          R"({"id":"00000000-0000-0000-0000-000000000001","ts":9,"type":"x_new","x_a":{"b":1e400}})" +
          "\n" +
          R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"prompt","content":"dup"})" +
          "\n");
}

TEST(SpoolRead, RejectsWhatReadersMust) {
  EXPECT_FALSE(ReadBytes("").ok());
  EXPECT_FALSE(ReadBytes(" \n\r\n").ok());
  EXPECT_FALSE(
      ReadBytes(
          R"({"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"prompt","content":"x"})")
          .ok());
  Result<File> bad_line = ReadBytes(std::string(kSession) + "\n{invalid json here}\n");
  ASSERT_FALSE(bad_line.ok());
  EXPECT_NE(bad_line.status().message().find("line 2"), std::string::npos);
}

TEST(SpoolRead, SkipPolicyDropsTheLineWithANote) {
  ReadOptions options;
  options.invalid_line = InvalidLinePolicy::kSkip;
  Diagnostics notes;
  Result<File> read = ReadBytes(std::string(kSession) + "\n[1]\n{\"a\":1}\n", options, &notes);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->entries.size(), 2u);
  ASSERT_EQ(notes.findings().size(), 1u);
  EXPECT_EQ(notes.findings()[0].location.line, 2u);
}

TEST(SpoolRead, LimitsAreEnforced) {
  ReadOptions options;
  options.limits.max_entries = 1;
  Result<File> read =
      ReadBytes(std::string(kSession) + "\n" + std::string(kSession) + "\n", options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kLimitExceeded);
  options = {};
  options.limits.max_line_bytes = 10;
  EXPECT_EQ(ReadBytes(kSession, options).status().code(), StatusCode::kLimitExceeded);
  options = {};
  options.limits.max_json_depth = 1;
  EXPECT_EQ(ReadBytes(std::string(kSession) + "\n{\"a\":{}}", options).status().code(),
            StatusCode::kLimitExceeded);
}

std::string Id(int n) {
  std::string id = "00000000-0000-4000-8000-000000000000";
  const std::string digits = std::to_string(n);
  return id.replace(id.size() - digits.size(), digits.size(), digits);
}

// An entry of `type` with id n, and a parent_subagent_id when parent > 0.
std::string EntryLine(std::string_view type, int n, int parent = 0) {
  return R"({"id":")" + Id(n) + R"(","ts":)" + std::to_string(n) + R"(,"type":")" +
         std::string(type) + '"' +
         (parent > 0 ? R"(,"parent_subagent_id":")" + Id(parent) + '"' : std::string()) + "}\n";
}

// Depth runs along parents that are subagent starts, and only those: an id that another entry
// shares, or two starts share, is no start, and ends the chain.
TEST(SpoolRead, SubagentDepthCountsStartsOnly) {
  ReadOptions options;
  options.limits.max_subagent_depth = 2;
  const std::string session = std::string(kSession) + "\n";
  const std::string chain = EntryLine("subagent_start", 1) + EntryLine("subagent_start", 2, 1) +
                            EntryLine("subagent_start", 3, 2);
  Result<File> read = ReadBytes(session + chain, options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kLimitExceeded);
  EXPECT_EQ(read.status().message(),
            "line 4: subagent nesting depth 3 is over max_subagent_depth=2");
  EXPECT_TRUE(ReadBytes(session + EntryLine("prompt", 1) + chain, options).ok());
  EXPECT_TRUE(ReadBytes(session + chain + EntryLine("subagent_start", 1), options).ok());
  options.limits.max_subagent_depth = 3;
  EXPECT_TRUE(ReadBytes(session + chain, options).ok());
  const std::string cycle = EntryLine("subagent_start", 1, 2) + EntryLine("subagent_start", 2, 1);
  read = ReadBytes(session + EntryLine("prompt", 5) + cycle, options);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().message(), "line 3: parent_subagent_id chains form a cycle");
  EXPECT_TRUE(ReadBytes(session + EntryLine("subagent_start", 1, 9), options).ok());
}

// Rewrite is Read then Write, an entry at a time: over every Spool vector, with the reader's
// defaults, with limits that reject a file late (depth, entries) and with the skip policy, the
// same bytes or the same Status.
TEST(SpoolRewrite, IsReadThenWrite) {
  const char* root = std::getenv("ARCS_SOURCE_DIR");
  ASSERT_NE(root, nullptr) << "ARCS_SOURCE_DIR is not set";
  std::vector<std::string> inputs;
  for (const auto& file :
       std::filesystem::directory_iterator(std::string(root) + "/vectors/spool/cases")) {
    Result<std::string> bytes = ReadFile(file.path().string());
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    inputs.push_back(std::move(*bytes));
  }
  ASSERT_GT(inputs.size(), 400u);
  std::vector<ReadOptions> choices(4);
  choices[1].limits.max_subagent_depth = 1;
  choices[2].limits.max_entries = 3;
  choices[3].invalid_line = InvalidLinePolicy::kSkip;
  std::size_t accepted = 0;
  std::size_t rejected = 0;
  for (const std::string& input : inputs) {
    for (const ReadOptions& options : choices) {
      const Result<File> read = ReadBytes(input, options);
      jsonl::MemorySource source(input);
      const Result<std::string> rewritten = Rewrite(&source, options);
      ASSERT_EQ(rewritten.ok(), read.ok()) << input;
      if (!read.ok()) {
        EXPECT_EQ(rewritten.status().ToString(), read.status().ToString());
        ++rejected;
        continue;
      }
      std::string written;
      Write(*read, &written);
      EXPECT_EQ(*rewritten, written);
      ++accepted;
    }
  }
  EXPECT_GT(accepted, 1000u);  // both ways taken many times
  EXPECT_GT(rejected, 200u);
}

}  // namespace
}  // namespace arcs::spool
