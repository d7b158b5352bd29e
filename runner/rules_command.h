// `arcs rules`: every rule id a format's findings and vectors cite, with its level, section and
// text, from the catalogue built into the binary, so that a user of the binary alone can read what
// a finding or a known-failures entry names (issue #27 item 1).
#ifndef ARCS_RUNNER_RULES_COMMAND_H_
#define ARCS_RUNNER_RULES_COMMAND_H_

#include <string>
#include <vector>

namespace arcs::runner {

// Exit 0; 2 on a usage error (an unknown format among them).
int RulesCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_RULES_COMMAND_H_
