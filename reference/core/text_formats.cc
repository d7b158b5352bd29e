#include "reference/core/text_formats.h"

#include <array>
#include <cstring>

#include "reference/core/keyed_hash.h"

namespace arcs {
namespace {

// Lowercase hex digit values; kNotHex (a bit no digit has) for every other byte.
constexpr std::uint8_t kNotHex = 0x10;
constexpr std::array<std::uint8_t, 256> kHexValue = [] {
  std::array<std::uint8_t, 256> table{};
  table.fill(kNotHex);
  for (int c = '0'; c <= '9'; ++c) table[c] = static_cast<std::uint8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) table[c] = static_cast<std::uint8_t>(c - 'a' + 10);
  return table;
}();

// Where each of a UUID's 16 bytes starts in its 8-4-4-4-12 text.
constexpr std::uint8_t kUuidByteOffsets[16] = {0,  2,  4,  6,  9,  11, 14, 16,
                                               19, 21, 24, 26, 28, 30, 32, 34};

// Reads `width` decimal digits at text[*pos]; nullopt when any is not a digit.
std::optional<int> Digits(std::string_view text, std::size_t* pos, int width) {
  if (*pos + width > text.size()) return std::nullopt;
  int value = 0;
  for (int i = 0; i < width; ++i) {
    char c = text[*pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  *pos += width;
  return value;
}

bool Expect(std::string_view text, std::size_t* pos, char a, char b = '\0') {
  if (*pos >= text.size() || (text[*pos] != a && (b == '\0' || text[*pos] != b))) return false;
  ++*pos;
  return true;
}

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace

std::size_t UuidHash::operator()(const Uuid& id) const {
  return KeyedHash(std::string_view(reinterpret_cast<const char*>(id.data()), id.size()));
}

std::optional<Uuid> ParseLowercaseUuid(std::string_view text) {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
      text[23] != '-') {
    return std::nullopt;
  }
  // Every byte is decoded, and the digits are judged once at the end (no branch per character).
  Uuid out{};
  std::uint8_t seen = 0;
  for (std::size_t i = 0; i < 16; ++i) {
    const std::uint8_t hi = kHexValue[static_cast<unsigned char>(text[kUuidByteOffsets[i]])];
    const std::uint8_t lo = kHexValue[static_cast<unsigned char>(text[kUuidByteOffsets[i] + 1])];
    seen |= hi | lo;
    out[i] = static_cast<std::uint8_t>(hi << 4 | (lo & 0x0F));
  }
  if (seen & kNotHex) return std::nullopt;
  return out;
}

bool IsRfc3339DateTime(std::string_view text) {
  std::size_t pos = 0;
  auto year = Digits(text, &pos, 4);
  if (!year || !Expect(text, &pos, '-')) return false;
  auto month = Digits(text, &pos, 2);
  if (!month || *month < 1 || *month > 12 || !Expect(text, &pos, '-')) return false;
  auto day = Digits(text, &pos, 2);
  if (!day || *day < 1 || *day > DaysInMonth(*year, *month)) return false;
  if (!Expect(text, &pos, 'T', 't')) return false;
  auto hour = Digits(text, &pos, 2);
  if (!hour || *hour > 23 || !Expect(text, &pos, ':')) return false;
  auto minute = Digits(text, &pos, 2);
  if (!minute || *minute > 59 || !Expect(text, &pos, ':')) return false;
  auto second = Digits(text, &pos, 2);
  if (!second || *second > 60) return false;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    std::size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
    if (pos == start) return false;
  }
  if (Expect(text, &pos, 'Z', 'z')) return pos == text.size();
  if (!Expect(text, &pos, '+', '-')) return false;
  auto offset_hour = Digits(text, &pos, 2);
  if (!offset_hour || *offset_hour > 23 || !Expect(text, &pos, ':')) return false;
  auto offset_minute = Digits(text, &pos, 2);
  return offset_minute && *offset_minute <= 59 && pos == text.size();
}

}  // namespace arcs
