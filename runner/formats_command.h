// `arcs formats`: what the registry holds (conformance/registry.h), for people and for scripts:
// each format's spec, files, limits, policies and operations.
#ifndef ARCS_RUNNER_FORMATS_COMMAND_H_
#define ARCS_RUNNER_FORMATS_COMMAND_H_

#include <string>
#include <vector>

namespace arcs::runner {

// Exit 0; 2 on a usage error.
int FormatsCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_FORMATS_COMMAND_H_
