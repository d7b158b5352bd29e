#include "reference/mcp_record_replay/replay.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace arcs::mcp_record_replay {
namespace {

// A recording built from its messages: (dir, msg JSON, latency_ms or -1).
struct Msg {
  const char* dir;
  std::string msg;
  int latency = -1;
};

std::string Recording(const std::vector<Msg>& messages) {
  std::string out =
      R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"})"
      "\n";
  int seq = 1;
  for (const Msg& m : messages) {
    out += R"({"type":"message","seq":)" + std::to_string(seq++) +
           R"(,"ts":"2025-02-04T10:00:01Z","dir":")" + m.dir + R"(","msg":)" + m.msg;
    if (m.latency >= 0) out += ",\"latency_ms\":" + std::to_string(m.latency);
    out += "}\n";
  }
  return out;
}

std::string Request(const std::string& id, const std::string& method, const std::string& params) {
  return R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":")" + method + "\"" +
         (params.empty() ? "" : ",\"params\":" + params) + "}";
}
std::string Response(const std::string& id, const std::string& result) {
  return R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":)" + result + "}";
}

class Replay {
 public:
  Replay(std::string text, ReplayOptions options) : text_(std::move(text)), lines_(text_) {
    jsonl::MemorySource source(text_);
    Result<LoadedRecording> loaded = LoadRecording(&source, {});
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    loaded_ = std::move(*loaded);
    Result<Replayer> r = Replayer::Create(loaded_, lines_, options);
    EXPECT_TRUE(r.ok());
    replayer_.emplace(std::move(*r));
  }
  Reply Send(const std::string& line) { return replayer_->Handle(line); }
  std::string Answer(const std::string& line) { return Lines(Send(line)); }
  Reply Start() { return replayer_->Start(); }
  Reply ReleaseHeld() { return replayer_->ReleaseHeld(); }
  bool Holding() const { return replayer_->Holding(); }

  // The messages a reply sends, one per line; "(none)" when it sends nothing.
  static std::string Lines(const Reply& reply) {
    std::string out;
    for (const Outgoing& o : reply.messages) out += (out.empty() ? "" : "\n") + o.line;
    return out.empty() ? "(none)" : out;
  }

 private:
  std::string text_;
  MemoryRandomAccess lines_;
  LoadedRecording loaded_;
  std::optional<Replayer> replayer_;
};

ReplayOptions Mode(MatchMode mode, OnUnmatched unmatched = OnUnmatched::kWarn) {
  ReplayOptions o;
  o.match_mode = mode;
  o.on_unmatched = unmatched;
  return o;
}

constexpr char kUnmatchedX[] =
    R"({"jsonrpc":"2.0","id":"x","error":{"code":-32000,"message":"No matching response"}})";

TEST(ReplayTest, SequentialServesTheRecordedRequestsInOrderWithTheLiveId) {
  Replay r(Recording({{"c2s", Request("1", "a", "")},
                      {"s2c", Response("1", "\"A\"")},
                      {"c2s", R"({"jsonrpc":"2.0","method":"notifications/x"})"},
                      {"c2s", Request("2", "b", "")},
                      {"s2c", Response("2", "\"B\"")},
                      {"c2s", Request("3", "a", "")},
                      {"s2c", Response("3", "\"A3\"")}}),
           Mode(MatchMode::kSequential));
  EXPECT_EQ(r.Answer(R"({"jsonrpc":"2.0","method":"notifications/x"})"), "(none)");
  // Another method than the recorded request's is unmatched, and the cursor stays (errata MRR-E35
  // request-cursor-ids): never another method's response.
  EXPECT_EQ(r.Answer(Request("\"x\"", "b", "")), kUnmatchedX);
  EXPECT_EQ(r.Answer(Request("\"s\"", "a", "")), Response("\"s\"", "\"A\""));
  EXPECT_EQ(r.Answer(Request("7", "b", "")), Response("7", "\"B\""));
  EXPECT_EQ(r.Answer(Request("8", "a", "")), Response("8", "\"A3\""));
  EXPECT_EQ(r.Answer(Request("\"x\"", "a", "")), kUnmatchedX);  // past the end (MRR-E33)
}

