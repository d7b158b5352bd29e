#include "runner/suite.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>

#include "conformance/catalogue.h"
#include "reference/core/io.h"

namespace arcs::runner {

const std::vector<FormatDef>& Formats() {
  static const std::vector<FormatDef> formats = {
      {"spool", "vectors/spool/manifest.json", {"validate", "roundtrip"}},
  };
  return formats;
}

const FormatDef* FindFormat(std::string_view format) {
  for (const FormatDef& f : Formats()) {
    if (f.format == format) return &f;
  }
  return nullptr;
}

namespace {

bool Selected(const std::vector<std::string>& wanted, std::string_view value) {
  return wanted.empty() || std::find(wanted.begin(), wanted.end(), value) != wanted.end();
}

bool MatchesGlob(const std::vector<std::string>& globs, const std::string& id,
                 const std::string& request_id) {
  if (globs.empty()) return true;
  for (const std::string& glob : globs) {
    if (fnmatch(glob.c_str(), id.c_str(), 0) == 0) return true;
    if (fnmatch(glob.c_str(), request_id.c_str(), 0) == 0) return true;
  }
  return false;
}

// The strongest level among the requirements a case cites (MUST > SHOULD > MAY).
Result<std::string> CaseLevel(const conformance::VectorCase& c,
                              const conformance::Catalogue& catalogue) {
  Level strongest = Level::kMay;
  for (const std::string& id : c.requirements) {
    const conformance::Requirement* r = catalogue.Find(id);
    if (!r) {
      return Status(StatusCode::kParseError,
                    "case " + c.id + " cites " + id + ", which is not in the catalogue");
    }
    strongest = std::min(strongest, r->level);  // kMust < kShould < kMay
  }
  return std::string(LevelName(strongest));
}

Status CheckFilter(const SuiteFilter& filter) {
  for (const std::string& f : filter.formats) {
    if (!FindFormat(f)) return Status(StatusCode::kInvalidArgument, "unknown format '" + f + "'");
  }
  for (const std::string& op : filter.operations) {
    bool known = false;
    for (const FormatDef& f : Formats()) {
      known =
          known || std::find(f.operations.begin(), f.operations.end(), op) != f.operations.end();
    }
    if (!known) return Status(StatusCode::kInvalidArgument, "unknown operation '" + op + "'");
  }
  for (const std::string& level : filter.levels) {
    if (level != "MUST" && level != "SHOULD" && level != "MAY") {
      return Status(StatusCode::kInvalidArgument,
                    "unknown level '" + level + "' (MUST, SHOULD or MAY)");
    }
  }
  return Status::Ok();
}

}  // namespace

bool SuiteFilter::Empty() const {
  return formats.empty() && operations.empty() && levels.empty() && globs.empty();
}

std::vector<std::string> SuiteFilter::Describe() const {
  std::vector<std::string> out;
  for (const std::string& f : formats) out.push_back("--format " + f);
  for (const std::string& op : operations) out.push_back("--operation " + op);
  for (const std::string& level : levels) out.push_back("--level " + level);
  for (const std::string& glob : globs) out.push_back("--filter " + glob);
  return out;
}

Result<Suite> LoadSuite(const std::string& root, const SuiteFilter& filter) {
  if (Status s = CheckFilter(filter); !s.ok()) return s;
  Suite suite;
  for (const FormatDef& format : Formats()) {
    if (!Selected(filter.formats, format.format)) continue;
    Result<conformance::Manifest> manifest =
        conformance::LoadManifest(root + "/" + std::string(format.manifest));
    if (!manifest.ok()) return manifest.status();
    Result<conformance::Catalogue> catalogue =
        conformance::LoadCatalogue(root + "/" + manifest->catalogue);
    if (!catalogue.ok()) return catalogue.status();
    const conformance::Manifest& kept = suite.manifests.emplace_back(std::move(*manifest));
    for (const conformance::VectorCase& c : kept.cases) {
      Result<std::string> level = CaseLevel(c, *catalogue);
      if (!level.ok()) return level.status();
      if (!Selected(filter.levels, *level)) continue;
      std::string input;
      for (std::string_view operation : format.operations) {
        SuiteCase sc;
        sc.vector = &c;
        sc.format = format.format;
        sc.operation = operation;
        sc.level = *level;
        sc.request_id = c.id + "/" + sc.operation;
        if (!Selected(filter.operations, operation)) continue;
        if (!MatchesGlob(filter.globs, c.id, sc.request_id)) continue;
        if (input.empty()) {
          Result<std::string> bytes = ReadFile(c.file);
          if (!bytes.ok()) return bytes.status();
          input = std::move(*bytes);
        }
        sc.input = input;
        suite.cases.push_back(std::move(sc));
      }
    }
  }
  std::sort(suite.cases.begin(), suite.cases.end(), [](const SuiteCase& a, const SuiteCase& b) {
    return std::tie(a.format, a.vector->id, a.operation) <
           std::tie(b.format, b.vector->id, b.operation);
  });
  return suite;
}

std::string DefaultSuiteRoot() {
  if (const char* env = std::getenv("ARCS_SOURCE_DIR"); env && *env) return env;
  return ARCS_DEFAULT_SUITE_ROOT;
}

}  // namespace arcs::runner
