#include "runner/validate_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace arcs::runner {
namespace {

Result<LintConfig> Parse(std::string_view text) {
  return ParseLintConfig(text, "/p/.arcs.toml", "/p");
}

// The error of a config that does not parse, "" when it does.
std::string Error(std::string_view text) {
  const Result<LintConfig> config = Parse(text);
  return config.ok() ? "" : config.status().message();
}

TEST(RulePrefixes, MatchByPrefixOfTheId) {
  EXPECT_TRUE(MatchesAny("SP-4.3-1", {"SP-4"}));
  EXPECT_TRUE(MatchesAny("MRR-JSON-5", {"SP-", "MRR-"}));
  EXPECT_TRUE(MatchesAny("SP-3.5-1", {"SP-3.5-1"}));
  EXPECT_FALSE(MatchesAny("SP-3.5-1", {"SP-4", "sp-3"}));  // ids are compared as written
  EXPECT_FALSE(MatchesAny("SP-3.5-1", {}));
}

TEST(RulePrefixes, KnownOnlyWhenSomeCatalogueIdStartsWithThem) {
  EXPECT_TRUE(NamesSomeRule("SP-4"));
  EXPECT_TRUE(NamesSomeRule("MRR-"));
  EXPECT_TRUE(NamesSomeRule("MI1"));
  EXPECT_TRUE(NamesSomeRule("LB-LAYOUT-4"));
  EXPECT_FALSE(NamesSomeRule("SP-99"));
  EXPECT_FALSE(NamesSomeRule("sp-4"));
}

TEST(LintConfigTest, ReadsEveryKey) {
  const Result<LintConfig> config = Parse(R"(
select = ["SP-", "LB-"]
ignore = ["SP-3.5-1"]
max-warnings = 10

[per-file-ignores]
"legacy/*.spool" = ["SP-6"]
"*.jsonl" = ["LB-EVENT-17", "LB-META"]
)");
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_EQ(config->select, (std::vector<std::string>{"SP-", "LB-"}));
  EXPECT_EQ(config->ignore, std::vector<std::string>{"SP-3.5-1"});
  EXPECT_EQ(config->max_warnings, 10u);
  ASSERT_EQ(config->per_file_ignores.size(), 2u);
  EXPECT_TRUE(config->warnings.empty());
  // A glob with '/' is matched against the path below the config's folder ('*' crosses '/');
  // one without, against the file's name wherever it is.
  EXPECT_EQ(config->IgnoresFor("/p/legacy/a.spool"), std::vector<std::string>{"SP-6"});
  EXPECT_EQ(config->IgnoresFor("/p/legacy/old/a.spool"), std::vector<std::string>{"SP-6"});
  EXPECT_TRUE(config->IgnoresFor("/p/new/a.spool").empty());
  EXPECT_TRUE(config->IgnoresFor("/elsewhere/legacy/a.spool").empty());
  EXPECT_EQ(config->IgnoresFor("/p/deep/s/events.jsonl"),
            (std::vector<std::string>{"LB-EVENT-17", "LB-META"}));
}

TEST(LintConfigTest, AnEmptyFileChangesNothing) {
  const Result<LintConfig> config = Parse("# nothing yet\n");
  ASSERT_TRUE(config.ok());
  EXPECT_FALSE(config->select.has_value());
  EXPECT_TRUE(config->ignore.empty());
  EXPECT_FALSE(config->max_warnings.has_value());
}

TEST(LintConfigTest, APrefixThatNamesNoRuleIsAWarningWithItsLine) {
  const Result<LintConfig> config = Parse("ignore = [\n  \"SP-4\",\n  \"SP-99\",\n]\n");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->ignore, (std::vector<std::string>{"SP-4", "SP-99"}));
  EXPECT_EQ(config->warnings,
            std::vector<std::string>{"/p/.arcs.toml:3: warning: ignore 'SP-99' matches no rule of "
                                     "any format (arcs rules lists them)"});
}

