// What Linux's /proc says about the process group of an implementation under test: which
// processes are in it, and the CPU time they spend. The supervisor reads it for the per-case CPU
// time limit (GroupCpuTime below) and for the peak memory of resource probes (subprocess.h).
#ifndef ARCS_RUNNER_SUPERVISOR_PROC_GROUP_H_
#define ARCS_RUNNER_SUPERVISOR_PROC_GROUP_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string_view>

namespace arcs::supervisor {

// One process, from the first fields of /proc/PID/stat.
struct ProcStat {
  pid_t pid = 0;
  pid_t parent = 0;
  pid_t group = 0;
  // Clock ticks of CPU time, user + system, spent by all the process's threads, plus by the
  // children it waited for after they ended (utime + stime + cutime + cstime).
  std::uint64_t cpu_ticks = 0;
};

// Parses the text of /proc/PID/stat ("pid (comm) state ppid pgrp ..."; comm may hold spaces and
// parentheses); false when it is not one.
bool ParseProcStat(std::string_view text, ProcStat* stat);

// Calls visit for every process whose process group is `group`: one scan of /proc, reading each
// process's stat file (a process that ends meanwhile is skipped).
void ForEachInGroup(pid_t group, const std::function<void(const ProcStat&)>& visit);

// The CPU time (user + system) a process group spends from the first reading on, threads and
// children included. Each reading scans /proc (ForEachInGroup) and keeps, per process, its last
// figure; a process that has gone from /proc since the previous reading was reaped:
//   - by a member still in the group: its whole time is now in that member's cutime/cstime, so
//     its own figure is dropped (counting both would count it twice);
//   - otherwise (the member that waited for it ended too, or it was reparented and reaped
//     outside): its last figure is kept for good.
// The approximation: the CPU a process spends after the last reading that saw it, when nothing
// in the group waits for it, is missed (at most one interval between readings per such process);
// so is a process that starts and ends between two readings without a member waiting for it, and
// a process that leaves the group. Within those bounds nothing is counted twice, and the figure
// does not grow when the rest of the machine is busy. Resolution: one clock tick (10 ms on Linux).
class GroupCpuTime {
 public:
  explicit GroupCpuTime(pid_t group);  // the first reading
  // The CPU seconds the group has spent since the first reading (a new reading).
  double Seconds();

 private:
  std::uint64_t Read();  // ticks: the kept figures of ended processes plus the live ones

  pid_t group_;
  std::map<pid_t, ProcStat> live_;  // as the last reading saw them
  std::uint64_t ended_ticks_ = 0;   // kept figures of processes that ended
  std::uint64_t first_ticks_ = 0;
};

}  // namespace arcs::supervisor

#endif  // ARCS_RUNNER_SUPERVISOR_PROC_GROUP_H_
