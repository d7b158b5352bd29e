#include "runner/suite.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>

#include "conformance/catalogue.h"
#include "conformance/registry.h"
#include "reference/core/io.h"

namespace arcs::runner {

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

// The strongest level among the requirements an operation of a case cites (MUST > SHOULD >
// MAY): a reader SHOULD stays a SHOULD even when the file breaks a MUST.
Result<std::string> OperationLevel(const conformance::VectorCase& c,
                                   const conformance::OperationCase& op,
                                   const conformance::Catalogue& catalogue) {
  Level strongest = Level::kMay;
  for (const std::string& id : op.requirements) {
    const conformance::Requirement* r = catalogue.Find(id);
    if (!r) {
      return Status(StatusCode::kParseError, "case " + c.id + "/" + op.operation + " cites " + id +
                                                 ", which is not in the catalogue");
    }
    strongest = std::min(strongest, r->level);  // kMust < kShould < kMay
  }
  return std::string(LevelName(strongest));
}

Status CheckFilter(const SuiteFilter& filter) {
  for (const std::string& f : filter.formats) {
    if (!conformance::FindFormat(f)) {
      return Status(StatusCode::kInvalidArgument, "unknown format '" + f + "'");
    }
  }
  for (const std::string& op : filter.operations) {
    bool known = false;
    for (const conformance::FormatModule* f : conformance::Formats()) {
      known = known || f->FindOperation(op) != nullptr;
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

protocol::CaseRequest SuiteCase::Request() const {
  return {request_id, std::string(format->name), operation, inputs, vector->args};
}

std::size_t SuiteCase::InputBytes() const {
  std::size_t bytes = 0;
  if (!inputs) return bytes;
  for (const auto& [name, input] : *inputs) bytes += input.size();
  return bytes;
}

std::size_t SuiteCase::RequestLineBytes() const {
  protocol::CaseRequest request = Request();
  if (probe) request.inputs = std::make_shared<const protocol::Inputs>(probe->generate());
  return protocol::CaseLine(request).size();
}

bool SuiteFilter::Empty() const {
  return formats.empty() && operations.empty() && levels.empty() && globs.empty() &&
         resource_probes;
}

bool SuiteFilter::LeavesOutCases() const {
  return !operations.empty() || !levels.empty() || !globs.empty() || !resource_probes;
}

std::vector<std::string> SuiteFilter::Describe() const {
  std::vector<std::string> out;
  if (!resource_probes) out.push_back("--no-resource-probes");
  for (const std::string& f : formats) out.push_back("--format " + f);
  for (const std::string& op : operations) out.push_back("--operation " + op);
  for (const std::string& level : levels) out.push_back("--level " + level);
  for (const std::string& glob : globs) out.push_back("--filter " + glob);
  return out;
}

namespace {

// The bytes of every input of a case.
Result<std::shared_ptr<const std::map<std::string, std::string>>> ReadInputs(
    const conformance::VectorCase& c) {
  auto inputs = std::make_shared<std::map<std::string, std::string>>();
  for (const auto& [name, path] : c.inputs) {
    Result<std::string> bytes = ReadFile(path);
    if (!bytes.ok()) return bytes.status();
    (*inputs)[name] = std::move(*bytes);
  }
  return std::shared_ptr<const std::map<std::string, std::string>>(std::move(inputs));
}

// The cases of a format's resource probes, as a manifest would hold them: every operation whose
// inputs the probe provides, the format's default limits, no args (the implementation's own
// limits are what is probed), the outcome required where the probe says the text settles it.
conformance::Manifest ProbeCases(const conformance::FormatModule& format) {
  conformance::Manifest probes;
  probes.format = format.name;
  for (const conformance::ResourceProbe& probe : format.resource_probes) {
    conformance::VectorCase& c = probes.cases.emplace_back();
    c.id = std::string(format.name) + "-resource-" + std::string(probe.name);
    c.description = probe.description;
    c.limits = format.DefaultLimits();
    for (const conformance::OperationSpec& op : format.operations) {
      conformance::OperationCase& oc = c.operations.emplace_back();
      oc.operation = op.name;
      oc.requirements.assign(probe.requirements.begin(), probe.requirements.end());
      oc.spec_text = probe.spec_text;
      auto required = probe.required_outcomes.find(op.name);
      if (required == probe.required_outcomes.end()) {
        oc.expect.ground = conformance::Ground::kResource;
      } else {
        oc.expect.ground = conformance::Ground::kRequired;
        oc.expect.outcome = required->second;
      }
    }
  }
  return probes;
}

using Inputs = std::shared_ptr<const std::map<std::string, std::string>>;

// Adds the cases of `manifest` the filter selects; read_inputs gives a case's input bytes, asked
// once per case and only when one of its operations is selected (null: none yet).
Status AddCases(const conformance::FormatModule& format, const conformance::Manifest& manifest,
                const std::string& vector_path, const conformance::Catalogue& catalogue,
                const SuiteFilter& filter,
                const std::function<Result<Inputs>(std::size_t)>& read_inputs, Suite* suite) {
  for (std::size_t i = 0; i < manifest.cases.size(); ++i) {
    const conformance::VectorCase& c = manifest.cases[i];
    Inputs inputs;
    for (const conformance::OperationCase& op : c.operations) {
      Result<std::string> level = OperationLevel(c, op, catalogue);
      if (!level.ok()) return level.status();
      SuiteCase sc;
      sc.format = &format;
      sc.vector = &c;
      sc.expectation = &op;
      sc.operation = op.operation;
      sc.level = *level;
      sc.request_id = c.id + "/" + op.operation;
      sc.vector_path = vector_path;
      if (!Selected(filter.levels, sc.level) || !Selected(filter.operations, sc.operation) ||
          !MatchesGlob(filter.globs, c.id, sc.request_id)) {
        continue;
      }
      if (!inputs) {
        Result<Inputs> read = read_inputs(i);
        if (!read.ok()) return read.status();
        inputs = std::move(*read);
      }
      sc.inputs = inputs;
      suite->cases.push_back(std::move(sc));
      for (const std::string& id : op.requirements) {
        const conformance::Requirement* r = catalogue.Find(id);  // OperationLevel found each
        suite->requirements.push_back(
            {id, std::string(format.name), r->section, std::string(LevelName(r->level)), r->text});
      }
    }
  }
  return Status::Ok();
}

Status AddFormat(const std::string& root, const conformance::FormatModule& format,
                 const SuiteFilter& filter, Suite* suite) {
  Result<conformance::Manifest> manifest =
      conformance::LoadManifest(root + "/" + format.ManifestPath(), format);
  if (!manifest.ok()) return manifest.status();
  Result<conformance::Catalogue> catalogue =
      conformance::LoadCatalogue(root + "/" + manifest->catalogue);
  if (!catalogue.ok()) return catalogue.status();
  const conformance::Manifest& vectors = suite->manifests.emplace_back(std::move(*manifest));
  Status added = AddCases(
      format, vectors, format.ManifestPath(), *catalogue, filter,
      [&](std::size_t i) { return ReadInputs(vectors.cases[i]); }, suite);
  if (!added.ok() || !filter.resource_probes) return added;
  const conformance::Manifest& probes = suite->manifests.emplace_back(ProbeCases(format));
  const std::size_t first = suite->cases.size();
  added = AddCases(
      format, probes, "generated at run time (resource probe)", *catalogue, filter,
      [](std::size_t) -> Result<Inputs> { return Inputs(); }, suite);
  for (std::size_t i = first; i < suite->cases.size(); ++i) {  // ProbeCases: one case a probe
    SuiteCase& c = suite->cases[i];
    c.probe = &format.resource_probes[static_cast<std::size_t>(c.vector - probes.cases.data())];
  }
  return added;
}

}  // namespace

Result<Suite> LoadSuite(const std::string& root, const SuiteFilter& filter) {
  if (Status s = CheckFilter(filter); !s.ok()) return s;
  Suite suite;
  for (const conformance::FormatModule* format : conformance::Formats()) {
    if (!Selected(filter.formats, format->name)) continue;
    if (Status s = AddFormat(root, *format, filter, &suite); !s.ok()) return s;
  }
  std::sort(suite.cases.begin(), suite.cases.end(), [](const SuiteCase& a, const SuiteCase& b) {
    return std::tie(a.format->name, a.vector->id, a.operation) <
           std::tie(b.format->name, b.vector->id, b.operation);
  });
  auto key = [](const report::RequirementInfo& r) { return std::tie(r.format, r.id); };
  std::sort(suite.requirements.begin(), suite.requirements.end(),
            [&](const auto& a, const auto& b) { return key(a) < key(b); });
  suite.requirements.erase(
      std::unique(suite.requirements.begin(), suite.requirements.end(),
                  [&](const auto& a, const auto& b) { return key(a) == key(b); }),
      suite.requirements.end());
  return suite;
}

std::string DefaultSuiteRoot() {
  if (const char* env = std::getenv("ARCS_SOURCE_DIR"); env && *env) return env;
  // Installed (tools/cmake/install.cmake): <prefix>/bin/arcs, its data in <prefix>/share/arcs.
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path data = exe.parent_path().parent_path() / "share" / "arcs";
    if (std::filesystem::is_directory(data / "vectors", error)) return data.string();
  }
  return ARCS_DEFAULT_SUITE_ROOT;
}

}  // namespace arcs::runner
