#include "runner/fuzz/json_scan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner/fuzz/mutate.h"

namespace arcs::fuzz {
namespace {

// Every span the scan reports, in order.
struct Outline final : JsonVisitor {
  void Value(const ValueSpan& value) override { values.push_back(value); }
  void Member(const MemberSpan& member) override { members.push_back(member); }
  std::vector<ValueSpan> values;
  std::vector<MemberSpan> members;
};

Outline OutlineJson(std::string_view text) {
  Outline outline;
  ScanJson(text, outline);
  return outline;
}

std::vector<std::string_view> Texts(std::string_view text, const Outline& outline) {
  std::vector<std::string_view> texts;
  for (const ValueSpan& value : outline.values) {
    texts.push_back(text.substr(value.begin, value.end - value.begin));
  }
  return texts;
}

TEST(ScanJson, FindsValuesAndMembersByOffset) {
  constexpr std::string_view kText = R"( {"a": 1.50, "b" : [true,null, "x\"y"], "c":{}} )";
  const Outline outline = OutlineJson(kText);
  EXPECT_EQ(
      Texts(kText, outline),
      (std::vector<std::string_view>{"1.50", "true", "null", R"("x\"y")", R"([true,null, "x\"y"])",
                                     "{}", R"({"a": 1.50, "b" : [true,null, "x\"y"], "c":{}})"}));
  std::vector<ValueKind> kinds;
  std::vector<std::uint32_t> depths;
  for (const ValueSpan& value : outline.values) {
    kinds.push_back(value.kind);
    depths.push_back(value.depth);
  }
  EXPECT_EQ(kinds, (std::vector<ValueKind>{ValueKind::kNumber, ValueKind::kBool, ValueKind::kNull,
                                           ValueKind::kString, ValueKind::kArray,
                                           ValueKind::kObject, ValueKind::kObject}));
  EXPECT_EQ(depths, (std::vector<std::uint32_t>{1, 2, 2, 2, 1, 1, 0}));

  ASSERT_EQ(outline.members.size(), 3u);
  const MemberSpan& a = outline.members[0];
  const MemberSpan& b = outline.members[1];
  const MemberSpan& c = outline.members[2];
  EXPECT_EQ(kText.substr(a.name_begin, a.name_end - a.name_begin), "\"a\"");
  EXPECT_EQ(kText.substr(b.value_begin, b.value_end - b.value_begin), R"([true,null, "x\"y"])");
  EXPECT_EQ(a.previous_end, kNoOffset);
  EXPECT_EQ(a.next_begin, b.name_begin);
  EXPECT_EQ(b.previous_end, a.value_end);
  EXPECT_EQ(c.previous_end, b.value_end);
  EXPECT_EQ(c.next_begin, kNoOffset);
}

TEST(ScanJson, ReadsOnThroughBrokenText) {
  // Truncated: what was seen whole is there, members up to where the text ends.
  constexpr std::string_view kTruncated = R"({"a":1,"b":[tr)";
  const Outline truncated = OutlineJson(kTruncated);
  EXPECT_EQ(Texts(kTruncated, truncated), std::vector<std::string_view>{"1"});
  ASSERT_EQ(truncated.members.size(), 1u);
  EXPECT_EQ(truncated.members[0].next_begin, kNoOffset);
  // Bytes that are not JSON are stepped over; a name without its colon makes no member.
  constexpr std::string_view kNoise = "{\"a\" 1, @ \"b\":\xFF 2}";
  const Outline noise = OutlineJson(kNoise);
  EXPECT_EQ(Texts(kNoise, noise), (std::vector<std::string_view>{"1", "2", kNoise}));
  EXPECT_EQ(noise.members.size(), 1u);
}

TEST(ScanJson, StopsWhereNothingAfterCanBeTrusted) {
  EXPECT_EQ(Texts("[1, \"abc", OutlineJson("[1, \"abc")), std::vector<std::string_view>{"1"});
  EXPECT_EQ(Texts("[1, \"ab\\", OutlineJson("[1, \"ab\\")), std::vector<std::string_view>{"1"});
  EXPECT_EQ(Texts("[1} 2", OutlineJson("[1} 2")), std::vector<std::string_view>{"1"});
  EXPECT_EQ(Texts("] 2", OutlineJson("] 2")), std::vector<std::string_view>{});
}

TEST(ScanJson, NestingIsBounded) {
  EXPECT_TRUE(OutlineJson(std::string(100000, '[')).values.empty());
  const std::string deep = std::string(kMaxDepth, '[') + "1" + std::string(kMaxDepth, ']');
  EXPECT_EQ(OutlineJson(deep).values.size(), kMaxDepth + 1);
  const std::string deeper = "[" + deep + "]";
  EXPECT_TRUE(OutlineJson(deeper).values.empty());
}

}  // namespace
}  // namespace arcs::fuzz
