#include "conformance/mcp_record_replay/verbs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "reference/core/io.h"
#include "reference/core/stop_signals.h"
#include "reference/core/strings.h"
#include "reference/core/version.h"
#include "reference/mcp_record_replay/convert.h"
#include "reference/mcp_record_replay/http_line_transport.h"
#include "reference/mcp_record_replay/http_recorder.h"
#include "reference/mcp_record_replay/http_replay_server.h"
#include "reference/mcp_record_replay/http_transport.h"
#include "reference/mcp_record_replay/loader.h"
#include "reference/mcp_record_replay/recorder.h"
#include "reference/mcp_record_replay/replay.h"
#include "reference/mcp_record_replay/replay_server.h"
#include "reference/mcp_record_replay/stub_upstream.h"
#include "reference/mcp_record_replay/summary.h"
#include "reference/mcp_record_replay/upstream.h"
#include "reference/mcp_record_replay/verify.h"

namespace arcs::conformance::mcp_record_replay {
namespace {

namespace mrr = arcs::mcp_record_replay;

constexpr char kReplayHelp[] =
    R"(usage: arcs mcp replay -r FILE [--match-mode MODE] [--timing TIMING]
                       [--on-unmatched BEHAVIOUR] [--upstream CMD] [--http ADDR]

Serves the recording FILE as a mock MCP server on standard input and output (the MCP stdio
transport: one JSON-RPC message per line), as TJ-SPEC-010 F-003 describes and
conformance/mcp_record_replay/errata.md reads it. A response carries the live request's id;
notifications are never answered. What the server sent of its own accord (progress, logging,
list_changed, sampling and roots requests) goes out in its recorded place: after the client
message or response it followed; a response recorded after a server request waits for the
client's answer to it, 60 s at most (errata MRR-E39).

  -r, --recording FILE      the recording (required)
  --match-mode MODE         sequential (default): the recorded requests in order, each
                            request of the recorded method served its own response (concurrent
                            ones paired by id), another method unmatched (errata MRR-E35);
                            by-request: by method and params (SHA-256 of their RFC 8785 form,
                            _meta left out, and initialize's clientInfo), each key's
                            responses in order;
                            fuzzy: the same method and the most similar params, at least half of
                            their leaves shared (errata MRR-E36)
  --timing TIMING           instant (default), realistic (the recorded latency_ms), scaled:N
                            (latency_ms times N); a delay lasts at most 60 s (a longer one is
                            cut, with a note on standard error), and none once the client has
                            closed its input (the answers still owed go out at once)
  --on-unmatched BEHAVIOUR  error (default): a JSON-RPC error, then the replay ends;
                            warn: a JSON-RPC error (-32000), and the replay goes on;
                            passthrough: the request goes to --upstream, its answer comes back
  --http ADDR               serve MCP's Streamable HTTP transport on ADDR (PORT, HOST:PORT;
                            127.0.0.1 unless a host is given; port 0: any free one, printed on
                            standard error) instead of stdio: every path is the endpoint, a
                            request is answered with an event stream (the server's recorded
                            messages, then the response), the GET stream carries what follows no
                            request; until a signal ends it
  --upstream CMD            the real server passthrough starts (through /bin/sh -c); its
                            session begins with the client's initialize (or the recorded one)
                            when the first request is forwarded, and then gets the client's
                            notifications too; its notifications and requests reach the client

SIGINT, SIGTERM and SIGHUP end the replay at once, even during a delay or a passthrough; the
upstream's whole process group then gets SIGTERM, and SIGKILL 2 s later if any of it is left (a
signal ignored when arcs starts, as nohup ignores SIGHUP, stays ignored).

Exit status: 0 the client closed its input, or SIGINT, SIGTERM or SIGHUP ended the replay, 1 the
recording was refused (it cannot be loaded), 2 on usage or I/O errors, 3 the replay ended on an
unmatched request (--on-unmatched error).
)";

std::atomic<bool> stop_requested{false};

