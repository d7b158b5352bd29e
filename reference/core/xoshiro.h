// xoshiro256** (Blackman and Vigna, https://prng.di.unimi.it/) seeded through splitmix64: a fixed
// algorithm, so that a seed gives the same numbers with every compiler and standard library
// (std::mt19937's distributions are not specified bit for bit). The benchmarks' file generators
// and `arcs fuzz`'s mutations both draw from it.
#ifndef ARCS_REFERENCE_CORE_XOSHIRO_H_
#define ARCS_REFERENCE_CORE_XOSHIRO_H_

#include <array>
#include <cstdint>

namespace arcs {

class Xoshiro256 {
 public:
  explicit Xoshiro256(std::uint64_t seed) {
    for (std::uint64_t& word : state_) word = SplitMix64(&seed);
  }

  std::uint64_t Next() {
    const std::uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = RotateLeft(state_[3], 45);
    return result;
  }

 private:
  static std::uint64_t SplitMix64(std::uint64_t* x) {
    std::uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  static std::uint64_t RotateLeft(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::array<std::uint64_t, 4> state_{};
};

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_XOSHIRO_H_
