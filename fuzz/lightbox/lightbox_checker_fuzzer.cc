// Fuzz target: the Lightbox validator (conformance/lightbox/checker.h), with small limits so the
// limit paths are reachable, and a small findings cap so the dropping path is too. The input is
// events.jsonl, then, after two NUL bytes, meta.json. Sanity: every error and warning is counted
// whether kept or dropped, no more findings are kept than the cap, every finding cites a rule the
// validator declares, and where lightbox::Verify finds the chain intact the validator reports no
// broken hash or link (LB-HASH-2, LB-HASH-5).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "conformance/lightbox/checker.h"
#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/lightbox/lightbox.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;
constexpr std::size_t kMaxFindings = 64;

[[noreturn]] void Fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "lightbox_checker_fuzzer: %s %s\n", what, detail.c_str());
  __builtin_trap();
}

const std::set<std::string, std::less<>>& KnownRules() {
  static const auto* rules = [] {
    auto* ids = new std::set<std::string, std::less<>>();
    for (std::string_view rule : arcs::conformance::lightbox::AllRules()) ids->emplace(rule);
    return ids;
  }();
  return *rules;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // validation is linear: size costs only time
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find(std::string_view("\0\0", 2));
  const std::string_view events = input.substr(0, split);
  arcs::lightbox::Limits limits;
  limits.max_line_bytes = 16 * 1024;
  limits.max_json_depth = 32;
  limits.max_events = 512;

  arcs::jsonl::MemorySource source(events);
  std::unique_ptr<arcs::jsonl::MemorySource> meta;
  if (split != std::string_view::npos) {
    meta = std::make_unique<arcs::jsonl::MemorySource>(input.substr(split + 2));
  }
  arcs::Diagnostics diagnostics(kMaxFindings);
  arcs::conformance::lightbox::Validate(&source, meta.get(), limits, &diagnostics);

  std::uint64_t errors = 0, warnings = 0;
  bool broken_chain = false;
  for (const arcs::Finding& finding : diagnostics.findings()) {
    if (finding.severity == arcs::Severity::kError) ++errors;
    if (finding.severity == arcs::Severity::kWarning) ++warnings;
    if (!KnownRules().contains(finding.rule_id)) {
      Fail("a finding cites a rule missing from AllRules():", finding.rule_id);
    }
    broken_chain |= finding.rule_id == "LB-HASH-2" || finding.rule_id == "LB-HASH-5";
  }
  if (diagnostics.error_count() < errors) Fail("error_count() below the errors kept");
  if (diagnostics.warning_count() < warnings) Fail("warning_count() below the warnings kept");
  if (diagnostics.findings().size() > kMaxFindings) Fail("more findings kept than the cap");

  arcs::jsonl::MemorySource again(events);
  arcs::Result<arcs::lightbox::ChainVerdict> verdict = arcs::lightbox::Verify(&again, limits);
  if (verdict.ok() && verdict->intact() && broken_chain) {
    Fail("the validator reports a broken chain that Verify finds intact");
  }
  return 0;
}
