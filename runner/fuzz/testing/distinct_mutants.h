// What one mutation family makes of an input over many draws, for the families' tests.
#ifndef ARCS_RUNNER_FUZZ_TESTING_DISTINCT_MUTANTS_H_
#define ARCS_RUNNER_FUZZ_TESTING_DISTINCT_MUTANTS_H_

#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "runner/fuzz/mutate_family.h"

namespace arcs::fuzz::testing {

// Every distinct mutant the family of `families` named `what` makes of `target` in `draws` draws
// from Random(seed); none (and a test failure) when no family has that name.
std::set<std::string> DistinctMutants(std::span<const Family> families, std::string_view what,
                                      const Target& target, std::uint64_t seed, int draws);

}  // namespace arcs::fuzz::testing

#endif  // ARCS_RUNNER_FUZZ_TESTING_DISTINCT_MUTANTS_H_
