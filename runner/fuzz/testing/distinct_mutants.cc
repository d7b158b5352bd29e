#include "runner/fuzz/testing/distinct_mutants.h"

#include <gtest/gtest.h>

#include <optional>

namespace arcs::fuzz::testing {

std::set<std::string> DistinctMutants(std::span<const Family> families, std::string_view what,
                                      const Target& target, std::uint64_t seed, int draws) {
  const Family* family = FindFamily(families, what);
  EXPECT_NE(family, nullptr) << what;
  std::set<std::string> mutants;
  if (family == nullptr) return mutants;
  Random random(seed);
  for (int i = 0; i < draws; ++i) {
    if (std::optional<std::string> mutant = family->mutate(target, random)) {
      mutants.insert(*std::move(mutant));
    }
  }
  return mutants;
}

}  // namespace arcs::fuzz::testing