TEST(ReplayTest, SequentialPairsConcurrentRequestsByTheirIds) {
  // Three calls sent at once, answered out of order; the live client sends them in another order
  // with the recorded ids: each gets its own response. A later, separate request with a
  // recorded id is not taken out of turn.
  Replay r(Recording({{"c2s", Request("1", "t", R"({"n":1})")},
                      {"c2s", Request("2", "t", R"({"n":2})")},
                      {"c2s", Request("3", "t", R"({"n":3})")},
                      {"s2c", Response("3", "3")},
                      {"s2c", Response("1", "1")},
                      {"s2c", Response("2", "2")},
                      {"c2s", Request("4", "t", R"({"n":4})")},
                      {"s2c", Response("4", "4")},
                      {"c2s", Request("5", "t", R"({"n":5})")},
                      {"s2c", Response("5", "5")}}),
           Mode(MatchMode::kSequential));
  EXPECT_EQ(r.Answer(Request("3", "t", R"({"n":3})")), Response("3", "3"));
  EXPECT_EQ(r.Answer(Request("1", "t", R"({"n":1})")), Response("1", "1"));
  EXPECT_EQ(r.Answer(Request("5", "t", R"({"n":5})")), Response("5", "2"));  // the cursor's
  EXPECT_EQ(r.Answer(Request("9", "t", R"({"n":2})")), Response("9", "4"));
  EXPECT_EQ(r.Answer(Request("2", "t", R"({"n":2})")), Response("2", "5"));
}

TEST(ReplayTest, ServerMessagesGoOutInTheirRecordedPlace) {
  const std::string progress = R"({"jsonrpc":"2.0","method":"notifications/progress"})";
  const std::string changed = R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})";
  const std::string hello = R"({"jsonrpc":"2.0","method":"notifications/message"})";
  const std::string roots = R"({"jsonrpc":"2.0","id":0,"method":"roots/list"})";
  const std::string initialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
  Replay r(Recording({{"s2c", hello},
                      {"c2s", Request("1", "initialize", "{}")},
                      {"s2c", Response("1", "{}")},
                      {"c2s", initialized},
                      {"s2c", roots},
                      {"c2s", Request("2", "tools/call", "{}")},
                      {"s2c", progress},
                      {"s2c", Response("2", "\"done\"")},
                      {"s2c", changed},
                      {"c2s", Response("0", R"({"roots":[]})")}}),
           Mode(MatchMode::kByRequest));
  EXPECT_EQ(Replay::Lines(r.Start()), hello);
  EXPECT_EQ(r.Answer(Request("10", "initialize", "{}")), Response("10", "{}"));
  EXPECT_EQ(r.Answer(initialized), roots);  // after the client's notification
  EXPECT_EQ(r.Answer(Request("11", "tools/call", "{}")),
            progress + "\n" + Response("11", "\"done\"") + "\n" + changed);
  EXPECT_EQ(r.Answer(Response("0", R"({"roots":[]})")), "(none)");  // nothing recorded after it
  EXPECT_EQ(r.Answer(Response("0", R"({"roots":[]})")), "(none)");  // answers nothing now
}

