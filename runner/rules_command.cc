#include "runner/rules_command.h"

#include <iostream>

#include "conformance/registry.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

constexpr char kRulesHelp[] = R"(usage: arcs rules [--format F]... [--json]

Lists every rule of the selected formats (default all), as the catalogue built into arcs holds
it: the id findings, vectors and known-failures lists name, its level as the spec writes it
(MUST, SHOULD NOT, ...), its section and its text. One rule per line, "ID LEVEL §SECTION TEXT";
--json prints {"rules": [{"format", "id", "level", "section", "subject", "coverage", "text"}]}.

Exit status: 0, 2 on usage errors (an unknown format).
)";

void Text(const conformance::FormatModule& format, std::ostream& out) {
  out << format.title << " (" << format.name << ")\n";
  for (const conformance::Requirement& r : format.BuiltInCatalogue().requirements) {
    out << "  " << r.id << "  " << r.keyword_level << "  §" << r.section << "  "
        << Printable(Excerpt(r.text, 200)) << "\n";
  }
}

void Json(const conformance::FormatModule& format, bool* first, std::string* out) {
  for (const conformance::Requirement& r : format.BuiltInCatalogue().requirements) {
    *out += *first ? "\n" : ",\n";
    *first = false;
    *out += "{";
    const std::pair<std::string_view, std::string_view> members[] = {
        {"format", format.name}, {"id", r.id},           {"level", r.keyword_level},
        {"section", r.section},  {"subject", r.subject}, {"coverage", r.coverage},
        {"text", r.text}};
    for (std::size_t i = 0; i < std::size(members); ++i) {
      if (i) *out += ',';
      json::AppendQuoted(members[i].first, out);
      *out += ':';
      json::AppendQuoted(members[i].second, out);
    }
    *out += "}";
  }
}

}  // namespace

int RulesCommand(const std::vector<std::string>& args) {
  std::vector<const conformance::FormatModule*> formats;
  bool as_json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      std::cout << kRulesHelp;
      return 0;
    }
    if (args[i] == "--json") {
      as_json = true;
    } else if (args[i] == "--format" && i + 1 < args.size()) {
      const conformance::FormatModule* format = conformance::FindFormat(args[++i]);
      if (!format) {
        std::cerr << "arcs rules: unknown format " << Quoted(args[i], 60) << "\n";
        return 2;
      }
      formats.push_back(format);
    } else {
      std::cerr << "arcs rules: unknown argument " << Quoted(args[i], 60) << "\n" << kRulesHelp;
      return 2;
    }
  }
  if (formats.empty()) formats.assign(conformance::Formats().begin(), conformance::Formats().end());
  if (!as_json) {
    for (const conformance::FormatModule* format : formats) Text(*format, std::cout);
    return 0;
  }
  std::string out = "{\"rules\":[";
  bool first = true;
  for (const conformance::FormatModule* format : formats) Json(*format, &first, &out);
  std::cout << out << "\n]}\n";
  return 0;
}

}  // namespace arcs::runner
