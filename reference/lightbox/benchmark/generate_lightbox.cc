// arcs_generate_lightbox: writes a realistic Lightbox v1 events.jsonl of a chosen size, chained
// correctly, for the speed and memory benchmark (reference/lightbox/benchmark/bench.sh).
//
//   arcs_generate_lightbox --out PATH (--bytes N[K|M|G] | --events N) [--content-scale K]
//                          [--seed S] [--python-lines PERCENT]
//
// One session of tool invocations (lightbox.md's field tables): schema_version "1", one
// session_id, invocation ids inv_00001, inv_00002, ... (more digits past 99999), a tool among
// ten, input and output objects whose shape depends on the tool (paths, commands, e-mails, SQL
// rows with non-ASCII member names, LLM messages, search results, nested request bodies, integers
// beyond 64 bits), timestamps in ISO 8601 with milliseconds (now and then skewed backwards:
// "timestamps are observational only"). Status is complete, error (with an error object; half of
// the failed calls are retried under a new invocation_id with retry_of) or pending: an async call,
// whose resolution follows 1 to 20 events later with the same invocation_id, input {} and the
// output or error. Some calls are nested (parent_invocation), carry actors, stream (chunk_count,
// total_bytes), or are redacted: a sensitive value as "[REDACTED]", an oversized one as
// {"_redacted":true,"_reason":"size_limit","_bytes":N}, each with its content_hashes entry.
// Strings are 10 B to 16 KiB (times --content-scale) of prose and code with escapes (\n, \t, \",
// \\, \u001b), raw non-ASCII UTF-8 in 2-, 3- and 4-byte sequences (astral characters included), DEL
// and U+2028.
//
// Each event's prev_hash and hash are computed with the reference (lightbox::CanonicalBytes, then
// SHA-256), so the file verifies intact. The lines are written in two ways, since the bytes on
// disk are not the canonical bytes (NOTES.md): --python-lines percent of them (default 25) the
// way the upstream Python recorder writes them (json.dumps's defaults: members in the order the
// recorder builds them, ", " and ": " separators, every non-ASCII character and DEL as \uXXXX, a
// surrogate pair above U+FFFF, "hash" last), the others as lightbox::WriteChain does (the
// canonical bytes, "hash" last).
//
// Deterministic: the same arguments give the same bytes. The shape of the file (which events,
// tools, statuses, lengths, line styles) and the content bytes come from two separate random
// streams, so --content-scale 4 with the same --events and --seed gives the same events, only with
// four times the text. At the end it prints the counts bench.sh reads: events, distinct
// invocation ids, bytes and the longest line.
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/sha256.h"
#include "reference/core/testing/generated_text.h"
#include "reference/lightbox/lightbox.h"

namespace {

using arcs::testing::AppendJsonString;
using arcs::testing::AppendText;
using arcs::testing::ParseSize;
using arcs::testing::Rng;

// Writes one JSON value in either style: compact with raw UTF-8, or Python's json.dumps defaults
// (", " and ": ", ASCII escapes). Members come in the order they are written (the recorder's
// order); the canonical form sorts them.
class JsonOut {
 public:
  JsonOut(bool python, std::string* out) : python_(python), out_(out) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  void Key(std::string_view name) {
    Frame& frame = stack_.back();
    if (!frame.first) out_->append(python_ ? ", " : ",");
    frame.first = false;
    AppendJsonString(name, python_, out_);
    out_->append(python_ ? ": " : ":");
    after_key_ = true;
  }
  void String(std::string_view text) {
    BeforeValue();
    AppendJsonString(text, python_, out_);
  }
  void Int(std::int64_t n) { Raw(std::to_string(n)); }
  void Bool(bool b) { Raw(b ? "true" : "false"); }
  void Null() { Raw("null"); }
  void Raw(std::string_view json) {
    BeforeValue();
    out_->append(json);
  }

