// Fuzz target: the canonical form Lightbox hashes (canonical::PythonSortedJson, reference/core):
// for any value without floats, canonical(parse(canonical(x))) == canonical(x), the canonical text
// parses, and it holds the same data as x where a repeated name keeps its last member (CPython's
// dict). A value with a float must be refused, never written.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "reference/core/canonical.h"
#include "reference/core/json.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

using arcs::libfuzzer::Check;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // the writer is linear: size costs only time
  using namespace arcs;
  json::Document doc;
  if (!doc.Parse(std::string_view(reinterpret_cast<const char*>(data), size), {.max_depth = 64})) {
    return 0;
  }
  Result<std::string> once = canonical::PythonSortedJson(doc.root());
  Check(once.ok() == !canonical::FirstFloat(doc.root()).has_value(),
        "refused a value without floats, or wrote one with a float");
  if (!once.ok()) return 0;
  json::Document again;
  Check(again.Parse(*once, {.max_depth = 64}), "the canonical text does not parse");
  Check(again.duplicates().empty(), "the canonical text repeats a name");
  Check(json::SameData(doc.root(), again.root(), json::RepeatedNames::kLast),
        "the canonical text holds other data than the value (last of each repeated name)");
  Result<std::string> twice = canonical::PythonSortedJson(again.root());
  Check(twice.ok() && *twice == *once, "the canonical form is not idempotent");
  return 0;
}
