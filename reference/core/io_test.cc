#include "reference/core/io.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

namespace arcs {
namespace {

TEST(Io, WriteFileReplacesAFileWholeAndLeavesNothingBeside) {
  const std::string dir = ::testing::TempDir() + "/io-test";
  ::mkdir(dir.c_str(), 0755);
  const std::string path = dir + "/report.json";
  ASSERT_TRUE(WriteFile(path, "first").ok());
  ASSERT_TRUE(WriteFile(path, "second").ok());
  EXPECT_EQ(*ReadFile(path), "second");
  struct stat st {};
  EXPECT_NE(::stat((path + ".tmp." + std::to_string(::getpid())).c_str(), &st), 0);
}

TEST(Io, FailuresNameThePathAndKeepThePreviousContent) {
  const std::string dir = ::testing::TempDir() + "/io-test-2";
  ::mkdir(dir.c_str(), 0755);
  EXPECT_EQ(WriteFile(dir, "x").message(), dir + ": is a directory");
  EXPECT_FALSE(CheckWritable(dir).ok());
  EXPECT_FALSE(CheckWritable(dir + "/missing/report.json").ok());
  EXPECT_TRUE(CheckWritable(dir + "/report.json").ok());
  EXPECT_FALSE(WriteFile(dir + "/missing/report.json", "x").ok());
  EXPECT_FALSE(ReadFile(dir + "/missing").ok());
}

TEST(Io, DevicesAreWrittenInPlace) {
  EXPECT_TRUE(WriteFile("/dev/null", "x").ok());
  EXPECT_FALSE(WriteFile("/dev/full", "x").ok());  // no space: reported, not renamed over
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

// `arcs report /dev/zero` once grew until std::bad_alloc: reading whole files is bounded.
TEST(Io, ReadFileStopsAtItsBound) {
  Result<std::string> zeros = ReadFile("/dev/zero", 1 << 20);
  ASSERT_FALSE(zeros.ok());
  EXPECT_EQ(zeros.status().code(), StatusCode::kLimitExceeded);
  EXPECT_EQ(zeros.status().message(), "/dev/zero: larger than 1048576 bytes, the most read");
  const std::string path = ::testing::TempDir() + "/io-test-bound";
  ASSERT_TRUE(WriteFile(path, "12345").ok());
  EXPECT_EQ(*ReadFile(path, 5), "12345");
  EXPECT_FALSE(ReadFile(path, 4).ok());
}

TEST(Io, ReadFileSaysADirectoryIsOne) {
  const std::string dir = ::testing::TempDir() + "/io-test-3";
  ::mkdir(dir.c_str(), 0755);
  Result<std::string> read = ReadFile(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kIoError);
  EXPECT_EQ(read.status().message(), dir + ": is a directory");
  EXPECT_EQ(ReadFile(dir + "/missing").status().message(),
            dir + "/missing: No such file or directory");
}

}  // namespace
}  // namespace arcs