 private:
  struct Frame {
    bool first = true;
  };
  void BeforeValue() {
    if (after_key_) {
      after_key_ = false;
    } else if (!stack_.empty()) {
      if (!stack_.back().first) out_->append(python_ ? ", " : ",");
      stack_.back().first = false;
    }
  }
  void Open(char c) {
    BeforeValue();
    out_->push_back(c);
    stack_.push_back(Frame{});
  }
  void Close(char c) {
    out_->push_back(c);
    stack_.pop_back();
  }

  bool python_;
  std::string* out_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
};

// "2025-01-15T10:23:01.123+00:00" for ms milliseconds after 2025-01-15T10:00:00Z, as Python's
// datetime.isoformat(timespec="milliseconds") writes an aware UTC time.
std::string Timestamp(std::int64_t ms) {
  constexpr std::int64_t kStart = 1736935200000;  // 2025-01-15T10:00:00Z
  const std::int64_t t = kStart + ms;
  std::int64_t days = t / 86400000;
  const std::int64_t in_day = t % 86400000;
  // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
  days += 719468;
  const std::int64_t era = days / 146097;
  const std::int64_t doe = days - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2);
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lld+00:00",
                static_cast<long long>(year), static_cast<long long>(month),
                static_cast<long long>(day), static_cast<long long>(in_day / 3600000),
                static_cast<long long>(in_day / 60000 % 60),
                static_cast<long long>(in_day / 1000 % 60), static_cast<long long>(in_day % 1000));
  return buffer;
}

std::string InvocationId(std::uint64_t n) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "inv_%05llu", static_cast<unsigned long long>(n));
  return buffer;
}

constexpr std::string_view kTools[] = {"read_file",    "write_file", "bash",     "web_fetch",
                                       "send_email",   "sql_query",  "llm_call", "search",
                                       "http_request", "list_dir"};
constexpr std::size_t kToolCount = sizeof(kTools) / sizeof(kTools[0]);

struct Options {
  std::string out;
  std::uint64_t bytes = 0;   // stop at the first event that brings the file to this size
  std::uint64_t events = 0;  // or write exactly this many events
  double content_scale = 1.0;
  std::uint64_t seed = 1;
  unsigned python_lines = 25;  // percent of the lines written as the Python recorder does
};

class Generator {
 public:
  explicit Generator(const Options& options)
      : options_(options), shape_(options.seed), content_(options.seed ^ 0xC0FFEEull) {
    session_id_ = "session_" + Hex(shape_, 32);
  }

  int Run() {
    FILE* file = options_.out == "-" ? stdout : std::fopen(options_.out.c_str(), "wb");
    if (!file) {
      std::cerr << "arcs_generate_lightbox: " << options_.out << ": " << std::strerror(errno)
                << "\n";
      return 2;
    }
    file_ = file;
    while (!Done()) {
      if (!Step()) {
        if (file != stdout) std::fclose(file);
        return 2;
      }
    }
    Flush(true);
    const bool failed = std::ferror(file) != 0;
    if ((file != stdout && std::fclose(file) != 0) || failed) {
      std::cerr << "arcs_generate_lightbox: " << options_.out << ": write failed\n";
      return 2;
    }
    std::cerr << "arcs_generate_lightbox: " << options_.out << ": " << events_ << " events, "
              << invocations_ << " invocations, " << written_ << " bytes, longest line " << longest_
              << " bytes, " << python_written_ << " python-style lines\n";
    return 0;
  }

 private:
  struct Pending {
    std::uint64_t invocation;
    std::size_t tool;
    std::int64_t start_ms;
    std::uint64_t due;  // the event index at which it resolves
  };

  bool Done() const {
    return options_.events ? events_ >= options_.events : written_ >= options_.bytes;
  }

