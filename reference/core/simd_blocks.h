// Internal to reference/core: a JSON string taken 64 bytes at a time with AVX-512BW, the part that
// the functions scanning strings (JsonPlainPrefix), writing them (AppendQuoted) and decoding them
// (json_simd.cc) share. The vector functions are only for functions compiled with
// ARCS_AVX512BW_TARGET (or a superset) and called once UseAvx512Bw() said yes.
#ifndef ARCS_REFERENCE_CORE_SIMD_BLOCKS_H_
#define ARCS_REFERENCE_CORE_SIMD_BLOCKS_H_

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#define ARCS_AVX512BW_TARGET __attribute__((target("avx512f,avx512bw")))

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

}  // namespace arcs::simd

#endif
#endif  // ARCS_REFERENCE_CORE_SIMD_BLOCKS_H_
