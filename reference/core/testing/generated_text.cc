#include "reference/core/testing/generated_text.h"

#include <cstdlib>

namespace arcs::testing {
namespace {

// Words for prose and code. The last 22 are the ones the two line styles write differently: DEL,
// U+2028 and 2-, 3- and 4-byte UTF-8 sequences (raw in the canonical form, escaped by json.dumps's
// defaults).
constexpr std::string_view kWords[] = {
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "is",
    "it",
    "that",
    "for",
    "this",
    "we",
    "function",
    "return",
    "value",
    "error",
    "file",
    "line",
    "token",
    "user",
    "request",
    "response",
    "check",
    "auth",
    "session",
    "config",
    "test",
    "build",
    "cache",
    "index",
    "buffer",
    "stream",
    "parse",
    "const",
    "auto",
    "std::string",
    "if",
    "else",
    "while",
    "null",
    "true",
    "false",
    "0x7f",
    "42",
    "1024",
    "src/auth.py",
    "README.md",
    "self.token",
    "verify_token(token)",
    "->",
    "==",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ":",
    ",",
    ".",
    "=",
    "+=",
    "&&",
    "||",
    "#",
    "//",
    "/*",
    "*/",
    "<div>",
    "</div>",
    "http://example.com/api?q=1&r=2",
    "SELECT * FROM users WHERE id = ?",
    "del\x7f",
    "para\u2028graph",
    "café",
    "naïve",
    "Müller",
    "façade",
    "über",
    "résumé",
    "Ω",
    "→",
    "—",
    "“quoted”",
    "…",
    "日本語",
    "中文",
    "한국어",
    "Привет",
    "ελληνικά",
    "עברית",
    "العربية",
    "🚀",
    "✅",
    "🙂",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
};
constexpr std::size_t kWordCount = sizeof(kWords) / sizeof(kWords[0]);
constexpr std::size_t kNonAsciiWords = 22;

}  // namespace

void AppendText(Rng& rng, std::size_t length, std::string* out) {
  const std::size_t stop = out->size() + length;
  std::size_t line = 0;
  while (out->size() < stop) {
    const std::uint64_t r = rng.Next();
    const unsigned pick = static_cast<unsigned>(r & 1023);
    if (pick < 20) {
      out->push_back('\n');
      line = 0;
      if (pick < 6) out->append("    ");
      continue;
    }
    if (pick < 26) {
      out->push_back('\t');
    } else if (pick < 34) {
      out->append(pick & 1 ? "\"" : "\\");
    } else if (pick == 34) {
      out->append("\x1b[0m");
    } else if (pick < 120) {
      // Non-ASCII words are about 8% of the text's words.
      out->append(kWords[kWordCount - 1 - (r >> 10) % kNonAsciiWords]);
    } else {
      out->append(kWords[(r >> 10) % (kWordCount - kNonAsciiWords)]);
    }
    ++line;
    out->push_back(line > 12 && ((r >> 40) & 3) == 0 ? '\n' : ' ');
    if (out->back() == '\n') line = 0;
  }
}

void AppendJsonString(std::string_view text, bool ascii, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  auto escape = [&](std::uint32_t unit) {
    out->append("\\u");
    for (int shift = 12; shift >= 0; shift -= 4) out->push_back(kHex[(unit >> shift) & 15]);
  };
  out->push_back('"');
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"':
        out->append("\\\"");
        continue;
      case '\\':
        out->append("\\\\");
        continue;
      case '\n':
        out->append("\\n");
        continue;
      case '\t':
        out->append("\\t");
        continue;
      case '\r':
        out->append("\\r");
        continue;
      case '\b':
        out->append("\\b");
        continue;
      case '\f':
        out->append("\\f");
        continue;
      default:
        break;
    }
    if (c < 0x20 || (ascii && c == 0x7F)) {
      escape(c);
    } else if (c < 0x80 || !ascii) {
      out->push_back(static_cast<char>(c));
    } else {
      // The text is valid UTF-8 (it comes from kWords and the generator's literals).
      const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
      std::uint32_t cp = c & (0x3F >> extra);
      for (int k = 0; k < extra; ++k) {
        cp = (cp << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F);
      }
      if (cp >= 0x10000) {
        cp -= 0x10000;
        escape(0xD800 + (cp >> 10));
        escape(0xDC00 + (cp & 0x3FF));
      } else {
        escape(cp);
      }
    }
  }
  out->push_back('"');
}

bool ParseSize(std::string_view text, std::uint64_t* out) {
  if (text.empty()) return false;
  std::uint64_t unit = 1;
  switch (text.back()) {
    case 'K':
    case 'k':
      unit = 1ull << 10;
      break;
    case 'M':
    case 'm':
      unit = 1ull << 20;
      break;
    case 'G':
    case 'g':
      unit = 1ull << 30;
      break;
    default:
      break;
  }
  if (unit != 1) text.remove_suffix(1);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
  *out = std::strtoull(std::string(text).c_str(), nullptr, 10) * unit;
  return true;
}

}  // namespace arcs::testing
