// Fuzz target: the SessionData validator (conformance/session_data/checker.h) on any bytes: no
// crash; every finding cites a declared rule and names its statement; the file verdict is the
// `both` choice of the reference's reading; a text that is not JSON has an error.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "conformance/session_data/checker.h"
#include "fuzz/fuzz_check.h"
#include "reference/core/json.h"

namespace {

constexpr std::size_t kMaxInputBytes = 256 * 1024;

using arcs::libfuzzer::Check;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // linear in the input: larger inputs add nothing
  using namespace arcs;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  arcs::session_data::Limits limits;
  limits.max_json_depth = 64;
  jsonl::MemorySource source(text);
  Diagnostics diagnostics;
  conformance::session_data::Validate(&source, limits, &diagnostics);
  static const std::vector<std::string_view> rules = conformance::session_data::AllRules();
  for (const Finding& f : diagnostics.findings()) {
    Check(std::find(rules.begin(), rules.end(), f.rule_id) != rules.end(),
          "a finding cites an undeclared rule");
    Check(f.message.starts_with("rules: ") || f.message.starts_with("schema: ") ||
              f.message.starts_with("prose: ") || f.message.starts_with("json: "),
          "a finding names no statement");
  }
  const auto reading = arcs::session_data::Reading::Read(std::string(text), limits);
  Check(arcs::session_data::ValidUnder(reading.findings(), "both") == !diagnostics.has_errors(),
        "the file verdict is not the both choice");
  Check(!arcs::session_data::ValidUnder(reading.findings(), "both") ||
            (arcs::session_data::ValidUnder(reading.findings(), "rules") &&
             arcs::session_data::ValidUnder(reading.findings(), "schema")),
        "valid under both but not under each");
  json::Document doc;
  json::ParseOptions options;
  options.max_depth = 64;
  options.bad_unicode = json::BadUnicode::kReplaceAsGo;
  if (!doc.Parse(text, options))
    Check(diagnostics.has_errors(), "a text that is not JSON has no error");
  return 0;
}
