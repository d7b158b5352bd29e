// Fuzz target: the Model IO validator (conformance/model_io/checker.h) and the reference hasher on
// any bytes: no crash; every finding cites a declared rule; a file with no error has a
// ModelIOHash and a canonical core (and one without a repeated name but with an error has none),
// which is RFC 8785 canonical (Jcs of it is itself) and hashes to the ModelIOHash; a file with an
// error has neither; the hash streamed while the text is parsed (StreamingHash) is the same.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "conformance/model_io/checker.h"
#include "fuzz/fuzz_check.h"
#include "reference/core/canonical.h"
#include "reference/core/sha256.h"
#include "reference/model_io/model_io.h"

namespace {

constexpr std::size_t kMaxInputBytes = 256 * 1024;

using arcs::libfuzzer::Check;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // linear in the input apart from sorting violations
  using namespace arcs;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  arcs::model_io::Limits limits;
  limits.max_json_depth = 64;
  jsonl::MemorySource source(text);
  Diagnostics diagnostics;
  conformance::model_io::Validate(&source, limits, &diagnostics);
  const std::vector<std::string_view> rules = conformance::model_io::AllRules();
  for (const Finding& f : diagnostics.findings()) {
    Check(std::find(rules.begin(), rules.end(), f.rule_id) != rules.end(),
          "a finding cites an undeclared rule");
  }
  json::Document doc;
  // As `arcs model-io hash` reads it: the core streamed while the text is parsed.
  json::Document streamed_doc;
  arcs::model_io::StreamingHash streaming(limits);
  json::ParseOptions streaming_options = arcs::model_io::ParseOptionsFor(limits);
  streaming_options.observer = streaming.observer();
  const bool is_json = doc.Parse(text, arcs::model_io::ParseOptionsFor(limits));
  Check(streamed_doc.Parse(text, streaming_options) == is_json, "an observer changed the verdict");
  if (!is_json) {
    Check(diagnostics.has_errors(), "a file that is not JSON has no error");
    return 0;
  }
  Result<std::string> hash = arcs::model_io::ModelIOHash(doc.root(), limits);
  Result<std::string> streamed = streaming.Finish(streamed_doc.root());
  Check(
      streamed.ok() == hash.ok() &&
          (hash.ok() ? *streamed == *hash : streamed.status().message() == hash.status().message()),
      "the streamed hash is not ModelIOHash");
  Result<std::string> core = arcs::model_io::CanonicalCore(doc.root(), limits);
  Check(hash.ok() == core.ok(), "a hash without a core, or a core without a hash");
  // A repeated name is the validator's finding (the document level); the hasher sees the value.
  if (doc.duplicates().empty()) {
    Check(hash.ok() == !diagnostics.has_errors(),
          "a valid file without a hash, or an invalid one with a hash");
  }
  if (!core.ok()) return 0;
  Check(*hash == "sha256:" + ToHex(Sha256::Of(*core)), "the hash is not the core's SHA-256");
  json::Document parsed;
  Check(parsed.Parse(*core), "the canonical core does not parse");
  Result<std::string> again = canonical::Jcs(parsed.root());
  Check(again.ok() && *again == *core, "the canonical core is not RFC 8785 canonical");
  return 0;
}
