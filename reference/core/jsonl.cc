#include "reference/core/jsonl.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <system_error>

#include "reference/core/diagnostics.h"
#include "reference/core/io.h"
#include "reference/core/pages_faulted_ahead.h"
#include "reference/core/strings.h"

namespace arcs::jsonl {
namespace {

// One fixed read buffer per reader: large enough that most lines never straddle a refill, small
// enough that memory does not depend on the input. A source that knows it holds less (a
// MemorySource: tests, fuzzers) gets a buffer of its size, but never below kMinBufferSize (which
// must be at least the BOM's 3 bytes: the first line gathers them before it looks).
constexpr std::size_t kBufferSize = 1 << 20;
constexpr std::size_t kMinBufferSize = 4096;

std::size_t BufferSizeFor(const ByteSource& source) {
  const std::optional<std::uint64_t> hint = source.SizeHint();
  if (!hint || *hint >= kBufferSize) return kBufferSize;
  return std::max(kMinBufferSize, static_cast<std::size_t>(*hint));
}

Status FileTooLarge(std::uint64_t max_bytes) {
  return Status(StatusCode::kLimitExceeded,
                "the file is longer than " + std::to_string(max_bytes) + " bytes");
}

}  // namespace

Result<std::size_t> FdSource::Read(char* buf, std::size_t size) {
  for (;;) {
    const ssize_t n = ::read(fd_, buf, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    // A signal arriving mid-read is not a failure of the file.
    if (errno == EINTR) continue;
    const int error = errno;
    return Status(StatusCode::kIoError, "read from file descriptor " + std::to_string(fd_) +
                                            " failed: " + std::system_category().message(error));
  }
}

std::optional<std::uint64_t> FdSource::SizeHint() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const off_t at = ::lseek(fd_, 0, SEEK_CUR);
  if (at < 0 || at > st.st_size) return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size - at);
}

Result<std::string> ReadHead(ByteSource* source, std::size_t max) {
  std::string head(max, '\0');
  std::size_t filled = 0;
  while (filled < max) {
    Result<std::size_t> n = source->Read(head.data() + filled, max - filled);
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    filled += *n;
  }
  head.resize(filled);
  return head;
}

Result<std::size_t> PrefixedSource::Read(char* buf, std::size_t size) {
  if (offset_ < prefix_.size()) {
    const std::size_t n = std::min(size, prefix_.size() - offset_);
    std::memcpy(buf, prefix_.data() + offset_, n);
    offset_ += n;
    return n;
  }
  return rest_->Read(buf, size);
}

std::optional<std::uint64_t> PrefixedSource::SizeHint() const {
  const std::optional<std::uint64_t> rest = rest_->SizeHint();
  if (!rest) return std::nullopt;
  return prefix_.size() - offset_ + *rest;
}

std::optional<Result<std::string_view>> InMemory(const ByteSource& source,
                                                 std::uint64_t max_bytes) {
  const std::optional<std::string_view> bytes = source.Unread();
  if (!bytes) return std::nullopt;
  if (bytes->size() > max_bytes) return Result<std::string_view>(FileTooLarge(max_bytes));
  return Result<std::string_view>(*bytes);
}

