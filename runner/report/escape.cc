#include "runner/report/escape.h"

#include <cstdint>
#include <cstdio>

namespace arcs::report {
namespace {

constexpr char32_t kInvalid = 0xFFFFFFFF;
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool InRange(unsigned char byte, unsigned char low, unsigned char high) {
  return byte >= low && byte <= high;
}

// Decodes the character at text[i]. Returns its length and sets *cp; for ill-formed input returns
// the length of the maximal subpart (at least 1) and sets *cp to kInvalid.
std::size_t DecodeOne(std::string_view text, std::size_t i, char32_t* cp) {
  const auto lead = static_cast<unsigned char>(text[i]);
  if (lead < 0x80) {
    *cp = lead;
    return 1;
  }
  std::size_t length = 0;
  unsigned char second_low = 0x80, second_high = 0xBF;
  char32_t value = 0;
  if (InRange(lead, 0xC2, 0xDF)) {
    length = 2;
    value = lead & 0x1F;
  } else if (InRange(lead, 0xE0, 0xEF)) {
    length = 3;
    value = lead & 0x0F;
    if (lead == 0xE0) second_low = 0xA0;   // overlong
    if (lead == 0xED) second_high = 0x9F;  // surrogates
  } else if (InRange(lead, 0xF0, 0xF4)) {
    length = 4;
    value = lead & 0x07;
    if (lead == 0xF0) second_low = 0x90;   // overlong
    if (lead == 0xF4) second_high = 0x8F;  // past U+10FFFF
  } else {
    *cp = kInvalid;  // a stray continuation byte, C0, C1 or F5..FF
    return 1;
  }
  for (std::size_t k = 1; k < length; ++k) {
    const bool ok =
        i + k < text.size() && InRange(static_cast<unsigned char>(text[i + k]),
                                       k == 1 ? second_low : 0x80, k == 1 ? second_high : 0xBF);
    if (!ok) {
      *cp = kInvalid;
      return k;
    }
    value = (value << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  }
  *cp = value;
  return length;
}

// Calls fn(code point, its bytes) for each character; ill-formed subparts come as kInvalid.
template <typename Fn>
void ForEachCharacter(std::string_view text, Fn fn) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp;
    const std::size_t length = DecodeOne(text, i, &cp);
    fn(cp, text.substr(i, length));
    i += length;
  }
}

bool IsControl(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// Bidirectional embeddings, overrides and isolates: they reorder what the reader sees, so that a
// case id or a message can display as something it is not ("Trojan Source").
bool IsBidiControl(char32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  ForEachCharacter(text, [&](char32_t cp, std::string_view bytes) {
    out += cp == kInvalid ? kReplacement : bytes;
  });
  return out;
}

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  ForEachCharacter(text, [&](char32_t cp, std::string_view bytes) {
    switch (cp) {
      case '&':
        out += "&amp;";
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;
      case '"':
        out += "&quot;";
        return;
      case '\'':
        out += "&#39;";
        return;
      case '\t':
      case '\n':
      case '\r':
        out += bytes;
        return;
      default:
        break;
    }
    const bool forbidden =
        cp == kInvalid || cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF || IsBidiControl(cp);
    out += forbidden ? kReplacement : bytes;
  });
  return out;
}

std::string EscapeMarkdown(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool after_cr = false;
  ForEachCharacter(text, [&](char32_t cp, std::string_view bytes) {
    const bool was_cr = after_cr;
    after_cr = cp == '\r';
    switch (cp) {
      case '\n':
        if (!was_cr) out += "<br>";  // CRLF is one line break
        return;
      case '\r':
        out += "<br>";
        return;
      case '\t':
        out += ' ';
        return;
      case '&':
        out += "&amp;";
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
        out += '\\';
        out += static_cast<char>(cp);
        return;
      default:
        break;
    }
    out += cp == kInvalid || IsControl(cp) || IsBidiControl(cp) ? kReplacement : bytes;
  });
  return out;
}

std::string EscapeTerminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  ForEachCharacter(text, [&](char32_t cp, std::string_view bytes) {
    if (cp == kInvalid) {
      out += kReplacement;
    } else if (cp == '\\') {
      out += "\\\\";  // so that an escape in the output always means an escaped character
    } else if (IsControl(cp) || IsBidiControl(cp)) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, cp <= 0xFF ? "\\x%02X" : "\\u%04X",
                    static_cast<unsigned>(cp));
      out += buffer;
    } else {
      out += bytes;
    }
  });
  return out;
}

std::string Truncate(std::string_view text, std::size_t max_bytes) {
  std::string valid = ValidUtf8(text);
  if (valid.size() <= max_bytes) return valid;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(valid[cut]) & 0xC0) == 0x80) --cut;
  valid.resize(cut);
  valid += "\xE2\x80\xA6";  // U+2026
  return valid;
}

std::string Slug(std::string_view name) {
  std::string out;
  bool pending_dash = false;
  for (char c : name) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) {
      pending_dash = true;
      continue;
    }
    if (pending_dash && !out.empty()) out += '-';
    pending_dash = false;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out.empty() ? "x" : out;
}

}  // namespace arcs::report
