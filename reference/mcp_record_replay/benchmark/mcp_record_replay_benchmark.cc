// The MCP record/replay format's speed, each figure a ratio against a baseline measured in the
// same run (issue #12 part 7):
//
//   arcs_mcp_record_replay_benchmark [--bytes 100M] [--runs 5] [--seed 1] [--messages 20000]
//       [--warmup 1000] [--block 1000] [--lookups 100000]
//       [--lookup-sizes 1000,10000,100000,1000000] [--fuzzy-pairs 40000] [--arcs PATH]
//       [--record-dir DIR] [--parts load,proxy,lookup,fuzzy,http] [--write-recording FILE]
//       [--no-targets]
//   arcs_mcp_record_replay_benchmark --echo-server
//
// 1. load: generates a recording of about --bytes (deterministic: initialize, tools/list,
//    tools/call requests with arguments, responses with text of log-uniform sizes, some base64
//    images, some nested structuredContent, some errors, progress and log notifications, server
//    requests and their answers; latency_ms on every response), which CheckRecording must find
//    without a single finding, then times alternately, --runs times each (medians; each ratio
//    the median of the runs' ratios to the baseline run beside them, PairedSpeedRatio):
//      baseline  rapidjson::Reader (kParseDefaultFlags | kParseStopWhenDoneFlag, a null handler)
//                over the whole buffer through a MemoryStream, one line's value after another;
//      load      LoadRecording over a MemorySource of the same bytes (what replay and convert
//                use): target >= 0.5 x the baseline's throughput;
//      ceiling   simdjson On Demand counting every value of every line (the tokenizer ceiling;
//                timed after the others, once part 1's peak RSS is read, each run after a
//                baseline run of its own), and simdjson's DOM parser, for information;
//      check     CheckRecording, the full validator (both statements): issue #29's targets,
//                >= 1.5 x the baseline and >= 0.5 x the ceiling.
//    Also the loader's index (sizeof(RecordedMessage) x messages) against the file: memory grows
//    with the messages, never with their content. --write-recording FILE also writes the recording
//    to FILE, so that a profiler can watch `arcs validate FILE` on the same bytes.
// 2. proxy: round trips of --messages sequential requests (~200 bytes; their responses too) to a
//    trivial stdio server (this binary with --echo-server: no interpreter's start-up or garbage
//    collector in the figures), directly and through `arcs mcp record --upstream ... -o FILE`
//    (the CLI users run, so its recording is written and fsync'd as theirs is), both connections
//    open at once and measured in alternate blocks of --block after --warmup round trips each,
//    so that the machine's noise falls on both alike. Target: the added p50 and p99 (proxy minus
//    direct) each < 1 ms (NFR-001 asks < 1 ms per message; a round trip crosses the proxy twice,
//    so this is the stricter reading). The proxy's recording must then load with every message.
//    It is written in --record-dir: bench.sh's is the build directory, on disk as a user's would
//    be; a tmpfs (--record-dir /dev/shm) takes the disk's fsync out of the figures, a diagnosis.
// 3. lookup: for each of --lookup-sizes recorded request/response pairs (distinct params each,
//    all sizes held at once), a by-request Replayer answers --lookups requests per run in random
//    order, every one a hit and each recorded request asked at most once per Replayer (a new one,
//    made off the clock, when they are used up); the sizes take turns, --runs times (medians).
//    Timed on the thread's CPU clock, which a shared machine's other work does not inflate (wall
//    time shown beside it). Target: CPU ns per lookup at the largest size <= 3 x at the smallest
//    (NFR-002's "O(1) average (hash lookup)": flat but for the caches, which hold all of a small
//    index and little of a large one).
// 4. fuzzy: a recording of about --bytes holding --fuzzy-pairs tools/call requests of one tool
//    (four leaves each: the tool's name, a key, a page, a timestamp) and their responses; a fuzzy
//    Replayer answers each recorded request once, in random order, asked with another timestamp
//    (3 of 5 leaves shared: served, MRR-E36), every answer the right one. Each Handle call is
//    timed on the wall clock. Target: p99 < 1 ms per request (issue #26; NFR-002 allowed a scan
//    of every recorded request, which took 216-274 ms a request at this size).
// 5. http: part 2 on MCP's Streamable HTTP transport: an HTTP echo server in this process
//    (a POSTed request answered with application/json), reached directly and through
//    `arcs mcp record --upstream-http ... --http ...`, each on a kept-alive connection, in
//    alternate blocks as part 2. Target: the added p50 and p99 per round trip each < 1 ms.
// Prints the figures and each part's peak RSS; exit 1 when a target is missed (unless
// --no-targets, for the smoke test), 2 on usage errors or a step that fails.
#include <arpa/inet.h>
#include <fcntl.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "reference/core/base64.h"
#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/testing/generated_text.h"
#include "reference/core/testing/json_baselines.h"
#include "reference/mcp_record_replay/loader.h"
#include "reference/mcp_record_replay/recorder.h"
#include "reference/mcp_record_replay/recording.h"
#include "reference/mcp_record_replay/replay.h"
#include "reference/mcp_record_replay/upstream.h"

namespace {

namespace mrr = arcs::mcp_record_replay;
using arcs::json::testing::Median;
using arcs::json::testing::PairedSpeedRatio;
using arcs::testing::AppendJsonString;
using arcs::testing::AppendText;
using arcs::testing::Rng;
using Clock = std::chrono::steady_clock;

// What a part comes to; main's exit status is the worst of them.
enum Outcome { kPass = 0, kMissed = 1, kFailed = 2 };

struct Options {
  std::uint64_t bytes = 100 << 20;
  std::uint64_t runs = 5;
  std::uint64_t seed = 1;
  std::uint64_t messages = 20'000;
  std::uint64_t warmup = 1'000;
  std::uint64_t block = 1'000;
  std::uint64_t lookups = 100'000;
  std::vector<std::uint64_t> lookup_sizes = {1'000, 10'000, 100'000, 1'000'000};
  std::uint64_t fuzzy_pairs = 40'000;
  std::string arcs;             // default: `arcs` next to this binary (both in the build directory)
  std::string record_dir;       // default: $TMPDIR or /tmp
  std::string write_recording;  // where part 1 also writes its recording; "" for nowhere
  bool load = true, proxy = true, lookup = true, fuzzy = true, http = true;
  bool targets = true;
};

// ---------------------------------------------------------------------------------------------
// Common

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Nearest rank: the smallest value with at least p of the samples at or below it.
double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

// The kernel's high-water mark of this process's RSS is reset between parts (Linux 4.0+:
// clear_refs 5), so that each part reports its own peak rather than the largest before it.
void ResetPeakRss() {
  const int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t n = write(fd, "5", 1);
  close(fd);
}

// VmHWM in MiB (since the last reset); getrusage's peak where /proc has none.
double PeakRssMiB() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmHWM:")) return std::strtod(line.c_str() + 6, nullptr) / 1024;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024;
}

// VmRSS in MiB: what the process holds now.
double RssMiB() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) return std::strtod(line.c_str() + 6, nullptr) / 1024;
  }
  return 0;
}

