#include "runner/fuzz/mutate_json.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "runner/fuzz/json_scan.h"

namespace arcs::fuzz {
namespace {

std::string Replace(std::string_view text, std::size_t begin, std::size_t end,
                    std::string_view with) {
  std::string result;
  result.reserve(text.size() - (end - begin) + with.size());
  result.append(text.substr(0, begin)).append(with).append(text.substr(end));
  return result;
}

std::string Insert(std::string_view text, std::size_t at, std::string_view inserted) {
  return Replace(text, at, at, inserted);
}

std::string_view TextOf(std::string_view text, const ValueSpan& value) {
  return text.substr(value.begin, value.end - value.begin);
}

// Keeps one of the spans offered, each with the same chance, without holding a list of them
// (reservoir sampling: the n-th offered replaces the kept one with probability 1/n), so that
// drawing among the values of a multi-megabyte text allocates nothing.
template <typename Span>
class Reservoir {
 public:
  explicit Reservoir(Random& random) : random_(random) {}
  void Offer(const Span& span) {
    if (random_.Below(++offered_) == 0) kept_ = span;
  }
  std::optional<Span> kept() const { return offered_ == 0 ? std::nullopt : std::optional(kept_); }

 private:
  Random& random_;
  std::uint64_t offered_ = 0;
  Span kept_{};
};

// Draws one value, or one member, among those `accept` admits (it takes one or the other).
template <typename Accept>
class Picker final : public JsonVisitor {
 public:
  Picker(Random& random, Accept accept) : values_(random), members_(random), accept_(accept) {}
  void Value(const ValueSpan& value) override {
    if constexpr (std::is_invocable_v<Accept, const ValueSpan&>) {
      if (accept_(value)) values_.Offer(value);
    }
  }
  void Member(const MemberSpan& member) override {
    if constexpr (std::is_invocable_v<Accept, const MemberSpan&>) {
      if (accept_(member)) members_.Offer(member);
    }
  }
  std::optional<ValueSpan> value() const { return values_.kept(); }
  std::optional<MemberSpan> member() const { return members_.kept(); }

 private:
  Reservoir<ValueSpan> values_;
  Reservoir<MemberSpan> members_;
  Accept accept_;
};

template <typename Accept>
std::optional<ValueSpan> PickValue(std::string_view text, Random& random, Accept accept) {
  Picker<Accept> picker(random, accept);
  ScanJson(text, picker);
  return picker.value();
}

template <typename Accept>
std::optional<MemberSpan> PickMember(std::string_view text, Random& random, Accept accept) {
  Picker<Accept> picker(random, accept);
  ScanJson(text, picker);
  return picker.member();
}

bool AnyValue(const ValueSpan&) { return true; }
bool AnyMember(const MemberSpan&) { return true; }

bool LooksNumeric(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  });
}

// Values of other types to put in a value's place: the ones a reader that checks types must
// refuse, and the number-as-string confusions readers of loosely typed languages accept.
std::vector<std::string> OtherTypes(std::string_view text, const ValueSpan& value) {
  struct Typed {
    std::string_view text;
    ValueKind kind;
  };
  static constexpr std::array<Typed, 10> kTyped = {{{"\"\"", ValueKind::kString},
                                                    {"\"x\"", ValueKind::kString},
                                                    {"0", ValueKind::kNumber},
                                                    {"-1", ValueKind::kNumber},
                                                    {"1.5", ValueKind::kNumber},
                                                    {"null", ValueKind::kNull},
                                                    {"true", ValueKind::kBool},
                                                    {"false", ValueKind::kBool},
                                                    {"{}", ValueKind::kObject},
                                                    {"[]", ValueKind::kArray}}};
  std::vector<std::string> others;
  for (const Typed& typed : kTyped) {
    if (typed.kind != value.kind) others.emplace_back(typed.text);
  }
  const std::string_view own = TextOf(text, value);
  if (value.kind == ValueKind::kNumber) others.push_back("\"" + std::string(own) + "\"");
  if (value.kind == ValueKind::kString && LooksNumeric(own.substr(1, own.size() - 2))) {
    others.emplace_back(own.substr(1, own.size() - 2));
  }
  return others;
}

std::optional<std::string> ChangeType(const Target& target, Random& random) {
  const std::optional<ValueSpan> value = PickValue(target.bytes, random, AnyValue);
  if (!value) return std::nullopt;
  const std::vector<std::string> others = OtherTypes(target.bytes, *value);
  return Replace(target.bytes, value->begin, value->end,
                 PickOne(std::span<const std::string>(others), random));
}

