#include "reference/core/text_formats.h"

#include <array>
#include <cstring>

#include "reference/core/keyed_hash.h"
#include "reference/core/swar.h"

namespace arcs {
namespace {

using swar::BytesBetween;
using swar::kEachByte;

// Eight lowercase hex digits, in text order in a little-endian word, to the four bytes they spell;
// false when any is not one. Word-wide: a UUID's 32 digits take four of these, not 32 lookups.
bool HexWordToBytes(std::uint64_t x, std::uint8_t* out) {
  const std::uint64_t letters = BytesBetween(x, 'a' - 1, 'f' + 1);
  if ((BytesBetween(x, '0' - 1, '9' + 1) | letters) != kEachByte * 0x80) return false;
  std::uint64_t v = swar::JoinDigitPairs(swar::HexDigitValues(x, letters));
  v = (v | (v >> 8)) & 0x0000FFFF0000FFFF;
  v = v | (v >> 16);
  for (int i = 0; i < 4; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
  return true;
}

template <typename Word>
Word Load(const char* p) {
  Word word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// Two runs of four digits (a UUID's middle groups), as one word of eight.
std::uint64_t JoinHalves(const char* first, const char* second) {
  return Load<std::uint32_t>(first) | std::uint64_t{Load<std::uint32_t>(second)} << 32;
}

}  // namespace

namespace date_time {

std::optional<int> TakeDigits(std::string_view text, std::size_t* pos, std::size_t width) {
  if (*pos + width > text.size()) return std::nullopt;
  int value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const char c = text[*pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  *pos += width;
  return value;
}

bool Take(std::string_view text, std::size_t* pos, char a, char b) {
  if (*pos >= text.size() || (text[*pos] != a && (b == '\0' || text[*pos] != b))) return false;
  ++*pos;
  return true;
}

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

}  // namespace date_time

std::size_t UuidHash::operator()(const Uuid& id) const {
  return KeyedHash(std::string_view(reinterpret_cast<const char*>(id.data()), id.size()));
}

std::optional<Uuid> ParseLowercaseUuid(std::string_view text) {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
      text[23] != '-') {
    return std::nullopt;
  }
  const char* p = text.data();
  Uuid out{};
  if (!HexWordToBytes(Load<std::uint64_t>(p), &out[0]) ||
      !HexWordToBytes(JoinHalves(p + 9, p + 14), &out[4]) ||
      !HexWordToBytes(JoinHalves(p + 19, p + 24), &out[8]) ||
      !HexWordToBytes(Load<std::uint64_t>(p + 28), &out[12])) {
    return std::nullopt;
  }
  return out;
}

bool IsRfc3339DateTime(std::string_view text) {
  using date_time::DaysInMonth;
  using date_time::Take;
  using date_time::TakeDigits;
  std::size_t pos = 0;
  auto year = TakeDigits(text, &pos, 4);
  if (!year || !Take(text, &pos, '-')) return false;
  auto month = TakeDigits(text, &pos, 2);
  if (!month || *month < 1 || *month > 12 || !Take(text, &pos, '-')) return false;
  auto day = TakeDigits(text, &pos, 2);
  if (!day || *day < 1 || *day > DaysInMonth(*year, *month)) return false;
  if (!Take(text, &pos, 'T', 't')) return false;
  auto hour = TakeDigits(text, &pos, 2);
  if (!hour || *hour > 23 || !Take(text, &pos, ':')) return false;
  auto minute = TakeDigits(text, &pos, 2);
  if (!minute || *minute > 59 || !Take(text, &pos, ':')) return false;
  auto second = TakeDigits(text, &pos, 2);
  if (!second || *second > 60) return false;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    std::size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
    if (pos == start) return false;
  }
  if (Take(text, &pos, 'Z', 'z')) return pos == text.size();
  if (!Take(text, &pos, '+', '-')) return false;
  auto offset_hour = TakeDigits(text, &pos, 2);
  if (!offset_hour || *offset_hour > 23 || !Take(text, &pos, ':')) return false;
  auto offset_minute = TakeDigits(text, &pos, 2);
  return offset_minute && *offset_minute <= 59 && pos == text.size();
}

}  // namespace arcs
