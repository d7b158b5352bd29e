#include "reference/session_data/session_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "reference/core/json_schema.h"

namespace arcs::session_data {
namespace {

// The ARCS base session (vectors/session_data/generate.py's base()), valid under every statement.
constexpr std::string_view kBase = R"({"schemaVersion":"1.0",
  "provider":{"id":"claude","name":"Claude Code","version":"1.0.0"},
  "sessionId":"sess-0001","createdAt":"2025-01-01T00:00:00Z","workspaceRoot":"/home/test/project",
  "exchanges":[{"exchangeId":"ex_0","messages":[
    {"role":"user","content":[{"type":"text","text":"Hello"}]},
    {"role":"agent","content":[{"type":"text","text":"Hi"}]}]}]})";

std::string With(std::string_view from, std::string_view to) {
  std::string s(kBase);
  const std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

// "statement:rule" for every error, "statement:rule!" for warnings, "statement:rule~SD-En" for an
// error that rests on an errata reading, "statement:rule?SD-En" for a note where the lenient
// reading is taken and another reading finds that; schema errors by location.
std::set<std::string> Cited(std::string text, const Limits& limits = {}) {
  std::set<std::string> out;
  const Reading reading = Reading::Read(std::move(text), limits);
  for (const Finding& f : reading.findings()) {
    const std::string id =
        f.rule_id.empty() ? f.schema_location + "#" + f.schema_keyword : f.rule_id;
    out.insert(std::string(StatementName(f.statement)) + ":" + id + (f.warning ? "!" : "") +
               (f.reading.empty() ? "" : (f.note ? "?" : "~") + f.reading));
  }
  return out;
}

using Ids = std::set<std::string>;

TEST(SessionDataTest, EmbeddedSchemaCompiles) {
  EXPECT_TRUE(json::Schema::Compile(SchemaText()).ok());
}

TEST(SessionDataTest, BaseIsValidEverywhere) {
  EXPECT_EQ(Cited(std::string(kBase)), Ids{});
  const Reading r = Reading::Read(std::string(kBase), {});
  ASSERT_EQ(r.session().exchanges.size(), 1u);
  EXPECT_EQ(r.session().exchanges[0].messages[1].content[0].text, "Hi");
  for (std::string_view choice : {"rules", "schema", "both"}) {
    EXPECT_TRUE(ValidUnder(r.findings(), choice)) << choice;
  }
}

// encoding/json fills a field from a member whose name folds to it, in document order.
TEST(SessionDataTest, GoMatchesNamesCaseInsensitively) {
  const Reading r = Reading::Read(With(R"("sessionId":"sess-0001")", R"("SESSIONID":"s2")"), {});
  EXPECT_EQ(r.session().session_id, "s2");
  // U+017F LONG S folds to S; the schema sees an unknown member and a missing one; matched
  // exactly, sessionId would be empty (a note: the exact-names reading of SD-E10 finds it).
  EXPECT_EQ(
      Cited(With(R"("sessionId")",
                 "\"\xC5\xBF"
                 "essionId\"")),
      (Ids{"rules:SD-VALIDATE-3?SD-E10", "schema:##additionalProperties", "schema:##required"}));
  // Only the folded match empties sessionId; matched exactly, the member is ignored (SD-E10).
  EXPECT_EQ(Cited(With(R"("sessionId":"sess-0001")", R"("sessionId":"sess-0001","SessionID":"")")),
            (Ids{"rules:SD-VALIDATE-3~SD-E10", "schema:##additionalProperties"}));
  // Without sessionId, exact names leave it empty too: the text settles that error.
  EXPECT_EQ(Cited(With(R"("sessionId":"sess-0001")", R"("SessionID":"")")),
            (Ids{"rules:SD-VALIDATE-3", "schema:##additionalProperties", "schema:##required"}));
}

TEST(SessionDataTest, NullIsTheZeroValueForGo) {
  EXPECT_EQ(Cited(With(R"("sessionId":"sess-0001")", R"("sessionId":null)")),
            (Ids{"rules:SD-VALIDATE-3", "schema:#/properties/sessionId#type"}));
  EXPECT_EQ(Cited(With(R"("createdAt")", R"("slug":null,"createdAt")")),
            (Ids{"schema:#/properties/slug#type"}));
  EXPECT_EQ(Cited("null"), (Ids{"rules:SD-VALIDATE-1", "rules:SD-VALIDATE-2", "rules:SD-VALIDATE-3",
                                "prose:SD-TOP-15!", "schema:##type"}));
}

TEST(SessionDataTest, WrongJsonTypeIsADecodeErrorAndValidateDoesNotRun) {
  EXPECT_EQ(Cited(With(R"("schemaVersion":"1.0")", R"("schemaVersion":1.0)")),
            (Ids{"rules:SD-TOP-1", "schema:#/properties/schemaVersion#type",
                 "schema:#/properties/schemaVersion#const"}));
  EXPECT_EQ(Cited(With(R"("role":"user")", R"("role":7)")),
            (Ids{"rules:SD-MESSAGE-3", "schema:#/$defs/message/properties/role#type",
                 "schema:#/$defs/message/properties/role#enum"}));
}

TEST(SessionDataTest, NumbersInMapsAreFloat64ForGo) {
  EXPECT_EQ(
      Cited(With(R"("exchangeId":"ex_0")", R"("exchangeId":"ex_0","metadata":{"n":[1e400]})")),
      (Ids{"rules:SD-EXCHANGE-5~SD-E14"}));
  EXPECT_EQ(Cited(With(R"("exchangeId":"ex_0")", R"("exchangeId":"ex_0","metadata":{"n":1e-400})")),
            Ids{});
}

TEST(SessionDataTest, ValidationListAndEmptyArraysAsAbsent) {
  EXPECT_EQ(Cited(With(R"({"role":"agent","content":[{"type":"text","text":"Hi"}]})",
                       R"({"role":"agent","content":[]})")),
            (Ids{"rules:SD-VALIDATE-7~SD-E15"}));
  EXPECT_EQ(Cited(With(R"({"role":"agent","content":[{"type":"text","text":"Hi"}]})",
                       R"({"role":"agent"})")),
            (Ids{"rules:SD-VALIDATE-7"}));
  EXPECT_EQ(Cited(With(R"({"role":"user","content":[{"type":"text","text":"Hello"}]})",
                       R"({"role":"user","model":"","content":[{"type":"text","text":"Hello"}]})")),
            Ids{});
  EXPECT_EQ(Cited(With(R"("type":"text","text":"Hi")", R"("type":"image","text":"Hi")")),
            (Ids{"rules:SD-VALIDATE-8", "schema:#/$defs/contentPart/properties/type#enum"}));
}

TEST(SessionDataTest, ProseBindsEveryStatement) {
  const std::string twice = With(R"({"exchangeId":"ex_0")",
                                 R"({"exchangeId":"ex_0","messages":[]},{"exchangeId":"ex_0")");
  EXPECT_EQ(Cited(twice), Ids{"prose:SD-NOTES-8~SD-E17"});
  const Reading r = Reading::Read(twice, {});
  for (std::string_view choice : {"rules", "schema", "both"}) {
    EXPECT_FALSE(ValidUnder(r.findings(), choice)) << choice;
  }
  // A description, not a constraint of either statement: a warning (errata SD-E18).
  EXPECT_EQ(Cited(With("/home/test/project", "project")), Ids{"prose:SD-TOP-15!"});
  EXPECT_EQ(Cited(With("/home/test/project", "C:/work")), Ids{});
  EXPECT_EQ(Cited(With(R"("createdAt")", R"("slug":"a/b","createdAt")")), Ids{"prose:SD-TOP-14!"});
}

TEST(SessionDataTest, StatementsSplitOnUnknownMembersAndEnums) {
  const Reading r = Reading::Read(With(R"("id":"claude")", R"("id":"aider")"), {});
  EXPECT_TRUE(ValidUnder(r.findings(), "rules"));
  EXPECT_FALSE(ValidUnder(r.findings(), "schema"));
  EXPECT_FALSE(ValidUnder(r.findings(), "both"));
}

TEST(SessionDataTest, NotJsonAndLimits) {
  EXPECT_EQ(Cited("\xEF\xBB\xBF" + std::string(kBase)), Ids{"json:SD-JSON-1~SD-E7"});
  // The text after the mark is judged too: its own errors do not rest on the reading.
  EXPECT_EQ(Cited("\xEF\xBB\xBF" + With(R"("schemaVersion":"1.0")", R"("schemaVersion":"2.0")")),
            (Ids{"json:SD-JSON-1~SD-E7", "rules:SD-VALIDATE-1",
                 "schema:#/properties/schemaVersion#const"}));
  EXPECT_EQ(Cited("\xEF\xBB\xBF{"), (Ids{"json:SD-JSON-1~SD-E7", "json:SD-JSON-1"}));
  EXPECT_EQ(Cited("[]"), (Ids{"rules:SD-JSON-1", "schema:##type"}));
  EXPECT_EQ(Cited("{"), Ids{"json:SD-JSON-1"});
  Limits shallow;
  shallow.max_json_depth = 3;
  EXPECT_EQ(Cited(std::string(kBase), shallow), Ids{"json:SD-JSON-3"});
  shallow.max_file_bytes = 10;
  EXPECT_EQ(Cited(std::string(kBase), shallow), Ids{"json:SD-JSON-3"});
}

// Go replaces ill-formed UTF-8 and reads on; the schema has no JSON text (errata SD-E8).
TEST(SessionDataTest, IllFormedUtf8SplitsTheStatements) {
  const std::string text = With("Hello", "Hel\xFFlo");
  EXPECT_EQ(Cited(text), Ids{"schema:SD-JSON-1~SD-E8"});
  const Reading r = Reading::Read(text, {});
  EXPECT_EQ(r.session().exchanges[0].messages[0].content[0].text, "Hel\xEF\xBF\xBDlo");
  EXPECT_TRUE(ValidUnder(r.findings(), "rules"));
  EXPECT_FALSE(ValidUnder(r.findings(), "schema"));
  // The value with the bytes replaced is judged by the schema all the same.
  EXPECT_EQ(Cited(With(R"("role":"user")", "\"role\":\"user\xFF\"")),
            (Ids{"rules:SD-VALIDATE-5", "schema:SD-JSON-1~SD-E8",
                 "schema:#/$defs/message/properties/role#enum"}));
}

// Asserting format is the reading assertion of SD-E13; annotation asserts nothing.
TEST(SessionDataTest, TimestampFormatRestsOnAReading) {
  EXPECT_EQ(Cited(With("2025-01-01T00:00:00Z", "20250101T000000Z")),
            Ids{"schema:#/properties/createdAt#format~SD-E13"});
}

TEST(SessionDataTest, RepeatedNamesGoAssignsInTurnPythonKeepsTheLast) {
  const std::string text = With(
      R"("provider":{"id":"claude","name":"Claude Code","version":"1.0.0"})",
      R"("provider":{"id":"claude","name":"Claude Code","version":"1.0.0"},"provider":{"id":"codex"})");
  EXPECT_EQ(Cited(text), (Ids{"json:SD-JSON-2!", "schema:#/properties/provider#required~SD-E22"}));
  EXPECT_EQ(Reading::Read(text, {}).session().provider.name, "Claude Code");
  // Two bad values: every reading of repeated names refuses the file.
  EXPECT_EQ(
      Cited(With(R"("schemaVersion":"1.0")", R"("schemaVersion":"2.0","schemaVersion":"3.0")")),
      (Ids{"json:SD-JSON-2!", "rules:SD-VALIDATE-1", "schema:#/properties/schemaVersion#const"}));
  // A good first value: the first-wins reading keeps it.
  EXPECT_EQ(
      Cited(With(R"("schemaVersion":"1.0")", R"("schemaVersion":"1.0","schemaVersion":"3.0")")),
      (Ids{"json:SD-JSON-2!", "rules:SD-VALIDATE-1~SD-E22",
           "schema:#/properties/schemaVersion#const~SD-E22"}));
}

TEST(SessionDataTest, RuleIdsAreUnique) {
  std::vector<std::string_view> ids = RuleIds();
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  EXPECT_EQ(ids.size(), 6u + 10u + 8u + 3u + 5u + 8u + 2u + 7u);
}

}  // namespace
}  // namespace arcs::session_data
