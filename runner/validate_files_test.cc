#include "runner/validate_files.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "conformance/registry.h"

namespace arcs::runner {
namespace {

class WalkFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "/walk-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    Write("a.spool", "x");
    Write("b.spool", "x");
    Write("b/c.spool", "x");
    Write("b/notes.txt", "not a recording");
    Write("sess/events.jsonl", "x");
    Write("sess/meta.json", "{}");
    Write("x/session.json", R"({"schemaVersion":"1.0","sessionId":"s","exchanges":[]})");
    Write("x/other.json", R"({"schemaVersion":"1.0"})");
    Write(".hidden/d.spool", "x");
    Write("x/.e.spool", "x");
    Link("..", "x/up");         // a loop back to the root
    Link("../b", "x/b-again");  // a folder already walked
    Link("../a.spool", "x/link.spool");
    Link("nowhere", "x/dangling.spool");
    Link("nowhere", "x/dangling.txt");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  void Write(const std::string& path, const std::string& bytes) {
    const std::filesystem::path full = root_ + "/" + path;
    std::filesystem::create_directories(full.parent_path());
    std::ofstream(full) << bytes;
  }
  void Link(const std::string& target, const std::string& path) {
    ASSERT_EQ(::symlink(target.c_str(), (root_ + "/" + path).c_str()), 0);
  }

  // "path:format" for each file found below the root (paths from it), then "!path: reason" for
  // each failure (its message, the path from the root).
  std::vector<std::string> Walk(const char* only) {
    std::vector<std::string> seen;
    std::vector<std::string> failures;
    const std::uint64_t count = WalkFolder(
        root_, only ? conformance::FindFormat(only) : nullptr,
        [&](const FoundFile& f) {
          seen.push_back(f.path.substr(root_.size() + 1) + ":" + std::string(f.format->name));
        },
        [&](const std::string& path, const std::string& message) {
          EXPECT_TRUE(message.starts_with(path + ": ")) << message;
          failures.push_back("!" + message.substr(root_.size() + 1));
        });
    EXPECT_EQ(count, seen.size());
    seen.insert(seen.end(), failures.begin(), failures.end());
    return seen;
  }

  std::string root_;
};

TEST_F(WalkFolderTest, EveryClaimedFileInSortedPathOrder) {
  EXPECT_EQ(Walk(nullptr), (std::vector<std::string>{
                               "a.spool:spool",
                               "b.spool:spool",
                               "b/c.spool:spool",
                               "sess/events.jsonl:lightbox",
                               "x/link.spool:spool",
                               "x/session.json:session-data",
                               "!x/dangling.spool: No such file or directory",
                               "!x/dangling.txt: No such file or directory",
                           }));
}

TEST_F(WalkFolderTest, OnlyTheFormatAsked) {
  EXPECT_EQ(Walk("spool"), (std::vector<std::string>{
                               "a.spool:spool",
                               "b.spool:spool",
                               "b/c.spool:spool",
                               "x/link.spool:spool",
                               "!x/dangling.spool: No such file or directory",
                               "!x/dangling.txt: No such file or directory",
                           }));
  EXPECT_EQ(Walk("session-data"), (std::vector<std::string>{
                                      "x/session.json:session-data",
                                      "!x/dangling.spool: No such file or directory",
                                      "!x/dangling.txt: No such file or directory",
                                  }));
}

// With a format asked for, a file whose name no format claims is also its when its content says
// so: a session's events.jsonl renamed. Without one, named formats are taken by name only.
TEST_F(WalkFolderTest, TheFormatAskedTakesItsFilesByContentToo) {
  const std::string event =
      R"({"invocation_id":"i","prev_hash":null,"hash":"h","tool":"t","ts":"x"})"
      "\n";
  Write("renamed/session-1.jsonl", event);
  Write("renamed/events.spool", event);  // another format's name: not Lightbox's
  const std::vector<std::string> lightbox = Walk("lightbox");
  EXPECT_EQ(
      std::vector<std::string>(lightbox.begin(), lightbox.begin() + 2),
      (std::vector<std::string>{"renamed/session-1.jsonl:lightbox", "sess/events.jsonl:lightbox"}));
  const std::vector<std::string> any = Walk(nullptr);
  EXPECT_EQ(std::count(any.begin(), any.end(), "renamed/session-1.jsonl:lightbox"), 0);
  EXPECT_EQ(std::count(any.begin(), any.end(), "renamed/events.spool:spool"), 1);
}

// An entry the walk cannot tell a file or a folder (a dangling link, a link loop) may be a
// recording, or a folder of them: it is a failure, never passed over in silence.
TEST_F(WalkFolderTest, EveryEntryThatCannotBeReadFails) {
  Link("loop-b", "x/loop-a");
  Link("loop-a", "x/loop-b");
  EXPECT_EQ(Walk("model-io"), (std::vector<std::string>{
                                  "!x/dangling.spool: No such file or directory",
                                  "!x/dangling.txt: No such file or directory",
                                  "!x/loop-a: Too many levels of symbolic links",
                                  "!x/loop-b: Too many levels of symbolic links",
                              }));
}

TEST_F(WalkFolderTest, AFolderThatIsNotThereFails) {
  std::vector<std::string> failures;
  EXPECT_EQ(
      WalkFolder(
          root_ + "/none", nullptr, [](const FoundFile&) {},
          [&](const std::string&, const std::string& message) { failures.push_back(message); }),
      0u);
  EXPECT_EQ(failures, (std::vector<std::string>{root_ + "/none: No such file or directory"}));
}

}  // namespace
}  // namespace arcs::runner
