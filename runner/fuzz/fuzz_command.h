// `arcs fuzz`: the command line over runner/fuzz/fuzz.h: fuzzes an implementation through the
// runner protocol against the reference and reports what they disagree on.
#ifndef ARCS_RUNNER_FUZZ_FUZZ_COMMAND_H_
#define ARCS_RUNNER_FUZZ_FUZZ_COMMAND_H_

#include <string>
#include <vector>

namespace arcs::fuzz {

// 0: no finding; 1: findings; 2: usage or I/O errors, or an implementation that does not start.
int FuzzCommand(const std::vector<std::string>& args);

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_FUZZ_COMMAND_H_
