#include "conformance/mcp_record_replay/replay_judge.h"

#include <vector>

#include "reference/core/jsonl.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::conformance::mcp_record_replay {
namespace {

using json::Value;

// Any JSON-RPC error response to `id`: jsonrpc "2.0", that id, an error object with an integer
// code and a string message, no result.
bool IsErrorResponseTo(const Value& answer, const Value& id) {
  if (!answer.is_object()) return false;
  const Value* version = answer.FindLast("jsonrpc");
  const Value* answered = answer.FindLast("id");
  const Value* error = answer.FindLast("error");
  if (!version || !version->is_string() || version->text() != "2.0") return false;
  if (!answered || !json::SameData(*answered, id) || answer.FindLast("result")) return false;
  if (!error || !error->is_object()) return false;
  const Value* code = error->FindLast("code");
  const Value* message = error->FindLast("message");
  return code && code->is_number() && json::ToInt64(code->text()) && message &&
         message->is_string();
}

bool Matches(const Value& answer, const Value& expected) {
  const Value* unmatched = expected.is_object() ? expected.Find("$unmatched") : nullptr;
  if (unmatched && expected.members().size() == 1) return IsErrorResponseTo(answer, *unmatched);
  return json::SameData(answer, expected, json::RepeatedNames::kLast);
}

// What differs between the answers sent and one expectation; "" when nothing.
std::string Compare(const std::vector<json::Document>& sent, std::string_view end,
                    const Value& expected) {
  const Value& answers = *expected.Find("answers");
  const std::string_view expected_end = expected.Find("end")->text();
  std::size_t k = 0;
  for (const Value& want : answers.items()) {
    if (k >= sent.size()) {
      return "answer " + std::to_string(k + 1) + " is missing: expected " +
             Excerpt(json::ToString(want), 120);
    }
    if (!Matches(sent[k].root(), want)) {
      return "answer " + std::to_string(k + 1) + " is " +
             Excerpt(json::ToString(sent[k].root()), 120) + ", expected " +
             Excerpt(json::ToString(want), 120);
    }
    ++k;
  }
  if (k < sent.size()) {
    return "answer " + std::to_string(k + 1) +
           " was not expected: " + Excerpt(json::ToString(sent[k].root()), 120);
  }
  if (end != expected_end) {
    return "the replay ended with " + Quoted(end, 40) + ", expected " + Quoted(expected_end, 40);
  }
  return "";
}

std::string CheckOne(const Value& e, std::string_view where) {
  const Value* answers = e.is_object() ? e.Find("answers") : nullptr;
  const Value* end = e.is_object() ? e.Find("end") : nullptr;
  if (!answers || !answers->is_array()) return std::string(where) + ": answers must be an array";
  if (!end || !end->is_string() || (end->text() != kScriptEnd && end->text() != kExitNonZero)) {
    return std::string(where) + ": end must be \"script-end\" or \"exit-non-zero\"";
  }
  return "";
}

}  // namespace

std::string CheckReplayExpectation(const Value& expect) {
  if (!expect.is_object()) return "expect_replay must be an object";
  const Value* readings = expect.Find("readings");
  if (!readings) return CheckOne(expect, "expect_replay");
  const Value* flag = expect.Find("flag");
  const Value* arcs = expect.Find("arcs");
  if (!flag || !flag->is_string() || !readings->is_object() || readings->members().size() < 2 ||
      !arcs || !arcs->is_string() || !readings->Find(arcs->text())) {
    return "expect_replay: a flag, two readings or more, and arcs naming one of them";
  }
  for (const json::Member& r : readings->members()) {
    if (r.value.is_null()) continue;
    if (std::string problem = CheckOne(r.value, "expect_replay reading " + std::string(r.name));
        !problem.empty()) {
      return problem;
    }
  }
  return "";
}

ReplayJudgement JudgeReplay(std::string_view answers, std::string_view end,
                            const Value& expect_replay) {
  std::vector<json::Document> sent;
  jsonl::MemorySource source(answers);
  jsonl::LineReader reader(&source, {});
  jsonl::Line line;
  for (Result<bool> more = reader.Next(&line); more.ok() && *more; more = reader.Next(&line)) {
    if (jsonl::IsBlank(line.text)) continue;
    json::Document& doc = sent.emplace_back();
    if (!doc.Parse(line.text)) {
      return {"answer line " + std::to_string(line.number) +
                  " is not one JSON text: " + doc.error().message,
              {}};
    }
  }
  const Value* readings = expect_replay.Find("readings");
  if (!readings) return {Compare(sent, end, expect_replay), {}};
  ReplayJudgement judged;
  std::string first_problem;
  for (const json::Member& r : readings->members()) {
    if (r.value.is_null()) continue;
    std::string problem = Compare(sent, end, r.value);
    if (problem.empty()) judged.readings.emplace_back(r.name);
    if (first_problem.empty()) first_problem = "under " + std::string(r.name) + ": " + problem;
  }
  if (judged.readings.empty()) {
    judged.problem = "no reading of " + std::string(expect_replay.Find("flag")->text()) +
                     " answers so; " + first_problem;
  }
  return judged;
}

}  // namespace arcs::conformance::mcp_record_replay