// Every stop signal sets stop_requested, however often it comes: a closed terminal may send SIGHUP
// twice, and the second must not cut the footer or the upstream's end short (SIGKILL remains for a
// stuck process). Without SA_RESTART, so that a write to a client that reads nothing returns
// (EINTR) and sees the flag.
void StopOnSignals() { arcs::StopOnSignals(&stop_requested); }

// Options given as `--name VALUE`, `--name=VALUE` or a short alias, each at most once, except
// the repeatable ones, whose values are kept in order.
struct Flags {
  std::map<std::string, std::string, std::less<>> values;
  std::map<std::string, std::vector<std::string>, std::less<>> repeated;
  std::string error;

  std::optional<std::string> Get(std::string_view name) const {
    auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::vector<std::string> All(std::string_view name) const {
    auto it = repeated.find(name);
    return it == repeated.end() ? std::vector<std::string>{} : it->second;
  }
};

Flags ParseFlags(const std::vector<std::string>& args, const std::set<std::string_view>& known,
                 const std::map<std::string_view, std::string_view>& aliases,
                 const std::set<std::string_view>& repeatable = {}) {
  Flags flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i], value;
    const std::size_t eq = name.find('=');
    const bool inline_value = name.starts_with("--") && eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (auto alias = aliases.find(name); alias != aliases.end()) name = alias->second;
    if (!known.contains(name)) {
      flags.error = "unknown argument " + Quoted(args[i], 60) + "; see --help";
      return flags;
    }
    if (!inline_value) {
      if (i + 1 >= args.size()) {
        flags.error = name + " needs a value; see --help";
        return flags;
      }
      value = args[++i];
    }
    if (repeatable.contains(name)) {
      flags.repeated[name].push_back(value);
    } else if (!flags.values.emplace(name, value).second) {
      flags.error = name + " is given twice";
      return flags;
    }
  }
  return flags;
}

VerbOutput UsageError(std::string message) {
  VerbOutput output;
  output.err.push_back(std::move(message));
  output.exit_code = 2;
  return output;
}

Result<mrr::ReplayOptions> ReplayOptionsFromFlags(const Flags& flags) {
  mrr::ReplayOptions options;
  if (auto mode = flags.Get("--match-mode")) {
    Result<mrr::MatchMode> m = mrr::ParseMatchMode(*mode);
    if (!m.ok()) return m.status();
    options.match_mode = *m;
  }
  if (auto timing = flags.Get("--timing")) {
    Result<mrr::Timing> t = mrr::ParseTiming(*timing);
    if (!t.ok()) return t.status();
    options.timing = *t;
  }
  if (auto unmatched = flags.Get("--on-unmatched")) {
    Result<mrr::OnUnmatched> u = mrr::ParseOnUnmatched(*unmatched);
    if (!u.ok()) return u.status();
    options.on_unmatched = *u;
  }
  return options;
}

// A recording opened and loaded for replay or convert (errata MRR-E11), closed with it.
class OpenedRecording {
 public:
  explicit OpenedRecording(const std::string& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)), lines_(fd_) {
    if (fd_ < 0) {
      loaded_ = Status(StatusCode::kIoError, std::strerror(errno));
      return;
    }
    jsonl::FdSource source(fd_);
    loaded_ = mrr::LoadRecording(&source, {});
  }
  ~OpenedRecording() {
    if (fd_ >= 0) ::close(fd_);
  }
  OpenedRecording(const OpenedRecording&) = delete;
  OpenedRecording& operator=(const OpenedRecording&) = delete;

  const Result<mrr::LoadedRecording>& loaded() const { return loaded_; }
  const mrr::RandomAccessSource& lines() const { return lines_; }

 private:
  int fd_;
  mrr::FileRandomAccess lines_;
  Result<mrr::LoadedRecording> loaded_ = Status(StatusCode::kIoError, "not loaded");
};

// A recording that could not be read (exit 2) or was refused (exit 1), or a failure after it.
VerbOutput Failed(const std::string& path, const Status& status) {
  VerbOutput output;
  output.err.push_back(path + ": " + status.message());
  output.exit_code = status.code() == StatusCode::kIoError ? 2 : 1;
  return output;
}

