#include "reference/mcp_record_replay/jsonrpc.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <random>
#include <string>

namespace arcs::mcp_record_replay {
namespace {

// The expectations are JSON-RPC 2.0's (https://www.jsonrpc.org/specification, §4 and §5) and the
// kinds errata MRR-E26 tells apart.
using D = Departure;

struct Case {
  std::string_view text;
  MessageKind kind;
  std::vector<Departure> departures;
};

TEST(JsonRpcTest, KindsAndDepartures) {
  const Case cases[] = {
      {R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})", MessageKind::kRequest, {}},
      {R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})", MessageKind::kRequest, {}},
      {R"({"jsonrpc":"2.0","method":"notifications/initialized"})", MessageKind::kNotification, {}},
      {R"({"jsonrpc":"2.0","id":1,"result":{}})", MessageKind::kResponse, {}},
      {R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})",
       MessageKind::kError,
       {}},
      {R"({"jsonrpc":"2.0","id":1,"error":{"code":-32000.0,"message":"m"}})",
       MessageKind::kError,
       {}},
      {R"({"jsonrpc":"2.0","id":1,"method":"m","params":"x"})",
       MessageKind::kRequest,
       {D::kParamsType}},
      {R"({"jsonrpc":"2.0","id":1,"method":"m","params":null})",
       MessageKind::kRequest,
       {D::kParamsType}},
      {R"({"jsonrpc":"1.0","id":1,"method":"m"})", MessageKind::kRequest, {D::kVersion}},
      {R"({"id":1,"method":"m"})", MessageKind::kRequest, {D::kVersion}},
      {R"({"jsonrpc":"2.0","id":{},"method":"m"})", MessageKind::kRequest, {D::kIdType}},
      {R"({"jsonrpc":"2.0","id":1.5,"method":"m"})", MessageKind::kRequest, {D::kIdDiscouraged}},
      {R"({"jsonrpc":"2.0","id":null,"method":"m"})", MessageKind::kRequest, {D::kIdDiscouraged}},
      {R"({"jsonrpc":"2.0","id":1,"method":7})", MessageKind::kOther, {D::kMethodType, D::kNoKind}},
      {R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}})",
       MessageKind::kError,
       {D::kResultAndError}},
      {R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}})",
       MessageKind::kError,
       {D::kErrorObject}},
      {R"({"jsonrpc":"2.0","result":1})", MessageKind::kOther, {D::kNoKind}},
      {R"({"jsonrpc":"2.0","id":1})", MessageKind::kOther, {D::kNoKind}},
      {R"([{"jsonrpc":"2.0","method":"m"}])", MessageKind::kOther, {D::kNoKind}},
  };
  for (const Case& c : cases) {
    json::Document doc;
    ASSERT_TRUE(doc.Parse(c.text)) << c.text;
    const Classified got = Classify(doc.root());
    EXPECT_EQ(got.kind, c.kind) << c.text;
    std::vector<Departure> departures;
    for (const Issue& i : got.issues) departures.push_back(i.departure);
    EXPECT_EQ(departures, c.departures) << c.text;
  }
}

// A departure's message says what the value is, with its article.
TEST(JsonRpcTest, DeparturesSayWhatTheValueIs) {
  const auto messages = [](std::string_view text) {
    json::Document doc;
    EXPECT_TRUE(doc.Parse(text)) << text;
    std::vector<std::string> out;
    for (const Issue& i : Classify(doc.root()).issues) out.push_back(i.message);
    return out;
  };
  EXPECT_EQ(messages(R"({"jsonrpc":"2.0","id":{},"method":"m"})"),
            std::vector<std::string>{"id is an object: it must be a string, a number or null"});
  // Then a second departure: an array is no method, so the message is no request either.
  const std::vector<std::string> method = messages(R"({"jsonrpc":"2.0","id":1,"method":[]})");
  ASSERT_FALSE(method.empty());
  EXPECT_EQ(method.front(), "method is an array: it must be a string");
  EXPECT_EQ(messages(R"({"jsonrpc":"2.0","id":1,"error":null})"),
            std::vector<std::string>{"error is null: it must be an object"});
}

