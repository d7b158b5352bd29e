// Number text classification and exact conversion for numbers kept as source text by json.h.
// Spool wants integers with a 64-bit range, Lightbox forbids floats and hashes big integers
// exactly, Model IO needs integer indices: all of that is decided here from the text, never from a
// double.
#ifndef ARCS_REFERENCE_CORE_NUMBER_H_
#define ARCS_REFERENCE_CORE_NUMBER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace arcs::json {

struct NumberInfo {
  bool negative = false;      // a leading '-' (so "-0" is negative here and zero in value)
  bool has_fraction = false;  // the text has a '.' part
  bool has_exponent = false;  // the text has an 'e' or 'E' part
  bool integral = false;      // the mathematical value is an integer (1.0, 1e2 and -0 are)
  bool zero = false;          // the mathematical value is zero
};

// Classifies RFC 8259 number text exactly (any length, any exponent). The text must already be a
// valid JSON number (json::Document guarantees that).
NumberInfo Classify(std::string_view text);

// The exact value as int64 when the text is an integer token (no fraction, no exponent) within
// range; nullopt otherwise.
std::optional<std::int64_t> ToInt64(std::string_view text);

// The exact value as int64 when the mathematical value is an integer within range, whatever the
// spelling (1.0, 1e2, -0); nullopt otherwise.
std::optional<std::int64_t> IntegralValueToInt64(std::string_view text);

// Whether two number texts have the same mathematical value, exactly: 1, 1.0, 1e0 and 10e-1 are
// the same; -0 and 0 are the same; 1 and 1.0000000000000000001 are not. Zero is zero whatever
// its exponent; exponents beyond ±2^50 (no real file has them) are compared digit for digit, so
// 1e400000000000000000 and 1.0e+400000000000000000 are the same, and 1e400000000000000000 and
// 10e399999999999999999 are not told apart (false).
bool SameValue(std::string_view a, std::string_view b);

// A text two numbers share exactly when SameValue says they are the same ("+1e0" for 1, 1.0 and
// 10e-1; "0" for every zero): a key for a hash table of numbers compared by value, where the
// nearest double would put 1 and 1.0000000000000000001 in one bucket.
std::string ValueKey(std::string_view text);

// The nearest double, when it is finite; nullopt when the value overflows a double.
std::optional<double> ToDouble(std::string_view text);

// Whether ToDouble has a value for the text; most numbers are told by their length alone.
bool IsWithinDoubles(std::string_view text);

}  // namespace arcs::json

#endif  // ARCS_REFERENCE_CORE_NUMBER_H_
