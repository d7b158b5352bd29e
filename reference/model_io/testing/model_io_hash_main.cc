// For the Node oracle test (node_hash_oracle.mjs): `arcs_model_io_hash FILE...` prints, one line
// per file, the ModelIOHash of the file, or "REFUSED" when the reference computes none (not one
// JSON document, a repeated name, or a session that breaks an invariant).
#include <cstdio>
#include <string>
#include <utility>

#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/model_io/model_io.h"

int main(int argc, char** argv) {
  const arcs::model_io::Limits limits;
  for (int k = 1; k < argc; ++k) {
    std::string line = "REFUSED";
    arcs::Result<std::string> text = arcs::ReadFile(argv[k], limits.max_file_bytes);
    arcs::json::Document doc;
    if (text.ok() && doc.ParseTaking(std::move(*text), arcs::model_io::ParseOptionsFor(limits)) &&
        doc.duplicates().empty()) {
      if (arcs::Result<std::string> hash = arcs::model_io::ModelIOHash(doc.root(), limits);
          hash.ok()) {
        line = *hash;
      }
    }
    std::printf("%s\n", line.c_str());
  }
  return 0;
}
