// Requirement catalogues (conformance/<format>/requirements.json): every normative statement of a
// spec with a stable id, its level and how it is covered (../shared/FORMATS.md item 2).
#ifndef ARCS_CONFORMANCE_CATALOGUE_H_
#define ARCS_CONFORMANCE_CATALOGUE_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/core/diagnostics.h"
#include "reference/core/status.h"

namespace arcs::conformance {

struct Requirement {
  std::string id;
  std::string section;
  std::string keyword_level;   // as written in the catalogue: "MUST", "MUST NOT", "SHOULD", ...
  std::string keyword;         // the keyword as it stands in the sentence
  Level level = Level::kMust;  // normalized: negatives share their positive's level
  std::string subject;         // file | reader | writer | implementation | display | ...
  std::string source;          // prose | table | test-case
  std::string coverage;        // checker | vectors | unchecked
  std::string reason;          // optional
  std::string text;
  // Where a spec states its format twice (SessionData: the Go rules and a JSON Schema), which
  // statement says it: rules | schema | both | prose. Optional; "" for a spec that states it once.
  std::string statement;
};

struct Catalogue {
  std::string spec;       // the format's name
  std::string spec_file;  // the normative text's file name
  std::string spec_version;
  std::vector<Requirement> requirements;
  const Requirement* Find(std::string_view id) const;
};

// Strict: every member known, typed and present (reason is optional); `origin` starts messages.
Result<Catalogue> ParseCatalogue(std::string_view text, const std::string& origin);
Result<Catalogue> LoadCatalogue(const std::string& path);

// A format's catalogue as compiled into the binary (requirements.json, embedded at build time by
// its CatalogueText function), parsed once per process. A broken one is a build defect the
// catalogue test reports, never an input problem: it aborts.
const Catalogue& EmbeddedCatalogue(std::string_view (*catalogue_text)());

// The ids a catalogue gives the keywords of a format's JSON Schema: the requirements whose id
// starts with `id_prefix` ("SD-SCHEMA-") and whose reason starts "Location `p`, keyword `k`", by
// (p, k). The reasons are the one place that numbers a schema's keywords (the vector generators
// read them so too).
using SchemaRuleMap = std::map<std::pair<std::string, std::string>, std::string>;
SchemaRuleMap SchemaRulesOf(const Catalogue& catalogue, std::string_view id_prefix);

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_CATALOGUE_H_
