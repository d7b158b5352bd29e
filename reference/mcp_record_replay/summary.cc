#include "reference/mcp_record_replay/summary.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

// The most of an error's message a summary keeps (the text shows 120 bytes of it).
constexpr std::size_t kMaxMessageBytes = 1000;

using json::Value;

constexpr std::string_view kUnrecordedMethod = "arcs/unrecorded";

std::size_t DirIndex(Direction dir) { return static_cast<std::size_t>(dir); }
std::string_view DirName(Direction dir) {
  return dir == Direction::kClientToServer ? "c2s" : "s2c";
}

// The bytes [begin, end) of a RandomAccessSource as a stream, read in pieces, so that a
// LineReader can find the lines around the messages (the header, the footer) without the loader's
// help and without reading the file whole.
class RangeSource : public jsonl::ByteSource {
 public:
  RangeSource(const RandomAccessSource& lines, std::uint64_t begin, std::uint64_t end)
      : lines_(lines), at_(begin), end_(std::max(begin, end)) {}
  Result<std::size_t> Read(char* buf, std::size_t size) override {
    const std::uint64_t n = std::min<std::uint64_t>(size, end_ - at_);
    if (n == 0) return std::size_t{0};
    Result<std::string> bytes = lines_.ReadAt(at_, n);
    if (!bytes.ok()) return bytes.status();
    std::copy(bytes->begin(), bytes->end(), buf);
    at_ += n;
    return static_cast<std::size_t>(n);
  }
  std::optional<std::uint64_t> SizeHint() const override { return end_ - at_; }

 private:
  const RandomAccessSource& lines_;
  std::uint64_t at_;
  std::uint64_t end_;
};

// Calls take(object) for each line of [begin, end) that is a JSON object, until it returns false.
template <typename Take>
Status ForEachObjectLine(const RandomAccessSource& lines, std::uint64_t begin, std::uint64_t end,
                         Take take) {
  RangeSource source(lines, begin, end);
  jsonl::LineReader reader(&source, {});
  jsonl::Line line;
  json::Document doc;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return more.status();
    if (!*more) return Status::Ok();
    if (line.too_long || !doc.Parse(line.text) || !doc.root().is_object()) continue;
    if (!take(doc.root())) return Status::Ok();
  }
}

std::string_view TypeOf(const Value& line) {
  const Value* type = line.Find("type");
  return type && type->is_string() ? type->text() : "";
}

std::uint64_t CountOf(const Value& object, std::string_view name) {
  const Value* v = object.Find(name);
  if (!v || !v->is_number()) return 0;
  return ParseCount(v->text(), std::numeric_limits<std::uint64_t>::max()).value_or(0);
}

LatencySummary Percentiles(std::vector<std::uint64_t> latencies) {
  std::sort(latencies.begin(), latencies.end());
  const std::uint64_t n = latencies.size();
  auto rank = [&](std::uint64_t p) { return latencies[(p * n + 99) / 100 - 1]; };
  return {n, rank(50), rank(95), latencies.back()};
}

bool IsErrorResult(const Value* result) {
  const Value* is_error = result && result->is_object() ? result->FindLast("isError") : nullptr;
  return is_error && is_error->kind() == json::Kind::kTrue;
}

// What a pass over the messages keeps per method while it goes.
struct MethodStats {
  std::uint64_t requests = 0;
  std::uint64_t notifications = 0;
  std::uint64_t errors = 0;
  std::vector<std::uint64_t> latencies;
};

using MethodKey = std::pair<Direction, std::string>;

// A request waiting for its answer (or never answered).
struct Asked {
  std::uint64_t seq;
  const MethodKey* key;
  MethodStats* stats;
  ToolSummary* tool;  // a tools/call with a name
  bool answered = false;
};

