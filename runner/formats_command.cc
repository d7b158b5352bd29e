#include "runner/formats_command.h"

#include <iostream>

#include "conformance/registry.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

constexpr char kHelp[] = R"(usage: arcs formats [--json]

Lists the formats ARCS certifies: spec, vectors, catalogue and errata, the resource limits (name,
default, the requirement a finding over it cites), the policies an implementation declares, and
the operations with their inputs and outcomes. --json prints the same as one JSON document
(schemas/, fuzz/ and tools/ scripts read it).
)";

void Quoted(std::string_view s, std::string* out) { json::AppendQuoted(s, out); }

void StringArray(const std::vector<std::string_view>& items, std::string* out) {
  *out += "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) *out += ",";
    Quoted(items[i], out);
  }
  *out += "]";
}

void AppendFormatJson(const conformance::FormatModule& f, std::string* out) {
  *out += "{\"name\":";
  Quoted(f.name, out);
  *out += ",\"title\":";
  Quoted(f.title, out);
  *out += ",\"spec\":";
  Quoted(f.spec, out);
  *out += ",\"spec_version\":";
  Quoted(f.spec_version, out);
  *out += ",\"rule_prefix\":";
  Quoted(f.rule_prefix, out);
  *out += ",\"extensions\":";
  StringArray(f.extensions, out);
  for (const auto& [key, path] :
       {std::pair{"manifest", f.ManifestPath()}, std::pair{"catalogue", f.CataloguePath()},
        std::pair{"errata", f.ErrataPath()}}) {
    *out += ",\"" + std::string(key) + "\":";
    Quoted(path, out);
  }
  *out += ",\"limits\":[";
  for (std::size_t i = 0; i < f.limits.size(); ++i) {
    const conformance::LimitSpec& l = f.limits[i];
    *out += i ? ",{\"name\":" : "{\"name\":";
    Quoted(l.name, out);
    *out += ",\"default\":" + std::to_string(l.default_value) + ",\"rule\":";
    Quoted(l.rule_id, out);
    *out += "}";
  }
  *out += "],\"policies\":[";
  for (std::size_t i = 0; i < f.policies.size(); ++i) {
    const conformance::PolicySpec& p = f.policies[i];
    *out += i ? ",{\"name\":" : "{\"name\":";
    Quoted(p.name, out);
    *out += ",\"choices\":";
    StringArray(p.choices, out);
    *out += ",\"reference\":";
    Quoted(p.reference_choice, out);
    *out += ",\"passage\":";
    Quoted(p.passage, out);
    *out += "}";
  }
  *out += "],\"operations\":[";
  for (std::size_t i = 0; i < f.operations.size(); ++i) {
    const conformance::OperationSpec& op = f.operations[i];
    *out += i ? ",{\"name\":" : "{\"name\":";
    Quoted(op.name, out);
    *out += ",\"inputs\":";
    StringArray(op.inputs, out);
    *out += ",\"outcomes\":";
    StringArray({op.valid_outcome, op.invalid_outcome}, out);
    *out += "}";
  }
  *out += "]}";
}

void PrintFormat(const conformance::FormatModule& f) {
  std::cout << f.name << ": " << f.title << " (" << f.spec << ")\n"
            << "  files named "
            << Join(std::vector<std::string>(f.extensions.begin(), f.extensions.end()), ", ")
            << "; vectors " << f.ManifestPath() << "; catalogue " << f.CataloguePath()
            << "; errata " << f.ErrataPath() << "\n  operations:\n";
  for (const conformance::OperationSpec& op : f.operations) {
    std::cout << "    " << op.name << ": " << op.summary << " (" << op.valid_outcome << " or "
              << op.invalid_outcome << ")\n";
  }
  std::cout << "  policies:\n";
  for (const conformance::PolicySpec& p : f.policies) {
    std::cout << "    " << p.name << ": "
              << Join(std::vector<std::string>(p.choices.begin(), p.choices.end()), " | ") << " ("
              << p.passage << "; the reference: " << p.reference_choice << ")\n";
  }
  std::cout << "  limits:\n";
  for (const conformance::LimitSpec& l : f.limits) {
    std::cout << "    " << l.name << "=" << l.default_value << "  " << l.what << " (" << l.rule_id
              << ")\n";
  }
}

}  // namespace

int FormatsCommand(const std::vector<std::string>& args) {
  bool as_json = false;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << kHelp;
      return 0;
    }
    if (a != "--json") {
      std::cerr << "arcs formats: unknown argument " << a << " (see arcs formats --help)\n";
      return 2;
    }
    as_json = true;
  }
  if (!as_json) {
    for (const conformance::FormatModule* f : conformance::Formats()) PrintFormat(*f);
    return 0;
  }
  std::string out = "{\"formats\":[";
  for (std::size_t i = 0; i < conformance::Formats().size(); ++i) {
    if (i) out += ",";
    AppendFormatJson(*conformance::Formats()[i], &out);
  }
  std::cout << out << "]}\n";
  return 0;
}

}  // namespace arcs::runner
