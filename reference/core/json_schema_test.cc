#include "reference/core/json_schema.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace arcs::json {
namespace {

// Each expectation below is what draft 2020-12 says of the keyword (and what Python's jsonschema
// reports); schemas/session_data/crosscheck.py compares whole files with jsonschema itself.
constexpr std::string_view kSchema = R"({
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "additionalProperties": false,
  "required": ["v", "list"],
  "properties": {
    "v": {"type": "string", "const": "1.0"},
    "when": {"type": "string", "format": "date-time"},
    "kind": {"enum": ["a", "b"]},
    "list": {"type": "array", "items": {"$ref": "#/$defs/item"}},
    "open": {"type": "object", "additionalProperties": true}
  },
  "$defs": {
    "item": {"type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}
  }
})";

// Each error of `instance` under `schema` as "location keyword @pointer", sorted.
std::vector<std::string> KeysUnder(std::string_view schema_text, std::string_view instance,
                                   RepeatedNamesRead repeated = RepeatedNamesRead::kLastWins) {
  Result<Schema> schema = Schema::Compile(schema_text);
  EXPECT_TRUE(schema.ok()) << schema.status().message();
  if (!schema.ok()) return {};
  Document doc;
  EXPECT_TRUE(doc.Parse(instance)) << doc.error().message;
  std::vector<std::string> keys;
  for (const SchemaError& e : schema->Evaluate(doc.root(), repeated)) {
    keys.push_back(e.location + " " + e.keyword + " @" + e.instance_pointer);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<std::string> Keys(std::string_view instance,
                              RepeatedNamesRead repeated = RepeatedNamesRead::kLastWins) {
  return KeysUnder(kSchema, instance, repeated);
}

using Keys_ = std::vector<std::string>;

TEST(JsonSchemaTest, ValidInstanceHasNoError) {
  EXPECT_EQ(Keys(R"({"v":"1.0","list":[{"n":"x"}],"when":"2025-01-01T00:00:00Z","kind":"b",
                   "open":{"anything":[1,{"deep":null}]}})"),
            Keys_{});
}

TEST(JsonSchemaTest, EachKeywordAtItsLocation) {
  EXPECT_EQ(Keys(R"([])"), Keys_{"# type @"});
  EXPECT_EQ(Keys(R"({"list":[]})"), Keys_{"# required @"});
  EXPECT_EQ(Keys(R"({"v":"1.0","list":[],"x":1,"y":2})"), Keys_{"# additionalProperties @"});
  EXPECT_EQ(Keys(R"({"v":1,"list":[]})"),
            (Keys_{"#/properties/v const @/v", "#/properties/v type @/v"}));
  EXPECT_EQ(Keys(R"({"v":"1.0","list":[],"kind":"c"})"), Keys_{"#/properties/kind enum @/kind"});
  EXPECT_EQ(Keys(R"({"v":"1.0","list":[],"when":"2025-02-30T00:00:00Z"})"),
            Keys_{"#/properties/when format @/when"});
  EXPECT_EQ(Keys(R"({"v":"1.0","list":[],"when":7})"), Keys_{"#/properties/when type @/when"});
}

// jsonschema's paths step through a $ref: errors are placed at the referenced definition.
TEST(JsonSchemaTest, RefLocationsAreTheDefinitions) {
  EXPECT_EQ(Keys(R"({"v":"1.0","list":[{"n":"x"},{},{"n":2},"s"]})"),
            (Keys_{"#/$defs/item required @/list/1", "#/$defs/item type @/list/3",
                   "#/$defs/item/properties/n type @/list/2/n"}));
}

TEST(JsonSchemaTest, RepeatedNamesLastWinsAsPythonReads) {
  const std::string_view doc = R"({"v":2,"v":"1.0","list":[]})";
  EXPECT_EQ(Keys(doc), Keys_{});
  EXPECT_EQ(Keys(doc, RepeatedNamesRead::kAllMembers),
            (Keys_{"#/properties/v const @/v", "#/properties/v type @/v"}));
}

TEST(JsonSchemaTest, PointersEscapeNames) {
  EXPECT_EQ(Keys(R"({"v":"1.0","list":[],"open":{"a/b":1},"open":3})"),
            Keys_{"#/properties/open type @/open"});
}

TEST(JsonSchemaTest, UnsupportedKeywordsAreRefusedNotIgnored) {
  for (std::string_view schema : {R"({"minLength": 1})", R"({"format": "email"})",
                                  R"({"maximum": 1})", R"({"$ref": "other.json#/a"})"}) {
    Result<Schema> s = Schema::Compile(schema);
    ASSERT_FALSE(s.ok()) << schema;
    EXPECT_EQ(s.status().code(), StatusCode::kUnsupported) << schema;
  }
  EXPECT_EQ(Schema::Compile(R"({"$ref": "#/$defs/none"})").status().code(),
            StatusCode::kParseError);
  EXPECT_EQ(Schema::Compile(R"([1])").status().code(), StatusCode::kParseError);
  EXPECT_EQ(Schema::Compile(R"({"pattern": "("})").status().code(), StatusCode::kParseError);
}

TEST(JsonSchemaTest, AnErrorQuotesAFewUnexpectedNamesAndCountsTheRest) {
  Result<Schema> schema = Schema::Compile(R"({"additionalProperties": false})");
  ASSERT_TRUE(schema.ok());
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1})"));
  const std::vector<SchemaError> errors =
      schema->Evaluate(doc.root(), RepeatedNamesRead::kAllMembers);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(
      errors[0].message,
      R"(additional properties are not allowed ("a", "b", "c", "d", "e", and 2 more unexpected))");
}

// Draft-07 (TJ-SPEC-010's appendix): oneOf over definitions, integer, minimum, pattern. The
// expectations are draft-07's, as Python's jsonschema reports them: one oneOf error, the
// branches' errors in its context.
constexpr std::string_view kDraft7 = R"({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "oneOf": [{"$ref": "#/definitions/a"}, {"$ref": "#/definitions/b"}],
  "definitions": {
    "a": {"type": "object", "required": ["type", "n"],
          "properties": {"type": {"const": "a"}, "n": {"type": "integer", "minimum": 0}}},
    "b": {"type": "object", "required": ["type", "v"],
          "properties": {"type": {"const": "b"}, "v": {"type": "string", "pattern": "^\\d+\\.\\d+$"}}}
  }
})";

