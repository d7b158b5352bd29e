#include "protocol/protocol.h"

#include <gtest/gtest.h>

namespace arcs::protocol {
namespace {

TEST(Protocol, RunnerHelloRoundTrips) {
  std::string line = EncodeRunnerHello({kVersion, {"spool"}});
  EXPECT_EQ(line, R"({"type":"hello","protocol":2,"formats":["spool"]})");
  Result<RunnerHello> hello = DecodeRunnerHello(line);
  ASSERT_TRUE(hello.ok()) << hello.status().ToString();
  EXPECT_EQ(hello->formats, std::vector<std::string>{"spool"});
}

TEST(Protocol, ImplementationHelloRoundTrips) {
  ImplementationHello hello;
  hello.implementation = {"toy", "0.1", "Python", "https://example.org"};
  hello.formats["spool"] = {{"validate", "roundtrip"}, {{"invalid_line", "skip"}}};
  Result<ImplementationHello> back = DecodeImplementationHello(EncodeImplementationHello(hello));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->implementation.name, "toy");
  EXPECT_EQ(back->implementation.homepage, "https://example.org");
  EXPECT_EQ(back->formats["spool"].operations, hello.formats["spool"].operations);
  EXPECT_EQ(back->formats["spool"].policies.at("invalid_line"), "skip");
}

TEST(Protocol, DeclaresIsTheHellosFormatAndOperation) {
  ImplementationHello hello;
  hello.formats["spool"] = {{"validate", "roundtrip"}, {}};
  hello.formats["lightbox"] = {};
  EXPECT_TRUE(Declares(hello, "spool", "validate"));
  EXPECT_TRUE(Declares(hello, "spool", "roundtrip"));
  EXPECT_FALSE(Declares(hello, "spool", "canonicalize"));
  EXPECT_FALSE(Declares(hello, "lightbox", "validate"));  // the format, no operation of it
  EXPECT_FALSE(Declares(hello, "model-io", "validate"));  // another format's operation
  EXPECT_FALSE(Declares(hello, "Spool", "validate"));     // names are exact
}

TEST(Protocol, HelloWithoutPoliciesOrHomepageIsAccepted) {
  Result<ImplementationHello> hello = DecodeImplementationHello(
      R"({"type":"hello","protocol":2,"implementation":{"name":"n","version":"v","language":"C"},)"
      R"("formats":{"spool":{"operations":["validate"]}},"x_extra":true})");
  ASSERT_TRUE(hello.ok()) << hello.status().ToString();
  EXPECT_TRUE(hello->formats["spool"].policies.empty());
}

TEST(Protocol, HelloProblemsNameTheirPointer) {
  struct Bad {
    const char* line;
    const char* expected;
  } cases[] = {
      {R"({"type":"hello","protocol":1,"implementation":{"name":"n","version":"v","language":"C"},"formats":{}})",
       "/protocol: version 1 is not supported (this runner speaks protocol 2"},
      {R"({"type":"hello","protocol":2,"implementation":{"version":"v","language":"C"},"formats":{}})",
       "/implementation/name: missing"},
      {R"({"type":"hello","protocol":2,"implementation":{"name":"","version":"v","language":"C"},"formats":{}})",
       "/implementation/name: is empty"},
      {R"({"type":"hello","protocol":2,"implementation":{"name":"n","version":"v","language":"C"},"formats":{"spool":{"operations":[1]}}})",
       "/formats/spool/operations/0: expected a string, found a number"},
      {R"({"type":"hello","protocol":2,"implementation":{"name":"n","version":"v","language":"C"},"formats":{"a/b":[]}})",
       "/formats/a~1b: expected an object, found an array"},
      {R"({"type":"result","id":"x","status":"ok","verdict":"valid"})",
       "/type: expected \"hello\""},
      {R"({"type":"hello","type":"hello"})", "member name repeated at /type"},
      {R"([1])", "not a JSON object"},
      {R"(hello)", "not JSON"},
  };
  for (const Bad& c : cases) {
    Result<ImplementationHello> hello = DecodeImplementationHello(c.line);
    ASSERT_FALSE(hello.ok()) << c.line;
    EXPECT_NE(hello.status().message().find(c.expected), std::string::npos)
        << c.line << " -> " << hello.status().message();
  }
}

TEST(Protocol, CaseCarriesNamedInputsOfAnyBytesAndArgs) {
  CaseRequest request{
      "spool-x/validate", "spool", "validate",
      std::make_shared<const Inputs>(
          Inputs{{"file", std::string("\xEF\xBB\xBF{\"a\":1}\r\n\0\xFF", 14)}, {"meta.json", ""}}),
      R"({"limits":{"max_line_bytes":4096,"max_entries":0},"x":[1.0]})"};
  std::string line = EncodeCase(request);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  Result<CaseRequest> back = DecodeCase(line);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->id, request.id);
  EXPECT_EQ(*back->inputs, *request.inputs);
  EXPECT_EQ(back->args, request.args);  // carried verbatim, 1.0 and all
}

