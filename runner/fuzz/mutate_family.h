// What a mutation family is, for the byte-level, line-aware and JSON-aware families
// (mutate_bytes.h, mutate_lines.h, mutate_json.h) and for Mutate, which picks among them; plus the
// small random choices they all make. Internal to the mutator; the tests call families directly
// through it.
#ifndef ARCS_RUNNER_FUZZ_MUTATE_FAMILY_H_
#define ARCS_RUNNER_FUZZ_MUTATE_FAMILY_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "runner/fuzz/mutate.h"

namespace arcs::fuzz {

// What a family mutates: the bytes, another seed to splice from (may be empty), and the most bytes
// the mutant may have.
struct Target {
  std::string_view bytes;
  std::string_view other;
  std::size_t max_bytes = 0;
};

// A family gives its mutant, or nothing when it does not apply (no second line to swap, no room to
// grow within max_bytes).
using MutateFn = std::optional<std::string> (*)(const Target& target, Random& random);

struct Family {
  std::string_view what;
  MutateFn mutate;
};

// How many families TryFamilies tries before giving up: enough that a family that applies is
// almost always found, few enough that a hostile input costs a bounded number of passes.
inline constexpr int kFamilyAttempts = 6;

// The first mutant that applies among up to kFamilyAttempts families drawn from `families`.
std::optional<Mutation> TryFamilies(std::span<const Family> families, const Target& target,
                                    Random& random);

// The family of `families` named `what`, or nullptr: how the tests call one family alone.
const Family* FindFamily(std::span<const Family> families, std::string_view what);

// A length in [1, max] for a range to delete, copy or insert: mostly short (up to 16), like
// libFuzzer's, sometimes anything; 0 when max is 0.
std::size_t RangeLength(std::size_t max, Random& random);

// The room left for growth: max_bytes - size, or 0.
std::size_t Room(std::size_t size, std::size_t max_bytes);

// One element of a non-empty list, uniformly.
template <typename T>
const T& PickOne(std::span<const T> items, Random& random) {
  return items[random.Below(items.size())];
}

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_MUTATE_FAMILY_H_
