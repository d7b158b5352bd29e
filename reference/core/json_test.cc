#include "reference/core/json.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/reader.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "reference/core/number.h"
#include "reference/core/testing/escaped_slowly.h"
#include "reference/core/xoshiro.h"

namespace arcs::json {
namespace {

ErrorCode ParseCode(std::string_view text, ParseOptions options = {}) {
  Document doc;
  doc.Parse(text, options);
  return doc.error().code;
}

std::string RoundTrip(std::string_view text) {
  Document doc;
  EXPECT_TRUE(doc.Parse(text)) << text << ": " << doc.error().message;
  return ToString(doc.root());
}

TEST(JsonParse, ScalarsAndContainers) {
  Document doc;
  ASSERT_TRUE(doc.Parse(R"( {"a":[1,"x",true,false,null,{}],"b":{"c":[]}} )"));
  const Value& root = doc.root();
  ASSERT_TRUE(root.is_object());
  ASSERT_EQ(root.members().size(), 2u);
  const Value* a = root.Find("a");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->items().size(), 6u);
  EXPECT_EQ(a->items()[0].text(), "1");
  EXPECT_EQ(a->items()[1].text(), "x");
  EXPECT_TRUE(a->items()[2].as_bool());
  EXPECT_TRUE(a->items()[3].is_bool());
  EXPECT_FALSE(a->items()[3].as_bool());
  EXPECT_TRUE(a->items()[4].is_null());
  EXPECT_TRUE(a->items()[5].is_object());
  EXPECT_EQ(root.Find("missing"), nullptr);
}

TEST(JsonParse, KeepsMemberOrderAndNumberText) {
  EXPECT_EQ(RoundTrip(R"({"z":1,"a":1.0,"m":1e2,"n":-0,"big":123456789012345678901234567890})"),
            R"({"z":1,"a":1.0,"m":1e2,"n":-0,"big":123456789012345678901234567890})");
}

// RapidJSON 1.1.0 reports kParseErrorNumberTooBig for these valid numbers even with
// kParseNumbersAsStringsFlag; the strict layer must accept them and keep their text.
TEST(JsonParse, NumbersRapidJsonRejectsAreAccepted) {
  const std::string huge_integer(400, '7');
  for (const std::string& n :
       {std::string("1e400"), std::string("-1E+400"), huge_integer, std::string("10e308"),
        std::string("1e-400"), "0." + huge_integer + "e999999999999999999999"}) {
    rapidjson::Reader raw;
    rapidjson::StringStream s(n.c_str());
    rapidjson::BaseReaderHandler<> ignore;
    bool raw_ok = !raw.Parse<rapidjson::kParseNumbersAsStringsFlag>(s, ignore).IsError();
    Document doc;
    ASSERT_TRUE(doc.Parse(n)) << n << ": " << doc.error().message;
    EXPECT_EQ(doc.root().text(), n);
    if (n == "1e400" || n == huge_integer) {
      EXPECT_FALSE(raw_ok) << "RapidJSON defect gone? " << n;
    }
  }
}

TEST(JsonParse, RejectsMalformedNumbers) {
  for (const char* n : {"01", "+1", ".5", "1.", "1e", "1e+", "-", "--1", "0x10", "1.e5", "NaN",
                        "Infinity", "-Infinity", "1_000"}) {
    ErrorCode code = ParseCode(n);
    EXPECT_TRUE(code == ErrorCode::kInvalidNumber || code == ErrorCode::kSyntax ||
                code == ErrorCode::kTrailingContent)
        << n << " gave " << ErrorCodeName(code);
  }
  EXPECT_EQ(ParseCode("[1.]"), ErrorCode::kInvalidNumber);
  EXPECT_EQ(ParseCode("[1e]"), ErrorCode::kInvalidNumber);
}

TEST(JsonParse, DuplicateNamesAreReportedAndKept) {
  // RapidJSON's own DOM accepts this silently.
  rapidjson::Document raw;
  raw.Parse(R"({"a":1,"a":2})");
  ASSERT_FALSE(raw.HasParseError());

  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"a":1,"b":{"x":[{"k":1,"k/~":2,"k":3}]},"a":2})"));
  ASSERT_EQ(doc.duplicates().size(), 2u);
  EXPECT_EQ(doc.duplicates()[0].pointer, "/b/x/0/k");
  EXPECT_EQ(doc.duplicates()[1].pointer, "/a");
  EXPECT_EQ(doc.root().members().size(), 3u);  // nothing dropped
  EXPECT_EQ(doc.root().Find("a")->text(), "1");
  // Each object that repeats a name says so; the others, and non-objects, do not.
  const Value& b = *doc.root().Find("b");
  EXPECT_TRUE(doc.root().repeats_a_name());
  EXPECT_FALSE(b.repeats_a_name());
  EXPECT_FALSE(b.Find("x")->repeats_a_name());
  EXPECT_TRUE(b.Find("x")->items()[0].repeats_a_name());
  EXPECT_EQ(ToString(doc.root()), R"({"a":1,"b":{"x":[{"k":1,"k/~":2,"k":3}]},"a":2})");
}

