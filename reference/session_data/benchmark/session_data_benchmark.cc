// SessionData's speed against RapidJSON's SAX reader with a null handler over the same bytes, in
// the same process (issue #11 part 5):
//
//   arcs_session_data_benchmark [--bytes 100M] [--runs 5] [--seed 1] [--no-targets]
//                               [--write-session FILE]
//
// Generates a session of about --bytes (deterministic: exchanges of a user message and agent
// messages with text, thinking, fenced code, tool uses with input, output and pathHints), valid
// under both statements (--write-session FILE also writes it there, for timing the `arcs`
// command on the same bytes), then times alternately, --runs times each:
//   baseline  rapidjson::Reader (kParseDefaultFlags, rapidjson::BaseReaderHandler<>) over the
//             whole buffer through a MemoryStream;
//   validate  Reading::Read of the buffer (a copy made before the clock starts, with the spare
//             room a file reader leaves, which the reading takes and parses in place): both
//             statements and the prose, then the verdict under `both`;
//   render    Reading::Read for rendering (the session decoded as Go decodes it) and
//             RenderMarkdown into one string.
// Then, apart (after the peak RSS is read), simdjson On Demand counting every value (the
// tokenizer ceiling), each run after a baseline run of its own, and simdjson's DOM parser (for
// information: TimeCeiling).
// Targets (throughput of the input; each run's ratio to the baseline run beside it, the median of
// them: PairedSpeedRatio): validate >= 0.5 x baseline, render >= 0.25 x; issue #29's: validate
// >= 1.5 x baseline and >= 0.5 x the ceiling (validate / baseline over ceiling / baseline).
// Prints the figures and the peak RSS of the process; exit 1 when a target is missed (unless
// --no-targets, for the smoke test), 2 on usage errors or a generated file that is not valid.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/io.h"
#include "reference/core/testing/generated_text.h"
#include "reference/core/testing/json_baselines.h"
#include "reference/session_data/session_data.h"

