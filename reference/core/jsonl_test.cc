#include "reference/core/jsonl.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "reference/core/diagnostics.h"

namespace arcs::jsonl {
namespace {

using namespace std::string_literals;

constexpr std::size_t kReadBuffer = 1 << 20;  // the reader's buffer size, to aim at its edges
constexpr std::string_view kBom = "\xEF\xBB\xBF";

// A line copied out of the reader, so whole results can be compared.
struct Got {
  std::string text;
  std::uint64_t number = 0;
  std::uint64_t offset = 0;
  Ending ending = Ending::kLf;
  bool bom = false;
  bool too_long = false;
  std::uint64_t length = 0;
  bool operator==(const Got&) const = default;
};

const char* EndingName(Ending ending) {
  switch (ending) {
    case Ending::kLf:
      return "LF";
    case Ending::kCrLf:
      return "CRLF";
    case Ending::kNone:
      return "none";
  }
  return "?";
}

std::string Escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\r') {
      out += "\\r";
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[static_cast<unsigned char>(c) >> 4];
      out += kHex[static_cast<unsigned char>(c) & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

std::ostream& operator<<(std::ostream& os, const Got& got) {
  os << "{#" << got.number << " @" << got.offset << " \"";
  // Huge texts would drown the failure message.
  if (got.text.size() > 64) {
    os << Escape(got.text.substr(0, 64)) << "...(" << got.text.size() << " bytes)";
  } else {
    os << Escape(got.text);
  }
  return os << "\" " << EndingName(got.ending) << (got.bom ? " bom" : "")
            << (got.too_long ? " too_long" : "") << " len=" << got.length << "}";
}

Got Copy(const Line& line) {
  return {std::string(line.text), line.number, line.offset, line.ending, line.bom,
          line.too_long,          line.length};
}

struct Outcome {
  std::vector<Got> lines;
  Status status;  // ok when the input ended normally
  std::uint64_t bytes_read = 0;
};

Outcome ReadAll(ByteSource* source, LineOptions options = {}) {
  Outcome out;
  LineReader reader(source, options);
  Line line;
  for (;;) {
    Result<bool> next = reader.Next(&line);
    if (!next.ok()) {
      out.status = next.status();
      // The reader stops at an error and keeps reporting it.
      Result<bool> again = reader.Next(&line);
      EXPECT_FALSE(again.ok());
      EXPECT_EQ(again.status().code(), out.status.code());
      break;
    }
    if (!*next) {
      // End of input is sticky too.
      Result<bool> again = reader.Next(&line);
      EXPECT_TRUE(again.ok() && !*again);
      break;
    }
    out.lines.push_back(Copy(line));
  }
  out.bytes_read = reader.bytes_read();
  return out;
}

// Hands out at most a few bytes per read, cycling through `pattern`, so that every line ending,
// BOM and line straddles refills of the reader's buffer.
class ChunkSource : public ByteSource {
 public:
  ChunkSource(std::string_view bytes, std::vector<std::size_t> pattern)
      : bytes_(bytes), pattern_(std::move(pattern)) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override {
    const std::size_t n = std::min({size, bytes_.size(), pattern_[next_++ % pattern_.size()]});
    std::memcpy(buf, bytes_.data(), n);
    bytes_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view bytes_;
  std::vector<std::size_t> pattern_;
  std::size_t next_ = 0;
};

// Bytes in use on the heap (glibc), to show that reading does not buffer the input. Returns 0
// where this cannot be measured (then the memory checks pass trivially).
std::size_t HeapInUse() {
#if defined(__GLIBC__)
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
#else
  return 0;
#endif
}

// Generates `total` bytes repeating `unit`, then `tail`, without ever holding the input: the
// only way to feed hundreds of MiB cheaply. Records the peak heap use seen during reads.
class RepeatingSource : public ByteSource {
 public:
  RepeatingSource(std::string_view unit, std::uint64_t total, std::string tail = "")
      : unit_size_(unit.size()), total_(total), tail_(std::move(tail)) {
    while (pattern_.size() < kReadBuffer + unit.size()) pattern_ += unit;
  }
  Result<std::size_t> Read(char* buf, std::size_t size) override {
    peak_heap_ = std::max(peak_heap_, HeapInUse());
    if (position_ < total_) {
      const std::size_t start = position_ % unit_size_;
      const std::size_t n = static_cast<std::size_t>(
          std::min<std::uint64_t>({size, total_ - position_, pattern_.size() - start}));
      std::memcpy(buf, pattern_.data() + start, n);
      position_ += n;
      return n;
    }
    const std::size_t done = static_cast<std::size_t>(position_ - total_);
    const std::size_t n = std::min(size, tail_.size() - done);
    std::memcpy(buf, tail_.data() + done, n);
    position_ += n;
    return n;
  }
  std::size_t peak_heap() const { return peak_heap_; }

 private:
  std::string pattern_;
  std::size_t unit_size_;
  std::uint64_t total_;
  std::string tail_;
  std::uint64_t position_ = 0;
  std::size_t peak_heap_ = 0;
};

// Fails after handing out `bytes`, with the given status.
class FailingSource : public ByteSource {
 public:
  FailingSource(std::string_view bytes, Status failure)
      : bytes_(bytes), failure_(std::move(failure)) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override {
    if (bytes_.empty()) return failure_;
    const std::size_t n = std::min(size, bytes_.size());
    std::memcpy(buf, bytes_.data(), n);
    bytes_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view bytes_;
  Status failure_;
};

// The specification written as plainly as possible, on a whole string, to check the streaming
// reader against.
std::vector<Got> Split(std::string_view input, std::uint64_t max_line_bytes) {
  std::vector<Got> out;
  std::size_t pos = 0;
  const bool bom = input.starts_with(kBom);
  if (bom) pos = kBom.size();
  for (;;) {
    if (pos == input.size()) {
      // Only a BOM: line 1 exists, with nothing in it, so the BOM is still reported.
      if (bom && out.empty()) {
        out.push_back({"", 1, pos, Ending::kNone, true, false, 0});
      }
      break;
    }
    const std::size_t newline = input.find('\n', pos);
    std::string_view text;
    Ending ending;
    std::size_t next;
    if (newline == std::string_view::npos) {
      text = input.substr(pos);
      ending = Ending::kNone;
      next = input.size();
    } else {
      text = input.substr(pos, newline - pos);
      ending = Ending::kLf;
      if (text.ends_with('\r')) {
        text.remove_suffix(1);
        ending = Ending::kCrLf;
      }
      next = newline + 1;
    }
    const bool too_long = text.size() > max_line_bytes;
    out.push_back({too_long ? "" : std::string(text), out.size() + 1, pos, ending,
                   bom && out.empty(), too_long, text.size()});
    pos = next;
  }
  return out;
}

// Reads `input` through several sources that chunk it differently; all must agree with Split().
// Chunkings for inputs of a few bytes: every byte boundary is a read boundary.
const std::vector<std::vector<std::size_t>> kTinyChunks = {
    {1}, {2}, {3}, {1, 2, 3, 4, 5, 6, 7}, {7, 1, 5, 2, 2, 6, 3}};
// Chunkings for inputs of several MiB: still uneven, without millions of reads.
const std::vector<std::vector<std::size_t>> kLargeChunks = {
    {4099}, {65521, 1, 2, 3}, {(1 << 20) - 1, 2}};

void ExpectSplitsLikeSpec(std::string_view input, LineOptions options = {},
                          const std::vector<std::vector<std::size_t>>& patterns = kTinyChunks) {
  SCOPED_TRACE("input \"" + Escape(input.substr(0, 80)) + "\" (" + std::to_string(input.size()) +
               " bytes), max_line_bytes " + std::to_string(options.max_line_bytes));
  const std::vector<Got> expected = Split(input, options.max_line_bytes);
  {
    MemorySource source(input);
    const Outcome got = ReadAll(&source, options);
    EXPECT_TRUE(got.status.ok()) << got.status.ToString();
    EXPECT_EQ(got.lines, expected) << "whole";
    EXPECT_EQ(got.bytes_read, input.size());
  }
  for (const auto& pattern : patterns) {
    ChunkSource source(input, pattern);
    const Outcome got = ReadAll(&source, options);
    EXPECT_TRUE(got.status.ok()) << got.status.ToString();
    EXPECT_EQ(got.lines, expected) << "chunks starting with " << pattern[0];
    EXPECT_EQ(got.bytes_read, input.size());
  }
}

Outcome ReadString(std::string_view input, LineOptions options = {}) {
  MemorySource source(input);
  return ReadAll(&source, options);
}

TEST(LineReaderTest, EmptyInputHasNoLines) {
  const Outcome got = ReadString("");
  EXPECT_TRUE(got.status.ok());
  EXPECT_TRUE(got.lines.empty());
  EXPECT_EQ(got.bytes_read, 0u);
  ExpectSplitsLikeSpec("");
}

TEST(LineReaderTest, OnlyNewlineIsOneEmptyLine) {
  const Outcome got = ReadString("\n");
  ASSERT_TRUE(got.status.ok());
  ASSERT_EQ(got.lines.size(), 1u);
  EXPECT_EQ(got.lines[0], (Got{"", 1, 0, Ending::kLf, false, false, 0}));
  EXPECT_EQ(got.bytes_read, 1u);
}

TEST(LineReaderTest, EndingsAreReportedAndRemoved) {
  const Outcome got = ReadString("a\nbb\r\nc\rd\ne");
  ASSERT_TRUE(got.status.ok());
  const std::vector<Got> expected = {
      {"a", 1, 0, Ending::kLf, false, false, 1},
      {"bb", 2, 2, Ending::kCrLf, false, false, 2},
      {"c\rd", 3, 6, Ending::kLf, false, false, 3},
      {"e", 4, 10, Ending::kNone, false, false, 1},
  };
  EXPECT_EQ(got.lines, expected);
}

TEST(LineReaderTest, FinalNewlineDoesNotOpenAnEmptyLine) {
  EXPECT_EQ(ReadString("a\n").lines, (std::vector<Got>{{"a", 1, 0, Ending::kLf, false, false, 1}}));
  EXPECT_EQ(ReadString("a\r\n").lines,
            (std::vector<Got>{{"a", 1, 0, Ending::kCrLf, false, false, 1}}));
  EXPECT_EQ(ReadString("a\n\n").lines,
            (std::vector<Got>{{"a", 1, 0, Ending::kLf, false, false, 1},
                              {"", 2, 2, Ending::kLf, false, false, 0}}));
}

TEST(LineReaderTest, LoneCarriageReturnStaysInText) {
  // JSONL ends lines with "\n" only; a '\r' not followed by one is an ordinary byte.
  EXPECT_EQ(ReadString("\r").lines,
            (std::vector<Got>{{"\r", 1, 0, Ending::kNone, false, false, 1}}));
  EXPECT_EQ(ReadString("a\r").lines,
            (std::vector<Got>{{"a\r", 1, 0, Ending::kNone, false, false, 2}}));
  EXPECT_EQ(ReadString("\r\r\n").lines,
            (std::vector<Got>{{"\r", 1, 0, Ending::kCrLf, false, false, 1}}));
  EXPECT_EQ(ReadString("a\rb\r\rc\n").lines,
            (std::vector<Got>{{"a\rb\r\rc", 1, 0, Ending::kLf, false, false, 6}}));
  EXPECT_EQ(ReadString("\r\n").lines,
            (std::vector<Got>{{"", 1, 0, Ending::kCrLf, false, false, 0}}));
}

TEST(LineReaderTest, EveryShortCombinationMatchesSpec) {
  // All strings of up to five bytes over {a, \r, \n}, with and without a BOM, with and without a
  // tight line limit, read whole and in pieces: every ending next to every other, at every read
  // boundary. (Each reader owns a 1 MiB buffer, so the case count is kept modest for sanitizers.)
  const char kAlphabet[] = {'a', '\r', '\n'};
  std::vector<std::string> inputs = {""};
  for (std::size_t begin = 0, length = 1; length <= 5; ++length) {
    const std::size_t end = inputs.size();
    for (std::size_t i = begin; i < end; ++i) {
      for (const char c : kAlphabet) inputs.push_back(inputs[i] + c);
    }
    begin = end;
  }
  const std::vector<std::vector<std::size_t>> chunks = {{1}, {2, 1, 3}, {1, 2, 3, 4, 5, 6, 7}};
  for (const std::string& body : inputs) {
    for (const std::uint64_t max_line : {std::uint64_t{1}, LineOptions{}.max_line_bytes}) {
      LineOptions options;
      options.max_line_bytes = max_line;
      ExpectSplitsLikeSpec(body, options, chunks);
      ExpectSplitsLikeSpec(std::string(kBom) + body, options, chunks);
    }
    if (HasFailure()) return;  // one broken case is enough to read
  }
}

TEST(LineReaderTest, BomOnFirstLineIsStripped) {
  const Outcome got = ReadString("\xEF\xBB\xBF{}\n[]\n");
  ASSERT_TRUE(got.status.ok());
  const std::vector<Got> expected = {
      {"{}", 1, 3, Ending::kLf, true, false, 2},
      {"[]", 2, 6, Ending::kLf, false, false, 2},
  };
  EXPECT_EQ(got.lines, expected);
  EXPECT_EQ(got.bytes_read, 9u);
}

TEST(LineReaderTest, BomElsewhereIsJustBytes) {
  EXPECT_EQ(ReadString("a\n\xEF\xBB\xBF"
                       "b\n")
                .lines,
            (std::vector<Got>{{"a", 1, 0, Ending::kLf, false, false, 1},
                              {"\xEF\xBB\xBF"
                               "b",
                               2, 2, Ending::kLf, false, false, 4}}));
  // Only one BOM is removed; a second is text.
  EXPECT_EQ(ReadString("\xEF\xBB\xBF\xEF\xBB\xBF"
                       "a")
                .lines,
            (std::vector<Got>{{"\xEF\xBB\xBF"
                               "a",
                               1, 3, Ending::kNone, true, false, 4}}));
  // Not at byte 0.
  EXPECT_EQ(ReadString(" \xEF\xBB\xBF").lines,
            (std::vector<Got>{{" \xEF\xBB\xBF", 1, 0, Ending::kNone, false, false, 4}}));
}

TEST(LineReaderTest, PartialBomIsText) {
  EXPECT_EQ(ReadString("\xEF\xBB").lines,
            (std::vector<Got>{{"\xEF\xBB", 1, 0, Ending::kNone, false, false, 2}}));
  EXPECT_EQ(ReadString("\xEF\xBBx\n").lines,
            (std::vector<Got>{{"\xEF\xBBx", 1, 0, Ending::kLf, false, false, 3}}));
  EXPECT_EQ(ReadString("\xEF\n").lines,
            (std::vector<Got>{{"\xEF", 1, 0, Ending::kLf, false, false, 1}}));
}

TEST(LineReaderTest, BomAloneIsAnEmptyFirstLine) {
  // The file is not empty: line 1 exists and carries the BOM, so a format can judge it.
  EXPECT_EQ(ReadString(kBom).lines, (std::vector<Got>{{"", 1, 3, Ending::kNone, true, false, 0}}));
  EXPECT_EQ(ReadString("\xEF\xBB\xBF\n").lines,
            (std::vector<Got>{{"", 1, 3, Ending::kLf, true, false, 0}}));
  EXPECT_EQ(ReadString("\xEF\xBB\xBF\r\n").lines,
            (std::vector<Got>{{"", 1, 3, Ending::kCrLf, true, false, 0}}));
}

TEST(LineReaderTest, BomArrivingOneByteAtATime) {
  const std::string input =
      "\xEF\xBB\xBF"
      "ab\r\ncd";
  ChunkSource source(input, {1});
  const Outcome got = ReadAll(&source);
  EXPECT_EQ(got.lines, (std::vector<Got>{{"ab", 1, 3, Ending::kCrLf, true, false, 2},
                                         {"cd", 2, 7, Ending::kNone, false, false, 2}}));
}

TEST(LineReaderTest, BomDoesNotCountTowardLineLimit) {
  LineOptions options;
  options.max_line_bytes = 2;
  EXPECT_EQ(ReadString("\xEF\xBB\xBF"
                       "ab\n",
                       options)
                .lines,
            (std::vector<Got>{{"ab", 1, 3, Ending::kLf, true, false, 2}}));
  EXPECT_EQ(ReadString("\xEF\xBB\xBF"
                       "abc\n",
                       options)
                .lines,
            (std::vector<Got>{{"", 1, 3, Ending::kLf, true, true, 3}}));
}

TEST(LineReaderTest, TooLongLineIsSkippedAndReadingGoesOn) {
  LineOptions options;
  options.max_line_bytes = 4;
  const Outcome got = ReadString("12345\nabc\n1234\n123456789\r\nxy", options);
  ASSERT_TRUE(got.status.ok());
  const std::vector<Got> expected = {
      {"", 1, 0, Ending::kLf, false, true, 5},       {"abc", 2, 6, Ending::kLf, false, false, 3},
      {"1234", 3, 10, Ending::kLf, false, false, 4}, {"", 4, 15, Ending::kCrLf, false, true, 9},
      {"xy", 5, 26, Ending::kNone, false, false, 2},
  };
  EXPECT_EQ(got.lines, expected);
}

TEST(LineReaderTest, LineLimitExcludesTheEnding) {
  LineOptions options;
  options.max_line_bytes = 4;
  // Exactly at the limit, whatever the ending.
  EXPECT_EQ(ReadString("1234\r\n", options).lines,
            (std::vector<Got>{{"1234", 1, 0, Ending::kCrLf, false, false, 4}}));
  EXPECT_EQ(ReadString("1234", options).lines,
            (std::vector<Got>{{"1234", 1, 0, Ending::kNone, false, false, 4}}));
  // A final lone '\r' is text, so it counts.
  EXPECT_EQ(ReadString("1234\r", options).lines,
            (std::vector<Got>{{"", 1, 0, Ending::kNone, false, true, 5}}));
  EXPECT_EQ(ReadString("12345", options).lines,
            (std::vector<Got>{{"", 1, 0, Ending::kNone, false, true, 5}}));
}

TEST(LineReaderTest, ZeroLineLimitKeepsOnlyEmptyLines) {
  LineOptions options;
  options.max_line_bytes = 0;
  EXPECT_EQ(ReadString("\n\r\na\n", options).lines,
            (std::vector<Got>{{"", 1, 0, Ending::kLf, false, false, 0},
                              {"", 2, 1, Ending::kCrLf, false, false, 0},
                              {"", 3, 3, Ending::kLf, false, true, 1}}));
}

std::string Repeat(char c, std::size_t n) { return std::string(n, c); }

TEST(LineReaderTest, LongLinesStraddlingBufferRefills) {
  // Lines ending just before, on and after each buffer boundary, with both endings, and a "\r\n"
  // split across two reads.
  const std::size_t b = kReadBuffer;
  const std::vector<std::string> inputs = {
      Repeat('x', b - 1) + "\n" + "tail\n",
      Repeat('x', b) + "\n" + "tail",
      Repeat('x', b + 1) + "\n",
      Repeat('x', b - 1) + "\r\n" + "tail\r\n",  // '\r' is the buffer's last byte
      Repeat('x', b - 2) + "\r\n" + "tail\r\n",  // '\n' is the buffer's last byte
      Repeat('x', b) + "\r\n",                   // "\r\n" starts the next buffer
      Repeat('x', b - 1) + "\r" + "y\n",         // '\r' at the edge is text after all
      Repeat('x', 3 * b + 17) + "\n" + Repeat('y', 2 * b) + "\r\n" + "z",
      "a\n" + Repeat('x', b - 3) + "\n" + Repeat('y', b - 1) + "\n" + "b",
      Repeat('x', 2 * b) + "\r",
  };
  for (const std::string& input : inputs) {
    ExpectSplitsLikeSpec(input, {}, kLargeChunks);
  }
}

TEST(LineReaderTest, LongLinesOverTheLimitAcrossRefills) {
  const std::size_t b = kReadBuffer;
  LineOptions options;
  options.max_line_bytes = 100;
  ExpectSplitsLikeSpec(Repeat('x', 3 * b) + "\r\nok\n" + Repeat('y', b + 5) + "\nfine", options,
                       kLargeChunks);
  // Limits near the buffer size: the kept part itself spans refills.
  options.max_line_bytes = b;
  ExpectSplitsLikeSpec(
      Repeat('x', b) + "\r\n" + Repeat('x', b + 1) + "\r\n" + Repeat('x', b) + "\r", options,
      kLargeChunks);
}

TEST(LineReaderTest, ManyLinesInSmallChunksMatchSpec) {
  // A pseudo-random mix of line lengths, endings, and stray '\r', read in tiny pieces.
  std::mt19937 random(12345);
  std::string input;
  while (input.size() < 200000) {
    const std::size_t length = random() % 50;
    for (std::size_t i = 0; i < length; ++i) input += (random() % 17 == 0) ? '\r' : 'a' + i % 26;
    input += (random() % 3 == 0) ? "\r\n" : "\n";
  }
  input += "last";
  LineOptions options;
  options.max_line_bytes = 30;
  ExpectSplitsLikeSpec(input, options);
}

TEST(LineReaderTest, TotalLimitStopsReading) {
  LineOptions options;
  options.max_total_bytes = 10;
  // Exactly at the limit is fine.
  Outcome got = ReadString("123456789\n", options);
  EXPECT_TRUE(got.status.ok()) << got.status.ToString();
  EXPECT_EQ(got.lines.size(), 1u);
  got = ReadString("123456789X", options);
  EXPECT_TRUE(got.status.ok()) << got.status.ToString();
  EXPECT_EQ(got.lines.size(), 1u);

  // One byte more is not: the complete line before the limit still comes back.
  got = ReadString("123456789\nX", options);
  EXPECT_EQ(got.status.code(), StatusCode::kLimitExceeded);
  EXPECT_NE(got.status.message().find("max_total_bytes"), std::string::npos)
      << got.status.message();
  EXPECT_NE(got.status.message().find("10"), std::string::npos) << got.status.message();
  EXPECT_EQ(got.lines.size(), 1u);
  EXPECT_EQ(got.bytes_read, 11u);

  // In the middle of a line.
  got = ReadString("12345\n1234567890\n", options);
  EXPECT_EQ(got.status.code(), StatusCode::kLimitExceeded);
  ASSERT_EQ(got.lines.size(), 1u);
  EXPECT_EQ(got.lines[0].text, "12345");
}

TEST(LineReaderTest, TotalLimitDoesNotDependOnChunking) {
  LineOptions options;
  options.max_total_bytes = 12;
  const std::string input = "ab\ncd\r\nef\ngh\nij\n";
  MemorySource whole(input);
  const Outcome expected = ReadAll(&whole, options);
  EXPECT_EQ(expected.status.code(), StatusCode::kLimitExceeded);
  EXPECT_EQ(expected.lines.size(), 3u);
  for (const std::vector<std::size_t>& pattern :
       std::vector<std::vector<std::size_t>>{{1}, {2}, {5, 1, 3}, {7}}) {
    ChunkSource source(input, pattern);
    const Outcome got = ReadAll(&source, options);
    EXPECT_EQ(got.status.code(), StatusCode::kLimitExceeded);
    EXPECT_EQ(got.lines, expected.lines);
    EXPECT_EQ(got.bytes_read, 13u);
  }
}

TEST(LineReaderTest, TotalLimitCountsTheBom) {
  LineOptions options;
  options.max_total_bytes = 4;
  EXPECT_EQ(ReadString("\xEF\xBB\xBF"
                       "ab",
                       options)
                .status.code(),
            StatusCode::kLimitExceeded);
  options.max_total_bytes = 5;
  EXPECT_TRUE(ReadString("\xEF\xBB\xBF"
                         "ab",
                         options)
                  .status.ok());
}

TEST(LineReaderTest, ZeroTotalLimit) {
  LineOptions options;
  options.max_total_bytes = 0;
  EXPECT_TRUE(ReadString("", options).status.ok());
  EXPECT_EQ(ReadString("\n", options).status.code(), StatusCode::kLimitExceeded);
}

TEST(LineReaderTest, SourceErrorIsIoError) {
  FailingSource source("ab\ncd", Status(StatusCode::kIoError, "disk on fire"));
  const Outcome got = ReadAll(&source);
  EXPECT_EQ(got.status.code(), StatusCode::kIoError);
  EXPECT_NE(got.status.message().find("disk on fire"), std::string::npos);
  // The complete line before the failure is delivered; the unfinished one is not.
  EXPECT_EQ(got.lines, (std::vector<Got>{{"ab", 1, 0, Ending::kLf, false, false, 2}}));
}

TEST(LineReaderTest, OtherSourceFailuresBecomeIoErrors) {
  FailingSource source("", Status(StatusCode::kParseError, "odd source"));
  const Outcome got = ReadAll(&source);
  EXPECT_EQ(got.status.code(), StatusCode::kIoError);
  EXPECT_NE(got.status.message().find("odd source"), std::string::npos);
}

TEST(LineReaderTest, SourceClaimingTooManyBytesIsIoError) {
  class Liar : public ByteSource {
   public:
    Result<std::size_t> Read(char*, std::size_t size) override { return size + 1; }
  };
  Liar source;
  EXPECT_EQ(ReadAll(&source).status.code(), StatusCode::kIoError);
}

TEST(LineReaderTest, LinesAreNumberedAndCountBytes) {
  std::string input;
  for (int i = 0; i < 1000; ++i) input += std::to_string(i) + (i % 2 ? "\r\n" : "\n");
  MemorySource source(input);
  LineReader reader(&source);
  Line line;
  std::uint64_t offset = 0;
  for (int i = 0; i < 1000; ++i) {
    Result<bool> next = reader.Next(&line);
    ASSERT_TRUE(next.ok() && *next);
    EXPECT_EQ(line.number, static_cast<std::uint64_t>(i + 1));
    EXPECT_EQ(line.offset, offset);
    EXPECT_EQ(line.text, std::to_string(i));
    offset += line.length + (i % 2 ? 2 : 1);
  }
  Result<bool> next = reader.Next(&line);
  ASSERT_TRUE(next.ok());
  EXPECT_FALSE(*next);
  EXPECT_EQ(reader.bytes_read(), input.size());
}

TEST(LineReaderTest, HugeInputReadsInBoundedMemory) {
  // 200 MiB of 100-byte lines, generated on the fly: reading must not depend on the input size.
  constexpr std::uint64_t kTotal = 200ull << 20;
  const std::string unit = Repeat('x', 99) + "\n";
  RepeatingSource source(unit, kTotal);
  const std::size_t before = HeapInUse();
  LineReader reader(&source);
  Line line;
  std::uint64_t lines = 0;
  for (;;) {
    Result<bool> next = reader.Next(&line);
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    if (!*next) break;
    ++lines;
    if (line.length != 99) {
      ASSERT_EQ(line.length, 99u) << "line " << lines;
    }
  }
  EXPECT_EQ(lines, (kTotal + unit.size() - 1) / unit.size());
  EXPECT_EQ(reader.bytes_read(), kTotal);
  EXPECT_LT(source.peak_heap(), before + (4u << 20));
}

TEST(LineReaderTest, HugeTooLongLineIsNotBuffered) {
  // One 200 MiB line, over a 1 KiB limit, then a normal line: the long one is counted, not kept.
  constexpr std::uint64_t kTotal = 200ull << 20;
  RepeatingSource source("0123456789", kTotal, "\r\n{}\n");
  LineOptions options;
  options.max_line_bytes = 1024;
  const std::size_t before = HeapInUse();
  const Outcome got = ReadAll(&source, options);
  ASSERT_TRUE(got.status.ok()) << got.status.ToString();
  EXPECT_EQ(got.lines, (std::vector<Got>{{"", 1, 0, Ending::kCrLf, false, true, kTotal},
                                         {"{}", 2, kTotal + 2, Ending::kLf, false, false, 2}}));
  EXPECT_LT(source.peak_heap(), before + (4u << 20));
}

// A source that says it holds `hint` bytes, whatever it really holds: the reader sizes its buffer
// by the hint and must split the same anyway.
class HintedSource : public ChunkSource {
 public:
  HintedSource(std::string_view bytes, std::vector<std::size_t> pattern, std::uint64_t hint)
      : ChunkSource(bytes, std::move(pattern)), hint_(hint) {}
  std::optional<std::uint64_t> SizeHint() const override { return hint_; }

 private:
  std::uint64_t hint_;
};

TEST(LineReaderTest, SizeHintNeverChangesTheLines) {
  // Lines around the smallest buffer's edges (4 KiB), a BOM, both endings, no final newline.
  std::string input = std::string(kBom) + "{}\r\n";
  for (std::size_t n : {4090, 4095, 4096, 4097, 9000, 3, 0, 12288}) {
    input += Repeat('x', n) + (n % 2 ? "\r\n" : "\n");
  }
  input += "end";
  LineOptions options;
  const std::vector<Got> expected = Split(input, options.max_line_bytes);
  for (std::uint64_t hint :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{5000},
        std::uint64_t{input.size()}, std::uint64_t{1} << 40}) {
    for (const std::vector<std::size_t>& pattern :
         std::vector<std::vector<std::size_t>>{{1 << 20}, {4099}, {1, 4095, 7}}) {
      HintedSource source(input, pattern, hint);
      const Outcome got = ReadAll(&source, options);
      EXPECT_TRUE(got.status.ok()) << got.status.ToString();
      EXPECT_EQ(got.lines, expected) << "hint " << hint << ", chunks from " << pattern[0];
    }
  }
}

// A small input in memory gets a small buffer; a large one never more than the usual 1 MiB.
TEST(LineReaderTest, MemorySourceSizesTheBuffer) {
  const std::string small = "{\"a\":1}\n{}\n";
  const std::string large = Repeat('x', 8 * kReadBuffer) + "\n";
  const std::size_t before = HeapInUse();
  {
    MemorySource source(small);
    LineReader reader(&source);
    EXPECT_LT(HeapInUse(), before + 64 * 1024);  // not the usual 1 MiB
    EXPECT_EQ(ReadAll(&source).lines, Split(small, LineOptions().max_line_bytes));
  }
  {
    MemorySource source(large);
    LineReader reader(&source);
    EXPECT_LT(HeapInUse(), before + 2 * kReadBuffer);
  }
}

TEST(MemorySourceTest, CopiesInPiecesThenEnds) {
  MemorySource source("hello");
  char buf[3];
  Result<std::size_t> n = source.Read(buf, sizeof buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string_view(buf, *n), "hel");
  n = source.Read(buf, sizeof buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string_view(buf, *n), "lo");
  n = source.Read(buf, sizeof buf);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0u);
}

// Builds the test input for the file descriptor tests: long and short lines, both endings.
std::string MixedInput() {
  std::string input = "\xEF\xBB\xBF{\"a\":1}\r\n";
  for (int i = 0; i < 3000; ++i) input += Repeat('a' + i % 26, i) + (i % 3 ? "\n" : "\r\n");
  input += Repeat('z', kReadBuffer + 3) + "\nend";
  return input;
}

// Bytes in memory are read where they are, not through the buffer: the same lines, offsets,
// errors and bytes read as a source read a few bytes at a time, at every total limit around the
// input's size and across its lines, with long lines, a BOM and no final newline.
TEST(LineReaderTest, BytesInMemoryReadAsAStreamIs) {
  for (const std::string& input :
       {MixedInput(), std::string(kBom) + "{}\r\n\n" + Repeat('y', 5000) + "\r\nend",
        std::string("a\nbb\n"), std::string(""), std::string("\n"), std::string(kBom)}) {
    for (std::uint64_t max_line :
         {std::uint64_t{0}, std::uint64_t{2}, std::uint64_t{4096}, LineOptions().max_line_bytes}) {
      std::vector<std::uint64_t> totals = {0, 1, 2, 3, 4, input.size() + 1, UINT64_MAX};
      for (std::uint64_t cut = 1; cut <= input.size(); cut += 1 + input.size() / 40) {
        totals.push_back(cut);
        totals.push_back(input.size() - cut);
      }
      for (std::uint64_t total : totals) {
        LineOptions options;
        options.max_line_bytes = max_line;
        options.max_total_bytes = total;
        MemorySource memory(input);
        ChunkSource stream(input, {3, 1, 4099});
        const Outcome in_memory = ReadAll(&memory, options);
        const Outcome streamed = ReadAll(&stream, options);
        const std::string where = "size " + std::to_string(input.size()) + ", max_line " +
                                  std::to_string(max_line) + ", total " + std::to_string(total);
        EXPECT_EQ(in_memory.lines, streamed.lines) << where;
        EXPECT_EQ(in_memory.status.code(), streamed.status.code()) << where;
        EXPECT_EQ(in_memory.status.message(), streamed.status.message()) << where;
        EXPECT_EQ(in_memory.bytes_read, streamed.bytes_read) << where;
      }
    }
  }
}

TEST(FdSourceTest, ReadsAPipeFedInUnevenWrites) {
  const std::string input = MixedInput();
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::thread writer([&input, fd = fds[1]] {
    std::size_t done = 0;
    std::size_t step = 1;
    while (done < input.size()) {
      const std::size_t n = std::min(step, input.size() - done);
      const ssize_t written = write(fd, input.data() + done, n);
      if (written <= 0) break;
      done += static_cast<std::size_t>(written);
      step = step * 7 % 100003 + 1;
    }
    close(fd);
  });
  FdSource source(fds[0]);
  const Outcome got = ReadAll(&source);
  writer.join();
  close(fds[0]);
  EXPECT_TRUE(got.status.ok()) << got.status.ToString();
  EXPECT_EQ(got.lines, Split(input, LineOptions{}.max_line_bytes));
  EXPECT_EQ(got.bytes_read, input.size());
}

TEST(FdSourceTest, ReadsATemporaryFile) {
  const std::string input = MixedInput();
  std::string path = testing::TempDir() + "arcs_jsonl_test_XXXXXX";
  const int fd = mkstemp(path.data());
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, input.data(), input.size()), static_cast<ssize_t>(input.size()));
  ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
  FdSource source(fd);
  const Outcome got = ReadAll(&source);
  close(fd);
  unlink(path.c_str());
  EXPECT_TRUE(got.status.ok()) << got.status.ToString();
  EXPECT_EQ(got.lines, Split(input, LineOptions{}.max_line_bytes));
}

// A regular file knows how much of it is left (so a file read whole is read into one buffer of its
// size, not one grown by doubling); a pipe does not.
TEST(FdSourceTest, HintsTheRestOfARegularFileOnly) {
  std::string path = testing::TempDir() + "arcs_jsonl_test_XXXXXX";
  const int fd = mkstemp(path.data());
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "0123456789", 10), 10);
  ASSERT_EQ(lseek(fd, 3, SEEK_SET), 3);
  FdSource file(fd);
  EXPECT_EQ(file.SizeHint(), std::optional<std::uint64_t>(7));
  char buf[4];
  ASSERT_EQ(*file.Read(buf, sizeof buf), 4u);
  EXPECT_EQ(file.SizeHint(), std::optional<std::uint64_t>(3));
  PrefixedSource prefixed("abcd", &file);
  EXPECT_EQ(prefixed.SizeHint(), std::optional<std::uint64_t>(7));
  ASSERT_EQ(*prefixed.Read(buf, 3), 3u);
  EXPECT_EQ(prefixed.SizeHint(), std::optional<std::uint64_t>(4));
  close(fd);
  unlink(path.c_str());
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  EXPECT_EQ(FdSource(fds[0]).SizeHint(), std::nullopt);
  FdSource pipe_end(fds[0]);
  EXPECT_EQ(PrefixedSource("abcd", &pipe_end).SizeHint(), std::nullopt);
  close(fds[0]);
  close(fds[1]);
}