TEST(JsonParse, DuplicateNamesInLargeObjects) {
  std::string text = "{";
  for (int i = 0; i < 100; ++i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += "\"k50\":0,\"a~b\":1,\"a~b\":2}";
  Document doc;
  ASSERT_TRUE(doc.Parse(text));
  ASSERT_EQ(doc.duplicates().size(), 2u);
  EXPECT_EQ(doc.duplicates()[0].pointer, "/k50");
  EXPECT_EQ(doc.duplicates()[1].pointer, "/a~0b");
  EXPECT_TRUE(doc.root().repeats_a_name());
  ASSERT_TRUE(doc.Parse(R"({"k0":{"a":1},"k1":2})"));
  EXPECT_FALSE(doc.root().repeats_a_name());
}

TEST(JsonNumbers, TheFirstNumberBeyondDoublesInDocumentOrder) {
  Document doc;
  ASSERT_TRUE(doc.Parse(R"([1, {"a": 1e999, "b": [2e999]}, 3e999])"));
  ASSERT_NE(FirstNumberBeyondDoubles(doc.root()), nullptr);
  EXPECT_EQ(FirstNumberBeyondDoubles(doc.root())->text(), "1e999");
  ASSERT_TRUE(doc.Parse(R"([1, {"a": 1e308, "b": [-2.5]}, "1e999"])"));
  EXPECT_EQ(FirstNumberBeyondDoubles(doc.root()), nullptr);
  const std::size_t depth = 100'000;  // iterative: no recursion to overflow
  ASSERT_TRUE(doc.Parse(std::string(depth, '[') + "-1e400" + std::string(depth, ']'),
                        ParseOptions{.max_depth = static_cast<std::uint32_t>(depth + 1)}));
  ASSERT_NE(FirstNumberBeyondDoubles(doc.root()), nullptr);
  EXPECT_EQ(FirstNumberBeyondDoubles(doc.root())->text(), "-1e400");
}

// A number's Value tells whether a double holds it as its text does; without an exponent and under
// 309 characters, by the mark the parser set. Values as CPython's float() reads the texts (finite
// or inf), under each front end.
TEST(JsonNumbers, AValueIsWithinDoublesAsItsTextIs) {
  const std::string e308 = "1" + std::string(308, '0');  // 309 characters, 1e308: finite
  const std::string nines = std::string(309, '9');       // 9.99...e308: inf
  const struct {
    std::string text;
    bool short_plain;
    bool within;
  } numbers[] = {{"0", true, true},           {"-0.5", true, true},
                 {"1e308", false, true},      {"1E309", false, false},
                 {"-1e400", false, false},    {"2.5e-400", false, true},
                 {e308, false, true},         {nines, false, false},
                 {"-" + nines, false, false}, {std::string(308, '9'), true, true}};
  for (const FrontEnd front_end : {FrontEnd::kSimd, FrontEnd::kRapidJson}) {
    SetFrontEnd(front_end);
    for (const auto& n : numbers) {
      Document doc;
      ASSERT_TRUE(doc.Parse("[" + n.text + "]")) << n.text;
      const Value& number = doc.root().items()[0];
      EXPECT_EQ(number.is_short_plain_number(), n.short_plain) << n.text;
      EXPECT_EQ(IsWithinDoubles(number), n.within) << n.text;
      EXPECT_EQ(IsWithinDoubles(number.text()), n.within) << n.text;
    }
  }
  SetFrontEnd(FrontEnd::kSimd);
}

// Document::numbers_seen().beyond_short_integers is false only when every number is written as an
// integer of at most 15 digits, all of them below 2^53 = 9007199254740992 (16 digits); a check for
// floats and huge integers skips its walk then. Under each front end, and in a document reused.
TEST(JsonNumbers, TheParseTellsWhetherEveryNumberIsAShortInteger) {
  const struct {
    std::string_view text;
    bool beyond;
  } documents[] = {
      {R"({"a":0,"b":[-999999999999999,"1.5","1e400"],"c":{"d":123456789012345}})", false},
      {R"([true,null,"9007199254740993",{}])", false},
      {"[1,2.0]", true},
      {R"({"a":[[1E2]]})", true},
      {"[-0.0]", true},
      {"[1000000000000000]", true},  // 16 digits: the walk decides (it is below 2^53)
      {"[9007199254740993]", true},
      {"[-9007199254740993]", true},
      {"[0]", false},
  };
  for (const FrontEnd front_end : {FrontEnd::kSimd, FrontEnd::kRapidJson}) {
    SetFrontEnd(front_end);
    Document doc;
    for (const auto& d : documents) {
      ASSERT_TRUE(doc.Parse(d.text)) << d.text;
      EXPECT_EQ(doc.numbers_seen().beyond_short_integers, d.beyond) << d.text;
    }
  }
  SetFrontEnd(FrontEnd::kSimd);
}

// The Document overload skips the walk when the parser saw no exponent and no 309-character number:
// it must find what the walk finds, also in a document reused after one that had such a number.
TEST(JsonNumbers, TheDocumentsNumberFlagNeverHidesANumberBeyondTheDoubles) {
  const std::string digits309 = "1" + std::string(308, '0') + "0";  // 1e309
  const std::string digits308 = std::string(308, '9');              // below DBL_MAX
  Document doc;
  for (const std::string& text :
       {std::string("[1e999]"), std::string("{\"a\":[2E400]}"), std::string("[1, -1e-999]"),
        "[" + digits309 + "]", "[" + digits308 + "]", std::string("[1e2, 3]"),
        std::string("[1, 2.5, \"1e999\"]"), std::string("{}"), std::string("[1e999")}) {
    doc.Parse(text);
    EXPECT_EQ(FirstNumberBeyondDoubles(doc), FirstNumberBeyondDoubles(doc.root())) << text;
  }
  ASSERT_TRUE(doc.Parse("[" + digits309 + "]"));
  ASSERT_NE(FirstNumberBeyondDoubles(doc), nullptr);
  EXPECT_EQ(FirstNumberBeyondDoubles(doc)->text(), digits309);
  ASSERT_TRUE(doc.Parse("[1e999]"));
  ASSERT_TRUE(doc.Parse("[1]"));
  EXPECT_EQ(FirstNumberBeyondDoubles(doc), nullptr);
}

TEST(JsonParse, EmptyNameIsAMemberName) {
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"":{"":1,"":2}})"));
  ASSERT_EQ(doc.duplicates().size(), 1u);
  EXPECT_EQ(doc.duplicates()[0].pointer, "//");
}

TEST(JsonParse, LoneSurrogatesAreRejected) {
  // RapidJSON 1.1.0 accepts a lone low surrogate even when validating encoding.
  rapidjson::Document raw;
  raw.Parse<rapidjson::kParseValidateEncodingFlag>(R"(["\udc00"])");
  EXPECT_FALSE(raw.HasParseError()) << "RapidJSON defect gone?";

  EXPECT_EQ(ParseCode(R"(["\udc00"])"), ErrorCode::kLoneSurrogate);
  EXPECT_EQ(ParseCode(R"({"\udfff":1})"), ErrorCode::kLoneSurrogate);
  EXPECT_EQ(ParseCode(R"(["\ud800"])"), ErrorCode::kLoneSurrogate);
  EXPECT_EQ(ParseCode(R"(["\ud800x"])"), ErrorCode::kLoneSurrogate);
  EXPECT_EQ(ParseCode(R"(["\udc00\ud800"])"), ErrorCode::kLoneSurrogate);
  Document doc;
  ASSERT_TRUE(doc.Parse(R"(["\ud83d\ude00"])"));
  EXPECT_EQ(doc.root().items()[0].text(), "\xF0\x9F\x98\x80");
}

TEST(JsonParse, InvalidUtf8IsRejected) {
  for (std::string bad : {std::string("\x80"), std::string("\xC0\xAF"), std::string("\xE0\x80\xAF"),
                          std::string("\xED\xA0\x80"), std::string("\xF4\x90\x80\x80"),
                          std::string("\xF5\x80\x80\x80"), std::string("\xFF"),
                          std::string("\xE2\x82"), std::string("\xC3")}) {
    EXPECT_EQ(ParseCode("[\"" + bad + "\"]"), ErrorCode::kInvalidUtf8) << "string";
    EXPECT_NE(ParseCode("[" + bad + "]"), ErrorCode::kNone) << "bare";
  }
  Document doc;
  ASSERT_TRUE(doc.Parse("[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF\"]"));
}

