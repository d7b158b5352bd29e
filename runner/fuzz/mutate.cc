#include "runner/fuzz/mutate.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/json.h"
#include "runner/fuzz/mutate_bytes.h"
#include "runner/fuzz/mutate_family.h"
#include "runner/fuzz/mutate_json.h"
#include "runner/fuzz/mutate_lines.h"

namespace arcs::fuzz {
namespace {

struct Product {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
};

// The 128-bit product of a and b, in standard C++ (no __int128).
Product Multiply(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t kHalf = 0xFFFFFFFFULL;
  const std::uint64_t low_low = (a & kHalf) * (b & kHalf);
  const std::uint64_t high_low = (a >> 32) * (b & kHalf);
  const std::uint64_t low_high = (a & kHalf) * (b >> 32);
  const std::uint64_t high_high = (a >> 32) * (b >> 32);
  const std::uint64_t middle = (low_low >> 32) + (high_low & kHalf) + low_high;
  return {high_high + (high_low >> 32) + (middle >> 32), (middle << 32) | (low_low & kHalf)};
}

// JSON's whitespace only: a line of it is blank to a JSON Lines reader that skips blank lines.
bool IsBlank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

bool IsJson(json::Document& document, std::string_view text) {
  return document.Parse(text, json::ParseOptions{.max_depth = kMaxDepth});
}

enum class Group : std::uint8_t { kBytes, kLines, kJson };

// Byte-level mutations keep a share whatever the shape: they find what structure-aware ones
// cannot (a stray byte in a number, a cut inside an escape).
Group PickGroup(Shape shape, std::string_view input, Random& random) {
  switch (shape) {
    case Shape::kJsonDocument:
      return random.Below(3) < 2 ? Group::kJson : Group::kBytes;
    case Shape::kJsonLines:
      return std::array{Group::kLines, Group::kJson, Group::kBytes}[random.Below(3)];
    case Shape::kBytes:
      break;
  }
  const std::uint64_t draw = random.Below(4);
  if (draw == 0 && input.find('\n') != std::string_view::npos) return Group::kLines;
  return draw == 1 ? Group::kJson : Group::kBytes;
}

// Where the JSON-aware families work: the whole document, or one line that is not blank.
std::optional<std::string_view> PickJsonText(std::string_view input, Shape shape, Random& random) {
  if (shape == Shape::kJsonDocument) return input;
  const Lines lines = SplitLines(input);
  std::vector<std::string_view> candidates;
  for (std::string_view line : lines.items) {
    if (!IsBlank(line)) candidates.push_back(line);
  }
  if (candidates.empty()) return std::nullopt;
  return PickOne(std::span<const std::string_view>(candidates), random);
}

std::optional<Mutation> MutateJsonText(const Target& whole, Shape shape, Random& random) {
  const std::optional<std::string_view> text = PickJsonText(whole.bytes, shape, random);
  if (!text) return std::nullopt;
  const std::size_t before = static_cast<std::size_t>(text->data() - whole.bytes.data());
  const std::size_t after = before + text->size();
  const Target target{*text, whole.other, whole.max_bytes - (whole.bytes.size() - text->size())};
  std::optional<Mutation> mutation = TryFamilies(JsonFamilies(), target, random);
  if (!mutation) return std::nullopt;  // not JSON enough: byte-level instead
  mutation->bytes = std::string(whole.bytes.substr(0, before)) + mutation->bytes +
                    std::string(whole.bytes.substr(after));
  return mutation;
}

// Byte-level mutations, which always apply unless the input is empty and may not grow: when the
// random draws find none, the first that applies, in order.
Mutation MutateBytes(const Target& whole, Random& random) {
  if (std::optional<Mutation> mutation = TryFamilies(ByteFamilies(), whole, random)) {
    return *std::move(mutation);
  }
  for (const Family& family : ByteFamilies()) {
    std::optional<std::string> bytes = family.mutate(whole, random);
    if (bytes && bytes->size() <= whole.max_bytes) {
      return Mutation{std::move(*bytes), std::string(family.what)};
    }
  }
  return Mutation{"", "byte:truncate"};
}

}  // namespace

Random::Random(std::uint64_t seed) : generator_(seed) {}

std::uint64_t Random::Next() { return generator_.Next(); }

std::uint64_t Random::Below(std::uint64_t n) {
  if (n == 0) return 0;
  // Lemire's method: the high word of draw * n is uniform in [0, n) once the draws whose low word
  // falls below 2^64 mod n are refused; the division that finds 2^64 mod n is rarely needed.
  Product product = Multiply(Next(), n);
  if (product.low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (product.low < threshold) product = Multiply(Next(), n);
  }
  return product.high;
}

bool Random::OneIn(std::uint64_t n) { return n <= 1 || Below(n) == 0; }

Shape SniffShape(std::string_view input) {
  json::Document document;
  const Lines lines = SplitLines(input);
  std::size_t values = 0;
  bool terminated = false;  // whether the last JSON line ended with '\n'
  for (std::size_t i = 0; i < lines.items.size(); ++i) {
    if (IsBlank(lines.items[i])) continue;
    if (!IsJson(document, lines.items[i])) {
      // One line is the whole input: it is no document either.
      if (lines.items.size() == 1) return Shape::kBytes;
      return IsJson(document, input) ? Shape::kJsonDocument : Shape::kBytes;
    }
    ++values;
    terminated = i + 1 < lines.items.size() || lines.final_newline;
  }
  if (values == 0) return Shape::kBytes;
  // A single unterminated value among blank lines is the whole input, whitespace around it.
  return values >= 2 || terminated ? Shape::kJsonLines : Shape::kJsonDocument;
}

Mutation Mutate(std::string_view input, std::string_view other, std::size_t max_bytes,
                Random& random) {
  // An input too long is cut whatever its shape: no need to parse it.
  const Shape shape = input.size() > max_bytes ? Shape::kBytes : SniffShape(input);
  return Mutate(input, shape, other, max_bytes, random);
}

Mutation Mutate(std::string_view input, Shape shape, std::string_view other, std::size_t max_bytes,
                Random& random) {
  if (input.size() > max_bytes) {
    return Mutation{std::string(input.substr(0, random.Below(max_bytes + 1))), "byte:truncate"};
  }
  const Target whole{input, other, max_bytes};
  std::optional<Mutation> mutation;
  switch (PickGroup(shape, input, random)) {
    case Group::kJson:
      mutation = MutateJsonText(whole, shape, random);
      break;
    case Group::kLines:
      mutation = TryFamilies(LineFamilies(), whole, random);
      break;
    case Group::kBytes:
      break;
  }
  if (mutation) return *std::move(mutation);
  return MutateBytes(whole, random);
}

std::vector<std::string_view> MutationNames() {
  std::vector<std::string_view> names;
  for (const auto& families : {ByteFamilies(), LineFamilies(), JsonFamilies()}) {
    for (const Family& family : families) names.push_back(family.what);
  }
  return names;
}

}  // namespace arcs::fuzz
