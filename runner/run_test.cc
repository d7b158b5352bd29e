#include "runner/run.h"

#include <gtest/gtest.h>

namespace arcs::runner {
namespace {

TEST(KnownFailures, ParsesEntriesCommentsAndImplementationPrefixes) {
  Result<KnownFailures> known = ParseKnownFailures("kf.txt",
                                                   "# toy adapter\n"
                                                   "\n"
                                                   "spool-11.4.3-x/roundtrip   # loses the line\n"
                                                   "toy-node: spool-dup/roundtrip\r\n"
                                                   "  spool-a/validate");
  ASSERT_TRUE(known.ok()) << known.status().ToString();
  EXPECT_TRUE(known->Lists("anyone", "spool-11.4.3-x/roundtrip"));
  EXPECT_TRUE(known->Lists("anyone", "spool-a/validate"));
  EXPECT_TRUE(known->Lists("toy-node", "spool-dup/roundtrip"));
  EXPECT_FALSE(known->Lists("toy-python", "spool-dup/roundtrip"));
  EXPECT_FALSE(known->Lists("anyone", "spool-11.4.3-x/validate"));
}

TEST(KnownFailures, RejectsMalformedLinesWithTheirNumber) {
  for (const char* text : {"spool-a\n", "spool-a/\n", "/validate\n", "a b/validate\n"}) {
    Result<KnownFailures> known = ParseKnownFailures("kf.txt", std::string("# c\n") + text);
    ASSERT_FALSE(known.ok()) << text;
    EXPECT_NE(known.status().message().find("kf.txt:2:"), std::string::npos);
  }
}

}  // namespace
}  // namespace arcs::runner