TEST(JsonParse, NulBytes) {
  // RapidJSON stops at a NUL; the strict layer reports it with its offset.
  Document doc;
  EXPECT_FALSE(doc.Parse(std::string_view("{\"a\":1}\0{\"b\":2}", 15)));
  EXPECT_EQ(doc.error().code, ErrorCode::kNulByte);
  EXPECT_EQ(doc.error().offset, 7u);
  EXPECT_EQ(ParseCode(std::string_view("[\"a\0\"]", 6)), ErrorCode::kNulByte);
  // The escaped form is a valid string containing U+0000.
  ASSERT_TRUE(doc.Parse(R"(["a\u0000b"])"));
  EXPECT_EQ(doc.root().items()[0].text(), std::string_view("a\0b", 3));
  EXPECT_EQ(ToString(doc.root()), R"(["a\u0000b"])");
}

TEST(JsonParse, SyntaxErrors) {
  for (const char* bad : {"{", "}", "[1,]", "{\"a\":1,}", "{'a':1}", "{a:1}", "[1 2]", "tru", "nul",
                          "\"abc", "[\"\\x\"]", "/*c*/{}", "{}//c", "[\"\\u12\"]"}) {
    EXPECT_NE(ParseCode(bad), ErrorCode::kNone) << bad;
  }
  EXPECT_EQ(ParseCode("[\"a\tb\"]"), ErrorCode::kControlCharacter);
  EXPECT_EQ(ParseCode("[\"\x1f\"]"), ErrorCode::kControlCharacter);
  EXPECT_EQ(ParseCode("[\"\\x\"]"), ErrorCode::kSyntax);
  EXPECT_EQ(ParseCode(""), ErrorCode::kEmpty);
  EXPECT_EQ(ParseCode(" \t\r\n"), ErrorCode::kEmpty);
  EXPECT_EQ(ParseCode("{}{}"), ErrorCode::kTrailingContent);
  EXPECT_EQ(ParseCode("{} x"), ErrorCode::kTrailingContent);
  EXPECT_EQ(ParseCode(" {} \r\n"), ErrorCode::kNone);
}

TEST(JsonParse, ErrorOffsets) {
  Document doc;
  EXPECT_FALSE(doc.Parse(R"({"a":1,"b":x})"));
  EXPECT_EQ(doc.error().code, ErrorCode::kSyntax);
  EXPECT_EQ(doc.error().offset, 11u);
  EXPECT_FALSE(doc.error().message.empty());
  EXPECT_FALSE(doc.Parse("{} x"));
  EXPECT_EQ(doc.error().offset, 3u);
}

TEST(JsonParse, ValuesAreBoundedWhenAsked) {
  ParseOptions options;
  options.max_values = 4;  // the array, then its elements and members, containers at their end
  EXPECT_EQ(ParseCode("[1,2,3]", options), ErrorCode::kNone);
  EXPECT_EQ(ParseCode("[1,2,3,4]", options), ErrorCode::kTooManyValues);
  EXPECT_EQ(ParseCode(R"({"a":[1],"b":2})", options), ErrorCode::kNone);
  EXPECT_EQ(ParseCode(R"({"a":[1,2],"b":2})", options), ErrorCode::kTooManyValues);
  Document doc;
  EXPECT_FALSE(doc.Parse("[0,0,0,0,0]", options));
  EXPECT_EQ(doc.error().message, "more than 4 values");
  EXPECT_EQ(ErrorCodeName(ErrorCode::kTooManyValues), "too-many-values");
}

TEST(JsonParse, DepthIsBounded) {
  ParseOptions options;
  options.max_depth = 3;
  EXPECT_EQ(ParseCode("[[[1]]]", options), ErrorCode::kNone);
  EXPECT_EQ(ParseCode("[[[[1]]]]", options), ErrorCode::kDepthExceeded);
  EXPECT_EQ(ParseCode(R"({"a":{"b":{"c":{}}}})", options), ErrorCode::kDepthExceeded);
  // Far deeper than any call stack could take, with and without a limit that allows it.
  std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  EXPECT_EQ(ParseCode(deep), ErrorCode::kDepthExceeded);
  std::string unbalanced(1000000, '[');
  EXPECT_NE(ParseCode(unbalanced), ErrorCode::kNone);
  options.max_depth = 2000000;
  Document doc;
  ASSERT_TRUE(doc.Parse(deep, options));
  std::string written = ToString(doc.root());  // the writer must not recurse either
  EXPECT_EQ(written, deep);
  Document again;
  ASSERT_TRUE(again.Parse(written, options));
  EXPECT_TRUE(Equal(doc.root(), again.root()));
}

// What a ParseObserver is shown: (name, element as written, the earlier members' names).
class RecordingObserver : public ParseObserver {
 public:
  void Element(std::string_view name, const Value& element,
               std::span<const Member> earlier) override {
    std::string names;
    for (const Member& m : earlier) names += std::string(m.name) + ";";
    shown.push_back(std::string(name) + " " + ToString(element) + " after " + names);
    values.push_back(element);
  }
  void Refusing() override { ++refusals; }
  std::vector<std::string> shown;
  std::vector<Value> values;
  int refusals = 0;
};

// On the SIMD front end, the default.
TEST(JsonParse, AnObserverIsShownEachElementOfTheTopLevelArrays) {
  RecordingObserver observer;
  ParseOptions options;
  options.observer = &observer;
  Document doc;
  ASSERT_TRUE(doc.Parse(
      R"({"a":1,"list":[{"x":"a\nb"},2,[3,{}]],"b":{"list":[9]},"c":[true],"d":[]})", options));
  EXPECT_EQ(observer.shown,
            (std::vector<std::string>{R"(list {"x":"a\nb"} after a;)", "list 2 after a;",
                                      "list [3,{}] after a;", "c true after a;list;b;"}));
  EXPECT_EQ(observer.refusals, 0);
  // What was shown is the document's own, and stays as it was shown.
  const std::span<const Value> list = doc.root().Find("list")->items();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(observer.values[0].members().data(), list[0].members().data());
  EXPECT_EQ(observer.values[0].members()[0].value.text(), "a\nb");
  EXPECT_TRUE(Equal(observer.values[2], list[2]));
  // A top-level array's elements are not members' elements.
  RecordingObserver none;
  options.observer = &none;
  ASSERT_TRUE(doc.Parse(R"([[1],{"list":[2]}])", options));
  EXPECT_TRUE(none.shown.empty());
}

TEST(JsonParse, AnObserverIsToldBeforeARefusingWalkRewritesTheText) {
  RecordingObserver observer;
  ParseOptions options;
  options.observer = &observer;
  Document doc;
  EXPECT_FALSE(doc.Parse(R"({"list":["a\nb",{"c":"d\te"}],"z":tru})", options));
  EXPECT_EQ(observer.shown.size(), 2u);
  EXPECT_EQ(observer.refusals, 1);
}