// A case line written a piece at a time is one line that decodes to the request, whatever the
// inputs' sizes against the piece size (a base64 quantum never split between pieces).
TEST(Protocol, ACaseLineInPiecesIsTheWholeCase) {
  constexpr std::size_t kRaw = CaseLine::kPieceBytes / 4 * 3;
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, kRaw - 1,
                           kRaw, kRaw + 1, 3 * kRaw + 2}) {
    CaseRequest request;
    request.id = "c\"1";
    request.format = "spool";
    request.operation = "validate";
    std::string bytes(size, '\0');
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>(i * 7 + size);
    request.inputs =
        std::make_shared<const Inputs>(Inputs{{"file", bytes}, {"meta", "{}"}, {"z", ""}});
    if (size % 2) request.args = R"({"limits":{"max_line_bytes":9}})";
    CaseLine line(request);
    std::string whole;
    for (std::string_view piece = line.Next(); !piece.empty(); piece = line.Next()) {
      EXPECT_LE(piece.size(), std::max<std::size_t>(CaseLine::kPieceBytes, 256));
      whole += piece;
    }
    ASSERT_EQ(whole.size(), line.size()) << size;
    ASSERT_TRUE(whole.ends_with('\n'));
    EXPECT_EQ(whole.find('\n'), whole.size() - 1);
    Result<CaseRequest> decoded = DecodeCase(std::string_view(whole).substr(0, whole.size() - 1));
    ASSERT_TRUE(decoded.ok()) << decoded.status().message();
    EXPECT_EQ(decoded->id, request.id);
    EXPECT_EQ(*decoded->inputs, *request.inputs) << size;
    EXPECT_EQ(decoded->args, request.args);
    EXPECT_EQ(whole, EncodeCase(request) + "\n");
  }
}

// An answer's largest output is decoded where the taken line holds it: the same answer as
// DecodeAnswer gives, and the same refusal of bad base64.
TEST(Protocol, AnAnswerTakenDecodesItsLargestOutputInPlace) {
  Answer answer;
  answer.id = "c1";
  answer.status = AnswerStatus::kOk;
  answer.verdict = Verdict::kValid;
  std::string big(3 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 31 % 251);
  answer.outputs = {{"a", "small"}, {"big", big}, {"z", big.substr(0, 2 << 20)}, {"e", ""}};
  const std::string line = EncodeAnswer(answer);
  Result<Answer> viewed = DecodeAnswer(line);
  Result<Answer> taken = DecodeAnswerTaking(line);
  ASSERT_TRUE(viewed.ok()) << viewed.status().message();
  ASSERT_TRUE(taken.ok()) << taken.status().message();
  EXPECT_EQ(taken->outputs, answer.outputs);
  EXPECT_EQ(taken->outputs, viewed->outputs);
  EXPECT_EQ(taken->id, "c1");

  std::string bad = line;
  bad[bad.find("\"big\":\"") + 7 + 1000] = '!';
  Result<Answer> refused = DecodeAnswerTaking(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(), DecodeAnswer(bad).status().message());
  EXPECT_NE(refused.status().message().find("/outputs/big"), std::string::npos)
      << refused.status().message();
}

TEST(Protocol, CaseWithoutArgsHasNone) {
  std::string line = EncodeCase(
      {"i", "spool", "validate", std::make_shared<const Inputs>(Inputs{{"file", "x"}}), ""});
  EXPECT_EQ(line, R"({"type":"case","id":"i","format":"spool","operation":"validate",)"
                  R"("inputs":{"file":"eA=="}})");
}

TEST(Protocol, CaseProblems) {
  struct Bad {
    const char* line;
    const char* expected;
  } cases[] = {
      {R"({"type":"case","id":"i","format":"spool","operation":"v","inputs":{"file":"eA"}})",
       "/inputs/file: expected canonical base64"},
      {R"({"type":"case","id":"i","format":"spool","operation":"v","input":"eA=="})",
       "/inputs: missing"},
      {R"({"type":"case","id":"i","format":"spool","operation":"v","inputs":[]})",
       "/inputs: expected an object, found an array"},
      {R"({"type":"case","id":"i","format":"spool","operation":"v","inputs":{},"args":[]})",
       "/args: expected an object, found an array"},
  };
  for (const Bad& c : cases) {
    Result<CaseRequest> request = DecodeCase(c.line);
    ASSERT_FALSE(request.ok()) << c.line;
    EXPECT_NE(request.status().message().find(c.expected), std::string::npos)
        << c.line << " -> " << request.status().message();
  }
}