Result<std::string> ReadSource(ByteSource* source, std::uint64_t max_bytes, LineFeeds* line_feeds) {
  constexpr std::size_t kChunk = 256 * 1024;
  const Status too_large = FileTooLarge(max_bytes);
  const auto take_line_feeds = [line_feeds](std::string_view piece) {
    if (line_feeds != nullptr) line_feeds->Append(piece);
  };
  if (const std::optional<Result<std::string_view>> in_memory = InMemory(*source, max_bytes)) {
    // Copied once, with the spare room a file read whole leaves (the parser's padding).
    if (!in_memory->ok()) return in_memory->status();
    const std::string_view bytes = **in_memory;
    std::string out;
    out.reserve(bytes.size() + 64);
    const PagesFaultedAhead faulted_ahead(out.data(), out.capacity());
    for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
      out.append(bytes.substr(at, kChunk));
      take_line_feeds(std::string_view(out).substr(at));
    }
    return out;
  }
  const std::optional<std::uint64_t> hint = source->SizeHint();
  if (!hint) {
    Result<std::string> out =
        ReadInBlocks([source](char* into, std::size_t n) { return source->Read(into, n); },
                     static_cast<std::size_t>(max_bytes), too_large);
    if (out.ok()) take_line_feeds(*out);
    return out;
  }
  std::string out;
  out.reserve(static_cast<std::size_t>(std::min(*hint, max_bytes)) + 64);
  const PagesFaultedAhead faulted_ahead(out.data(), out.capacity());  // as ReadExpecting (io.cc)
  // Read into a buffer the cache holds, then appended: reading into the string itself would first
  // have to fill it with zeros (resize), a pass over the whole file.
  const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
  for (;;) {
    Result<std::size_t> n = source->Read(buffer.get(), kChunk);
    if (!n.ok()) return n.status();
    if (*n == 0) return out;
    if (out.size() + *n > max_bytes) return too_large;
    out.append(buffer.get(), *n);
    take_line_feeds(std::string_view(buffer.get(), *n));
  }
}

Result<std::size_t> MemorySource::Read(char* buf, std::size_t size) {
  const std::size_t n = std::min(size, bytes_.size());
  if (n > 0) std::memcpy(buf, bytes_.data(), n);
  bytes_.remove_prefix(n);
  return n;
}

LineReader::LineReader(ByteSource* source, LineOptions options)
    : source_(source), options_(options) {
  if (std::optional<std::string_view> bytes = source->Unread()) {
    // Bytes in memory already are read where they are (every line a view of them), not copied
    // into a buffer: what is within max_total_bytes is in view from the start.
    in_memory_ = bytes->size();
    data_ = bytes->data();
    end_ = static_cast<std::size_t>(std::min<std::uint64_t>(*in_memory_, options_.max_total_bytes));
    total_ = end_;
    return;
  }
  buffer_size_ = BufferSizeFor(*source);
  // Uninitialized: only bytes read from the source are ever looked at. (Zero-filling 1 MiB per
  // reader cost the fuzzers over a third of their time.)
  buffer_ = std::make_unique_for_overwrite<char[]>(buffer_size_);
  data_ = buffer_.get();
}

Status LineReader::TotalLimitExceeded() const {
  return Status(StatusCode::kLimitExceeded, "input is larger than max_total_bytes (" +
                                                std::to_string(options_.max_total_bytes) +
                                                " bytes)");
}