TEST(ReplayTest, AResponseWaitsForTheClientsAnswerToAServerRequestBeforeIt) {
  const std::string sampling = R"({"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage"})";
  const std::string progress = R"({"jsonrpc":"2.0","method":"notifications/progress"})";
  const std::string rec = Recording({{"c2s", Request("1", "tools/call", "{}")},
                                     {"s2c", sampling},
                                     {"c2s", Response("\"s1\"", "\"sampled\"")},
                                     {"s2c", progress},
                                     {"s2c", Response("1", "\"done\"")},
                                     {"c2s", Request("2", "ping", "")},
                                     {"s2c", Response("2", "{}")}});
  Replay r(rec, Mode(MatchMode::kByRequest));
  EXPECT_EQ(r.Answer(Request("5", "tools/call", "{}")), sampling);
  EXPECT_TRUE(r.Holding());
  EXPECT_EQ(r.Answer(Request("6", "ping", "")), Response("6", "{}"));  // not held up
  EXPECT_EQ(r.Answer(Response("\"other\"", "1")), "(none)");
  EXPECT_EQ(r.Answer(Response("\"s1\"", "\"live\"")), progress + "\n" + Response("5", "\"done\""));
  EXPECT_FALSE(r.Holding());

  Replay unanswered(rec, Mode(MatchMode::kByRequest));
  EXPECT_EQ(unanswered.Answer(Request("5", "tools/call", "{}")), sampling);
  Reply released = unanswered.ReleaseHeld();
  EXPECT_EQ(Replay::Lines(released), Response("5", "\"done\""));
  EXPECT_NE(released.log.find("without the client's answer"), std::string::npos);
  EXPECT_FALSE(unanswered.Holding());
}

// A call's progress recorded after the client's answer to a server request sent before the call
// (the client sent the call, then answered): whichever the live client sends first, the progress
// goes out while the call is active, with its live id, and never after its response (MCP allows
// progress only for an active request). Progress about no request stays in its place.
TEST(ReplayTest, ProgressGoesOutWhileItsRequestIsActive) {
  const std::string roots = R"({"jsonrpc":"2.0","id":0,"method":"roots/list"})";
  const std::string answer = Response("0", R"({"roots":[]})");
  const std::string log = R"({"jsonrpc":"2.0","method":"notifications/message"})";
  auto progress = [](const std::string& token, int n) {
    return R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":)" +
           token + ",\"progress\":" + std::to_string(n) + "}}";
  };
  const std::string call = R"({"name":"long","_meta":{"progressToken":2}})";
  const std::string rec = Recording({{"c2s", Request("1", "prompts/get", "{}")},
                                     {"s2c", Response("1", "\"P\"")},
                                     {"s2c", roots},
                                     {"c2s", Request("2", "tools/call", call)},
                                     {"c2s", answer},
                                     {"s2c", log},
                                     {"s2c", progress("2", 1)},
                                     {"s2c", progress("\"other\"", 1)},
                                     {"s2c", progress("2", 2)},
                                     {"s2c", Response("2", "\"done\"")}});
  // The call first: its progress, whose place the answer has not passed, goes out before its
  // response; the answer then sends the rest.
  Replay call_first(rec, Mode(MatchMode::kByRequest));
  EXPECT_EQ(call_first.Answer(Request("7", "prompts/get", "{}")),
            Response("7", "\"P\"") + "\n" + roots);
  const Reply served = call_first.Send(Request("\"c\"", "tools/call", call));
  EXPECT_EQ(Replay::Lines(served),
            progress("2", 1) + "\n" + progress("2", 2) + "\n" + Response("\"c\"", "\"done\""));
  ASSERT_EQ(served.messages.size(), 3u);
  EXPECT_EQ(served.messages[0].about, "\"c\"");
  EXPECT_EQ(served.messages[1].about, "\"c\"");
  EXPECT_EQ(served.messages[2].about, "");
  EXPECT_EQ(call_first.Answer(answer), log + "\n" + progress("\"other\"", 1));

  // The answer first: the call's progress waits for the call.
  Replay answer_first(rec, Mode(MatchMode::kByRequest));
  answer_first.Answer(Request("7", "prompts/get", "{}"));
  EXPECT_EQ(answer_first.Answer(answer), log + "\n" + progress("\"other\"", 1));
  EXPECT_EQ(answer_first.Answer(Request("\"c\"", "tools/call", call)),
            progress("2", 1) + "\n" + progress("2", 2) + "\n" + Response("\"c\"", "\"done\""));
}

