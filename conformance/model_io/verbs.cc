#include "conformance/model_io/verbs.h"

#include <utility>

#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/model_io/model_io.h"

namespace arcs::conformance::model_io {
namespace {

constexpr char kHashHelp[] = R"(usage: arcs model-io hash FILE

Prints the ModelIOHash of FILE (a model_io.json): "sha256:" and the lowercase hex SHA-256 of its
ModelIOCore canonicalized by RFC 8785, the value run.json's model_io_hash holds. A file that
breaks an invariant has none: its violations are printed instead, one per line, "RULE PATH
MESSAGE", sorted as MI10 asks.
Exit status: 0 hashed, 1 the file has no hash, 2 on usage or I/O errors.
)";

VerbOutput Hash(const std::vector<std::string>& args) {
  VerbOutput output;
  if (args.size() != 1 || args[0].starts_with("-")) {
    output.err.push_back("give one FILE (a model_io.json); see --help");
    output.exit_code = 2;
    return output;
  }
  const arcs::model_io::Limits limits;
  Result<std::string> text = ReadFile(args[0], limits.max_file_bytes);
  if (!text.ok()) {
    output.err.push_back(text.status().message());
    output.exit_code = 2;
    return output;
  }
  output.exit_code = 1;
  json::Document doc;  // parsed in place: a 100 MB session is held once
  // Destroyed before doc: its worker reads the document while it hashes.
  arcs::model_io::StreamingHash streaming(limits);
  json::ParseOptions options = arcs::model_io::ParseOptionsFor(limits);
  options.observer = streaming.observer();
  if (!doc.ParseTaking(std::move(*text), options)) {
    output.out.push_back(args[0] + ": not one JSON document: " + doc.error().message +
                         " (at byte " + std::to_string(doc.error().offset) + ")");
  } else if (!doc.duplicates().empty()) {
    output.out.push_back(args[0] + ": " + doc.duplicates().front().pointer +
                         ": a member name repeated in its object (no canonical form)");
  } else if (Result<std::string> hash = streaming.Finish(doc.root()); hash.ok()) {
    output.out.push_back(*hash);
    output.exit_code = 0;
  } else {
    for (const arcs::model_io::Violation& v : arcs::model_io::Verify(doc.root(), limits)) {
      output.out.push_back(v.rule_id + " " + (v.path.empty() ? "/" : v.path) + " " + v.message);
    }
  }
  return output;
}

}  // namespace

std::vector<VerbSpec> Verbs() {
  return {{"hash", kHashHelp, "prints a model_io.json's ModelIOHash (SHA-256 of its RFC 8785 core)",
           Hash}};
}

}  // namespace arcs::conformance::model_io
