#include "reference/mcp_record_replay/jsonrpc.h"

#include <gtest/gtest.h>

namespace arcs::mcp_record_replay {
namespace {

// The expectations are JSON-RPC 2.0's (https://www.jsonrpc.org/specification, §4 and §5).
Classified Of(std::string_view text, json::Document* doc) {
  EXPECT_TRUE(doc->Parse(text)) << text;
  return Classify(doc->root());
}

struct Case {
  std::string_view text;
  MessageKind kind;
  std::size_t problems;
  std::size_t cautions = 0;
};

TEST(JsonRpcTest, KindsAndProblems) {
  const Case cases[] = {
      {R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})", MessageKind::kRequest, 0},
      {R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})", MessageKind::kRequest, 0},
      {R"({"jsonrpc":"2.0","method":"notifications/initialized"})", MessageKind::kNotification, 0},
      {R"({"jsonrpc":"2.0","id":1,"result":{}})", MessageKind::kResponse, 0},
      {R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})",
       MessageKind::kError, 0},
      {R"({"jsonrpc":"2.0","id":1,"method":"m","params":"x"})", MessageKind::kRequest, 1},
      {R"({"jsonrpc":"1.0","id":1,"method":"m"})", MessageKind::kRequest, 1},
      {R"({"id":1,"method":"m"})", MessageKind::kRequest, 1},
      {R"({"jsonrpc":"2.0","id":{},"method":"m"})", MessageKind::kRequest, 1},
      {R"({"jsonrpc":"2.0","id":1,"method":7})", MessageKind::kRequest, 1},
      {R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}})",
       MessageKind::kError, 1},
      {R"({"jsonrpc":"2.0","result":1})", MessageKind::kResponse, 1},
      {R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":2}})", MessageKind::kError, 2},
      {R"({"jsonrpc":"2.0","id":1,"error":{"code":-32000.0,"message":"m"}})", MessageKind::kError,
       0},
      {R"({"jsonrpc":"2.0","id":1})", MessageKind::kInvalid, 1},
      {R"([1])", MessageKind::kInvalid, 1},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"m"})", MessageKind::kRequest, 0, 1},
      {R"({"jsonrpc":"2.0","id":null,"method":"m"})", MessageKind::kRequest, 0, 1},
  };
  for (const Case& c : cases) {
    json::Document doc;
    const Classified got = Of(c.text, &doc);
    EXPECT_EQ(got.kind, c.kind) << c.text;
    EXPECT_EQ(got.problems.size(), c.problems) << c.text;
    EXPECT_EQ(got.cautions.size(), c.cautions) << c.text;
  }
}

TEST(JsonRpcTest, RequestsKeepTheirMethodIdAndParams) {
  json::Document doc;
  const Classified c = Of(R"({"jsonrpc":"2.0","id":"x","method":"tools/call","params":[1]})", &doc);
  EXPECT_EQ(c.method, "tools/call");
  ASSERT_NE(c.id, nullptr);
  EXPECT_EQ(c.id->text(), "x");
  ASSERT_NE(c.params, nullptr);
  EXPECT_TRUE(c.params->is_array());
}

}  // namespace
}  // namespace arcs::mcp_record_replay