TEST(FdSourceTest, BadDescriptorIsIoError) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);
  close(fds[1]);
  FdSource source(fds[0]);  // closed: read fails with EBADF
  char buf[8];
  Result<std::size_t> n = source.Read(buf, sizeof buf);
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().code(), StatusCode::kIoError);
  EXPECT_FALSE(n.status().message().empty());
  FdSource again(fds[0]);
  EXPECT_EQ(ReadAll(&again).status.code(), StatusCode::kIoError);
}

std::atomic<bool> interrupted{false};
void OnSignal(int) { interrupted = true; }

TEST(FdSourceTest, RetriesReadsInterruptedBySignals) {
  // A handler without SA_RESTART makes a blocked read() fail with EINTR; the source must retry
  // instead of reporting an error.
  struct sigaction action = {};
  struct sigaction previous = {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  interrupted = false;
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pthread_t reader = pthread_self();
  std::thread writer([reader, fd = fds[1]] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    pthread_kill(reader, SIGUSR1);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const char kData[] = "ok\n";
    if (write(fd, kData, 3) != 3) std::abort();
    close(fd);
  });
  FdSource source(fds[0]);
  const Outcome got = ReadAll(&source);
  writer.join();
  close(fds[0]);
  sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_TRUE(interrupted);
  EXPECT_TRUE(got.status.ok()) << got.status.ToString();
  EXPECT_EQ(got.lines, (std::vector<Got>{{"ok", 1, 0, Ending::kLf, false, false, 2}}));
}

