#include "reference/core/io.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "reference/core/pages_faulted_ahead.h"
#include "reference/core/testing/scratch_dir.h"

namespace arcs {
namespace {

TEST(Io, WriteFileReplacesAFileWholeAndLeavesNothingBeside) {
  const testing::ScratchDir scratch("io-test");
  const std::string& dir = scratch.path();
  const std::string path = dir + "/report.json";
  ASSERT_TRUE(WriteFile(path, "first").ok());
  ASSERT_TRUE(WriteFile(path, "second").ok());
  EXPECT_EQ(*ReadFile(path), "second");
  std::vector<std::string> names;
  DIR* listing = ::opendir(dir.c_str());
  ASSERT_NE(listing, nullptr);
  while (const dirent* e = ::readdir(listing)) {
    if (e->d_name[0] != '.') names.emplace_back(e->d_name);
  }
  ::closedir(listing);
  EXPECT_EQ(names, std::vector<std::string>{"report.json"});
}

// A symbolic link planted where the temporary file could be expected (the old "PATH.tmp.PID",
// and other guesses) is neither followed nor replaced: the file it points to keeps its content.
TEST(Io, WriteFileFollowsNoLinkPlantedBeside) {
  const testing::ScratchDir scratch("io-test-planted");
  const std::string& dir = scratch.path();
  const std::string victim = dir + "/victim";
  ASSERT_TRUE(WriteFile(victim, "precious").ok());
  const std::string path = dir + "/report.json";
  const std::vector<std::string> guesses = {
      path + ".tmp." + std::to_string(::getpid()), path + ".tmp", path + ".tmp.XXXXXX",
      path + ".tmp.0000000000000000", dir + "/.report.json.tmp"};
  for (const std::string& guess : guesses) {
    ::unlink(guess.c_str());
    ASSERT_EQ(::symlink(victim.c_str(), guess.c_str()), 0) << guess;
  }
  ASSERT_TRUE(WriteFile(path, "new").ok());
  EXPECT_EQ(*ReadFile(path), "new");
  EXPECT_EQ(*ReadFile(victim), "precious");
  for (const std::string& guess : guesses) {
    struct stat st {};
    ASSERT_EQ(::lstat(guess.c_str(), &st), 0) << guess;
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << guess;
  }
}

// A failed write names the file asked for, never the temporary file beside it.
TEST(Io, WriteFileFailuresNameTheTarget) {
  const testing::ScratchDir scratch("io-test-missing");
  const std::string path = scratch.File("missing/report.json");
  EXPECT_EQ(WriteFile(path, "x").message(), path + ": No such file or directory");
  EXPECT_EQ(WriteFile("/dev/full", "x").message(), "/dev/full: No space left on device");
}

// A FIFO that nobody writes would block an open or a read for good: it is refused at once. (In a
// child with an alarm, so that a regression fails the test instead of hanging it.)
TEST(Io, ReadFileRefusesAFifo) {
  const testing::ScratchDir scratch("io-test-fifo");
  const std::string fifo = scratch.File("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EXIT(
      {
        ::alarm(60);
        const Result<std::string> read = ReadFile(fifo);
        std::fprintf(stderr, "%s", read.ok() ? "read" : read.status().message().c_str());
        std::exit(read.ok() ? 1 : 0);
      },
      ::testing::ExitedWithCode(0), "fifo: is a FIFO, not a regular file; not read");
  const Result<int> fd = OpenToRead(fifo);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.status().code(), StatusCode::kIoError);
}

TEST(Io, FailuresNameThePathAndKeepThePreviousContent) {
  const testing::ScratchDir scratch("io-test-2");
  const std::string& dir = scratch.path();
  EXPECT_EQ(WriteFile(dir, "x").message(), dir + ": is a directory");
  EXPECT_FALSE(CheckWritable(dir).ok());
  EXPECT_FALSE(CheckWritable(dir + "/missing/report.json").ok());
  EXPECT_TRUE(CheckWritable(dir + "/report.json").ok());
  ASSERT_TRUE(WriteFile(dir + "/file", "x").ok());
  EXPECT_EQ(CheckWritable(dir + "/file/report.json").message(), dir + "/file: not a directory");
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
  const testing::ScratchDir scratch("io-test-bound");
  const std::string path = scratch.File("five");
  ASSERT_TRUE(WriteFile(path, "12345").ok());
  EXPECT_EQ(*ReadFile(path, 5), "12345");
  EXPECT_FALSE(ReadFile(path, 4).ok());
}

// A file large enough that its pages are faulted in on a second thread while it is read
// (PagesFaultedAhead) reads back byte for byte, whether or not it fills the space reserved
// for it, and its bound still holds.
TEST(Io, ReadFileOfALargeFileHoldsEveryByte) {
  std::string bytes(PagesFaultedAhead::kFaultAheadMin * 2 + 12345, '\0');
  std::uint32_t state = 1;
  for (char& c : bytes) {
    state = state * 1664525 + 1013904223;
    c = static_cast<char>(state >> 24);
  }
  const testing::ScratchDir scratch("io-test-large");
  const std::string path = scratch.File("large");
  ASSERT_TRUE(WriteFile(path, bytes).ok());
  Result<std::string> read = ReadFile(path);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_TRUE(*read == bytes);
  Result<std::string> bounded = ReadFile(path, bytes.size() - 1);
  ASSERT_FALSE(bounded.ok());
  EXPECT_EQ(bounded.status().code(), StatusCode::kLimitExceeded);
}

// What a pipe gives, read through `ReadAll` with `max_bytes`, while a thread writes `bytes` into
// it (and stops, its writes failing, if the reader stops first).
Result<std::string> ReadThroughAPipe(const std::string& bytes, std::size_t max_bytes) {
  std::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  if (::pipe(fds) != 0) return Status(StatusCode::kIoError, "pipe");
  std::thread writer([&bytes, fd = fds[1]] {
    std::string_view left = bytes;
    while (!left.empty()) {
      const ssize_t n = ::write(fd, left.data(), std::min<std::size_t>(left.size(), 100000));
      if (n <= 0) break;
      left.remove_prefix(static_cast<std::size_t>(n));
    }
    ::close(fd);
  });
  Result<std::string> read = ReadAll(fds[0], "the pipe", max_bytes);
  ::close(fds[0]);
  writer.join();
  return read;
}

// Bytes of unknown size are read in blocks that double (64 KiB first) and joined at the end: every
// byte comes back in its place, across block edges, and the bound holds to the byte.
TEST(Io, ReadAllOfAPipeHoldsEveryByteAndStopsAtItsBound) {
  std::string bytes(3 * (1 << 20) + 12345, '\0');
  std::uint32_t state = 7;
  for (char& c : bytes) {
    state = state * 1664525 + 1013904223;
    c = static_cast<char>(state >> 24);
  }
  Result<std::string> read = ReadThroughAPipe(bytes, kMaxReadBytes);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_TRUE(*read == bytes);
  read = ReadThroughAPipe(bytes, bytes.size());
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_TRUE(*read == bytes);
  read = ReadThroughAPipe(bytes, bytes.size() - 1);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kLimitExceeded);
  EXPECT_EQ(read.status().message(),
            "the pipe: larger than " + std::to_string(bytes.size() - 1) + " bytes, the most read");
  read = ReadThroughAPipe("abc", std::numeric_limits<std::size_t>::max());  // no bound at all
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "abc");
  read = ReadThroughAPipe("", 0);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "");
  read = ReadThroughAPipe("x", 0);
  EXPECT_FALSE(read.ok());
}

TEST(Io, ReadFileSaysADirectoryIsOne) {
  const testing::ScratchDir scratch("io-test-3");
  const std::string& dir = scratch.path();
  Result<std::string> read = ReadFile(dir);
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kIoError);
  EXPECT_EQ(read.status().message(), dir + ": is a directory");
  EXPECT_EQ(ReadFile(dir + "/missing").status().message(),
            dir + "/missing: No such file or directory");
}

}  // namespace
}  // namespace arcs