TEST(Protocol, AnswersRoundTrip) {
  Answer ok;
  ok.id = "c1";
  ok.verdict = Verdict::kInvalid;
  ok.findings = {{"SP-3.4-1", "error", 1, "/id", "bad"}, {"SP-3.5-1", "", 0, "", ""}};
  ok.outputs = {{"file", std::string("a\0b", 3)}, {"log", ""}};
  Result<Answer> back = DecodeAnswer(EncodeAnswer(ok));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->verdict, Verdict::kInvalid);
  ASSERT_EQ(back->findings.size(), 2u);
  EXPECT_EQ(back->findings[0].line, 1u);
  EXPECT_EQ(back->findings[0].pointer, "/id");
  EXPECT_EQ(back->findings[1].rule, "SP-3.5-1");
  EXPECT_EQ(back->outputs, ok.outputs);

  Answer skipped;
  skipped.id = "c2";
  skipped.status = AnswerStatus::kSkipped;
  skipped.reason = "no limits";
  back = DecodeAnswer(EncodeAnswer(skipped));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->status, AnswerStatus::kSkipped);
  EXPECT_EQ(back->reason, "no limits");

  Answer errored;
  errored.id = "c3";
  errored.status = AnswerStatus::kErrored;
  errored.reason = "boom";
  back = DecodeAnswer(EncodeAnswer(errored));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->status, AnswerStatus::kErrored);
  EXPECT_EQ(back->reason, "boom");
  EXPECT_FALSE(back->findings_given);
}

TEST(Protocol, AnswerProblems) {
  struct Bad {
    const char* line;
    const char* expected;
  } cases[] = {
      {R"({"type":"result","status":"ok","verdict":"valid"})", "/id: missing"},
      {R"({"type":"result","id":"x","status":"done"})", "/status: must be"},
      {R"({"type":"result","id":"x","status":"ok"})", "/verdict: missing"},
      {R"({"type":"result","id":"x","status":"ok","verdict":"maybe"})", "/verdict: must be"},
      {R"({"type":"result","id":"x","status":"ok","verdict":"valid","findings":[{}]})",
       "/findings/0/rule: missing"},
      {R"({"type":"result","id":"x","status":"ok","verdict":"valid","findings":{}})",
       "/findings: expected an array, found an object"},
      {R"({"type":"result","id":"x","status":"ok","verdict":"valid","outputs":{"file":"***"}})",
       "/outputs/file: expected canonical base64"},
      {R"({"type":"result","id":"x","status":"ok","verdict":"valid","outputs":"eA=="})",
       "/outputs: expected an object, found a string"},
      {R"({"type":"result","id":"x","status":"ok","verdict":"valid","id":"y"})",
       "member name repeated at /id"},
      {"{\"type\":\"result\",\"id\":\"x\0\"}", "not JSON"},
  };
  for (const Bad& c : cases) {
    Result<Answer> answer = DecodeAnswer(c.line);
    ASSERT_FALSE(answer.ok()) << c.line;
    EXPECT_NE(answer.status().message().find(c.expected), std::string::npos)
        << c.line << " -> " << answer.status().message();
  }
}

// An implementation cannot make the runner hold more than the bounds, whatever it sends: one
// 3.3 GB run came from a line of tiny findings, 1.67 GB from six huge messages (issue #8).
TEST(Protocol, AnswersAreCutToTheirBoundsAndSaySo) {
  Answer errored;
  errored.id = "x";
  errored.status = AnswerStatus::kErrored;
  errored.reason = std::string(kMaxTextBytes + 100, 'm');
  Result<Answer> back = DecodeAnswer(EncodeAnswer(errored));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->reason, std::string(kMaxTextBytes - 3, 'm') + "\xE2\x80\xA6");
  ASSERT_EQ(back->cut.size(), 1u);
  EXPECT_EQ(back->cut[0], "message cut from " + std::to_string(kMaxTextBytes + 100) + " bytes");

  Answer ok;
  ok.id = "x";
  ok.verdict = Verdict::kInvalid;
  ok.findings_given = true;
  for (std::size_t i = 0; i < kMaxFindings + 5; ++i) ok.findings.push_back({"SP-1", "", 0, "", ""});
  ok.findings[0].message = std::string(kMaxTextBytes + 1, 'f');
  back = DecodeAnswer(EncodeAnswer(ok));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->findings.size(), kMaxFindings);
  EXPECT_EQ(back->findings[0].message.size(), kMaxTextBytes);  // "…" included
  Result<Answer> again = DecodeAnswer(EncodeAnswer(*back));    // cut once, never again
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->findings[0].message, back->findings[0].message);
  EXPECT_TRUE(again->cut.empty());
  EXPECT_EQ(back->cut, (std::vector<std::string>{
                           "1 rule ids, pointers or messages of findings cut to their bounds",
                           "findings: the first 1000 of 1005 kept"}));
}

TEST(Protocol, AMessageOfTooManyValuesIsMalformed) {
  std::string line = R"({"type":"result","id":"x","status":"ok","verdict":"valid","x_pad":[)";
  for (std::uint64_t i = 0; i < kMaxMessageValues; ++i) line += i ? ",0" : "0";
  line += "]}";
  Result<Answer> answer = DecodeAnswer(line);
  ASSERT_FALSE(answer.ok());
  EXPECT_NE(answer.status().message().find("more than 1048576 values"), std::string::npos)
      << answer.status().message();
}

TEST(Protocol, MessageTypeAndShutdown) {
  Result<std::string> type = MessageType(EncodeShutdown());
  ASSERT_TRUE(type.ok());
  EXPECT_EQ(*type, "shutdown");
  EXPECT_FALSE(MessageType(R"({"type":3})").ok());
}

}  // namespace
}  // namespace arcs::protocol
