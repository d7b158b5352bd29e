#include "reference/mcp_record_replay/loader.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <set>

#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

using json::Value;

// The requirements whose errors mean the Serde types cannot read the line, or the text is not a
// recording at all: what a parse-only loader refuses (errata MRR-E11). Everything else VALIDATE
// reports (structure, seq, counts, JSON-RPC shape, the schema statement) loads.
bool Refuses(std::string_view rule) {
  static const std::set<std::string_view, std::less<>> kRefused = {
      "MRR-JSON-1",    "MRR-JSON-5",    "MRR-FORMAT-8",  "MRR-HEADER-1",  "MRR-HEADER-3",
      "MRR-HEADER-4",  "MRR-HEADER-5",  "MRR-HEADER-6",  "MRR-HEADER-7",  "MRR-HEADER-8",
      "MRR-HEADER-9",  "MRR-MESSAGE-2", "MRR-MESSAGE-3", "MRR-MESSAGE-4", "MRR-MESSAGE-5",
      "MRR-MESSAGE-6", "MRR-FOOTER-4",  "MRR-FOOTER-5",  "MRR-FOOTER-6",  "MRR-FOOTER-7"};
  return kRefused.contains(rule);
}

std::string LineLabel(std::uint64_t number) { return "line " + std::to_string(number); }

Status Refusal(std::uint64_t line, std::string_view why) {
  return Status(StatusCode::kParseError,
                LineLabel(line) + ": " + std::string(why) + ": the recording is refused");
}

std::string StringOf(const Value& object, std::string_view name) {
  const Value* v = object.Find(name);
  return v && v->is_string() ? std::string(v->text()) : "";
}

std::optional<std::uint64_t> CountOf(const Value& object, std::string_view name) {
  const Value* v = object.Find(name);
  if (!v || !v->is_number()) return std::nullopt;
  return ParseCount(v->text(), std::numeric_limits<std::uint64_t>::max());
}

RecordingHeader ReadHeader(const Value& line) {
  RecordingHeader h;
  h.version = StringOf(line, "version");
  if (const Value* name = line.Find("name"); name && name->is_string()) h.name = name->text();
  if (const Value* tags = line.Find("tags"); tags && tags->is_array()) {
    for (const Value& tag : tags->items()) h.tags.emplace_back(tag.text());
  }
  h.recorded_at = StringOf(line, "recorded_at");
  h.upstream = StringOf(line, "upstream");
  h.thoughtjack_version = StringOf(line, "thoughtjack_version");
  return h;
}

RecordedMessage IndexMessage(const Value& line, const jsonl::Line& where) {
  RecordedMessage m;
  m.seq = CountOf(line, "seq").value_or(0);
  m.dir = StringOf(line, "dir") == "s2c" ? Direction::kServerToClient : Direction::kClientToServer;
  m.latency_ms = CountOf(line, "latency_ms");
  const Value* msg = line.Find("msg");
  m.kind = msg && msg->is_object() ? Classify(*msg).kind : MessageKind::kOther;
  m.offset = where.offset;
  m.length = where.text.size();
  return m;
}

class Loader {
 public:
  explicit Loader(const LoadOptions& options)
      : options_(options),
        checker_(
            options.limits, [this](RecordingFinding f) { Take(std::move(f)); },
            /*with_schema=*/false) {}

