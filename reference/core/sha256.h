// SHA-256 through OpenSSL 3's EVP interface. The digest is fetched once per process and each
// hasher keeps its context for reuse, so hashing many small values costs no repeated set-up.
#ifndef ARCS_REFERENCE_CORE_SHA256_H_
#define ARCS_REFERENCE_CORE_SHA256_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

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

std::string ToHex(const Sha256Digest& digest);             // lowercase
void ToHex(const Sha256Digest& digest, std::string* out);  // the same into *out, keeping its room

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_SHA256_H_
