// Fuzz target: the Spool validator (conformance/spool/checker.h), with small limits so the limit
// paths are reachable with small inputs, and a small findings cap so the dropping path is too.
// Sanity: every error is counted whether kept or dropped, so error_count() is at least the number
// of error findings kept (likewise warnings); no more findings are kept than the cap; every
// finding cites a rule the validator declares in AllRules().
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "conformance/spool/checker.h"
#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/spool/spool.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;
constexpr std::size_t kMaxFindings = 64;

[[noreturn]] void Fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "spool_checker_fuzzer: %s %s\n", what, detail.c_str());
  __builtin_trap();
}

const std::set<std::string, std::less<>>& KnownRules() {
  static const auto* rules = [] {
    auto* ids = new std::set<std::string, std::less<>>();
    for (std::string_view rule : arcs::conformance::spool::AllRules()) ids->emplace(rule);
    return ids;
  }();
  return *rules;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);

  arcs::spool::Limits limits;
  limits.max_json_depth = 64;
  limits.max_subagent_depth = 4;
  arcs::jsonl::MemorySource source(input);
  arcs::Diagnostics diagnostics(kMaxFindings);
  arcs::conformance::spool::Validate(&source, limits, &diagnostics);

  std::uint64_t errors = 0;
  std::uint64_t warnings = 0;
  for (const arcs::Finding& finding : diagnostics.findings()) {
    if (finding.severity == arcs::Severity::kError) ++errors;
    if (finding.severity == arcs::Severity::kWarning) ++warnings;
    if (!KnownRules().contains(finding.rule_id)) {
      Fail("a finding cites a rule missing from AllRules():", finding.rule_id);
    }
  }
  if (diagnostics.error_count() < errors) Fail("error_count() below the errors kept");
  if (diagnostics.warning_count() < warnings) Fail("warning_count() below the warnings kept");
  if (diagnostics.findings().size() > kMaxFindings) Fail("more findings kept than the cap");
  return 0;
}
