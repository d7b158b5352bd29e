// `arcs <format> <verb> ARGS...`: the commands a format module defines (conformance/format.h
// VerbSpec), run and printed with every line escaped for the terminal.
#ifndef ARCS_RUNNER_VERB_COMMAND_H_
#define ARCS_RUNNER_VERB_COMMAND_H_

#include <string>
#include <vector>

#include "conformance/format.h"

namespace arcs::runner {

// args: the verb and its arguments. Exit: the verb's status; 2 on an unknown verb.
int VerbCommand(const conformance::FormatModule& format, const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VERB_COMMAND_H_