TEST(JsonParse, TheRapidJsonFrontEndShowsAnObserverNothing) {
  RecordingObserver observer;
  ParseOptions options;
  options.observer = &observer;
  Document doc;
  SetFrontEnd(FrontEnd::kRapidJson);
  const bool parsed = doc.Parse(R"({"list":[1,2]})", options);
  SetFrontEnd(FrontEnd::kSimd);
  EXPECT_TRUE(parsed);
  EXPECT_TRUE(observer.shown.empty());
}

TEST(JsonWrite, EscapesMinimallyAndWritesUtf8Raw) {
  EXPECT_EQ(RoundTrip(R"(["\u0041\u00e9\/\"\\\b\f\n\r\t\u0001\u001f\u007f"])"),
            "[\"A\xC3\xA9/\\\"\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\"]");
  std::string quoted;
  AppendQuoted(std::string_view("a\0\"", 3), &quoted);
  EXPECT_EQ(quoted, R"("a\u0000\"")");
}

TEST(JsonWrite, RoundTripIsStable) {
  const char* text =
      R"({"id":"x","n":[0,-0,1.5e-3,1E+2],"s":"\u2028 \ud83d\ude00","o":{"":null,"a":[[],{}]}})";
  std::string once = RoundTrip(text);
  EXPECT_EQ(RoundTrip(once), once);
  Document a, b;
  ASSERT_TRUE(a.Parse(text));
  ASSERT_TRUE(b.Parse(once));
  EXPECT_TRUE(Equal(a.root(), b.root()));
}

TEST(JsonEqual, ComparesStructureTextAndOrder) {
  Document a, b;
  ASSERT_TRUE(a.Parse(R"({"a":1,"b":[true]})"));
  ASSERT_TRUE(b.Parse(R"({ "a" : 1 , "b" : [ true ] })"));
  EXPECT_TRUE(Equal(a.root(), b.root()));
  for (const char* other :
       {R"({"b":[true],"a":1})", R"({"a":1.0,"b":[true]})", R"({"a":1,"b":[false]})",
        R"({"a":1,"b":[true,null]})", R"({"a":"1","b":[true]})", R"({"a":1})"}) {
    ASSERT_TRUE(b.Parse(other));
    EXPECT_FALSE(Equal(a.root(), b.root())) << other;
  }
}

TEST(JsonPointer, EscapesTokens) {
  std::string out;
  AppendPointerToken("a/b~c", &out);
  EXPECT_EQ(out, "a~1b~0c");
}

// The first match in document order (a container before what it holds, members in text order), its
// tokens escaped; "" for the root; nothing without a match; any depth, without recursion.
TEST(JsonPointer, FirstPointerWhereFindsTheFirstMatchInDocumentOrder) {
  const auto is_float = [](const Value& v) {
    return v.is_number() && v.text().find_first_of(".eE") != std::string_view::npos;
  };
  const auto is_array = [](const Value& v) { return v.is_array(); };
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"a":[1,{"x":2,"b~/c":2.5}],"d":3.0,"e":[]})"));
  EXPECT_EQ(FirstPointerWhere(doc.root(), is_float), "/a/1/b~0~1c");
  EXPECT_EQ(FirstPointerWhere(doc.root(), is_array), "/a");
  EXPECT_EQ(FirstPointerWhere(doc.root(), [](const Value& v) { return v.is_object(); }), "");
  EXPECT_EQ(FirstPointerWhere(doc.root(), [](const Value& v) { return v.is_null(); }),
            std::nullopt);
  ASSERT_TRUE(doc.Parse(R"([[],[[1e3]]])"));
  EXPECT_EQ(FirstPointerWhere(doc.root(), is_float), "/1/0/0");
  ASSERT_TRUE(doc.Parse("0.5"));
  EXPECT_EQ(FirstPointerWhere(doc.root(), is_float), "");

  constexpr int kDepth = 100000;
  ParseOptions deep;
  deep.max_depth = kDepth + 1;
  ASSERT_TRUE(doc.Parse(std::string(kDepth, '[') + "0.1" + std::string(kDepth, ']'), deep));
  std::string expected;
  for (int i = 0; i < kDepth; ++i) expected += "/0";
  EXPECT_EQ(FirstPointerWhere(doc.root(), is_float), expected);
}

TEST(JsonDocument, ReuseDiscardsPreviousContent) {
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"a":"first"})"));
  EXPECT_FALSE(doc.Parse("{"));
  EXPECT_TRUE(doc.root().is_null());
  ASSERT_TRUE(doc.Parse(R"({"b":"second","b":1})"));
  EXPECT_EQ(doc.duplicates().size(), 1u);
  ASSERT_TRUE(doc.Parse(R"({"c":"third"})"));
  EXPECT_TRUE(doc.duplicates().empty());
  EXPECT_EQ(doc.root().Find("c")->text(), "third");
}

// The document parses its own copy of the text in situ: values must not depend on the caller's
// text, escapes decode in place, and a longer text after a shorter one grows the copy.
TEST(JsonDocument, ValuesOutliveTheTextAndDecodeInPlace) {
  Document doc;
  {
    std::string text = R"({"k\u0041\n":"v\"\u00e9\ud83d\ude00\\","n":-1.5e3,"a":["x\/y",7]})";
    ASSERT_TRUE(doc.Parse(text)) << doc.error().message;
    std::fill(text.begin(), text.end(), '#');
  }
  const Value& root = doc.root();
  ASSERT_EQ(root.members().size(), 3u);
  EXPECT_EQ(root.members()[0].name, "kA\n");
  EXPECT_EQ(root.members()[0].value.text(), "v\"\xC3\xA9\xF0\x9F\x98\x80\\");
  EXPECT_EQ(root.Find("n")->text(), "-1.5e3");
  EXPECT_EQ(root.Find("a")->items()[0].text(), "x/y");
  EXPECT_EQ(root.Find("a")->items()[1].text(), "7");

  const std::string longer = R"({"s":")" + std::string(100000, 'z') + R"(","t":"\t"})";
  ASSERT_TRUE(doc.Parse(longer));
  EXPECT_EQ(doc.root().Find("s")->text(), std::string(100000, 'z'));
  EXPECT_EQ(doc.root().Find("t")->text(), "\t");
  ASSERT_TRUE(doc.Parse(R"(["short"])"));
  EXPECT_EQ(doc.root().items()[0].text(), "short");
}