class Summarizer {
 public:
  void Message(const RecordedMessage& m, const Value& msg) {
    const Classified c = Classify(msg);
    if ((c.kind == MessageKind::kRequest || c.kind == MessageKind::kNotification) &&
        c.method == kUnrecordedMethod) {
      const Value* reason =
          c.params && c.params->is_object() ? c.params->FindLast("reason") : nullptr;
      ++unrecorded_[reason && reason->is_string() ? std::string(reason->text()) : ""];
      return;
    }
    if (c.kind == MessageKind::kRequest || c.kind == MessageKind::kNotification) {
      const auto it = methods_.try_emplace(MethodKey(m.dir, std::string(c.method))).first;
      MethodStats& stats = it->second;
      if (c.kind == MessageKind::kNotification) {
        ++stats.notifications;
        return;
      }
      ++stats.requests;
      ToolSummary* tool = nullptr;
      const Value* name = c.params && c.params->is_object() ? c.params->FindLast("name") : nullptr;
      if (m.dir == Direction::kClientToServer && c.method == "tools/call" && name &&
          name->is_string()) {
        tool = &tools_[std::string(name->text())];
        ++tool->calls;
      }
      pending_[DirIndex(m.dir)].Add(*c.id, asked_.size());
      asked_.push_back({m.seq, &it->first, &stats, tool});
    } else if (c.kind == MessageKind::kResponse || c.kind == MessageKind::kError) {
      Answer(m, msg, c);
    }
  }

  void Finish(RecordingSummary* out) {
    for (auto& [key, stats] : methods_) {
      MethodSummary& s = out->methods.emplace_back();
      s.dir = key.first;
      s.method = key.second;
      s.requests = stats.requests;
      s.notifications = stats.notifications;
      s.errors = stats.errors;
      if (!stats.latencies.empty()) s.latency = Percentiles(std::move(stats.latencies));
    }
    for (auto& [name, tool] : tools_) {
      tool.name = name;
      out->tools.push_back(std::move(tool));
    }
    for (const Asked& a : asked_) {
      if (!a.answered) out->unanswered.push_back({a.seq, a.key->first, a.key->second});
    }
    out->errors = std::move(errors_);
    out->unrecorded.assign(unrecorded_.begin(), unrecorded_.end());
  }

 private:
  // A response answers the earliest waiting request of the other direction with its id.
  void Answer(const RecordedMessage& m, const Value& msg, const Classified& c) {
    const Direction asker = m.dir == Direction::kClientToServer ? Direction::kServerToClient
                                                                : Direction::kClientToServer;
    Asked* asked = nullptr;
    if (std::optional<std::uint64_t> i = pending_[DirIndex(asker)].Take(*c.id)) {
      asked = &asked_[*i];
      asked->answered = true;
      if (m.latency_ms) asked->stats->latencies.push_back(*m.latency_ms);
    }
    const bool error = c.kind == MessageKind::kError;
    if (asked && error) ++asked->stats->errors;
    if (asked && asked->tool && (error || IsErrorResult(msg.FindLast("result")))) {
      ++asked->tool->failed;
    }
    if (!error) return;
    ErrorResponse& e = errors_.emplace_back();
    e.seq = m.seq;
    e.dir = m.dir;
    if (asked) e.method = asked->key->second;
    const Value* object = msg.FindLast("error");
    const Value* code = object->is_object() ? object->FindLast("code") : nullptr;
    const Value* message = object->is_object() ? object->FindLast("message") : nullptr;
    e.code = code ? json::ToString(*code) : "null";
    // An excerpt: a recording of many long error messages must not be held whole.
    if (message && message->is_string()) e.message = Excerpt(message->text(), kMaxMessageBytes);
  }

  std::map<MethodKey, MethodStats> methods_;
  std::map<std::string, ToolSummary> tools_;
  std::map<std::string, std::uint64_t> unrecorded_;
  std::vector<Asked> asked_;
  PendingIds pending_[2];  // by the direction of the requests
  std::vector<ErrorResponse> errors_;
};

// Columns padded to their widest cell (in code points): text left-aligned, numbers right-aligned.
class Table {
 public:
  explicit Table(std::vector<bool> right) : right_(std::move(right)) {}
  void Row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void AppendTo(std::vector<std::string>* lines) const {
    std::vector<std::size_t> widths(right_.size(), 0);
    for (const auto& row : rows_) {
      for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], Width(row[i]));
    }
    for (const auto& row : rows_) {
      std::string line = "  ";
      for (std::size_t i = 0; i < row.size(); ++i) {
        const std::string pad(widths[i] - Width(row[i]), ' ');
        if (i > 0) line += "  ";
        line += right_[i] ? pad + row[i] : row[i] + (i + 1 < row.size() ? pad : "");
      }
      lines->push_back(std::move(line));
    }
  }

 private:
  static std::size_t Width(std::string_view s) {
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
  }
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

