// `arcs check-adapter`: a first look at a new adapter before a whole run. It shakes hands, sends
// one small case per operation the adapter declares and, per format, the largest request line the
// suite sends (a resource probe), and says what to fix in the order a newcomer meets it
// (issue #27 item 1).
#ifndef ARCS_RUNNER_CHECK_ADAPTER_COMMAND_H_
#define ARCS_RUNNER_CHECK_ADAPTER_COMMAND_H_

#include <string>
#include <vector>

namespace arcs::runner {

// Exit 0 when every check passed, 1 when one did not, 2 on usage or I/O errors.
int CheckAdapterCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_CHECK_ADAPTER_COMMAND_H_
