// `arcs serve`: the reference implementation behind the runner protocol (runner/PROTOCOL.md), so
// that `arcs run` scores it exactly the way it scores any other implementation.
#ifndef ARCS_RUNNER_SERVE_COMMAND_H_
#define ARCS_RUNNER_SERVE_COMMAND_H_

#include <string>
#include <vector>

#include "runner/protocol/protocol.h"

namespace arcs::runner {

// The reference's handshake: every format and operation it implements, and its policies.
protocol::ImplementationHello ReferenceHello();

// The reference's answer to one case.
protocol::Answer ReferenceAnswer(const protocol::CaseRequest& request);

// Serves stdin/stdout until "shutdown" or end of input. Exit 0, or 1 after a message it could
// not read (reported on stderr).
int ServeCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_SERVE_COMMAND_H_
