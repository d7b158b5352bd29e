#include "reference/mcp_record_replay/redaction.h"

#include <gtest/gtest.h>

#include <string>

#include "reference/core/json.h"

namespace arcs::mcp_record_replay {
namespace {

Redactor Make(const RedactionRules& rules) {
  Result<Redactor> r = Redactor::Create(rules);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return std::move(*r);
}

// The message `text` redacted: its new text, or "(unchanged)".
std::string RedactedText(const Redactor& redactor, std::string_view text,
                         bool* secret_left = nullptr) {
  json::Document doc;
  EXPECT_TRUE(doc.Parse(text)) << text;
  const RedactedMessage r = redactor.RedactMessage(doc.root());
  if (secret_left) *secret_left = r.secret_left;
  return r.msg.value_or("(unchanged)");
}

TEST(RedactorTest, ReplacesAnEnvironmentValueInStringValuesAfterDecodingEscapes) {
  const Redactor redactor = Make({{{"TOKEN", "secret"}}, {}});
  // Escaped, the value is still found: the decoded content is what is searched.
  EXPECT_EQ(RedactedText(redactor, R"({"jsonrpc":"2.0","id":1,"method":"tools/call",)"
                                   R"("params":{"arguments":{"key":"\u0073ecret-1","n":1.0},)"
                                   R"("list":["a secret","plain",null,true]}})"),
            R"({"jsonrpc":"2.0","id":1,"method":"tools/call",)"
            R"("params":{"arguments":{"key":"[REDACTED:TOKEN]-1","n":1.0},)"
            R"("list":["a [REDACTED:TOKEN]","plain",null,true]}})");
  // In a result or an error, as anywhere but jsonrpc, id and method.
  EXPECT_EQ(RedactedText(redactor, R"({"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":)"
                                   R"("bad secret"}})"),
            R"({"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"bad [REDACTED:TOKEN]"}})");
}

TEST(RedactorTest, LeavesAMessageWithoutMatchesAsItIs) {
  const Redactor redactor = Make({{{"TOKEN", "secret"}}, {"sk-[0-9a-f]{8}"}});
  bool secret_left = true;
  EXPECT_EQ(
      RedactedText(redactor, R"({"jsonrpc":"2.0","id":1,"result":{"x":"sk-1234"}})", &secret_left),
      "(unchanged)");
  EXPECT_FALSE(secret_left);
}

TEST(RedactorTest, NeverChangesJsonrpcIdMethodOrMemberNames) {
  const Redactor redactor = Make({{{"TOKEN", "secret"}}, {}});
  bool secret_left = false;
  EXPECT_EQ(RedactedText(redactor, R"({"jsonrpc":"2.0","id":"secret","method":"secret/x"})",
                         &secret_left),
            "(unchanged)");
  EXPECT_TRUE(secret_left);
  secret_left = false;
  EXPECT_EQ(RedactedText(redactor, R"({"jsonrpc":"2.0","method":"m","params":{"secret":"secret"}})",
                         &secret_left),
            R"({"jsonrpc":"2.0","method":"m","params":{"secret":"[REDACTED:TOKEN]"}})");
  EXPECT_TRUE(secret_left);
  // Only the message's own members are kept: deeper, an id or a method is data like any other.
  secret_left = true;
  EXPECT_EQ(RedactedText(redactor, R"({"id":1,"params":{"id":"secret","method":"secret"}})",
                         &secret_left),
            R"({"id":1,"params":{"id":"[REDACTED:TOKEN]","method":"[REDACTED:TOKEN]"}})");
  EXPECT_FALSE(secret_left);
}

TEST(RedactorTest, ReplacesPatternMatchesAfterTheValues) {
  const Redactor redactor = Make({{{"KEY", "abc"}}, {"sk-[0-9a-f]+", "[0-9]{3}-[0-9]{4}"}});
  EXPECT_EQ(redactor.Redact("key sk-00ff and sk-1 call 555-1234, abc"),
            "key [REDACTED] and [REDACTED] call [REDACTED], [REDACTED:KEY]");
  EXPECT_EQ(redactor.Redact("nothing here"), std::nullopt);
  // Bytes that are not UTF-8 are searched too (an arcs/unrecorded line).
  EXPECT_EQ(redactor.Redact("\xff"
                            "abc\xfe"),
            "\xff[REDACTED:KEY]\xfe");
}

TEST(RedactorTest, AValueHoldingAnotherIsReplacedWhole) {
  const Redactor redactor = Make({{{"SHORT", "pass"}, {"LONG", "password123"}}, {}});
  EXPECT_EQ(redactor.Redact("password123 pass"), "[REDACTED:LONG] [REDACTED:SHORT]");
}

TEST(RedactorTest, RefusesWhatCannotRedact) {
  const Result<Redactor> invalid = Redactor::Create({{}, {"a(b"}});
  ASSERT_FALSE(invalid.ok());
  EXPECT_EQ(invalid.status().code(), StatusCode::kInvalidArgument);
  // RE2's own complaint, quoted.
  EXPECT_NE(invalid.status().message().find("missing )"), std::string::npos)
      << invalid.status().message();
  const Result<Redactor> empty_match = Redactor::Create({{}, {"x*"}});
  ASSERT_FALSE(empty_match.ok());
  EXPECT_NE(empty_match.status().message().find("matches the empty string"), std::string::npos);
  const Result<Redactor> empty_value = Redactor::Create({{{"EMPTY", ""}}, {}});
  ASSERT_FALSE(empty_value.ok());
  EXPECT_NE(empty_value.status().message().find("\"EMPTY\" is empty"), std::string::npos)
      << empty_value.status().message();
}

TEST(RedactorTest, TheStatementNamesTheRulesNeverAValue) {
  const Redactor redactor = Make({{{"A", "value-a"}, {"B", "value-b"}}, {"sk-\\w+"}});
  EXPECT_EQ(redactor.Statement(), R"({"env":["A","B"],"patterns":["sk-\\w+"]})");
  EXPECT_FALSE(redactor.empty());
  EXPECT_TRUE(Make({}).empty());
}

}  // namespace
}  // namespace arcs::mcp_record_replay