std::string Mb(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  return text;
}

// ---------------------------------------------------------------------------------------------
// Recordings

// Writes a recording's lines: the header, message lines (seq from 1, ts on a clock the caller
// advances), the footer with the counts of what was written.
class RecordingWriter {
 public:
  explicit RecordingWriter(std::string* out) : out_(out) {}

  void Header() {
    *out_ += R"({"type":"header","version":"1.0","name":"benchmark","tags":["bench"],)";
    *out_ += R"("recorded_at":")" + Timestamp() + R"(","upstream":"npx -y server-everything",)";
    *out_ += R"("thoughtjack_version":"arcs benchmark"})";
    *out_ += '\n';
  }

  void Message(bool c2s, std::string_view msg, std::optional<std::uint64_t> latency_ms) {
    *out_ += R"({"type":"message","seq":)" + std::to_string(++seq_) + R"(,"ts":")" + Timestamp() +
             (c2s ? R"(","dir":"c2s","msg":)" : R"(","dir":"s2c","msg":)");
    *out_ += msg;
    if (latency_ms) *out_ += R"(,"latency_ms":)" + std::to_string(*latency_ms);
    *out_ += "}\n";
    ++(c2s ? client_ : server_);
  }

  void Footer() {
    *out_ += R"({"type":"footer","total_messages":)" + std::to_string(seq_) + R"(,"duration_ms":)" +
             std::to_string(now_ms_) + R"(,"client_messages":)" + std::to_string(client_) +
             R"(,"server_messages":)" + std::to_string(server_) + "}\n";
  }

  void Advance(std::uint64_t ms) { now_ms_ += ms; }
  std::uint64_t messages() const { return seq_; }

 private:
  std::string Timestamp() const {
    constexpr std::uint64_t k20250101 = 1'735'689'600'000;  // ms since the epoch
    return mrr::FormatTimestamp(
        std::chrono::system_clock::time_point(std::chrono::milliseconds(k20250101 + now_ms_)));
  }

  std::string* out_;
  std::uint64_t seq_ = 0, client_ = 0, server_ = 0, now_ms_ = 0;
};

std::string RequestMsg(std::string_view id, std::string_view method, std::string_view params) {
  return std::string(R"({"jsonrpc":"2.0","id":)") + std::string(id) + R"(,"method":")" +
         std::string(method) + R"(","params":)" + std::string(params) + "}";
}

std::string NotificationMsg(std::string_view method, std::string_view params) {
  return std::string(R"({"jsonrpc":"2.0","method":")") + std::string(method) + R"(","params":)" +
         std::string(params) + "}";
}

std::string ResultMsg(std::string_view id, std::string_view result) {
  return std::string(R"({"jsonrpc":"2.0","id":)") + std::string(id) + R"(,"result":)" +
         std::string(result) + "}";
}

// A realistic session, for part 1: what an agent and an MCP server say to each other.
class SessionGenerator {
 public:
  SessionGenerator(std::uint64_t seed, std::string* out) : rng_(seed), out_(out), writer_(out) {}

  void Generate(std::uint64_t bytes) {
    out_->reserve(bytes + (1 << 20));
    writer_.Header();
    Exchange("initialize", kInitializeParams, kInitializeResult);
    writer_.Message(true, NotificationMsg("notifications/initialized", "{}"), std::nullopt);
    Exchange("tools/list", "{}", ToolsListResult());
    while (out_->size() < bytes) Step();
    writer_.Footer();
  }

  std::uint64_t messages() const { return writer_.messages(); }

 private:
  static constexpr char kInitializeParams[] =
      R"({"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true},)"
      R"("sampling":{}},"clientInfo":{"name":"benchmark-client","version":"1.0.0"}})";
  static constexpr char kInitializeResult[] =
      R"({"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true},)"
      R"("logging":{},"resources":{"subscribe":true}},"serverInfo":{"name":"benchmark-server",)"
      R"("version":"1.0.0"},"instructions":"Tools for searching and editing a workspace."})";
  static constexpr std::string_view kTools[] = {"search_files", "read_file",  "write_file",
                                                "run_command",  "list_dir",   "grep",
                                                "fetch_url",    "query_index"};

  void Step() {
    const std::uint64_t pick = rng_.Below(100);
    if (pick < 85) {
      ToolCall();
    } else if (pick < 90) {
      Exchange("tools/list", "{}", ToolsListResult());
    } else if (pick < 95) {
      Exchange(pick < 93 ? "resources/list" : "prompts/list", "{}",
               pick < 93 ? R"({"resources":[{"uri":"file:///README.md","name":"README.md"}]})"
                         : R"({"prompts":[]})");
    } else if (pick < 98) {
      Exchange("ping", "{}", "{}");
    } else {
      ServerRequest();
    }
  }

  // A client request and its response, the clock moved on by the server's latency.
  void Exchange(std::string_view method, std::string_view params, std::string_view result) {
    const std::string id = std::to_string(++next_id_);
    writer_.Message(true, RequestMsg(id, method, params), std::nullopt);
    Respond(ResultMsg(id, result), true);
  }

  void Respond(std::string_view msg, bool s2c) {
    const std::uint64_t latency = rng_.LogUniform(1, 5000);
    writer_.Advance(latency);
    writer_.Message(!s2c, msg, latency);
    writer_.Advance(rng_.Between(0, 50));
  }

  void ToolCall() {
    const std::string id = std::to_string(++next_id_);
    const std::string_view tool = kTools[rng_.Below(std::size(kTools))];
    writer_.Message(true, RequestMsg(id, "tools/call", ToolCallParams(tool, id)), std::nullopt);
    if (rng_.Chance(20)) Notifications(id);
    const std::uint64_t pick = rng_.Below(100);
    if (pick < 5) {
      Respond(std::string(R"({"jsonrpc":"2.0","id":)") + id +
                  R"(,"error":{"code":-32602,"message":"Invalid arguments for tool",)" +
                  R"("data":{"tool":")" + std::string(tool) + R"("}}})",
              true);
      return;
    }
    Respond(ResultMsg(id, pick < 15   ? ImageResult()
                          : pick < 30 ? NestedResult()
                                      : TextResult()),
            true);
  }

  std::string ToolCallParams(std::string_view tool, std::string_view id) {
    std::string params = R"({"name":")" + std::string(tool) + R"(","arguments":{"path":)";
    AppendJsonString("src/module_" + std::to_string(rng_.Below(50)) + "/file_" +
                         std::to_string(rng_.Below(500)) + ".py",
                     false, &params);
    params += R"(,"query":)";
    AppendJsonString(Text(5, 300), false, &params);
    params += R"(,"limit":)" + std::to_string(rng_.Between(1, 100)) +
              (rng_.Chance(50) ? R"(,"recursive":true})" : R"(,"recursive":false})");
    if (rng_.Chance(30)) params += R"(,"_meta":{"progressToken":")" + std::string(id) + "\"}";
    return params + "}";
  }

  // Progress and a log line from the server while a call runs.
  void Notifications(std::string_view id) {
    writer_.Advance(rng_.Between(1, 200));
    writer_.Message(
        false,
        NotificationMsg("notifications/progress", R"({"progressToken":")" + std::string(id) +
                                                      R"(","progress":50,"total":100})"),
        std::nullopt);
    std::string params = R"({"level":"info","logger":"benchmark-server","data":)";
    AppendJsonString(Text(10, 400), false, &params);
    writer_.Message(false, NotificationMsg("notifications/message", params + "}"), std::nullopt);
  }

  // A sampling request from the server, answered by the client (latency on the client's answer).
  void ServerRequest() {
    const std::string id = "\"s" + std::to_string(++next_server_id_) + "\"";
    std::string params = R"({"messages":[{"role":"user","content":{"type":"text","text":)";
    AppendJsonString(Text(20, 2000), false, &params);
    writer_.Message(false, RequestMsg(id, "sampling/createMessage", params + "}}]}"), std::nullopt);
    std::string result =
        R"({"role":"assistant","model":"claude-sonnet-4","content":{"type":"text",)"
        R"("text":)";
    AppendJsonString(Text(20, 4000), false, &result);
    Respond(ResultMsg(id, result + "}}"), false);
  }

  std::string TextResult() {
    std::string result = R"({"content":[{"type":"text","text":)";
    // One in five as Python's json.dumps writes it: \uXXXX for everything beyond ASCII.
    AppendJsonString(Text(10, 64 << 10), rng_.Chance(20), &result);
    return result + R"(}],"isError":false})";
  }

  std::string ImageResult() {
    std::string bytes(rng_.LogUniform(100, 48 << 10), '\0');
    for (char& c : bytes) c = static_cast<char>(rng_.Next() >> 56);
    std::string result = R"({"content":[{"type":"image","data":")";
    arcs::base64::EncodeAppend(bytes, &result);
    return result + R"(","mimeType":"image/png"}]})";
  }

  std::string NestedResult() {
    std::string result = R"({"content":[{"type":"text","text":)";
    AppendJsonString(Text(10, 2000), false, &result);
    result += R"(}],"structuredContent":{"results":[)";
    for (std::uint64_t i = 0, n = rng_.Between(1, 20); i < n; ++i) {
      if (i) result += ',';
      result += R"({"id":"r-)" + std::to_string(i) + R"(","score":0.)" +
                std::to_string(rng_.Between(100, 999)) + R"(,"tags":["code","match"],)" +
                R"("location":{"file":"src/main.py","span":{"start":{"line":)" +
                std::to_string(rng_.Below(5000)) + R"(,"col":4},"end":{"line":)" +
                std::to_string(rng_.Below(5000)) + R"(,"col":80}}},"snippet":)";
      AppendJsonString(Text(5, 300), false, &result);
      result += '}';
    }
    return result + "]}}";
  }

  std::string ToolsListResult() {
    std::string result = R"({"tools":[)";
    for (std::string_view tool : kTools) {
      if (result.back() != '[') result += ',';
      result += R"({"name":")" + std::string(tool) + R"(","description":"Runs )" +
                std::string(tool) + R"( in the workspace.","inputSchema":{"type":"object",)" +
                R"("properties":{"path":{"type":"string"},"query":{"type":"string"},)" +
                R"("limit":{"type":"integer","minimum":1},"recursive":{"type":"boolean"}},)" +
                R"("required":["path"]}})";
    }
    return result + "]}";
  }

  std::string Text(std::uint64_t lo, std::uint64_t hi) {
    std::string text;
    AppendText(rng_, rng_.LogUniform(lo, hi), &text);
    return text;
  }

  Rng rng_;
  std::string* out_;
  RecordingWriter writer_;
  std::uint64_t next_id_ = 0, next_server_id_ = 0;
};

