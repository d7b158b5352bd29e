// What a fuzz target does when a property it checks does not hold: says which on stderr and traps,
// so that libFuzzer keeps the input as a crash (and the replay tests fail on it). fuzz/ holds the
// libFuzzer targets of ARCS's own code (namespace arcs::libfuzzer); `arcs fuzz`, which fuzzes
// other implementations against the reference, is runner/fuzz/ (namespace arcs::fuzz).
#ifndef ARCS_FUZZ_FUZZ_CHECK_H_
#define ARCS_FUZZ_FUZZ_CHECK_H_

#include <cstdio>

namespace arcs::libfuzzer {

inline void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz target: a property does not hold: %s\n", what);
    __builtin_trap();
  }
}

}  // namespace arcs::libfuzzer

#endif  // ARCS_FUZZ_FUZZ_CHECK_H_
