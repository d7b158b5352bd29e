#include "conformance/model_io/truth.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs::conformance::model_io {
namespace {

// sha256("") and sha256("hi"), by `printf '' | sha256sum` and `printf hi | sha256sum`.
constexpr char kEmpty[] = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr char kHi[] = "sha256:8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4";

std::set<std::string> Broken(const std::string& text) {
  json::Document doc;
  EXPECT_TRUE(doc.Parse(text, {})) << text;
  return BrokenInvariants(doc.root());
}

std::string Session(const std::string& head, const std::string& interactions) {
  return "{" + head + R"("interactions":[)" + interactions + "]}";
}

constexpr char kHead[] =
    R"("model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m","mode":"record",)";

std::string Interaction(const std::string& i, const std::string& hash = kHi) {
  return R"({"i":)" + i + R"(,"prompt_hash":")" + std::string(kEmpty) + R"(","response_hash":")" +
         hash + R"(","response_content":"hi"})";
}

TEST(ModelIoTruth, AValidSessionBreaksNothing) {
  EXPECT_EQ(Broken(Session(kHead, Interaction("0") + "," + Interaction("1"))),
            std::set<std::string>{});
  EXPECT_EQ(Broken(Session(kHead, "")), std::set<std::string>{});  // MI4: length >= 0
}

TEST(ModelIoTruth, EachHeaderInvariantIsJudgedOnItsOwn) {
  // A missing version breaks MI1 whatever else a verifier cites for it.
  EXPECT_EQ(Broken(R"({"adapter_id":"a","model_id":"m","mode":"record","interactions":[]})"),
            std::set<std::string>{"MI1"});
  // SemVer 2.0.0 §2: "MUST NOT contain leading zeroes".
  EXPECT_EQ(
      Broken(Session(
          R"("model_io_schema_version":"01.0.0","adapter_id":"a","model_id":"m","mode":"record",)",
          "")),
      std::set<std::string>{"MI1"});
  EXPECT_EQ(
      Broken(Session(
          R"("model_io_schema_version":"1.0.0","adapter_id":"","model_id":"m","mode":"Record",)",
          "")),
      (std::set<std::string>{"MI2", "MI3"}));
}

TEST(ModelIoTruth, InteractionsThatAreNoArrayBreakMi4Only) {
  EXPECT_EQ(Broken("{" + std::string(kHead) + R"("interactions":{}})"),
            std::set<std::string>{"MI4"});
}

TEST(ModelIoTruth, IndicesCompareAsTheSpecsTypeScriptDoes) {
  // `1.0 === 1` in JavaScript: a number token with a fraction is still the index 1.
  EXPECT_EQ(Broken(Session(kHead, Interaction("0") + "," + Interaction("1.0"))),
            std::set<std::string>{});
  EXPECT_EQ(Broken(Session(kHead, Interaction("1") + "," + Interaction("0"))),
            (std::set<std::string>{"MI5", "MI9"}));
  EXPECT_EQ(Broken(Session(kHead, Interaction("\"0\""))), (std::set<std::string>{"MI5", "MI9"}));
  EXPECT_EQ(Broken(Session(kHead, Interaction("0") + "," + Interaction("0"))),
            (std::set<std::string>{"MI5", "MI8"}));
}

TEST(ModelIoTruth, AResponseHashMustBeTheContentsHash) {
  EXPECT_EQ(Broken(Session(kHead, Interaction("0", kEmpty))), std::set<std::string>{"MI7"});
  // No content to hash: the hash of "" is not the hash of a missing string.
  EXPECT_EQ(Broken(Session(kHead, R"({"i":0,"prompt_hash":")" + std::string(kEmpty) +
                                      R"(","response_hash":")" + kEmpty + R"("})")),
            std::set<std::string>{"MI7"});
}

TEST(ModelIoTruth, ARepeatedNameIsReadBothWays) {
  // First occurrence "record" (valid), last "x" (MI3): broken under one reading.
  EXPECT_EQ(Broken(R"({"model_io_schema_version":"1.0.0","adapter_id":"a","model_id":"m",)"
                   R"("mode":"record","mode":"x","interactions":[]})"),
            std::set<std::string>{"MI3"});
}

TEST(ModelIoTruth, MoreThanTenThousandInteractionsBreakMi4AndMi11) {
  std::string items;
  for (int n = 0; n <= 10'000; ++n) items += (n ? "," : "") + Interaction(std::to_string(n));
  EXPECT_EQ(Broken(Session(kHead, items)), (std::set<std::string>{"MI4", "MI11"}));
}

}  // namespace
}  // namespace arcs::conformance::model_io