// The replay's own lines quote the client, the recording and the upstream: made Printable, and
// written whole, never interleaved with the upstream's stderr lines (upstream.h).
void Log(std::string_view line) {
  mrr::WriteToLog(STDERR_FILENO, "arcs mcp replay: " + Printable(line) + "\n");
}

VerbOutput Replay(const std::vector<std::string>& args) {
  const Flags flags = ParseFlags(
      args, {"--recording", "--match-mode", "--timing", "--on-unmatched", "--upstream", "--http"},
      {{"-r", "--recording"}});
  if (!flags.error.empty()) return UsageError(flags.error);
  const std::optional<std::string> path = flags.Get("--recording");
  if (!path) return UsageError("give the recording with -r FILE; see --help");
  std::optional<mrr::http::ListenAddress> http;
  if (const std::optional<std::string> address = flags.Get("--http")) {
    Result<mrr::http::ListenAddress> parsed = mrr::http::ParseListenAddress(*address);
    if (!parsed.ok()) return UsageError("--http: " + parsed.status().message());
    http = *parsed;
  }
  Result<mrr::ReplayOptions> options = ReplayOptionsFromFlags(flags);
  if (!options.ok()) return UsageError(options.status().message());
  const bool passthrough = options->on_unmatched == mrr::OnUnmatched::kPassthrough;
  if (passthrough != flags.Get("--upstream").has_value()) {
    return UsageError(passthrough ? "--on-unmatched passthrough needs --upstream CMD (errata "
                                    "MRR-E42)"
                                  : "--upstream is only for --on-unmatched passthrough");
  }
  const OpenedRecording recording(*path);
  const Result<mrr::LoadedRecording>& loaded = recording.loaded();
  Result<mrr::Replayer> replayer =
      loaded.ok() ? mrr::Replayer::Create(*loaded, recording.lines(), *options) : loaded.status();
  if (!replayer.ok()) return Failed(*path, replayer.status());
  for (const std::string& note : loaded->notes) Log(note);
  StopOnSignals();  // SIGPIPE too: a client that goes away is an end, not a crash
  // Destroyed after the replay, on every path: its process group ends then.
  std::unique_ptr<mrr::Upstream> upstream;
  if (passthrough) {
    Result<std::unique_ptr<mrr::Upstream>> started = mrr::Upstream::Start(*flags.Get("--upstream"));
    if (!started.ok()) return UsageError("--upstream: " + started.status().message());
    upstream = std::move(*started);
  }
  const mrr::Served served =
      http ? mrr::ServeReplayHttp(&*replayer, *http, upstream.get(), Log, &stop_requested, {},
                                  [&](std::uint16_t port) {
                                    Log("listening on http://" + mrr::http::UrlHost(http->host) +
                                        ":" + std::to_string(port) + "/");
                                  })
           : mrr::ServeReplay(&*replayer, 0, 1, upstream.get(), Log, &stop_requested);
  VerbOutput output;
  if (served.end == mrr::ServeEnd::kStopped) {
    Log(LastStopSignalName() + ": the replay ends");
  } else if (served.end == mrr::ServeEnd::kFailed) {
    output.err.push_back(served.why);
    output.exit_code = 2;
  } else if (served.end == mrr::ServeEnd::kUnmatched) {
    output.exit_code = 3;
  }
  return output;
}

constexpr char kRecordHelp[] =
    R"(usage: arcs mcp record --upstream CMD -o FILE [OPTIONS]
       arcs mcp record --upstream-http URL --http ADDR -o FILE [OPTIONS]
  OPTIONS: [--name NAME] [--tags A,B] [--flush-interval MS] [--redact-env NAME]...
           [--redact REGEX]...

A recording proxy on the MCP stdio transport (TJ-SPEC-010 F-001): starts CMD (through
/bin/sh -c), forwards every byte between it and the client on standard input and output
unchanged, and writes what passes as a recording to FILE: the header, then each message with its
seq (from 1), time, direction and, on a response, its latency; the footer when the session ends
(the client's end of input, the server's end, SIGINT, SIGTERM or SIGHUP). Lines are flushed and
synced every --flush-interval milliseconds (default 1000) or 100 messages, so after a crash every
complete line loads. A line that is no message the recording can hold (not JSON, not one object,
not UTF-8, too long, too deep, a number beyond the doubles, the unterminated end of a stream) is
recorded in its place as the notification arcs/unrecorded, its bytes in base64 (errata MRR-E51).

