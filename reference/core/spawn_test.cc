#include "reference/core/spawn.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace arcs {
namespace {

// A close-on-exec pipe whose ends are above 2, as SpawnShell asks.
void Pipe(int fds[2]) {
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  ASSERT_GT(fds[0], 2);
  ASSERT_GT(fds[1], 2);
}

std::string ReadAll(int fd) {
  std::string text;
  char buffer[256];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  return text;
}

TEST(SpawnShell, RunsTheCommandOnTheGivenDescriptorsInASessionOfItsOwn) {
  int in[2], out[2];
  Pipe(in);
  Pipe(out);
  // The child reads its stdin, says whether it leads its process group, and whether any
  // descriptor above 2 reached it: ls, exec'd in its place (a pipeline would have the shell hold
  // a pipe while ls looks), lists its own, which are the shell's and the directory it reads (3).
  const int fds[3] = {in[0], out[1], -1};
  Result<pid_t> pid = SpawnShell(
      "read line; echo \"$line\"; [ \"$(cut -d' ' -f5 /proc/$$/stat)\" = $$ ] && echo leader; "
      "exec ls /proc/self/fd",
      fds);
  ASSERT_TRUE(pid.ok()) << pid.status().message();
  close(in[0]);
  close(out[1]);
  ASSERT_EQ(write(in[1], "hello\n", 6), 6);
  close(in[1]);
  const std::string said = ReadAll(out[0]);
  close(out[0]);
  int status = 0;
  ASSERT_EQ(waitpid(*pid, &status, 0), *pid);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(said.substr(0, 13), "hello\nleader\n");
  // The shell's descriptors: 0, 1 and 2 only (3 is ls's own).
  EXPECT_EQ(said.substr(13), "0\n1\n2\n3\n");
}

TEST(SpawnShell, AFailureInTheChildNamesItsSystemCall) {
  const int fds[3] = {1000, 1001, -1};  // not open: the child's dup2 fails
  Result<pid_t> pid = SpawnShell("true", fds);
  ASSERT_FALSE(pid.ok());
  EXPECT_EQ(pid.status().message(), "dup2: Bad file descriptor (EBADF)");
}

}  // namespace
}  // namespace arcs