// A truncated multi-byte sequence at the very end of the text: RapidJSON's validation reads the
// continuation bytes it expects before judging them, past the end of the text (json.cc pads the
// copy for it). Under ASan (unoptimized: -O1 may drop the stray loads) an over-read shows here.
TEST(JsonParse, TruncatedUtf8AtTheEnd) {
  for (std::string tail : {"\xF0", "\xF1", "\xF4\x8F", "\xE2", "\xC3", "\xF0\x9F\x98"}) {
    EXPECT_EQ(ParseCode("[\"" + tail), ErrorCode::kInvalidUtf8) << "string";
    EXPECT_EQ(ParseCode("{\"" + tail), ErrorCode::kInvalidUtf8) << "name";
    EXPECT_NE(ParseCode("[" + tail), ErrorCode::kNone) << "bare";
  }
}

}  // namespace
}  // namespace arcs::json

namespace arcs::json {
namespace {

using ::arcs::testing::EscapedSlowly;

TEST(JsonWrite, AppendQuotedAsciiWritesWhatPythonsEnsureAsciiWrites) {
  // python3 -c 'import json; print(json.dumps("a\u00e9\U0001F600\n\"\x7f\x01"))'
  std::string quoted;
  AppendQuotedAscii("a\xC3\xA9\xF0\x9F\x98\x80\n\"\x7F\x01", &quoted);
  EXPECT_EQ(quoted, R"("a\u00e9\ud83d\ude00\n\"\u007f\u0001")");
}

// AppendQuoted scans 16, 32 or 64 bytes at a time: every special byte at every offset of strings
// of every length around those widths is escaped as the byte-at-a-time rule says.
TEST(JsonWrite, AppendQuotedEscapesAtEveryOffset) {
  for (char special : {'"', '\\', '\0', '\x01', '\x1f', '\n'}) {
    for (std::size_t length = 1; length <= 150; length += length < 40 ? 1 : 7) {
      for (std::size_t at = 0; at < length; ++at) {
        std::string s(length, 'a');
        s[at] = special;
        if (length > 2) s[length / 2 == at ? 0 : length / 2] = '\xc3';  // a byte over 0x7f
        std::string out;
        AppendQuoted(s, &out);
        ASSERT_EQ(out, EscapedSlowly(s)) << "length " << length << " at " << at;
      }
    }
  }
  // Strings with nothing to escape, of every length around the short ones written as they are,
  // with the bytes next to those escaped (space, DEL, '~', bytes over 0x7f).
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string s;
    for (std::size_t i = 0; i < length; ++i) s += " \x7f~\xc3\xa9#"[i % 6];
    std::string out = "{";
    AppendQuoted(s, &out);
    ASSERT_EQ(out, "{" + EscapedSlowly(s)) << "length " << length;
  }
  // Escapes six times as long as their byte, everywhere or every few bytes, after what the output
  // already held: the output grows past any room made for the string as it stands.
  for (std::size_t length = 0; length <= 400; length += 13) {
    for (std::size_t every : {1, 2, 5, 63, 64, 65}) {
      std::string s;
      for (std::size_t i = 0; i < length; ++i) {
        s += i % every == 0 ? static_cast<char>(i % 0x20) : static_cast<char>('a' + i % 26);
      }
      std::string out = "[1,";
      AppendQuoted(s, &out);
      ASSERT_EQ(out, "[1," + EscapedSlowly(s)) << "length " << length << " every " << every;
    }
  }
}

// Escapes of both lengths side by side, several to a block, in random text: 20,000 strings of up to
// 300 bytes drawn from plain ASCII, the bytes with a two-character escape, the other controls
// (\u00XX), bytes over 0x7f, and any byte.
TEST(JsonWrite, AppendQuotedEscapesRandomTextAsTheByteAtATimeRuleDoes) {
  constexpr std::string_view kTwoCharacter = "\"\\\b\f\n\r\t";
  Xoshiro256 random(29);
  for (int round = 0; round < 20'000; ++round) {
    std::string s(random.Next() % 301, '\0');
    for (char& c : s) {
      const std::uint64_t draw = random.Next();
      switch (draw % 5) {
        case 0:
          c = static_cast<char>('a' + draw / 5 % 26);
          break;
        case 1:
          c = kTwoCharacter[draw / 5 % kTwoCharacter.size()];
          break;
        case 2:
          c = static_cast<char>(draw / 5 % 0x20);
          break;
        case 3:
          c = static_cast<char>(0x80 + draw / 5 % 0x80);
          break;
        default:
          c = static_cast<char>(draw / 5);
      }
    }
    std::string out = "x";
    AppendQuoted(s, &out);
    ASSERT_EQ(out, "x" + EscapedSlowly(s)) << "round " << round;
  }
}

}  // namespace
}  // namespace arcs::json

namespace arcs::json {
namespace {

using ::arcs::testing::EscapedSlowly;

// The parser skips runs of plain bytes 16 at a time and, once an escape has shortened the decoded
// string, moves them down to where the decoded bytes go: an escape at every offset, around that
// width, decodes as one at a time would. A string is escape free only when its source had none.
TEST(JsonParse, EscapesAtEveryOffsetDecodeInPlace) {
  for (std::size_t length = 1; length <= 40; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      std::string source(length, 'p');
      std::string decoded = source;
      source.replace(at, 1, R"(\n)");
      source += R"(\u00e9)" + std::string(length, 'q');
      decoded[at] = '\n';
      decoded += "\xC3\xA9" + std::string(length, 'q');
      Document doc;
      ASSERT_TRUE(doc.Parse("[\"" + source + "\",\"" + std::string(length, 'r') + "\"]"));
      EXPECT_EQ(doc.root().items()[0].text(), decoded) << length << " " << at;
      EXPECT_FALSE(doc.root().items()[0].is_escape_free());
      EXPECT_EQ(doc.root().items()[1].text(), std::string(length, 'r'));
      EXPECT_TRUE(doc.root().items()[1].is_escape_free());
    }
  }
}

// A member name is written with the comma before it unless it is the object's first, and escaped as
// AppendQuoted escapes it: short or long, plain or not.
TEST(JsonWrite, AppendMemberNameWritesACommaUnlessFirstAndEscapesTheName) {
  const std::string sixteen = "abcdefghijklmnop";
  std::string out = "{";
  AppendMemberName("", &out);
  out += "1";
  for (const std::string& name :
       {sixteen, sixteen + "q", std::string("a\"b"), std::string("\x1f"),
        std::string("\xc3\xa9\x7f"), std::string("tab\t"), std::string(sixteen + "\n")}) {
    const std::size_t before = out.size();
    AppendMemberName(name, &out);
    std::string quoted;
    AppendQuoted(name, &quoted);
    EXPECT_EQ(out.substr(before), "," + quoted + ":") << name;
    out += "null";
  }
  out += "}";
  Document doc;
  ASSERT_TRUE(doc.Parse(out)) << out;
  EXPECT_EQ(doc.root().members().size(), 8u);
  EXPECT_EQ(doc.root().members()[3].name, "a\"b");
  // Names are tested for escapes in two words that overlap: every byte that needs one, and the
  // bytes either side of those (0x1f and space, '!' and '#', '[' and ']'), at every offset of
  // names of every length around the words' widths.
  for (char special : {'"', '\\', '\0', '\x01', '\x1f', '\n', ' ', '!', '#', '[', ']', '\xff'}) {
    for (std::size_t length = 1; length <= 18; ++length) {
      for (std::size_t at = 0; at < length; ++at) {
        std::string name(length, '~');
        name[at] = special;
        std::string written = "{";
        AppendMemberName(name, &written);
        ASSERT_EQ(written, "{" + EscapedSlowly(name) + ":") << "length " << length << " at " << at;
        AppendMemberName(name, &written);
        ASSERT_EQ(written, "{" + EscapedSlowly(name) + ":," + EscapedSlowly(name) + ":");
      }
    }
  }
}

// Strings without an escape are written as they are, from a buffer of their own up to some
// length and directly past it: every length around that of the buffer and of its moves.
TEST(JsonWrite, EscapeFreeStringsOfEveryLengthAreWrittenAsTheyAre) {
  for (std::size_t length = 0; length <= 300; ++length) {
    std::string s;
    for (std::size_t i = 0; i < length; ++i) s += static_cast<char>('a' + i % 26);
    const std::string text = "[\"" + s + "\",{\"" + s + "\":0}]";
    Document doc;
    ASSERT_TRUE(doc.Parse(text));
    ASSERT_TRUE(doc.root().items()[0].is_escape_free());
    EXPECT_EQ(ToString(doc.root()), text) << "length " << length;
  }
}

// Sorted members are appended after what the vector holds, which stays.
TEST(JsonWrite, AppendMembersSortedLastWinsKeepsWhatWasThere) {
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"b":1,"a":2,"b":3})"));
  const Member sentinel{"x", Value()};
  std::vector<const Member*> sorted = {&sentinel};
  AppendMembersSortedLastWins(doc.root(), &sorted);
  ASSERT_EQ(sorted.size(), 3u);
  EXPECT_EQ(sorted[0], &sentinel);
  EXPECT_EQ(sorted[1]->name, "a");
  EXPECT_EQ(sorted[2]->value.text(), "3");
}

