// The manifest loader is strict: a manifest that would quietly mean something else (a typo in a
// member name, a policy missing a choice, an "acceptable" set that accepts only one outcome) is
// refused with the place named. What the cases expect is data, run by `arcs vectors`.
#include "conformance/vectors.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "conformance/registry.h"
#include "reference/core/io.h"
#include "reference/core/testing/scratch_dir.h"

namespace arcs::conformance {
namespace {

// This process's own folder for the files a test writes: ctest runs each test in a process of its
// own, several at a time, and a shared /tmp/manifest.json was overwritten by another test now and
// then.
const std::string& Dir() {
  static const testing::ScratchDir dir("arcs-vectors-test");
  return dir.path();
}

class ManifestTest : public ::testing::Test {
 protected:
  // A one-case Spool manifest whose validate operation is `validate` (JSON text), whose case
  // carries `extra` (JSON members, "" for none) and whose quotes member is `quotes`.
  Result<Manifest> Load(const std::string& validate, const std::string& extra = "",
                        const std::string& quotes = R"("quotes":{"t":"T"})") {
    const std::string manifest =
        R"({"manifest_version":3,"format":"spool","spec":"spool.md","spec_version":"1.0",)"
        R"("catalogue":"c","errata":"e",)" +
        quotes +
        R"(,"cases":[{"id":"spool-x","description":"d",)"
        R"("inputs":{"file":"x.spool"},)" +
        extra + R"("operations":{"validate":)" + validate + "}}]}";
    const std::string path = Dir() + "/manifest.json";
    EXPECT_TRUE(WriteFile(path, manifest).ok());
    return LoadManifest(path, *FindFormat("spool"));
  }
  static std::string Error(const Result<Manifest>& m) {
    return m.ok() ? "(loaded)" : m.status().message();
  }
};

constexpr char kRequired[] =
    R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"outcome":"invalid"}})";

TEST_F(ManifestTest, LoadsTheThreeGroundsAndTheArgs) {
  Result<Manifest> m = Load(kRequired, R"("args":{"limits":{"max_line_bytes":7}},)");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const VectorCase& c = m->cases.at(0);
  EXPECT_EQ(c.inputs.at("file"), Dir() + "/x.spool");
  EXPECT_EQ(c.args, R"({"limits":{"max_line_bytes":7}})");
  EXPECT_EQ(c.limits.at("max_line_bytes"), 7u);
  EXPECT_EQ(c.limits.at("max_entries"), FindFormat("spool")->DefaultLimits().at("max_entries"));
  EXPECT_EQ(c.operations.at(0).expect.ground, Ground::kRequired);

  m = Load(R"({"requirements":["SP-6.1-2"],"cites":["t"],"expect":{"flag":"SP-E14",)"
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
      {R"({"requirements":["SP-3.4-1"],"cite":["t"],"expect":{"outcome":"invalid"}})", "",
       "/cases/0/operations/validate/cites: missing"},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"cite":["t"],"expect":{"outcome":"invalid"}})",
       "", "/cases/0/operations/validate/cite: unknown member"},
      {R"({"requirements":"SP-3.4-1","cites":["t"],"expect":{"outcome":"invalid"}})", "",
       "/cases/0/operations/validate/requirements: expected an array, found a string"},
      {R"({"requirements":[],"cites":["t"],"expect":{"outcome":"invalid"}})", "",
       "/cases/0/operations/validate/requirements: is empty"},
      {R"({"requirements":["SP-3.6-1","SP-3.4-1"],"cites":["t"],"expect":{"outcome":"invalid"}})",
       "", "/cases/0/operations/validate/requirements: must be sorted and unique"},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"outcome":"accept"}})", "",
       "/cases/0/operations/validate/expect/outcome: \"accept\" is not an outcome of validate"},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"policy":"invalid_line",)"
       R"("outcomes":{"reject":"invalid"}}})",
       "", "/cases/0/operations/validate/expect/outcomes: must list every choice of invalid_line"},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"policy":"no_such",)"
       R"("outcomes":{}}})",
       "", "/cases/0/operations/validate/expect/policy: \"no_such\" is not a policy of spool"},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"flag":"SP-E1",)"
       R"("readings":{"a":"valid","b":"valid"},"arcs":"a"}})",
       "",
       "/cases/0/operations/validate/expect/readings: an acceptable set needs readings with "
       "different outcomes"},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"flag":"SP-E1",)"
       R"("readings":{"a":"valid","b":"invalid"},"arcs":"c"}})",
       "", "/cases/0/operations/validate/expect/arcs: \"c\" is not one of the readings"},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{}})", "",
       "/cases/0/operations/validate/expect: needs \"outcome\""},
      {R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"outcome":"invalid"},)"
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
  const std::string path = Dir() + "/manifest.json";
  auto load = [&](const std::string& cases) {
    EXPECT_TRUE(WriteFile(path, R"({"manifest_version":3,"format":"spool","spec":"s",)"
                                R"("spec_version":"1.0","catalogue":"c","errata":"e",)"
                                R"("quotes":{"t":"T"},"cases":)" +
                                    cases + "}")
                    .ok());
    return Error(LoadManifest(path, *FindFormat("spool")));
  };
  const std::string op =
      R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"outcome":"invalid"}})";
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