TEST(IsBlankTest, OnlySpaceTabAndCarriageReturn) {
  EXPECT_TRUE(IsBlank(""));
  EXPECT_TRUE(IsBlank(" "));
  EXPECT_TRUE(IsBlank("\t"));
  EXPECT_TRUE(IsBlank("\r"));
  EXPECT_TRUE(IsBlank(" \t\r \t"));
  EXPECT_FALSE(IsBlank("\n"));
  EXPECT_FALSE(IsBlank("\f"));
  EXPECT_FALSE(IsBlank("\v"));
  EXPECT_FALSE(IsBlank("\xC2\xA0"));  // U+00A0 is not JSON whitespace
  EXPECT_FALSE(IsBlank("\xEF\xBB\xBF"));
  EXPECT_FALSE(IsBlank(" a "));
  EXPECT_FALSE(IsBlank("\0"s));
}

// A source that hands out at most `chunk` bytes per read, like a pipe.
class Trickle : public ByteSource {
 public:
  Trickle(std::string_view bytes, std::size_t chunk) : bytes_(bytes), chunk_(chunk) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override {
    return inner_.Read(buf, std::min({size, chunk_}));
  }

 private:
  std::string_view bytes_;
  std::size_t chunk_;
  MemorySource inner_{bytes_};
};

