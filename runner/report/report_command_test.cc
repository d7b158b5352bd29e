#include "runner/report/report_command.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "reference/core/io.h"
#include "runner/report/render.h"
#include "runner/report/report.h"
#include "runner/report/sample.h"

namespace arcs::runner {
namespace {

namespace fs = std::filesystem;
using report::testing::SampleReport;

class ReportCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "arcs_report_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, std::string_view content) {
    const std::string path = dir_ + "/" + name;
    EXPECT_TRUE(WriteFile(path, content).ok());
    return path;
  }

  // Runs a command and keeps what it printed.
  int Run(int (*command)(const std::vector<std::string>&), std::vector<std::string> args) {
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int status = command(args);
    out_ = ::testing::internal::GetCapturedStdout();
    err_ = ::testing::internal::GetCapturedStderr();
    return status;
  }

  std::string dir_, out_, err_;
};

TEST_F(ReportCommandTest, ReportRendersEachForm) {
  const std::string path = Write("r.json", report::ToJson(SampleReport()));
  EXPECT_EQ(Run(ReportCommand, {path, "--markdown"}), 0) << err_;
  EXPECT_EQ(out_, report::RenderMarkdown(SampleReport()));
  EXPECT_EQ(Run(ReportCommand, {"--html", path}), 0) << err_;
  EXPECT_EQ(out_, report::RenderHtml(SampleReport()));
  EXPECT_EQ(Run(ReportCommand, {path, "--junit", "--out", dir_ + "/r.xml"}), 0) << err_;
  EXPECT_EQ(out_, "");
  EXPECT_EQ(*ReadFile(dir_ + "/r.xml"), report::RenderJunit(SampleReport()));
  EXPECT_EQ(Run(ReportCommand, {path, "--badges", dir_ + "/badges"}), 0) << err_;
  EXPECT_TRUE(fs::exists(dir_ + "/badges/arcs-reference-spool.svg"));
  EXPECT_EQ(fs::directory_iterator(dir_ + "/badges") == fs::directory_iterator(), false);
}

TEST_F(ReportCommandTest, ReportUsageErrors) {
  const std::string path = Write("r.json", report::ToJson(SampleReport()));
  EXPECT_EQ(Run(ReportCommand, {}), 2);
  EXPECT_EQ(Run(ReportCommand, {path}), 2);
  EXPECT_NE(err_.find("give exactly one of"), std::string::npos);
  EXPECT_EQ(Run(ReportCommand, {path, "--html", "--junit"}), 2);
  EXPECT_EQ(Run(ReportCommand, {path, "--html", "--out"}), 2);
  EXPECT_EQ(Run(ReportCommand, {path, "--badges", dir_, "--out", "x"}), 2);
  EXPECT_EQ(Run(ReportCommand, {path, path, "--html"}), 2);
  EXPECT_EQ(Run(ReportCommand, {path, "--pdf"}), 2);
  EXPECT_NE(err_.find("unknown option --pdf"), std::string::npos);
  EXPECT_EQ(Run(ReportCommand, {"--help"}), 0);
  EXPECT_NE(out_.find("usage: arcs report"), std::string::npos);
}

TEST_F(ReportCommandTest, ReportRejectsUnreadableReports) {
  EXPECT_EQ(Run(ReportCommand, {dir_ + "/missing.json", "--html"}), 2);
  EXPECT_NE(err_.find("missing.json"), std::string::npos);
  std::string text = report::ToJson(SampleReport());
  text.replace(text.find("\"complete\": false"), 17, "\"complete\": false, \"\\u001b[2J\": 1");
  const std::string bad = Write("bad.json", text);
  EXPECT_EQ(Run(ReportCommand, {bad, "--markdown"}), 2);
  // The member name is the file's: shown escaped, not sent to the terminal.
  EXPECT_EQ(err_, "arcs report: " + bad + ": /\\u001b[2J: unknown member\n");
  EXPECT_EQ(out_, "");
  EXPECT_EQ(Run(ReportCommand, {Write("w.json", report::ToJson(SampleReport())), "--html", "--out",
                                dir_ + "/no/such/dir/x.html"}),
            2);
}