// The findings of CheckRecording over bytes in memory (warnings too), the first few quoted.
struct CheckCount {
  std::uint64_t findings = 0;
  std::vector<std::string> first;
};

arcs::Status Check(std::string_view bytes, CheckCount* count) {
  arcs::jsonl::MemorySource source(bytes);
  return mrr::CheckRecording(&source, mrr::Limits{}, [count](mrr::RecordingFinding f) {
    if (count->first.size() < 5) {
      count->first.push_back("line " + std::to_string(f.line) + ": " + f.rule_id + " " +
                             f.schema_keyword + " " + f.message);
    }
    ++count->findings;
  });
}

bool Valid(std::string_view bytes, std::string_view what) {
  CheckCount count;
  const arcs::Status status = Check(bytes, &count);
  if (status.ok() && count.findings == 0) return true;
  std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: %.*s is not valid (%llu findings) %s\n",
               static_cast<int>(what.size()), what.data(),
               static_cast<unsigned long long>(count.findings), status.message().c_str());
  for (const std::string& f : count.first) std::fprintf(stderr, "  %s\n", f.c_str());
  return false;
}

// ---------------------------------------------------------------------------------------------
// Part 1: load

// sax[i] pairs with load[i] and check[i].
struct LoadTimes {
  std::vector<double> sax, load, check;
  arcs::json::testing::CeilingTimes ceiling;
  std::uint64_t messages = 0;
  std::size_t index_capacity = 0;
};

bool TimeLoadRun(std::string_view file, LoadTimes* times) {
  auto start = Clock::now();
  if (!arcs::json::testing::RapidJsonSaxNull(file)) return false;
  times->sax.push_back(Seconds(start));

  start = Clock::now();
  arcs::jsonl::MemorySource source(file);
  const arcs::Result<mrr::LoadedRecording> loaded = mrr::LoadRecording(&source, {});
  times->load.push_back(Seconds(start));
  if (!loaded.ok()) return false;
  times->messages = loaded->messages.size();
  times->index_capacity = loaded->messages.capacity();

  start = Clock::now();
  CheckCount count;
  if (!Check(file, &count).ok() || count.findings) return false;
  times->check.push_back(Seconds(start));
  return true;
}

