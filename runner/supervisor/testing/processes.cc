#include "runner/supervisor/testing/processes.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <fstream>
#include <iterator>
#include <string>

namespace arcs::supervisor::testing {

bool Running(pid_t pid) {
  if (kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string all((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  std::size_t paren = all.rfind(')');
  return paren == std::string::npos || paren + 2 >= all.size() || all[paren + 2] != 'Z';
}

bool ChildLeft() {
  errno = 0;
  return !(waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD);
}

void ExpectNoChildren() { EXPECT_FALSE(ChildLeft()) << "a child process is left"; }

}  // namespace arcs::supervisor::testing