namespace {

using arcs::json::testing::Median;
using arcs::json::testing::PairedSpeedRatio;
using arcs::json::testing::RapidJsonSaxNull;
using arcs::testing::AppendJsonString;
using arcs::testing::AppendText;
using arcs::testing::Rng;

void Member(std::string_view name, std::string_view text, std::string* out) {
  AppendJsonString(name, false, out);
  *out += ':';
  AppendJsonString(text, false, out);
}

std::string Text(Rng& rng, std::size_t lo, std::size_t hi) {
  std::string text;
  AppendText(rng, rng.LogUniform(lo, hi), &text);
  if (rng.Chance(20)) text += "\n```go\nfunc main() {}\n```\n";
  return text;
}

void AgentMessage(Rng& rng, std::string* out) {
  *out += R"({"role":"agent","model":"claude-3-5-sonnet-20241022","content":[)";
  if (rng.Chance(30)) {
    *out += "{";
    Member("type", "thinking", out);
    *out += ',';
    Member("text", Text(rng, 20, 4000), out);
    *out += "},";
  }
  *out += "{";
  Member("type", "text", out);
  *out += ',';
  Member("text", Text(rng, 10, 8000), out);
  *out += "}]";
  if (rng.Chance(50)) {
    *out += R"(,"tool":{"name":"Write","type":"write","useId":"tool_1","input":{)";
    Member("file_path", "src/main.go", out);
    *out += ',';
    Member("content", Text(rng, 10, 6000), out);
    *out += R"(},"output":{"exit_code":0,)";
    Member("stdout", Text(rng, 0, 2000), out);
    *out += R"(}},"pathHints":["src/main.go","/home/alice/project/README.md"])";
  }
  *out += '}';
}

std::string Generate(std::uint64_t bytes, std::uint64_t seed) {
  Rng rng(seed);
  std::string out = R"({"schemaVersion":"1.0","provider":{"id":"claude","name":"Claude Code",)"
                    R"("version":"1.0.0"},"sessionId":"bench","createdAt":"2025-01-01T00:00:00Z",)"
                    R"("workspaceRoot":"/home/alice/project","exchanges":[)";
  out.reserve(bytes + (1 << 20));
  for (std::uint64_t x = 0; out.size() < bytes; ++x) {
    out += (x ? ",{" : "{") + std::string(R"("exchangeId":"ex_)") + std::to_string(x) +
           R"(","messages":[{"role":"user","content":[{"type":"text",)";
    Member("text", Text(rng, 5, 2000), &out);
    out += "}]}";
    for (std::uint64_t m = rng.Between(1, 6); m > 0; --m) {
      out += ',';
      AgentMessage(rng, &out);
    }
    out += "]}";
  }
  out += "]}";
  return out;
}

double Seconds(const std::chrono::steady_clock::time_point& start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t bytes = 100 << 20, runs = 5, seed = 1;
  bool targets = true;
  std::string write_session;  // where the generated session is also written; "" for nowhere
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--bytes" && has_value && arcs::testing::ParseSize(argv[i + 1], &bytes)) {
      ++i;
    } else if (a == "--runs" && has_value && arcs::testing::ParseSize(argv[i + 1], &runs) && runs) {
      ++i;
    } else if (a == "--seed" && has_value && arcs::testing::ParseSize(argv[i + 1], &seed)) {
      ++i;
    } else if (a == "--no-targets") {
      targets = false;
    } else if (a == "--write-session" && has_value) {
      write_session = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: arcs_session_data_benchmark [--bytes 100M] [--runs 5] "
                   "[--seed 1] [--no-targets] [--write-session FILE]\n");
      return 2;
    }
  }
  const std::string file = Generate(bytes, seed);
  if (!write_session.empty()) {
    if (const arcs::Status written = arcs::WriteFile(write_session, file); !written.ok()) {
      std::fprintf(stderr, "arcs_session_data_benchmark: %s\n", written.message().c_str());
      return 2;
    }
  }
  const arcs::session_data::Limits limits;
  {
    const auto reading = arcs::session_data::Reading::Read(file, limits);
    if (!arcs::session_data::ValidUnder(reading.findings(), "both")) {
      std::fprintf(stderr, "arcs_session_data_benchmark: the generated session is not valid\n");
      return 2;
    }
  }
  // sax[i] pairs with validate[i] and render[i].
  std::vector<double> sax, validate, render;
  std::size_t markdown_bytes = 0;
  for (std::uint64_t run = 0; run < runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    if (!RapidJsonSaxNull(file)) return 2;
    sax.push_back(Seconds(start));

    // The bytes in memory, as the baseline has them, in a string with the spare room a file
    // reader leaves (ReadFile reserves the size and 64 bytes), so the reading takes it as it is.
    std::string copy;
    copy.reserve(file.size() + 64);
    copy.assign(file);
    start = std::chrono::steady_clock::now();
    const auto reading = arcs::session_data::Reading::Read(std::move(copy), limits);
    if (!arcs::session_data::ValidUnder(reading.findings(), "both")) return 2;
    validate.push_back(Seconds(start));

    copy.reserve(file.size() + 64);
    copy.assign(file);
    start = std::chrono::steady_clock::now();
    const auto again = arcs::session_data::Reading::Read(
        std::move(copy), limits, arcs::session_data::Reading::Purpose::kRender);
    std::string markdown;
    arcs::session_data::RenderMarkdown(again.session(), &markdown);
    render.push_back(Seconds(start));
    markdown_bytes = markdown.size();
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);  // before the ceiling's runs: its copy and index are not ARCS's
  arcs::json::testing::CeilingTimes ceiling;
  if (!arcs::json::testing::TimeCeiling(file, false, runs, &ceiling)) return 2;
  const double mb = static_cast<double>(file.size()) / 1e6;
  const double base = mb / Median(sax), v = mb / Median(validate), r = mb / Median(render);
  const double top = mb / Median(ceiling.ceiling_seconds);
  // The targets' ratios, each run against the baseline run beside it (PairedSpeedRatio).
  const double v_base = PairedSpeedRatio(sax, validate), r_base = PairedSpeedRatio(sax, render);
  const double v_top = v_base / PairedSpeedRatio(ceiling.baseline_seconds, ceiling.ceiling_seconds);
  std::printf(
      "SessionData, %zu bytes (%.1f MB), median of %llu runs each (MB = 10^6 B; ratios: the "
      "median of each run's against the baseline run beside it):\n",
      file.size(), mb, static_cast<unsigned long long>(runs));
  std::printf("  %s\n", arcs::json::testing::CodePaths().c_str());
  std::printf("  baseline: RapidJSON SAX, null handler  %8.1f MB/s\n", base);
  std::printf(
      "  validate (both statements, prose)      %8.1f MB/s  ratio %.3f, target >= 0.5: %s\n", v,
      v_base, v_base >= 0.5 ? "PASS" : "FAIL");
  std::printf("  simdjson On Demand, counting values    %8.1f MB/s  (the tokenizer ceiling)\n",
              top);
  std::printf("  %s\n", arcs::json::testing::DomFigure(mb, ceiling, v_base).c_str());
  // Issue #29's targets for validation, on one core.
  std::printf("  validate / baseline %.3f, target (#29) >= 1.5: %s\n", v_base,
              v_base >= 1.5 ? "PASS" : "FAIL");
  std::printf("  validate / simdjson On Demand %.3f, target (#29) >= 0.5: %s\n", v_top,
              v_top >= 0.5 ? "PASS" : "FAIL");
  std::printf(
      "  render (read, Markdown of %.1f MB)     %8.1f MB/s  ratio %.3f, target >= 0.25: %s\n",
      static_cast<double>(markdown_bytes) / 1e6, r, r_base, r_base >= 0.25 ? "PASS" : "FAIL");
  std::printf(
      "  peak RSS of the process %.1f MiB = %.2f x the file (the file, a copy, the parsed "
      "document, the decoded session, the transcript)\n",
      static_cast<double>(usage.ru_maxrss) / 1024,
      static_cast<double>(usage.ru_maxrss) * 1024 / static_cast<double>(file.size()));
  return targets && (v_base < 1.5 || v_top < 0.5 || r_base < 0.25) ? 1 : 0;
}