Outcome LoadPart(const Options& options) {
  ResetPeakRss();
  const double rss_before = RssMiB();
  std::string file;
  SessionGenerator generator(options.seed, &file);
  generator.Generate(options.bytes);
  if (!Valid(file, "the generated recording")) return kFailed;
  if (!options.write_recording.empty()) {
    if (arcs::Status written = arcs::WriteFile(options.write_recording, file); !written.ok()) {
      std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: %s\n", written.ToString().c_str());
      return kFailed;
    }
  }
  LoadTimes times;
  for (std::uint64_t run = 0; run < options.runs; ++run) {
    if (!TimeLoadRun(file, &times) || times.messages != generator.messages()) {
      std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: a load run failed\n");
      return kFailed;
    }
  }
  // The ceiling's runs come last, after the peak RSS is read: its copy is not ARCS's memory.
  const double peak = PeakRssMiB();
  if (!arcs::json::testing::TimeCeiling(file, true, options.runs, &times.ceiling)) {
    return kFailed;
  }
  const double size = static_cast<double>(file.size());
  const double base = size / 1e6 / Median(times.sax), load = size / 1e6 / Median(times.load),
               check = size / 1e6 / Median(times.check),
               top = size / 1e6 / Median(times.ceiling.ceiling_seconds);
  // The targets' ratios, each run against the baseline run beside it (PairedSpeedRatio).
  const double load_base = PairedSpeedRatio(times.sax, times.load);
  const double check_base = PairedSpeedRatio(times.sax, times.check);
  const double check_top =
      check_base / PairedSpeedRatio(times.ceiling.baseline_seconds, times.ceiling.ceiling_seconds);
  // Issue #29's targets for the validator, on one core.
  const bool fast = check_base >= 1.5 && check_top >= 0.5;
  const bool pass = load_base >= 0.5 && fast;
  const double index = static_cast<double>(times.messages * sizeof(mrr::RecordedMessage));
  std::printf(
      "1. load: a recording of %zu bytes (%.1f MB, %llu messages), median of %llu runs "
      "each (MB = 10^6 B; ratios: the median of each run's against the baseline run beside "
      "it):\n",
      file.size(), size / 1e6, static_cast<unsigned long long>(times.messages),
      static_cast<unsigned long long>(options.runs));
  std::printf("  %s\n", arcs::json::testing::CodePaths().c_str());
  std::printf("  baseline: RapidJSON SAX, null handler   %8.1f MB/s\n", base);
  std::printf(
      "  LoadRecording (parse-only loader)       %8.1f MB/s  ratio %.3f, target >= 0.5: "
      "%s (%.3f s; NFR-002 reads < 1 s for 100 MB)\n",
      load, load_base, load_base >= 0.5 ? "PASS" : "FAIL", Median(times.load));
  std::printf("  simdjson On Demand, counting values     %8.1f MB/s  (the tokenizer ceiling)\n",
              top);
  std::printf("  %s\n",
              arcs::json::testing::DomFigure(size / 1e6, times.ceiling, check_base).c_str());
  std::printf(
      "  CheckRecording (full validator)         %8.1f MB/s  ratio %.3f, target (#29) >= 1.5: "
      "%s; / simdjson %.3f, target (#29) >= 0.5: %s (%.3f s)\n",
      check, check_base, check_base >= 1.5 ? "PASS" : "FAIL", check_top,
      check_top >= 0.5 ? "PASS" : "FAIL", Median(times.check));
  std::printf(
      "  loader's index: %llu messages x %zu B = %s (capacity %zu), %.4f%% of the file: "
      "memory grows with the messages, not their content\n",
      static_cast<unsigned long long>(times.messages), sizeof(mrr::RecordedMessage),
      Mb(index).c_str(), times.index_capacity, 100 * index / size);
  std::printf(
      "  peak RSS of part 1: %.1f MiB, %.1f MiB over the %.1f MiB before it = %.2f x the file (the "
      "file in memory, then the loader's 1 MiB read buffer, its longest line and the index)\n",
      peak, peak - rss_before, rss_before, (peak - rss_before) * (1 << 20) / size);
  return pass ? kPass : kMissed;
}

// ---------------------------------------------------------------------------------------------
// Part 2: the proxy's added latency

// The echo server's result, after the id: a tool's text content, about 200 bytes in all.
constexpr std::string_view kEchoResult =
    R"(,"result":{"content":[{"type":"text","text":"echo: the quick brown fox jumps over the )"
    R"(lazy dog; the quick brown fox jumps over the lazy dog; the quick brown fox"}],)"
    R"("isError":false}})";

// A request of part 2: a tools/call of about 200 bytes, with its line end.
std::string EchoRequest(std::string_view id) {
  return std::string(R"({"jsonrpc":"2.0","id":)") + std::string(id) +
         R"(,"method":"tools/call","params":{"name":"echo","arguments":{"message":"the quick )"
         R"(brown fox jumps over the lazy dog, the quick brown fox jumps over the lazy dog"}}})"
         "\n";
}

// The trivial MCP server of part 2 (--echo-server): answers each request line with a result
// carrying its id, nothing to a notification, one flushed line per answer.
int EchoServer() {
  char* line = nullptr;
  std::size_t capacity = 0;
  std::string out;
  for (ssize_t n; (n = getline(&line, &capacity, stdin)) > 0;) {
    arcs::json::Document doc;
    if (!doc.Parse(std::string_view(line, static_cast<std::size_t>(n))) ||
        !doc.root().is_object()) {
      continue;
    }
    const arcs::json::Value* id = doc.root().Find("id");
    if (!id || !doc.root().Find("method")) continue;  // a notification, or not a request
    out = R"({"jsonrpc":"2.0","id":)";
    arcs::json::Write(*id, &out);
    out += kEchoResult;
    out += '\n';
    if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout)) break;
  }
  std::free(line);
  return 0;
}

