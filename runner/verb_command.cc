#include "runner/verb_command.h"

#include <algorithm>
#include <iostream>

#include "conformance/registry.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

void Usage(const conformance::FormatModule& format, std::ostream& out) {
  out << "usage: arcs " << format.name << " VERB ARGS...\n\n";
  if (format.verbs.empty()) {
    out << format.title << " has no verbs of its own: `arcs validate FILE` checks a file, and\n"
        << "`arcs run --format " << format.name << "` certifies an implementation.\n";
    return;
  }
  std::size_t width = 0;
  for (const conformance::VerbSpec& verb : format.verbs) width = std::max(width, verb.name.size());
  out << "verbs:\n";
  for (const conformance::VerbSpec& verb : format.verbs) {
    out << "  " << verb.name << std::string(width + 2 - verb.name.size(), ' ') << verb.summary
        << "\n";
  }
  out << "\n`arcs " << format.name << " VERB --help` shows a verb's usage, options and exit "
      << "statuses.\nExit status: 0 with --help, 2 with no verb or an unknown one.\n";
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
    std::cerr << "arcs " << format.name << ": unknown verb '" << Printable(args[0]) << "'\n";
    Usage(format, std::cerr);
    return 2;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (std::find(rest.begin(), rest.end(), "--help") != rest.end()) {
    std::cout << verb->help;
    return 0;
  }
  const conformance::VerbOutput output = verb->run(rest);
  for (const std::string& line : output.out) std::cout << Printable(line) << "\n";
  // A terminal is shown the document with its controls escaped; a file or a pipe gets its bytes.
  std::cout << (isatty(STDOUT_FILENO) ? PrintableDocument(output.document) : output.document);
  for (const std::string& line : output.err) {
    std::cerr << "arcs " << format.name << " " << verb->name << ": " << Printable(line) << "\n";
  }
  return output.exit_code;
}

int FileVerbCommand(std::string_view verb, const std::vector<std::string>& args) {
  const std::string usage = "usage: arcs " + std::string(verb) + " FILE [ARGS...]";
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << usage << "\n\nRuns `arcs FORMAT " << verb
              << " FILE ARGS...` for FILE's format, told by its name or content (standard input\n"
              << "has neither: use `arcs FORMAT " << verb << " -`).\nFormats with " << verb << ":";
    for (const conformance::FormatModule* f : conformance::Formats()) {
      for (const conformance::VerbSpec& v : f->verbs) {
        if (v.name == verb) std::cout << " " << f->name;
      }
    }
    std::cout << "\n\nExit status: that of `arcs FORMAT " << verb
              << " FILE` (its --help says), or 2 when\nFILE's format cannot be told or has no "
              << verb << ".\n";
    return 0;
  }
  if (args.empty() || args[0].starts_with("-")) {  // standard input has no name to tell by
    std::cerr << usage << "\n";
    return 2;
  }
  const Result<conformance::Detection> told =
      conformance::DetectFormat(args[0], [&] { return conformance::ReadSniffBytes(args[0]); });
  if (!told.ok()) {
    std::cerr << "arcs " << verb << ": " << Printable(told.status().message()) << "\n";
    return 2;
  }
  const conformance::FormatModule* format = told->format;
  const bool has_verb =
      format && std::any_of(format->verbs.begin(), format->verbs.end(),
                            [&](const conformance::VerbSpec& v) { return v.name == verb; });
  if (!has_verb) {
    std::cerr << "arcs " << verb << ": " << Printable(args[0])
              << (format ? ": " + std::string(format->title) + " has no " + std::string(verb)
                         : ": cannot tell the format from the name or the content")
              << "\n";
    return 2;
  }
  std::vector<std::string> verb_args = {std::string(verb)};
  verb_args.insert(verb_args.end(), args.begin(), args.end());
  return VerbCommand(*format, verb_args);
}

}  // namespace arcs::runner