// The members named `omit` are left out, every one of them, before the order is taken: an object
// in order but for its omitted member is written as it stands.
TEST(JsonWrite, AppendMembersSortedLastWinsLeavesOutTheOmittedName) {
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"a":1,"hash":2,"b":3,"hash":4,"c":5})"));
  std::vector<const Member*> sorted;
  AppendMembersSortedLastWins(doc.root(), &sorted, "hash");
  ASSERT_EQ(sorted.size(), 3u);
  EXPECT_EQ(sorted[0]->name, "a");
  EXPECT_EQ(sorted[1]->name, "b");
  EXPECT_EQ(sorted[2]->name, "c");
}

// Names in byte order whatever they share: prefixes of each other shorter and longer than 8
// bytes, NUL bytes (which sort like the end of a shorter name but are not one), bytes over 0x7f;
// the last member of a repeated name kept. Against std::string_view's order and a map.
TEST(JsonWrite, MembersSortedLastWinsOrdersNamesByTheirBytes) {
  const std::vector<std::string> alphabet = {"a", std::string(1, '\0'), "b", "\xC2\x80",
                                             "\xEF\xBF\xBF"};
  Xoshiro256 random(29);
  for (int round = 0; round < 300; ++round) {
    std::string text = "{";
    std::map<std::string, int> last;
    const int members = 1 + static_cast<int>(random.Next() % 30);
    for (int i = 0; i < members; ++i) {
      std::string name;
      for (std::uint64_t n = random.Next() % 12; n > 0; --n) {
        name += alphabet[random.Next() % alphabet.size()];
      }
      if (random.Next() % 3 == 0) name = "prefix__" + name;  // 8 bytes in common
      if (i > 0) text += ",";
      AppendQuoted(name, &text);
      text += ":" + std::to_string(i);
      last[name] = i;
    }
    text += "}";
    Document doc;
    ASSERT_TRUE(doc.Parse(text));
    const std::vector<const Member*> sorted = MembersSortedLastWins(doc.root());
    ASSERT_EQ(sorted.size(), last.size()) << text;
    auto expected = last.begin();
    for (const Member* m : sorted) {
      EXPECT_EQ(m->name, expected->first) << text;
      EXPECT_EQ(m->value.text(), std::to_string(expected->second)) << text;
      ++expected;
    }
  }
}

// Written as Write writes WriteStyle::kPython, in one walk that refuses a float wherever
// Python's json.loads would meet one: nested, at the top, in the omitted member, or in the earlier
// member of a repeated name (which the output leaves out); *out then stays as it was.
TEST(JsonWrite, WritePythonWithoutFloatsWritesAsPythonOrRefusesAnyFloat) {
  for (const char* text : {R"({"b":[1,{"z":null,"y":"\u00e9\n"}],"a":-0,"b":{"x":true}})",
                           R"([1,[[["deep"]]],{},[],"-0",123456789012345678901234567890])",
                           R"("just a string")", R"(-0)", R"({"hash":"h","a":1})"}) {
    Document doc;
    ASSERT_TRUE(doc.Parse(text));
    std::string expected = "prefix";
    Write(doc.root(), &expected, WriteStyle::kPython);
    std::string out = "prefix";
    ASSERT_TRUE(WritePythonWithoutFloats(doc.root(), "", &out)) << text;
    EXPECT_EQ(out, expected);
  }
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"hash":"h","c":[1],"a":{"hash":2},"hash":"last"})"));
  std::string out;
  ASSERT_TRUE(WritePythonWithoutFloats(doc.root(), "hash", &out));
  EXPECT_EQ(out, R"({"a":{"hash":2},"c":[1]})");
  for (const char* text : {R"(1.5)", R"(1e3)", R"([0,[[{"a":[2E-1]}]]])", R"({"a":{"b":0.0}})",
                           R"({"hash":1.5,"a":1})", R"({"a":1.5,"a":2})",
                           R"({"x":{"a":[1.0],"a":2}})", R"([{"hash":{"deep":[1e0]}}])"}) {
    ASSERT_TRUE(doc.Parse(text));
    out = "kept";
    EXPECT_FALSE(WritePythonWithoutFloats(doc.root(), "hash", &out)) << text;
    EXPECT_EQ(out, "kept");
  }
}

TEST(JsonWrite, EscapeFreeStringsAreCopiedAndOthersEscaped) {
  Document doc;
  ASSERT_TRUE(doc.Parse(R"(["plain \u00e9 \u2028","\u0041","a\"b","\u001f", "é"])"));
  const std::span<const Value> items = doc.root().items();
  for (std::size_t i = 0; i < 4; ++i) EXPECT_FALSE(items[i].is_escape_free()) << items[i].text();
  EXPECT_TRUE(items[4].is_escape_free());
  EXPECT_EQ(ToString(doc.root()),
            "[\"plain \xC3\xA9 \xE2\x80\xA8\",\"A\",\"a\\\"b\",\"\\u001f\","
            "\"\xC3\xA9\"]");
}

}  // namespace
}  // namespace arcs::json

