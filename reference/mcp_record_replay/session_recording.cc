#include "reference/mcp_record_replay/session_recording.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>
#include <utility>

#include "reference/core/base64.h"
#include "reference/core/json.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/jsonrpc.h"
#include "reference/mcp_record_replay/upstream.h"

namespace arcs::mcp_record_replay {
namespace {

using Clock = RecordingSession::Clock;
using std::chrono::milliseconds;

// The recording's buffer is flushed early past this, so a burst of large messages stays bounded.
constexpr std::size_t kMaxBuffered = 1 << 20;
// Unanswered requests tracked per side; beyond, new ones get no latency (a peer flooding us).
constexpr std::size_t kMaxWaiting = 1 << 16;
constexpr int kMaxWarnings = 100;

// One line per warning on the log, made Printable (it quotes what the client and the upstream
// sent, and the paths it was given); a flood (a client writing garbage) is cut short.
class Log {
 public:
  explicit Log(int fd) : fd_(fd) {}
  // The proxy's threads and the recording's writer all warn.
  void Warn(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (count_ > kMaxWarnings) return;
    ++count_;
    Write(count_ > kMaxWarnings ? std::string("further warnings are not shown") : message);
  }
  void Note(const std::string& message) {
    std::lock_guard<std::mutex> lock(mutex_);
    Write(message);
  }

 private:
  void Write(std::string_view message) {
    WriteToLog(fd_, "arcs mcp record: " + Printable(message) + "\n");
  }
  std::mutex mutex_;
  int fd_;
  int count_ = 0;
};

// The recording file: whole lines, buffered, flushed every `interval` after the oldest buffered
// line or every `every` messages, each flush fsync'd (NFR-001, NFR-003). The writes and syncs run
// on a thread of their own, so that the proxy never waits for the disk while it forwards (an fsync
// takes from a fraction of a millisecond to several when the disk is busy: NFR-001's budget). A
// flush hands the buffered lines over whole; while the writer is still busy with the last ones,
// lines gather for the next. A failed write stops the recording, not the session: status() says
// why.
class RecordingFile {
 public:
  RecordingFile(milliseconds interval, std::size_t every, Log* log)
      : interval_(interval), every_(std::max<std::size_t>(every, 1)), log_(log) {}
  ~RecordingFile() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = true;
    }
    wake_.notify_all();
    if (writer_.joinable()) writer_.join();
    if (fd_ >= 0) close(fd_);
  }
  RecordingFile(const RecordingFile&) = delete;
  RecordingFile& operator=(const RecordingFile&) = delete;

