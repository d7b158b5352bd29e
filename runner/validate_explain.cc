#include "runner/validate_explain.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "conformance/registry.h"
#include "reference/core/io.h"
#include "reference/core/strings.h"
#include "runner/suite.h"
#include "runner/validate_sarif.h"

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

// A spec's headings outside code blocks, each with its anchor (a repeated one gets "-1", "-2"
// as GitHub numbers them).
struct Heading {
  std::string text;
  std::string anchor;
};

std::vector<Heading> Headings(std::string_view markdown) {
  std::vector<Heading> headings;
  std::map<std::string, int> seen;
  std::string_view fence;  // the fence of the code block we are in, "" outside one
  while (!markdown.empty()) {
    const std::size_t end = markdown.find('\n');
    std::string_view line = markdown.substr(0, end);
    markdown.remove_prefix(end == std::string_view::npos ? markdown.size() : end + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    const std::string_view trimmed =
        line.substr(std::min(line.find_first_not_of(' '), line.size()));
    if (trimmed.starts_with("```") || trimmed.starts_with("~~~")) {
      if (fence.empty()) {
        fence = trimmed.substr(0, 3);
      } else if (trimmed.starts_with(fence)) {
        fence = {};
      }
      continue;
    }
    if (!fence.empty() || !line.starts_with('#')) continue;
    const std::size_t hashes = line.find_first_not_of('#');
    if (hashes == std::string_view::npos || hashes > 6 || line[hashes] != ' ') continue;
    std::string_view text = line.substr(hashes + 1);
    while (text.ends_with('#') || text.ends_with(' ')) text.remove_suffix(1);
    while (text.starts_with(' ')) text.remove_prefix(1);
    std::string anchor = HeadingAnchor(text);
    const int n = seen[anchor]++;
    if (n > 0) anchor += "-" + std::to_string(n);
    headings.push_back({std::string(text), std::move(anchor)});
  }
  return headings;
}

// A spec's file URI and headings, read once per process; null when it cannot be read.
struct SpecText {
  std::string uri;
  std::vector<Heading> headings;
};

const SpecText* LoadSpec(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<SpecText>> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(path);
  if (it == loaded.end()) {
    std::unique_ptr<SpecText> spec;
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      if (Result<std::string> text = ReadFile(real); text.ok()) {
        spec = std::make_unique<SpecText>();
        spec->uri = ArtifactUri(real);
        spec->headings = Headings(*text);
      }
      std::free(real);
    }
    it = loaded.emplace(path, std::move(spec)).first;
  }
  return it->second.get();
}

// Whether a heading's text starts with `label` as a whole word: "3.5" starts "3.5 Line Endings"
// and "2. Functional Requirements" but not "3.50 ..."; "MI4" starts "MI4: ...", not "MI40: ...".
bool Labels(std::string_view heading, std::string_view label) {
  if (label.empty() || !heading.starts_with(label)) return false;
  const std::string_view rest = heading.substr(label.size());
  return rest.empty() || rest.starts_with(' ') || rest.starts_with(": ") || rest.starts_with(". ");
}

}  // namespace

std::string HeadingAnchor(std::string_view heading) {
  std::string anchor;
  for (const char c : heading) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || std::isalnum(byte) || c == '-' || c == '_') {
      anchor += static_cast<char>(std::tolower(byte));
    } else if (c == ' ') {
      anchor += '-';
    }
  }
  return anchor;
}

std::string DefaultSpecsDir() {
  // An installed suite holds its specs (tools/cmake/install.cmake); a source tree has them beside.
  const std::string root = DefaultSuiteRoot();
  std::error_code error;
  if (std::filesystem::is_directory(root + "/specs", error)) return root + "/specs";
  return root + "/../shared/specs";
}

std::string RuleHelpUri(const CatalogueRule& rule, const std::string& specs_dir) {
  const SpecText* spec = LoadSpec(specs_dir + "/" + std::string(rule.format->spec));
  if (!spec) return "";
  const conformance::Requirement& r = *rule.requirement;
  std::vector<std::string_view> labels;
  if (rule.format->IsNativeRuleId(r.id)) labels.push_back(r.id);
  // A section names a heading only when it is a number ("3.5", "2"), not a topic ("LAYOUT").
  if (r.section.find_first_not_of("0123456789.") == std::string::npos) labels.push_back(r.section);
  for (const std::string_view label : labels) {
    for (const Heading& h : spec->headings) {
      if (Labels(h.text, label)) return spec->uri + "#" + h.anchor;
    }
  }
  return spec->uri;
}

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
