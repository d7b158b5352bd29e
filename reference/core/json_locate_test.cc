#include "reference/core/json_locate.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs::json {
namespace {

// Where `pointer` stands in `text`, as "offset" or "offset?" when it did not resolve whole, or
// "none".
std::string Place(std::string_view text, std::string_view pointer) {
  const std::optional<PointerPlace> place = LocatePointers(text, {pointer})[0];
  if (!place) return "none";
  return std::to_string(place->offset) + (place->found ? "" : "?");
}

TEST(LocatePointersTest, AMemberStandsAtItsNameAnElementAndTheRootAtTheirValue) {
  const std::string_view text = R"( {"a": 1, "b": [10, {"c": null}], "d": "x"})";
  EXPECT_EQ(Place(text, ""), "1");
  EXPECT_EQ(Place(text, "/a"), "2");
  EXPECT_EQ(Place(text, "/b"), "10");
  EXPECT_EQ(Place(text, "/b/0"), "16");
  EXPECT_EQ(Place(text, "/b/1"), "20");
  EXPECT_EQ(Place(text, "/b/1/c"), "21");
  EXPECT_EQ(Place(text, "/d"), "34");
  EXPECT_EQ(text.substr(21, 3), "\"c\"");
  EXPECT_EQ(text.substr(34, 3), "\"d\"");
}

TEST(LocatePointersTest, WhatIsMissingStandsWhereThePointerStopsResolving) {
  const std::string_view text = R"({"a": {"b": 1}, "list": [1, 2]})";
  EXPECT_EQ(Place(text, "/a/missing"), "1?");  // the member "a", which lacks it
  EXPECT_EQ(Place(text, "/list/2"), "16?");    // past the end
  EXPECT_EQ(Place(text, "/list/01"), "16?");   // not an index as RFC 6901 writes them
  EXPECT_EQ(Place(text, "/list/-"), "16?");
  EXPECT_EQ(Place(text, "/nothing/at/all"), "0?");
  EXPECT_EQ(Place(text, "/a/b/deeper"), "7?");  // a number has no members
}

TEST(LocatePointersTest, TokensAreUnescapedAndNamesDecoded) {
  const std::string_view text =
      R"({"a/b": 1, "m~n": 2, "\u00e9t\u00E9": 3, "\ud83d\ude00": 4, "q\"": 5})";
  EXPECT_EQ(Place(text, "/a~1b"), "1");
  EXPECT_EQ(Place(text, "/m~0n"), "11");
  EXPECT_EQ(Place(text, "/\xc3\xa9t\xc3\xa9"), "21");
  EXPECT_EQ(Place(text, "/\xf0\x9f\x98\x80"), "41");
  EXPECT_EQ(Place(text, "/q\""), "60");
}

TEST(LocatePointersTest, TheFirstOfARepeatedNameIsTheOne) {
  EXPECT_EQ(Place(R"({"a": 1, "a": {"b": 2}})", "/a"), "1");
  // The first "a" holds no "b": the pointer stops there, it does not go on to the second.
  EXPECT_EQ(Place(R"({"a": 1, "a": {"b": 2}})", "/a/b"), "1?");
}

TEST(LocatePointersTest, StringsThatLookLikeStructureAreSkippedWhole) {
  const std::string_view text = R"({"s": "}]\",{[", "t": {"x": "]"}, "u": 1})";
  EXPECT_EQ(Place(text, "/u"), "34");
  EXPECT_EQ(Place(text, "/t/x"), "23");
}

TEST(LocatePointersTest, ManyPointersInOnePass) {
  const std::string_view text = R"({"a": [{"b": 1}, {"b": 2}], "c": {"d": {"e": 3}}})";
  const std::vector<std::optional<PointerPlace>> places =
      LocatePointers(text, {"/c/d/e", "/a/1/b", "/a/0/b", "/a/1", "/zz", "bad", "/c/d/f"});
  ASSERT_EQ(places.size(), 7u);
  EXPECT_EQ(text.substr(places[0]->offset, 3), "\"e\"");
  EXPECT_EQ(places[1]->offset, 18u);
  EXPECT_EQ(places[2]->offset, 8u);
  EXPECT_EQ(places[3]->offset, 17u);
  EXPECT_TRUE(places[3]->found);
  EXPECT_EQ(places[4]->offset, 0u);
  EXPECT_FALSE(places[4]->found);
  EXPECT_FALSE(places[5].has_value());
  EXPECT_EQ(text.substr(places[6]->offset, 3), "\"d\"");
  EXPECT_FALSE(places[6]->found);
}

TEST(LocatePointersTest, NotAPointerOrNoValueGivesNothing) {
  EXPECT_EQ(Place("{}", "a"), "none");
  EXPECT_EQ(Place("{}", "/a~2"), "none");
  EXPECT_EQ(Place("{}", "/a~"), "none");
  EXPECT_EQ(Place("   ", ""), "none");
  EXPECT_EQ(Place("", "/a"), "none");
}

TEST(LocatePointersTest, BrokenTextStopsTheScanWithoutReadingPastIt) {
  // Each is cut or broken somewhere; what was reached before stands, the rest falls back.
  EXPECT_EQ(Place(R"({"a": {"b": )", "/a/b"), "1?");  // "b" has no value
  EXPECT_EQ(Place(R"({"a": "unterminated, "b": 1})", "/b"), "0?");
  EXPECT_EQ(Place(R"({"a" 1, "b": 2})", "/b"), "0?");
  EXPECT_EQ(Place(R"({"a": [1, 2)", "/a/5"), "1?");
  EXPECT_EQ(Place(R"({"a": "\u12)", "/a"), "1");
  EXPECT_EQ(Place(R"({"\u12)", "/a"), "0?");
  EXPECT_EQ(Place("[", "/0"), "0?");
  EXPECT_EQ(Place(R"({"x": "\)", "/y"), "0?");
}

TEST(LocatePointersTest, DeepTextCostsNoRecursion) {
  // A million nested arrays: skipped by counting brackets, entered only along the pointer.
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  EXPECT_EQ(Place("{\"x\": " + deep + ", \"y\": 1}", "/y"), "2000008");
  std::string pointer;
  for (int i = 0; i < 200; ++i) pointer += "/0";
  EXPECT_EQ(Place(deep, pointer), "200");
}

}  // namespace
}  // namespace arcs::json
