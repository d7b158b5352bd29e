#include "runner/fuzz/rechain.h"

#include <gtest/gtest.h>

#include "conformance/registry.h"
#include "reference/core/io.h"

namespace arcs::fuzz {
namespace {

const conformance::FormatModule& Lightbox() { return *conformance::FindFormat("lightbox"); }
const conformance::HashChain& Chain() { return Lightbox().hash_chains.at(0); }

// The reference's verify operation: "verified" or "failed".
bool Verified(const std::string& events) {
  const std::map<std::string, std::string> inputs = {{"events", events}};
  const conformance::CaseInput input{&inputs, Lightbox().DefaultLimits()};
  return Lightbox().FindOperation("verify")->reference(input).verdict == protocol::Verdict::kValid;
}

std::string Vector(const std::string& name) {
  Result<std::string> text =
      ReadFile(std::string(getenv("ARCS_SOURCE_DIR")) + "/vectors/lightbox/cases/" + name);
  EXPECT_TRUE(text.ok()) << name;
  return text.ok() ? *text : "";
}

std::string Replace(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(Rechain, AnIntactChainIsKeptByteForByte) {
  const std::string events = Vector("async-pair/events.jsonl");
  ASSERT_TRUE(Verified(events));
  EXPECT_EQ(Rechain(events, Chain()), events);
}

TEST(Rechain, AnEditedEventIsSealedAgainAndOnlyTheHashesChange) {
  const std::string events = Vector("async-pair/events.jsonl");
  // Another job, spaced otherwise: the canonical form hashes the data, the bytes stay as edited.
  const std::string edited = Replace(events, R"({"job": "build"})", R"({ "job" :"test"  })");
  ASSERT_FALSE(Verified(edited));
  const std::string sealed = Rechain(edited, Chain());
  EXPECT_TRUE(Verified(sealed));
  ASSERT_EQ(sealed.size(), edited.size());  // 64 hex digits replace 64
  std::size_t differing = 0;
  for (std::size_t i = 0; i < sealed.size(); ++i) differing += sealed[i] != edited[i];
  EXPECT_GT(differing, 0u);
  EXPECT_NE(sealed.find(R"({ "job" :"test"  })"), std::string::npos);
}

TEST(Rechain, ReorderedEventsAreLinkedInTheirNewOrder) {
  const std::string events = Vector("async-pair/events.jsonl");
  const std::size_t first_end = events.find('\n') + 1;
  const std::string swapped = events.substr(first_end) + events.substr(0, first_end);
  ASSERT_FALSE(Verified(swapped));
  EXPECT_TRUE(Verified(Rechain(swapped, Chain())));
}

TEST(Rechain, LineEndingsBlankLinesAndNestedNamesAreKept) {
  // prev_hash and hash nested in input are data, not the chain's: left as they are.
  const std::string events =
      "{\"input\":{\"hash\":\"x\",\"prev_hash\":1},\"prev_hash\":\"zz\",\"hash\":\"\"}\r\n"
      "\n"
      "  \r\n"
      "{\"prev_hash\":null,\"hash\":null,\"n\":2}";
  const std::string sealed = Rechain(events, Chain());
  EXPECT_TRUE(Verified(sealed)) << sealed;
  EXPECT_NE(sealed.find("{\"input\":{\"hash\":\"x\",\"prev_hash\":1},\"prev_hash\":null,"),
            std::string::npos)
      << sealed;
  EXPECT_NE(sealed.find("\r\n\n  \r\n"), std::string::npos);
  EXPECT_EQ(sealed.back(), '}');
}

TEST(Rechain, ALineWithoutAHashIsLeftAndTheNextLinksToTheLastHashed) {
  const std::string events =
      "{\"prev_hash\":null,\"hash\":\"\",\"n\":1}\n"
      "not json\n"
      "{\"prev_hash\":null,\"hash\":\"\",\"f\":1.5}\n"
      "{\"prev_hash\":null,\"hash\":\"\",\"n\":3}\n";
  const std::string sealed = Rechain(events, Chain());
  EXPECT_NE(sealed.find("\nnot json\n{\"prev_hash\":\""), std::string::npos) << sealed;
  // The float line cannot be hashed: its hash stays empty, and the line after it links to the
  // first line, the last one hashed.
  const std::size_t first_hash = sealed.find("\"hash\":\"") + 8;
  const std::string first = sealed.substr(first_hash, 64);
  EXPECT_NE(sealed.find(",\"f\":1.5}\n{\"prev_hash\":\"" + first + "\""), std::string::npos)
      << sealed;
  EXPECT_NE(sealed.find("\"hash\":\"\",\"f\":1.5"), std::string::npos) << sealed;
}

TEST(Rechain, AMissingMemberStaysMissing) {
  const std::string sealed = Rechain("{\"n\":1}\n", Chain());
  EXPECT_EQ(sealed, "{\"n\":1}\n");
}

}  // namespace
}  // namespace arcs::fuzz