// A call held for the client's answers to two server requests: the progress the first answer
// passes is about the call, which is still active (for the transport's routing).
TEST(ReplayTest, ProgressPassedByAnAnswerNamesItsHeldRequest) {
  const std::string progress =
      R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}})";
  Replay r(Recording({{"c2s", Request("1", "tools/call", R"({"_meta":{"progressToken":"t"}})")},
                      {"s2c", R"({"jsonrpc":"2.0","id":"a","method":"roots/list"})"},
                      {"s2c", R"({"jsonrpc":"2.0","id":"b","method":"sampling/createMessage"})"},
                      {"c2s", Response("\"a\"", "{}")},
                      {"s2c", progress},
                      {"c2s", Response("\"b\"", "{}")},
                      {"s2c", Response("1", "\"done\"")}}),
           Mode(MatchMode::kSequential));
  r.Send(Request("5", "tools/call", R"({"_meta":{"progressToken":"t"}})"));
  const Reply passed = r.Send(Response("\"a\"", "{}"));
  ASSERT_EQ(passed.messages.size(), 1u);
  EXPECT_EQ(passed.messages[0].line, progress);
  EXPECT_EQ(passed.messages[0].about, "5");
  EXPECT_TRUE(r.Holding());
  EXPECT_EQ(r.Answer(Response("\"b\"", "{}")), Response("5", "\"done\""));
}

TEST(ReplayTest, AnUnrecordedServerLineGoesOutAsItsBytes) {  // errata MRR-E51
  // base64 of "not json \xff" and of a line cut short: the first goes out as those bytes, the
  // second as the notification the recording holds.
  const std::string whole =
      R"({"jsonrpc":"2.0","method":"arcs/unrecorded","params":{"reason":"not-utf8","bytes":10,)"
      R"("base64":"bm90IGpzb24g/w=="}})";
  const std::string cut =
      R"({"jsonrpc":"2.0","method":"arcs/unrecorded","params":{"reason":"too-long","bytes":9,)"
      R"("base64":"YWJj","truncated":true}})";
  Replay r(Recording({{"c2s", Request("1", "a", "")},
                      {"s2c", whole},
                      {"s2c", cut},
                      {"s2c", Response("1", "1")}}),
           Mode(MatchMode::kSequential));
  const Reply reply = r.Send(Request("1", "a", ""));
  ASSERT_EQ(reply.messages.size(), 3u);
  EXPECT_EQ(reply.messages[0].line, "not json \xff");
  EXPECT_TRUE(reply.messages[0].unrecorded);
  EXPECT_EQ(reply.messages[1].line, cut);
  EXPECT_FALSE(reply.messages[1].unrecorded);
  EXPECT_EQ(reply.messages[2].line, Response("1", "1"));
}

TEST(ReplayTest, ARecordedRequestWithoutAResponseStillPassesItsPlace) {
  // The server said something after the request and never answered it: the live request of that
  // method gets what was said, then the unmatched error.
  const std::string log = R"({"jsonrpc":"2.0","method":"notifications/message"})";
  Replay r(Recording({{"c2s", Request("1", "a", "")}, {"s2c", log}}), Mode(MatchMode::kSequential));
  EXPECT_EQ(r.Answer(Request("\"x\"", "a", "")), log + "\n" + kUnmatchedX);
}

TEST(ReplayTest, ByRequestMatchesAnInitializeFromAnotherClientVersion) {  // errata MRR-E50
  Replay r(Recording({{"c2s", Request("1", "initialize",
                                      R"({"protocolVersion":"2025-06-18","capabilities":{},)"
                                      R"("clientInfo":{"name":"c","version":"1.0.0"}})")},
                      {"s2c", Response("1", "\"I\"")}}),
           Mode(MatchMode::kByRequest));
  EXPECT_EQ(r.Answer(Request("0", "initialize",
                             R"({"protocolVersion":"2025-06-18","capabilities":{},)"
                             R"("clientInfo":{"name":"c","version":"1.0.1"}})")),
            Response("0", "\"I\""));
}

