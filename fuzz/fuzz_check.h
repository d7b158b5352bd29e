// What a fuzz target does when a property it checks does not hold: says which on stderr and traps,
// so that libFuzzer keeps the input as a crash (and the replay tests fail on it).
#ifndef ARCS_FUZZ_FUZZ_CHECK_H_
#define ARCS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>

namespace arcs::fuzzing {

inline void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz target: a property does not hold: %s\n", what);
    __builtin_trap();
  }
}

}  // namespace arcs::fuzzing

#endif  // ARCS_FUZZ_FUZZ_CHECK_H_
