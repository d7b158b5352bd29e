// Expected bytes of PythonSortedJson below are CPython 3.11's json.dumps(json.loads(text),
// sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"); the oracle test
// (testing/python_canonical_oracle.py) checks 10,000 more values against CPython itself. Those of
// Jcs are RFC 8785's (Appendix B for numbers) and Node's JSON.stringify (testing/jcs_oracle.mjs).
#include "reference/core/canonical.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

namespace arcs::canonical {
namespace {

std::string Canonical(std::string_view text, std::string_view omit = "") {
  json::Document doc;
  EXPECT_TRUE(doc.Parse(text)) << doc.error().message;
  Result<std::string> out = PythonSortedJson(doc.root(), omit);
  EXPECT_TRUE(out.ok()) << out.status().message();
  return out.ok() ? *out : "";
}

TEST(PythonSortedJson, SortsByCodePointKeepsTheLastRepeatedNameAndPrintsIntegersAsPython) {
  EXPECT_EQ(Canonical("{\"b\":1,\"a\":[true,null,-0],\"a\":{\"\\u00e9\":\"\\u2028\x7f\","
                      "\"\\ud83d\\ude00\":0,\"\\uffff\":1}}"),
            "{\"a\":{\"\xc3\xa9\":\"\xe2\x80\xa8\x7f\",\"\xef\xbf\xbf\":1,\"\xf0\x9f\x98\x80\":0},"
            "\"b\":1}");
}

TEST(PythonSortedJson, EscapesStringsAsPythonDoes) {
  EXPECT_EQ(Canonical(R"("\u0000\u001f\b\f\n\r\t\"\\\/")"), R"("\u0000\u001f\b\f\n\r\t\"\\/")");
}

TEST(PythonSortedJson, LeavesOutTheNamedTopLevelMember) {
  EXPECT_EQ(Canonical(R"({"hash":"x","z":1,"a":2})"), R"({"a":2,"hash":"x","z":1})");
  EXPECT_EQ(Canonical(R"({"hash":"x","z":1,"a":{"hash":3}})", "hash"), R"({"a":{"hash":3},"z":1})");
}

TEST(PythonSortedJson, RefusesFloatsNamingWhere) {
  for (std::string_view text : {"1.0", "[1e2]", R"({"a":{"b":[0,-0.0]}})", "1E+2"}) {
    json::Document doc;
    ASSERT_TRUE(doc.Parse(text));
    Result<std::string> out = PythonSortedJson(doc.root());
    ASSERT_FALSE(out.ok()) << text;
    EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  }
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"({"a":{"b~/":[0,-0.0]}})"));
  EXPECT_EQ(PythonSortedJson(doc.root()).status().message(),
            "/a/b~0~1/1 is a float (a number with a fraction or an exponent): the canonical form "
            "has none");
}

// RFC 8785 Appendix B's samples (binary64 bit patterns and their serializations); Node and the npm
// package check these and 100,000 more in jcs_oracle.mjs.
TEST(EcmaScriptNumber, WritesRfc8785AppendixBSamples) {
  const std::pair<std::uint64_t, std::string_view> samples[] = {
      {0x0000000000000000, "0"},
      {0x8000000000000000, "0"},
      {0x0000000000000001, "5e-324"},
      {0x8000000000000001, "-5e-324"},
      {0x7fefffffffffffff, "1.7976931348623157e+308"},
      {0x4340000000000000, "9007199254740992"},
      {0x4430000000000000, "295147905179352830000"},
      {0x44b52d02c7e14af6, "1e+23"},
      {0x444b1ae4d6e2ef4f, "999999999999999900000"},
      {0x444b1ae4d6e2ef50, "1e+21"},
      {0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
      {0x3eb0c6f7a0b5ed8d, "0.000001"},
      {0x41b3de4355555554, "333333333.33333325"},
      {0xbecbf647612f3696, "-0.0000033333333333333333"},
      {0x43143ff3c1cb0959, "1424953923781206.2"},
  };
  for (const auto& [bits, text] : samples) {
    EXPECT_EQ(EcmaScriptNumber(std::bit_cast<double>(bits)), text) << std::hex << bits;
  }
}

std::string Jcs(std::string_view text) {
  json::Document doc;
  EXPECT_TRUE(doc.Parse(text)) << text;
  Result<std::string> out = canonical::Jcs(doc.root());
  return out.ok() ? *out : "refused: " + out.status().message();
}

TEST(Jcs, SortsNamesByUtf16CodeUnits) {
  // U+1F600 is D83D DE00 in UTF-16: before U+E000 and U+FFFF, after U+D7FF.
  EXPECT_EQ(Jcs(R"({"\uffff":1,"\ue000":2,"\ud83d\ude00":3,"\ud7ff":4,"b":5,"a":6,"":7})"),
            "{\"\":7,\"a\":6,\"b\":5,\"\xed\x9f\xbf\":4,\"\xf0\x9f\x98\x80\":3,\"\xee\x80\x80\":2,"
            "\"\xef\xbf\xbf\":1}");
  EXPECT_TRUE(Utf16Less("\xf0\x90\x80\x80", "\xee\x80\x80"));
  EXPECT_FALSE(Utf16Less("\xee\x80\x80", "\xf0\x90\x80\x80"));
  EXPECT_TRUE(Utf16Less("ab", "abc"));
  EXPECT_FALSE(Utf16Less("ab", "ab"));
}

// Only members of the top-level object are left out; one deeper is data.
TEST(Jcs, OmitsTopLevelMembers) {
  constexpr std::string_view kMeta[] = {"_meta"};
  constexpr std::string_view kTwo[] = {"_meta", "a"};
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"({"b":{"_meta":1},"_meta":{"t":2},"a":3})"));
  EXPECT_EQ(*canonical::Jcs(doc.root(), kMeta), R"({"a":3,"b":{"_meta":1}})");
  EXPECT_EQ(*canonical::Jcs(doc.root(), kTwo), R"({"b":{"_meta":1}})");
  ASSERT_TRUE(doc.Parse(R"([{"_meta":1}])"));
  EXPECT_EQ(*canonical::Jcs(doc.root(), kMeta), R"([{"_meta":1}])");
}

TEST(Jcs, WritesNumbersAsEcmaScriptDoesAndStringsAsJsonStringify) {
  EXPECT_EQ(Jcs(R"([1.0,1e0,-0,1E21,1e-7,100e-9,9007199254740993,1e-400,-1e-400])"),
            "[1,1,0,1e+21,1e-7,1e-7,9007199254740992,0,0]");
  EXPECT_EQ(Jcs(R"("\u0000\u001f\b\f\n\r\t\"\\\/\u007f\u2028\u00e9")"),
            "\"\\u0000\\u001f\\b\\f\\n\\r\\t\\\"\\\\/\x7f\xe2\x80\xa8\xc3\xa9\"");
}

TEST(Jcs, RefusesWhatIJsonExcludesNamingWhere) {
  EXPECT_EQ(Jcs(R"({"a":[0,{"x":1,"x":2}]})"),
            "refused: /a/1 repeats the member name \"x\": RFC 8785 (I-JSON) has no canonical form "
            "for it");
  EXPECT_EQ(Jcs(R"([1e400])"),
            "refused: /0 is a number beyond the range of IEEE 754 doubles: RFC 8785 (I-JSON) has "
            "no canonical form for it");
  EXPECT_EQ(Jcs("-1E+999"),
            "refused: the value is a number beyond the range of IEEE 754 doubles: RFC 8785 "
            "(I-JSON) has no canonical form for it");
}

}  // namespace
}  // namespace arcs::canonical