TEST(ReplayTest, ByRequestKeysOnMethodAndCanonicalParams) {
  Replay r(Recording({{"c2s", Request("1", "t", R"({"b":1,"a":"x"})")},
                      {"c2s", Request("2", "t", R"({"a":"y"})")},
                      {"s2c", Response("2", "\"Y\"")},  // out of order (EC-REC-004)
                      {"s2c", Response("1", "\"X\"")},
                      {"c2s", Request("3", "u", "")},
                      {"s2c", Response("3", "\"U\"")}}),
           Mode(MatchMode::kByRequest));
  // Member order, 1 vs 1.0 and _meta do not change the key (MRR-E30, MRR-E32); null params are
  // {} (MRR-E31).
  EXPECT_EQ(r.Answer(Request("9", "t", R"({"a":"x","b":1.0,"_meta":{"p":1}})")),
            Response("9", "\"X\""));
  EXPECT_EQ(r.Answer(Request("8", "u", "null")), Response("8", "\"U\""));
  EXPECT_EQ(r.Answer(Request("\"x\"", "t", R"({"a":"x","b":1})")), kUnmatchedX);  // used once
  EXPECT_EQ(r.Answer(Request("5", "t", R"({"a":"y"})")), Response("5", "\"Y\""));
}

TEST(ReplayTest, ByRequestQueuesFollowTheRequestsOrder) {
  // Two requests of one key answered in reverse: the first live request gets the response of
  // the first recorded request (errata MRR-E34 request-order).
  Replay r(Recording({{"c2s", Request("1", "t", "{}")},
                      {"c2s", Request("2", "t", "{}")},
                      {"s2c", Response("2", "\"second\"")},
                      {"s2c", Response("1", "\"first\"")}}),
           Mode(MatchMode::kByRequest));
  EXPECT_EQ(r.Answer(Request("10", "t", "{}")), Response("10", "\"first\""));
  EXPECT_EQ(r.Answer(Request("11", "t", "{}")), Response("11", "\"second\""));
}

TEST(ReplayTest, ARequestWithoutAKeyStillTakesItsOwnResponse) {
  // The first request's params repeat a name (no RFC 8785 form, so no key); the first response is
  // its own, not the second request's, which reuses its id (EC-REC-003, FIFO).
  Replay r(Recording({{"c2s", Request("1", "t", R"({"a":1,"a":2})")},
                      {"c2s", Request("1", "t", R"({"a":3})")},
                      {"s2c", Response("1", "\"first\"")},
                      {"s2c", Response("1", "\"second\"")}}),
           Mode(MatchMode::kByRequest));
  EXPECT_EQ(r.Answer(Request("9", "t", R"({"a":3})")), Response("9", "\"second\""));
}

TEST(ReplayTest, FuzzyTakesTheMostSimilarAtLeastHalf) {
  // The errata's example (MRR-E36): one leaf of four changed is 2/4, served; a different tool
  // shares 1 of 4, not served.
  Replay r(Recording({{"c2s", Request("1", "tools/call",
                                      R"({"name":"read_file","arguments":{"path":"/a","ts":1}})")},
                      {"s2c", Response("1", "\"R\"")},
                      {"c2s", Request("2", "tools/call", R"({"name":"x","arguments":{"q":1}})")},
                      {"s2c", Response("2", "\"Q\"")}}),
           Mode(MatchMode::kFuzzy));
  EXPECT_EQ(r.Answer(Request("\"x\"", "tools/call",
                             R"({"name":"list_directory","arguments":{"path":"/a"}})")),
            kUnmatchedX);
  EXPECT_EQ(r.Answer(Request("5", "tools/call",
                             R"({"name":"read_file","arguments":{"path":"/a","ts":2}})")),
            Response("5", "\"R\""));
  EXPECT_EQ(r.Answer(Request("\"x\"", "other", "")), kUnmatchedX);  // another method
}

TEST(ReplayTest, FuzzyTiesGoToTheFirstRecorded) {
  Replay r(Recording({{"c2s", Request("1", "m", R"({"a":1})")},
                      {"s2c", Response("1", "\"first\"")},
                      {"c2s", Request("2", "m", R"({"a":1})")},
                      {"s2c", Response("2", "\"second\"")}}),
           Mode(MatchMode::kFuzzy));
  EXPECT_EQ(r.Answer(Request("3", "m", R"({"a":1})")), Response("3", "\"first\""));  // EC-REC-012
  EXPECT_EQ(r.Answer(Request("4", "m", R"({"a":1})")), Response("4", "\"second\""));
}