std::string Count(std::uint64_t n) { return std::to_string(n); }

template <typename T, typename Describe>
void AppendListed(const std::vector<T>& items, std::size_t max_listed, Describe describe,
                  std::vector<bool> right, std::vector<std::string>* lines) {
  Table table(std::move(right));
  for (std::size_t i = 0; i < items.size() && i < max_listed; ++i) table.Row(describe(items[i]));
  table.AppendTo(lines);
  if (items.size() > max_listed) {
    lines->push_back("  … and " + Count(items.size() - max_listed) + " more (--json lists all)");
  }
}

void AppendOptionalCount(std::string_view name, const std::optional<FooterSummary>& footer,
                         std::uint64_t FooterSummary::*field, std::string* out) {
  json::AppendRawMember(name, footer ? Count((*footer).*field) : "null", out);
}

}  // namespace

Result<RecordingSummary> Summarize(const LoadedRecording& recording,
                                   const RandomAccessSource& lines, std::uint64_t size) {
  RecordingSummary out;
  out.header = recording.header;
  out.has_footer = recording.has_footer;
  const std::vector<RecordedMessage>& messages = recording.messages;
  // The header is the first object line: the loader refused a recording whose first line is not.
  const std::uint64_t first = messages.empty() ? size : messages.front().offset;
  Status read = ForEachObjectLine(lines, 0, first, [&](const Value& line) {
    if (const Value* redaction = line.Find("redaction")) out.redaction = json::ToString(*redaction);
    return false;
  });
  if (!read.ok()) return read;
  if (recording.has_footer) {
    const std::uint64_t after =
        messages.empty() ? 0 : messages.back().offset + messages.back().length;
    read = ForEachObjectLine(lines, after, size, [&](const Value& line) {
      if (TypeOf(line) != "footer") return true;
      out.footer =
          FooterSummary{CountOf(line, "total_messages"), CountOf(line, "duration_ms"),
                        CountOf(line, "client_messages"), CountOf(line, "server_messages")};
      return false;
    });
    if (!read.ok()) return read;
  }
  Summarizer summarizer;
  json::Document doc;
  for (const RecordedMessage& m : messages) {
    ++out.counts[DirIndex(m.dir)][static_cast<std::size_t>(m.kind)];
    ++out.total_messages;
    if (m.kind == MessageKind::kOther) continue;  // no method, no id: nothing more to count
    if (Status s = ReadMessageLine(lines, m, &doc); !s.ok()) return s;
    const Value* msg = doc.root().Find("msg");
    if (msg && msg->is_object()) summarizer.Message(m, *msg);
  }
  summarizer.Finish(&out);
  return out;
}

