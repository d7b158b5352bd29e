// Expected bytes below are CPython 3.11's json.dumps(json.loads(text), sort_keys=True,
// separators=(",", ":"), ensure_ascii=False).encode("utf-8"); the oracle test
// (testing/python_canonical_oracle.py) checks 10,000 more values against CPython itself.
#include "reference/core/canonical.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace arcs::canonical