With --upstream-http, a recording proxy on the MCP Streamable HTTP transport (F-001 "Supports
HTTP upstream"; errata MRR-E53): serves HTTP on ADDR and forwards each POST, GET and DELETE, on
whatever path, to URL (its path), with the client's Accept, Content-Type, Mcp-Session-Id,
MCP-Protocol-Version, Authorization and Last-Event-ID headers; the server's status, body,
Content-Type, Mcp-Session-Id, WWW-Authenticate and Allow come back, an event stream event by event
as it arrives. Recorded as on stdio: each POST body (c2s), each application/json body of the
server's and the data of each event of its event streams (s2c), in the order the proxy has them
whole, concurrent requests served concurrently. Once listening, standard error gets
"arcs mcp record: listening on http://HOST:PORT/PATH" (port 0 asks for a free port). The legacy
HTTP+SSE transport (MCP 2024-11-05) is served too: the endpoint its stream names for POSTs is
relayed, not recorded, and requests for that path go to it upstream. The session ends at SIGINT,
SIGTERM or SIGHUP, which close the streams still open.

  --upstream CMD         the MCP server to record, on stdio
  --upstream-http URL    the MCP server to record, on Streamable HTTP (http:// or https://)
  --http ADDR            with --upstream-http (and required by it): the address to serve,
                         PORT, HOST:PORT or [IPv6]:PORT (host 127.0.0.1 by default)
  -o, --output FILE      the recording to write, created or truncated (required)
  --name NAME            the header's name
  --tags A,B             the header's tags, comma-separated
  --flush-interval MS    milliseconds between flushes (default 1000)
  --redact-env NAME      the value of the environment variable NAME (set, not empty) is written
                         as [REDACTED:NAME] wherever it occurs in a string (escapes decoded)
  --redact REGEX         each match of the RE2 pattern REGEX in a string is written as [REDACTED]
                         (both repeatable; errata MRR-E52)

At each of these ends the recording gets every message received and its footer (unless a write
to FILE failed: the error says so), and (on stdio) the server's whole process group gets SIGTERM,
then SIGKILL 2 s later if any of it is left. A signal ignored when arcs starts (nohup's SIGHUP)
stays ignored; SIGKILL cannot be caught, and leaves every line flushed before it whole.

Redaction changes only the recording (and the log): the bytes forwarded are never changed. It
applies to the string values of each message except its jsonrpc, id and method, never to member
names; a redacted message is written again as compact JSON. The header states the rules in a
member "redaction" (the names and patterns, never a value).

Exit status: 0 the session ended (the client's end, SIGINT, SIGTERM or SIGHUP), the server's exit
status when it ended first (128 + N when signal N ended it; stdio), 2 on usage or I/O errors (an
address that cannot be listened on).
)";

VerbOutput Record(const std::vector<std::string>& args) {
  const Flags flags = ParseFlags(args,
                                 {"--upstream", "--upstream-http", "--http", "--output", "--name",
                                  "--tags", "--flush-interval", "--redact-env", "--redact"},
                                 {{"-o", "--output"}}, {"--redact-env", "--redact"});
  if (!flags.error.empty()) return UsageError(flags.error);
  const std::optional<std::string> upstream = flags.Get("--upstream");
  const std::optional<std::string> upstream_http = flags.Get("--upstream-http");
  const std::optional<std::string> listen = flags.Get("--http");
  const std::optional<std::string> output_path = flags.Get("--output");
  if (!upstream == !upstream_http || !output_path) {
    return UsageError("give -o FILE and one of --upstream CMD and --upstream-http URL; see --help");
  }
  if (upstream_http && !listen) {
    return UsageError("--upstream-http needs --http ADDR, the address to serve the client on");
  }
  if (listen && !upstream_http) {
    return UsageError("--http serves the recording proxy on HTTP: it goes with --upstream-http");
  }
  // The options of the transport given; `options` is what both share.
  mrr::RecorderOptions stdio_options;
  mrr::HttpRecorderOptions http_options;
  mrr::RecordingOptions& options = upstream ? static_cast<mrr::RecordingOptions&>(stdio_options)
                                            : static_cast<mrr::RecordingOptions&>(http_options);
  options.output_path = *output_path;
  options.name = flags.Get("--name");
  if (const std::optional<std::string> tags = flags.Get("--tags")) {
    std::size_t start = 0;
    for (std::size_t comma; start <= tags->size(); start = comma + 1) {
      comma = std::min(tags->find(',', start), tags->size());
      if (comma > start) options.tags.push_back(tags->substr(start, comma - start));
    }
  }
  if (const std::optional<std::string> interval = flags.Get("--flush-interval")) {
    const std::optional<std::uint64_t> ms = ParseCount(*interval, 86'400'000);
    if (!ms || *ms == 0) return UsageError("--flush-interval: milliseconds, from 1 to 86400000");
    options.flush_interval = std::chrono::milliseconds(*ms);
  }
  for (const std::string& name : flags.All("--redact-env")) {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr || *value == '\0') {
      return UsageError("--redact-env " + Quoted(name, 60) +
                        ": no such environment variable, or it is empty: nothing to redact");
    }
    options.redaction.env.emplace_back(name, value);
  }
  options.redaction.patterns = flags.All("--redact");
  options.thoughtjack_version = "arcs " + std::string(kArcsVersion);
  StopOnSignals();
  if (upstream) {
    stdio_options.upstream_command = *upstream;
  } else {
    http_options.upstream_url = *upstream_http;
    http_options.listen = *listen;
  }
  Result<int> status = upstream ? mrr::RunRecorder(stdio_options, &stop_requested)
                                : mrr::RunHttpRecorder(http_options, &stop_requested);
  VerbOutput output;
  if (!status.ok()) {
    output.err.push_back(status.status().message());
    output.exit_code = 2;
    return output;
  }
  output.exit_code = *status;
  return output;
}

constexpr char kConvertHelp[] =
    R"(usage: arcs mcp convert -r FILE -o attack.yaml [--style simple|phased]
                        [--phase-after N]

Writes the recording FILE as a ThoughtJack attack configuration in YAML (TJ-SPEC-010 F-004),
shaped as the spec's two examples: the tools of the first tools/list response, each with the
results of its tools/call requests in call order (a response sequence when called more than
once); resources and prompts likewise. Without a tools/list response, the tools are inferred from
the calls, with a warning about the missing schemas (EC-REC-010). The phased style puts the
results of the first N tool calls in a baseline and adds an attack phase to edit.

  -r, --recording FILE   the recording (required)
  -o, --output FILE      the YAML to write; - for standard output (required)
  --style STYLE          simple (default) or phased
  --phase-after N        tool calls before the phase switch (default 3; phased only)

Exit status: 0 converted (warnings on standard error), 1 the recording was refused (it cannot be
loaded), 2 on usage or I/O errors.
)";

VerbOutput Convert(const std::vector<std::string>& args) {
  const Flags flags = ParseFlags(args, {"--recording", "--output", "--style", "--phase-after"},
                                 {{"-r", "--recording"}, {"-o", "--output"}});
  if (!flags.error.empty()) return UsageError(flags.error);
  const std::optional<std::string> path = flags.Get("--recording");
  const std::optional<std::string> out = flags.Get("--output");
  if (!path || !out) return UsageError("give -r FILE and -o FILE; see --help");
  mrr::ConvertOptions options;
  const std::string style = flags.Get("--style").value_or("simple");
  if (style != "simple" && style != "phased") {
    return UsageError("--style: simple or phased, not " + Quoted(style, 40));
  }
  options.style = style == "phased" ? mrr::ConvertStyle::kPhased : mrr::ConvertStyle::kSimple;
  if (const std::optional<std::string> n = flags.Get("--phase-after")) {
    const std::optional<std::uint64_t> count = ParseCount(*n, UINT64_MAX);
    if (!count) return UsageError("--phase-after: a count of tool calls, not " + Quoted(*n, 40));
    options.phase_after = *count;
  }
  const OpenedRecording recording(*path);
  const Result<mrr::LoadedRecording>& loaded = recording.loaded();
  const std::string name = path->substr(path->find_last_of('/') + 1);
  Result<mrr::Converted> converted =
      loaded.ok() ? mrr::Convert(*loaded, recording.lines(), options, name) : loaded.status();
  if (!converted.ok()) return Failed(*path, converted.status());
  VerbOutput output;
  for (std::string& warning : converted->warnings) output.err.push_back("warning: " + warning);
  if (*out == "-") {
    output.document = std::move(converted->yaml);
  } else if (Status s = WriteFile(*out, converted->yaml); !s.ok()) {
    output.err.push_back(s.message());
    output.exit_code = 2;
  }
  return output;
}

constexpr char kStubHelp[] = R"(usage: arcs mcp stub TABLE

A stub MCP server on standard input and output, for replay's passthrough in conformance cases
(EC-REC-009): TABLE holds JSON lines {"method": M, "result": R} or {"method": M, "error": E}; a
request gets the next answer of its method, with its own id, or the error -32601 "stub: no
answer" when none is left. Notifications get nothing; the stub sends nothing of its own. An
adapter passes `arcs mcp stub TABLE` (or an equivalent) as its replayer's upstream.

Exit status: 0 when its input ends, 2 on usage or I/O errors or a table it cannot read.
)";