std::string ShellQuote(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A server spoken to one request at a time: its answer to one request line.
class RoundTripper {
 public:
  virtual ~RoundTripper() = default;
  // Sends one request (a line with its "\n") and reads its answer (without a line end); false
  // when either fails.
  virtual bool RoundTrip(std::string_view request, std::string* response) = 0;
};

// A stdio MCP server, spawned with pipes, spoken to one request at a time.
class Connection : public RoundTripper {
 public:
  static arcs::Result<std::unique_ptr<Connection>> Start(const std::string& command) {
    arcs::Result<std::unique_ptr<mrr::Upstream>> process = mrr::Upstream::Start(command);
    if (!process.ok()) return process.status();
    // Blocking ends: a round trip is one write and the reads of one line, nothing to poll for.
    for (int fd : {(*process)->stdin_fd(), (*process)->stdout_fd()}) {
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    return std::unique_ptr<Connection>(new Connection(std::move(*process)));
  }

  bool RoundTrip(std::string_view request, std::string* response) override {
    for (std::string_view rest = request; !rest.empty();) {
      const ssize_t n = write(process_->stdin_fd(), rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
    std::size_t end;
    while ((end = pending_.find('\n', scanned_)) == std::string::npos) {
      scanned_ = pending_.size();
      char buffer[1 << 16];
      const ssize_t n = read(process_->stdout_fd(), buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      pending_.append(buffer, static_cast<std::size_t>(n));
    }
    response->assign(pending_, 0, end);
    pending_.erase(0, end + 1);
    scanned_ = 0;
    return true;
  }

  // End of file on the server's input, how a stdio session ends; its exit, or else a kill.
  std::string Finish() {
    process_->CloseStdin();
    process_->WaitForExit(std::chrono::seconds(10));
    return mrr::DescribeWaitStatus(process_->Terminate());
  }

 private:
  explicit Connection(std::unique_ptr<mrr::Upstream> process) : process_(std::move(process)) {}
  std::unique_ptr<mrr::Upstream> process_;
  std::string pending_;
  std::size_t scanned_ = 0;
};

// One of the connection's round trips after another, each timed (microseconds) into *rtts
// (none when null); false when one fails or its answer does not carry its id.
bool RunBlock(RoundTripper* connection, std::uint64_t count, std::uint64_t* next_id,
              std::vector<double>* rtts) {
  std::string request, expected, response;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string id = std::to_string(++*next_id);
    request = EchoRequest(id);
    expected = R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":)";
    const Clock::time_point start = Clock::now();
    if (!connection->RoundTrip(request, &response)) return false;
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (!response.starts_with(expected)) return false;
    if (rtts) rtts->push_back(us);
  }
  return true;
}

struct LatencySamples {
  std::vector<double> direct, proxy;
  std::uint64_t direct_id = 0, proxy_id = 0;
};

// Warm-up, then alternate blocks, the first of each pair taken by each connection in turn.
bool Interleave(const Options& options, RoundTripper* direct, RoundTripper* proxy,
                LatencySamples* s) {
  if (!RunBlock(direct, options.warmup, &s->direct_id, nullptr) ||
      !RunBlock(proxy, options.warmup, &s->proxy_id, nullptr)) {
    return false;
  }
  for (std::uint64_t done = 0, pair = 0; done < options.messages; ++pair) {
    const std::uint64_t n = std::min(options.block, options.messages - done);
    const bool direct_first = pair % 2 == 0;
    RoundTripper* first = direct_first ? direct : proxy;
    RoundTripper* second = direct_first ? proxy : direct;
    std::uint64_t* first_id = direct_first ? &s->direct_id : &s->proxy_id;
    std::uint64_t* second_id = direct_first ? &s->proxy_id : &s->direct_id;
    if (!RunBlock(first, n, first_id, direct_first ? &s->direct : &s->proxy) ||
        !RunBlock(second, n, second_id, direct_first ? &s->proxy : &s->direct)) {
      return false;
    }
    done += n;
  }
  return true;
}

std::string SelfPath() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : "";
}

// The proxy's recording holds every round trip, warm-up included, each way: it did its work.
bool RecordingComplete(const std::string& path, std::uint64_t round_trips, std::string* what) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  arcs::jsonl::MemorySource source(bytes);
  const arcs::Result<mrr::LoadedRecording> loaded = mrr::LoadRecording(&source, {});
  if (!loaded.ok()) {
    *what = loaded.status().message();
    return false;
  }
  *what = std::to_string(loaded->messages.size()) + " messages, " +
          (loaded->has_footer ? "a footer" : "no footer") + ", " + Mb(bytes.size());
  return loaded->messages.size() == 2 * round_trips && loaded->has_footer &&
         Valid(bytes, "the proxy's recording");
}

void PrintLatency(std::string_view label, const std::vector<double>& rtts) {
  std::printf(
      "  %-38.*s p50 %8.1f us   p99 %8.1f us   (mean %.1f us, max %.1f us, %zu over 1 ms)\n",
      static_cast<int>(label.size()), label.data(), Percentile(rtts, 0.5), Percentile(rtts, 0.99),
      std::accumulate(rtts.begin(), rtts.end(), 0.0) / static_cast<double>(rtts.size()),
      *std::max_element(rtts.begin(), rtts.end()),
      static_cast<std::size_t>(
          std::count_if(rtts.begin(), rtts.end(), [](double us) { return us > 1000; })));
}

// The latencies of a proxy part, titled `part` ("2. proxy"), its baseline `direct`.
Outcome ReportLatency(const Options& options, const LatencySamples& s, std::string_view part,
                      std::string_view direct, std::string_view file) {
  const double p50 = Percentile(s.proxy, 0.5) - Percentile(s.direct, 0.5);
  const double p99 = Percentile(s.proxy, 0.99) - Percentile(s.direct, 0.99);
  const bool pass = p50 < 1000 && p99 < 1000;
  std::printf(
      "%.*s: %llu sequential round trips each (request %zu B, response %zu B), in "
      "alternate blocks of %llu after %llu warm-up round trips each:\n",
      static_cast<int>(part.size()), part.data(), static_cast<unsigned long long>(options.messages),
      EchoRequest("12345").size(),
      std::string_view(R"({"jsonrpc":"2.0","id":12345)").size() + kEchoResult.size() + 1,
      static_cast<unsigned long long>(options.block),
      static_cast<unsigned long long>(options.warmup));
  PrintLatency(direct, s.direct);
  PrintLatency("through `arcs mcp record` (the CLI)", s.proxy);
  std::printf(
      "  added per round trip: p50 %.1f us, p99 %.1f us (per message, half: %.1f, %.1f "
      "us); target < 1 ms each: %s\n",
      p50, p99, p50 / 2, p99 / 2, pass ? "PASS" : "FAIL");
  std::printf(
      "  the proxy's recording (flushed and fsync'd every 100 messages, as it is for "
      "users): %.*s\n",
      static_cast<int>(file.size()), file.data());
  return pass ? kPass : kMissed;
}

std::string RecordingPath(const Options& options) {
  std::string dir = options.record_dir;
  if (dir.empty()) dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  return dir + "/arcs-mcp-bench-" + std::to_string(getpid()) + ".jsonl";
}

Outcome ProxyPart(const Options& options) {
  ResetPeakRss();
  const std::string self = SelfPath(), path = RecordingPath(options);
  const std::string echo = ShellQuote(self) + " --echo-server";
  auto direct = Connection::Start("exec " + echo);
  auto proxy = Connection::Start("exec " + ShellQuote(options.arcs) + " mcp record --upstream " +
                                 ShellQuote("exec " + echo) + " -o " + ShellQuote(path));
  if (!direct.ok() || !proxy.ok()) {
    std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: cannot start: %s\n",
                 (direct.ok() ? proxy.status() : direct.status()).message().c_str());
    return kFailed;
  }
  LatencySamples samples;
  const bool ran = Interleave(options, direct->get(), proxy->get(), &samples);
  const std::string direct_end = (*direct)->Finish(), proxy_end = (*proxy)->Finish();
  std::string recorded = "not read";
  const bool complete =
      ran && RecordingComplete(path, options.warmup + options.messages, &recorded);
  std::remove(path.c_str());
  if (!complete) {
    std::fprintf(stderr,
                 "arcs_mcp_record_replay_benchmark: the round trips failed (is `%s mcp record` "
                 "there?): the echo server %s, the proxy %s; its recording: %s\n",
                 options.arcs.c_str(), direct_end.c_str(), proxy_end.c_str(), recorded.c_str());
    return kFailed;
  }
  const Outcome outcome =
      ReportLatency(options, samples, "2. proxy", "direct (the echo server on pipes)",
                    recorded + ", in " + path.substr(0, path.rfind('/')));
  std::printf("  peak RSS of part 2 (this process): %.1f MiB\n", PeakRssMiB());
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Part 5: the proxy on MCP's Streamable HTTP transport

// An MCP server on Streamable HTTP in this process: a POSTed request is answered with the echo
// result as application/json (one message, no event stream: the proxy's cost, not a stream's).
class EchoHttpServer {
 public:
  EchoHttpServer() {
    server_.Post(".*", [](const httplib::Request& request, httplib::Response& response) {
      arcs::json::Document doc;
      const arcs::json::Value* id = nullptr;
      if (doc.Parse(request.body) && doc.root().is_object()) id = doc.root().Find("id");
      if (!id) {
        response.status = 202;
        return;
      }
      std::string out = R"({"jsonrpc":"2.0","id":)";
      arcs::json::Write(*id, &out);
      out += kEchoResult;
      response.set_content(out, "application/json");
    });
    server_.set_tcp_nodelay(true);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~EchoHttpServer() {
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

// A Streamable HTTP server at 127.0.0.1:port, one POST per request on a kept-alive connection.
class HttpConnection : public RoundTripper {
 public:
  explicit HttpConnection(int port) : client_("127.0.0.1", port) {
    client_.set_keep_alive(true);
    client_.set_tcp_nodelay(true);
    client_.set_read_timeout(std::chrono::seconds(30));
  }
  bool RoundTrip(std::string_view request, std::string* response) override {
    httplib::Headers headers = {{"Accept", "application/json, text/event-stream"}};
    httplib::Result r = client_.Post("/mcp", headers, std::string(request), "application/json");
    if (!r || r->status != 200) return false;
    *response = r->body;
    return true;
  }

 private:
  httplib::Client client_;
};

// A port of 127.0.0.1's that was free a moment ago: bound, read and closed again.
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  const bool bound = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                     getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0;
  close(fd);
  return bound ? ntohs(address.sin_port) : 0;
}

Outcome HttpProxyPart(const Options& options) {
  ResetPeakRss();
  const std::string path = RecordingPath(options);
  EchoHttpServer echo;
  const int proxy_port = FreePort();
  const std::string command =
      "exec " + ShellQuote(options.arcs) + " mcp record --upstream-http " +
      ShellQuote("http://127.0.0.1:" + std::to_string(echo.port()) + "/mcp") + " --http " +
      ShellQuote("127.0.0.1:" + std::to_string(proxy_port)) + " -o " + ShellQuote(path);
  arcs::Result<std::unique_ptr<mrr::Upstream>> proxy = mrr::Upstream::Start(command);
  if (!proxy.ok()) {
    std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: cannot start the proxy: %s\n",
                 proxy.status().message().c_str());
    return kFailed;
  }
  HttpConnection direct(echo.port()), through(proxy_port);
  std::string answer;
  bool up = false;  // the proxy listens once it has its recording's header: asked until then
  for (int i = 0; i < 1000 && !up; ++i) {
    up = through.RoundTrip(EchoRequest("0"), &answer);
    if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  LatencySamples samples;
  const bool ran = up && Interleave(options, &direct, &through, &samples);
  const std::string proxy_end = mrr::DescribeWaitStatus((*proxy)->Terminate());  // SIGTERM
  std::string recorded = "not read";
  const bool complete =
      ran && RecordingComplete(path, 1 + options.warmup + options.messages, &recorded);
  std::remove(path.c_str());
  if (!complete) {
    std::fprintf(stderr,
                 "arcs_mcp_record_replay_benchmark: the HTTP round trips failed: the proxy %s; "
                 "its recording: %s\n",
                 proxy_end.c_str(), recorded.c_str());
    return kFailed;
  }
  const Outcome outcome = ReportLatency(options, samples, "5. proxy on Streamable HTTP",
                                        "direct (an HTTP echo server, this process)",
                                        recorded + ", in " + path.substr(0, path.rfind('/')));
  std::printf("  peak RSS of part 5 (this process): %.1f MiB\n", PeakRssMiB());
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Part 3: by-request lookup

std::string LookupRequest(std::string_view id, std::uint64_t key) {
  return RequestMsg(
      id, "tools/call",
      R"({"name":"lookup","arguments":{"key":"k-)" + std::to_string(key) + R"(","page":1}})");
}

std::string LookupAnswer(std::uint64_t key) { return "\"text\":\"value " + std::to_string(key); }

// `pairs` requests with distinct params, each answered.
std::string LookupRecording(std::uint64_t pairs) {
  std::string out;
  out.reserve(pairs * 420);
  RecordingWriter writer(&out);
  writer.Header();
  for (std::uint64_t i = 0; i < pairs; ++i) {
    const std::string id = std::to_string(i);
    writer.Message(true, LookupRequest(id, i), std::nullopt);
    writer.Advance(1);
    writer.Message(false,
                   ResultMsg(id, R"({"content":[{"type":"text",)" + LookupAnswer(i) + "\"}]}"), 1);
  }
  writer.Footer();
  return out;
}

// Seconds of CPU this thread has used: what the lookups cost, whatever else the shared machine
// runs meanwhile (wall time, shown beside it, also holds the time others took).
double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

struct LookupTime {
  double cpu = 0, wall = 0;  // seconds
};

// A Replayer over one recording, renewed when every recorded request has been asked once, with
// the keys still to ask in random order.
class LookupClient {
 public:
  LookupClient(const mrr::LoadedRecording& recording, const mrr::RandomAccessSource& lines,
               std::uint64_t seed)
      : recording_(recording), lines_(lines), rng_(seed) {}

  // The first Replayer, and how long Create took.
  bool Prepare(double* create_seconds) {
    const Clock::time_point start = Clock::now();
    if (!Renew()) return false;
    *create_seconds = Seconds(start);
    return true;
  }

  // Times `count` lookups (off the clock while the requests are written, a Replayer is made and
  // the answers are checked); false on a miss.
  bool Time(std::uint64_t count, LookupTime* time) {
    std::vector<std::string> lines, replies;
    std::vector<std::uint64_t> keys;
    for (std::uint64_t done = 0; done < count;) {
      if (next_ == order_.size() && !Renew()) return false;
      const std::uint64_t n = std::min<std::uint64_t>(count - done, order_.size() - next_);
      keys.assign(order_.begin() + static_cast<std::ptrdiff_t>(next_),
                  order_.begin() + static_cast<std::ptrdiff_t>(next_ + n));
      lines.clear();
      for (std::uint64_t key : keys) {
        lines.push_back(LookupRequest("\"live-" + std::to_string(++live_id_) + "\"", key));
      }
      TimeSegment(lines, &replies, time);
      if (!AllHit(keys, replies)) return false;
      next_ += n;
      done += n;
    }
    return true;
  }

 private:
  bool Renew() {
    replayer_.reset();
    mrr::ReplayOptions options;
    options.match_mode = mrr::MatchMode::kByRequest;
    arcs::Result<mrr::Replayer> made = mrr::Replayer::Create(recording_, lines_, options);
    if (!made.ok()) return false;
    replayer_.emplace(std::move(*made));
    order_.resize(recording_.messages.size() / 2);
    for (std::uint64_t i = 0; i < order_.size(); ++i) order_[i] = i;
    for (std::uint64_t i = order_.size(); i > 1; --i) {
      std::swap(order_[i - 1], order_[rng_.Below(i)]);
    }
    next_ = 0;
    return true;
  }

  void TimeSegment(const std::vector<std::string>& lines, std::vector<std::string>* replies,
                   LookupTime* time) {
    replies->clear();
    replies->reserve(lines.size());
    const Clock::time_point start = Clock::now();
    const double cpu = ThreadCpuSeconds();
    for (const std::string& line : lines) {
      mrr::Reply reply = replayer_->Handle(line);
      replies->push_back(
          reply.messages.size() == 1 && !reply.end ? std::move(reply.messages.front().line) : "");
    }
    time->cpu += ThreadCpuSeconds() - cpu;
    time->wall += Seconds(start);
  }

  static bool AllHit(const std::vector<std::uint64_t>& keys,
                     const std::vector<std::string>& replies) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (replies[i].find(LookupAnswer(keys[i]) + "\"") == std::string::npos) return false;
    }
    return true;
  }

  const mrr::LoadedRecording& recording_;
  const mrr::RandomAccessSource& lines_;
  Rng rng_;
  std::optional<mrr::Replayer> replayer_;
  std::vector<std::uint64_t> order_;
  std::size_t next_ = 0;
  std::uint64_t live_id_ = 0;
};

// One size: its recording in memory, loaded, and a client asking it; made once, then timed in
// turn with the other sizes.
struct LookupSize {
  std::uint64_t pairs = 0;
  std::string bytes;
  std::optional<mrr::LoadedRecording> loaded;
  std::optional<mrr::MemoryRandomAccess> lines;
  std::optional<LookupClient> client;
  double load_seconds = 0, create_seconds = 0, held_mib = 0;
  std::vector<double> cpu_ns, wall_ns;  // per lookup, one per run
};

bool SetUp(std::uint64_t pairs, std::uint64_t seed, LookupSize* size) {
  const double rss = RssMiB();
  size->pairs = pairs;
  size->bytes = LookupRecording(pairs);
  const Clock::time_point start = Clock::now();
  arcs::jsonl::MemorySource source(size->bytes);
  arcs::Result<mrr::LoadedRecording> loaded = mrr::LoadRecording(&source, {});
  size->load_seconds = Seconds(start);
  if (!loaded.ok() || loaded->messages.size() != 2 * pairs) return false;
  size->loaded.emplace(std::move(*loaded));
  size->lines.emplace(size->bytes);
  size->client.emplace(*size->loaded, *size->lines, seed);
  if (!size->client->Prepare(&size->create_seconds)) return false;
  size->held_mib = RssMiB() - rss;
  return true;
}

// Every size once per run, the first one turning with the runs, so that no size always follows
// the same one.
bool TimeLookups(const Options& options, std::vector<std::unique_ptr<LookupSize>>* sizes) {
  const double lookups = static_cast<double>(options.lookups);
  for (std::uint64_t run = 0; run < options.runs; ++run) {
    for (std::size_t i = 0; i < sizes->size(); ++i) {
      LookupSize& size = *(*sizes)[(run + i) % sizes->size()];
      LookupTime time;
      if (!size.client->Time(options.lookups, &time)) return false;
      size.cpu_ns.push_back(time.cpu * 1e9 / lookups);
      size.wall_ns.push_back(time.wall * 1e9 / lookups);
    }
  }
  return true;
}

Outcome ReportLookups(const Options& options, const std::vector<std::unique_ptr<LookupSize>>& all) {
  std::printf(
      "3. lookup, by-request: %llu Replayer::Handle calls per size and run (parse, key = method + "
      "SHA-256 of the RFC 8785 params, hash lookup, the response read again with the live id), "
      "every one a hit; the sizes in turn, median of %llu runs:\n",
      static_cast<unsigned long long>(options.lookups),
      static_cast<unsigned long long>(options.runs));
  std::printf("  %10s %13s %14s %11s %8s %9s %9s\n", "pairs", "CPU ns/lookup", "wall ns/lookup",
              "recording", "load s", "Create s", "held MiB");
  for (const auto& s : all) {
    std::printf("  %10llu %13.0f %14.0f %11s %8.3f %9.3f %9.1f\n",
                static_cast<unsigned long long>(s->pairs), Median(s->cpu_ns), Median(s->wall_ns),
                Mb(static_cast<double>(s->bytes.size())).c_str(), s->load_seconds,
                s->create_seconds, s->held_mib);
  }
  const double ratio = Median(all.back()->cpu_ns) / Median(all.front()->cpu_ns);
  const bool pass = ratio <= 3;
  std::printf(
      "  CPU ns per lookup at %llu pairs / at %llu: %.2f (wall: %.2f), target <= 3 (flat: a hash "
      "lookup is O(1) on average; only cache misses grow with the index): %s\n",
      static_cast<unsigned long long>(all.back()->pairs),
      static_cast<unsigned long long>(all.front()->pairs), ratio,
      Median(all.back()->wall_ns) / Median(all.front()->wall_ns), pass ? "PASS" : "FAIL");
  std::printf(
      "  peak RSS of part 3: %.1f MiB, every size held at once (held MiB: the growth of RSS while "
      "a size was made: its recording in memory, the loader's index, the Replayer's keys)\n",
      PeakRssMiB());
  return pass ? kPass : kMissed;
}

Outcome LookupPart(const Options& options) {
  ResetPeakRss();
  std::vector<std::unique_ptr<LookupSize>> sizes;
  for (std::uint64_t pairs : options.lookup_sizes) {
    sizes.push_back(std::make_unique<LookupSize>());
    if (!SetUp(pairs, options.seed, sizes.back().get())) {
      std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: %llu recorded pairs do not load\n",
                   static_cast<unsigned long long>(pairs));
      return kFailed;
    }
  }
  if (!TimeLookups(options, &sizes)) {
    std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: a lookup missed\n");
    return kFailed;
  }
  return ReportLookups(options, sizes);
}

// ---------------------------------------------------------------------------------------------
// Part 4: fuzzy lookup

std::string FuzzyRequest(std::string_view id, std::uint64_t key, std::uint64_t ts) {
  return RequestMsg(id, "tools/call",
                    R"({"name":"lookup","arguments":{"key":"k-)" + std::to_string(key) +
                        R"(","page":1,"ts":)" + std::to_string(ts) + "}}");
}

