// SHA-256 through OpenSSL 3's EVP interface. The digest is fetched once per process and each
// hasher keeps its context for reuse, so hashing many small values costs no repeated set-up.
// Sha256Batch hashes many independent messages side by side where the CPU allows.
#ifndef ARCS_REFERENCE_CORE_SHA256_H_
#define ARCS_REFERENCE_CORE_SHA256_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace arcs {

using Sha256Digest = std::array<std::uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(std::string_view bytes);
  // Returns the digest of everything since construction or the last Finish(), and starts over.
  Sha256Digest Finish();

  static Sha256Digest Of(std::string_view bytes);

 private:
  void Restart();
  struct Context;
  Context* context_;
};

// The SHA-256 of many independent messages (each event of a log, each content of a session).
// Intel's multi-buffer library (Debian's libipsec-mb, x86-64) hashes up to 16 of them at once in
// the lanes of AVX-512 registers (8 with AVX2): on one core here about twice as fast as OpenSSL's
// SHA extensions hash them one after another (10 kB messages: 2.6 against 1.27 GB/s; 400 B: 1.1
// against 0.5). Without it, or with ARCS_SIMD=portable, each message is hashed when it is added.
// Lanes pay only when enough of them are busy: a batch of up to kHeldMessages is hashed by OpenSSL
// when it is flushed (time of OpenSSL over the lanes, 2 kB messages: 0.22 for 2, 0.45 for 4, 0.99
// for 8, 1.44 for 16, 1.96 for 64; 400 B and 10 kB alike).
class Sha256Batch {
 public:
  Sha256Batch();
  ~Sha256Batch();  // Flush()es
  Sha256Batch(const Sha256Batch&) = delete;
  Sha256Batch& operator=(const Sha256Batch&) = delete;

  // Starts hashing `message` into *digest. Both must stay as they are until Flush() returns.
  void Add(std::string_view message, Sha256Digest* digest);
  // Returns when every digest added so far has been written.
  void Flush();

  struct Lanes;  // the library's, one per thread
  static constexpr std::size_t kHeldMessages = 8;

 private:
  Lanes* lanes_;  // null: each message is hashed as it is added
  // The messages added since the last Flush, while there are no more than kHeldMessages; once
  // there are, they and every message after them go to the lanes (submitting).
  std::array<std::pair<std::string_view, Sha256Digest*>, kHeldMessages> held_;
  std::size_t held_count_ = 0;
  bool submitting_ = false;
};

std::string ToHex(const Sha256Digest& digest);             // lowercase
void ToHex(const Sha256Digest& digest, std::string* out);  // the same into *out, keeping its room

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_SHA256_H_
