#include "runner/fuzz/mutate_bytes.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace arcs::fuzz {
namespace {

std::optional<std::string> FlipBit(const Target& target, Random& random) {
  if (target.bytes.empty()) return std::nullopt;
  std::string bytes(target.bytes);
  const std::size_t at = random.Below(bytes.size());
  bytes[at] = static_cast<char>(bytes[at] ^ (1 << random.Below(8)));
  return bytes;
}

std::optional<std::string> SetInteresting(const Target& target, Random& random) {
  static constexpr std::array<char, 10> kInteresting = {'\x00', '\xFF', '\x7F', '\x80', '"',
                                                        '\\',   '{',    '}',    '\n',   '\r'};
  if (target.bytes.empty()) return std::nullopt;
  std::string bytes(target.bytes);
  bytes[random.Below(bytes.size())] = PickOne(std::span<const char>(kInteresting), random);
  return bytes;
}

std::optional<std::string> InsertRandom(const Target& target, Random& random) {
  const std::size_t count = RangeLength(Room(target.bytes.size(), target.max_bytes), random);
  if (count == 0) return std::nullopt;
  std::string inserted(count, '\0');
  for (char& c : inserted) c = static_cast<char>(random.Next() & 0xFF);
  std::string bytes(target.bytes);
  bytes.insert(random.Below(bytes.size() + 1), inserted);
  return bytes;
}

std::optional<std::string> DeleteRange(const Target& target, Random& random) {
  if (target.bytes.empty()) return std::nullopt;
  std::string bytes(target.bytes);
  const std::size_t from = random.Below(bytes.size());
  bytes.erase(from, RangeLength(bytes.size() - from, random));
  return bytes;
}

std::optional<std::string> DuplicateRange(const Target& target, Random& random) {
  const std::size_t size = target.bytes.size();
  if (size == 0) return std::nullopt;
  const std::size_t from = random.Below(size);
  const std::size_t count =
      RangeLength(std::min(size - from, Room(size, target.max_bytes)), random);
  if (count == 0) return std::nullopt;
  // Next to itself most often: a repeated `}` or `,` or key is what a writer bug makes.
  const std::size_t to = random.OneIn(4) ? random.Below(size + 1) : from + count;
  std::string bytes(target.bytes);
  bytes.insert(to, target.bytes.substr(from, count));
  return bytes;
}

std::optional<std::string> Splice(const Target& target, Random& random) {
  if (target.other.empty()) return std::nullopt;
  const std::size_t from = random.Below(target.other.size());
  std::size_t count = RangeLength(target.other.size() - from, random);
  std::string bytes(target.bytes);
  if (!bytes.empty() && random.OneIn(2)) {
    const std::size_t at = random.Below(bytes.size());
    count = std::min(count, bytes.size() - at);
    bytes.replace(at, count, target.other.substr(from, count));
    return bytes;
  }
  count = std::min(count, Room(bytes.size(), target.max_bytes));
  if (count == 0) return std::nullopt;
  bytes.insert(random.Below(bytes.size() + 1), target.other.substr(from, count));
  return bytes;
}

std::optional<std::string> Truncate(const Target& target, Random& random) {
  if (target.bytes.empty()) return std::nullopt;
  return std::string(target.bytes.substr(0, random.Below(target.bytes.size())));
}

constexpr std::array<Family, 7> kByteFamilies = {{
    {"byte:flip", FlipBit},
    {"byte:interesting", SetInteresting},
    {"byte:insert", InsertRandom},
    {"byte:delete", DeleteRange},
    {"byte:duplicate", DuplicateRange},
    {"byte:splice", Splice},
    {"byte:truncate", Truncate},
}};

}  // namespace

std::span<const Family> ByteFamilies() { return kByteFamilies; }

}  // namespace arcs::fuzz