std::vector<std::string> SummaryText(const RecordingSummary& s, std::size_t max_listed) {
  std::vector<std::string> lines;
  const RecordingHeader& h = s.header;
  lines.push_back("header");
  Table header({false, false});
  header.Row({"version", h.version});
  if (h.name) header.Row({"name", *h.name});
  header.Row({"upstream", h.upstream});
  header.Row({"recorded_at", h.recorded_at});
  if (!h.tags.empty()) header.Row({"tags", Join(h.tags)});
  header.Row({"thoughtjack_version", h.thoughtjack_version});
  if (s.redaction) header.Row({"redaction", *s.redaction});
  header.AppendTo(&lines);

  if (s.footer) {
    const FooterSummary& f = *s.footer;
    lines.push_back("footer: " + Count(f.total_messages) + " messages (" +
                    Count(f.client_messages) + " client, " + Count(f.server_messages) +
                    " server), " + Count(f.duration_ms) + " ms");
  } else {
    lines.push_back(s.has_footer ? "footer: present, before a message (its counts are not read)"
                                 : "footer: none (the recording did not end cleanly, EC-REC-011)");
  }

  lines.push_back("messages: " + Count(s.total_messages));
  Table kinds({false, true, true, true, true, true});
  kinds.Row({"", "request", "notification", "response", "error", "other"});
  for (Direction dir : {Direction::kClientToServer, Direction::kServerToClient}) {
    std::vector<std::string> row = {dir == Direction::kClientToServer ? "client to server"
                                                                      : "server to client"};
    for (std::uint64_t n : s.counts[DirIndex(dir)]) row.push_back(Count(n));
    kinds.Row(std::move(row));
  }
  kinds.AppendTo(&lines);

  if (!s.methods.empty()) {
    lines.push_back("methods (latency_ms of the answers: p50, p95, max)");
    Table methods({false, false, true, true, true, true, true, true});
    methods.Row({"method", "dir", "requests", "notifications", "errors", "p50", "p95", "max"});
    for (const MethodSummary& m : s.methods) {
      std::vector<std::string> row = {m.method, std::string(DirName(m.dir)), Count(m.requests),
                                      Count(m.notifications), Count(m.errors)};
      for (std::uint64_t LatencySummary::*p :
           {&LatencySummary::p50, &LatencySummary::p95, &LatencySummary::max}) {
        row.push_back(m.latency ? Count((*m.latency).*p) : "-");
      }
      methods.Row(std::move(row));
    }
    methods.AppendTo(&lines);
  }

  if (!s.tools.empty()) {
    lines.push_back("tools called");
    Table tools({false, true, true});
    tools.Row({"tool", "calls", "failed"});
    for (const ToolSummary& t : s.tools) tools.Row({t.name, Count(t.calls), Count(t.failed)});
    tools.AppendTo(&lines);
  }

  lines.push_back("unanswered requests: " + Count(s.unanswered.size()));
  AppendListed(
      s.unanswered, max_listed,
      [](const UnansweredRequest& u) {
        return std::vector<std::string>{"seq " + Count(u.seq), std::string(DirName(u.dir)),
                                        u.method};
      },
      {false, false, false}, &lines);

  lines.push_back("errors: " + Count(s.errors.size()));
  AppendListed(
      s.errors, max_listed,
      [](const ErrorResponse& e) {
        return std::vector<std::string>{"seq " + Count(e.seq), std::string(DirName(e.dir)),
                                        e.method.value_or("(no request)"), e.code,
                                        Excerpt(e.message, 120)};
      },
      {false, false, false, true, false}, &lines);

  if (!s.unrecorded.empty()) {
    lines.push_back("lines the recorder could not record (arcs/unrecorded), by reason");
    Table unrecorded({false, true});
    for (const auto& [reason, n] : s.unrecorded) {
      unrecorded.Row({reason.empty() ? "(no reason)" : reason, Count(n)});
    }
    unrecorded.AppendTo(&lines);
  }
  return lines;
}