  static std::string Hex(Rng& rng, std::size_t digits) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    while (out.size() < digits) {
      std::uint64_t r = rng.Next();
      for (int i = 0; i < 16 && out.size() < digits; ++i, r >>= 4) out.push_back(kHex[r & 15]);
    }
    return out;
  }

  std::size_t Length(std::uint64_t lo, std::uint64_t hi) {
    return static_cast<std::size_t>(static_cast<double>(shape_.LogUniform(lo, hi)) *
                                    options_.content_scale);
  }

  // A string of prose or code of Length(lo, hi) bytes.
  void Text(std::uint64_t lo, std::uint64_t hi) {
    text_.clear();
    AppendText(content_, Length(lo, hi), &text_);
    json_->String(text_);
  }

  void Redacted(std::string_view key, std::string path) {
    json_->Key(key);
    json_->String("[REDACTED]");
    content_hashes_.push_back(std::move(path));
  }

  // {"_redacted":true,"_reason":"size_limit","_bytes":N} in place of an oversized value.
  void Oversized(std::string_view key, std::string path) {
    json_->Key(key);
    json_->BeginObject();
    json_->Key("_redacted");
    json_->Bool(true);
    json_->Key("_reason");
    json_->String("size_limit");
    json_->Key("_bytes");
    json_->Int(static_cast<std::int64_t>(shape_.Between(65537, 5'000'000)));
    json_->EndObject();
    content_hashes_.push_back(std::move(path));
  }

  // A member holding text, or now and then its size_limit redaction.
  void TextMember(std::string_view key, std::string_view where, std::uint64_t lo,
                  std::uint64_t hi) {
    if (shape_.Chance(1)) return Oversized(key, std::string(where) + "." + std::string(key));
    json_->Key(key);
    Text(lo, hi);
  }

  std::string Path() {
    static constexpr std::string_view kPaths[] = {"src/auth.py",           "src/server/handlers.ts",
                                                  "docs/日本語/README.md", "tests/test_ünïcode.py",
                                                  "build/out.log",         "/etc/hosts",
                                                  "notes/🚀 launch.md",     "Cargo.toml"};
    return std::string(kPaths[shape_.Below(8)]);
  }

  void Input(std::size_t tool) {
    JsonOut& j = *json_;
    j.BeginObject();
    switch (tool) {
      case 0:  // read_file
        j.Key("path");
        j.String(Path());
        j.Key("offset");
        j.Int(static_cast<std::int64_t>(shape_.Below(4) * 2000));
        j.Key("limit");
        j.Int(2000);
        break;
      case 1:  // write_file
        j.Key("path");
        j.String(Path());
        TextMember("content", "input", 100, 16384);
        j.Key("mode");
        j.String("0644");
        break;
      case 2:  // bash
        j.Key("command");
        Text(10, 400);
        j.Key("cwd");
        j.String("/home/dev/projekt-ü");
        j.Key("timeout_ms");
        j.Int(120000);
        j.Key("env");
        j.BeginObject();
        j.Key("PATH");
        j.String("/usr/local/bin:/usr/bin:/bin");
        j.Key("LANG");
        j.String("C.UTF-8");
        if (shape_.Chance(20)) Redacted("GITHUB_TOKEN", "input.env.GITHUB_TOKEN");
        j.EndObject();
        break;
      case 3:  // web_fetch
        j.Key("url");
        j.String("https://example.com/docs/api?page=" + std::to_string(shape_.Below(50)) +
                 "&lang=ja");
        j.Key("headers");
        j.BeginObject();
        j.Key("User-Agent");
        j.String("lightbox/0.1.0");
        j.Key("Accept");
        j.String("text/html");
        j.Key("accept-encoding");
        j.String("gzip");
        if (shape_.Chance(30)) Redacted("Authorization", "input.headers.Authorization");
        j.EndObject();
        break;
      case 4:  // send_email
        j.Key("to");
        j.String(shape_.Chance(20) ? "josé.müller@example.com" : "user@example.com");
        j.Key("subject");
        Text(10, 120);
        TextMember("body", "input", 50, 4096);
        break;
      case 5:  // sql_query
        j.Key("query");
        Text(20, 600);
        j.Key("params");
        j.BeginArray();
        j.Int(static_cast<std::int64_t>(shape_.Below(100000)));
        j.String("Müller");
        j.Null();
        j.Bool(true);
        j.Int(-7);
        j.EndArray();
        break;
      case 6: {  // llm_call
        j.Key("model");
        j.String("claude-3-5-sonnet-20241022");
        j.Key("temperature");
        j.String("0.7");  // "use string representations for decimals"
        j.Key("max_tokens");
        j.Int(4096);
        j.Key("messages");
        j.BeginArray();
        const std::uint64_t messages = shape_.Between(1, 4);
        for (std::uint64_t m = 0; m < messages; ++m) {
          j.BeginObject();
          j.Key("role");
          j.String(m == 0 ? "system" : m % 2 ? "user" : "assistant");
          j.Key("content");
          Text(20, 4096);
          j.EndObject();
        }
        j.EndArray();
        Redacted("api_key", "input.api_key");
        break;
      }
      case 7:  // search
        j.Key("query");
        Text(5, 200);
        j.Key("limit");
        j.Int(10);
        j.Key("filters");
        j.BeginObject();
        j.Key("lang");
        j.String("ja");
        j.Key("since");
        j.String("2024-12-01");
        j.EndObject();
        break;
      case 8:  // http_request
        j.Key("method");
        j.String("POST");
        j.Key("url");
        j.String("https://api.example.com/v2/users");
        j.Key("body");
        j.BeginObject();
        j.Key("user");
        j.BeginObject();
        j.Key("name");
        j.String("José Ünal 🙂");
        j.Key("id");
        // Beyond 64 bits now and then: Python's integers have no bound.
        j.Raw(shape_.Chance(10) ? "123456789012345678901234567890"
                                : std::to_string(shape_.Below(1'000'000'000)));
        j.Key("tags");
        j.BeginArray();
        j.String("beta");
        j.String("ñ");
        j.String("𝔘");
        j.EndArray();
        j.EndObject();
        j.Key("note");
        Text(10, 1000);
        j.EndObject();
        Redacted("api_key", "input.api_key");
        break;
      default:  // list_dir
        j.Key("path");
        j.String("src/");
        j.Key("recursive");
        j.Bool(shape_.Chance(50));
        break;
    }
    j.EndObject();
  }

  void Output(std::size_t tool) {
    JsonOut& j = *json_;
    j.BeginObject();
    switch (tool) {
      case 0:  // read_file
        TextMember("content", "output", 100, 8192);
        j.Key("bytes");
        j.Int(static_cast<std::int64_t>(shape_.Between(100, 200000)));
        j.Key("truncated");
        j.Bool(shape_.Chance(5));
        break;
      case 1:  // write_file
        j.Key("success");
        j.Bool(true);
        j.Key("bytes_written");
        j.Int(static_cast<std::int64_t>(shape_.Between(100, 20000)));
        break;
      case 2:  // bash
        TextMember("stdout", "output", 10, 8192);
        j.Key("stderr");
        if (shape_.Chance(30)) {
          Text(10, 400);
        } else {
          j.String("");
        }
        j.Key("exit_code");
        j.Int(shape_.Chance(85) ? 0 : -static_cast<std::int64_t>(shape_.Between(1, 15)));
        break;
      case 3:  // web_fetch
        j.Key("status");
        j.Int(200);
        TextMember("body", "output", 200, 8192);
        j.Key("headers");
        j.BeginObject();
        j.Key("content-type");
        j.String("text/html; charset=utf-8");
        j.Key("Content-Length");
        j.Int(static_cast<std::int64_t>(shape_.Between(200, 100000)));
        j.EndObject();
        break;
      case 4:  // send_email
        j.Key("success");
        j.Bool(true);
        j.Key("message_id");
        j.String("msg_" + std::to_string(shape_.Below(1'000'000)));
        break;
      case 5: {  // sql_query: rows as objects, with member names that sort differently by code
                 // point than by UTF-16 (an astral name against a U+FFxx one) and by case.
        j.Key("rows");
        j.BeginArray();
        const std::uint64_t rows = shape_.Below(5);
        for (std::uint64_t r = 0; r < rows; ++r) {
          j.BeginObject();
          j.Key("id");
          j.Int(static_cast<std::int64_t>(shape_.Below(100000)));
          j.Key("名前");
          Text(3, 40);
          j.Key("Name");
          j.String("Zoë");
          j.Key("🚀");
          j.Bool(r % 2 == 0);
          j.Key("\uff5e");
          j.Null();
          j.Key("ñame");
          j.String("ñ");
          j.EndObject();
        }
        j.EndArray();
        j.Key("row_count");
        j.Int(static_cast<std::int64_t>(rows));
        break;
      }
      case 6:  // llm_call
        TextMember("content", "output", 100, 6000);
        j.Key("stop_reason");
        j.String("end_turn");
        j.Key("usage");
        j.BeginObject();
        j.Key("input_tokens");
        j.Int(static_cast<std::int64_t>(shape_.Between(10, 100000)));
        j.Key("output_tokens");
        j.Int(static_cast<std::int64_t>(shape_.Between(10, 4096)));
        j.EndObject();
        break;
      case 7: {  // search
        j.Key("results");
        j.BeginArray();
        const std::uint64_t results = shape_.Between(1, 5);
        for (std::uint64_t r = 0; r < results; ++r) {
          j.BeginObject();
          j.Key("title");
          Text(10, 80);
          j.Key("url");
          j.String("https://example.org/r/" + std::to_string(r));
          j.Key("snippet");
          Text(40, 600);
          j.EndObject();
        }
        j.EndArray();
        break;
      }
      case 8:  // http_request
        j.Key("status");
        j.Int(201);
        j.Key("body");
        j.BeginObject();
        j.Key("ok");
        j.Bool(true);
        j.Key("id");
        j.Int(static_cast<std::int64_t>(shape_.Below(1'000'000)));
        j.EndObject();
        break;
      default:  // list_dir
        j.Key("entries");
        j.BeginArray();
        for (std::string_view e : {"auth.py", "server/", "日本語.txt", "🚀.md", "Makefile"}) {
          j.String(e);
        }
        j.EndArray();
        break;
    }
    j.EndObject();
  }

  void Error() {
    static constexpr std::string_view kTypes[] = {"TimeoutError", "HTTPError", "PermissionError",
                                                  "ValueError"};
    JsonOut& j = *json_;
    j.Key("error");
    j.BeginObject();
    j.Key("type");
    j.String(kTypes[shape_.Below(4)]);
    j.Key("message");
    Text(20, 400);
    j.Key("code");
    j.Int(static_cast<std::int64_t>(shape_.Between(400, 599)));
    if (shape_.Chance(30)) {
      j.Key("traceback");
      Text(200, 2000);
    }
    j.EndObject();
  }

  // One event: a new invocation (complete, error or pending), or the resolution of a pending one
  // that is due. False when the reference refuses the event (a bug here).
  bool Step() {
    const bool python = shape_.Below(100) < options_.python_lines;
    line_.clear();
    JsonOut json(python, &line_);
    json_ = &json;
    content_hashes_.clear();

    // The next due resolution first, else a new invocation.
    std::size_t due = pending_.size();
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].due <= events_ &&
          (due == pending_.size() || pending_[i].due < pending_[due].due))
        due = i;
    }
    ms_ += static_cast<std::int64_t>(shape_.LogUniform(1, 5000));
    json.BeginObject();
    json.Key("schema_version");
    json.String(arcs::lightbox::kSchemaVersion);
    json.Key("session_id");
    json.String(session_id_);
    if (due < pending_.size()) {
      const Pending p = pending_[due];
      pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(due));
      const bool error = shape_.Chance(10);
      json.Key("invocation_id");
      json.String(InvocationId(p.invocation));
      json.Key("tool");
      json.String(kTools[p.tool]);
      json.Key("input");
      json.Raw("{}");
      json.Key("output");
      if (error) {
        json.Null();
      } else {
        Output(p.tool);
      }
      json.Key("status");
      json.String(error ? "error" : "complete");
      json.Key("timestamp_start");
      json.String(Timestamp(p.start_ms));
      json.Key("timestamp_end");
      json.String(Timestamp(ms_));
      if (error) Error();
    } else {
      const std::uint64_t id = ++invocations_;
      std::size_t tool = static_cast<std::size_t>(shape_.Below(kToolCount));
      std::uint64_t retry_of = 0;
      if (!failed_.empty() && shape_.Chance(50)) {
        retry_of = failed_.front();
        tool = failed_tools_.front();
        failed_.pop_front();
        failed_tools_.pop_front();
      }
      const unsigned kind = static_cast<unsigned>(shape_.Below(100));
      const bool pending = kind < 6;
      const bool error = !pending && kind < 14;
      // "Timestamps are observational only (may be skewed)": now and then one goes backwards.
      std::int64_t start = ms_;
      if (shape_.Chance(2)) start = std::max<std::int64_t>(0, start - 2000);
      json.Key("invocation_id");
      json.String(InvocationId(id));
      json.Key("tool");
      json.String(kTools[tool]);
      json.Key("input");
      Input(tool);
      json.Key("output");
      if (pending || error) {
        json.Null();
      } else {
        Output(tool);
      }
      json.Key("status");
      json.String(pending ? "pending" : error ? "error" : "complete");
      json.Key("timestamp_start");
      json.String(Timestamp(start));
      json.Key("timestamp_end");
      if (pending) {
        json.Null();
        pending_.push_back(Pending{id, tool, start, events_ + shape_.Between(1, 20)});
      } else {
        json.String(Timestamp(start + static_cast<std::int64_t>(shape_.LogUniform(1, 30000))));
      }
      if (!recent_.empty() && shape_.Chance(15)) {
        json.Key("parent_invocation");
        json.String(InvocationId(recent_[shape_.Below(recent_.size())]));
      }
      if (shape_.Chance(70)) {
        static constexpr std::string_view kActors[] = {"agent", "user", "service:scheduler"};
        json.Key("actor");
        json.String(kActors[shape_.Below(3)]);
        json.Key("originating_actor");
        json.String(shape_.Chance(20) ? "user:José Ñúñez" : "user:alice");
      }
      if (error) Error();
      if (!pending && !error && (tool == 3 || tool == 6) && shape_.Chance(30)) {
        json.Key("chunk_count");
        json.Int(static_cast<std::int64_t>(shape_.Between(1, 400)));
        json.Key("total_bytes");
        json.Int(static_cast<std::int64_t>(shape_.Between(100, 10'000'000)));
      }
      if (retry_of) {
        json.Key("retry_of");
        json.String(InvocationId(retry_of));
      }
      if (error && failed_.size() < 8 && shape_.Chance(50)) {
        failed_.push_back(id);
        failed_tools_.push_back(tool);
      }
      recent_.push_back(id);
      if (recent_.size() > 8) recent_.erase(recent_.begin());
    }
    if (!content_hashes_.empty()) {
      json.Key("content_hashes");
      json.BeginObject();
      for (const std::string& path : content_hashes_) {
        json.Key(path);
        json.String(Hex(content_, 64));
      }
      json.EndObject();
    }
    json.Key("prev_hash");
    if (prev_hash_.empty()) {
      json.Null();
    } else {
      json.String(prev_hash_);
    }
    json.EndObject();
    json_ = nullptr;
    return Chain(python);
  }

  // Hashes the event in line_ with the reference and appends it to the output, with "hash" last.
  bool Chain(bool python) {
    if (!document_.Parse(line_)) {
      std::cerr << "arcs_generate_lightbox: event " << events_
                << " is not JSON: " << document_.error().message << "\n";
      return false;
    }
    arcs::Result<std::string> canonical = arcs::lightbox::CanonicalBytes(document_.root());
    if (!canonical.ok()) {
      std::cerr << "arcs_generate_lightbox: event " << events_ << ": "
                << canonical.status().message() << "\n";
      return false;
    }
    prev_hash_ = arcs::ToHex(arcs::Sha256::Of(*canonical));
    const std::size_t before = out_.size();
    const std::string& body = python ? line_ : *canonical;
    out_.append(body, 0, body.size() - 1);  // without its closing brace
    out_ += python ? ", \"hash\": \"" : ",\"hash\":\"";
    out_ += prev_hash_;
    out_ += "\"}\n";
    const std::size_t size = out_.size() - before;
    longest_ = std::max<std::uint64_t>(longest_, size - 1);
    written_ += size;
    python_written_ += python;
    ++events_;
    Flush(false);
    return true;
  }

  void Flush(bool all) {
    if (out_.size() < (4u << 20) && !all) return;
    std::fwrite(out_.data(), 1, out_.size(), file_);
    out_.clear();
  }

  Options options_;
  Rng shape_;    // which events, tools, statuses, lengths, line styles
  Rng content_;  // the bytes of the text and of the content hashes
  std::string session_id_;
  FILE* file_ = nullptr;
  std::string out_;   // pending output
  std::string line_;  // the event being built, without "hash"
  std::string text_;  // raw text before escaping
  JsonOut* json_ = nullptr;
  std::vector<std::string> content_hashes_;  // paths of this event's redacted values
  arcs::json::Document document_;
  std::string prev_hash_;
  std::vector<Pending> pending_;
  std::deque<std::uint64_t> failed_;  // failed invocations that will be retried
  std::deque<std::size_t> failed_tools_;
  std::vector<std::uint64_t> recent_;  // the last invocations, parents for nested calls
  std::int64_t ms_ = 0;
  std::uint64_t invocations_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t written_ = 0;
  std::uint64_t longest_ = 0;
  std::uint64_t python_written_ = 0;
};

