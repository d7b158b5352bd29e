// The manifest loader is strict: a manifest that would quietly mean something else (a typo in a
// member name, a policy missing a choice, an "acceptable" set that accepts only one outcome) is
// refused with the place named. What the cases expect is data, run by `arcs vectors`.
#include "conformance/vectors.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "conformance/registry.h"
#include "reference/core/io.h"

namespace arcs::conformance {
namespace {

class ManifestTest : public ::testing::Test {
 protected:
  // A one-case Spool manifest whose validate operation is `validate` (JSON text) and whose case
  // carries `extra` (JSON members, "" for none).
  Result<Manifest> Load(const std::string& validate, const std::string& extra = "") {
    const std::string manifest =
        R"({"manifest_version":2,"format":"spool","spec":"spool.md","spec_version":"1.0",)"
        R"("catalogue":"c","errata":"e","cases":[{"id":"spool-x","description":"d",)"
        R"("inputs":{"file":"x.spool"},)" +
        extra + R"("operations":{"validate":)" + validate + "}}]}";
    const std::string path = ::testing::TempDir() + "/manifest.json";
    EXPECT_TRUE(WriteFile(path, manifest).ok());
    return LoadManifest(path, *FindFormat("spool"));
  }
  static std::string Error(const Result<Manifest>& m) {
    return m.ok() ? "(loaded)" : m.status().message();
  }
};

constexpr char kRequired[] =
    R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"outcome":"invalid"}})";

TEST_F(ManifestTest, LoadsTheThreeGroundsAndTheArgs) {
  Result<Manifest> m = Load(kRequired, R"("args":{"limits":{"max_line_bytes":7}},)");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const VectorCase& c = m->cases.at(0);
  EXPECT_EQ(c.inputs.at("file"), ::testing::TempDir() + "/x.spool");
  EXPECT_EQ(c.args, R"({"limits":{"max_line_bytes":7}})");
  EXPECT_EQ(c.limits.at("max_line_bytes"), 7u);
  EXPECT_EQ(c.limits.at("max_entries"), FindFormat("spool")->DefaultLimits().at("max_entries"));
  EXPECT_EQ(c.operations.at(0).expect.ground, Ground::kRequired);

  m = Load(R"({"requirements":["SP-6.1-2"],"spec_text":"t","expect":{"flag":"SP-E14",)"
           R"("readings":{"iso-8601":"valid","rfc-3339":"invalid"},"arcs":"rfc-3339"}})");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const Expectation& e = m->cases.at(0).operations.at(0).expect;
  EXPECT_EQ(e.ground, Ground::kAcceptable);
  EXPECT_EQ(e.flag, "SP-E14");
  EXPECT_EQ(e.arcs_reading, "rfc-3339");
  EXPECT_EQ(e.outcomes.at("iso-8601"), "valid");
}

TEST_F(ManifestTest, RefusesWhatWouldQuietlyMeanSomethingElse) {
  struct Bad {
    std::string validate;
    std::string extra;
    std::string error;
  } cases[] = {
      {R"({"requirements":["SP-3.4-1"],"spec_txt":"t","expect":{"outcome":"invalid"}})", "",
       "/cases/0/operations/validate/spec_text: missing"},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","spec_txt":"t","expect":{"outcome":"invalid"}})",
       "", "/cases/0/operations/validate/spec_txt: unknown member"},
      {R"({"requirements":"SP-3.4-1","spec_text":"t","expect":{"outcome":"invalid"}})", "",
       "/cases/0/operations/validate/requirements: expected an array, found a string"},
      {R"({"requirements":[],"spec_text":"t","expect":{"outcome":"invalid"}})", "",
       "/cases/0/operations/validate/requirements: is empty"},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"outcome":"accept"}})", "",
       "/cases/0/operations/validate/expect/outcome: \"accept\" is not an outcome of validate"},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"policy":"invalid_line",)"
       R"("outcomes":{"reject":"invalid"}}})",
       "", "/cases/0/operations/validate/expect/outcomes: must list every choice of invalid_line"},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"policy":"no_such",)"
       R"("outcomes":{}}})",
       "", "/cases/0/operations/validate/expect/policy: \"no_such\" is not a policy of spool"},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"flag":"SP-E1",)"
       R"("readings":{"a":"valid","b":"valid"},"arcs":"a"}})",
       "",
       "/cases/0/operations/validate/expect/readings: an acceptable set needs readings with "
       "different outcomes"},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"flag":"SP-E1",)"
       R"("readings":{"a":"valid","b":"invalid"},"arcs":"c"}})",
       "", "/cases/0/operations/validate/expect/arcs: \"c\" is not one of the readings"},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{}})", "",
       "/cases/0/operations/validate/expect: needs \"outcome\""},
      {R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"outcome":"invalid"},)"
       R"("rules":{"errors":["SP-3.6-1","SP-3.4-1"],"warnings":[]}})",
       "", "/cases/0/operations/validate/rules/errors: must be sorted and unique"},
      {kRequired, R"("args":{"limits":{"max_lines":7}},)",
       "/cases/0/args: /limits/max_lines: unknown spool limit 'max_lines'"},
      {kRequired, R"("args":{"limits":{"max_entries":-1}},)",
       "/cases/0/args: /limits/max_entries: expected a non-negative integer"},
      {kRequired, R"("args":{"limit":{}},)", "/cases/0/args: /limit: unknown member"},
      {kRequired, R"("note":"x",)", "/cases/0/note: unknown member"},
  };
  for (const Bad& b : cases) {
    std::string error = Error(Load(b.validate, b.extra));
    EXPECT_NE(error.find(b.error), std::string::npos) << b.validate << b.extra << "\n-> " << error;
  }
}

TEST_F(ManifestTest, RefusesUnknownOperationsAndMissingInputs) {
  const std::string path = ::testing::TempDir() + "/manifest.json";
  auto load = [&](const std::string& cases) {
    EXPECT_TRUE(WriteFile(path, R"({"manifest_version":2,"format":"spool","spec":"s",)"
                                R"("spec_version":"1.0","catalogue":"c","errata":"e","cases":)" +
                                    cases + "}")
                    .ok());
    return Error(LoadManifest(path, *FindFormat("spool")));
  };
  const std::string op =
      R"({"requirements":["SP-3.4-1"],"spec_text":"t","expect":{"outcome":"invalid"}})";
  EXPECT_NE(load(R"([{"id":"spool-x","description":"d","inputs":{"file":"x"},)"
                 R"("operations":{"hash":)" +
                 op + "}}]")
                .find("/cases/0/operations/hash: not an operation of spool"),
            std::string::npos);
  EXPECT_NE(load(R"([{"id":"spool-x","description":"d","inputs":{"events":"x"},)"
                 R"("operations":{"validate":)" +
                 op + "}}]")
                .find("/cases/0/operations/validate: needs the input \"file\""),
            std::string::npos);
  EXPECT_NE(load(R"([{"id":"lightbox-x","description":"d","inputs":{"file":"x"},)"
                 R"("operations":{"validate":)" +
                 op + "}}]")
                .find("/cases/0/id: must start with \"spool-\""),
            std::string::npos);
  const std::string one =
      R"({"id":"spool-x","description":"d","inputs":{"file":"x"},"operations":{"validate":)" + op +
      "}}";
  EXPECT_NE(load("[" + one + "," + one + "]").find("\"spool-x\" is used twice"), std::string::npos);
}

}  // namespace
}  // namespace arcs::conformance