std::optional<std::string> DropMember(const Target& target, Random& random) {
  const std::optional<MemberSpan> member = PickMember(target.bytes, random, AnyMember);
  if (!member) return std::nullopt;
  // With the comma after it, or else the one before it, so the object stays well formed.
  if (member->next_begin != kNoOffset) {
    return Replace(target.bytes, member->name_begin, member->next_begin, "");
  }
  if (member->previous_end != kNoOffset) {
    return Replace(target.bytes, member->previous_end, member->value_end, "");
  }
  return Replace(target.bytes, member->name_begin, member->value_end, "");
}

std::optional<std::string> RepeatMember(const Target& target, Random& random) {
  const std::optional<MemberSpan> member = PickMember(target.bytes, random, AnyMember);
  if (!member) return std::nullopt;
  const std::string_view whole =
      target.bytes.substr(member->name_begin, member->value_end - member->name_begin);
  return Insert(target.bytes, member->value_end, "," + std::string(whole));
}

// Another value of the text than `own`, short enough for `room`, or else one of another type.
// (Values as long as `own` cannot hold one another, so comparing them with it reads each byte of
// the text at most once.)
std::string AnotherValue(std::string_view text, std::string_view own, std::size_t room,
                         Random& random) {
  const std::optional<ValueSpan> value =
      PickValue(text, random, [text, own, room](const ValueSpan& candidate) {
        return candidate.end - candidate.begin <= room && TextOf(text, candidate) != own;
      });
  if (value) return std::string(TextOf(text, *value));
  return own.starts_with('"') ? "null" : "\"x\"";
}

std::optional<std::string> DuplicateName(const Target& target, Random& random) {
  const std::optional<MemberSpan> member = PickMember(target.bytes, random, AnyMember);
  if (!member) return std::nullopt;
  const std::string_view name =
      target.bytes.substr(member->name_begin, member->name_end - member->name_begin);
  const std::string_view own =
      target.bytes.substr(member->value_begin, member->value_end - member->value_begin);
  const std::size_t room = Room(target.bytes.size() + name.size() + 2, target.max_bytes);
  return Insert(target.bytes, member->value_end,
                "," + std::string(name) + ":" + AnotherValue(target.bytes, own, room, random));
}

std::string Repeated(std::string_view piece, std::size_t count) {
  std::string result;
  result.reserve(piece.size() * count);
  for (std::size_t i = 0; i < count; ++i) result += piece;
  return result;
}

std::optional<std::string> Deepen(const Target& target, Random& random) {
  // Total depths around the bounds readers set: the reference's 128, common 256, 512, 1000
  // (Python's recursion), and far past them all.
  static constexpr std::array<std::uint32_t, 14> kDepths = {
      1, 2, 16, 64, 127, 128, 129, 255, 256, 257, 512, 1000, 10000, 100000};
  const std::optional<ValueSpan> value = PickValue(target.bytes, random, AnyValue);
  if (!value) return std::nullopt;
  const std::uint32_t depth = PickOne(std::span<const std::uint32_t>(kDepths), random);
  const bool object = random.OneIn(2);
  const std::string_view open = object ? "{\"x\":" : "[";
  const std::string_view close = object ? "}" : "]";
  const std::size_t fits = Room(target.bytes.size(), target.max_bytes) / (open.size() + 1);
  const std::size_t layers =
      std::min<std::size_t>(depth > value->depth ? depth - value->depth : 1, fits);
  if (layers == 0) return std::nullopt;
  const std::string wrapped =
      Repeated(open, layers) + std::string(TextOf(target.bytes, *value)) + Repeated(close, layers);
  return Replace(target.bytes, value->begin, value->end, wrapped);
}

std::optional<std::string> EdgeNumber(const Target& target, Random& random) {
  // Valid forms readers convert differently (negative zero, overflow, underflow, past 2^53 and
  // 2^64, more digits than a double holds), then invalid ones lenient readers accept.
  static constexpr std::array<std::string_view, 18> kEdges = {
      "-0",
      "0.0",
      "1e400",
      "-1e-400",
      "9007199254740993",
      "18446744073709551616",
      "1E+2",
      "0.1000000000000000055511151231257827",
      "123456789012345678901234567890",
      "-9223372036854775809",
      "1.0",
      "01",
      "1.",
      ".5",
      "+1",
      "NaN",
      "-Infinity",
      "0x10"};
  const std::optional<ValueSpan> number =
      PickValue(target.bytes, random,
                [](const ValueSpan& value) { return value.kind == ValueKind::kNumber; });
  if (!number) return std::nullopt;
  return Replace(target.bytes, number->begin, number->end,
                 PickOne(std::span<const std::string_view>(kEdges), random));
}

// The length of the unit of string content at `at`: an escape, a UTF-8 sequence or a byte, so that
// an insertion never splits one (which would be another mutation than the one named).
std::size_t UnitLength(std::string_view text, std::size_t at, std::size_t end) {
  std::size_t length = 1;
  if (text[at] == '\\') {
    length = at + 1 < end && text[at + 1] == 'u' ? 6 : 2;
  } else if (static_cast<unsigned char>(text[at]) >= 0xC0) {
    while (length < 4 && at + length < end &&
           (static_cast<unsigned char>(text[at + length]) & 0xC0) == 0x80) {
      ++length;
    }
  }
  return std::min(length, end - at);
}