  Status Open(const std::string& path) {
    path_ = path;
    fd_ = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) {
      return Status(StatusCode::kIoError, "cannot create " + path + ": " + ErrnoText(errno));
    }
    writer_ = std::thread([this] { WriteLoop(); });
    return Status::Ok();
  }

  void Append(std::string_view line, bool message, Clock::time_point now) {
    if (buffer_.empty()) first_buffered_ = now;
    buffer_.append(line);
    buffer_.push_back('\n');
    messages_ += message;
    if (messages_ >= every_ || buffer_.size() >= kMaxBuffered) Flush();
  }

  void FlushIfDue(Clock::time_point now) {
    if (!buffer_.empty() && now >= next_due()) Flush();
  }
  Clock::time_point next_due() const {
    return buffer_.empty() ? Clock::time_point::max() : first_buffered_ + interval_;
  }

  // Hands the buffered lines to the writer. Waits only when the writer already holds
  // kMaxBuffered bytes it has not written: the disk is that far behind (backpressure).
  void Flush() {
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [this] { return handed_.size() < kMaxBuffered || !status_.ok(); });
    handed_.append(buffer_);
    lock.unlock();
    wake_.notify_one();
    buffer_.clear();
    if (buffer_.capacity() > kMaxBuffered) std::string().swap(buffer_);
    messages_ = 0;
  }

  // Flushes and waits until every line handed over is written and synced (the header, the footer).
  void Sync() {
    Flush();
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [this] { return (handed_.empty() && !writing_) || !status_.ok(); });
  }

  Status status() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return status_;
  }

 private:
  void WriteLoop() {
    std::string lines;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        writing_ = false;
        room_.notify_all();
        wake_.wait(lock, [this] { return !handed_.empty() || closing_; });
        if (handed_.empty()) return;  // closing, everything written
        lines.swap(handed_);
        writing_ = true;
      }
      WriteAndSync(lines);
      lines.clear();
    }
  }

  void WriteAndSync(std::string_view rest) {
    if (!status().ok()) return;
    while (!rest.empty()) {
      const ssize_t n = write(fd_, rest.data(), rest.size());
      if (n > 0) {
        rest.remove_prefix(static_cast<std::size_t>(n));
      } else if (!(n < 0 && errno == EINTR)) {
        return Fail("writing", n < 0 ? errno : ENOSPC);
      }
    }
    // A pipe or a device cannot be synced, and needs not be. The verb's stop signals interrupt
    // (no SA_RESTART), and a stop must not cost the recording its footer.
    int synced;
    do {
      synced = fsync(fd_);
    } while (synced != 0 && errno == EINTR);
    if (synced != 0 && errno != EINVAL && errno != EROFS) Fail("syncing", errno);
  }

  void Fail(const char* doing, int error) {
    Status failed(StatusCode::kIoError, doing + (" " + path_) + ": " + ErrnoText(error) +
                                            " (the recording stopped there)");
    log_->Warn(failed.message() + "; the session goes on unrecorded");
    std::lock_guard<std::mutex> lock(mutex_);
    status_ = std::move(failed);
    room_.notify_all();
  }

  milliseconds interval_;
  std::size_t every_;
  Log* log_;
  int fd_ = -1;
  std::string path_;
  std::string buffer_;  // guarded by the session's mutex, not this one
  std::size_t messages_ = 0;
  Clock::time_point first_buffered_;
  // Shared with the writer.
  mutable std::mutex mutex_;
  std::condition_variable wake_;  // lines handed over, or closing
  std::condition_variable room_;  // the writer took lines, finished them, or failed
  std::string handed_;
  bool writing_ = false;
  bool closing_ = false;
  Status status_;
  std::thread writer_;
};

// One side's requests waiting for their response, with when each was seen: paired as the checker
// pairs them (PendingIds, errata MRR-E28: 1 and 1.0 are one id, repeated ids in turn). Only string
// and number ids are tracked: a response whose id is null answers nothing.
class WaitingRequests {
 public:
  void Add(const json::Value& id, Clock::time_point at) {
    if (!Pairable(id) || size_ >= kMaxWaiting) return;
    ids_.Add(id, static_cast<std::uint64_t>(at.time_since_epoch().count()));
    ++size_;
  }

  // When the request this response answers was seen; nullopt for none.
  std::optional<Clock::time_point> Answer(const json::Value& id) {
    if (!Pairable(id)) return std::nullopt;
    const std::optional<std::uint64_t> at = ids_.Take(id);
    if (!at) return std::nullopt;
    --size_;
    return Clock::time_point(Clock::duration(static_cast<Clock::rep>(*at)));
  }

 private:
  static bool Pairable(const json::Value& id) { return id.is_string() || id.is_number(); }
  PendingIds ids_;
  std::size_t size_ = 0;
};

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

class RecordingSession::Impl {
 public:
  Impl(const RecordingOptions& options, std::string_view upstream, std::string_view unit,
       Redactor redactor)
      : options_(options),
        upstream_(upstream),
        unit_(unit),
        redactor_(std::move(redactor)),
        log_(options.log_fd),
        file_(options.flush_interval, options.flush_messages, &log_) {}

  Status Open() { return file_.Open(options_.output_path); }

  // The header, at once on disk: a session that dies at its first byte leaves a valid file.
  void Begin() {
    std::lock_guard<std::mutex> lock(mutex_);
    started_ = Clock::now();
    std::string line = "{";
    json::AppendMember("type", "header", &line);
    json::AppendMember("version", "1.0", &line);
    // The header's own texts are redacted too: a command line may hold a token.
    if (options_.name) json::AppendMember("name", Redacted(*options_.name), &line);
    if (!options_.tags.empty()) {
      line += ",\"tags\":[";
      for (std::size_t i = 0; i < options_.tags.size(); ++i) {
        if (i) line.push_back(',');
        json::AppendQuoted(Redacted(options_.tags[i]), &line);
      }
      line.push_back(']');
    }
    json::AppendMember("recorded_at", FormatTimestamp(std::chrono::system_clock::now()), &line);
    json::AppendMember("upstream", Redacted(upstream_), &line);
    json::AppendMember("thoughtjack_version", options_.thoughtjack_version, &line);
    // A member the format does not define (errata MRR-E23), so that a reader knows (MRR-E52).
    if (redacting()) json::AppendRawMember("redaction", redactor_.Statement(), &line);
    line.push_back('}');
    file_.Append(line, false, started_);
    file_.Sync();
  }