TEST(JsonRpcTest, RequestsKeepTheirMethodIdAndParams) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"({"jsonrpc":"2.0","id":"x","method":"tools/call","params":[1]})"));
  const Classified c = Classify(doc.root());
  EXPECT_EQ(c.method, "tools/call");
  ASSERT_NE(c.id, nullptr);
  EXPECT_EQ(c.id->text(), "x");
  ASSERT_NE(c.params, nullptr);
  EXPECT_TRUE(c.params->is_array());
}

// Ids compare as JSON values: 1 and 1.0 are one id, the string "1" another; repeated ids in turn.
TEST(PendingIdsTest, IdsCompareByValueAndWaitInTurn) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"([1, "1", 1.0, 10e-1, null, true, "a"])"));
  const auto& ids = doc.root().items();
  PendingIds pending;
  for (std::uint64_t i = 0; i < ids.size(); ++i) pending.Add(ids[i], i);
  EXPECT_EQ(pending.Take(ids[3]), 0u);  // 10e-1 answers the earliest of 1, 1.0, 10e-1
  EXPECT_EQ(pending.Take(ids[1]), 1u);
  EXPECT_EQ(pending.Take(ids[1]), std::nullopt);
  EXPECT_EQ(pending.Take(ids[0]), 2u);
  EXPECT_EQ(pending.Take(ids[0]), 3u);
  EXPECT_EQ(pending.Take(ids[0]), std::nullopt);
  EXPECT_EQ(pending.Take(ids[4]), std::nullopt);  // null and true never wait
  EXPECT_EQ(pending.Take(ids[5]), std::nullopt);
  EXPECT_EQ(pending.Take(ids[6]), 6u);
}

// Ids that one double cannot tell apart (1.000...01, 1.000...02, ...) are distinct ids, each found
// at once: they once shared a bucket searched from the start, so n of them cost n^2 / 2.
TEST(PendingIdsTest, IdsBeyondADoublesPrecisionStayApart) {
  std::string text = "[";
  constexpr std::uint64_t kIds = 2000;
  for (std::uint64_t i = 0; i < kIds; ++i) {
    text += (i ? "," : "") + std::string("1.00000000000000000000") + std::to_string(i) + "7";
  }
  json::Document doc;
  ASSERT_TRUE(doc.Parse(text + "]"));
  const auto& ids = doc.root().items();
  PendingIds pending;
  for (std::uint64_t i = 0; i < kIds; ++i) pending.Add(ids[i], i);
  for (std::uint64_t i = kIds; i-- > 0;) ASSERT_EQ(pending.Take(ids[i]), i);
}

// Requests and responses interleaved at random over a few ids, one of them reused while others
// with it wait: every response takes the earliest waiting request of its id, as a queue per id
// (std::deque, the model) would give it.
TEST(PendingIdsTest, ReusedIdsAnswerTheirRequestsInTurn) {
  json::Document doc;
  ASSERT_TRUE(doc.Parse(R"([7, "7", 8, 7.0])"));
  const auto& ids = doc.root().items();
  const int kinds[] = {0, 1, 2, 0};  // 7 and 7.0 are one id
  std::map<int, std::deque<std::uint64_t>> model;
  PendingIds pending;
  std::mt19937 rng(5);
  for (std::uint64_t step = 0; step < 20000; ++step) {
    const std::size_t which = rng() % ids.size();
    if (rng() % 5 < 3) {
      pending.Add(ids[which], step);
      model[kinds[which]].push_back(step);
      continue;
    }
    std::deque<std::uint64_t>& queue = model[kinds[which]];
    std::optional<std::uint64_t> want;
    if (!queue.empty()) {
      want = queue.front();
      queue.pop_front();
    }
    ASSERT_EQ(pending.Take(ids[which]), want) << "step " << step;
  }
}

}  // namespace
}  // namespace arcs::mcp_record_replay
