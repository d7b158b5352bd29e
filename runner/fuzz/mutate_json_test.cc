#include "runner/fuzz/mutate_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "reference/core/json.h"
#include "runner/fuzz/testing/distinct_mutants.h"

namespace arcs::fuzz {
namespace {

using Set = std::set<std::string>;

// Every distinct mutant one JSON family makes of `text`.
Set JsonMutants(std::string_view what, std::string_view text, std::size_t max_bytes = 1 << 20) {
  return testing::DistinctMutants(JsonFamilies(), what, {text, "", max_bytes}, 3, 400);
}

json::Document Parsed(std::string_view text) {
  json::Document document;
  EXPECT_TRUE(document.Parse(text, {.max_depth = 200000})) << text;
  return document;
}

TEST(JsonFamilies, DropMemberKeepsTheObjectWellFormed) {
  EXPECT_EQ(JsonMutants("json:drop-member", R"({"a":1, "b":[2],"c" : 3})"),
            (Set{R"({"b":[2],"c" : 3})", R"({"a":1, "c" : 3})", R"({"a":1, "b":[2]})"}));
  EXPECT_EQ(JsonMutants("json:drop-member", R"({ "only": {"x":1} })"),
            (Set{"{  }", R"({ "only": {} })"}));
  EXPECT_EQ(JsonMutants("json:drop-member", "[1,2]"), Set{});
}

TEST(JsonFamilies, RepeatedAndDuplicatedNamesAreDuplicatesToTheReference) {
  constexpr std::string_view kText = R"({"a":1,"b":{"c":"x"}})";
  EXPECT_EQ(JsonMutants("json:repeat-member", kText),
            (Set{R"({"a":1,"a":1,"b":{"c":"x"}})", R"({"a":1,"b":{"c":"x"},"b":{"c":"x"}})",
                 R"({"a":1,"b":{"c":"x","c":"x"}})"}));
  const Set duplicated = JsonMutants("json:duplicate-name", kText);
  EXPECT_GE(duplicated.size(), 4u);
  for (const std::string& mutant : duplicated) {
    const json::Document document = Parsed(mutant);
    EXPECT_EQ(document.duplicates().size(), 1u) << mutant;
    // The repeated member's value differs from the first one's.
    EXPECT_EQ(mutant.find(R"("a":1,"a":1)"), std::string::npos) << mutant;
    EXPECT_EQ(mutant.find(R"("c":"x","c":"x")"), std::string::npos) << mutant;
  }
}

TEST(JsonFamilies, ChangeTypeReplacesOneValueWithAnotherType) {
  const Set changed = JsonMutants("json:change-type", R"({"n":12,"s":"3.5"})");
  EXPECT_TRUE(changed.contains(R"({"n":"12","s":"3.5"})"));  // a number quoted
  EXPECT_TRUE(changed.contains(R"({"n":12,"s":3.5})"));      // a numeric string unquoted
  EXPECT_TRUE(changed.contains(R"({"n":null,"s":"3.5"})"));
  EXPECT_TRUE(changed.contains("[]"));  // the whole document
  for (const std::string& mutant : changed) {
    Parsed(mutant);
    EXPECT_EQ(mutant.find(R"("n":0,)"), std::string::npos);  // never the same type
  }
}

TEST(JsonFamilies, DeepenWrapsOneValueInPlace) {
  constexpr std::string_view kText = R"({"a":[1],"b":2})";
  const Set deepened = JsonMutants("json:deepen", kText);
  EXPECT_GT(deepened.size(), 10u);
  bool past_reference_bound = false;
  for (const std::string& mutant : deepened) {
    Parsed(mutant);
    json::Document bounded;
    past_reference_bound |= !bounded.Parse(mutant);
  }
  EXPECT_TRUE(past_reference_bound);
  EXPECT_TRUE(deepened.contains(R"({"a":[[1]],"b":2})"));
  EXPECT_TRUE(deepened.contains(R"({"a":[1],"b":{"x":2}})"));
  // Bounded by max_bytes: 4 more bytes are two more arrays, or no object wrapper.
  for (const std::string& mutant : JsonMutants("json:deepen", kText, kText.size() + 4)) {
    EXPECT_LE(mutant.size(), kText.size() + 4) << mutant;
  }
}

TEST(JsonFamilies, EdgeNumbersReplaceNumbersOnly) {
  const Set edged = JsonMutants("json:edge-number", R"(["1", 2, true])");
  EXPECT_EQ(edged.size(), 18u);
  EXPECT_TRUE(edged.contains(R"(["1", 1e400, true])"));
  EXPECT_TRUE(edged.contains(R"(["1", 9007199254740993, true])"));
  EXPECT_EQ(JsonMutants("json:edge-number", R"(["1", true])"), Set{});
}

TEST(JsonFamilies, EscapesGoInsideStringsBetweenUnits) {
  // The name, an escape and a two-byte character: an insertion splits none of them.
  constexpr std::string_view kText = "{\"k\":\"\\u00e9\xC3\xA9\"}";
  const Set escaped = JsonMutants("json:escape", kText);
  EXPECT_GT(escaped.size(), 30u);
  for (const std::string& mutant : escaped) {
    EXPECT_TRUE(mutant.starts_with("{\"")) << mutant;
    EXPECT_TRUE(mutant.ends_with("\"}")) << mutant;
    EXPECT_NE(mutant.find("\\u00e9"), std::string::npos) << mutant;
    EXPECT_NE(mutant.find("\xC3\xA9"), std::string::npos) << mutant;
  }
  EXPECT_TRUE(escaped.contains("{\"k\\ud800\":\"\\u00e9\xC3\xA9\"}"));
  EXPECT_TRUE(escaped.contains("{\"k\":\"\\u00e9\xC3\xA9\xC0\x80\"}"));
  EXPECT_EQ(JsonMutants("json:escape", "[1,null]"), Set{});
}

TEST(JsonFamilies, NameCaseChangesLettersOutsideEscapes) {
  EXPECT_EQ(
      JsonMutants("json:name-case", R"({"type":1})"),
      (Set{R"({"TYPE":1})", R"({"Type":1})", R"({"tYpe":1})", R"({"tyPe":1})", R"({"typE":1})"}));
  EXPECT_EQ(JsonMutants("json:name-case", R"({"\u0041b":1})"), Set{R"({"\u0041B":1})"});
  EXPECT_EQ(JsonMutants("json:name-case", R"({"12":"abc"})"), Set{});
}

TEST(JsonFamilies, NothingAppliesToTextWithoutValues) {
  for (const Family& family : JsonFamilies()) {
    EXPECT_EQ(JsonMutants(family.what, "not json"), Set{}) << family.what;
  }
}

}  // namespace
}  // namespace arcs::fuzz
