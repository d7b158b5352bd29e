#include "conformance/mcp_record_replay/verbs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "reference/core/strings.h"
#include "reference/mcp_record_replay/loader.h"
#include "reference/mcp_record_replay/replay.h"
#include "reference/mcp_record_replay/replay_server.h"

namespace arcs::conformance::mcp_record_replay {
namespace {

namespace mrr = arcs::mcp_record_replay;

constexpr char kReplayHelp[] =
    R"(usage: arcs mcp replay -r FILE [--match-mode MODE] [--timing TIMING]
                       [--on-unmatched BEHAVIOUR] [--upstream CMD]

Serves the recording FILE as a mock MCP server on standard input and output (the MCP stdio
transport: one JSON-RPC message per line), as TJ-SPEC-010 F-003 describes and
conformance/mcp_record_replay/errata.md reads it. A response carries the live request's id;
notifications are never answered; only recorded responses are sent (errata MRR-E39).

  -r, --recording FILE      the recording (required)
  --match-mode MODE         sequential (default): the recorded responses in order;
                            by-request: by method and params (SHA-256 of their RFC 8785 form,
                            _meta left out), each key's responses in order;
                            fuzzy: the same method and the most similar params, at least half of
                            their leaves shared (errata MRR-E36)
  --timing TIMING           instant (default), realistic (the recorded latency_ms), scaled:N
                            (latency_ms times N)
  --on-unmatched BEHAVIOUR  error (default): a JSON-RPC error, then the replay ends;
                            warn: a JSON-RPC error (-32000), and the replay goes on;
                            passthrough: the request goes to --upstream, its answer comes back
  --upstream CMD            the real server passthrough starts (through /bin/sh -c)

Exit status: 0 the client closed its input, 1 the recording was refused (it cannot be loaded),
2 on usage or I/O errors, 3 the replay ended on an unmatched request (--on-unmatched error).
)";

// Options given as `--name VALUE`, `--name=VALUE` or a short alias, each at most once.
struct Flags {
  std::map<std::string, std::string, std::less<>> values;
  std::string error;

  std::optional<std::string> Get(std::string_view name) const {
    auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
};

Flags ParseFlags(const std::vector<std::string>& args, const std::set<std::string_view>& known,
                 const std::map<std::string_view, std::string_view>& aliases) {
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
    if (!flags.values.emplace(name, value).second) {
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

Result<mrr::ReplayOptions> ReplayOptionsOf(const Flags& flags) {
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

void Log(std::string_view line) { std::cerr << "arcs mcp replay: " << line << "\n"; }

VerbOutput Replay(const std::vector<std::string>& args) {
  const Flags flags =
      ParseFlags(args, {"--recording", "--match-mode", "--timing", "--on-unmatched", "--upstream"},
                 {{"-r", "--recording"}});
  if (!flags.error.empty()) return UsageError(flags.error);
  const std::optional<std::string> path = flags.Get("--recording");
  if (!path) return UsageError("give the recording with -r FILE; see --help");
  Result<mrr::ReplayOptions> options = ReplayOptionsOf(flags);
  if (!options.ok()) return UsageError(options.status().message());
  const bool passthrough = options->on_unmatched == mrr::OnUnmatched::kPassthrough;
  if (passthrough != flags.Get("--upstream").has_value()) {
    return UsageError(passthrough ? "--on-unmatched passthrough needs --upstream CMD (errata "
                                    "MRR-E42)"
                                  : "--upstream is only for --on-unmatched passthrough");
  }
  if (passthrough) return UsageError("passthrough is not available in this build");
  const int fd = ::open(path->c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return UsageError(*path + ": " + std::strerror(errno));
  VerbOutput output;
  jsonl::FdSource source(fd);
  Result<mrr::LoadedRecording> loaded = mrr::LoadRecording(&source, {});
  const mrr::FileRandomAccess lines(fd);
  Result<mrr::Replayer> replayer =
      loaded.ok() ? mrr::Replayer::Create(*loaded, lines, *options) : loaded.status();
  if (!replayer.ok()) {
    ::close(fd);
    output.err.push_back(*path + ": " + replayer.status().message());
    output.exit_code = replayer.status().code() == StatusCode::kIoError ? 2 : 1;
    return output;
  }
  for (const std::string& note : loaded->notes) Log(note);
  std::signal(SIGPIPE, SIG_IGN);  // a client that goes away is an end, not a crash
  const mrr::Served served = mrr::ServeReplay(&*replayer, 0, 1, nullptr, Log);
  ::close(fd);
  if (served.end == mrr::ServeEnd::kFailed) {
    output.err.push_back(served.why);
    output.exit_code = 2;
  } else if (served.end == mrr::ServeEnd::kUnmatched) {
    output.exit_code = 3;
  }
  return output;
}

}  // namespace

std::vector<VerbSpec> Verbs() { return {{"replay", kReplayHelp, Replay}}; }

}  // namespace arcs::conformance::mcp_record_replay