  void Message(bool client, std::string_view line, Clock::time_point now) {
    const std::string_view text = TrimJsonSpace(line);
    if (text.empty()) return;  // a blank line holds no message
    std::lock_guard<std::mutex> lock(mutex_);
    Refusal refusal = Unrecordable(text);
    std::string record;
    bool secret_left = false;
    if (refusal.reason.empty()) {
      std::optional<std::string> redacted;
      if (redacting()) {
        RedactedMessage r = redactor_.RedactMessage(doc_.root());
        redacted = std::move(r.msg);
        secret_left = r.secret_left;
      }
      record = LineStart(client);
      const std::size_t msg_at = record.size();
      record += redacted ? std::string_view(*redacted) : text;
      // A CR that is not at either end can only be whitespace between tokens (JSON refuses a
      // raw one in a string), and an NDJSON line may not hold one.
      std::replace(record.begin() + static_cast<std::ptrdiff_t>(msg_at), record.end(), '\r', ' ');
      constexpr std::size_t kLatencyRoom = sizeof ",\"latency_ms\":18446744073709551615}" - 1;
      if (record.size() + kLatencyRoom > options_.limits.max_line_bytes) {
        refusal = {"too-long", "its recorded line would be over max_line_bytes"};
      }
    }
    if (!refusal.reason.empty()) {
      // Quoted from the redacted text: an excerpt could cut a secret where a rule no longer
      // finds it.
      refusal.why += ": " + Quoted(Redacted(text), 60);
      UnrecordedLocked(client, line, line.size(), std::move(refusal), now);
      return;
    }
    if (secret_left) {
      log_.Warn(std::string(client ? "c2s" : "s2c") + ": seq " + std::to_string(seq_) +
                ": a member name, or the jsonrpc, id or method, holds what a redaction rule "
                "matches: recorded as it is (errata MRR-E52)");
    }
    if (const std::optional<milliseconds> latency = Pair(client, now)) {
      record += ",\"latency_ms\":" + std::to_string(std::max<std::int64_t>(latency->count(), 0));
    }
    record.push_back('}');
    Commit(client, record, now);
  }

  void Unrecorded(bool client, std::string_view bytes, std::uint64_t size, Refusal refusal,
                  Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    UnrecordedLocked(client, bytes, size, std::move(refusal), now);
  }

