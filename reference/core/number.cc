#include "reference/core/number.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace arcs::json {
namespace {

// The parts of valid RFC 8259 number text, as views into it.
struct Parts {
  bool negative = false;
  std::string_view integer;   // digits before '.'
  std::string_view fraction;  // digits after '.', may be empty
  bool exponent_negative = false;
  std::string_view exponent;  // digits after 'e', may be empty
};

Parts Split(std::string_view text) {
  Parts p;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    p.negative = true;
    ++i;
  }
  std::size_t start = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  p.integer = text.substr(start, i - start);
  if (i < text.size() && text[i] == '.') {
    start = ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    p.fraction = text.substr(start, i - start);
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
      p.exponent_negative = text[i] == '-';
      ++i;
    }
    p.exponent = text.substr(i);
  }
  return p;
}

constexpr long long kSaturated = 1ll << 50;

// The exponent's value, saturated far beyond any digit count a line can hold.
long long ExponentValue(const Parts& p) {
  long long e = 0;
  for (char c : p.exponent) {
    e = e * 10 + (c - '0');
    if (e > kSaturated) {
      e = kSaturated;
      break;
    }
  }
  return p.exponent_negative ? -e : e;
}

// The value as digits × 10^scale with no leading or trailing zero digits (digits empty for 0);
// shift is the part of scale the digits give (scale less the exponent's value).
struct Decimal {
  std::string digits;
  long long scale = 0;
  long long shift = 0;
};

Decimal Normalize(const Parts& p) {
  Decimal d;
  d.digits.reserve(p.integer.size() + p.fraction.size());
  d.digits.append(p.integer);
  d.digits.append(p.fraction);
  std::size_t first = d.digits.find_first_not_of('0');
  if (first == std::string::npos) return {};
  d.digits.erase(0, first);
  std::size_t last = d.digits.find_last_not_of('0');
  long long trailing = static_cast<long long>(d.digits.size() - 1 - last);
  d.digits.resize(last + 1);
  d.shift = trailing - static_cast<long long>(p.fraction.size());
  d.scale = ExponentValue(p) + d.shift;
  return d;
}

}  // namespace

NumberInfo Classify(std::string_view text) {
  NumberInfo info;
  // One pass, not find_first_of's one search per character: these tokens are a few bytes long.
  if (std::none_of(text.begin(), text.end(),
                   [](char c) { return c == '.' || (c | 0x20) == 'e'; })) {
    // An integer token (most numbers): its digits need no normalizing to tell what it is.
    info.negative = text.starts_with('-');
    info.integral = true;
    info.zero = text.find_first_not_of('0', info.negative ? 1 : 0) == std::string_view::npos;
    return info;
  }
  Parts p = Split(text);
  Decimal d = Normalize(p);
  info.negative = p.negative;
  info.has_fraction = !p.fraction.empty();
  info.has_exponent = !p.exponent.empty();
  info.zero = d.digits.empty();
  info.integral = info.zero || d.scale >= 0;
  return info;
}

std::optional<std::int64_t> ToInt64(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> IntegralValueToInt64(std::string_view text) {
  // An integer token in range (timestamps, counts: nearly every call) is its own exact value.
  if (std::optional<std::int64_t> plain = ToInt64(text)) return plain;
  Parts p = Split(text);
  Decimal d = Normalize(p);
  if (d.digits.empty()) return 0;
  if (d.scale < 0) return std::nullopt;
  // 19 digits is the most an int64 can have; checking before appending zeros keeps this O(1).
  if (static_cast<long long>(d.digits.size()) + d.scale > 19) return std::nullopt;
  std::string exact = p.negative ? "-" : "";
  exact += d.digits;
  exact.append(static_cast<std::size_t>(d.scale), '0');
  return ToInt64(exact);
}

namespace {

// An exponent's digits without leading zeros, for exponents too large to add up.
std::string_view ExponentDigits(const Parts& p) {
  const std::size_t first = p.exponent.find_first_not_of('0');
  return first == std::string_view::npos ? std::string_view() : p.exponent.substr(first);
}

// ValueKey of an integer token (an optional '-', then digits: most JSON-RPC ids), without
// normalizing its parts: its digits less their trailing zeros, which are its exponent.
std::optional<std::string> IntegerKey(std::string_view text) {
  const bool negative = text.starts_with('-');
  const std::string_view digits = text.substr(negative ? 1 : 0);
  if (digits.empty() || (digits.size() > 1 && digits[0] == '0') ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  const std::size_t last = digits.find_last_not_of('0');
  if (last == std::string_view::npos) return "0";
  std::string key(negative ? "-" : "+");
  key.append(digits, 0, last + 1).append("e").append(std::to_string(digits.size() - 1 - last));
  return key;
}

}  // namespace

std::string ValueKey(std::string_view text) {
  if (std::optional<std::string> key = IntegerKey(text)) return *std::move(key);
  const Parts p = Split(text);
  const Decimal d = Normalize(p);
  if (d.digits.empty()) return "0";  // zero is zero whatever its sign and exponent
  std::string key = p.negative ? "-" : "+";
  key += d.digits;
  if (std::abs(ExponentValue(p)) < kSaturated) return key + "e" + std::to_string(d.scale);
  // Past the saturation the exponent is kept digit for digit, the digits' shift beside it
  // (1e400000000000000000 and 1.0e+400000000000000000 share a key).
  key += p.exponent_negative ? "E-" : "E+";
  key += ExponentDigits(p);
  return key + "s" + std::to_string(d.shift);
}

bool SameValue(std::string_view a, std::string_view b) {
  return a == b || ValueKey(a) == ValueKey(b);
}

std::optional<double> ToDouble(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (end != text.data() + text.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // from_chars reports underflow and overflow alike; only overflow has no nearest double.
    Parts p = Split(text);
    Decimal d = Normalize(p);
    long long magnitude = static_cast<long long>(d.digits.size()) + d.scale;
    if (d.digits.empty() || magnitude < 0) return p.negative ? -0.0 : 0.0;
    return std::nullopt;
  }
  if (ec != std::errc() || !std::isfinite(value)) return std::nullopt;
  return value;
}

bool IsWithinDoubles(std::string_view text) {
  // Without an exponent, a magnitude past the largest double (about 1.8e308) needs 309 integer
  // digits.
  if (text.size() < 309 && text.find_first_of("eE") == std::string_view::npos) return true;
  return ToDouble(text).has_value();
}

}  // namespace arcs::json
