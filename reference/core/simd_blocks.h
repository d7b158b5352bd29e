// Internal to reference/core: a JSON string taken a block at a time, the part that the functions
// scanning strings (JsonPlainPrefix), writing them (AppendQuoted) and decoding them (json_simd.cc)
// share. Two widths: 64 bytes with AVX-512BW, 32 with AVX2, each a policy (Avx512Blocks,
// Avx2Blocks) that one generic loop takes. A loop is instantiated inside a function compiled for
// the policy's target and marked ARCS_FLATTEN, so that the policy's vector code is inlined into it;
// such a function is called only once UseAvx512Bw() or UseAvx2() said yes.
#ifndef ARCS_REFERENCE_CORE_SIMD_BLOCKS_H_
#define ARCS_REFERENCE_CORE_SIMD_BLOCKS_H_

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#define ARCS_AVX512BW_TARGET __attribute__((target("avx512f,avx512bw")))
#define ARCS_AVX2_TARGET __attribute__((target("avx2")))
// Byte permutes and compress, on top of AVX-512BW: called only once UseAvx512Vbmi2() said yes.
#define ARCS_AVX512VBMI2_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2")))
// Every call inlined, so that a generic loop runs the vector code of the target it was compiled
// for, not a call a block.
#define ARCS_FLATTEN __attribute__((flatten))

namespace arcs::simd {

// The low n bits, all 64 from n = 64 on: which bytes of a block lie inside the text, so that a
// masked load reads nothing past it.
inline std::uint64_t LowBits(std::size_t n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// The bytes of `block` among `valid` that a JSON string cannot hold as they are: '"', '\' and the
// C0 controls.
ARCS_AVX512BW_TARGET inline __mmask64 BytesToEscape(__m512i block, __mmask64 valid) {
  return (_mm512_cmpeq_epi8_mask(block, _mm512_set1_epi8('"')) |
          _mm512_cmpeq_epi8_mask(block, _mm512_set1_epi8('\\')) |
          _mm512_cmplt_epu8_mask(block, _mm512_set1_epi8(0x20))) &
         valid;
}

// A policy for the generic loops: each function reads the block at `text`, with `left` bytes of
// text remaining (fewer than kWidth: nothing past them is read). ToEscape and Backslashes (AVX2's
// only: the decoder's loop) say which of its bytes within `left` are to escape, or are
// backslashes; Copy stores the block whole at `out` (zeros past `left`). Only pointers and masks
// cross a call, never a vector: where a loop is not inlined (an unoptimized build) its calls must
// not depend on the caller's target.
struct Avx512Blocks {
  static constexpr std::size_t kWidth = 64;
  ARCS_AVX512BW_TARGET static std::uint64_t ToEscape(const char* text, std::size_t left) {
    return BytesToEscape(_mm512_maskz_loadu_epi8(LowBits(left), text), LowBits(left));
  }
  ARCS_AVX512BW_TARGET static void Copy(const char* text, std::size_t left, char* out) {
    _mm512_storeu_si512(out, _mm512_maskz_loadu_epi8(LowBits(left), text));
  }
};

// AVX2 has no byte-masked load: a block at the end of the text is copied first.
struct Avx2Blocks {
  static constexpr std::size_t kWidth = 32;
  ARCS_AVX2_TARGET static std::uint64_t ToEscape(const char* text, std::size_t left) {
    const __m256i block = Load(text, left);
    const __m256i controls = _mm256_cmpeq_epi8(_mm256_max_epu8(block, _mm256_set1_epi8(0x1F)),
                                               _mm256_set1_epi8(0x1F));  // unsigned <= 0x1F
    const __m256i special =
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(block, _mm256_set1_epi8('"')),
                                        _mm256_cmpeq_epi8(block, _mm256_set1_epi8('\\'))),
                        controls);
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(special)) & LowBits(left);
  }
  ARCS_AVX2_TARGET static std::uint64_t Backslashes(const char* text, std::size_t left) {
    const __m256i backslashes = _mm256_cmpeq_epi8(Load(text, left), _mm256_set1_epi8('\\'));
    return static_cast<std::uint32_t>(_mm256_movemask_epi8(backslashes)) & LowBits(left);
  }
  ARCS_AVX2_TARGET static void Copy(const char* text, std::size_t left, char* out) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), Load(text, left));
  }

 private:
  // Always inlined (a vector returned by a call would depend on the caller's target).
  ARCS_AVX2_TARGET __attribute__((always_inline)) static __m256i Load(const char* text,
                                                                      std::size_t left) {
    if (left >= kWidth) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text));
    alignas(kWidth) char tail[kWidth] = {};
    std::memcpy(tail, text, left);
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(tail));
  }
};

}  // namespace arcs::simd

#endif
#endif  // ARCS_REFERENCE_CORE_SIMD_BLOCKS_H_
