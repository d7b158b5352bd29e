// The arcs command: one binary, one subcommand per job.
#include <iostream>
#include <string>
#include <vector>

#include "runner/validate_command.h"

namespace {

constexpr char kHelp[] = R"(arcs: the Agent Recording Conformance Suite

usage: arcs COMMAND [ARGS]

commands:
  validate FILE...   check that recordings conform to their spec; one line per finding
  vectors            run the reference implementation over the conformance vectors

Run `arcs COMMAND --help` for a command's options.
Formats: spool (spool.md 1.0).
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kHelp;
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  if (command == "validate") return arcs::runner::ValidateCommand(args);
  if (command == "vectors") return arcs::runner::VectorsCommand(args);
  std::cerr << "arcs: unknown command '" << command << "'\n" << kHelp;
  return 2;
}