TEST_F(ReportCommandTest, DiffCatchesAnInjectedRegression) {
  const std::string old_path = Write("old.json", report::ToJson(SampleReport()));
  EXPECT_EQ(Run(DiffCommand, {old_path, old_path}), 0) << out_ << err_;
  EXPECT_EQ(Run(DiffCommand, {old_path, old_path, "--fail-on-change"}), 0) << out_ << err_;

  // The same run again, with only volatile facts changed: still no difference.
  report::Report rerun = SampleReport();
  rerun.run.seconds = 42;
  rerun.run.started_at = "2031-01-01T00:00:00Z";
  rerun.implementations[1].stderr_tail = "other noise";
  rerun.implementations[1].restarts = 7;
  const std::string rerun_path = Write("rerun.json", report::ToJson(rerun));
  EXPECT_EQ(Run(DiffCommand, {old_path, rerun_path, "--fail-on-change"}), 0) << out_;

  report::Report regressed = SampleReport();
  regressed.implementations[0].cases[1].outcome = report::Outcome::kErrored;
  regressed.implementations[0].cases[1].error_kind = "timeout";
  const std::string new_path = Write("new.json", report::ToJson(regressed));
  EXPECT_EQ(Run(DiffCommand, {old_path, new_path}), 1);
  EXPECT_NE(out_.find("regressions:\n  arcs-reference  spool  spool-11.4-skip  validate: passed "
                      "-> errored\n      error_kind: \"\" -> \"timeout\"\n"),
            std::string::npos)
      << out_;
  EXPECT_NE(out_.find("arcs diff: 1 regression,"), std::string::npos) << out_;
  // Reversed, the same change is an improvement: exit 0, unless every change counts.
  EXPECT_EQ(Run(DiffCommand, {new_path, old_path}), 0) << out_;
  EXPECT_EQ(Run(DiffCommand, {new_path, old_path, "--fail-on-change"}), 1) << out_;
}

TEST_F(ReportCommandTest, DiffFailOnChangeSeesCertificationAndAddedCases) {
  const std::string old_path = Write("old.json", report::ToJson(SampleReport()));
  report::Report changed = SampleReport();
  changed.implementations[1].formats[1].certification = "partial";
  const std::string certification = Write("cert.json", report::ToJson(changed));
  EXPECT_EQ(Run(DiffCommand, {old_path, certification}), 0) << out_;
  EXPECT_EQ(Run(DiffCommand, {old_path, certification, "--fail-on-change"}), 1) << out_;

  changed = SampleReport();
  changed.implementations[0].cases.push_back(changed.implementations[0].cases.back());
  changed.implementations[0].cases.back().id = "spool-99-new";
  const std::string added = Write("added.json", report::ToJson(changed));
  EXPECT_EQ(Run(DiffCommand, {old_path, added}), 0) << out_;
  EXPECT_EQ(Run(DiffCommand, {old_path, added, "--fail-on-change"}), 1) << out_;
  EXPECT_NE(out_.find("1 case added"), std::string::npos) << out_;
}

TEST_F(ReportCommandTest, DiffUsageAndInputErrors) {
  const std::string path = Write("r.json", report::ToJson(SampleReport()));
  EXPECT_EQ(Run(DiffCommand, {path}), 2);
  EXPECT_EQ(Run(DiffCommand, {path, path, path}), 2);
  EXPECT_EQ(Run(DiffCommand, {path, path, "--fail-on-everything"}), 2);
  EXPECT_EQ(Run(DiffCommand, {path, dir_ + "/missing.json"}), 2);
  EXPECT_NE(err_.find("missing.json"), std::string::npos);
  EXPECT_EQ(Run(DiffCommand, {Write("x.json", "not json"), path}), 2);
  EXPECT_EQ(Run(DiffCommand, {"--help"}), 0);
  EXPECT_NE(out_.find("usage: arcs diff"), std::string::npos);
}

TEST_F(ReportCommandTest, WriteAllRenderingsWritesEveryForm) {
  ASSERT_TRUE(report::WriteAllRenderings(SampleReport(), dir_ + "/out", "reference").ok());
  for (const char* name : {"reference.json", "reference.md", "reference.html",
                           "reference.junit.xml", "badges/arcs-reference-spool.svg"}) {
    EXPECT_TRUE(fs::exists(dir_ + "/out/" + name)) << name;
  }
  Result<report::Report> back = report::ReadReportFile(dir_ + "/out/reference.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(*back == SampleReport());
  Status s = report::WriteAllRenderings(SampleReport(), dir_ + "/out/reference.json", "x");
  EXPECT_FALSE(s.ok());
}

}  // namespace
}  // namespace arcs::runner
