// Starting a command as a child that never outlives its starter: `/bin/sh -c COMMAND` in a
// session (so a process group) of its own, with the descriptors the caller gives as its 0, 1 and
// 2 and nothing else, every signal at its default action and none blocked, and SIGKILL from the
// kernel when the thread that started it ends, however it ends (Linux's parent-death signal, set
// before exec; if the starter died before that, the child sees its new parent and exits at once).
// The runner's implementations under test and the MCP record proxy's upstream start this way.
#ifndef ARCS_REFERENCE_CORE_SPAWN_H_
#define ARCS_REFERENCE_CORE_SPAWN_H_

#include <sys/types.h>

#include <string>

#include "reference/core/status.h"

namespace arcs {

// How a failed system call is reported: "pipe2: Too many open files (EMFILE)". A caller may add
// what would help (the runner: fewer jobs).
using SystemCallErrorFn = Status (*)(const char* call, int error);
Status SystemCallError(const char* call, int error);

// Forks the child and waits until it has exec'd /bin/sh, or failed to (the error names the system
// call that failed in the child or here, and its errno, through `describe`). fds[i] becomes the
// child's descriptor i; fds[2] < 0 passes our own stderr on. The fds given must be above 2 (a
// dup2 onto 0 or 1 must not overwrite another of them). Safe with other threads running: the
// child makes system calls only, and nothing is allocated after the fork.
Result<pid_t> SpawnShell(const std::string& command, const int fds[3],
                         SystemCallErrorFn describe = SystemCallError);

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_SPAWN_H_
