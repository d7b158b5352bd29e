// Holds the checker, the catalogue and the vectors to each other: a rule citing a requirement that
// does not exist, a MUST with neither a rule, a vector nor a written reason, or a vector citing an
// unknown id fails here.
#include "conformance/catalogue.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "conformance/spool/checker.h"
#include "conformance/vectors.h"

namespace arcs::conformance {
namespace {

std::string SourcePath(const std::string& relative) {
  const char* root = std::getenv("ARCS_SOURCE_DIR");
  return std::string(root ? root : ".") + "/" + relative;
}

class SpoolCatalogue : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<Catalogue> c = LoadCatalogue(SourcePath("conformance/spool/requirements.json"));
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    catalogue_ = std::move(*c);
    Result<Manifest> m = LoadManifest(SourcePath("vectors/spool/manifest.json"));
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    manifest_ = std::move(*m);
  }
  Catalogue catalogue_;
  Manifest manifest_;
};

TEST_F(SpoolCatalogue, IdsAreUniqueAndWellFormed) {
  std::set<std::string> seen;
  for (const Requirement& r : catalogue_.requirements) {
    EXPECT_TRUE(seen.insert(r.id).second) << "duplicate id " << r.id;
    EXPECT_TRUE(r.id.starts_with("SP-" + r.section + "-")) << r.id << " vs section " << r.section;
    EXPECT_FALSE(r.text.empty()) << r.id;
    EXPECT_TRUE(r.coverage == "checker" || r.coverage == "vectors" || r.coverage == "unchecked")
        << r.id << ": " << r.coverage;
    EXPECT_TRUE(r.subject == "file" || r.subject == "reader" || r.subject == "writer" ||
                r.subject == "implementation" || r.subject == "display")
        << r.id << ": " << r.subject;
  }
}

TEST_F(SpoolCatalogue, EveryRuleCitesAnExistingRequirementAtItsLevel) {
  for (const spool::RuleRef& rule : spool::AllRules()) {
    const Requirement* r = catalogue_.Find(rule.id);
    ASSERT_NE(r, nullptr) << "the checker cites " << rule.id << ", which the catalogue lacks";
    EXPECT_EQ(r->level, rule.level) << rule.id;
    EXPECT_EQ(r->coverage, "checker") << rule.id << " is checked, but the catalogue says "
                                      << r->coverage;
  }
}

TEST_F(SpoolCatalogue, EveryCheckerRequirementHasARule) {
  std::set<std::string_view> cited;
  for (const spool::RuleRef& rule : spool::AllRules()) cited.insert(rule.id);
  for (const Requirement& r : catalogue_.requirements) {
    if (r.coverage == "checker") {
      EXPECT_TRUE(cited.count(r.id)) << r.id << " has no rule";
    }
  }
}

TEST_F(SpoolCatalogue, EveryMustIsCheckedTestedOrExplained) {
  std::set<std::string> by_vectors;
  for (const VectorCase& c : manifest_.cases) by_vectors.insert(c.requirements.begin(), c.requirements.end());
  for (const Requirement& r : catalogue_.requirements) {
    if (r.level != Level::kMust) continue;
    if (r.coverage == "unchecked") {
      EXPECT_FALSE(r.reason.empty()) << r.id << " is unchecked without a reason";
    } else if (r.coverage == "vectors") {
      EXPECT_TRUE(by_vectors.count(r.id)) << r.id << " claims vectors, but none cites it";
    }
  }
}

TEST_F(SpoolCatalogue, VectorsCiteOnlyExistingRequirements) {
  std::set<std::string> ids;
  for (const VectorCase& c : manifest_.cases) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate case id " << c.id;
    EXPECT_FALSE(c.requirements.empty()) << c.id;
    for (const std::string& id : c.requirements) {
      EXPECT_NE(catalogue_.Find(id), nullptr) << c.id << " cites unknown " << id;
    }
    for (const auto* list : {&c.expected_errors, &c.expected_warnings}) {
      for (const std::string& id : *list) {
        EXPECT_NE(catalogue_.Find(id), nullptr) << c.id << " expects unknown rule " << id;
      }
    }
  }
  EXPECT_GE(manifest_.cases.size(), 150u);
}

TEST_F(SpoolCatalogue, EveryFileMustThatCanBeViolatedIsViolatedByAVector) {
  std::set<std::string> violated;
  for (const VectorCase& c : manifest_.cases) violated.insert(c.expected_errors.begin(), c.expected_errors.end());
  for (const spool::RuleRef& rule : spool::AllRules()) {
    if (rule.level != Level::kMust) continue;
    EXPECT_TRUE(violated.count(std::string(rule.id))) << "no vector violates " << rule.id;
  }
}

}  // namespace
}  // namespace arcs::conformance
