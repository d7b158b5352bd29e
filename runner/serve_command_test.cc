// The reference behind the protocol: its hello comes from the registry, its answers from the
// format modules, and what it cannot do it skips.
#include "runner/serve_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "conformance/registry.h"
#include "runner/judge.h"

namespace arcs::runner {
namespace {

constexpr char kSession[] =
    R"({"id":"00000000-0000-4000-8000-000000000000","ts":0,"type":"session","version":"1.0",)"
    R"("agent":"test","recorded_at":"2025-01-01T00:00:00Z"})"
    "\n";

TEST(Serve, TheHelloDeclaresEveryFormatOperationAndPolicyOfTheRegistry) {
  protocol::ImplementationHello hello = ReferenceHello();
  for (const conformance::FormatModule* format : conformance::Formats()) {
    const protocol::FormatSupport& support = hello.formats.at(std::string(format->name));
    EXPECT_EQ(support.operations.size(), format->operations.size());
    for (const conformance::PolicySpec& p : format->policies) {
      EXPECT_EQ(support.policies.at(std::string(p.name)), p.reference_choice);
    }
  }
}

std::shared_ptr<const protocol::Inputs> Session() {
  return std::make_shared<const protocol::Inputs>(protocol::Inputs{{"file", kSession}});
}

TEST(Serve, AnswersThroughTheFormatModuleWithTheCaseLimits) {
  protocol::CaseRequest request{"c", "spool", "validate", Session(), ""};
  protocol::Answer answer = ReferenceAnswer(request);
  EXPECT_EQ(answer.id, "c");
  EXPECT_EQ(answer.status, protocol::AnswerStatus::kOk);
  EXPECT_EQ(answer.verdict, protocol::Verdict::kValid);

  request.args = R"({"limits":{"max_line_bytes":10}})";
  answer = ReferenceAnswer(request);
  EXPECT_EQ(answer.verdict, protocol::Verdict::kInvalid);
  EXPECT_TRUE(
      std::any_of(answer.findings.begin(), answer.findings.end(),
                  [](const protocol::ReportedFinding& f) { return f.rule == "SP-10.1-2"; }));

  request.operation = "roundtrip";
  request.args = "";
  answer = ReferenceAnswer(request);
  EXPECT_EQ(answer.verdict, protocol::Verdict::kValid);
  EXPECT_EQ(answer.outputs.at("file"), kSession);
}

TEST(Serve, SkipsWhatItCannotDo) {
  protocol::CaseRequest request{"c", "spool", "hash", Session(), ""};
  EXPECT_EQ(ReferenceAnswer(request).status, protocol::AnswerStatus::kSkipped);
  request = {"c", "spool", "validate", Session(), R"({"limits":{"max_nope":1}})"};
  protocol::Answer answer = ReferenceAnswer(request);
  EXPECT_EQ(answer.status, protocol::AnswerStatus::kSkipped);
  EXPECT_NE(answer.reason.find("unknown spool limit 'max_nope'"), std::string::npos);
  request.args = R"({"options":{}})";
  EXPECT_EQ(ReferenceAnswer(request).status, protocol::AnswerStatus::kSkipped);
}

std::string Served(const std::string& input, std::uint64_t max_line_bytes, int* status) {
  jsonl::MemorySource source(input);
  char* text = nullptr;
  std::size_t size = 0;
  std::FILE* output = ::open_memstream(&text, &size);
  *status = Serve(&source, output, max_line_bytes);
  std::fclose(output);
  std::string out(text, size);
  std::free(text);
  return out;
}

TEST(Serve, ALineOverTheLimitEndsTheSessionUnanswered) {
  const std::string hello = R"({"type":"hello","protocol":2,"formats":["spool"]})"
                            "\n";
  int status = -1;
  EXPECT_NE(Served(hello, 1024, &status), "");
  EXPECT_EQ(status, 0);
  const std::string long_case = R"({"type":"case","id":")" + std::string(2000, 'x') + "\"}\n";
  EXPECT_EQ(Served(long_case, 1024, &status), "");
  EXPECT_EQ(status, 1);
}

}  // namespace
}  // namespace arcs::runner