TEST(LintConfigTest, MalformedConfigsSayWhereAndWhat) {
  // TOML itself.
  EXPECT_TRUE(Error("select = [\"SP-\"\n\nignore = 3").starts_with("/p/.arcs.toml:3: "))
      << Error("select = [\"SP-\"\n\nignore = 3");
  EXPECT_TRUE(Error("a = = 1").starts_with("/p/.arcs.toml:1: "));
  // Our keys.
  EXPECT_EQ(Error("\nignroe = [\"SP-4\"]"),
            "/p/.arcs.toml:2: unknown key 'ignroe' (known: select, ignore, max-warnings, "
            "per-file-ignores)");
  EXPECT_EQ(Error("ignore = \"SP-4\""),
            "/p/.arcs.toml:1: ignore wants an array of rule ids or prefixes, like [\"SP-4\"]");
  EXPECT_EQ(Error("select = [\"SP-4\",\n 3]"),
            "/p/.arcs.toml:2: select holds something that is not a string; each entry is a rule "
            "id or a prefix of one");
  EXPECT_EQ(Error("ignore = [\"\"]"),
            "/p/.arcs.toml:1: ignore holds an empty string; each entry is a rule id or a prefix "
            "of one");
  EXPECT_EQ(Error("max-warnings = -1"),
            "/p/.arcs.toml:1: max-warnings wants a whole number from 0 up");
  EXPECT_EQ(Error("max-warnings = 2.5"),
            "/p/.arcs.toml:1: max-warnings wants a whole number from 0 up");
  EXPECT_EQ(Error("max-warnings = \"3\""),
            "/p/.arcs.toml:1: max-warnings wants a whole number from 0 up");
  EXPECT_TRUE(
      Error("per-file-ignores = 1").starts_with("/p/.arcs.toml:1: per-file-ignores wants a table"));
  EXPECT_EQ(Error("[per-file-ignores]\n\"*.spool\" = \"SP-4\""),
            "/p/.arcs.toml:2: per-file-ignores \"*.spool\" wants an array of rule ids or prefixes, "
            "like [\"SP-4\"]");
  EXPECT_EQ(Error("[per-file-ignores]\n\"\" = [\"SP-4\"]"), "/p/.arcs.toml:2: an empty glob");
}

class ConfigFinderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/arcs-config-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { std::system(("rm -rf '" + root_ + "'").c_str()); }
  void Write(const std::string& path, const std::string& text) {
    std::ofstream(root_ + "/" + path) << text;
  }
  void Folder(const std::string& path) { ::mkdir((root_ + "/" + path).c_str(), 0755); }
  std::string root_;
};

TEST_F(ConfigFinderTest, TheNearestConfigFromTheFilesFolderUpWins) {
  Folder("a");
  Folder("a/b");
  Folder("a/b/c");
  Write(".arcs.toml", "ignore = [\"SP-3\"]\n");
  Write("a/b/.arcs.toml", "ignore = [\"SP-4\"]\n");
  ConfigFinder finder;
  Result<const LintConfig*> top = finder.For(root_ + "/a/x.spool");
  Result<const LintConfig*> near = finder.For(root_ + "/a/b/c/x.spool");
  Result<const LintConfig*> same = finder.For(root_ + "/a/b/y.spool");
  ASSERT_TRUE(top.ok() && near.ok() && same.ok());
  ASSERT_NE(*top, nullptr);
  ASSERT_NE(*near, nullptr);
  EXPECT_EQ((*top)->ignore, std::vector<std::string>{"SP-3"});
  EXPECT_EQ((*near)->ignore, std::vector<std::string>{"SP-4"});
  EXPECT_EQ(*same, *near);  // read once
  EXPECT_EQ((*near)->folder, root_ + "/a/b");
}

TEST_F(ConfigFinderTest, AMalformedOrUnreadableConfigIsTheFilesError) {
  Folder("bad");
  Folder("dir");
  Folder("dir/.arcs.toml");  // a folder where the config should be: it cannot be read
  Write("bad/.arcs.toml", "select = 1\n");
  ConfigFinder finder;
  const Result<const LintConfig*> bad = finder.For(root_ + "/bad/x.spool");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            root_ +
                "/bad/.arcs.toml:1: select wants an array of rule ids or prefixes, like "
                "[\"SP-4\"]");
  const Result<const LintConfig*> unreadable = finder.For(root_ + "/dir/x.spool");
  ASSERT_FALSE(unreadable.ok());
  EXPECT_NE(unreadable.status().message().find("is a directory"), std::string::npos)
      << unreadable.status().message();
}

}  // namespace
}  // namespace arcs::runner
