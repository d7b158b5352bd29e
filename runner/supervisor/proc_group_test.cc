#include "runner/supervisor/proc_group.h"

#include <unistd.h>

#include "gtest/gtest.h"

namespace arcs::supervisor {
namespace {

TEST(ParseProcStat, ReadsTheFieldsAfterACommandNameWithSpacesAndParentheses) {
  // The 52 fields of a real stat line, its command name made hostile.
  const std::string line =
      "4242 (a) b (c) R 17 4240 4240 0 -1 4194560 120 0 0 0 250 30 7 3 20 0 1 0 9999 1000 "
      "200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
  ProcStat stat;
  ASSERT_TRUE(ParseProcStat(line, &stat));
  EXPECT_EQ(stat.pid, 4242);
  EXPECT_EQ(stat.parent, 17);
  EXPECT_EQ(stat.group, 4240);
  EXPECT_EQ(stat.cpu_ticks, 250u + 30u + 7u + 3u);
}

TEST(ParseProcStat, RefusesWhatIsNotAStatLine) {
  ProcStat stat;
  EXPECT_FALSE(ParseProcStat("", &stat));
  EXPECT_FALSE(ParseProcStat("4242 (cut", &stat));
  EXPECT_FALSE(ParseProcStat("4242 (short) R 1 2", &stat));
}

TEST(ForEachInGroup, FindsThisProcessInItsGroup) {
  bool found = false;
  ForEachInGroup(getpgrp(), [&](const ProcStat& stat) {
    EXPECT_EQ(stat.group, getpgrp());
    found = found || stat.pid == getpid();
  });
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace arcs::supervisor
