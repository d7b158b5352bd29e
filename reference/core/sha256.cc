#include "reference/core/sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "reference/core/strings.h"

#if defined(ARCS_HAVE_IPSEC_MB)
#include <intel-ipsec-mb.h>
#endif

namespace arcs {
namespace {

// OpenSSL or ipsec-mb failing here means the library (or OpenSSL's default provider) is broken, or
// memory is gone, never that the input is bad; there is no meaningful way to go on.
[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "arcs: SHA-256: %s failed\n", what);
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

#if defined(ARCS_HAVE_IPSEC_MB)
// A multi-buffer manager: the library's job queue, whose lanes are filled as jobs are submitted
// and hashed together, 16 (AVX-512) or 8 (AVX2) at a time; a job's digest is written where its
// job says when the library hands the job back as completed.
struct Sha256Batch::Lanes {
  IMB_MGR* manager = nullptr;

  // The manager for the widest lanes ARCS_SIMD allows on this CPU, or null for none.
  static std::unique_ptr<Lanes> ForThisCpu() {
    if (!UseAvx2()) return nullptr;
    auto lanes = std::make_unique<Lanes>();
    lanes->manager = alloc_mb_mgr(0);
    if (lanes->manager == nullptr) Die("alloc_mb_mgr");
    if (UseAvx512Bw()) {
      init_mb_mgr_avx512(lanes->manager);
    } else {
      init_mb_mgr_avx2(lanes->manager);
    }
    if (imb_get_errno(lanes->manager) != 0) return nullptr;
    return lanes;
  }
  ~Lanes() { free_mb_mgr(manager); }

  // A job the library hands back has been hashed, or refused as one its lanes do not take: 1.3
  // refuses messages longer than 65,534 bytes as invalid arguments. OpenSSL hashes those.
  static void Finish(const IMB_JOB* job) {
    if (job->status == IMB_STATUS_COMPLETED) return;
    if (job->status != IMB_STATUS_INVALID_ARGS) Die("an ipsec-mb SHA-256 job");
    const Sha256Digest digest = Sha256::Of(
        std::string_view(reinterpret_cast<const char*>(job->src), job->msg_len_to_hash_in_bytes));
    std::memcpy(job->auth_tag_output, digest.data(), digest.size());
  }

  void Submit(std::string_view message, Sha256Digest* digest) {
    IMB_JOB* job = IMB_GET_NEXT_JOB(manager);
    job->cipher_mode = IMB_CIPHER_NULL;
    job->cipher_direction = IMB_DIR_ENCRYPT;
    job->chain_order = IMB_ORDER_HASH_CIPHER;
    job->hash_alg = IMB_AUTH_SHA_256;
    job->src = reinterpret_cast<const std::uint8_t*>(message.data());
    job->hash_start_src_offset_in_bytes = 0;
    job->msg_len_to_hash_in_bytes = message.size();
    job->auth_tag_output = digest->data();
    job->auth_tag_output_len_in_bytes = digest->size();
    for (const IMB_JOB* done = IMB_SUBMIT_JOB(manager); done != nullptr;
         done = IMB_GET_COMPLETED_JOB(manager)) {
      Finish(done);
    }
  }

  void Flush() {
    while (const IMB_JOB* done = IMB_FLUSH_JOB(manager)) Finish(done);
  }
};
#else
struct Sha256Batch::Lanes {
  static std::unique_ptr<Lanes> ForThisCpu() { return nullptr; }
  void Submit(std::string_view, Sha256Digest*) {}
  void Flush() {}
};
#endif

namespace {

// A thread's batches share one manager, made for its first (a manager costs about 85 us to make):
// one batch's Flush then finishes the others' jobs too, which only writes their digests early.
Sha256Batch::Lanes* ThisThreadLanes() {
  thread_local const std::unique_ptr<Sha256Batch::Lanes> lanes = Sha256Batch::Lanes::ForThisCpu();
  return lanes.get();
}

}  // namespace

Sha256Batch::Sha256Batch() : lanes_(ThisThreadLanes()) {}

Sha256Batch::~Sha256Batch() { Flush(); }

void Sha256Batch::Add(std::string_view message, Sha256Digest* digest) {
  // The library checks that a job's source is not null, which an empty view's may be.
  if (!lanes_ || message.empty()) {
    *digest = Sha256::Of(message);
  } else if (submitting_) {
    lanes_->Submit(message, digest);
  } else if (held_count_ < kHeldMessages) {
    held_[held_count_++] = {message, digest};
  } else {
    for (std::size_t i = 0; i < held_count_; ++i) lanes_->Submit(held_[i].first, held_[i].second);
    held_count_ = 0;
    submitting_ = true;
    lanes_->Submit(message, digest);
  }
}

void Sha256Batch::Flush() {
  for (std::size_t i = 0; i < held_count_; ++i) *held_[i].second = Sha256::Of(held_[i].first);
  held_count_ = 0;
  if (submitting_) lanes_->Flush();
  submitting_ = false;
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
