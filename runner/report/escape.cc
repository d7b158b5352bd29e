#include "runner/report/escape.h"

#include <cstdint>

#include "reference/core/sha256.h"
#include "reference/core/strings.h"

namespace arcs::report {
namespace {

constexpr char32_t kInvalid = 0xFFFFFFFF;
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
constexpr std::string_view kWordJoiner = "\xE2\x81\xA0";   // U+2060: invisible, no break

// Calls fn(code point, its bytes) for each character; ill-formed subparts (maximal, as Unicode
// recommends replacing them) come as kInvalid.
template <typename Fn>
void ForEachCharacter(std::string_view text, Fn fn) {
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Sequence sequence = DecodeUtf8(text, i);
    fn(sequence.well_formed ? sequence.code_point : kInvalid, text.substr(i, sequence.length));
    i += sequence.length;
  }
}

bool IsControl(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// Bidirectional embeddings, overrides and isolates: they reorder what the reader sees, so that a
// case id or a message can display as something it is not ("Trojan Source").
// The implicit marks (U+061C, U+200E, U+200F) are invisible and steer the same algorithm.
bool IsBidiControl(char32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x061C ||
         cp == 0x200E || cp == 0x200F;
}

// U+2028 and U+2029 end a line for some log viewers and JavaScript-based consoles.
bool IsLineSeparator(char32_t cp) { return cp == 0x2028 || cp == 0x2029; }

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
  int ws_before = 0;  // 'w' or 'W' just before: "www\." is no autolink
  ForEachCharacter(text, [&](char32_t cp, std::string_view bytes) {
    const bool was_cr = after_cr;
    after_cr = cp == '\r';
    const bool after_www = ws_before >= 3;
    ws_before = cp == 'w' || cp == 'W' ? ws_before + 1 : 0;
    // Neither "www\." nor "https\://" is an autolink; mailto: and xmpp: need an '@' (below).
    const bool before_slashes = text.substr(bytes.data() - text.data() + 1).starts_with("//");
    if ((cp == '.' && after_www) || (cp == ':' && before_slashes)) {
      out += '\\';
      out += static_cast<char>(cp);
      return;
    }
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
      case '@':
        // An e-mail autolink survives backslash escapes, and GitHub finds @mentions in the
        // rendered text; both need a letter or digit right after the '@'.
        out += "@" + std::string(kWordJoiner);
        return;
      default:
        break;
    }
    out += cp == kInvalid || IsControl(cp) || IsBidiControl(cp) || IsLineSeparator(cp)
               ? kReplacement
               : bytes;
  });
  return out;
}

std::string Truncate(std::string_view text, std::size_t max_bytes) {
  return Excerpt(ValidUtf8(text), max_bytes);
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
  if (out.size() > kMaxSlugBytes) {
    out.resize(kMaxSlugBytes - 9);
    out += "-" + ToHex(Sha256::Of(name)).substr(0, 8);
  }
  return out.empty() ? "x" : out;
}

}  // namespace arcs::report