// `pairs` requests of one tool, and responses padded so that the whole is about `bytes`.
std::string FuzzyRecording(std::uint64_t pairs, std::uint64_t bytes) {
  const std::string padding(bytes / std::max<std::uint64_t>(pairs, 1), 'p');
  std::string out;
  out.reserve(bytes + pairs * 400);
  RecordingWriter writer(&out);
  writer.Header();
  for (std::uint64_t i = 0; i < pairs; ++i) {
    const std::string id = std::to_string(i);
    writer.Message(true, FuzzyRequest(id, i, i), std::nullopt);
    writer.Advance(1);
    writer.Message(
        false,
        ResultMsg(id, R"({"content":[{"type":"text",)" + LookupAnswer(i) + " " + padding + "\"}]}"),
        1);
  }
  writer.Footer();
  return out;
}

Outcome FuzzyPart(const Options& options) {
  ResetPeakRss();
  const std::string bytes = FuzzyRecording(options.fuzzy_pairs, options.bytes);
  arcs::jsonl::MemorySource source(bytes);
  arcs::Result<mrr::LoadedRecording> loaded = mrr::LoadRecording(&source, {});
  if (!loaded.ok() || loaded->messages.size() != 2 * options.fuzzy_pairs) {
    std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: the fuzzy recording does not load\n");
    return kFailed;
  }
  const mrr::MemoryRandomAccess lines(bytes);
  mrr::ReplayOptions replay;
  replay.match_mode = mrr::MatchMode::kFuzzy;
  const Clock::time_point made = Clock::now();
  arcs::Result<mrr::Replayer> replayer = mrr::Replayer::Create(*loaded, lines, replay);
  const double create_seconds = Seconds(made);
  if (!replayer.ok()) return kFailed;
  std::vector<std::uint64_t> order(options.fuzzy_pairs);
  std::iota(order.begin(), order.end(), 0);
  Rng rng(options.seed);
  for (std::uint64_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.Below(i)]);
  std::vector<double> ms;
  ms.reserve(order.size());
  for (std::uint64_t key : order) {
    const std::string line = FuzzyRequest("\"live\"", key, key + 1'000'000'000);
    const Clock::time_point start = Clock::now();
    mrr::Reply reply = replayer->Handle(line);
    ms.push_back(Seconds(start) * 1e3);
    if (reply.messages.size() != 1 ||
        reply.messages.front().line.find(LookupAnswer(key) + " ") == std::string::npos) {
      std::fprintf(stderr, "arcs_mcp_record_replay_benchmark: fuzzy served the wrong answer\n");
      return kFailed;
    }
  }
  const double p50 = Percentile(ms, 0.5), p99 = Percentile(ms, 0.99);
  const bool pass = p99 < 1.0;
  std::printf(
      "4. fuzzy: %llu requests of one tool in a %s recording, each asked once in random order with "
      "one of its 4 leaves changed, every answer the right one; Create %.3f s\n"
      "  ms per request: p50 %.3f, p99 %.3f, max %.3f; target p99 < 1 ms: %s\n"
      "  peak RSS of part 4: %.1f MiB\n",
      static_cast<unsigned long long>(options.fuzzy_pairs),
      Mb(static_cast<double>(bytes.size())).c_str(), create_seconds, p50, p99,
      *std::max_element(ms.begin(), ms.end()), pass ? "PASS" : "FAIL", PeakRssMiB());
  return pass ? kPass : kMissed;
}