// The indexed matcher against MRR-E36 written out plainly: every unserved recorded request of the
// method scored by |A and B| / |A or B| over its leaves (here each params member is one leaf), the
// best served if at least 1/2, ties to the first in the file. 300 recorded calls over a few
// values, 400 live ones, each answer compared. With `everyones`, every recorded call also has
// the members t and u (a leaf all of them hold, as a tool's name), and a live one each of them
// three times in four: the matcher's shortcut for such leaves, and the case where they alone make
// a candidate similar enough.
void FuzzyAgainstAScan(bool everyones) {
  std::uint32_t state = 12345;
  auto next = [&state](std::uint32_t n) {
    state = state * 1103515245 + 12345;
    return (state >> 16) % n;
  };
  using Params = std::map<std::string, int>;  // member -> value; absent members are left out
  auto random_params = [&](bool recorded) {
    Params p;
    for (const char* name : {"a", "b", "c", "d"}) {
      if (next(4) != 0) p[name] = static_cast<int>(next(3));
    }
    for (const char* name : {"t", "u"}) {
      if (everyones && (recorded || next(4) != 0)) p[name] = 7;
    }
    return p;
  };
  auto json_of = [](const Params& p) {
    std::string out = "{";
    for (const auto& [name, value] : p) {
      out += (out.size() > 1 ? ",\"" : "\"") + name + "\":" + std::to_string(value);
    }
    return out + "}";
  };
  std::vector<Msg> messages;
  std::vector<Params> recorded;
  for (int i = 0; i < 300; ++i) {
    recorded.push_back(random_params(true));
    messages.push_back({"c2s", Request(std::to_string(i), "m", json_of(recorded.back()))});
    messages.push_back({"s2c", Response(std::to_string(i), std::to_string(i))});
  }
  Replay r(Recording(messages), Mode(MatchMode::kFuzzy));
  std::vector<bool> served(recorded.size(), false);
  for (int live_id = 1000; live_id < 1400; ++live_id) {
    const Params live = random_params(false);
    // A params object with no member is the one leaf {} (MRR-E29's absent-as-{}).
    auto leaves = [](const Params& p) { return p.empty() ? std::size_t{1} : p.size(); };
    std::optional<std::size_t> best;
    std::size_t best_shared = 0, best_all = 1;
    for (std::size_t i = 0; i < recorded.size(); ++i) {
      if (served[i]) continue;
      std::size_t shared = recorded[i].empty() && live.empty() ? 1 : 0;
      for (const auto& [name, value] : live) {
        auto it = recorded[i].find(name);
        shared += it != recorded[i].end() && it->second == value;
      }
      const std::size_t all = leaves(recorded[i]) + leaves(live) - shared;
      if (!best || shared * best_all > best_shared * all) {
        best = i;
        best_shared = shared;
        best_all = all;
      }
    }
    const std::string id = std::to_string(live_id);
    std::string expected = R"({"jsonrpc":"2.0","id":)" + id +
                           R"(,"error":{"code":-32000,"message":"No matching response"}})";
    if (best && 2 * best_shared >= best_all) {
      served[*best] = true;
      expected = Response(id, std::to_string(*best));
    }
    ASSERT_EQ(r.Answer(Request(id, "m", json_of(live))), expected) << json_of(live);
  }
}

TEST(ReplayTest, FuzzyServesWhatAScanOfEveryCandidateServes) {
  FuzzyAgainstAScan(false);
  FuzzyAgainstAScan(true);
}

