// Fuzz target: RFC 8785 (canonical::Jcs, reference/core), Model IO's canonical form. For any value
// it accepts, canonical(parse(canonical(x))) == canonical(x), the canonical text parses without a
// repeated name and holds the same data as x as JavaScript reads it (numbers as doubles); it
// refuses exactly the values with a repeated name or a number beyond the doubles. Every number's
// ECMAScript form reads back as the same double (so do the input's first 8 bytes taken as one).
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "reference/core/canonical.h"
#include "reference/core/json.h"
#include "reference/core/number.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;
constexpr std::uint32_t kMaxDepth = 64;  // the walks below recurse

using arcs::libfuzzer::Check;

void CheckNumberRoundTrip(double x) {
  if (!std::isfinite(x)) return;
  const std::string text = arcs::canonical::EcmaScriptNumber(x);
  const std::optional<double> back = arcs::json::ToDouble(text);
  Check(back && *back == x, "EcmaScriptNumber does not read back as the same double");
  arcs::json::Document doc;
  Check(doc.Parse(text) && doc.root().is_number(), "EcmaScriptNumber is not a JSON number");
}

// Whether the value has what RFC 8785 refuses; checks each number's round trip on the way.
bool Refusable(const arcs::json::Value& v) {
  if (v.is_number()) {
    const std::optional<double> d = arcs::json::ToDouble(v.text());
    if (d) CheckNumberRoundTrip(*d);
    return !d;
  }
  bool refusable = false;
  for (const arcs::json::Value& item : v.items()) refusable = Refusable(item) || refusable;
  for (const arcs::json::Member& m : v.members()) refusable = Refusable(m.value) || refusable;
  return refusable;
}

// The same data as JavaScript reads it: numbers equal as doubles (-0 is 0), members by name.
bool SameAsJavaScript(const arcs::json::Value& a, const arcs::json::Value& b) {
  if (a.is_number() && b.is_number())
    return arcs::json::ToDouble(a.text()) == arcs::json::ToDouble(b.text());
  if (a.kind() != b.kind()) return false;
  if (a.is_string()) return a.text() == b.text();
  if (a.items().size() != b.items().size() || a.members().size() != b.members().size())
    return false;
  for (std::size_t k = 0; k < a.items().size(); ++k) {
    if (!SameAsJavaScript(a.items()[k], b.items()[k])) return false;
  }
  for (const arcs::json::Member& m : a.members()) {
    const arcs::json::Value* other = b.Find(m.name);
    if (!other || !SameAsJavaScript(m.value, *other)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // the writer is n log n: size costs only time
  using namespace arcs;
  if (size >= 8) {
    std::uint64_t bits;
    std::memcpy(&bits, data, sizeof bits);
    CheckNumberRoundTrip(std::bit_cast<double>(bits));
  }
  json::Document doc;
  if (!doc.Parse(std::string_view(reinterpret_cast<const char*>(data), size),
                 {.max_depth = kMaxDepth})) {
    return 0;
  }
  const bool refusable = Refusable(doc.root()) || !doc.duplicates().empty();
  Result<std::string> once = canonical::Jcs(doc.root());
  Check(once.ok() == !refusable, "refused a value I-JSON allows, or wrote one it excludes");
  if (!once.ok()) return 0;
  json::Document again;
  Check(again.Parse(*once, {.max_depth = kMaxDepth}), "the canonical text does not parse");
  Check(again.duplicates().empty(), "the canonical text repeats a name");
  Check(SameAsJavaScript(doc.root(), again.root()), "the canonical text holds other data");
  Result<std::string> twice = canonical::Jcs(again.root());
  Check(twice.ok() && *twice == *once, "the canonical form is not idempotent");
  return 0;
}