TEST_F(ManifestTest, RefusesASameHashAsThatNamesNoOtherCase) {
  EXPECT_EQ(Error(Load(R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":)"
                       R"({"outcome":"invalid"},"same_hash_as":"spool-x"})")),
            Dir() +
                "/manifest.json: /cases/0/operations/validate/same_hash_as: \"spool-x\" is not "
                "another case of the manifest");
}

TEST_F(ManifestTest, RefusesAFlagWhoseCasesNameOtherReadings) {
  const std::string path = Dir() + "/manifest.json";
  const auto flagged = [](const std::string& id, const std::string& second_reading) {
    return R"({"id":")" + id +
           R"(","description":"d","inputs":{"file":"x"},"operations":{"validate":)"
           R"({"requirements":["SP-3.4-1"],"cites":["t"],"expect":{"flag":"SP-E1",)"
           R"("readings":{"a":"valid",")" +
           second_reading + R"(":"invalid"},"arcs":"a"}}}})";
  };
  const auto load = [&](const std::string& second_case) {
    EXPECT_TRUE(WriteFile(path, R"({"manifest_version":3,"format":"spool","spec":"s",)"
                                R"("spec_version":"1.0","catalogue":"c","errata":"e",)"
                                R"("quotes":{"t":"T"},"cases":[)" +
                                    flagged("spool-x", "b") + "," + second_case + "]}")
                    .ok());
    return Error(LoadManifest(path, *FindFormat("spool")));
  };
  EXPECT_EQ(load(flagged("spool-y", "b")), "(loaded)");
  EXPECT_EQ(load(flagged("spool-y", "c")),
            path +
                ": /cases/1/operations/validate/expect/readings: the cases of SP-E1 must list the "
                "same readings (a, c here, a, b at /cases/0/operations/validate)");
}

// A quotation is stated once, in "quotes", and cited by id: the loaded text is each quotation and
// each run of errata ids ("errata A, B"), joined with "; " (vectors/README.md "Quotes").
TEST_F(ManifestTest, CitesResolveToTheQuotationsText) {
  Result<Manifest> m = Load(
      R"({"requirements":["SP-3.4-1"],"cites":["SP-3.4-1","SP-E1","SP-E2","rfc-8259-8.1","SP-E3"],)"
      R"("expect":{"outcome":"invalid"}})",
      "",
      R"("quotes":{"SP-3.4-1":"§3.4: \"Files MUST NOT begin with a BOM\"",)"
      R"("rfc-8259-8.1":"RFC 8259 §8.1: \"Implementations MUST NOT add a byte order mark\""})");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const OperationCase& op = m->cases.at(0).operations.at(0);
  EXPECT_EQ(op.spec_text,
            "§3.4: \"Files MUST NOT begin with a BOM\"; errata SP-E1, SP-E2; RFC 8259 §8.1: "
            "\"Implementations MUST NOT add a byte order mark\"; errata SP-E3");
  EXPECT_EQ(op.errata_cited, (std::vector<std::string>{"SP-E1", "SP-E2", "SP-E3"}));
}

