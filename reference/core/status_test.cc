#include "reference/core/status.h"

#include <gtest/gtest.h>

#include <string>

namespace arcs {
namespace {

TEST(Result, HoldsAValueOrAnError) {
  const Result<std::string> value = std::string("seven");
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, "seven");
  EXPECT_TRUE(value.status().ok());
  const Result<std::string> error = Status(StatusCode::kParseError, "not JSON");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().code(), StatusCode::kParseError);
  EXPECT_EQ(error.status().ToString(), "parse-error: not JSON");
}

// An OK status carries no value: the Result it makes is an error that says so, never one whose
// status() claims success while it holds nothing.
TEST(Result, RefusesAnOkStatus) {
  const Result<std::string> made = Status::Ok();
  ASSERT_FALSE(made.ok());
  EXPECT_FALSE(made.status().ok());
  EXPECT_EQ(made.status().code(), StatusCode::kInternal);
  EXPECT_EQ(StatusCodeName(made.status().code()), "internal");
}

}  // namespace
}  // namespace arcs
