#include "runner/formats_command.h"

#include <iostream>

#include "conformance/registry.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

constexpr char kFormatsHelp[] = R"(usage: arcs formats [--json]

Lists the formats ARCS certifies: spec, vectors, catalogue and errata, the resource limits (name,
default, the requirement a finding over it cites), the policies an implementation declares, the
arguments a case may set (choices a user makes on the command line), and the operations with
their inputs and outcomes. --json prints the same as one JSON document
(schemas/, fuzz/ and tools/ scripts read it).

Exit status: 0, 2 on usage errors.
)";

void ArrayMember(std::string_view name, const std::vector<std::string_view>& items,
                 std::string* out) {
  *out += ',';
  json::AppendQuoted(name, out);
  *out += ":[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) *out += ',';
    json::AppendQuoted(items[i], out);
  }
  *out += ']';
}

// "name":[{...},...], each object's members written by write(item).
template <typename T, typename Write>
void ObjectsMember(std::string_view name, const std::vector<T>& items, Write write,
                   std::string* out) {
  *out += ',';
  json::AppendQuoted(name, out);
  *out += ":[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    *out += i ? ",{" : "{";
    write(items[i]);
    *out += '}';
  }
  *out += ']';
}

void AppendFormatJson(const conformance::FormatModule& f, std::string* out) {
  *out += '{';
  json::AppendMember("name", f.name, out);
  json::AppendMember("title", f.title, out);
  json::AppendMember("spec", f.spec, out);
  json::AppendMember("spec_version", f.spec_version, out);
  json::AppendMember("rule_prefix", f.rule_prefix, out);
  ArrayMember("native_rule_prefixes", f.native_rule_prefixes, out);
  ArrayMember("extensions", f.extensions, out);
  json::AppendMember("folder", f.Folder(), out);
  json::AppendMember("manifest", f.ManifestPath(), out);
  json::AppendMember("catalogue", f.CataloguePath(), out);
  json::AppendMember("errata", f.ErrataPath(), out);
  ObjectsMember(
      "limits", f.limits,
      [&](const conformance::LimitSpec& l) {
        json::AppendMember("name", l.name, out);
        *out += ",\"default\":" + std::to_string(l.default_value);
        json::AppendMember("rule", l.rule_id, out);
      },
      out);
  ObjectsMember(
      "policies", f.policies,
      [&](const conformance::PolicySpec& p) {
        json::AppendMember("name", p.name, out);
        ArrayMember("choices", p.choices, out);
        json::AppendMember("reference", p.reference_choice, out);
        json::AppendMember("passage", p.passage, out);
      },
      out);
  ObjectsMember(
      "arguments", f.arguments,
      [&](const conformance::ArgumentSpec& a) {
        json::AppendMember("name", a.name, out);
        json::AppendMember("values", a.what, out);
      },
      out);
  ObjectsMember(
      "operations", f.operations,
      [&](const conformance::OperationSpec& op) {
        json::AppendMember("name", op.name, out);
        ArrayMember("inputs", op.inputs, out);
        ArrayMember("outcomes", {op.valid_outcome, op.invalid_outcome}, out);
      },
      out);
  *out += '}';
}

void PrintFormat(const conformance::FormatModule& f) {
  std::cout << f.name << ": " << f.title << " (" << f.spec << ")\n  "
            << (f.extensions.empty()
                    ? std::string("files told by their content")
                    : "files named " +
                          Join(std::vector<std::string>(f.extensions.begin(), f.extensions.end()),
                               ", "))
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
  if (!f.arguments.empty()) std::cout << "  arguments:\n";
  for (const conformance::ArgumentSpec& a : f.arguments) {
    std::cout << "    " << a.name << ": " << a.what << "\n";
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
      std::cout << kFormatsHelp;
      return 0;
    }
    if (a != "--json") {
      std::cerr << "arcs formats: unknown argument " << Printable(a)
                << " (see arcs formats --help)\n";
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