namespace arcs::json {
namespace {

// A text the document takes is decoded in place in that very buffer (nothing copied), whatever
// its spare capacity; the document stays reusable with copied texts afterwards.
TEST(JsonDocument, ParseTakingKeepsTheTextItIsGiven) {
  for (std::size_t spare : {0, 100}) {
    std::string text = R"({"a":"x\ny","b":[1,2e3]})";
    text.reserve(text.size() + spare);
    const char* buffer = text.data();
    Document doc;
    ASSERT_TRUE(doc.ParseTaking(std::move(text)));
    EXPECT_EQ(doc.root().Find("a")->text(), "x\ny");
    EXPECT_EQ(doc.root().Find("b")->items()[1].text(), "2e3");
    if (spare > 0) {
      EXPECT_EQ(doc.root().Find("a")->text().data(), buffer + 6);
    }
    ASSERT_TRUE(doc.Parse(R"(["again"])"));
    EXPECT_EQ(doc.root().items()[0].text(), "again");
  }
  Document doc;
  EXPECT_FALSE(doc.ParseTaking(std::string("[1,]")));
  EXPECT_EQ(doc.error().code, ErrorCode::kSyntax);
  EXPECT_FALSE(doc.ParseTaking(std::string("[\"\x01\"]")));
  EXPECT_EQ(doc.error().code, ErrorCode::kControlCharacter);
}

// A text is parsed where it stands and not one byte of it changes: strings without an escape point
// into it, the others are decoded into the document's storage. Either way the decision is
// Parse()'s.
TEST(JsonDocument, ParseBorrowingReadsTheTextWhereItStandsAndNeverWritesIt) {
  const std::string plain = "{\"a\":\"xy\",\"b\":[1,2e3,\"\xc3\xa9\"],\"a\":true}";
  const std::string before = plain;
  Document doc;
  ASSERT_TRUE(doc.ParseBorrowing(plain));
  EXPECT_EQ(plain, before);
  EXPECT_EQ(doc.root().members()[0].value.text().data(), plain.data() + 6);
  EXPECT_EQ(doc.root().Find("b")->items()[2].text(), "\xc3\xa9");
  ASSERT_EQ(doc.duplicates().size(), 1u);
  EXPECT_EQ(doc.ReleaseText(), "");  // the caller's text is not the document's to hand over

  const std::string escaped = R"({"a":"x\ny"})";
  ASSERT_TRUE(doc.ParseBorrowing(escaped));
  EXPECT_EQ(escaped, R"({"a":"x\ny"})");
  EXPECT_EQ(doc.root().Find("a")->text(), "x\ny");
  EXPECT_FALSE(doc.root().Find("a")->text().data() >= escaped.data() &&
               doc.root().Find("a")->text().data() < escaped.data() + escaped.size());
}

TEST(JsonDocument, ParseBorrowingDecidesAsParseDoes) {
  for (std::string_view text :
       {std::string_view("[1,]"), std::string_view("{\"a\":1,\"b\":x}"), std::string_view("\"abc"),
        std::string_view("[\"a\tb\"]"), std::string_view("{} x"), std::string_view(""),
        std::string_view("[\"\xff\"]"), std::string_view("[\"\xf0\""), std::string_view("01"),
        std::string_view("[\"a\0\"]", 6), std::string_view("[[[1]]]"), std::string_view(" 7 ")}) {
    ParseOptions shallow;
    shallow.max_depth = 2;
    Document copied, borrowing;
    const std::string owned(text);
    const bool accepted = copied.Parse(text, shallow);
    EXPECT_EQ(borrowing.ParseBorrowing(owned, shallow), accepted) << text;
    EXPECT_EQ(owned, text);
    EXPECT_EQ(borrowing.error().code, copied.error().code) << text;
    EXPECT_EQ(borrowing.error().offset, copied.error().offset) << text;
    if (accepted) {
      EXPECT_TRUE(Equal(borrowing.root(), copied.root())) << text;
    }
  }
}

// A borrowed text of 8 MiB or more has its strings decoded into one block taken at the first escape
// (its pages faulted in ahead): decided as Parse() decides a copy, in a document used again for a
// text of the same kind (the block kept has the room) and for one whose values outgrow the block
// (a million escaped one-byte strings take more room as values than as text).
TEST(JsonDocument, ALargeBorrowedTextIsDecidedAsACopyIs) {
  std::string escaped = "{\"plain\":\"" + std::string(1 << 20, 'p') + "\",\"lines\":[";
  for (int i = 0; escaped.size() < (std::size_t{9} << 20); ++i) {
    escaped += "\"line " + std::to_string(i) + "\\n\\u00e9\\\"" + std::string(i % 300, 'x') + "\",";
  }
  escaped += "{\"a\":1,\"a\":\"\\t\"}]}";
  std::string tiny = "[";
  while (tiny.size() < (std::size_t{9} << 20)) tiny += "\"\\n\",";
  tiny += "0]";
  std::string shifted = escaped;
  shifted.replace(shifted.find("line 0"), 6, "line -");
  Document borrowing;
  for (const std::string* text : {&escaped, &shifted, &tiny}) {
    const std::string before = *text;
    Document copied;
    ASSERT_TRUE(copied.Parse(*text));
    ASSERT_TRUE(borrowing.ParseBorrowing(*text));
    EXPECT_EQ(*text, before);
    EXPECT_TRUE(Equal(borrowing.root(), copied.root()));
    ASSERT_EQ(borrowing.duplicates().size(), copied.duplicates().size());
  }
}

// A borrowed text need not be followed by anything readable: each text here ends on the last byte
// of a page whose next page cannot be read, and is decided as Parse() decides a copy of it, strings
// of every length ending there, escapes of every kind cut off by the end, and every token that may
// end a text (a number's scan reads past it, so such a text is copied). Under ARCS_SIMD's other
// paths (the test's variants) each string decoder is taken.
TEST(JsonDocument, ParseBorrowingReadsNothingPastTheText) {
  const long page = sysconf(_SC_PAGESIZE);
  void* const pages =
      mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  char* const guard = static_cast<char*>(pages) + page;
  ASSERT_EQ(mprotect(guard, page, PROT_NONE), 0);
  std::vector<std::string> texts = {"{\"a\":[1,true]}",
                                    "[\"abc",
                                    "[\"a\\",
                                    "[\"a\\u00",
                                    "[\"a\\u00e9\"]",
                                    "[\"\\ud83d\\ude00\"] ",
                                    "[tru",
                                    "[1",
                                    "1",
                                    "-",
                                    "[1e",
                                    "{\"a\":null}",
                                    "\"\xe2\x82\"",
                                    "[\"\xff\"]"};
  for (std::size_t length = 1; length < 200; length += 13) {
    std::string body;
    for (std::size_t k = 0; k < length; ++k) body += "ab\\n\\u00e9"[k % 11];
    texts.push_back("[\"" + body + "\"]");
    texts.push_back("{\"k\":\"" + body.substr(0, length / 2) + "\"}");
  }
  for (const std::string& text : texts) {
    for (const BadUnicode bad : {BadUnicode::kRefuse, BadUnicode::kReplaceAsGo}) {
      ParseOptions options;
      options.bad_unicode = bad;
      char* const at = guard - text.size();
      std::memcpy(at, text.data(), text.size());
      Document copied, borrowing;
      const bool accepted = copied.Parse(text, options);
      EXPECT_EQ(borrowing.ParseBorrowing({at, text.size()}, options), accepted) << text;
      EXPECT_EQ(std::string_view(at, text.size()), text);
      EXPECT_EQ(borrowing.error().code, copied.error().code) << text;
      EXPECT_EQ(borrowing.error().offset, copied.error().offset) << text;
      if (accepted) {
        EXPECT_TRUE(Equal(borrowing.root(), copied.root())) << text;
      }
    }
  }
  munmap(pages, 2 * page);
}

// A text in a caller's buffer is parsed where it stands: its strings point into the buffer, the
// room after it takes the padding, and not a byte beyond the room is written. Its verdicts, errors
// and values are Parse()'s, under either reading of bad Unicode.
TEST(JsonDocument, ParseInBufferDecidesAsParseDoesWithoutCopying) {
  constexpr char kBeyond = '#';
  for (std::string_view text :
       {std::string_view(R"({"a":"x\ny","b":[1,2e3,"\u00e9"],"a":true})"), std::string_view("[1,]"),
        std::string_view("{\"a\":1,\"b\":x}"), std::string_view("\"abc"),
        std::string_view("[\"a\tb\"]"), std::string_view("{} x"), std::string_view(""),
        std::string_view("[\"\xff\"]"), std::string_view("[\"\xf0\""), std::string_view("01"),
        std::string_view("[\"a\0\"]", 6), std::string_view("[[[1]]]"), std::string_view(" 7 "),
        std::string_view(R"(["\ud800"])"), std::string_view("[\"a\xE2\x82\"]")}) {
    for (const BadUnicode bad : {BadUnicode::kRefuse, BadUnicode::kReplaceAsGo}) {
      ParseOptions options;
      options.max_depth = 2;
      options.bad_unicode = bad;
      Document copied, in_buffer;
      std::string buffer(text);
      buffer.append(Document::kTakenTextSpare, kBeyond).push_back(kBeyond);
      const bool accepted = copied.Parse(text, options);
      EXPECT_EQ(in_buffer.ParseInBuffer(buffer.data(), text.size(), options), accepted) << text;
      EXPECT_EQ(buffer.back(), kBeyond) << text;
      EXPECT_EQ(in_buffer.error().code, copied.error().code) << text;
      EXPECT_EQ(in_buffer.error().offset, copied.error().offset) << text;
      if (!accepted) continue;
      EXPECT_TRUE(Equal(in_buffer.root(), copied.root())) << text;
      if (in_buffer.replaced_ill_formed_utf8()) continue;  // repaired: read from a copy
      const Value& first =
          in_buffer.root().is_object() ? in_buffer.root().members()[0].value : in_buffer.root();
      if (first.is_string()) {
        EXPECT_GE(first.text().data(), buffer.data()) << text;
        EXPECT_LT(first.text().data(), buffer.data() + text.size()) << text;
      }
      EXPECT_EQ(in_buffer.ReleaseText(), "") << text;  // the caller's buffer
    }
  }
}

}  // namespace
}  // namespace arcs::json

