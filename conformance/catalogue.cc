#include "conformance/catalogue.h"

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <optional>
#include <regex>
#include <unordered_map>

#include "reference/core/io.h"
#include "reference/core/json_fields.h"

namespace arcs::conformance {
namespace {

std::optional<Level> ParseLevel(std::string_view level) {
  if (level == "MUST" || level == "MUST NOT") return Level::kMust;
  if (level == "SHOULD" || level == "SHOULD NOT") return Level::kShould;
  if (level == "MAY") return Level::kMay;
  return std::nullopt;
}

void ReadRequirement(const json::Value& item, const std::string& pointer, Status* status,
                     Requirement* r) {
  json::FieldReader f(&item, pointer, status);
  f.String("id", &r->id);
  f.String("section", &r->section);
  f.String("level", &r->keyword_level);
  f.String("keyword", &r->keyword);
  f.String("subject", &r->subject);
  f.String("text", &r->text);
  f.String("source", &r->source);
  f.String("coverage", &r->coverage);
  f.OptionalString("reason", &r->reason);
  if (f.OptionalString("statement", &r->statement) && r->statement != "rules" &&
      r->statement != "schema" && r->statement != "both" && r->statement != "prose") {
    f.Fail(f.Pointer("statement"), "not rules, schema, both or prose");
  }
  f.Finish();
  if (!status->ok()) return;
  std::optional<Level> level = ParseLevel(r->keyword_level);
  if (!level) {
    f.Fail(f.Pointer("level"), "not MUST, MUST NOT, SHOULD, SHOULD NOT or MAY");
    return;
  }
  r->level = *level;
  if (r->id.empty()) f.Fail(f.Pointer("id"), "is empty");
}

}  // namespace

const Requirement* Catalogue::Find(std::string_view id) const {
  for (const Requirement& r : requirements) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

Result<Catalogue> ParseCatalogue(std::string_view text, const std::string& origin) {
  json::Document doc;
  Status status = json::ParseData(text, &doc);
  Catalogue catalogue;
  json::FieldReader f(&doc.root(), "", &status);
  f.String("spec", &catalogue.spec);
  f.String("spec_file", &catalogue.spec_file);
  f.String("spec_version", &catalogue.spec_version);
  f.ForEach("requirements", true, [&](const json::Value& item, const std::string& pointer) {
    ReadRequirement(item, pointer, &status, &catalogue.requirements.emplace_back());
  });
  f.Finish();
  if (!status.ok()) return Status(status.code(), origin + ": " + status.message());
  return catalogue;
}

Result<Catalogue> LoadCatalogue(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseCatalogue(*text, path);
}

SchemaRuleMap SchemaRulesOf(const Catalogue& catalogue, std::string_view id_prefix) {
  SchemaRuleMap out;
  const std::regex where("^Location `([^`]+)`, keyword `([^`]+)`");
  for (const Requirement& r : catalogue.requirements) {
    std::smatch m;
    if (r.id.starts_with(id_prefix) && std::regex_search(r.reason, m, where)) {
      out.emplace(std::make_pair(m[1].str(), m[2].str()), r.id);
    }
  }
  return out;
}

const Catalogue& EmbeddedCatalogue(std::string_view (*catalogue_text)()) {
  // Catalogues are immortal, one per format: keyed by the function that embeds its text.
  static std::mutex mutex;
  static std::unordered_map<std::string_view (*)(), Catalogue> parsed;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = parsed.find(catalogue_text);
  if (it != parsed.end()) return it->second;
  Result<Catalogue> catalogue = ParseCatalogue(catalogue_text(), "the built-in requirements.json");
  if (!catalogue.ok()) {
    std::cerr << "arcs: the built-in catalogue is broken: " << catalogue.status().message() << "\n";
    std::abort();
  }
  return parsed.emplace(catalogue_text, std::move(*catalogue)).first->second;
}

}  // namespace arcs::conformance
