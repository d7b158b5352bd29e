// Internal to reference/core's JSON parser: the SIMD front end. simdjson's stage 1 (Debian's
// libsimdjson) validates the UTF-8 of the whole text, finds every string's extent and control
// characters, and indexes every structural character and token start; a walk over that index then
// applies ARCS's strict grammar and feeds the same ValueBuilder as RapidJSON's reader. It only
// accepts: whatever it refuses, RapidJSON parses again and reports (rule, offset, message), so the
// two front ends give the same errors by construction and the same documents by test
// (json_differential_test.cc, fuzz/json_differential_fuzzer.cc).
#ifndef ARCS_REFERENCE_CORE_JSON_SIMD_H_
#define ARCS_REFERENCE_CORE_JSON_SIMD_H_

#include <cstddef>

#include "reference/core/json_internal.h"

namespace arcs::json::internal {

enum class SimdOutcome : std::uint8_t {
  kAccepted,     // builder->values.back() is the root
  kRefused,      // the text is as it was given
  kNeutralized,  // strings decoded in place before the refusal were filled with 'a': the text is
                 // one RapidJSON refuses exactly as the original (the same error at the same
                 // offset), though not the original
};

// What the walk makes of a \u escape of a surrogate without its partner: it refuses the text (and
// RapidJSON reports it), or decodes the escape as U+FFFD, as Go's encoding/json does
// (BadUnicode::kReplaceAsGo).
enum class LoneSurrogates : std::uint8_t { kRefuse, kReplace };

// Parses text[0, size), decoding strings in place, or when stream->read_only into the builder's
// arena (the text is then never written, and never kNeutralized). The text is NUL-terminated, or
// ends with a byte that cannot end a number (ScanNumber reads on to a byte that is not one). The
// builder has been Reset for the text.
SimdOutcome ParseWithSimd(char* text, std::size_t size, LoneSurrogates lone, ValueBuilder* builder,
                          TextStream* stream);

// How this thread's texts came out of ParseWithSimd, by SimdOutcome: what the walk decided itself
// and what it left to RapidJSON (for tests and benchmarks: a walk that refused everything would
// still agree with RapidJSON on every text).
struct SimdCounts {
  std::uint64_t accepted = 0;
  std::uint64_t refused = 0;
  std::uint64_t neutralized = 0;
  std::uint64_t pieces = 0;  // pieces stage 1 indexed (kStage1PieceBytes), one for a whole text
};
const SimdCounts& ThisThreadSimdCounts();

// Stage 1 indexes a text in pieces of about this many bytes, each just before the walk reads it
// (a piece and its index stay in the core's cache); the Go reading of a text decoded in place, and
// a text shorter than two pieces, are indexed whole.
inline constexpr std::size_t kStage1PieceBytes = 256 * 1024;
// For tests: this thread's piece size (0: every text is indexed whole).
void SetStage1PieceBytes(std::size_t bytes);
std::size_t Stage1PieceBytes();

}  // namespace arcs::json::internal

#endif  // ARCS_REFERENCE_CORE_JSON_SIMD_H_
