// `arcs run`: the command line over runner/run.h: scores implementations against every vector
// and writes the report (runner/report/report.h).
#ifndef ARCS_RUNNER_RUN_COMMAND_H_
#define ARCS_RUNNER_RUN_COMMAND_H_

#include <string>
#include <vector>

namespace arcs::runner {

// 0: every MUST case of every implementation passed or is a listed known failure, and no listed
// case passed; 1 otherwise (or when interrupted); 2 on usage or I/O errors.
int RunCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_RUN_COMMAND_H_
