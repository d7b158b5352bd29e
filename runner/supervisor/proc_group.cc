#include "runner/supervisor/proc_group.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace arcs::supervisor {
namespace {

// Room for the fields of /proc/PID/stat up to cstime (the 17th), whatever the command's name.
constexpr std::size_t kStatBytes = 1024;

// The first bytes of /proc/PID/stat, or "" when the process is gone. Plain system calls: a
// reading scans every process of the machine, several times a second during a slow case.
std::string_view ReadStat(const char* pid, char (&buffer)[kStatBytes]) {
  char path[sizeof "/proc//stat" + sizeof(dirent::d_name)];
  std::snprintf(path, sizeof path, "/proc/%s/stat", pid);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  ssize_t n;
  do {
    n = ::read(fd, buffer, sizeof buffer);
  } while (n < 0 && errno == EINTR);
  ::close(fd);
  return n > 0 ? std::string_view(buffer, static_cast<std::size_t>(n)) : std::string_view();
}

}  // namespace

bool ParseProcStat(std::string_view text, ProcStat* stat) {
  const std::size_t close = text.rfind(')');
  if (close == std::string_view::npos) return false;
  const std::string head(text.substr(0, close));
  const std::string rest(text.substr(close + 1));
  long pid = 0, ppid = 0, pgrp = 0;
  unsigned long long utime = 0, stime = 0;
  long long cutime = 0, cstime = 0;
  char state = 0;
  // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime
  // stime cutime cstime
  if (std::sscanf(head.c_str(), "%ld", &pid) != 1 ||
      std::sscanf(rest.c_str(), " %c %ld %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
                  &state, &ppid, &pgrp, &utime, &stime, &cutime, &cstime) != 7) {
    return false;
  }
  stat->pid = static_cast<pid_t>(pid);
  stat->parent = static_cast<pid_t>(ppid);
  stat->group = static_cast<pid_t>(pgrp);
  stat->cpu_ticks = utime + stime + static_cast<std::uint64_t>(std::max(0LL, cutime)) +
                    static_cast<std::uint64_t>(std::max(0LL, cstime));
  return true;
}

void ForEachInGroup(pid_t group, const std::function<void(const ProcStat&)>& visit) {
  DIR* proc = ::opendir("/proc");
  if (!proc) return;
  char buffer[kStatBytes];
  while (const dirent* entry = ::readdir(proc)) {
    if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;  // not a process
    ProcStat stat;
    if (ParseProcStat(ReadStat(entry->d_name, buffer), &stat) && stat.group == group) {
      visit(stat);
    }
  }
  ::closedir(proc);
}

GroupCpuTime::GroupCpuTime(pid_t group) : group_(group) { first_ticks_ = Read(); }

double GroupCpuTime::Seconds() {
  static const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
  const std::uint64_t now = Read();
  // A process that left the group takes its figure with it: never below the first reading.
  const std::uint64_t spent = now > first_ticks_ ? now - first_ticks_ : 0;
  return static_cast<double>(spent) /
         static_cast<double>(ticks_per_second > 0 ? ticks_per_second : 100);
}

std::uint64_t GroupCpuTime::Read() {
  std::map<pid_t, ProcStat> now;
  ForEachInGroup(group_, [&now](const ProcStat& stat) { now[stat.pid] = stat; });
  for (const auto& [pid, last] : live_) {
    if (now.contains(pid)) continue;
    // Reaped since the last reading: by a member still here (whose cutime/cstime now hold its
    // time), or by none.
    if (!now.contains(last.parent)) ended_ticks_ += last.cpu_ticks;
  }
  live_ = std::move(now);
  std::uint64_t total = ended_ticks_;
  for (const auto& [pid, stat] : live_) total += stat.cpu_ticks;
  return total;
}

}  // namespace arcs::supervisor
