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

// `arcs VERB FILE`: the verb of FILE's format (`arcs render session.json`), the format told by the
// file's name, else by its first 64 KiB. Exit: the verb's status; 2 when FILE cannot be read, its
// format cannot be told, or its format has no such verb.
int FileVerbCommand(std::string_view verb, const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VERB_COMMAND_H_