std::vector<std::string> Draft7(std::string_view instance) {
  Result<Schema> schema = Schema::Compile(kDraft7);
  EXPECT_TRUE(schema.ok()) << schema.status().message();
  Document doc;
  EXPECT_TRUE(doc.Parse(instance)) << instance;
  std::vector<std::string> keys;
  for (const SchemaError& e : schema->Evaluate(doc.root(), RepeatedNamesRead::kLastWins)) {
    keys.push_back(e.location + " " + e.keyword);
    for (const SchemaError& c : e.context) keys.push_back("  " + c.location + " " + c.keyword);
  }
  return keys;
}

TEST(JsonSchemaTest, Draft7OneOfIntegerMinimumPattern) {
  EXPECT_EQ(Draft7(R"({"type":"a","n":0})"), Keys_{});
  EXPECT_EQ(Draft7(R"({"type":"a","n":1.0})"), Keys_{});  // an integer value, as draft-07 counts
  EXPECT_EQ(Draft7(R"({"type":"b","v":"1.0"})"), Keys_{});
  EXPECT_EQ(Draft7(R"({"type":"a","n":-1})"),
            (Keys_{"# oneOf", "  #/definitions/a/properties/n minimum",
                   "  #/definitions/b required", "  #/definitions/b/properties/type const"}));
  EXPECT_EQ(Draft7(R"({"type":"a","n":1.5})"),
            (Keys_{"# oneOf", "  #/definitions/a/properties/n type", "  #/definitions/b required",
                   "  #/definitions/b/properties/type const"}));
  EXPECT_EQ(
      Draft7(R"({"type":"b","v":"1.0.0"})"),
      (Keys_{"# oneOf", "  #/definitions/a required", "  #/definitions/a/properties/type const",
             "  #/definitions/b/properties/v pattern"}));
  EXPECT_EQ(Draft7(R"({"type":"a","n":1e400})")[1], "  #/definitions/a/properties/n type");
}