// ---------------------------------------------------------------------------------------------
// Command line

bool ParseSizes(std::string_view text, std::vector<std::uint64_t>* out) {
  out->clear();
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::uint64_t size = 0;
    if (!arcs::testing::ParseSize(text.substr(start, comma - start), &size) || size == 0) {
      return false;
    }
    out->push_back(size);
    start = comma + 1;
  }
  std::sort(out->begin(), out->end());
  return true;
}

bool ParseParts(std::string_view text, Options* options) {
  options->load = options->proxy = options->lookup = options->fuzzy = options->http = false;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view part = text.substr(start, comma - start);
    if (part == "load") {
      options->load = true;
    } else if (part == "proxy") {
      options->proxy = true;
    } else if (part == "lookup") {
      options->lookup = true;
    } else if (part == "fuzzy") {
      options->fuzzy = true;
    } else if (part == "http") {
      options->http = true;
    } else {
      return false;
    }
    start = comma + 1;
  }
  return true;
}

bool ParseValue(std::string_view flag, std::string_view value, Options* o) {
  using arcs::testing::ParseSize;
  if (flag == "--bytes") return ParseSize(value, &o->bytes) && o->bytes;
  if (flag == "--runs") return ParseSize(value, &o->runs) && o->runs;
  if (flag == "--seed") return ParseSize(value, &o->seed);
  if (flag == "--messages") return ParseSize(value, &o->messages) && o->messages;
  if (flag == "--warmup") return ParseSize(value, &o->warmup);
  if (flag == "--block") return ParseSize(value, &o->block) && o->block;
  if (flag == "--lookups") return ParseSize(value, &o->lookups) && o->lookups;
  if (flag == "--lookup-sizes") return ParseSizes(value, &o->lookup_sizes);
  if (flag == "--fuzzy-pairs") return ParseSize(value, &o->fuzzy_pairs) && o->fuzzy_pairs;
  if (flag == "--parts") return ParseParts(value, o);
  std::string* path = flag == "--arcs"              ? &o->arcs
                      : flag == "--record-dir"      ? &o->record_dir
                      : flag == "--write-recording" ? &o->write_recording
                                                    : nullptr;
  if (path == nullptr) return false;
  *path = value;
  return !value.empty();
}