VerbOutput Stub(const std::vector<std::string>& args) {
  if (args.size() != 1 || args[0].starts_with("-")) {
    return UsageError("give one TABLE (JSON lines of answers); see --help");
  }
  Result<std::string> table = ReadFile(args[0]);
  Result<mrr::StubUpstream> stub =
      table.ok() ? mrr::StubUpstream::Parse(*table) : Result<mrr::StubUpstream>(table.status());
  // ReadFile's errors name the file already; the table's own do not.
  if (!stub.ok()) {
    return UsageError(table.ok() ? args[0] + ": " + stub.status().message()
                                 : stub.status().message());
  }
  std::signal(SIGPIPE, SIG_IGN);
  jsonl::FdSource client(0);
  jsonl::LineReader reader(&client, {});
  jsonl::Line line;
  for (Result<bool> more = reader.Next(&line); more.ok() && *more; more = reader.Next(&line)) {
    std::optional<std::string> answer = stub->Answer(line.text);
    if (answer && !mrr::WriteLine(1, std::move(*answer))) break;  // the client has gone
  }
  return {};
}

constexpr char kShowHelp[] = R"(usage: arcs mcp show FILE [--json]

A readable summary of the recording FILE: its header (name, version, upstream, recorded_at, tags,
and the redaction it states), its footer (counts and duration) or its absence, the messages by
direction and kind (request, notification, response, error), each method with its count, its
errors and the latency_ms of its answers (p50, p95 and max, by nearest rank), the tools called
and how many calls failed (a JSON-RPC error, or a result whose isError is true), the requests
never answered, the JSON-RPC errors (seq, method, code, message), and the lines the recorder
could not record (arcs/unrecorded messages) by reason. The text lists at most 20 unanswered
requests and 20 errors; the JSON lists all.

  --json    one JSON object with stable members (reference/mcp_record_replay/summary.cc lists
            them), every list whole

