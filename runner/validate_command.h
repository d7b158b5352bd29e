// `arcs validate` and `arcs vectors`: the command-line faces of the validators.
#ifndef ARCS_RUNNER_VALIDATE_COMMAND_H_
#define ARCS_RUNNER_VALIDATE_COMMAND_H_

#include <string>
#include <vector>

namespace arcs::runner {

// Each returns the process exit code: 0 success, 1 invalid input / failed cases, 2 usage or I/O.
int ValidateCommand(const std::vector<std::string>& args);
int VectorsCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_COMMAND_H_
