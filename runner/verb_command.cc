#include "runner/verb_command.h"

#include <algorithm>
#include <iostream>

#include "runner/report/escape.h"

namespace arcs::runner {
namespace {

void Usage(const conformance::FormatModule& format, std::ostream& out) {
  out << "usage: arcs " << format.name << " VERB ARGS...\n\nverbs:\n";
  for (const conformance::VerbSpec& verb : format.verbs) {
    out << "\n" << verb.help;
  }
}

}  // namespace

int VerbCommand(const conformance::FormatModule& format, const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    Usage(format, args.empty() ? std::cerr : std::cout);
    return args.empty() ? 2 : 0;
  }
  auto verb = std::find_if(format.verbs.begin(), format.verbs.end(),
                           [&](const conformance::VerbSpec& v) { return v.name == args[0]; });
  if (verb == format.verbs.end()) {
    std::cerr << "arcs " << format.name << ": unknown verb '" << report::EscapeTerminal(args[0])
              << "'\n";
    Usage(format, std::cerr);
    return 2;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (std::find(rest.begin(), rest.end(), "--help") != rest.end()) {
    std::cout << verb->help;
    return 0;
  }
  const conformance::VerbOutput output = verb->run(rest);
  for (const std::string& line : output.out) std::cout << report::EscapeTerminal(line) << "\n";
  std::cout << output.document;
  for (const std::string& line : output.err) {
    std::cerr << "arcs " << format.name << " " << verb->name << ": " << report::EscapeTerminal(line)
              << "\n";
  }
  return output.exit_code;
}

}  // namespace arcs::runner
