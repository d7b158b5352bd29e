#include "reference/core/sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

namespace arcs {
namespace {

// OpenSSL failing here means the library or its default provider is broken (or memory is gone),
// never that the input is bad; there is no meaningful way to go on.
[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "arcs: OpenSSL SHA-256: %s failed\n", what);
  std::abort();
}

// Fetching is the expensive part of EVP set-up, so it happens once per process. The digest is
// intentionally never freed: it lives as long as the process.
const EVP_MD* Sha256Md() {
  static EVP_MD* const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  if (md == nullptr) Die("EVP_MD_fetch");
  return md;
}

}  // namespace

struct Sha256::Context {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : context_(new Context) {
  context_->ctx = EVP_MD_CTX_new();
  if (context_->ctx == nullptr) Die("EVP_MD_CTX_new");
  Restart();
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(context_->ctx);
  delete context_;
}

void Sha256::Restart() {
  if (EVP_DigestInit_ex2(context_->ctx, Sha256Md(), nullptr) != 1) Die("EVP_DigestInit_ex2");
}

void Sha256::Update(std::string_view bytes) {
  if (bytes.empty()) return;
  if (EVP_DigestUpdate(context_->ctx, bytes.data(), bytes.size()) != 1) Die("EVP_DigestUpdate");
}

Sha256Digest Sha256::Finish() {
  Sha256Digest digest;
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(context_->ctx, digest.data(), &size) != 1 || size != digest.size()) {
    Die("EVP_DigestFinal_ex");
  }
  Restart();
  return digest;
}

Sha256Digest Sha256::Of(std::string_view bytes) {
  // One hasher per thread, so hashing many small values does not allocate a context each time.
  thread_local Sha256 hasher;
  hasher.Update(bytes);
  return hasher.Finish();
}

std::string ToHex(const Sha256Digest& digest) {
  std::string out;
  ToHex(digest, &out);
  return out;
}

// Written into place, not pushed back: a Lightbox log takes one of these per event.
void ToHex(const Sha256Digest& digest, std::string* out) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out->resize(digest.size() * 2);
  for (std::size_t i = 0; i < digest.size(); ++i) {
    (*out)[2 * i] = kDigits[digest[i] >> 4];
    (*out)[2 * i + 1] = kDigits[digest[i] & 0x0F];
  }
}

}  // namespace arcs
