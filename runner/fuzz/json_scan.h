// A tolerant scan of JSON text for the JSON-aware mutations: where its values and object members
// are, by byte offset, so that one can be edited in place and every other byte kept.
// Not a validator (the reference's parser decides what is JSON): it reads on past bytes it does
// not understand and reports only values it saw whole, so a truncated or broken text still
// scans; it stops at a close bracket that does not match, an unterminated string, or nesting
// deeper than kMaxDepth. One pass, no recursion, memory bounded by kMaxDepth whatever the text:
// the spans go to a visitor, which keeps what it wants (mutate_json.cc draws one at random).
#ifndef ARCS_RUNNER_FUZZ_JSON_SCAN_H_
#define ARCS_RUNNER_FUZZ_JSON_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace arcs::fuzz {

enum class ValueKind : std::uint8_t { kString, kNumber, kBool, kNull, kArray, kObject };

struct ValueSpan {
  std::size_t begin = 0;  // [begin, end) in the text
  std::size_t end = 0;
  std::uint32_t depth = 0;  // the arrays and objects around it: 0 for the top-level value
  ValueKind kind = ValueKind::kNull;
};

inline constexpr std::size_t kNoOffset = SIZE_MAX;

struct MemberSpan {
  std::size_t name_begin = 0;  // the name, quotes included
  std::size_t name_end = 0;
  std::size_t value_begin = 0;
  std::size_t value_end = 0;
  // Where the member's neighbours in its object are, so that it can be cut out with one of the
  // commas around it: the end of the previous member's value and the start of the next member's
  // name, or kNoOffset.
  std::size_t previous_end = kNoOffset;
  std::size_t next_begin = kNoOffset;
};

class JsonVisitor {
 public:
  virtual ~JsonVisitor() = default;
  // Each value once seen whole: a container after what it holds.
  virtual void Value(const ValueSpan& value) = 0;
  // Each member once its next neighbour (or its object's end, or the text's) is known.
  virtual void Member(const MemberSpan& member) = 0;
};

void ScanJson(std::string_view text, JsonVisitor& visitor);

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_JSON_SCAN_H_
