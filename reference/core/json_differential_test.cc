// The SIMD front end against RapidJSON's (json.h FrontEnd), through every entry point and option
// set (testing/json_differential.h): crafted texts aimed at the SIMD walk's own code (its escapes,
// token ends, and the texts it refuses after decoding strings in place), every vector file of
// every format whole and line by line, and mutations of those lines.
#include "reference/core/testing/json_differential.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/core/json_simd.h"
#include "reference/core/xoshiro.h"

namespace arcs::json {
namespace {

using testing::FrontEndDifference;

const std::vector<std::string>& CraftedTexts() {
  static const std::vector<std::string> texts = {
      // Values and whitespace.
      "0",
      "-0",
      "1.5e-3",
      "[]",
      "{}",
      " [ ] ",
      "\t{ }\r\n",
      "[[[]]]",
      "{\"a\":{\"b\":[1,{}]}}",
      "true",
      "false",
      "null",
      "\"\"",
      "[true,false,null]",
      "[1,\"a\",{\"b\":null}]",
      // Not JSON, at every kind of token.
      "",
      " ",
      "\n\t",
      "tru",
      "truex",
      "nul",
      "nulll",
      "f",
      "[tru]",
      "[true x]",
      "1x",
      "-",
      "--1",
      "01",
      "1.",
      "1.e3",
      "1e",
      "1e+",
      ".5",
      "+1",
      "1 2",
      "\"a\" \"b\"",
      "[1,]",
      "[,1]",
      "{,}",
      "{\"a\" 1}",
      "{\"a\":}",
      "{\"a\":1,}",
      "{1:2}",
      "[1 2]",
      "]",
      "}",
      "[}",
      "{]",
      ":",
      ",",
      "[1,2",
      "{\"a\":1",
      "\"abc",
      "tr\"ue\"",
      "1\"a\"",
      "[\"a\":1]",
      "{\"a\",1}",
      "{\"a\":1:2}",
      "1e400",
      "-1e-400",
      std::string(400, '7'),
      "[1e999,2]",
      // Strings: escapes of every kind, pairs, and what RapidJSON must decide.
      "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"",
      "\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\"",
      "\"\\u0000\"",
      "\"a\\u0000b\"",
      "\"\\uD800\"",
      "\"\\uDC00\"",
      "\"\\uD800\\u0041\"",
      "\"\\uD800\\uD800\"",
      "\"\\uD800x\"",
      "\"\\u12\"",
      "\"\\u12G4\"",
      "\"\\x\"",
      "\"\\\"",
      "\"\\",
      "\"\\u",
      "\"\\uD800\\u\"",
      "\"\\uDBFF\\uDFFF\"",
      "\"a\\nb\\u00",
      "\"{[:,]}\"",
      "\"\\n\\udc00\"",
      "\"\\n\\udc00\\x\"",
      "\"\\n\\x\"",
      "\"ab\\ncd\\\"ef\\q\"",
      // Refusals after strings were decoded in place.
      "[\"a\\nb\", 1x]",
      "{\"a\\\"\":1,}",
      "[\"\\u00e9\\n\",\"x\\ty\", tru]",
      "[\"\\n\"] 1",
      "{\"k\\n\":\"v\\t\",\"k\\n\":1, }",
      "[\"\\n\",\"\\uDC00\"]",
      "[\"\\n\",\"\\n\\uD800\"]",
      "{\"\\u0061\":1,\"a\":2}",
      "{\"a\":1,\"a\":2,\"a\":3}",
      // Read as Go, the walk decodes a lone surrogate as U+FFFD; refusals after that, before a
      // lone one it did not reach, with ill-formed UTF-8, and names equal once replaced.
      "[\"\\ud800\", 1x]",
      "[\"\\ud800\\n\", tru, \"\\udc00\"]",
      "[\"\\n\", 1x, \"\\udc00\"]",
      "[\"\\udc00\", \"\xff\"]",
      "[\"\\ud800\\ud800\\udc00\",\"\\udfff\\ud800\"]",
      "{\"\\ud800\":1,\"\\udbff\":2}",
      "{\"\\ud800\":1,\"\xef\xbf\xbd\":2,\"\\ufffd\":3}",
      // Raw bytes: control characters, NUL, ill-formed UTF-8, overlong forms, surrogates.
      std::string("\"a\x01\""),
      std::string("\"\x1f\""),
      std::string("[\"a\",\x01]"),
      std::string("\"a\0b\"", 5),
      std::string("[1,\0]", 5),
      "\"\xff\"",
      "\"\xc0\xaf\"",
      "\"\xed\xa0\x80\"",
      "\"\xf4\x90\x80\x80\"",
      "[\"\xe2\x82\"]",
      "\"\xe2\x82\xac\"",
      "\xef\xbb\xbf[]",
      "[\"\\n\",\"\xff\"]",
      // Bounds: depth 3 and 5 values are among the option sets.
      "[[[1]]]",
      "[[[[1]]]]",
      "{\"a\":{\"b\":{\"c\":{}}}}",
      "[1,2,3,4]",
      "[1,2,3,4,5]",
      "[\"\\n\",[[[\"\\t\"]]]]",
      "[\"\\n\",1,2,3,4,5]",
  };
  return texts;
}

TEST(JsonFrontEnds, DecideCraftedTextsAlike) {
  for (const std::string& text : CraftedTexts()) {
    EXPECT_EQ(FrontEndDifference(text), "") << "text: " << text;
  }
}

// The agreement above would hold as well if the SIMD walk refused every text: it must decide valid
// texts itself, and reach its refusal after decoding strings in place.
TEST(JsonFrontEnds, SimdWalkDecidesValidTextsItself) {
  const internal::SimdCounts before = internal::ThisThreadSimdCounts();
  Document doc;
  for (const char* text :
       {"[1,\"a\\n\",{\"b\":null}]", "\"\\ud83d\\ude00\"", "{\"a\":1,\"a\":2}"}) {
    EXPECT_TRUE(doc.Parse(text)) << text;
  }
  EXPECT_FALSE(doc.Parse("[\"a\\nb\", 1x]"));
  EXPECT_FALSE(doc.Parse("[1, 1x]"));
  // Read as Go, lone surrogates need no repair before the walk: it decodes them itself.
  const ParseOptions as_go{.bad_unicode = BadUnicode::kReplaceAsGo};
  EXPECT_TRUE(doc.Parse("[\"\\ud800\",\"x\\udfffy\"]", as_go));
  EXPECT_EQ(doc.root().items()[1].text(), "x\xEF\xBF\xBDy");
  const internal::SimdCounts& after = internal::ThisThreadSimdCounts();
  EXPECT_EQ(after.accepted - before.accepted, 4u);
  EXPECT_EQ(after.neutralized - before.neutralized, 1u);
  EXPECT_EQ(after.refused - before.refused, 1u);
}

// Stage 1 indexes a text in pieces, each ended just past a closing quote and the structural
// character after it. Cut into pieces of every size, a text with strings that hold what a cut looks
// for (`",` escaped, after an escaped backslash, or at the start of a string, where the quote
// before it opens the string) is decided alike, and by the walk itself: a piece found to end
// inside a string is cut again before the quote that opened it.
TEST(JsonFrontEnds, SimdWalkDecidesTextsIndexedInPiecesItself) {
  const std::string object =
      "{\"a\":[1,-2.5e3,true,false,null,\"x\\\",y\",\"\\\\\",\",z\"],"
      "\"b\" : { \"c\":\"\\u00e9\\n\" ,\"d\":[[],{}]} ,\"e\":\"]\",\"f\":12345678,"
      "\"g\":\":}\",\"h\":[\"\\ud83d\\ude00\",0]}";
  const std::string text = "[" + object + "," + object + "," + object + "]";
  constexpr std::size_t kCutsAtLeastEvery = 40;  // bytes: the text's longest run without a place
  std::size_t cut = 0;
  for (std::size_t piece_bytes = 1; piece_bytes <= text.size(); ++piece_bytes) {
    const std::size_t sizes[] = {piece_bytes};
    ASSERT_EQ(FrontEndDifference(text, sizes), "") << "pieces of " << piece_bytes;
    internal::SetStage1PieceBytes(piece_bytes);
    const internal::SimdCounts before = internal::ThisThreadSimdCounts();
    Document doc;
    EXPECT_TRUE(doc.Parse(text)) << "pieces of " << piece_bytes;
    const internal::SimdCounts& after = internal::ThisThreadSimdCounts();
    EXPECT_EQ(after.accepted - before.accepted, 1u) << "pieces of " << piece_bytes;
    const std::uint64_t pieces = after.pieces - before.pieces;
    if (pieces > 1) ++cut;
    // Where each piece finds a place to cut, the text is cut until less than two pieces are left:
    // one found to end inside a string does not stop the cutting.
    if (piece_bytes >= kCutsAtLeastEvery) {
      EXPECT_GE((pieces + 2) * piece_bytes, text.size()) << "pieces of " << piece_bytes;
    }
  }
  internal::SetStage1PieceBytes(internal::kStage1PieceBytes);
  EXPECT_GT(cut, text.size() / 4);
}

// Long strings cross simdjson's 64-byte blocks and our 16-byte scans at every alignment.
TEST(JsonFrontEnds, DecideLongStringsAlike) {
  for (std::size_t length = 0; length < 300; length += 7) {
    const std::string plain(length, 'x');
    std::string escaped;
    for (std::size_t i = 0; i < length; ++i) escaped += i % 5 == 0 ? "\\n" : "y";
    for (const std::string& text :
         {"\"" + plain + "\"", "[\"" + escaped + "\",\"" + plain + "\"]",
          "{\"" + escaped + "\":\"" + escaped + "\\x\"}", "[\"" + escaped + "\"," + plain + "]"}) {
      EXPECT_EQ(FrontEndDifference(text), "") << "text: " << text;
    }
  }
}

// Strings of up to 16 bytes are looked over for a backslash in a word or two before any decoding:
// an escape at each place of each such length, as a name and as a value, decoded by the walk.
TEST(JsonFrontEnds, DecideShortStringsAlike) {
  for (std::size_t length = 0; length <= 20; ++length) {
    for (std::size_t at = 0; at <= length; ++at) {
      for (const auto& [escape, decoded] : {std::pair<std::string, std::string>{"\\n", "\n"},
                                            {"\\\\", "\\"},
                                            {"\\u00e9", "\xC3\xA9"},
                                            {"", ""}}) {
        const std::string body = std::string(at, 'a') + escape + std::string(length - at, 'b');
        if (body.size() > 20) continue;
        const std::string text = "{\"" + body + "\":\"" + body + "\"}";
        ASSERT_EQ(FrontEndDifference(text), "") << text;
        Document doc;
        const std::uint64_t before = internal::ThisThreadSimdCounts().accepted;
        ASSERT_TRUE(doc.Parse(text)) << text;
        EXPECT_EQ(internal::ThisThreadSimdCounts().accepted - before, 1u) << text;
        const std::string expected = std::string(at, 'a') + decoded + std::string(length - at, 'b');
        EXPECT_EQ(doc.root().members()[0].name, expected) << text;
        EXPECT_EQ(doc.root().members()[0].value.text(), expected) << text;
      }
    }
  }
}

// Escapes are decoded a block at a time: with AVX-512 VBMI2, all the two-character ones of a
// 64-byte block together, the block cut before a \u escape, one that is not JSON, or one split by
// the block's end; with AVX2 (AVX-512BW without VBMI2 too), a 32-byte block cut at each escape.
// Each escape (and runs of backslashes, where only every other one begins an escape) at every
// offset across two block edges, in strings decoded whole and cut, with a valid text's decoding
// decided by the SIMD walk itself, not left to RapidJSON.
TEST(JsonFrontEnds, DecideEscapesAtEveryOffsetOfABlockAlike) {
  const std::vector<std::string> escapes = {"\\n",
                                            "\\\\",
                                            "\\\"",
                                            "\\/",
                                            "\\b",
                                            "\\f",
                                            "\\r",
                                            "\\t",
                                            "\\u00e9",
                                            "\\u0000",
                                            "\\ud83d\\ude00",
                                            "\\\\\\n",
                                            "\\\\\\\\",
                                            "\\\\\\\"",
                                            "\\\\\\u0041",
                                            "\\\\\\\\\\t",
                                            "é\\n",
                                            "\\n\\n\\t",
                                            "\\x",
                                            "\\u12",
                                            "\\udc00",
                                            "\\ud83d",
                                            "\\\\\\x",
                                            "\\\xc3\xa9"};
  std::size_t valid = 0;
  std::size_t accepted_by_the_walk = 0;
  for (const std::string& escape : escapes) {
    for (std::size_t at = 0; at < 140; ++at) {
      const std::string text = "[\"" + std::string(at, 'p') + escape + std::string(70, 'q') +
                               "\\n" + std::string(at % 9, 'r') + "\"]";
      ASSERT_EQ(FrontEndDifference(text), "") << "text: " << text;
      Document doc;
      const std::uint64_t before = internal::ThisThreadSimdCounts().accepted;
      if (doc.Parse(text)) ++valid;
      accepted_by_the_walk += internal::ThisThreadSimdCounts().accepted - before;
    }
  }
  EXPECT_EQ(valid, 18u * 140u);
  EXPECT_EQ(accepted_by_the_walk, valid);
}

// A \u escape's four digits are read as one word, and an escape's letter is looked up in a table:
// every code unit outside the surrogates in one text (even units in lowercase hex, odd ones in
// uppercase), each byte value at each digit of an escape and of a pair's second half, and each
// byte value after a backslash (then four hex digits), against RapidJSON's decoding.
TEST(JsonFrontEnds, DecideEveryUnicodeEscapeAlike) {
  std::string all = "[";
  for (unsigned unit = 0; unit < 0x10000; ++unit) {
    if (unit >= 0xD800 && unit <= 0xDFFF) continue;
    char escape[16];
    std::snprintf(escape, sizeof escape, unit % 2 ? "\"\\u%04X\"," : "\"\\u%04x\",", unit);
    all += escape;
  }
  all.back() = ']';
  ASSERT_EQ(FrontEndDifference(all), "");
  Document doc;
  ASSERT_TRUE(doc.Parse(all));
  ASSERT_EQ(doc.root().items().size(), 0x10000u - 0x800u);
  EXPECT_EQ(doc.root().items()[0].text(), std::string(1, '\0'));
  EXPECT_EQ(doc.root().items()[0xE9].text(), "\xC3\xA9");
  EXPECT_EQ(doc.root().items()[0xABCD].text(), "\xEA\xAF\x8D");
  EXPECT_EQ(doc.root().items().back().text(), "\xEF\xBF\xBF");
  for (std::size_t digit = 0; digit < 4; ++digit) {
    for (unsigned byte = 0; byte < 256; ++byte) {
      std::string single = "\\u0041";
      std::string pair = "\\ud83d\\ude00";
      single[2 + digit] = static_cast<char>(byte);
      pair[8 + digit] = static_cast<char>(byte);
      for (const std::string& escape : {single, pair}) {
        const std::string text = "[\"a" + escape + "b\"]";
        ASSERT_EQ(FrontEndDifference(text), "") << "digit " << digit << " byte " << byte;
      }
    }
  }
  for (unsigned byte = 0; byte < 256; ++byte) {
    const std::string text = "[\"a\\" + std::string(1, static_cast<char>(byte)) + "0041b\"]";
    ASSERT_EQ(FrontEndDifference(text), "") << "byte " << byte;
  }
}

// Decoded bytes are copied into place 16 KiB at a time: escapes of every length at and around
// that boundary, and a run of \u escapes across it.
TEST(JsonFrontEnds, DecideStringsAcrossTheDecodingChunkAlike) {
  for (std::size_t plain = 16300; plain < 16500; ++plain) {
    for (const char* escape : {"\\ud83d\\ude00", "\\u00e9\\u05d0\\u05d1", "\\t"}) {
      const std::string text = "[\"\\n" + std::string(plain, 'a') + escape + "b\"]";
      ASSERT_EQ(FrontEndDifference(text), "") << "plain " << plain << " " << escape;
    }
  }
}

std::vector<std::string> VectorFiles() {
  const char* root = std::getenv("ARCS_SOURCE_DIR");
  std::vector<std::string> files;
  if (root == nullptr) return files;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(root) / "vectors")) {
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  return files;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(JsonFrontEnds, DecideEveryVectorFileAndLineAlike) {
  const std::vector<std::string> files = VectorFiles();
  ASSERT_GT(files.size(), 1000u) << "ARCS_SOURCE_DIR/vectors not found";
  std::size_t texts = 0;
  for (const std::string& path : files) {
    Result<std::string> bytes = ReadFile(path);
    ASSERT_TRUE(bytes.ok()) << path;
    EXPECT_EQ(FrontEndDifference(*bytes), "") << path;
    ++texts;
    if (bytes->find('\n') + 1 >= bytes->size()) continue;  // one line: done above
    for (std::string_view line : Lines(*bytes)) {
      EXPECT_EQ(FrontEndDifference(line), "") << path << ": " << line.substr(0, 200);
      ++texts;
    }
  }
  EXPECT_GT(texts, files.size());
}

// Lines of the vectors with a few bytes changed, inserted or removed: mostly texts that are not
// JSON, at every kind of place, after every kind of string.
TEST(JsonFrontEnds, DecideMutatedVectorLinesAlike) {
  std::vector<std::string> lines;
  for (const std::string& path : VectorFiles()) {
    Result<std::string> bytes = ReadFile(path);
    if (!bytes.ok() || bytes->size() > 64 * 1024) continue;
    for (std::string_view line : Lines(*bytes)) lines.emplace_back(line);
  }
  ASSERT_FALSE(lines.empty());
  static constexpr char kBytes[] = "{}[]:,\"\\ \nux01-e.tfn\x01\x80\xff";
  Xoshiro256 random(29);
  for (int i = 0; i < 20000; ++i) {
    std::string text = lines[random.Next() % lines.size()];
    for (int edits = 1 + static_cast<int>(random.Next() % 3); edits > 0; --edits) {
      const std::size_t at = text.empty() ? 0 : random.Next() % text.size();
      const char byte = kBytes[random.Next() % (sizeof kBytes - 1)];
      switch (random.Next() % 3) {
        case 0:
          if (!text.empty()) text[at] = byte;
          break;
        case 1:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte);
          break;
        default:
          if (!text.empty()) text.erase(at, 1);
      }
    }
    EXPECT_EQ(FrontEndDifference(text), "") << "text: " << text.substr(0, 300);
  }
}

}  // namespace
}  // namespace arcs::json