TEST(ReplayTest, ServesTheRecordedContentExactly) {
  const std::string result = R"({"n":12345678901234567890123,"f":1.0000000000000001,)"
                             R"("s":"\u00e9\ud83d\ude00\n","b64":"iVBORw0KGgo="})";
  Replay r(Recording({{"c2s", Request("1", "a", "")}, {"s2c", Response("1", result)}}),
           Mode(MatchMode::kSequential));
  // As data (strings are written with minimal escaping), numbers by their exact value.
  json::Document served, expected;
  ASSERT_TRUE(served.Parse(r.Answer(Request("\"live\"", "a", ""))));
  ASSERT_TRUE(expected.Parse(Response("\"live\"", result)));
  EXPECT_TRUE(json::SameData(served.root(), expected.root())) << json::ToString(served.root());
  EXPECT_NE(json::ToString(served.root()).find("12345678901234567890123"), std::string::npos);
}

TEST(ReplayTest, UnmatchedBehaviours) {
  const std::string header_only = Recording({});
  Reply error = Replay(header_only, Mode(MatchMode::kSequential, OnUnmatched::kError))
                    .Send(Request("\"x\"", "a", ""));
  EXPECT_EQ(Replay::Lines(error), kUnmatchedX);  // errata MRR-E41 error-then-exit
  EXPECT_TRUE(error.end);
  Reply warn = Replay(header_only, Mode(MatchMode::kSequential, OnUnmatched::kWarn))
                   .Send(Request("\"x\"", "a", ""));
  EXPECT_EQ(Replay::Lines(warn), kUnmatchedX);
  EXPECT_FALSE(warn.end);
  Reply pass = Replay(header_only, Mode(MatchMode::kSequential, OnUnmatched::kPassthrough))
                   .Send(Request("\"x\"", "a", ""));
  EXPECT_TRUE(pass.forward);
  EXPECT_TRUE(pass.messages.empty());
}

TEST(ReplayTest, TimingDelaysByTheRecordedLatency) {
  const std::string rec = Recording({{"c2s", Request("1", "a", "")},
                                     {"s2c", Response("1", "1"), 40},
                                     {"c2s", Request("2", "a", "")},
                                     {"s2c", Response("2", "2")}});
  ReplayOptions scaled = Mode(MatchMode::kSequential);
  scaled.timing = *ParseTiming("scaled:0.5");
  Replay r(rec, scaled);
  EXPECT_EQ(r.Send(Request("1", "a", "")).messages.at(0).delay_ms, 20u);
  EXPECT_EQ(r.Send(Request("2", "a", "")).messages.at(0).delay_ms, 0u);  // no latency_ms (MRR-E40)
  EXPECT_EQ(
      Replay(rec, Mode(MatchMode::kSequential)).Send(Request("1", "a", "")).messages.at(0).delay_ms,
      0u);
}

TEST(ReplayTest, ParsesTheCommandLineSpellings) {
  EXPECT_TRUE(ParseTiming("scaled:2").ok());
  EXPECT_TRUE(ParseTiming("scaled:1e-1").ok());
  EXPECT_TRUE(ParseTiming("scaled:0").ok());
  for (const char* bad :
       {"scaled:", "scaled:-1", "scaled:inf", "scaled:0x10", "fast", "scaled:1 "}) {
    EXPECT_FALSE(ParseTiming(bad).ok()) << bad;
  }
  EXPECT_TRUE(ParseMatchMode("by-request").ok());
  EXPECT_FALSE(ParseMatchMode("by_request").ok());
  EXPECT_FALSE(ParseOnUnmatched("ignore").ok());
}

TEST(ReplayTest, ScriptTranscriptEndsOnAnUnmatchedError) {
  const std::string rec = Recording({{"c2s", Request("1", "a", "")}, {"s2c", Response("1", "1")}});
  jsonl::MemorySource source(rec);
  Result<LoadedRecording> loaded = LoadRecording(&source, {});
  ASSERT_TRUE(loaded.ok());
  const std::string script =
      Request("1", "a", "") + "\n" + Request("2", "a", "") + "\n" + Request("3", "a", "") + "\n";
  Result<ReplayTranscript> t =
      ReplayScript(*loaded, MemoryRandomAccess(rec), script, ReplayOptions{});
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->ended);
  EXPECT_EQ(
      t->answers,
      Response("1", "1") + "\n" +
          R"({"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"No matching response"}})"
          "\n");
}

}  // namespace
}  // namespace arcs::mcp_record_replay
