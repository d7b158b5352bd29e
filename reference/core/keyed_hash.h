// Hashing for hash tables keyed by data a user gave us (ids, names, request keys): SipHash-1-3
// under a key drawn at random once per process, so that nobody who reads this source can choose
// keys that all land in one bucket and make a lookup linear (hash flooding). Every such table in
// ARCS hashes through this file; tables keyed by our own data (indices, pointers) need not.
//
// SipHash is a keyed pseudorandom function (Aumasson and Bernstein, "SipHash: a fast short-input
// PRF", INDOCRYPT 2012): without the key, which never leaves the process, finding inputs that
// collide is as hard as distinguishing it from a random function. SipHash-1-3 is the reduced-round
// variant CPython (since 3.11) and Rust's standard HashMap use for the same purpose.
#ifndef ARCS_REFERENCE_CORE_KEYED_HASH_H_
#define ARCS_REFERENCE_CORE_KEYED_HASH_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace arcs {

struct SipKey {
  std::uint64_t k0 = 0;
  std::uint64_t k1 = 0;
};

// SipHash-c-d of `bytes` under `key`, the words read little-endian as the paper specifies. Built
// for 1-3 (what the tables use) and 2-4 (the paper's own, whose published test vector checks the
// shared code).
template <int kCompressionRounds, int kFinalRounds>
std::uint64_t SipHash(const SipKey& key, std::string_view bytes);
extern template std::uint64_t SipHash<1, 3>(const SipKey&, std::string_view);
extern template std::uint64_t SipHash<2, 4>(const SipKey&, std::string_view);

// The key of this process: 128 bits from getrandom(2), drawn at first use. Tables built with it
// iterate in an order that changes from run to run, so nothing we print may follow that order.
const SipKey& ProcessSipKey();

// SipHash-1-3 of `bytes` under the process key.
std::uint64_t KeyedHash(std::string_view bytes);

// A hasher for std::unordered_* over strings; transparent, so that a table of std::string is
// searched with a std::string_view without a copy.
struct KeyedStringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return KeyedHash(text); }
};

// A hasher over the bytes of a value without padding (an id packed into integers, a Uuid).
template <typename T>
struct KeyedBytesHash {
  static_assert(std::has_unique_object_representations_v<T>,
                "equal values must have equal bytes: no padding, no floating point");
  std::size_t operator()(const T& value) const {
    return KeyedHash(std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
  }
};

template <typename Value>
using KeyedStringMap = std::unordered_map<std::string, Value, KeyedStringHash, std::equal_to<>>;
template <typename Value>
using KeyedStringViewMap =
    std::unordered_map<std::string_view, Value, KeyedStringHash, std::equal_to<>>;
using KeyedStringViewSet = std::unordered_set<std::string_view, KeyedStringHash, std::equal_to<>>;

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_KEYED_HASH_H_
