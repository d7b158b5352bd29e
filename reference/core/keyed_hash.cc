#include "reference/core/keyed_hash.h"

#include <sys/random.h>

#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace arcs {
namespace {

struct SipState {
  std::uint64_t v0, v1, v2, v3;

  explicit SipState(const SipKey& key)
      : v0(key.k0 ^ 0x736f6d6570736575ull),  // "somepseudorandomlygeneratedbytes"
        v1(key.k1 ^ 0x646f72616e646f6dull),
        v2(key.k0 ^ 0x6c7967656e657261ull),
        v3(key.k1 ^ 0x7465646279746573ull) {}

  void Round() {
    v0 += v1;
    v1 = std::rotl(v1, 13);
    v1 ^= v0;
    v0 = std::rotl(v0, 32);
    v2 += v3;
    v3 = std::rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = std::rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = std::rotl(v1, 17);
    v1 ^= v2;
    v2 = std::rotl(v2, 32);
  }

  template <int kRounds>
  void Compress(std::uint64_t word) {
    v3 ^= word;
    for (int i = 0; i < kRounds; ++i) Round();
    v0 ^= word;
  }
};

// Up to 8 bytes as a little-endian word, the missing high bytes zero.
std::uint64_t LoadLittleEndian(const char* bytes, std::size_t count) {
  std::uint64_t word = 0;
  std::memcpy(&word, bytes, count);
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  return word;
}

// getrandom(2) blocks only until the kernel's pool is first seeded, early in boot. Should it fail
// all the same (a seccomp filter, an old kernel), the clock and an address still make a key no
// reader of the source can know in advance, if a weaker one.
SipKey DrawKey() {
  SipKey key;
  std::uint64_t words[2];
  std::size_t got = 0;
  while (got < sizeof words) {
    const ssize_t n = getrandom(reinterpret_cast<char*>(words) + got, sizeof words - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got < sizeof words) {
    words[0] =
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    words[1] =
        reinterpret_cast<std::uintptr_t>(&key) ^
        static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  }
  key.k0 = words[0];
  key.k1 = words[1];
  return key;
}

}  // namespace

template <int kCompressionRounds, int kFinalRounds>
std::uint64_t SipHash(const SipKey& key, std::string_view bytes) {
  SipState state(key);
  const std::size_t whole = bytes.size() / 8 * 8;
  for (std::size_t at = 0; at < whole; at += 8) {
    state.Compress<kCompressionRounds>(LoadLittleEndian(bytes.data() + at, 8));
  }
  // The last word: the remaining bytes, and the length modulo 256 in the top byte.
  const std::uint64_t last = LoadLittleEndian(bytes.data() + whole, bytes.size() - whole) |
                             (std::uint64_t{bytes.size() & 0xff} << 56);
  state.Compress<kCompressionRounds>(last);
  state.v2 ^= 0xff;
  for (int i = 0; i < kFinalRounds; ++i) state.Round();
  return state.v0 ^ state.v1 ^ state.v2 ^ state.v3;
}

template std::uint64_t SipHash<1, 3>(const SipKey&, std::string_view);
template std::uint64_t SipHash<2, 4>(const SipKey&, std::string_view);

const SipKey& ProcessSipKey() {
  static const SipKey key = DrawKey();
  return key;
}

std::uint64_t KeyedHash(std::string_view bytes) { return SipHash<1, 3>(ProcessSipKey(), bytes); }

}  // namespace arcs
