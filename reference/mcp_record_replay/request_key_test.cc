#include "reference/mcp_record_replay/request_key.h"

#include <gtest/gtest.h>

namespace arcs::mcp_record_replay {
namespace {

// Which params share a key is what errata MRR-E29 to MRR-E32 decide; each pair here is one of
// their outcomes under the ARCS readings.
std::string Key(std::string_view method, std::string_view params) {
  json::Document doc;
  if (params.empty()) return *RequestKey(method, nullptr);
  EXPECT_TRUE(doc.Parse(params)) << params;
  Result<std::string> key = RequestKey(method, &doc.root());
  return key.ok() ? *key : "no key: " + key.status().message();
}

TEST(RequestKeyTest, ParamsAsDataMemberOrderWhitespaceAndEscapesAside) {
  EXPECT_EQ(Key("tools/call", R"({"name":"echo","arguments":{"a":1,"b":2}})"),
            Key("tools/call", R"({ "arguments" : {"b":2, "a":1}, "name" : "ech\u006f" })"));
  EXPECT_NE(Key("tools/call", R"({"name":"echo"})"), Key("Tools/call", R"({"name":"echo"})"));
  EXPECT_NE(Key("tools/call", R"({"a":[1,2]})"), Key("tools/call", R"({"a":[2,1]})"));
  EXPECT_NE(Key("a", R"({"b":1})"), Key("a", R"({"b":2})"));
}

TEST(RequestKeyTest, TheParamsOwnMetaIsLeftOut) {
  EXPECT_EQ(Key("m", R"({"x":1,"_meta":{"progressToken":7}})"), Key("m", R"({"x":1})"));
  EXPECT_NE(Key("m", R"({"x":{"_meta":1}})"), Key("m", R"({"x":{}})"));
}

TEST(RequestKeyTest, AnInitializeRequestsClientInfoIsLeftOut) {  // errata MRR-E50
  constexpr char kInit[] =
      R"({"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}})";
  EXPECT_EQ(Key("initialize", kInit),
            Key("initialize",
                R"({"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"d"}})"));
  EXPECT_EQ(Key("initialize", kInit),
            Key("initialize", R"({"protocolVersion":"2025-06-18","capabilities":{}})"));
  EXPECT_NE(Key("initialize", kInit),
            Key("initialize", R"({"protocolVersion":"2024-11-05","capabilities":{},)"
                              R"("clientInfo":{"name":"c","version":"1"}})"));
  EXPECT_NE(Key("tools/call", kInit),
            Key("tools/call", R"({"protocolVersion":"2025-06-18","capabilities":{}})"));
}

TEST(RequestKeyTest, AbsentNullAndEmptyParamsAreOne) {
  EXPECT_EQ(Key("tools/list", ""), Key("tools/list", "{}"));
  EXPECT_EQ(Key("tools/list", "null"), Key("tools/list", "{}"));
  EXPECT_EQ(Key("tools/list", R"({"_meta":{}})"), Key("tools/list", ""));
  EXPECT_NE(Key("tools/list", "[]"), Key("tools/list", "{}"));
}

TEST(RequestKeyTest, NumbersAsRfc8785WritesThem) {
  EXPECT_EQ(Key("m", R"({"n":1})"), Key("m", R"({"n":1.0})"));
  EXPECT_EQ(Key("m", R"({"n":100})"), Key("m", R"({"n":1e2})"));
  EXPECT_EQ(Key("m", R"({"n":-0})"), Key("m", R"({"n":0})"));
  EXPECT_EQ(Key("m", R"({"n":9007199254740993})"), Key("m", R"({"n":9007199254740992})"));
}

TEST(RequestKeyTest, ParamsWithoutACanonicalFormHaveNoKey) {
  EXPECT_EQ(Key("m", R"({"n":1e400})").substr(0, 7), "no key:");
  EXPECT_EQ(Key("m", R"({"a":1,"a":2})").substr(0, 7), "no key:");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
