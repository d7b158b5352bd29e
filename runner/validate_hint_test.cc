#include "runner/validate_hint.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "conformance/registry.h"

namespace arcs::runner {
namespace {

constexpr char kSession[] =
    R"({"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0",)"
    R"("agent":"test","recorded_at":"2025-01-01T00:00:00Z"})";
// kSession as `jq .` writes it.
constexpr char kPretty[] = R"({
  "id": "00000000-0000-0000-0000-000000000000",
  "ts": 0,
  "type": "session",
  "version": "1.0",
  "agent": "test",
  "recorded_at": "2025-01-01T00:00:00Z"
}
)";

// Hands out at most `chunk` bytes per read, so that a line spans reads.
class ChunkedSource : public jsonl::ByteSource {
 public:
  ChunkedSource(std::string_view bytes, std::size_t chunk) : bytes_(bytes), chunk_(chunk) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override {
    const std::size_t n = std::min({size, chunk_, bytes_.size()});
    std::memcpy(buf, bytes_.data(), n);
    bytes_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view bytes_;
  std::size_t chunk_;
};

// What the watch kept of `bytes` once read to the end, `chunk` bytes at a time.
std::optional<std::string> KeptOf(std::string_view bytes, std::uint64_t max_bytes,
                                  std::size_t chunk = 3) {
  ChunkedSource source(bytes, chunk);
  PrettyJsonWatch watch(&source, max_bytes);
  char buf[64];
  while (true) {
    Result<std::size_t> n = watch.Read(buf, sizeof buf);
    if (!n.ok() || *n == 0) break;
  }
  const std::optional<std::string_view> kept = watch.Kept();
  return kept ? std::optional<std::string>(*kept) : std::nullopt;
}

TEST(PrettyJsonWatch, KeepsAFileThatStartsWithALoneBracket) {
  EXPECT_EQ(KeptOf(kPretty, 1 << 20), kPretty);
  EXPECT_EQ(KeptOf(kPretty, 1 << 20, 1), kPretty);
  const std::string bom_crlf = "\xEF\xBB\xBF [ \r\n1\r\n]";
  EXPECT_EQ(KeptOf(bom_crlf, 1 << 20), bom_crlf);
}

TEST(PrettyJsonWatch, LetsOtherFilesPass) {
  EXPECT_EQ(KeptOf(std::string(kSession) + "\n" + kSession + "\n", 1 << 20), std::nullopt);
  EXPECT_EQ(KeptOf("{\"a\":\n1}\n", 1 << 20), std::nullopt);  // more than a bracket on line 1
  EXPECT_EQ(KeptOf("{", 1 << 20), std::nullopt);              // one line
  EXPECT_EQ(KeptOf(std::string(300, ' '), 1 << 20), std::nullopt);
  EXPECT_EQ(KeptOf(kPretty, 20), std::nullopt);  // longer than a line may be
}

TEST(PrettyJsonWatch, StopsKeepingWhenTheSourceFails) {
  class Failing : public jsonl::ByteSource {
    Result<std::size_t> Read(char*, std::size_t) override {
      return Status(StatusCode::kIoError, "gone");
    }
  } failing;
  PrettyJsonWatch watch(&failing, 1 << 20);
  char buf[8];
  EXPECT_FALSE(watch.Read(buf, sizeof buf).ok());
  EXPECT_EQ(watch.Kept(), std::nullopt);
}

// The hint for `text` validated as Spool under the name `name`.
std::optional<Finding> SpoolHint(std::string_view text, std::string_view name) {
  const conformance::FormatModule& spool = *conformance::FindFormat("spool");
  jsonl::MemorySource source(text);
  Diagnostics diagnostics;
  spool.Validate(&source, {}, spool.DefaultLimits(), &diagnostics);
  return PrettyJsonHint(text, spool.title, name, diagnostics, 128);
}

TEST(PrettyJsonHint, OneFindingCitingTheLineRule) {
  const std::optional<Finding> hint = SpoolHint(kPretty, "a.spool");
  ASSERT_TRUE(hint.has_value());
  EXPECT_EQ(hint->rule_id, "SP-3.6-1");  // each line MUST hold one JSON object
  EXPECT_EQ(hint->severity, Severity::kError);
  EXPECT_EQ(hint->location.line, 1u);
  EXPECT_EQ(hint->location.column, 1u);
  EXPECT_EQ(hint->message,
            "the file is one JSON document spread over 8 lines; Spool 1.0 wants one JSON object "
            "per line (try: jq -c . a.spool)");
}

TEST(PrettyJsonHint, AnArrayIsUnwrapped) {
  const std::string array = "[\n  " + std::string(kSession) + ",\n  " + kSession + "\n]";
  const std::optional<Finding> hint = SpoolHint(array, "my file's.spool");
  ASSERT_TRUE(hint.has_value());
  EXPECT_EQ(hint->message,
            "the file is one JSON array spread over 4 lines; Spool 1.0 wants one JSON object per "
            "line (try: jq -c '.[]' 'my file'\\''s.spool')");
}

TEST(PrettyJsonHint, CommandsStayCommands) {
  EXPECT_TRUE(SpoolHint(kPretty, "-")->message.ends_with("(try: jq -c .)"));
  EXPECT_TRUE(SpoolHint(kPretty, "-x.spool")->message.ends_with("(try: jq -c . ./-x.spool)"));
}

TEST(PrettyJsonHint, NoneForWhatIsNotOneJsonValue) {
  EXPECT_EQ(SpoolHint("{\n\"a\": 1\n", "a.spool"), std::nullopt);  // unterminated
  EXPECT_EQ(SpoolHint("{\n}\n{\n}\n", "a.spool"), std::nullopt);   // two values
  // Deeper than a line may be.
  const conformance::FormatModule& spool = *conformance::FindFormat("spool");
  const std::string deep = "[\n" + std::string(200, '[') + std::string(200, ']') + "\n]";
  jsonl::MemorySource source(deep);
  Diagnostics diagnostics;
  spool.Validate(&source, {}, spool.DefaultLimits(), &diagnostics);
  EXPECT_EQ(PrettyJsonHint(deep, spool.title, "a.spool", diagnostics, 128), std::nullopt);
}

}  // namespace
}  // namespace arcs::runner