Each message line is read again from the file: memory grows with the number of messages, not with
their size.

Exit status: 0 summarized, 1 the recording was refused (it cannot be loaded; the message says
why), 2 on usage or I/O errors.
)";

// --json, the one option without a value, is taken out before ParseFlags reads the others.
bool TakeJsonFlag(std::vector<std::string>* args) {
  const auto json = std::remove(args->begin(), args->end(), "--json");
  const bool given = json != args->end();
  args->erase(json, args->end());
  return given;
}

VerbOutput Show(const std::vector<std::string>& args) {
  std::vector<std::string> rest = args;
  const bool as_json = TakeJsonFlag(&rest);
  if (rest.size() != 1 || rest[0].starts_with("-")) {
    return UsageError("give one FILE (a recording); see --help");
  }
  const std::string& path = rest[0];
  const OpenedRecording recording(path);
  const Result<mrr::LoadedRecording>& loaded = recording.loaded();
  if (!loaded.ok()) return Failed(path, loaded.status());
  // The footer is read after the last message, up to the end of the file.
  struct stat file {};
  if (::stat(path.c_str(), &file) != 0) {
    return Failed(path, Status(StatusCode::kIoError, std::strerror(errno)));
  }
  Result<mrr::RecordingSummary> summary =
      mrr::Summarize(*loaded, recording.lines(), static_cast<std::uint64_t>(file.st_size));
  if (!summary.ok()) return Failed(path, summary.status());
  VerbOutput output;
  if (as_json) {
    output.document = mrr::SummaryJson(*summary) + "\n";
  } else {
    output.out = mrr::SummaryText(*summary);
  }
  return output;
}

