#include "runner/fuzz/mutate_family.h"

#include <algorithm>

namespace arcs::fuzz {

std::optional<Mutation> TryFamilies(std::span<const Family> families, const Target& target,
                                    Random& random) {
  for (int attempt = 0; attempt < kFamilyAttempts; ++attempt) {
    const Family& family = PickOne(families, random);
    std::optional<std::string> bytes = family.mutate(target, random);
    if (bytes && bytes->size() <= target.max_bytes) {
      return Mutation{std::move(*bytes), std::string(family.what)};
    }
  }
  return std::nullopt;
}

const Family* FindFamily(std::span<const Family> families, std::string_view what) {
  for (const Family& family : families) {
    if (family.what == what) return &family;
  }
  return nullptr;
}

std::size_t RangeLength(std::size_t max, Random& random) {
  if (max == 0) return 0;
  const std::size_t limit = random.OneIn(8) ? max : std::min<std::size_t>(max, 16);
  return 1 + random.Below(limit);
}

std::size_t Room(std::size_t size, std::size_t max_bytes) {
  return size < max_bytes ? max_bytes - size : 0;
}

}  // namespace arcs::fuzz