namespace arcs::json {
namespace {

// BadUnicode::kReplaceAsGo reads text as Go's encoding/json does: each byte of ill-formed UTF-8
// becomes U+FFFD (utf8.DecodeRune yields RuneError one byte at a time), and so does each \u
// escape of a surrogate without its partner; a pair stays one character. kRefuse refuses both.
TEST(JsonParse, BadUnicodeCanBeReadAsGoReadsIt) {
  const ParseOptions as_go{.bad_unicode = BadUnicode::kReplaceAsGo};
  const std::string fffd = "\xEF\xBF\xBD";
  struct Case {
    std::string text, decoded;
  };
  const Case cases[] = {
      {"[\"a\xE2\x82"
       "b\"]",
       "a" + fffd + fffd + "b"},                              // a truncated sequence: two bytes
      {"[\"\xC0\xAF\"]", fffd + fffd},                        // overlong
      {"[\"\xED\xA0\x80\"]", fffd + fffd + fffd},             // an encoded surrogate
      {"[\"\xF4\x90\x80\x80\"]", fffd + fffd + fffd + fffd},  // past U+10FFFF
      {R"(["\ud800"])", fffd},                                // a lone high surrogate
      {R"(["\udc00x"])", fffd + "x"},                         // a lone low surrogate
      {R"(["\uD800"])", fffd},                                // upper-case hex
      {R"(["x\uDFFF"])", "x" + fffd},                         // upper-case hex
      {R"(["\ud800\u0041"])", fffd + "A"},                    // a high one, then not a low one
      {R"(["\udc00\ud800"])", fffd + fffd},                   // the wrong order
      {R"(["\ud83d\ude00"])", "\xF0\x9F\x98\x80"},            // a pair
      {R"(["\\ud800"])", "\\ud800"},                          // an escaped backslash, then text
      {R"(["\"\ud800"])", "\"" + fffd},                       // after an escaped quote
      {"[\"\xC3\xA9\"]", "\xC3\xA9"},                         // well-formed: unchanged
  };
  for (const Case& c : cases) {
    Document doc;
    ASSERT_TRUE(doc.Parse(c.text, as_go)) << c.text << ": " << doc.error().message;
    EXPECT_EQ(doc.root().items()[0].text(), c.decoded) << c.text;
    EXPECT_FALSE(Document().Parse(c.text) && c.decoded.find(fffd) != std::string::npos) << c.text;
  }
  Document doc;
  ASSERT_TRUE(doc.ParseTaking(R"({"\udfff":1})", as_go));
  EXPECT_EQ(doc.root().members()[0].name, fffd);
  EXPECT_FALSE(doc.Parse("[\xFF]", as_go));  // outside a string it is still not JSON
  EXPECT_EQ(doc.error().code, ErrorCode::kSyntax);
}

}  // namespace
}  // namespace arcs::json
