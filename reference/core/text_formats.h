// Small text formats several specs share: lowercase hyphenated UUIDs and RFC 3339 date-times.
#ifndef ARCS_REFERENCE_CORE_TEXT_FORMATS_H_
#define ARCS_REFERENCE_CORE_TEXT_FORMATS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace arcs {

using Uuid = std::array<std::uint8_t, 16>;

// Ids come from files, so the hash is keyed (keyed_hash.h): no one can choose ids that collide.
// Every bit of the id reaches every bit of the hash (text_formats_test.cc): containers may use
// any bits of it, as the Spool validator's id index does (low bits: the slot, high bits: a tag).
struct UuidHash {
  std::size_t operator()(const Uuid& id) const;
};

// "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" with lowercase hex digits only; any version/variant.
std::optional<Uuid> ParseLowercaseUuid(std::string_view text);

// RFC 3339 §5.6 date-time: YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM). 'T' and 'Z' may be
// lowercase (§5.6 NOTE). The date must exist (leap years included); second 60 is allowed (leap
// second) as RFC 3339 does; hours 00-23, minutes 00-59, offsets up to 23:59.
bool IsRfc3339DateTime(std::string_view text);

// The steps of a date-time reader, this one's and Spool's of ISO 8601 (errata SP-E14), each reading
// at text[*pos] and moving *pos past what it took only when it succeeds.
namespace date_time {
// `width` ASCII digits, as a number; nullopt when the text ends first or one is not a digit.
std::optional<int> TakeDigits(std::string_view text, std::size_t* pos, std::size_t width);
// One character, `a` or (when not '\0') `b`.
bool Take(std::string_view text, std::size_t* pos, char a, char b = '\0');
// The days of a month (1-12) of the proleptic Gregorian calendar.
int DaysInMonth(int year, int month);
}  // namespace date_time

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_TEXT_FORMATS_H_