// A number without a minus sign is not compared as a double with a minimum that is not above zero:
// numbers of each sign and size against minimums below, at and above zero, written out and asked
// quietly (in a oneOf), against strtod's reading of the same texts.
TEST(JsonSchemaTest, MinimumHoldsForNumbersOfEverySign) {
  for (const char* minimum : {"-1.5", "-0", "0", "2.5", "1e-300"}) {
    const std::string bound = std::string(R"({"minimum": )") + minimum + "}";
    Result<Schema> plain = Schema::Compile(bound);
    Result<Schema> quiet = Schema::Compile(R"({"oneOf": [)" + bound + "]}");
    ASSERT_TRUE(plain.ok() && quiet.ok()) << minimum;
    for (const char* number : {"-2", "-1.5", "-1e-400", "-0", "0", "0.0", "1e-400", "1e-300", "2",
                               "2.5", "3", "1e400", "-1e400"}) {
      Document doc;
      ASSERT_TRUE(doc.Parse(number)) << number;
      const bool holds = std::strtod(number, nullptr) >= std::strtod(minimum, nullptr);
      for (const Schema* schema : {&*plain, &*quiet}) {
        EXPECT_EQ(schema->Evaluate(doc.root(), RepeatedNamesRead::kAllMembers).empty(), holds)
            << number << " against minimum " << minimum;
      }
    }
  }
}

// Which oneOf branches hold is found quietly, and the errors are written only for a oneOf that
// fails: a failing inner oneOf in a branch that does not matter leaves no error, and one in a
// failing outer oneOf is reported with its own context, as if every branch had been written out.
TEST(JsonSchemaTest, NestedOneOfReportsOnlyWhatFails) {
  Result<Schema> schema = Schema::Compile(R"({
    "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
    "$defs": {
      "a": {"type": "object", "required": ["x"],
            "properties": {"x": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}},
      "b": {"type": "object", "required": ["y"]}
    }
  })");
  ASSERT_TRUE(schema.ok()) << schema.status().message();
  auto keys = [&](std::string_view instance) {
    Document doc;
    EXPECT_TRUE(doc.Parse(instance)) << instance;
    std::vector<std::string> out;
    std::function<void(const std::vector<SchemaError>&, const std::string&)> add =
        [&](const std::vector<SchemaError>& errors, const std::string& indent) {
          for (const SchemaError& e : errors) {
            out.push_back(indent + e.location + " " + e.keyword + " @" + e.instance_pointer);
            add(e.context, indent + "  ");
          }
        };
    add(schema->Evaluate(doc.root(), RepeatedNamesRead::kLastWins), "");
    return out;
  };
  EXPECT_EQ(keys(R"({"x": 1.5, "y": 0})"), Keys_{});
  EXPECT_EQ(keys(R"({"x": 1, "y": 0})"), Keys_{"# oneOf @"});  // both branches hold
  EXPECT_EQ(keys(R"({"x": 1.5})"),
            (Keys_{"# oneOf @", "  #/$defs/a/properties/x oneOf @/x",
                   "    #/$defs/a/properties/x/oneOf/0 type @/x",
                   "    #/$defs/a/properties/x/oneOf/1 type @/x", "  #/$defs/b required @"}));
}

// A $ref beside keywords of its own: both are checked, each error at its own location, through a
// chain of definitions that hold nothing else (items -> a -> b) as through one.
TEST(JsonSchemaTest, ARefBesideOtherKeywordsChecksBoth) {
  constexpr std::string_view kRefs = R"({
    "properties": {
      "o": {"$ref": "#/$defs/needs_n", "required": ["m"]},
      "list": {"items": {"$ref": "#/$defs/a"}}
    },
    "$defs": {
      "needs_n": {"required": ["n"]},
      "a": {"$ref": "#/$defs/b"},
      "b": {"type": "string"}
    }
  })";
  EXPECT_EQ(KeysUnder(kRefs, R"({"o": {}, "list": ["x", 1]})"),
            (Keys_{"#/$defs/b type @/list/1", "#/$defs/needs_n required @/o",
                   "#/properties/o required @/o"}));
}

// additionalProperties through a $ref to false fails each other member at the false schema, not
// as additionalProperties: false would.
TEST(JsonSchemaTest, AdditionalPropertiesThroughARefToFalse) {
  EXPECT_EQ(KeysUnder(R"({"properties": {"a": {}}, "additionalProperties": {"$ref": "#/$defs/no"},
                          "$defs": {"no": false}})",
                      R"({"a": 1, "b": 2})"),
            Keys_{"#/$defs/no false @/b"});
}

TEST(JsonSchemaTest, BooleanSchemas) {
  Result<Schema> schema = Schema::Compile(R"({"properties": {"no": false, "yes": true}})");
  ASSERT_TRUE(schema.ok());
  Document doc;
  ASSERT_TRUE(doc.Parse(R"({"no": 1, "yes": 2})"));
  const std::vector<SchemaError> errors =
      schema->Evaluate(doc.root(), RepeatedNamesRead::kLastWins);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].location, "#/properties/no");
  EXPECT_EQ(errors[0].instance_pointer, "/no");
}

}  // namespace
}  // namespace arcs::json