TEST_F(ManifestTest, RefusesAnUnknownQuoteIdAndAnUncitedQuote) {
  const std::string cites_nope =
      R"({"requirements":["SP-3.4-1"],"cites":["t","nope"],"expect":{"outcome":"invalid"}})";
  EXPECT_EQ(Error(Load(cites_nope)),
            Dir() +
                "/manifest.json: /cases/0/operations/validate/cites/1: \"nope\" is neither a "
                "quote of /quotes nor an errata id");
  EXPECT_NE(Error(Load(kRequired, "", R"("quotes":{"t":"T","u":"U"})"))
                .find("/quotes/u: is cited by no operation"),
            std::string::npos);
  EXPECT_NE(
      Error(Load(R"({"requirements":["SP-3.4-1"],"cites":[],"expect":{"outcome":"invalid"}})"))
          .find("/cases/0/operations/validate/cites: is empty"),
      std::string::npos);
  EXPECT_NE(Error(Load(kRequired, "", "\"x\":1")).find("/quotes: missing"), std::string::npos);
}

// A manifest's references outside itself, in a tree made here: its errata, its input files.
TEST(ManifestReferences, RefusesUnknownErrataAndMissingOrStrayInputs) {
  const std::string root = Dir() + "/references";
  const std::string folder = root + "/vectors/spool/";
  std::filesystem::create_directories(folder + "cases");
  ASSERT_TRUE(WriteFile(root + "/errata.md", "# Errata\n\n### SP-E1 — one\n\ntext\n").ok());
  ASSERT_TRUE(WriteFile(folder + "cases/x.spool", "{}\n").ok());
  const auto check = [&](const std::string& cites, const std::string& file) {
    EXPECT_TRUE(WriteFile(folder + "manifest.json",
                          R"({"manifest_version":3,"format":"spool","spec":"s","spec_version":"1",)"
                          R"("catalogue":"c","errata":"errata.md","quotes":{"t":"T"},"cases":[)"
                          R"({"id":"spool-x","description":"d","inputs":{"file":")" +
                              file +
                              R"("},"operations":{"validate":{"requirements":["SP-3.4-1"],)"
                              R"("cites":)" +
                              cites + R"(,"expect":{"outcome":"invalid"}}}}]})")
                    .ok());
    Result<Manifest> m = LoadManifest(folder + "manifest.json", *FindFormat("spool"));
    EXPECT_TRUE(m.ok()) << m.status().ToString();
    if (!m.ok()) return std::string("(not loaded)");
    const Status s = CheckManifestReferences(*m, *FindFormat("spool"), root);
    return s.ok() ? std::string("(ok)") : s.message();
  };
  EXPECT_EQ(check(R"(["t","SP-E1"])", "cases/x.spool"), "(ok)");
  EXPECT_EQ(check(R"(["t","SP-E2"])", "cases/x.spool"),
            "spool manifest: not an entry of errata.md: spool-x/validate: SP-E2");
  const std::string missing = check(R"(["t"])", "cases/y.spool");
  EXPECT_NE(
      missing.find("missing or stray input files: spool-x: input file " + folder + "cases/y.spool"),
      std::string::npos)
      << missing;
  EXPECT_NE(missing.find("named by no case: " + folder + "cases/x.spool"), std::string::npos)
      << missing;
}

std::string SourcePath(const std::string& relative) {
  const char* root = std::getenv("ARCS_SOURCE_DIR");
  return std::string(root ? root : ".") + "/" + relative;
}

class CommittedManifest : public ::testing::TestWithParam<const FormatModule*> {};

TEST_P(CommittedManifest, LoadsAndItsReferencesHold) {
  Result<Manifest> m = LoadManifest(SourcePath(GetParam()->ManifestPath()), *GetParam());
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  const Status s = CheckManifestReferences(*m, *GetParam(), SourcePath(""));
  EXPECT_TRUE(s.ok()) << s.message();
}

INSTANTIATE_TEST_SUITE_P(Registry, CommittedManifest,
                         ::testing::ValuesIn(Formats().begin(), Formats().end()),
                         [](const ::testing::TestParamInfo<const FormatModule*>& info) {
                           return info.param->Folder();
                         });

}  // namespace
}  // namespace arcs::conformance
