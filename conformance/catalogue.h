// Requirement catalogues (conformance/<format>/requirements.json): every normative statement of a
// spec with a stable id, its level and how it is covered. See conformance/README.md.
#ifndef ARCS_CONFORMANCE_CATALOGUE_H_
#define ARCS_CONFORMANCE_CATALOGUE_H_

#include <string>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/status.h"

namespace arcs::conformance {

struct Requirement {
  std::string id;
  std::string section;
  std::string keyword_level;  // as written in the catalogue: "MUST", "MUST NOT", "SHOULD", ...
  Level level = Level::kMust;  // normalized: negatives share their positive's level
  std::string subject;         // file | reader | writer | implementation | display
  std::string coverage;        // checker | vectors | unchecked
  std::string reason;
  std::string text;
};

struct Catalogue {
  std::string spec;
  std::vector<Requirement> requirements;
  const Requirement* Find(std::string_view id) const;
};

Result<Catalogue> LoadCatalogue(const std::string& path);

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_CATALOGUE_H_