  void FlushIfDue(Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    file_.FlushIfDue(now);
  }
  Clock::time_point next_due() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return file_.next_due();
  }

  Status Finish() {
    std::lock_guard<std::mutex> lock(mutex_);
    file_.Append(FooterLine(), false, Clock::now());
    file_.Sync();
    return file_.status();
  }

  Log& log() { return log_; }

 private:
  bool redacting() const { return !redactor_.empty(); }

  // A message line up to its msg: seq, ts (the wall clock now) and dir.
  std::string LineStart(bool client) const {
    return R"({"type":"message","seq":)" + std::to_string(seq_) + R"(,"ts":")" +
           FormatTimestamp(std::chrono::system_clock::now()) + R"(","dir":")" +
           (client ? "c2s" : "s2c") + R"(","msg":)";
  }

  void Commit(bool client, const std::string& record, Clock::time_point now) {
    ++seq_;
    ++(client ? client_messages_ : server_messages_);
    file_.Append(record, true, now);
  }

  // Records bytes that are not a message (`bytes` of their `size`, the first kUnrecordedKeptBytes
  // of a longer run) as the notification arcs/unrecorded (errata MRR-E51), in their place among
  // the messages: the bytes in base64, all of them when the recorded line has room for them under
  // max_line_bytes, else as many of the first kUnrecordedKeptBytes as it has room for, with
  // "truncated":true. Redacted first, when rules are given: these bytes are no JSON to look into.
  void UnrecordedLocked(bool client, std::string_view bytes, std::uint64_t size, Refusal refusal,
                        Clock::time_point now) {
    log_.Warn(std::string(client ? "c2s" : "s2c") + ": a " + unit_ + " of " + std::to_string(size) +
              " bytes forwarded as it was, recorded as arcs/unrecorded (" +
              std::string(refusal.reason) + "): " + Redacted(refusal.why));
    const std::optional<std::string> redacted =
        redacting() ? redactor_.Redact(bytes) : std::nullopt;
    std::string_view kept = redacted ? std::string_view(*redacted) : bytes;
    std::string record =
        LineStart(client) + R"({"jsonrpc":"2.0","method":"arcs/unrecorded","params":{"reason":")" +
        std::string(refusal.reason) + R"(","bytes":)" + std::to_string(size) + R"(,"base64":")";
    constexpr std::string_view kTruncatedEnd = R"(","truncated":true}}})";
    const std::uint64_t used = record.size() + kTruncatedEnd.size();
    const std::uint64_t limit = options_.limits.max_line_bytes;
    // Base64 takes 4 characters for every 3 bytes (the last group padded).
    const std::uint64_t room = limit > used ? (limit - used) / 4 * 3 : 0;
    const bool whole = bytes.size() == size && kept.size() <= room;
    if (!whole) {
      kept = kept.substr(0, std::min<std::uint64_t>({kept.size(), kUnrecordedKeptBytes, room}));
    }
    base64::EncodeAppend(kept, &record);
    record += whole ? std::string_view(R"("}}})") : kTruncatedEnd;
    Commit(client, record, now);
  }

  // `text` as the log and the header may show it: with the redaction rules applied.
  std::string Redacted(std::string_view text) const {
    std::optional<std::string> redacted = redacting() ? redactor_.Redact(text) : std::nullopt;
    return redacted ? std::move(*redacted) : std::string(text);
  }

  // Parses `text` into doc_; why a recording could not hold it as its msg (no reason when it can).
  Refusal Unrecordable(std::string_view text) {
    json::ParseOptions parse;
    // msg sits at depth 2 of the recorded line.
    parse.max_depth = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(options_.limits.max_json_depth, 2, UINT32_MAX) - 1);
    if (!doc_.Parse(text, parse)) {
      std::string why = "not JSON (" + doc_.error().message + ")";
      const json::ErrorCode code = doc_.error().code;
      // Whether or not the parser stopped at them first: bytes that are not UTF-8 are named as
      // such, and so is an escape of a lone surrogate (no character, so no UTF-8: MRR-E48).
      if (code == json::ErrorCode::kLoneSurrogate || !IsValidUtf8(text)) {
        return {"not-utf8", std::move(why)};
      }
      if (code == json::ErrorCode::kDepthExceeded) return {"too-deep", std::move(why)};
      return {"not-json", std::move(why)};
    }
    if (!doc_.root().is_object()) {
      return {"not-an-object",
              "a JSON " + std::string(json::KindName(doc_.root().kind())) + ", not an object"};
    }
    if (const json::Value* big = json::FirstNumberBeyondDoubles(doc_)) {
      return {"number-range", "the number " + Excerpt(big->text(), 40) +
                                  " is beyond the doubles, which the format's Serde types refuse"};
    }
    return {};
  }

  // Files a request as waiting, or finds the request a response answers (the other side's).
  std::optional<milliseconds> Pair(bool client, Clock::time_point now) {
    const Classified c = Classify(doc_.root());
    WaitingRequests& mine = client ? client_requests_ : server_requests_;
    WaitingRequests& theirs = client ? server_requests_ : client_requests_;
    if (c.kind == MessageKind::kRequest) mine.Add(*c.id, now);
    if (c.kind != MessageKind::kResponse && c.kind != MessageKind::kError) return std::nullopt;
    const std::optional<Clock::time_point> asked = theirs.Answer(*c.id);
    if (!asked) return std::nullopt;
    return std::chrono::duration_cast<milliseconds>(now - *asked);
  }

  std::string FooterLine() const {
    std::string footer = "{";
    json::AppendMember("type", "footer", &footer);
    auto count = [&](std::string_view name, std::uint64_t n) {
      json::AppendRawMember(name, std::to_string(n), &footer);
    };
    const auto duration = std::chrono::duration_cast<milliseconds>(Clock::now() - started_);
    count("total_messages", client_messages_ + server_messages_);
    count("duration_ms", static_cast<std::uint64_t>(duration.count()));
    count("client_messages", client_messages_);
    count("server_messages", server_messages_);
    footer.push_back('}');
    return footer;
  }

  const RecordingOptions options_;
  const std::string upstream_;
  const std::string unit_;
  const Redactor redactor_;
  Log log_;
  // Everything below is the mutex's.
  mutable std::mutex mutex_;
  RecordingFile file_;
  json::Document doc_;  // reused from message to message
  WaitingRequests client_requests_, server_requests_;
  std::uint64_t seq_ = 1;
  std::uint64_t client_messages_ = 0, server_messages_ = 0;
  Clock::time_point started_;
};