TEST(PrefixedSource, TheHeadReadToSniffIsHandedBackBeforeTheRest) {
  const std::string file = "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n";
  Trickle pipe(file, 3);
  Result<std::string> head = ReadHead(&pipe, 10);  // several short reads make up the head
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(*head, file.substr(0, 10));
  PrefixedSource source(*head, &pipe);
  LineReader reader(&source);
  std::string seen;
  Line line;
  while (*reader.Next(&line)) seen += std::string(line.text) + "\n";
  EXPECT_EQ(seen, file);
}

TEST(PrefixedSource, AHeadLongerThanTheSourceIsTheWholeSource) {
  MemorySource short_file("{}");
  Result<std::string> head = ReadHead(&short_file, 65536);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(*head, "{}");
}

TEST(ReadSource, ReadsEveryByteUpToTheLimit) {
  const std::string file(3 << 20 | 5, 'x');  // more than one 1 MiB read
  Trickle pipe(file, 100000);
  Result<std::string> all = ReadSource(&pipe, file.size());
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, file);
  MemorySource over(file);
  Result<std::string> cut = ReadSource(&over, file.size() - 1);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().code(), StatusCode::kLimitExceeded);
  Trickle over_pipe(file, 100000);  // no size hint: read in blocks (io.h ReadInBlocks)
  cut = ReadSource(&over_pipe, file.size() - 1);
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().message(),
            "the file is longer than " + std::to_string(file.size() - 1) + " bytes");
  MemorySource empty("");
  EXPECT_EQ(*ReadSource(&empty, 0), "");
  // Bytes in memory already are copied once, leaving room for a parser's padding after them.
  MemorySource memory(file);
  Result<std::string> copied = ReadSource(&memory, file.size());
  ASSERT_TRUE(copied.ok());
  EXPECT_EQ(*copied, file);
  EXPECT_GE(copied->capacity() - copied->size(), 8u);
}

