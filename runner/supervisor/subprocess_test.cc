#include "runner/supervisor/subprocess.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "runner/supervisor/testing/processes.h"

namespace arcs::supervisor {
namespace {

using std::chrono::seconds;

std::unique_ptr<Subprocess> StartOrDie(const std::string& command) {
  Result<std::unique_ptr<Subprocess>> started = Subprocess::Start(command, 1 << 20, 1024);
  EXPECT_TRUE(started.ok()) << started.status().ToString();
  return started.ok() ? std::move(started).value() : nullptr;
}

using testing::ExpectNoChildren;
using testing::Running;

// Lines of any length come out whole and in order, however the bytes arrive: a line longer than a
// piece is kept in pieces until its newline, and what follows the newline stays for the next.
TEST(LineBuffer, GivesLinesWholeWhateverTheirLengthAndTheReads) {
  const std::string longest(LineBuffer::kPieceBytes * 2 + 12345, 'x');
  const std::vector<std::string> lines = {"a", "", longest, "b",
                                          std::string(LineBuffer::kPieceBytes, 'y')};
  std::string stream;
  for (const std::string& line : lines) stream += line + "\n";
  stream += "unfinished";
  for (std::size_t read : {std::size_t{1} << 16, std::size_t{1000003}}) {
    LineBuffer buffer;
    std::vector<std::string> taken;
    std::string line;
    for (std::size_t at = 0; at < stream.size(); at += read) {
      buffer.Append(stream.data() + at, std::min(read, stream.size() - at));
      while (buffer.TakeLine(&line)) taken.push_back(line);
    }
    EXPECT_EQ(taken, lines) << read;
    EXPECT_EQ(buffer.size(), std::string("unfinished").size());
    EXPECT_EQ(buffer.start(), "unfinished");
    buffer.Append(longest.data(), longest.size());
    EXPECT_FALSE(buffer.TakeLine(&line));
    EXPECT_EQ(buffer.size(), 10 + longest.size());
    EXPECT_EQ(buffer.start().substr(0, 10), "unfinished");
    buffer.Clear();
    EXPECT_EQ(buffer.size(), 0u);
  }
}

TEST(QuoteBytes, QuotesAndEscapesEveryByte) {
  EXPECT_EQ(QuoteBytes("a\"b\\c\n\r\t\x01\xff"), R"("a\"b\\c\n\r\t\x01\xff")");
  EXPECT_EQ(QuoteBytes("abcdef", 3), "\"abc\"... (6 bytes)");
  EXPECT_EQ(QuoteBytes(""), "\"\"");
}

TEST(DescribeWaitStatus, NamesSignalsAndShellStatuses) {
  EXPECT_EQ(DescribeWaitStatus(0), "exited with status 0");
  EXPECT_EQ(DescribeWaitStatus(3 << 8), "exited with status 3");
  EXPECT_EQ(DescribeWaitStatus(SIGSEGV), "killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(DescribeWaitStatus(SIGKILL | 0x80), "killed by signal 9 (SIGKILL), core dumped");
  EXPECT_EQ(DescribeWaitStatus(139 << 8),
            "exited with status 139 (128+11: a shell's report of SIGSEGV)");
  EXPECT_EQ(DescribeWaitStatus(255 << 8), "exited with status 255");
}

TEST(KeepTail, CutsAtACharacterBoundary) {
  std::string text = "abc\xc3\xa9z";  // "abcéz"
  KeepTail(&text, 2);                 // would start inside "é"
  EXPECT_EQ(text, "z");
  text = "hello";
  KeepTail(&text, 10);
  EXPECT_EQ(text, "hello");
  KeepTail(&text, 0);
  EXPECT_EQ(text, "");
}

TEST(Seconds, IsShort) {
  EXPECT_EQ(Seconds(10), "10 s");
  EXPECT_EQ(Seconds(0.5), "0.5 s");
}

TEST(Subprocess, ExchangesLinesAndShutsDown) {
  std::unique_ptr<Subprocess> p = StartOrDie("cat");
  ASSERT_TRUE(p);
  for (int i = 0; i < 3; ++i) {
    Exchange ex = p->Send("line " + std::to_string(i) + "\n", Clock::now() + seconds(20), nullptr);
    ASSERT_EQ(ex.end, SendEnd::kLine);
    EXPECT_EQ(ex.line, "line " + std::to_string(i));
    EXPECT_EQ(ex.written, ex.message_size);
  }
  p->Shutdown("bye\n", seconds(20), nullptr);  // cat exits at end of file
  ExpectNoChildren();
}

TEST(Subprocess, TimesOutOnSilence) {
  std::unique_ptr<Subprocess> p = StartOrDie("exec sleep 60");
  ASSERT_TRUE(p);
  Exchange ex = p->Send("x\n", Clock::now() + std::chrono::milliseconds(200), nullptr);
  EXPECT_EQ(ex.end, SendEnd::kTimeout);
  EXPECT_EQ(p->WaitForExit(std::chrono::milliseconds(10), nullptr), "");
  p->Kill();
  ExpectNoChildren();
}

TEST(Subprocess, EndsAnExchangeOnceTheGroupHasSpentItsCpuTime) {
  // The shell and its child both spin: the group's time is what counts.
  std::unique_ptr<Subprocess> p = StartOrDie("while :; do :; done & while :; do :; done");
  ASSERT_TRUE(p);
  Exchange ex = p->Send("x\n", Clock::now() + seconds(300), nullptr, 0.3);
  EXPECT_EQ(ex.end, SendEnd::kCpuLimit);
  EXPECT_GE(ex.cpu_seconds, 0.3);
  p->Kill();
  ExpectNoChildren();
}

TEST(Subprocess, ACpuTimeLimitLeavesASleeperToTheWallClock) {
  std::unique_ptr<Subprocess> p = StartOrDie("exec sleep 60");
  ASSERT_TRUE(p);
  Exchange ex = p->Send("x\n", Clock::now() + std::chrono::milliseconds(1500), nullptr, 0.3);
  EXPECT_EQ(ex.end, SendEnd::kTimeout);
  EXPECT_LT(ex.cpu_seconds, 0.3);
  p->Kill();
  ExpectNoChildren();
}

TEST(Subprocess, AWriteToAChildThatNeverReadsTimesOut) {
  std::unique_ptr<Subprocess> p = StartOrDie("exec sleep 60");
  ASSERT_TRUE(p);
  std::string big(8 << 20, 'x');  // far more than a pipe holds
  Exchange ex = p->Send(big, Clock::now() + std::chrono::milliseconds(300), nullptr);
  EXPECT_EQ(ex.end, SendEnd::kTimeout);
  EXPECT_LT(ex.written, big.size());
  p.reset();  // the destructor kills and reaps
  ExpectNoChildren();
}

// Whoever starts a process, the runner or a test or arcs fuzz, survives writing to it after it
// died: with SIGPIPE at its default action this test would be killed.
TEST(Subprocess, AWriteToAChildThatHasExitedFailsWithoutKillingTheWriter) {
  struct sigaction saved;
  sigaction(SIGPIPE, nullptr, &saved);
  signal(SIGPIPE, SIG_DFL);
  std::unique_ptr<Subprocess> p = StartOrDie("exit 0");
  ASSERT_TRUE(p);
  while (Running(p->pid())) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::string big(1 << 20, 'x');
  Exchange ex = p->Send(big, Clock::now() + seconds(20), nullptr);
  EXPECT_NE(ex.end, SendEnd::kLine);
  EXPECT_LT(ex.written, big.size());
  p.reset();
  sigaction(SIGPIPE, &saved, nullptr);
  ExpectNoChildren();
}

TEST(Subprocess, ReportsHowTheChildEnded) {
  std::unique_ptr<Subprocess> p = StartOrDie("read line; echo oops >&2; kill -SEGV $$");
  ASSERT_TRUE(p);
  Exchange ex = p->Send("go\n", Clock::now() + seconds(20), nullptr);
  EXPECT_TRUE(ex.end == SendEnd::kStdoutEnded || ex.end == SendEnd::kExited);
  EXPECT_EQ(p->WaitForExit(seconds(20), nullptr), "killed by signal 11 (SIGSEGV)");
  p->Kill();
  EXPECT_EQ(p->LastStderrLine(), "oops");
  ExpectNoChildren();
}

TEST(Subprocess, SeesTheChildDieWhileADescendantHoldsItsPipes) {
  // The background sleep keeps stdout open: end of file never comes, the child's death does.
  std::unique_ptr<Subprocess> p = StartOrDie("sleep 60 & read line; exit 7");
  ASSERT_TRUE(p);
  Exchange ex = p->Send("go\n", Clock::now() + seconds(20), nullptr);
  EXPECT_EQ(ex.end, SendEnd::kExited);
  EXPECT_EQ(p->WaitForExit(seconds(1), nullptr), "exited with status 7");
  p->Kill();  // the sleep dies with the group
  ExpectNoChildren();
}

TEST(Subprocess, BoundsTheLineAndTheStderrTail) {
  Result<std::unique_ptr<Subprocess>> started = Subprocess::Start(
      "yes e | head -c 3000000 >&2; echo tail >&2; head -c 100000 /dev/zero", 4096, 100);
  ASSERT_TRUE(started.ok());
  std::unique_ptr<Subprocess> p = std::move(started).value();
  Exchange ex = p->Send("", Clock::now() + seconds(20), nullptr);
  EXPECT_EQ(ex.end, SendEnd::kTooLong);
  EXPECT_EQ(p->partial_line_size(), 4097u);
  p->Kill();
  EXPECT_EQ(p->stderr_tail().size(), 100u);
  EXPECT_EQ(p->LastStderrLine(), "tail");
  EXPECT_EQ(p->stderr_total(), 3000005u);
  ExpectNoChildren();
}

TEST(Subprocess, TheChildDiesWithTheRunnerEvenWhenTheRunnerIsKilledOutright) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  // A stand-in for the runner, in its own process: it starts the child, says its pid, and waits
  // to be SIGKILLed, which leaves it no chance to kill the child itself.
  pid_t runner = fork();
  ASSERT_GE(runner, 0);
  if (runner == 0) {
    close(fds[0]);
    Result<std::unique_ptr<Subprocess>> started = Subprocess::Start("exec sleep 600", 1024, 1024);
    pid_t pid = started.ok() ? (*started)->pid() : -1;
    if (write(fds[1], &pid, sizeof pid) != static_cast<ssize_t>(sizeof pid)) _exit(1);
    for (;;) pause();
  }
  close(fds[1]);
  pid_t child = -1;
  ssize_t n = read(fds[0], &child, sizeof child);
  close(fds[0]);
  kill(runner, SIGKILL);
  waitpid(runner, nullptr, 0);
  ASSERT_EQ(n, static_cast<ssize_t>(sizeof child));
  ASSERT_GT(child, 0);
  // The kernel delivers the parent-death signal, and init reaps, on their own schedule.
  auto deadline = std::chrono::steady_clock::now() + seconds(30);
  while (Running(child) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_FALSE(Running(child)) << "the child " << child << " outlived its runner";
  if (Running(child)) kill(child, SIGKILL);
  ExpectNoChildren();
}

TEST(Subprocess, AFailureToStartNamesTheSystemCall) {
  // A child that cannot exec reports why; so would pipe2 or fork. (Tested end to end, with a
  // real descriptor shortage, in supervisor_test.)
  Result<std::unique_ptr<Subprocess>> started =
      Subprocess::Start(std::string(4 << 20, 'x'), 1024, 1024);
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.status().message(), "execve /bin/sh: Argument list too long (E2BIG)");
  ExpectNoChildren();
}

TEST(Subprocess, StopsPromptlyWhenAsked) {
  std::unique_ptr<Subprocess> p = StartOrDie("exec sleep 60");
  ASSERT_TRUE(p);
  std::atomic<bool> stop{true};
  Exchange ex = p->Send("x\n", Clock::now() + seconds(60), &stop);
  EXPECT_EQ(ex.end, SendEnd::kStopped);
  p->Kill();
  ExpectNoChildren();
}

}  // namespace
}  // namespace arcs::supervisor
