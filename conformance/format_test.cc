#include "conformance/format.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

namespace arcs::conformance {
namespace {

int g_computed = 0;

protocol::Answer Counted(const CaseInput& input) {
  ++g_computed;
  protocol::Answer answer;
  answer.outputs["echo"] = input.Input("file");
  return answer;
}

protocol::Answer Other(const CaseInput&) {
  protocol::Answer answer;
  answer.verdict = protocol::Verdict::kInvalid;
  return answer;
}

// The reference's answer to a case is computed once, when first asked for, however many checks
// and evidence ask for it; a known answer is never computed again.
TEST(LazyReferenceAnswer, ComputesOnceWhenFirstAsked) {
  const std::map<std::string, std::string> inputs = {{"file", "bytes"}};
  const CaseInput input{&inputs, {}};
  g_computed = 0;
  const LazyReferenceAnswer lazy(Counted, input);
  EXPECT_EQ(g_computed, 0);
  EXPECT_EQ(lazy.Get().outputs.at("echo"), "bytes");
  EXPECT_EQ(&lazy.Get(), &lazy.Get());
  EXPECT_EQ(g_computed, 1);

  protocol::Answer known;
  known.outputs["echo"] = "known";
  const LazyReferenceAnswer seeded(Counted, input, &known);
  EXPECT_EQ(&seeded.Get(), &known);
  EXPECT_EQ(g_computed, 1);
}

int g_made = 0;

protocol::Inputs Generated() {
  ++g_made;
  return {{"file", "made"}, {"meta", ""}};
}

// A resource probe's inputs are made when a judgement first reads them, once, and never for one
// that does not read them.
TEST(MadeInputs, AreMadeOnceWhenFirstRead) {
  g_made = 0;
  const MadeInputs made(Generated);
  const CaseInput input{nullptr, {}, {}, &made};
  EXPECT_EQ(g_made, 0);
  EXPECT_EQ(input.Input("file"), "made");
  EXPECT_TRUE(input.Has("meta"));
  EXPECT_FALSE(input.Has("other"));
  EXPECT_EQ(input.All()->size(), 2u);
  EXPECT_EQ(g_made, 1);

  const CaseInput none{nullptr, {}};
  EXPECT_EQ(none.All(), nullptr);
  EXPECT_EQ(none.Input("file"), "");
  EXPECT_FALSE(none.Has("file"));
}

// A check asks for the answer of a computation: the shared one when it is the case's own, else
// its own computation.
TEST(AnswerCheck, ReferenceByUsesTheSharedAnswerOfTheSameComputation) {
  const std::map<std::string, std::string> inputs = {{"file", "bytes"}};
  const CaseInput input{&inputs, {}};
  const protocol::Answer answer;
  const std::map<std::string, std::string> policies;
  g_computed = 0;
  const LazyReferenceAnswer lazy(Counted, input);
  AnswerCheck check{input, answer, policies};
  check.reference = &lazy;
  std::optional<protocol::Answer> scratch;
  EXPECT_EQ(&check.ReferenceBy(Counted, &scratch), &lazy.Get());
  EXPECT_FALSE(scratch.has_value());
  EXPECT_EQ(check.ReferenceBy(Other, &scratch).verdict, protocol::Verdict::kInvalid);
  EXPECT_TRUE(scratch.has_value());
  check.reference = nullptr;
  std::optional<protocol::Answer> own;
  EXPECT_EQ(check.ReferenceBy(Counted, &own).outputs.at("echo"), "bytes");
  EXPECT_EQ(g_computed, 2);
}

}  // namespace
}  // namespace arcs::conformance