// {"header": {"version", "name" (null when absent), "tags", "recorded_at", "upstream",
//   "thoughtjack_version", "redaction" (null when absent)},
//  "footer": {"present", "total_messages", "duration_ms", "client_messages", "server_messages"
//   (null when not read)},
//  "messages": {"total", "c2s": {"request", "notification", "response", "error", "other"}, "s2c"},
//  "methods": [{"method", "dir", "requests", "notifications", "errors",
//   "latency_ms": null or {"count", "p50", "p95", "max"}}],
//  "tools": [{"name", "calls", "failed"}], "unanswered": [{"seq", "dir", "method"}],
//  "errors": [{"seq", "dir", "method" (null without a request), "code", "message"}],
//  "unrecorded": [{"reason", "count"}]}
std::string SummaryJson(const RecordingSummary& s) {
  const RecordingHeader& h = s.header;
  std::string out = "{\"header\":{";
  json::AppendMember("version", h.version, &out);
  std::string name = "null";
  if (h.name) {
    name.clear();
    json::AppendQuoted(*h.name, &name);
  }
  json::AppendRawMember("name", name, &out);
  out += ",\"tags\":[";
  for (std::size_t i = 0; i < h.tags.size(); ++i) {
    if (i > 0) out += ',';
    json::AppendQuoted(h.tags[i], &out);
  }
  out += ']';
  json::AppendMember("recorded_at", h.recorded_at, &out);
  json::AppendMember("upstream", h.upstream, &out);
  json::AppendMember("thoughtjack_version", h.thoughtjack_version, &out);
  json::AppendRawMember("redaction", s.redaction.value_or("null"), &out);
  out += "},\"footer\":{";
  json::AppendRawMember("present", s.has_footer ? "true" : "false", &out);
  AppendOptionalCount("total_messages", s.footer, &FooterSummary::total_messages, &out);
  AppendOptionalCount("duration_ms", s.footer, &FooterSummary::duration_ms, &out);
  AppendOptionalCount("client_messages", s.footer, &FooterSummary::client_messages, &out);
  AppendOptionalCount("server_messages", s.footer, &FooterSummary::server_messages, &out);
  out += "},\"messages\":{";
  json::AppendRawMember("total", Count(s.total_messages), &out);
  for (Direction dir : {Direction::kClientToServer, Direction::kServerToClient}) {
    std::string kinds = "{";
    for (std::size_t k = 0; k < 5; ++k) {
      json::AppendRawMember(MessageKindName(static_cast<MessageKind>(k)),
                            Count(s.counts[DirIndex(dir)][k]), &kinds);
    }
    json::AppendRawMember(DirName(dir), kinds + "}", &out);
  }
  out += "},\"methods\":[";
  for (std::size_t i = 0; i < s.methods.size(); ++i) {
    const MethodSummary& m = s.methods[i];
    out += i > 0 ? ",{" : "{";
    json::AppendMember("method", m.method, &out);
    json::AppendMember("dir", DirName(m.dir), &out);
    json::AppendRawMember("requests", Count(m.requests), &out);
    json::AppendRawMember("notifications", Count(m.notifications), &out);
    json::AppendRawMember("errors", Count(m.errors), &out);
    std::string latency = "null";
    if (m.latency) {
      latency = "{";
      json::AppendRawMember("count", Count(m.latency->count), &latency);
      json::AppendRawMember("p50", Count(m.latency->p50), &latency);
      json::AppendRawMember("p95", Count(m.latency->p95), &latency);
      json::AppendRawMember("max", Count(m.latency->max), &latency);
      latency += '}';
    }
    json::AppendRawMember("latency_ms", latency, &out);
    out += '}';
  }
  out += "],\"tools\":[";
  for (std::size_t i = 0; i < s.tools.size(); ++i) {
    out += i > 0 ? ",{" : "{";
    json::AppendMember("name", s.tools[i].name, &out);
    json::AppendRawMember("calls", Count(s.tools[i].calls), &out);
    json::AppendRawMember("failed", Count(s.tools[i].failed), &out);
    out += '}';
  }
  out += "],\"unanswered\":[";
  for (std::size_t i = 0; i < s.unanswered.size(); ++i) {
    out += i > 0 ? ",{" : "{";
    json::AppendRawMember("seq", Count(s.unanswered[i].seq), &out);
    json::AppendMember("dir", DirName(s.unanswered[i].dir), &out);
    json::AppendMember("method", s.unanswered[i].method, &out);
    out += '}';
  }
  out += "],\"errors\":[";
  for (std::size_t i = 0; i < s.errors.size(); ++i) {
    const ErrorResponse& e = s.errors[i];
    out += i > 0 ? ",{" : "{";
    json::AppendRawMember("seq", Count(e.seq), &out);
    json::AppendMember("dir", DirName(e.dir), &out);
    std::string method = "null";
    if (e.method) {
      method.clear();
      json::AppendQuoted(*e.method, &method);
    }
    json::AppendRawMember("method", method, &out);
    json::AppendRawMember("code", e.code, &out);
    json::AppendMember("message", e.message, &out);
    out += '}';
  }
  out += "],\"unrecorded\":[";
  for (std::size_t i = 0; i < s.unrecorded.size(); ++i) {
    out += i > 0 ? ",{" : "{";
    json::AppendMember("reason", s.unrecorded[i].first, &out);
    json::AppendRawMember("count", Count(s.unrecorded[i].second), &out);
    out += '}';
  }
  return out + "]}";
}

}  // namespace arcs::mcp_record_replay
