// `arcs serve`: the reference implementation behind the runner protocol (runner/PROTOCOL.md), so
// that `arcs run` scores it exactly the way it scores any other implementation.
#ifndef ARCS_RUNNER_SERVE_COMMAND_H_
#define ARCS_RUNNER_SERVE_COMMAND_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "protocol/protocol.h"
#include "reference/core/jsonl.h"

namespace arcs::runner {

// Serves the protocol from `input` to `output` until "shutdown" or end of input. Exit 0, or 1
// after a message it could not read, or a line over max_line_bytes (never held in memory),
// reported on stderr.
int Serve(jsonl::ByteSource* input, std::FILE* output, std::uint64_t max_line_bytes);

// Serves stdin/stdout (lines up to protocol::kMaxLineBytes) until "shutdown" or end of input. Exit
// 0, or 1 after a message it could not read (reported on stderr).
int ServeCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_SERVE_COMMAND_H_
