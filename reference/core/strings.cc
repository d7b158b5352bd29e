#include "reference/core/strings.h"

#include <charconv>

#include "reference/core/json.h"
#include "reference/core/number.h"

namespace arcs {

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::string Excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::string out(text.substr(0, cut));
  out += "\xE2\x80\xA6";
  return out;
}

std::string Quoted(std::string_view text, std::size_t max_bytes) {
  return "\"" + Excerpt(text, max_bytes) + "\"";
}

std::optional<std::uint64_t> ParseCount(std::string_view text, std::uint64_t max) {
  std::uint64_t value = 0;
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > max) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> ParseDecimal(std::string_view text, double min, double max) {
  json::Document doc;
  // JSON allows whitespace around a value; a command-line number has none.
  if (text.find_first_of(" \t\r\n") != std::string_view::npos || !doc.Parse(text) ||
      !doc.root().is_number()) {
    return std::nullopt;
  }
  std::optional<double> value = json::ToDouble(doc.root().text());
  if (!value || *value < min || *value > max) return std::nullopt;
  return value;
}

}  // namespace arcs