constexpr char kVerifyHelp[] =
    R"(usage: arcs mcp verify -r FILE (--upstream CMD | --upstream-http URL) [--json]
                       [--timeout MS] [--ignore-path POINTER]...

Replays the client's side of the recording FILE against a live MCP server, CMD (started through
/bin/sh -c, on the stdio transport) or the server at URL (MCP's Streamable HTTP transport: each
message POSTed, the server's session id and protocol version sent back, its GET stream read),
and reports what changed. The server gets the recorded
initialize request (as recorded, its id included), then the client's other requests and
notifications in file order (not its arcs/unrecorded lines), each request's response awaited, up
to --timeout, before the next is sent. Meanwhile the server's notifications are passed over, and its own requests
(sampling/createMessage, roots/list, elicitation/create) get the client's recorded answer to a
recorded server request of the same method (each used once, in order), else the JSON-RPC error
-32601.

Each live response is compared with the recorded response a by-request replay would serve the
request (same method and params, _meta left out): a tools/list result by tool name (added,
removed, or changed: inputSchema, description or annotations, compared as JSON data), any other
by its result or error. Breaking: a tool removed, a tool's inputSchema changed, a result that
became an error, no response within the timeout, the server's exit. Every other change is listed
as non-breaking, a changed result with the JSON Pointers where it departs from the recorded
one. A result that legitimately varies from run to run (a timestamp, a random id, a duration)
shows as changed too: read the non-breaking changes with that in mind, or leave such places out
with --ignore-path.

  -r, --recording FILE   the recording (required)
  --upstream CMD         the live MCP server, on stdio
  --upstream-http URL    the live MCP server, on Streamable HTTP (http:// or https://)
  --json                 the report as one JSON object: {"breaking": bool, "complete": bool,
                         "changes": [{"kind", "breaking", "method", "seq" (the recorded
                         request's), "tool", "fields", "detail"}], "requests_sent", ...}
  --timeout MS           milliseconds to wait for each response (default 30000)
  --ignore-path POINTER  a JSON Pointer into results whose differences are no change, with what
                         is below it; a token * stands for any one (/content/*/text); repeatable

The session ends early when the server exits, when initialize is not answered with a result, and
on SIGINT, SIGTERM or SIGHUP; the report then counts the requests not sent. At the end the
server's whole process group gets SIGTERM, and SIGKILL 2 s later if any of it is left.

Exit status: 0 no breaking change (others may be listed), 1 a breaking change, or the recording
was refused (it cannot be loaded, or it holds no initialize request), 2 on usage or I/O errors,
when the upstream could not start (it could not be spawned, or it ended before answering
initialize), or when a signal stopped the verification.
)";

// The live server of `arcs mcp verify`: a command on stdio, or a URL on Streamable HTTP.
Result<std::unique_ptr<mrr::LineTransport>> Connect(const std::optional<std::string>& command,
                                                    const std::optional<std::string>& url) {
  if (command) {
    Result<std::unique_ptr<mrr::StdioTransport>> stdio =
        mrr::StdioTransport::Start(*command, &stop_requested);
    if (!stdio.ok()) return stdio.status();
    return std::unique_ptr<mrr::LineTransport>(std::move(*stdio));
  }
  Result<std::unique_ptr<mrr::HttpLineTransport>> http =
      mrr::HttpLineTransport::Connect(*url, &stop_requested);
  if (!http.ok()) return http.status();
  return std::unique_ptr<mrr::LineTransport>(std::move(*http));
}

VerbOutput Verify(const std::vector<std::string>& args) {
  std::vector<std::string> rest = args;
  const bool as_json = TakeJsonFlag(&rest);
  const Flags flags = ParseFlags(
      rest, {"--recording", "--upstream", "--upstream-http", "--timeout", "--ignore-path"},
      {{"-r", "--recording"}}, {"--ignore-path"});
  if (!flags.error.empty()) return UsageError(flags.error);
  const std::optional<std::string> path = flags.Get("--recording");
  const std::optional<std::string> upstream = flags.Get("--upstream");
  const std::optional<std::string> upstream_http = flags.Get("--upstream-http");
  if (!path || upstream.has_value() == upstream_http.has_value()) {
    return UsageError("give -r FILE and one of --upstream CMD and --upstream-http URL; see --help");
  }
  mrr::VerifyOptions options;
  if (const std::optional<std::string> timeout = flags.Get("--timeout")) {
    const std::optional<std::uint64_t> ms = ParseCount(*timeout, 86'400'000);
    if (!ms || *ms == 0) return UsageError("--timeout: milliseconds, from 1 to 86400000");
    options.timeout = std::chrono::milliseconds(*ms);
  }
  options.ignore_paths = flags.All("--ignore-path");
  for (const std::string& pointer : options.ignore_paths) {
    if (!pointer.empty() && !pointer.starts_with('/')) {
      return UsageError("--ignore-path: a JSON Pointer (\"\" or starting with /), not " +
                        Quoted(pointer, 60));
    }
  }
  const OpenedRecording recording(*path);
  const Result<mrr::LoadedRecording>& loaded = recording.loaded();
  if (!loaded.ok()) return Failed(*path, loaded.status());
  StopOnSignals();  // SIGPIPE too: a server that exits is a change to report, not a crash
  // Destroyed on every path out of here: the server's process group (or HTTP session) ends then.
  Result<std::unique_ptr<mrr::LineTransport>> server = Connect(upstream, upstream_http);
  if (!server.ok()) {
    return UsageError((upstream ? "--upstream: " : "--upstream-http: ") +
                      server.status().message());
  }
  Result<mrr::VerifyReport> report =
      mrr::Verify(*loaded, recording.lines(), server->get(), options, &stop_requested);
  if (!report.ok()) return Failed(*path, report.status());
  VerbOutput output;
  if (as_json) {
    output.document = mrr::VerifyJson(*report) + "\n";
  } else {
    output.out = mrr::VerifyText(*report);
  }
  output.exit_code = report->stopped ? 2 : report->breaking() ? 1 : 0;
  if (report->stopped) {
    output.err.push_back(LastStopSignalName() + ": the verification stopped before its end");
  }
  return output;
}

}  // namespace

std::vector<VerbSpec> Verbs() {
  return {
      {"record", kRecordHelp,
       "a recording proxy between an MCP client and server (stdio or Streamable HTTP)", Record},
      {"replay", kReplayHelp, "a recording served as a mock MCP server (stdio or Streamable HTTP)",
       Replay},
      {"convert", kConvertHelp, "a recording as a ThoughtJack attack config (YAML)", Convert},
      {"stub", kStubHelp, "a stub MCP server answering from a table (passthrough's in the cases)",
       Stub},
      {"show", kShowHelp, "a readable summary of a recording: methods, tools, latencies, errors",
       Show},
      {"verify", kVerifyHelp,
       "a recording's requests sent to a live server: what changed, exit 1 if breaking", Verify}};
}

}  // namespace arcs::conformance::mcp_record_replay
