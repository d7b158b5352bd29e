#include "reference/mcp_record_replay/upstream.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

namespace arcs::mcp_record_replay {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

std::unique_ptr<Upstream> Start(const std::string& command) {
  Result<std::unique_ptr<Upstream>> upstream = Upstream::Start(command);
  EXPECT_TRUE(upstream.ok()) << upstream.status().message();
  return upstream.ok() ? std::move(*upstream) : nullptr;
}

// Everything the upstream writes until end of file (or 10 s).
std::string ReadAll(int fd) {
  std::string out;
  const auto end = Clock::now() + std::chrono::seconds(10);
  char buffer[4096];
  while (Clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n > 0) out.append(buffer, static_cast<std::size_t>(n));
  }
  return out;
}

// Gone, or a zombie nobody reaps (the container's init may not).
bool Dead(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(stat, text)) return true;
  const std::size_t paren = text.rfind(')');
  return paren != std::string::npos && text.compare(paren + 2, 1, "Z") == 0;
}

bool DiesWithin(pid_t pid, milliseconds timeout) {
  const auto end = Clock::now() + timeout;
  while (!Dead(pid)) {
    if (Clock::now() >= end) return false;
    std::this_thread::sleep_for(milliseconds(5));
  }
  return true;
}

TEST(UpstreamTest, PipesCarryBothWaysAndClosingStdinEndsIt) {
  std::unique_ptr<Upstream> up = Start("cat");
  ASSERT_TRUE(up);
  EXPECT_NE(fcntl(up->stdin_fd(), F_GETFL) & O_NONBLOCK, 0);
  EXPECT_NE(fcntl(up->stdout_fd(), F_GETFL) & O_NONBLOCK, 0);
  EXPECT_NE(fcntl(up->stdin_fd(), F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_NE(fcntl(up->stdout_fd(), F_GETFD) & FD_CLOEXEC, 0);
  const std::string line = "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"x\":\"\\u00e9 é\"}\n";
  ASSERT_EQ(write(up->stdin_fd(), line.data(), line.size()), static_cast<ssize_t>(line.size()));
  EXPECT_FALSE(up->Exited());
  up->CloseStdin();
  EXPECT_EQ(up->stdin_fd(), -1);
  EXPECT_EQ(ReadAll(up->stdout_fd()), line);
  EXPECT_TRUE(up->WaitForExit(std::chrono::seconds(10)));
  ASSERT_TRUE(up->wait_status());
  EXPECT_EQ(ShellExitCode(up->Terminate()), 0);
  EXPECT_EQ(up->stdout_fd(), -1);
}

TEST(UpstreamTest, ReportsItsExitStatus) {
  std::unique_ptr<Upstream> up = Start("exit 7");
  ASSERT_TRUE(up);
  EXPECT_TRUE(up->WaitForExit(std::chrono::seconds(10)));
  const int status = up->Terminate();
  EXPECT_EQ(ShellExitCode(status), 7);
  EXPECT_EQ(DescribeWaitStatus(status), "exited with status 7");
  EXPECT_EQ(up->Terminate(), status);  // idempotent
}

TEST(UpstreamTest, AMissingCommandIsTheShellsStatus127) {
  std::unique_ptr<Upstream> up = Start("/nonexistent/arcs-mcp-server 2>/dev/null");
  ASSERT_TRUE(up);
  EXPECT_TRUE(up->WaitForExit(std::chrono::seconds(10)));
  EXPECT_EQ(ShellExitCode(up->Terminate()), 127);
}

TEST(UpstreamTest, TerminateSendsSigtermFirst) {
  std::unique_ptr<Upstream> up = Start("exec sleep 100");
  ASSERT_TRUE(up);
  const auto start = Clock::now();
  const int status = up->Terminate(std::chrono::seconds(20));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_EQ(DescribeWaitStatus(status), "killed by signal 15 (SIGTERM)");
  EXPECT_EQ(ShellExitCode(status), 143);
}

TEST(UpstreamTest, TerminateEndsWithSigkillAfterTheGrace) {
  // The shell ignores SIGTERM, and tells us so once it does.
  std::unique_ptr<Upstream> up = Start("trap '' TERM; echo ready; while :; do sleep 0.05; done");
  ASSERT_TRUE(up);
  char c = 0;
  pollfd p{up->stdout_fd(), POLLIN, 0};
  ASSERT_EQ(poll(&p, 1, 10000), 1);
  ASSERT_EQ(read(up->stdout_fd(), &c, 1), 1);
  const auto start = Clock::now();
  const int status = up->Terminate(milliseconds(200));
  EXPECT_GE(Clock::now() - start, milliseconds(200));
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

TEST(UpstreamTest, TerminateEndsTheWholeProcessGroup) {
  std::unique_ptr<Upstream> up = Start("sleep 100 & echo $!; wait");
  ASSERT_TRUE(up);
  std::string line;
  const auto end = Clock::now() + std::chrono::seconds(10);
  while (line.find('\n') == std::string::npos && Clock::now() < end) {
    char buffer[64];
    pollfd p{up->stdout_fd(), POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = read(up->stdout_fd(), buffer, sizeof buffer);
    if (n <= 0) break;
    line.append(buffer, static_cast<std::size_t>(n));
  }
  const pid_t sleeper = std::stoi(line);
  ASSERT_GT(sleeper, 0);
  EXPECT_FALSE(Dead(sleeper));
  up->Terminate(std::chrono::seconds(5));
  EXPECT_TRUE(DiesWithin(sleeper, std::chrono::seconds(5)));
}

TEST(UpstreamTest, InheritsNoOtherDescriptor) {
  // One of ours without close-on-exec, which the child must not get all the same.
  const int stray = open("/dev/null", O_RDONLY);
  ASSERT_GE(stray, 3);
  // `:` keeps the shell from exec'ing ls, so $$ is the shell, not ls and its directory.
  std::unique_ptr<Upstream> up = Start("ls /proc/$$/fd; :");
  ASSERT_TRUE(up);
  EXPECT_EQ(ReadAll(up->stdout_fd()), "0\n1\n2\n");
  close(stray);
}

TEST(UpstreamTest, StderrIsOurs) {
  int err[2];
  ASSERT_EQ(pipe2(err, O_CLOEXEC), 0);
  const int saved = dup(2);
  ASSERT_GE(saved, 0);
  dup2(err[1], 2);
  std::unique_ptr<Upstream> up = Start("echo to-stderr >&2");
  dup2(saved, 2);
  close(saved);
  close(err[1]);
  ASSERT_TRUE(up);
  EXPECT_TRUE(up->WaitForExit(std::chrono::seconds(10)));
  up->Terminate();
  EXPECT_EQ(ReadAll(err[0]), "to-stderr\n");
  close(err[0]);
}

// What the upstream writes on its stderr, as it reaches the log given to Start (the whole of it
// once Terminate has ended the relay).
std::string StderrThroughTheLog(const std::string& command) {
  int log[2];
  EXPECT_EQ(pipe2(log, O_CLOEXEC), 0);
  Result<std::unique_ptr<Upstream>> up = Upstream::Start(command, log[1]);
  close(log[1]);
  EXPECT_TRUE(up.ok());
  if (up.ok()) {
    EXPECT_TRUE((*up)->WaitForExit(std::chrono::seconds(10)));
    (*up)->Terminate();
  }
  std::string text = ReadAll(log[0]);
  close(log[0]);
  return text;
}

TEST(UpstreamTest, StderrLinesReachTheLogPrintable) {
  // ESC and BEL (an OSC title), a C1 control (U+009B), a bidi override (U+202E), a byte that is
  // not UTF-8; é stays; a CRLF line ends as a line; the unterminated rest is a line of its own.
  EXPECT_EQ(StderrThroughTheLog(
                R"(printf 'plain\n\033]0;title\007 \302\233 \342\200\256 \377 é\r\nrest' >&2)"),
            "plain\n\\u001b]0;title\\u0007 \\u009b \\u202e \\xff é\nrest\n");
}

TEST(UpstreamTest, AnOverLongStderrLineComesInPieces) {
  EXPECT_EQ(StderrThroughTheLog("head -c 10000 /dev/zero | tr '\\0' a >&2"),
            std::string(4096, 'a') + "\n" + std::string(4096, 'a') + "\n" + std::string(1808, 'a') +
                "\n");
}

TEST(UpstreamTest, DiesWithTheThreadThatStartedIt) {
  std::unique_ptr<Upstream> up;
  std::thread([&] { up = Start("exec sleep 100"); }).join();
  ASSERT_TRUE(up);
  // Nobody sent it anything: the kernel's SIGKILL came when the thread ended.
  EXPECT_TRUE(up->WaitForExit(std::chrono::seconds(10)));
  const int status = up->Terminate();
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGKILL);
}

}  // namespace
}  // namespace arcs::mcp_record_replay
