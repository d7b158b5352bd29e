// Deterministic text for the benchmarks' file generators (reference/<format>/benchmark/): a
// seeded random number generator, words that make a JSON escaper work (quotes, backslashes,
// controls, DEL, U+2028, 2- to 4-byte UTF-8), JSON string literals written as Python's
// json.dumps writes them, and sizes given as 64M or 1G. Written once for every format.
#ifndef ARCS_REFERENCE_CORE_TESTING_GENERATED_TEXT_H_
#define ARCS_REFERENCE_CORE_TESTING_GENERATED_TEXT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "reference/core/xoshiro.h"

namespace arcs::testing {

// The generators' draws, from reference/core/xoshiro.h: the same numbers on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : generator_(seed) {}
  std::uint64_t Next() { return generator_.Next(); }
  // Uniform in [0, n), n > 0 (the modulo bias is far below anything that matters here).
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }
  std::uint64_t Between(std::uint64_t lo, std::uint64_t hi) { return lo + Below(hi - lo + 1); }
  bool Chance(unsigned percent) { return Below(1000) < percent * 10u; }
  // Log-uniform in [lo, hi), near enough: one of the quarter-octave bands between lo and hi at
  // random, then a length within it. Many short strings, a long tail of long ones. Integer
  // arithmetic only, so that every platform draws the same lengths.
  std::uint64_t LogUniform(std::uint64_t lo, std::uint64_t hi) {
    std::uint64_t edges[64];
    std::size_t bands = 0;
    for (std::uint64_t e = lo; e < hi && bands < 63; e = std::max(e + 1, e * 1189 / 1000)) {
      edges[bands++] = e;  // 1.189 = 2^(1/4)
    }
    edges[bands] = hi;
    const std::size_t band = static_cast<std::size_t>(Below(bands));
    return edges[band] + Below(edges[band + 1] - edges[band]);
  }

 private:
  Xoshiro256 generator_;
};

// Appends about `length` bytes of raw UTF-8 text (before JSON escaping) to *out. Newlines, tabs,
// quotes, backslashes and an occasional ESC byte make the escaper work.
void AppendText(Rng& rng, std::size_t length, std::string* out);

// Appends text as a JSON string literal. With ascii, every character outside ' '..'~' becomes a
// \uXXXX escape (a surrogate pair above U+FFFF), as Python's json.dumps writes by default;
// without, only '"', '\\' and the controls are escaped. The text must be valid UTF-8.
void AppendJsonString(std::string_view text, bool ascii, std::string* out);

// "123", "64K", "16M", "1G" (binary units) as a count; false when it is not one.
bool ParseSize(std::string_view text, std::uint64_t* out);

}  // namespace arcs::testing

#endif  // ARCS_REFERENCE_CORE_TESTING_GENERATED_TEXT_H_
