#include "conformance/mcp_record_replay/replay_judge.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs::conformance::mcp_record_replay {
namespace {

ReplayJudgement Judge(std::string_view answers, std::string_view end, std::string_view expect) {
  json::Document doc;
  EXPECT_TRUE(doc.Parse(expect));
  EXPECT_EQ(CheckReplayExpectation(doc.root()), "");
  return JudgeReplay(answers, end, doc.root());
}

constexpr char kExpect[] =
    R"({"answers":[{"jsonrpc":"2.0","id":"a","result":{"n":1.0,"s":"é"}},{"$unmatched":2}],"end":"exit-non-zero"})";

TEST(ReplayJudge, ComparesAsDataInOrder) {
  // Member order, number spelling and string escapes are free; the error's code and message too.
  EXPECT_EQ(Judge("{\"result\":{\"s\":\"\\u00e9\",\"n\":1},\"id\":\"a\",\"jsonrpc\":\"2.0\"}\n"
                  "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-1,\"message\":\"x\"}}\n",
                  kExitNonZero, kExpect)
                .problem,
            "");
}

TEST(ReplayJudge, CatchesWhatDiffers) {
  const std::string ok = R"({"jsonrpc":"2.0","id":"a","result":{"n":1,"s":"é"}})";
  const std::string err2 = R"({"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"m"}})";
  struct Case {
    std::string answers;
    std::string_view end;
    std::string_view problem_starts;
  };
  const Case cases[] = {
      {ok + "\n", kExitNonZero, "answer 2 is missing"},
      {ok + "\n" + err2 + "\n" + ok + "\n", kExitNonZero, "answer 3 was not expected"},
      {err2 + "\n" + ok + "\n", kExitNonZero, "answer 1 is"},
      {ok + "\n" + err2 + "\n", kScriptEnd, "the replay ended with"},
      {R"({"jsonrpc":"2.0","id":"1","result":{"n":1,"s":"é"}})"
       "\n" +
           err2 + "\n",
       kExitNonZero, "answer 1 is"},  // the recorded id, not the live one
      {ok + "\n" +
           R"({"jsonrpc":"2.0","id":2,"error":{"code":1.5,"message":"m"}})"
           "\n",
       kExitNonZero, "answer 2 is"},  // an error code that is not an integer
      {ok + "\nnot json\n", kExitNonZero, "answer line 2 is not one JSON text"},
  };
  for (const Case& c : cases) {
    const std::string problem = Judge(c.answers, c.end, kExpect).problem;
    EXPECT_TRUE(problem.starts_with(c.problem_starts)) << c.answers << " -> " << problem;
  }
}

TEST(ReplayJudge, ReadingsOfAFlag) {
  constexpr char kFlagged[] =
      R"({"flag":"MRR-E33","arcs":"exhausted-unmatched","readings":{)"
      R"("exhausted-unmatched":{"answers":[{"$unmatched":1}],"end":"script-end"},)"
      R"("repeat-last":{"answers":[{"jsonrpc":"2.0","id":1,"result":0}],"end":"script-end"}}})";
  ReplayJudgement repeat = Judge(R"({"jsonrpc":"2.0","id":1,"result":0})"
                                 "\n",
                                 kScriptEnd, kFlagged);
  EXPECT_EQ(repeat.problem, "");
  EXPECT_EQ(repeat.readings, std::vector<std::string>{"repeat-last"});
  ReplayJudgement none = Judge("", kScriptEnd, kFlagged);
  EXPECT_TRUE(none.problem.starts_with("no reading of MRR-E33")) << none.problem;
}

TEST(ReplayJudge, MalformedExpectationsAreSaidSo) {
  for (const char* bad :
       {R"([])", R"({"answers":{},"end":"script-end"})", R"({"answers":[],"end":"exit"})",
        R"({"flag":"F","arcs":"x","readings":{"x":null}})"}) {
    json::Document doc;
    ASSERT_TRUE(doc.Parse(bad));
    EXPECT_NE(CheckReplayExpectation(doc.root()), "") << bad;
  }
}

}  // namespace
}  // namespace arcs::conformance::mcp_record_replay