  // Takes one line; a refusal ends the load.
  Status Line(const jsonl::Line& line) {
    if (line.bom && !options_.ignore_bom) {
      return Refusal(line.number, "the file starts with a byte order mark (policy bom: refuse)");
    }
    if (!line.too_long && jsonl::IsBlank(line.text)) {  // a line over the limit has no text
      if (options_.ignore_blank_lines) return Status::Ok();
      return Refusal(line.number, "a blank line (policy blank_lines: refuse)");
    }
    errors_.clear();
    const bool go_on = checker_.Line(line);
    const Value* object = checker_.last_object();
    if (!object && line.ending == jsonl::Ending::kNone && !errors_.empty() &&
        errors_.front().rule_id == "MRR-JSON-1" && header_seen_) {
      out_.notes.push_back(LineLabel(line.number) +
                           ": the last line is cut off (EC-REC-002): skipped, the lines before it "
                           "are used");
      return Status::Ok();
    }
    for (const RecordingFinding& e : errors_) {
      if (!Refuses(e.rule_id)) continue;
      Status refusal = Refusal(line.number, e.message);
      if (e.rule_id == "MRR-HEADER-3") return Status(StatusCode::kUnsupported, refusal.message());
      return refusal;
    }
    if (!go_on) return Refusal(line.number, "over a limit");
    Index(*object, line);
    return Status::Ok();
  }

  Result<LoadedRecording> Finish() {
    errors_.clear();
    checker_.End();
    if (!errors_.empty()) return Status(StatusCode::kParseError, errors_.front().message);
    if (!out_.has_footer) {
      out_.notes.push_back("no footer (EC-REC-011): the footer's fields are unavailable");
    }
    return std::move(out_);
  }

 private:
  void Take(RecordingFinding f) {
    if (!f.warning && !f.rule_id.empty()) errors_.push_back(std::move(f));
  }

  void Index(const Value& object, const jsonl::Line& line) {
    const std::string_view type = checker_.last_type();
    if (type == "header" && header_seen_) {
      out_.notes.push_back(LineLabel(line.number) + ": a second header, passed over");
    } else if (type == "header") {
      out_.header = ReadHeader(object);
      header_seen_ = true;
    } else if (type == "message") {
      out_.messages.push_back(IndexMessage(object, line));
    } else if (type == "footer") {
      out_.has_footer = true;
    }
  }

  const LoadOptions& options_;
  LineChecker checker_;
  std::vector<RecordingFinding> errors_;  // of the line being read
  bool header_seen_ = false;
  LoadedRecording out_;
};

}  // namespace

Result<std::string> MemoryRandomAccess::ReadAt(std::uint64_t offset, std::uint64_t length) const {
  if (offset > bytes_.size() || length > bytes_.size() - offset) {
    return Status(StatusCode::kIoError, "a read past the end of the recording");
  }
  return std::string(bytes_.substr(offset, length));
}

Result<std::string> FileRandomAccess::ReadAt(std::uint64_t offset, std::uint64_t length) const {
  std::string bytes(length, '\0');
  std::uint64_t done = 0;
  while (done < length) {
    const ssize_t n = pread(fd_, bytes.data() + done, length - done, offset + done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status(StatusCode::kIoError, std::string("pread: ") + std::strerror(errno));
    if (n == 0) return Status(StatusCode::kIoError, "the recording changed while it was replayed");
    done += static_cast<std::uint64_t>(n);
  }
  return bytes;
}

Result<LoadedRecording> LoadRecording(jsonl::ByteSource* source, const LoadOptions& options) {
  jsonl::LineOptions line_options;
  line_options.max_line_bytes = options.limits.max_line_bytes;
  jsonl::LineReader reader(source, line_options);
  Loader loader(options);
  jsonl::Line line;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (Status s = loader.Line(line); !s.ok()) return s;
  }
  return loader.Finish();
}

Status ReadMessageLine(const RandomAccessSource& lines, const RecordedMessage& message,
                       json::Document* line) {
  Result<std::string> text = lines.ReadAt(message.offset, message.length);
  if (!text.ok()) return text.status();
  // The load parsed this line within the limits; the same bytes need no limit now.
  json::ParseOptions options;
  options.max_depth = std::numeric_limits<std::uint32_t>::max();
  if (!line->ParseTaking(std::move(*text), options)) {
    return Status(StatusCode::kIoError, "a recorded line no longer parses: the file changed");
  }
  return Status::Ok();
}

}  // namespace arcs::mcp_record_replay
