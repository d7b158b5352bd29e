#include "conformance/catalogue.h"

#include <optional>

#include "conformance/json_file.h"
#include "reference/core/io.h"
#include "reference/core/json.h"

namespace arcs::conformance {
namespace {

std::optional<Level> ParseLevel(std::string_view level) {
  if (level == "MUST" || level == "MUST NOT") return Level::kMust;
  if (level == "SHOULD" || level == "SHOULD NOT") return Level::kShould;
  if (level == "MAY") return Level::kMay;
  return std::nullopt;
}

}  // namespace

const Requirement* Catalogue::Find(std::string_view id) const {
  for (const Requirement& r : requirements) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

Result<Catalogue> LoadCatalogue(const std::string& path) {
  json::Document doc;
  if (Status s = LoadJsonFile(path, &doc); !s.ok()) return s;
  const json::Value* list = doc.root().Find("requirements");
  if (!list || !list->is_array()) {
    return Status(StatusCode::kParseError, path + ": no \"requirements\" array");
  }
  Catalogue catalogue;
  catalogue.spec = StringMember(doc.root(), "spec");
  for (const json::Value& item : list->items()) {
    Requirement r;
    r.id = StringMember(item, "id");
    r.section = StringMember(item, "section");
    r.keyword_level = StringMember(item, "level");
    r.subject = StringMember(item, "subject");
    r.coverage = StringMember(item, "coverage");
    r.reason = StringMember(item, "reason");
    r.text = StringMember(item, "text");
    std::optional<Level> level = ParseLevel(r.keyword_level);
    if (r.id.empty() || !level) {
      return Status(StatusCode::kParseError,
                    path + ": requirement \"" + r.id + "\" lacks an id or a known level");
    }
    r.level = *level;
    catalogue.requirements.push_back(std::move(r));
  }
  return catalogue;
}

}  // namespace arcs::conformance