namespace {

// The header holds these as JSON strings, which are Unicode.
Status CheckOptions(const RecordingOptions& options, std::string_view upstream) {
  if (options.output_path.empty()) {
    return Status(StatusCode::kInvalidArgument, "the output path is empty");
  }
  std::vector<std::pair<std::string, std::string_view>> texts = {
      {"the upstream", upstream}, {"the version", options.thoughtjack_version}};
  if (options.name) texts.push_back({"the name", *options.name});
  for (const std::string& tag : options.tags) texts.push_back({"a tag", tag});
  for (const auto& entry : options.redaction.env) texts.push_back({"a redacted name", entry.first});
  for (const std::string& p : options.redaction.patterns) {
    texts.push_back({"a redaction pattern", p});
  }
  for (const auto& [what, text] : texts) {
    if (!IsValidUtf8(text)) {
      return Status(StatusCode::kInvalidArgument,
                    what + " is not UTF-8: a recording's header holds it as a JSON string");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::unique_ptr<RecordingSession>> RecordingSession::Start(const RecordingOptions& options,
                                                                  std::string_view upstream,
                                                                  std::string_view unit) {
  if (Status s = CheckOptions(options, upstream); !s.ok()) return s;
  Result<Redactor> redactor = Redactor::Create(options.redaction);
  if (!redactor.ok()) return redactor.status();
  auto impl = std::make_unique<Impl>(options, upstream, unit, std::move(*redactor));
  if (Status s = impl->Open(); !s.ok()) return s;
  impl->Begin();
  return std::unique_ptr<RecordingSession>(new RecordingSession(std::move(impl)));
}

RecordingSession::RecordingSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RecordingSession::~RecordingSession() = default;

void RecordingSession::Message(bool client, std::string_view text, Clock::time_point now) {
  impl_->Message(client, text, now);
}

void RecordingSession::Unrecorded(bool client, std::string_view bytes, std::uint64_t size,
                                  Refusal refusal, Clock::time_point now) {
  impl_->Unrecorded(client, bytes, size, std::move(refusal), now);
}

void RecordingSession::FlushIfDue(Clock::time_point now) { impl_->FlushIfDue(now); }
RecordingSession::Clock::time_point RecordingSession::next_due() const { return impl_->next_due(); }

Status RecordingSession::Finish() { return impl_->Finish(); }

void RecordingSession::Warn(const std::string& message) { impl_->log().Warn(message); }
void RecordingSession::Note(const std::string& message) { impl_->log().Note(message); }

std::string_view TrimJsonSpace(std::string_view text) {
  while (!text.empty() && IsJsonSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsJsonSpace(text.back())) text.remove_suffix(1);
  return text;
}

std::string FormatTimestamp(std::chrono::system_clock::time_point when) {
  const auto ms = std::chrono::floor<milliseconds>(when);
  const auto seconds = std::chrono::floor<std::chrono::seconds>(ms);
  const std::time_t t = std::chrono::system_clock::to_time_t(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[96];  // room for any int the fields could hold
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>((ms - seconds).count()));
  return text;
}

std::string ErrnoText(int error) {
  std::string text = std::strerror(error);
  if (const char* name = strerrorname_np(error)) text += std::string(" (") + name + ")";
  return text;
}

}  // namespace arcs::mcp_record_replay