// A file's size, as stat gave it, may be out of date by the time it is read.
class HintedTrickle : public Trickle {
 public:
  HintedTrickle(std::string_view bytes, std::uint64_t hint) : Trickle(bytes, 100000), hint_(hint) {}
  std::optional<std::uint64_t> SizeHint() const override { return hint_; }

 private:
  std::uint64_t hint_;
};

TEST(ReadSource, ASizeHintRightOrWrongReadsEveryByte) {
  const std::string file(3 << 20 | 5, 'x');
  for (const std::uint64_t hint : {std::uint64_t{file.size()}, std::uint64_t{1000},
                                   std::uint64_t{file.size() * 2}, std::uint64_t{0}}) {
    HintedTrickle source(file, hint);
    Result<std::string> all = ReadSource(&source, file.size());
    ASSERT_TRUE(all.ok()) << hint;
    EXPECT_EQ(*all, file) << hint;
    if (hint == file.size()) {
      EXPECT_GE(all->capacity() - all->size(), 8u);  // the parser's padding fits
    }
    HintedTrickle over(file, hint);
    EXPECT_EQ(ReadSource(&over, file.size() - 1).status().code(), StatusCode::kLimitExceeded)
        << hint;
  }
}

// The line feeds taken while reading place offsets as the text read does, on each way of reading:
// bytes in memory, a file of known size, a pipe.
TEST(ReadSource, TakesTheLineFeedsOfWhatItReads) {
  std::string file(600 * 1024, 'x');  // past two of the pieces it is read in
  for (std::size_t at : {std::size_t{0}, std::size_t{70}, std::size_t{256 * 1024 - 1},
                         std::size_t{256 * 1024}, std::size_t{512 * 1024 + 5}}) {
    file[at] = '\n';
  }
  MemorySource memory(file);
  HintedTrickle hinted(file, file.size());
  Trickle pipe(file, 100000);
  for (ByteSource* source : std::initializer_list<ByteSource*>{&memory, &hinted, &pipe}) {
    LineFeeds feeds;
    ASSERT_TRUE(ReadSource(source, file.size(), &feeds).ok());
    for (std::size_t offset :
         {std::size_t{0}, std::size_t{71}, std::size_t{256 * 1024}, std::size_t{256 * 1024 + 1},
          std::size_t{300000}, std::size_t{512 * 1024 + 6}, file.size()}) {
      const Location want = LocationOf(file, offset);
      EXPECT_EQ(feeds.LocationOf(offset).line, want.line) << offset;
      EXPECT_EQ(feeds.LocationOf(offset).column, want.column) << offset;
    }
  }
}

}  // namespace
}  // namespace arcs::jsonl
