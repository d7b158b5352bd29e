#include "runner/validate_explain.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "conformance/registry.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

constexpr std::size_t kMaxSuggestions = 20;

bool SameIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view CoverageMeaning(std::string_view coverage) {
  if (coverage == "checker") return "arcs validate reports a file that breaks it";
  if (coverage == "vectors") {
    return "test vectors hold implementations to it; arcs validate does not judge files by it";
  }
  return "neither arcs validate nor a vector checks it";
}

}  // namespace

std::optional<CatalogueRule> FindCatalogueRule(std::string_view id) {
  for (const conformance::FormatModule* f : conformance::Formats()) {
    if (const conformance::Requirement* r = f->BuiltInCatalogue().Find(id)) return {{f, r}};
  }
  for (const conformance::FormatModule* f : conformance::Formats()) {
    for (const conformance::Requirement& r : f->BuiltInCatalogue().requirements) {
      if (SameIgnoringCase(r.id, id)) return {{f, &r}};
    }
  }
  return std::nullopt;
}

std::string ExplainText(const CatalogueRule& rule) {
  const conformance::FormatModule& f = *rule.format;
  const conformance::Requirement& r = *rule.requirement;
  std::string text = r.id + " (" + r.keyword_level + "): " + std::string(f.title) + ", " +
                     std::string(f.spec) + " section " + r.section + "\n";
  text += "text: " + r.text + "\n";
  text += "applies to: " + r.subject + " (from the spec's " + r.source + ")\n";
  text += "coverage: " + r.coverage + ": " + std::string(CoverageMeaning(r.coverage)) + "\n";
  if (!r.reason.empty()) text += "reason: " + r.reason + "\n";
  if (!r.statement.empty()) text += "statement: " + r.statement + "\n";
  text += "catalogue: " + f.CataloguePath() + "\n";
  text += "errata: " + f.ErrataPath() + "\n";
  // The catalogue is ours, but it quotes specs: nothing in it may drive the terminal either.
  return PrintableDocument(text);
}

std::string UnknownRuleText(std::string_view id) {
  std::vector<std::string> examples;
  std::vector<std::string> starting;
  std::size_t more = 0;
  for (const conformance::FormatModule* f : conformance::Formats()) {
    const std::vector<conformance::Requirement>& all = f->BuiltInCatalogue().requirements;
    if (!all.empty()) examples.push_back(all.front().id);
    for (const conformance::Requirement& r : all) {
      if (id.empty() || r.id.size() <= id.size() ||
          !SameIgnoringCase(std::string_view(r.id).substr(0, id.size()), id)) {
        continue;
      }
      if (starting.size() < kMaxSuggestions) {
        starting.push_back(r.id);
      } else {
        ++more;
      }
    }
  }
  std::string text = "unknown rule id '" + Printable(id) +
                     "': no requirement catalogue has it (ids look like " + Join(examples) + ")";
  if (!starting.empty()) {
    text += "; ids starting with it: " + Join(starting);
    if (more > 0) text += " and " + std::to_string(more) + " more";
  }
  return text;
}

}  // namespace arcs::runner
