#include "reference/core/strings.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "reference/core/xoshiro.h"

namespace arcs {
namespace {

// A quotation stays one line whatever it quotes (a finding's message is printed as one line).
TEST(QuotedTest, EscapesQuotesBackslashesAndControls) {
  EXPECT_EQ(Quoted("plain"), "\"plain\"");
  EXPECT_EQ(Quoted("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(Quoted("l1\nl2\r\t\x1b\x7f"), R"("l1\nl2\r\t\u001b\u007f")");
  EXPECT_EQ(Quoted("\xC3\xA9t\xC3\xA9", 3), "\"\xC3\xA9t\xE2\x80\xA6\"");  // cut, then "…"
}

// A finding quotes file content: nothing in it may drive the terminal that prints the finding.
TEST(QuotedTest, MakesTheRestPrintable) {
  EXPECT_EQ(Quoted("\xE2\x80\xAEtxt.exe\xC2\x9B\xFF"), R"("\u202etxt.exe\u009b\xff")");
  EXPECT_EQ(Quoted("a\xE2\x80\xA8\xE2\x80\xA9"), R"("a\u2028\u2029")");
}

// Plain and ordinary non-ASCII text pass as they are.
TEST(PrintableTest, KeepsOrdinaryText) {
  for (std::string_view text :
       {"", "plain text with \"quotes\" and 'apostrophes'", "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC",
        "\xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A", "\xF0\x9F\x98\x80", "\xC2\xA0\xC2\xA9",
        "\xE2\x80\x8A\xE2\x80\x90", "\xE2\x80\xA7\xE2\x80\xAF\xE2\x81\xA5\xE2\x81\xAA",
        "\xEF\xBB\xBE\xEF\xBF\xBD"}) {
    EXPECT_EQ(Printable(text), text) << testing::PrintToString(text);
  }
}

// What a hostile argument or file name holds to drive a terminal: an OSC 8 hyperlink ended by
// BEL, a CSI sequence, a C1 CSI, a right-to-left override, a zero-width space.
TEST(PrintableTest, EscapesControlsAsUnicodeEscapes) {
  EXPECT_EQ(Printable("\x1b]8;;http://x\x07ok\x1b]8;;\x07"),
            R"(\u001b]8;;http://x\u0007ok\u001b]8;;\u0007)");
  EXPECT_EQ(Printable("a\nb\tc\rd\x7f"), R"(a\u000ab\u0009c\u000dd\u007f)");
  EXPECT_EQ(Printable(std::string_view("\0", 1)), R"(\u0000)");
  EXPECT_EQ(Printable("\xC2\x80\xC2\x9B"
                      "2J\xC2\x9F"),
            R"(\u0080\u009b2J\u009f)");
  EXPECT_EQ(Printable("gnp.\xE2\x80\xAE"
                      "exe"),
            R"(gnp.\u202eexe)");
  EXPECT_EQ(Printable("\xD8\x9C \xE2\x80\x8B\xE2\x80\x8F \xE2\x80\xAA\xE2\x80\xAE"),
            R"(\u061c \u200b\u200f \u202a\u202e)");
  EXPECT_EQ(Printable("\xE2\x81\xA0\xE2\x81\xA4 \xE2\x81\xA6\xE2\x81\xA9 \xEF\xBB\xBF"),
            R"(\u2060\u2064 \u2066\u2069 \ufeff)");
  EXPECT_EQ(Printable("a\xE2\x80\xA8"
                      "b\xE2\x80\xA9"),
            R"(a\u2028b\u2029)");  // a line and a paragraph separator end a line for some viewers
}

// A backslash is doubled, so that "\u001b" in the output is an ESC and "\\u001b" the six
// characters: the original bytes can be recovered, as from JSON.
TEST(PrintableTest, DoublesBackslashes) {
  EXPECT_EQ(Printable(R"(C:\dir\)"), R"(C:\\dir\\)");
  EXPECT_EQ(Printable("\\u001b\x1b"), R"(\\u001b\u001b)");
}

// A hostile file name or message cannot start a line a CI log parser reads as a finding.
TEST(PrintableTest, OutputIsOneLineOfPrintableText) {
  const std::string hostile =
      "x\nevil.spool:1: SPOOL-1 MUST forged\r\x1b]0;title\x07\xE2\x80\xA8\xC2\x85\xFF";
  const std::string escaped = Printable(hostile);
  for (unsigned char c : escaped) EXPECT_TRUE(c >= 0x20 && c != 0x7F) << static_cast<int>(c);
  EXPECT_EQ(escaped.find("\xE2\x80\xA8"), std::string::npos);
  EXPECT_EQ(escaped.find("\xC2\x85"), std::string::npos);
  EXPECT_TRUE(IsValidUtf8(escaped));
}

// A document keeps its line feeds, tabs and (Markdown's) backslashes; the rest is as Printable.
TEST(PrintableDocumentTest, KeepsLayoutAndBackslashes) {
  EXPECT_EQ(PrintableDocument("\x1b[31m\\*a\\*\n\tb\r\n\xE2\x80\xAE\xE2\x80\xA8\xFF"),
            R"(\u001b[31m\*a\*)"
            "\n\tb"
            R"(\u000d)"
            "\n"
            R"(\u202e\u2028\xff)");
}

// Each byte that begins no well-formed sequence is shown as its value, one escape per byte.
TEST(PrintableTest, EscapesEachIllFormedByte) {
  EXPECT_EQ(Printable("a\xFF"
                      "b"),
            R"(a\xffb)");
  EXPECT_EQ(Printable("\xC0\xAF"), R"(\xc0\xaf)");          // overlong
  EXPECT_EQ(Printable("\xED\xA0\x80"), R"(\xed\xa0\x80)");  // a surrogate
  EXPECT_EQ(Printable("\xE2\x80"), R"(\xe2\x80)");          // truncated
  EXPECT_EQ(Printable("\xE2\x80\xE2\x80\xAE"), R"(\xe2\x80\u202e)");
  EXPECT_EQ(Printable("\x9B[2J"), R"(\x9b[2J)");  // a bare C1 byte
}

TEST(Strings, LinesKeepTheirEndings) {
  using Lines = std::vector<std::string_view>;
  EXPECT_EQ(LinesWithEnds(""), Lines{});
  EXPECT_EQ(LinesWithEnds("\n"), (Lines{"\n"}));
  EXPECT_EQ(LinesWithEnds("a\r\nb\n\nc"), (Lines{"a\r\n", "b\n", "\n", "c"}));
  EXPECT_EQ(LinesWithEnds("a\rb"), (Lines{"a\rb"}));
}

TEST(Strings, TrimBlanksLeavesALineAsAPersonMeantIt) {
  EXPECT_EQ(TrimBlanks(" \tspool-1/validate  # x \r\n"), "spool-1/validate  # x");
  EXPECT_EQ(TrimBlanks("a b"), "a b");
  EXPECT_EQ(TrimBlanks(" \t\r\n"), "");
  EXPECT_EQ(TrimBlanks(""), "");
  EXPECT_EQ(TrimBlanks("\ra"), "\ra");  // only a line's ending goes, not a control before it
}

TEST(Strings, JoinPutsTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(Join({}), "");
  EXPECT_EQ(Join({"a"}), "a");
  EXPECT_EQ(Join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(Join({"", "b"}), ", b");  // an empty item keeps its place
  EXPECT_EQ(Join({"reject", "skip"}, " or "), "reject or skip");
}

TEST(Strings, CountsAreDigitsOnlyAndNeverClamped) {
  EXPECT_EQ(ParseCount("0", 10), 0u);
  EXPECT_EQ(ParseCount("4096", 1u << 20), 4096u);
  EXPECT_EQ(ParseCount("9223372036854775807", INT64_MAX), 9223372036854775807u);
  for (const char* bad : {"", " -1", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.0",
                          "18446744073709551616", "9223372036854775808"}) {
    EXPECT_FALSE(ParseCount(bad, INT64_MAX).has_value()) << "'" << bad << "'";
  }
  EXPECT_FALSE(ParseCount("11", 10).has_value());
}

TEST(Strings, DecimalsFollowJsonGrammarWithinTheirRange) {
  EXPECT_EQ(ParseDecimal("0.5", 0.001, 1e6), 0.5);
  EXPECT_EQ(ParseDecimal("10", 0.001, 1e6), 10.0);
  EXPECT_EQ(ParseDecimal("1e3", 0.001, 1e6), 1000.0);
  for (const char* bad :
       {"", "1e-9", "0", "-1", "0x10", "inf", "nan", " 1", "1\n", ".5", "1e400", "2e6"}) {
    EXPECT_FALSE(ParseDecimal(bad, 0.001, 1e6).has_value()) << "'" << bad << "'";
  }
}

}  // namespace
}  // namespace arcs

namespace arcs {
namespace {

// Unicode §3.9 table 3-7, at its edges; the JSON fuzzer also holds the parser's fast path (which
// relies on this) to RapidJSON's own validation.
TEST(Strings, IsValidUtf8FollowsTheWellFormedByteSequences) {
  for (std::string_view ok :
       {"", "plain ASCII text that is longer than sixteen bytes", "\xC2\x80", "\xDF\xBF",
        "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF",
        "0123456789abcdef\xC3\xA9 and more", "\xF0\x9F\x98\x80"}) {
    EXPECT_TRUE(IsValidUtf8(ok)) << ok;
  }
  for (std::string_view bad :
       {"\x80", "\xC0\xAF", "\xC1\xBF", "\xE0\x9F\xBF", "\xED\xA0\x80", "\xF0\x8F\xBF\xBF",
        "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "\xC3", "\xE2\x82",
        "0123456789abcdef\xE2\x82", "0123456789abcdefX\xBF"}) {
    EXPECT_FALSE(IsValidUtf8(bad)) << testing::PrintToString(bad);
  }
}

// RFC 3629 section 3's table at each edge of its four lengths, and its own examples (section 7).
TEST(Strings, EncodeUtf8WritesEachLengthAtItsEdges) {
  const auto encoded = [](std::uint32_t code_point) {
    char bytes[4];
    return std::string(bytes, EncodeUtf8(code_point, bytes));
  };
  EXPECT_EQ(encoded(0x00), std::string(1, '\0'));
  EXPECT_EQ(encoded(0x41), "A");
  EXPECT_EQ(encoded(0x7F), "\x7F");
  EXPECT_EQ(encoded(0x80), "\xC2\x80");
  EXPECT_EQ(encoded(0x391), "\xCE\x91");
  EXPECT_EQ(encoded(0x7FF), "\xDF\xBF");
  EXPECT_EQ(encoded(0x800), "\xE0\xA0\x80");
  EXPECT_EQ(encoded(0xD55C), "\xED\x95\x9C");
  EXPECT_EQ(encoded(0xFEFF), kUtf8Bom);
  EXPECT_EQ(encoded(0xFFFD), "\xEF\xBF\xBD");
  EXPECT_EQ(encoded(0xFFFF), "\xEF\xBF\xBF");
  EXPECT_EQ(encoded(0x10000), "\xF0\x90\x80\x80");
  EXPECT_EQ(encoded(0x233B4), "\xF0\xA3\x8E\xB4");
  EXPECT_EQ(encoded(0x10FFFF), "\xF4\x8F\xBF\xBF");
}

// Every scalar value encodes to well-formed UTF-8 of the length its range gives.
TEST(Strings, EncodeUtf8WritesEveryScalarValueWellFormed) {
  for (std::uint32_t code_point = 0; code_point <= 0x10FFFF; ++code_point) {
    if (code_point == 0xD800) code_point = 0xE000;
    char bytes[4];
    const std::string_view text(bytes, EncodeUtf8(code_point, bytes));
    const std::size_t length = code_point < 0x80      ? 1
                               : code_point < 0x800   ? 2
                               : code_point < 0x10000 ? 3
                                                      : 4;
    ASSERT_EQ(text.size(), length) << code_point;
    ASSERT_TRUE(IsValidUtf8(text)) << code_point;
  }
}

// DecodeUtf8 reads back every scalar value EncodeUtf8 writes, whole.
TEST(Strings, DecodeUtf8ReadsEveryScalarValue) {
  for (std::uint32_t code_point = 0; code_point <= 0x10FFFF; ++code_point) {
    if (code_point == 0xD800) code_point = 0xE000;
    char bytes[4];
    const std::string_view text(bytes, EncodeUtf8(code_point, bytes));
    const Utf8Sequence sequence = DecodeUtf8(text, 0);
    ASSERT_TRUE(sequence.well_formed) << code_point;
    ASSERT_EQ(sequence.code_point, code_point);
    ASSERT_EQ(sequence.length, text.size()) << code_point;
  }
}

// Ill-formed sequences are cut at their maximal subparts: the example of the Unicode Standard
// (chapter 3, "U+FFFD Substitution of Maximal Subparts", table 3-8), whose bytes
// 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 read as a, three subparts, b, one, c, two and d; and the
// forms table 3-7 rules out.
TEST(Strings, DecodeUtf8CutsIllFormedTextAtMaximalSubparts) {
  const std::string_view text = "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
  std::vector<std::string> read;
  for (std::size_t i = 0; i < text.size();) {
    const Utf8Sequence sequence = DecodeUtf8(text, i);
    read.push_back(sequence.well_formed ? std::string(1, static_cast<char>(sequence.code_point))
                                        : std::to_string(sequence.length));
    i += sequence.length;
  }
  EXPECT_EQ(read, (std::vector<std::string>{"a", "3", "2", "1", "b", "1", "c", "1", "1", "d"}));
  for (const std::string_view ill :
       {"\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xF5\x80", "\xE2\x82"}) {
    const Utf8Sequence sequence = DecodeUtf8(ill, 0);
    EXPECT_FALSE(sequence.well_formed) << testing::PrintToString(ill);
    EXPECT_EQ(sequence.length, ill == "\xE2\x82" ? 2u : 1u) << testing::PrintToString(ill);
  }
}

// IsValidUtf8 (simdjson's validator) against ReplaceIllFormedUtf8's own byte-by-byte reading of
// table 3-7: a text is valid exactly when nothing in it is replaced. Random texts of lead,
// continuation and ASCII bytes, at lengths that cross SIMD block edges.
TEST(Strings, IsValidUtf8AgreesWithTheByteByByteReading) {
  static constexpr unsigned char kBytes[] = {'a',  0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                             0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0,
                                             0xF4, 0xF5, 0xFF, 0xC3, 0xA9, 0xE2, 0x82, 0xAC};
  Xoshiro256 random(3);
  std::size_t valid = 0;
  for (int i = 0; i < 100000; ++i) {
    std::string text(random.Next() % 150, 'x');
    const std::uint64_t density = 1 + random.Next() % 30;
    for (char& c : text) {
      if (random.Next() % density == 0)
        c = static_cast<char>(kBytes[random.Next() % sizeof kBytes]);
    }
    const bool expected = ReplaceIllFormedUtf8(text) == text;
    valid += expected;
    ASSERT_EQ(IsValidUtf8(text), expected) << testing::PrintToString(text);
  }
  EXPECT_GT(valid, 1000u);  // both answers are exercised
  EXPECT_LT(valid, 99000u);
}

}  // namespace
}  // namespace arcs

namespace arcs {
namespace {

// JsonPlainPrefix scans 16, 32 or 64 bytes at a time: a special byte at every offset of strings of
// every length around those widths ends the run there; every other byte, 0x20, DEL and UTF-8
// included, belongs to it.
TEST(Strings, JsonPlainPrefixStopsAtTheFirstByteAJsonStringMustEscape) {
  for (std::size_t length = 0; length <= 150; ++length) {
    const std::string plain(length, 'a');
    EXPECT_EQ(JsonPlainPrefix(plain), length);
    for (std::size_t at = 0; at < length; ++at) {
      for (char special : {'"', '\\', '\0', '\x01', '\n', '\x1F'}) {
        std::string text = plain;
        text[at] = special;
        EXPECT_EQ(JsonPlainPrefix(text), at) << length << " " << at << " " << int(special);
      }
    }
  }
  std::string mixed;
  for (int i = 0; i < 8; ++i) mixed += " \x7F\xC3\xA9\xF0\x9F\x98\x80/0123456789abcdef\xFF";
  EXPECT_EQ(JsonPlainPrefix(mixed), mixed.size());
}

}  // namespace
}  // namespace arcs

namespace arcs {
namespace {

// One U+FFFD per byte that begins no well-formed sequence, as Go reads ill-formed text; the
// well-formed bytes around them are kept as they are.
TEST(Strings, ReplaceIllFormedUtf8ReplacesByteByByte) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(ReplaceIllFormedUtf8("plain \xC3\xA9 \xF0\x9F\x98\x80"),
            "plain \xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(ReplaceIllFormedUtf8("a\xE2\x82z"), "a" + fffd + fffd + "z");
  EXPECT_EQ(ReplaceIllFormedUtf8("\xFF\x80"), fffd + fffd);
  EXPECT_EQ(ReplaceIllFormedUtf8("0123456789abcdef\xE2"), "0123456789abcdef" + fffd);
  EXPECT_EQ(ReplaceIllFormedUtf8(""), "");
}

// Every length the word loads cover and past them, equal and with one byte changed at each
// position (each of the loads, and the bytes they overlap), against byte-by-byte comparison.
TEST(SameBytesTest, AgreesWithComparingEveryByte) {
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string a(n, 'x');
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + i % 26);
    const std::string copy = a;
    EXPECT_TRUE(SameBytes(a, copy)) << n;
    EXPECT_FALSE(SameBytes(a, a + "!")) << n;
    EXPECT_FALSE(SameBytes(a + "!", a)) << n;
    for (std::size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = static_cast<char>(b[i] ^ 0x80);
      EXPECT_FALSE(SameBytes(a, b)) << n << " at " << i;
      EXPECT_FALSE(SameBytes(b, a)) << n << " at " << i;
    }
  }
  const std::string line = "[\"prev_hash\",\"hash\"]";  // views into a longer text
  EXPECT_TRUE(SameBytes(std::string_view(line).substr(14, 4), "hash"));
  EXPECT_FALSE(SameBytes(std::string_view(line).substr(2, 4), "hash"));
}

// Every byte value at every offset of hex strings 0 to 40 bytes long (the words IsLowercaseHex
// reads, the last one overlapping), against a byte-at-a-time rule.
TEST(IsLowercaseHexTest, EveryByteAtEveryOffset) {
  const auto slowly = [](std::string_view text) {
    for (char c : text) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
    }
    return true;
  };
  for (std::size_t length = 0; length <= 40; ++length) {
    std::string text;
    for (std::size_t i = 0; i < length; ++i) text += "0123456789abcdef"[(i * 7) % 16];
    ASSERT_TRUE(IsLowercaseHex(text)) << text;
    for (std::size_t at = 0; at < length; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string changed = text;
        changed[at] = static_cast<char>(byte);
        ASSERT_EQ(IsLowercaseHex(changed), slowly(changed))
            << "length " << length << " at " << at << " byte " << byte;
      }
    }
  }
  EXPECT_FALSE(IsLowercaseHex("0123456789ABCDEF"));
  EXPECT_TRUE(IsLowercaseHex(""));
}

}  // namespace
}  // namespace arcs
