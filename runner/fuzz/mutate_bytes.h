// The byte-level mutation families (libFuzzer's): they apply to any input, whatever its shape, and
// are what Mutate falls back on when nothing else applies.
#ifndef ARCS_RUNNER_FUZZ_MUTATE_BYTES_H_
#define ARCS_RUNNER_FUZZ_MUTATE_BYTES_H_

#include <span>

#include "runner/fuzz/mutate_family.h"

namespace arcs::fuzz {

// byte:flip (one bit), byte:interesting (one byte set to a value parsers trip on: NUL, 0xFF, DEL,
// a lone continuation byte, a quote, a backslash, a brace, LF, CR), byte:insert (random bytes),
// byte:delete, byte:duplicate (a range repeated, next to itself or elsewhere), byte:splice (a range
// of `other` inserted or written over), byte:truncate.
std::span<const Family> ByteFamilies();

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_MUTATE_BYTES_H_