// Reads once from the source into the free end of the buffer. Returns true when bytes arrived;
// false at end of input or on failure, which is then in error_.
bool LineReader::Fill() {
  if (eof_ || !error_.ok()) return false;
  if (in_memory_) {
    // Past the bytes in view: the end, or the byte that is one over the limit.
    if (*in_memory_ > end_) {
      total_ = end_ + 1;
      error_ = TotalLimitExceeded();
    } else {
      eof_ = true;
    }
    return false;
  }
  if (begin_ == end_) {
    begin_ = end_ = 0;
  } else if (end_ == buffer_size_) {
    std::memmove(buffer_.get(), buffer_.get() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  const std::size_t room = buffer_size_ - end_;
  // Never read past the limit, except for one byte once it is reached: that byte is how "exactly
  // at the limit" is told apart from "over it", and the cut does not depend on how the source
  // happens to chunk its data.
  const std::uint64_t left = options_.max_total_bytes - total_;  // total_ <= max until an error
  const std::size_t want =
      left == 0 ? 1 : static_cast<std::size_t>(std::min<std::uint64_t>(room, left));
  Result<std::size_t> got = source_->Read(buffer_.get() + end_, want);
  if (!got.ok()) {
    const Status& status = got.status();
    error_ = status.code() == StatusCode::kIoError
                 ? status
                 : Status(StatusCode::kIoError, "source failed: " + status.ToString());
    return false;
  }
  const std::size_t n = *got;
  if (n > want) {
    // A misbehaving source would have written past what it was given; do not trust the bytes.
    error_ = Status(StatusCode::kIoError, "source returned " + std::to_string(n) +
                                              " bytes for a read of " + std::to_string(want));
    return false;
  }
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += n;
  total_ += n;
  if (total_ > options_.max_total_bytes) {
    error_ = TotalLimitExceeded();
    return false;
  }
  return true;
}

Result<bool> LineReader::Next(Line* line) {
  if (!error_.ok()) return error_;
  // The previous line's text may live here; the caller was told it lasts until this call.
  long_line_.clear();

  bool bom = false;
  if (line_number_ == 0 && consumed_ == 0) {
    // The BOM may arrive split across reads; gather three bytes (or all there is) before judging.
    while (end_ - begin_ < kUtf8Bom.size() && Fill()) {
    }
    if (!error_.ok()) return error_;
    if (std::string_view(data_ + begin_, end_ - begin_).starts_with(kUtf8Bom)) {
      begin_ += kUtf8Bom.size();
      consumed_ += kUtf8Bom.size();
      bom = true;
    }
  }

  const std::uint64_t max_line = options_.max_line_bytes;
  // A line is kept up to one byte beyond the limit: that byte may be the '\r' of a "\r\n", which
  // is not part of the text.
  const std::uint64_t keep =
      max_line == std::numeric_limits<std::uint64_t>::max() ? max_line : max_line + 1;
  const std::uint64_t offset = consumed_;
  std::uint64_t length = 0;  // bytes of the line so far, a trailing '\r' included
  bool last_cr = false;      // the last byte seen was '\r' (it may sit in an earlier chunk)
  bool dropping = false;     // past `keep`: the rest of the line is counted, never stored

  for (;;) {
    const char* data = data_ + begin_;
    const std::size_t avail = end_ - begin_;
    const char* newline =
        avail == 0 ? nullptr : static_cast<const char*>(std::memchr(data, '\n', avail));
    const std::size_t take = newline == nullptr ? avail : static_cast<std::size_t>(newline - data);
    if (take > 0) last_cr = data[take - 1] == '\r';
    length += take;
    if (!dropping && length > keep) {
      dropping = true;
      long_line_.clear();
    }

    if (newline == nullptr) {
      // The line goes on past the buffer: keep what we have (within the limit) and read more.
      if (!dropping && take > 0) long_line_.append(data, take);
      begin_ = end_;
      if (Fill()) continue;
      if (!error_.ok()) return error_;
      if (length == 0 && !bom) return false;  // a final "\n" does not open an empty last line
      // Without "\n" a trailing '\r' is just a byte of the text.
      line->ending = Ending::kNone;
      line->length = length;
      line->too_long = length > max_line;
      line->text = line->too_long ? std::string_view() : std::string_view(long_line_);
      consumed_ += length;
      break;
    }

    const std::uint64_t text_length = last_cr ? length - 1 : length;
    line->ending = last_cr ? Ending::kCrLf : Ending::kLf;
    line->length = text_length;
    line->too_long = text_length > max_line;
    if (line->too_long) {
      line->text = std::string_view();
    } else if (long_line_.empty()) {
      line->text = std::string_view(data, static_cast<std::size_t>(text_length));
    } else {
      long_line_.append(data, take);
      line->text = std::string_view(long_line_.data(), static_cast<std::size_t>(text_length));
    }
    begin_ += take + 1;
    consumed_ += length + 1;
    break;
  }

  line->number = ++line_number_;
  line->offset = offset;
  line->bom = bom;
  return true;
}

bool IsBlank(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

}  // namespace arcs::jsonl
