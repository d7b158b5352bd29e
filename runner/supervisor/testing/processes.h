// Process checks the supervisor's tests share: is a pid still running, is a child left unreaped.
#ifndef ARCS_RUNNER_SUPERVISOR_TESTING_PROCESSES_H_
#define ARCS_RUNNER_SUPERVISOR_TESTING_PROCESSES_H_

#include <sys/types.h>

namespace arcs::supervisor::testing {

// A process that is gone, or a zombie waiting for init (not ours to reap): nothing runs.
bool Running(pid_t pid);

// Whether this process has a child not yet reaped.
bool ChildLeft();

// A test failure when ChildLeft().
void ExpectNoChildren();

}  // namespace arcs::supervisor::testing

#endif  // ARCS_RUNNER_SUPERVISOR_TESTING_PROCESSES_H_
