// JSONL line reading: splits a byte stream into lines without ever holding more than the longest
// line (bounded by a limit) plus one read buffer, whatever the size of the file.
// Handles a leading UTF-8 BOM, "\n", "\r\n", mixed endings, a missing final newline, and reports
// each line's ending so a format can judge it. What a line means is the format's business.
#ifndef ARCS_REFERENCE_CORE_JSONL_H_
#define ARCS_REFERENCE_CORE_JSONL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "reference/core/status.h"

namespace arcs {
class LineFeeds;  // diagnostics.h
}  // namespace arcs

namespace arcs::jsonl {

enum class Ending : std::uint8_t { kLf, kCrLf, kNone };  // kNone: the final line had no ending

struct LineOptions {
  std::uint64_t max_line_bytes = 64ull << 20;   // without the ending; longer lines are not kept
  std::uint64_t max_total_bytes = 64ull << 30;  // the whole input, BOM included
};

struct Line {
  std::string_view text;     // without the ending (and without the BOM on line 1)
  std::uint64_t number = 0;  // 1-based
  std::uint64_t offset = 0;  // byte offset of text's first byte in the input
  Ending ending = Ending::kLf;
  bool bom = false;          // line 1 started with EF BB BF, which was removed from text
  bool too_long = false;     // longer than max_line_bytes: text is empty, length in `length`
  std::uint64_t length = 0;  // the line's length in bytes (also when too_long)
};

// A source of bytes. Returns the number of bytes read into buf (0 at end), or an I/O error.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual Result<std::size_t> Read(char* buf, std::size_t size) = 0;
  // How many bytes are left to read, when the source knows. Only a hint for sizing buffers: a
  // reader must work the same whatever it says.
  virtual std::optional<std::uint64_t> SizeHint() const { return std::nullopt; }
  // Every byte left to read, when they are in memory already (and are then not read).
  virtual std::optional<std::string_view> Unread() const { return std::nullopt; }
};

// Every byte of `source`, for formats whose file is one JSON document; kLimitExceeded once it
// holds more than max_bytes (nothing more is read). With `line_feeds`, the bytes' line feeds are
// taken too, a piece at a time as the piece is read or copied.
Result<std::string> ReadSource(ByteSource* source, std::uint64_t max_bytes,
                               LineFeeds* line_feeds = nullptr);
// The bytes of a source that holds them in memory already (ByteSource::Unread), to be read where
// they stand, or kLimitExceeded as ReadSource refuses them; nothing for any other source.
std::optional<Result<std::string_view>> InMemory(const ByteSource& source, std::uint64_t max_bytes);

// Reads a file descriptor (a file, a pipe, stdin).
class FdSource : public ByteSource {
 public:
  explicit FdSource(int fd) : fd_(fd) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override;
  // A regular file's bytes from the current offset to its end (a pipe's are unknown).
  std::optional<std::uint64_t> SizeHint() const override;

 private:
  int fd_;
};

// Reads bytes already in memory (tests, fuzzers, the runner's decoded inputs).
class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override;
  std::optional<std::uint64_t> SizeHint() const override { return bytes_.size(); }
  std::optional<std::string_view> Unread() const override { return bytes_; }

 private:
  std::string_view bytes_;
};

// Up to `max` bytes from the start of a source (fewer at its end), for sniffing a format: read
// once, then handed back through PrefixedSource, since a pipe cannot be read twice.
Result<std::string> ReadHead(ByteSource* source, std::size_t max);

// `prefix`, then the rest of `rest` (not owned).
class PrefixedSource : public ByteSource {
 public:
  PrefixedSource(std::string prefix, ByteSource* rest) : prefix_(std::move(prefix)), rest_(rest) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override;
  std::optional<std::uint64_t> SizeHint() const override;

 private:
  std::string prefix_;
  std::size_t offset_ = 0;
  ByteSource* rest_;
};

class LineReader {
 public:
  LineReader(ByteSource* source, LineOptions options = {});

  // Reads the next line. Returns true with *line filled, false at end of input, or a Status:
  // kIoError when the source fails, kLimitExceeded when max_total_bytes is passed (the reader stops
  // there). A line over max_line_bytes is not an error of the reader: it comes back with too_long
  // set and the reader goes on with the next line. line->text stays valid until the next call.
  Result<bool> Next(Line* line);

  std::uint64_t bytes_read() const { return total_; }

 private:
  bool Fill();
  Status TotalLimitExceeded() const;
  ByteSource* source_;
  LineOptions options_;
  // The read buffer, never zero-filled: 1 MiB, or less when the source says it holds less. None
  // for a source whose bytes are in memory: they are read where they are.
  std::size_t buffer_size_ = 0;
  std::unique_ptr<char[]> buffer_;
  std::optional<std::uint64_t> in_memory_;  // the size of those bytes
  const char* data_ = nullptr;              // buffer_, or the bytes in memory
  std::size_t begin_ = 0;                   // start of unconsumed bytes in data_
  std::size_t end_ = 0;                     // end of valid bytes in data_
  std::string long_line_;                   // a line that spans buffer refills
  std::uint64_t total_ = 0;
  std::uint64_t line_number_ = 0;
  std::uint64_t consumed_ = 0;  // bytes of input handed out as lines (with endings)
  bool eof_ = false;
  Status error_;
};

// Whether a line holds only JSON whitespace (space, tab, CR); such lines are "blank".
bool IsBlank(std::string_view text);

}  // namespace arcs::jsonl

#endif  // ARCS_REFERENCE_CORE_JSONL_H_