constexpr char kUsage[] =
    "usage: arcs_generate_lightbox --out PATH (--bytes N[K|M|G] | --events N)\n"
    "                              [--content-scale K] [--seed S] [--python-lines PERCENT]\n"
    "Writes a Lightbox v1 events.jsonl whose chain verifies intact; PATH may be - for standard\n"
    "output.\n";

}  // namespace

int main(int argc, char** argv) {
  Options options;
  std::uint64_t python_lines = options.python_lines;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (a == "--out" && has_value) {
      options.out = argv[++i];
    } else if (a == "--bytes" && has_value && ParseSize(argv[i + 1], &options.bytes)) {
      ++i;
    } else if (a == "--events" && has_value && ParseSize(argv[i + 1], &options.events)) {
      ++i;
    } else if (a == "--seed" && has_value && ParseSize(argv[i + 1], &options.seed)) {
      ++i;
    } else if (a == "--python-lines" && has_value && ParseSize(argv[i + 1], &python_lines) &&
               python_lines <= 100) {
      ++i;
    } else if (a == "--content-scale" && has_value) {
      options.content_scale = std::strtod(argv[++i], nullptr);
    } else {
      std::cerr << "arcs_generate_lightbox: bad argument " << a << "\n" << kUsage;
      return 2;
    }
  }
  options.python_lines = static_cast<unsigned>(python_lines);
  if (options.out.empty() || (options.bytes == 0) == (options.events == 0) ||
      !(options.content_scale > 0)) {
    std::cerr << kUsage;
    return 2;
  }
  return Generator(options).Run();
}