bool ParseOptions(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--no-targets") {
      options->targets = false;
    } else if (i + 1 >= argc || !ParseValue(flag, argv[i + 1], options)) {
      return false;
    } else {
      ++i;
    }
  }
  if (options->arcs.empty()) {
    const std::string self = SelfPath();
    options->arcs = self.substr(0, self.rfind('/') + 1) + "arcs";
  }
  return !(options->proxy || options->http) || access(options->arcs.c_str(), X_OK) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--echo-server") return EchoServer();
  Options options;
  if (!ParseOptions(argc, argv, &options)) {
    std::fprintf(
        stderr,
        "usage: arcs_mcp_record_replay_benchmark [--bytes 100M] [--runs 5] [--seed 1]\n"
        "    [--messages 20000] [--warmup 1000] [--block 1000] [--lookups 100000]\n"
        "    [--lookup-sizes 1000,10000,100000,1000000] [--arcs PATH (default: arcs "
        "next to this binary)]\n"
        "    [--fuzzy-pairs 40000] [--record-dir DIR] [--parts load,proxy,lookup,fuzzy,http]\n"
        "    [--write-recording FILE] [--no-targets]\n"
        "  or: arcs_mcp_record_replay_benchmark --echo-server\n");
    return 2;
  }
  // A server that has gone must come back as EPIPE on our write, not end us.
  std::signal(SIGPIPE, SIG_IGN);
  int worst = kPass;
  if (options.load) worst = std::max<int>(worst, LoadPart(options));
  if (options.proxy && worst != kFailed) worst = std::max<int>(worst, ProxyPart(options));
  if (options.lookup && worst != kFailed) worst = std::max<int>(worst, LookupPart(options));
  if (options.fuzzy && worst != kFailed) worst = std::max<int>(worst, FuzzyPart(options));
  if (options.http && worst != kFailed) worst = std::max<int>(worst, HttpProxyPart(options));
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("peak RSS of the process (getrusage): %.1f MiB\n",
              static_cast<double>(usage.ru_maxrss) / 1024);
  if (worst == kMissed && !options.targets) return 0;
  return worst;
}