// The last unit boundary at or before `near` in [begin, end].
std::size_t BoundaryBefore(std::string_view text, std::size_t begin, std::size_t end,
                           std::size_t near) {
  std::size_t at = begin;
  while (at < end) {
    const std::size_t next = at + UnitLength(text, at, end);
    if (next > near) break;
    at = next;
  }
  return at;
}

// Draws one string value or member name: its [begin, end), quotes included.
class StringPicker final : public JsonVisitor {
 public:
  explicit StringPicker(Random& random) : strings_(random) {}
  void Value(const ValueSpan& value) override {
    if (value.kind == ValueKind::kString) strings_.Offer({value.begin, value.end});
  }
  void Member(const MemberSpan& member) override {
    strings_.Offer({member.name_begin, member.name_end});
  }
  std::optional<std::pair<std::size_t, std::size_t>> string() const { return strings_.kept(); }

 private:
  Reservoir<std::pair<std::size_t, std::size_t>> strings_;
};

std::optional<std::string> InsertEscape(const Target& target, Random& random) {
  // What the JSON grammar allows and readers mishandle (NUL, U+2028 that JavaScript once refused,
  // surrogates alone or reversed, \/), then what it forbids (raw control bytes, ill-formed,
  // overlong, surrogate and out-of-range UTF-8). The empty entry stands for a raw control byte,
  // U+0000..U+001F, drawn when it is picked.
  static constexpr std::array<std::string_view, 14> kEscapes = {
      "\\u0000",        "\\u2028",      "\\ud800",          "\\udc00", "\\ud83d\\ude00",
      "\\ude00\\ud83d", "\\/",          "\xE2\x80\xA8",     "",        "\xC3\x28",
      "\xC0\x80",       "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF"};
  StringPicker picker(random);
  ScanJson(target.bytes, picker);
  if (!picker.string()) return std::nullopt;
  const auto [begin, end] = *picker.string();
  const std::size_t near = begin + 1 + random.Below(end - begin - 1);
  const std::size_t at = BoundaryBefore(target.bytes, begin + 1, end - 1, near);
  std::string_view escape = PickOne(std::span<const std::string_view>(kEscapes), random);
  const char control = static_cast<char>(random.Below(0x20));
  if (escape.empty()) escape = std::string_view(&control, 1);
  return Insert(target.bytes, at, escape);
}

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// The first ASCII letter at or after `at` in a name's content that stands for itself (not inside
// an escape), or `end`.
std::size_t NextLetter(std::string_view text, std::size_t at, std::size_t end) {
  while (at < end && !IsAsciiLetter(text[at])) at += UnitLength(text, at, end);
  return at;
}

std::vector<std::size_t> NameLetters(std::string_view text, const MemberSpan& member) {
  std::vector<std::size_t> letters;
  const std::size_t end = member.name_end - 1;
  for (std::size_t at = NextLetter(text, member.name_begin + 1, end); at < end;
       at = NextLetter(text, at + 1, end)) {
    letters.push_back(at);
  }
  return letters;
}

std::optional<std::string> ChangeNameCase(const Target& target, Random& random) {
  const std::string_view text = target.bytes;
  const std::optional<MemberSpan> member =
      PickMember(text, random, [text](const MemberSpan& candidate) {
        return NextLetter(text, candidate.name_begin + 1, candidate.name_end - 1) <
               candidate.name_end - 1;
      });
  if (!member) return std::nullopt;
  const std::vector<std::size_t> letters = NameLetters(text, *member);
  // ASCII letters change case with bit 0x20. All of them ("TYPE"), the first ("Type"), or one.
  const std::uint64_t how = random.Below(3);
  const std::size_t one = letters[random.Below(letters.size())];
  std::string bytes(text);
  for (std::size_t at : letters) {
    if (how == 0 || (how == 1 && at == letters.front()) || (how == 2 && at == one)) {
      bytes[at] = static_cast<char>(bytes[at] ^ 0x20);
    }
  }
  return bytes;
}

constexpr std::array<Family, 8> kJsonFamilies = {{
    {"json:change-type", ChangeType},
    {"json:drop-member", DropMember},
    {"json:repeat-member", RepeatMember},
    {"json:duplicate-name", DuplicateName},
    {"json:deepen", Deepen},
    {"json:edge-number", EdgeNumber},
    {"json:escape", InsertEscape},
    {"json:name-case", ChangeNameCase},
}};

}  // namespace

std::span<const Family> JsonFamilies() { return kJsonFamilies; }

}  // namespace arcs::fuzz
