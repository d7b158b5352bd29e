// The arcs command: one binary, one subcommand per job.
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "conformance/registry.h"
#include "reference/core/strings.h"
#include "reference/core/version.h"
#include "runner/check_adapter_command.h"
#include "runner/formats_command.h"
#include "runner/fuzz/fuzz_command.h"
#include "runner/report/report_command.h"
#include "runner/rules_command.h"
#include "runner/run_command.h"
#include "runner/serve_command.h"
#include "runner/validate_command.h"
#include "runner/verb_command.h"

namespace {

constexpr char kHelp[] = R"(arcs: the Agent Recording Conformance Suite

usage: arcs COMMAND [ARGS]

commands:
  validate FILE...        check that recordings conform to their spec; one line per finding
  run [--impl 'CMD']...   score implementations against every vector (the reference by default)
  check-adapter --impl 'CMD'
                          a new adapter's first check: handshake, a case per operation, the
                          resource probes' long lines; what to fix
  fuzz --impl 'CMD'       fuzz an implementation against the reference; findings as candidate vectors
  report PATH --html|--markdown|--junit|--badges DIR
                          render a JSON report written by `arcs run --report`
  diff OLD.json NEW.json  list the cases whose outcome changed; exit 1 on regressions
  serve                   the reference implementation over the runner protocol
  vectors                 hold the reference, in process, to every vector
  formats [--json]        the formats, their limits, policies and operations
  rules [--format F]      every rule id with its level, section and text
  FORMAT VERB ARGS...     a format's own commands (arcs lightbox verify SESSION; arcs mcp
                          replay -r FILE; arcs FORMAT --help lists them)

Run `arcs COMMAND --help` for a command's options and exit statuses; `--version`, alone or with
any command, for the version. The runner protocol: runner/PROTOCOL.md.

Exit status: 0 with --help or --version, 2 with no command or an unknown one; a command's own
otherwise (2 is a usage error everywhere).
)";

// The verbs a format offers as `arcs VERB FILE` (VerbSpec::file_command_summary), once each.
std::map<std::string_view, std::string_view> FileCommands() {
  std::map<std::string_view, std::string_view> commands;
  for (const arcs::conformance::FormatModule* format : arcs::conformance::Formats()) {
    for (const arcs::conformance::VerbSpec& verb : format->verbs) {
      if (!verb.file_command_summary.empty()) {
        commands.emplace(verb.name, verb.file_command_summary);
      }
    }
  }
  return commands;
}

std::string Help() {
  std::string help = kHelp;
  std::string lines;
  for (const auto& [verb, summary] : FileCommands()) {
    std::string usage = "  " + std::string(verb) + " FILE";
    usage.resize(std::max<std::size_t>(usage.size() + 1, 26), ' ');
    lines += usage + std::string(summary) + "\n";
  }
  help.insert(help.find("  vectors "), lines);
  return help;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << Help();
    return args.empty() ? 2 : 0;
  }
  // With any command, as with none: `arcs run --version`, `arcs mcp replay --version`.
  if (std::find(args.begin(), args.end(), "--version") != args.end()) {
    std::cout << "arcs " << arcs::kArcsVersion << "\n";
    return 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  if (command == "validate") return arcs::runner::ValidateCommand(args);
  if (command == "run") return arcs::runner::RunCommand(args);
  if (command == "fuzz") return arcs::fuzz::FuzzCommand(args);
  if (command == "report") return arcs::runner::ReportCommand(args);
  if (command == "diff") return arcs::runner::DiffCommand(args);
  if (command == "serve") return arcs::runner::ServeCommand(args);
  if (command == "vectors") return arcs::runner::VectorsCommand(args);
  if (command == "formats") return arcs::runner::FormatsCommand(args);
  if (command == "rules") return arcs::runner::RulesCommand(args);
  if (command == "check-adapter") return arcs::runner::CheckAdapterCommand(args);
  if (const arcs::conformance::FormatModule* format =
          arcs::conformance::FindFormatCommand(command)) {
    return arcs::runner::VerbCommand(*format, args);
  }
  if (FileCommands().contains(command)) return arcs::runner::FileVerbCommand(command, args);
  std::cerr << "arcs: unknown command '" << arcs::Printable(command) << "'\n" << Help();
  return 2;
}
