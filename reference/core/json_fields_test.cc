#include "reference/core/json_fields.h"

#include <gtest/gtest.h>

namespace arcs::json {
namespace {

// Reads {"name": string, "count": count, "tags": [string], "opt"?: string} strictly and returns
// the error message, or "" when it was read.
std::string ReadExample(std::string_view text, FieldReader::Members members) {
  Document doc;
  Status status = ParseData(text, &doc);
  if (!status.ok()) return status.message();
  FieldReader r(&doc.root(), "", &status, members);
  std::string name, opt;
  std::uint64_t count = 0;
  std::vector<std::string> tags;
  r.String("name", &name);
  r.Count("count", &count);
  r.StringList("tags", &tags);
  r.OptionalString("opt", &opt);
  r.Finish();
  return status.message();
}

TEST(FieldReader, ReadsWhatIsThereAndNamesTheFirstProblemByPointer) {
  constexpr auto kClosed = FieldReader::Members::kClosed;
  EXPECT_EQ(ReadExample(R"({"name":"a","count":2,"tags":["x"]})", kClosed), "");
  EXPECT_EQ(ReadExample(R"({"name":"a","count":2,"tags":[],"opt":"o"})", kClosed), "");
  EXPECT_EQ(ReadExample(R"({"count":2,"tags":[]})", kClosed), "/name: missing");
  EXPECT_EQ(ReadExample(R"({"name":1,"count":2,"tags":[]})", kClosed),
            "/name: expected a string, found a number");
  EXPECT_EQ(ReadExample(R"({"name":"a","count":-1,"tags":[]})", kClosed),
            "/count: expected a non-negative integer, found -1");
  EXPECT_EQ(ReadExample(R"({"name":"a","count":1.5,"tags":[]})", kClosed),
            "/count: expected a non-negative integer, found 1.5");
  EXPECT_EQ(ReadExample(R"({"name":"a","count":1,"tags":["x",null]})", kClosed),
            "/tags/1: expected a string, found null");
  EXPECT_EQ(ReadExample(R"({"name":"a","count":1,"tags":[],"opt":{}})", kClosed),
            "/opt: expected a string, found an object");
  EXPECT_EQ(ReadExample(R"([1])", kClosed), "(root): expected an object, found an array");
}

TEST(FieldReader, ClosedObjectsRefuseUnknownMembersOpenOnesIgnoreThem) {
  const char* typo = R"({"name":"a","count":1,"tags":[],"tagz":[]})";
  EXPECT_EQ(ReadExample(typo, FieldReader::Members::kClosed), "/tagz: unknown member");
  EXPECT_EQ(ReadExample(typo, FieldReader::Members::kOpen), "");
  EXPECT_EQ(
      ReadExample(R"({"name":"a","count":1,"tags":[],"a/b~":0})", FieldReader::Members::kClosed),
      "/a~1b~0: unknown member");
}

TEST(FieldReader, RepeatedNamesAreRefusedAtAnyDepth) {
  EXPECT_EQ(ReadExample(R"({"name":"a","count":1,"tags":[],"opt":"x","opt":"y"})",
                        FieldReader::Members::kOpen),
            "member name repeated at /opt");
  EXPECT_EQ(
      ReadExample(R"({"name":"a","count":1,"tags":[{"k":1,"k":2}]})", FieldReader::Members::kOpen),
      "member name repeated at /tags/0/k");
}

TEST(FieldReader, NestedReadersShareTheFirstProblem) {
  Document doc;
  Status status = ParseData(R"({"a":{"b":{"c":true}},"d":5})", &doc);
  ASSERT_TRUE(status.ok());
  FieldReader outer(&doc.root(), "", &status);
  FieldReader a(outer.Required("a", Kind::kObject), outer.Pointer("a"), &status);
  FieldReader b(a.Required("b", Kind::kObject), a.Pointer("b"), &status);
  std::string c;
  b.String("c", &c);
  EXPECT_EQ(status.message(), "/a/b/c: expected a string, found a boolean");
  std::uint64_t d = 0;
  outer.Count("d", &d);  // a no-op once a problem is known
  EXPECT_EQ(d, 0u);
  EXPECT_FALSE(outer.ok());
}

TEST(FieldReader, Base64AndMaps) {
  Document doc;
  Status status = ParseData(R"({"in":{"file":"aGk="},"bad":"aGk","m":{"x":"1"}})", &doc);
  ASSERT_TRUE(status.ok());
  FieldReader r(&doc.root(), "", &status);
  std::map<std::string, std::string> m;
  r.StringMap("m", &m);
  EXPECT_EQ(m.at("x"), "1");
  std::vector<std::string> names;
  r.ForEachMember("in", true, [&](std::string_view name, const Value& v, const std::string& p) {
    names.emplace_back(name);
    EXPECT_EQ(p, "/in/file");
    EXPECT_EQ(v.text(), "aGk=");
  });
  EXPECT_EQ(names, std::vector<std::string>{"file"});
  EXPECT_FALSE(r.Base64("bad", true).has_value());
  EXPECT_EQ(status.message(), "/bad: is not canonical base64 (RFC 4648 section 4, padded)");
}

bool Same(const char* a, const char* b) {
  Document x, y;
  EXPECT_TRUE(x.Parse(a)) << a;
  EXPECT_TRUE(y.Parse(b)) << b;
  return SameData(x.root(), y.root());
}

TEST(SameData, ComparesDataNotSpelling) {
  EXPECT_TRUE(Same(R"({"a":1,"b":[true,null]})", R"({"b":[true,null],"a":1.0})"));
  EXPECT_TRUE(Same(R"({"s":"\u00e9"})", "{\"s\":\"\xC3\xA9\"}"));
  EXPECT_TRUE(Same(R"({"a":1,"a":2})", R"({"a":1,"a":2})"));
  EXPECT_FALSE(Same(R"({"a":1,"a":2})", R"({"a":2})"));  // a lost duplicate is lost data
  EXPECT_FALSE(Same(R"({"a":1,"a":2})", R"({"a":2,"a":1})"));
  EXPECT_FALSE(Same(R"([1,2])", R"([2,1])"));
  EXPECT_FALSE(Same(R"({"a":1})", R"({"a":"1"})"));
  EXPECT_FALSE(Same(R"({"a":9007199254740993})", R"({"a":9007199254740992})"));
  EXPECT_FALSE(Same(R"({"a":true})", R"({"a":false})"));
  EXPECT_FALSE(Same(R"({"a":{}})", R"({"a":{},"b":{}})"));
  // Scalars at the top, compared without a container around them.
  EXPECT_TRUE(Same("1", "1.0e0"));
  EXPECT_TRUE(Same(R"("\u0061")", R"("a")"));
  EXPECT_TRUE(Same("null", "null"));
  EXPECT_FALSE(Same("1", R"("1")"));
  EXPECT_FALSE(Same(R"("a")", R"("b")"));
  EXPECT_FALSE(Same("null", "false"));
  EXPECT_FALSE(Same("true", "false"));
  EXPECT_FALSE(Same("1", "[1]"));
  EXPECT_FALSE(Same("[1]", "1"));
  EXPECT_FALSE(Same("{}", "[]"));
}

TEST(SameData, RepeatedNamesMayCountOnce) {
  Document x, y;
  ASSERT_TRUE(x.Parse(R"({"a":1,"b":{"c":2,"c":3},"a":4})"));
  auto same = [&](const char* text, RepeatedNames repeated) {
    EXPECT_TRUE(y.Parse(text)) << text;
    return SameData(x.root(), y.root(), repeated);
  };
  EXPECT_TRUE(same(R"({"a":1,"b":{"c":2}})", RepeatedNames::kFirst));
  EXPECT_TRUE(same(R"({"b":{"c":3},"a":4})", RepeatedNames::kLast));
  EXPECT_FALSE(same(R"({"a":1,"b":{"c":3}})", RepeatedNames::kFirst));
  EXPECT_FALSE(same(R"({"a":1,"b":{"c":2}})", RepeatedNames::kKeepAll));
  EXPECT_TRUE(same(R"({"a":1,"a":4,"b":{"c":2,"c":3}})", RepeatedNames::kKeepAll));
}

TEST(SameData, DeepValuesDoNotRecurse) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  Document x, y;
  ASSERT_TRUE(x.Parse(deep, {.max_depth = 200000}));
  ASSERT_TRUE(y.Parse(deep, {.max_depth = 200000}));
  EXPECT_TRUE(SameData(x.root(), y.root()));
}

}  // namespace
}  // namespace arcs::json
