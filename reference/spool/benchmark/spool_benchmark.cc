// The Spool validator's speed against a fixed baseline, over the same bytes in the same process.
//
//   arcs_spool_benchmark [--file=PATH.spool] [--ids-file=LABEL=PATH.spool ...]
//                        [--benchmark_* flags]
//
// The --file is read into memory once. Each benchmark then goes over that one buffer:
//   RapidJsonSax/LengthBounded   the baseline the requirement names: rapidjson::Reader with
//                                kParseDefaultFlags and a handler that does nothing
//                                (rapidjson::BaseReaderHandler<>), one Parse per '\n'-separated
//                                line, reading each line through a rapidjson::MemoryStream.
//   RapidJsonSax/NulTerminated   the same, over a copy of the buffer in which every '\n' is a NUL,
//                                read through rapidjson::StringStream (no end-of-line check at
//                                all): the fastest way to feed RapidJSON these lines, so the ratio
//                                against it is the conservative one.
//   SimdjsonOnDemand/CountValues simdjson On Demand counting every value of every line: the
//                                tokenizer ceiling of issue #29's targets (json_baselines.h).
//   SimdjsonDom/Parse            simdjson's DOM parser over every line (strings decoded), for
//                                information.
//   ArcsParse[/simd|/rapidjson]  json::Document::Parse of every line, no rule checked (the
//                                process's front end, then each of them), for information.
//   ArcsValidate                 conformance::spool::Validate over a jsonl::MemorySource of the
//                                buffer with the default limits: line splitting, strict parsing,
//                                every per-entry and cross-entry rule.
// Every benchmark reports bytes_per_second. At the end the ratio ArcsValidate / baseline is
// printed (medians over repetitions), once for each baseline; the requirement is
// ArcsValidate / LengthBounded >= 0.5 (reference/spool/benchmark/bench.sh fails when it is not
// met).
//
// Each --ids-file adds ArcsValidate/ids:LABEL, the same validation over that file (in memory of its
// own). reference/spool/benchmark/bench.sh gives it the same entries in each id pattern
// (arcs_generate_spool --ids), random first, and requires each pattern's rate to be at least 0.85
// of random's: the id index must be as fast whatever the ids look like. The ratios printed at the
// end are against the first
// --ids-file. With --benchmark_enable_random_interleaving the files take turns, so a change in
// the machine's speed during the run does not fall on one pattern.
//
// Before timing, every file must validate without a single finding and every line of --file must
// parse with the baseline: a benchmark over an invalid file measures the wrong code path.
#include <benchmark/benchmark.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stream.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "conformance/spool/checker.h"
#include "reference/core/diagnostics.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/core/testing/json_baselines.h"
#include "reference/spool/spool.h"

namespace {

std::string g_bytes;      // the file, as read
std::string g_nul_bytes;  // the same bytes with every '\n' replaced by '\0'
std::uint64_t g_lines = 0;

struct IdsFile {
  std::string label;
  std::string bytes;
};
std::deque<IdsFile> g_ids_files;  // a deque: the benchmarks hold pointers to its elements

using arcs::json::testing::ForEachLine;

struct NullHandler : rapidjson::BaseReaderHandler<> {};

void BM_RapidJsonSaxLengthBounded(benchmark::State& state) {
  rapidjson::Reader reader;  // reused: its parse stack is allocated once
  NullHandler handler;
  for (auto _ : state) {
    std::uint64_t failures = 0;
    ForEachLine(g_bytes, [&](const char* line, std::size_t size) {
      rapidjson::MemoryStream stream(line, size);
      failures += reader.Parse<rapidjson::kParseDefaultFlags>(stream, handler).IsError();
    });
    if (failures) state.SkipWithError("RapidJSON rejected a line");
    benchmark::DoNotOptimize(failures);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

void BM_RapidJsonSaxNulTerminated(benchmark::State& state) {
  rapidjson::Reader reader;
  NullHandler handler;
  for (auto _ : state) {
    std::uint64_t failures = 0;
    ForEachLine(g_bytes, [&](const char* line, std::size_t) {
      // The same offset in the NUL-terminated copy.
      rapidjson::StringStream stream(g_nul_bytes.data() + (line - g_bytes.data()));
      failures += reader.Parse<rapidjson::kParseDefaultFlags>(stream, handler).IsError();
    });
    if (failures) state.SkipWithError("RapidJSON rejected a line");
    benchmark::DoNotOptimize(failures);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

// The tokenizer ceiling (issue #29): simdjson On Demand counting every value of every line, over
// a copy of the buffer with simdjson's padding after it.
std::string g_padded_bytes;  // g_bytes followed by simdjson's padding

// The strict layer alone: json::Document::Parse of every line, no rule checked, with the front end
// given (the process's for "ArcsParse"; each of them for "ArcsParse/simd" and
// "ArcsParse/rapidjson", to show what the SIMD front end buys, in the same run).
void BM_ArcsParse(benchmark::State& state, std::optional<arcs::json::FrontEnd> front_end) {
  const arcs::json::FrontEnd before = arcs::json::CurrentFrontEnd();
  if (front_end) arcs::json::SetFrontEnd(*front_end);
  arcs::json::Document document;
  for (auto _ : state) {
    std::uint64_t failures = 0;
    ForEachLine(g_bytes, [&](const char* line, std::size_t size) {
      failures += !document.Parse(std::string_view(line, size));
    });
    if (failures) state.SkipWithError("a line does not parse");
    benchmark::DoNotOptimize(failures);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
  arcs::json::SetFrontEnd(before);
}

void BM_ArcsValidate(benchmark::State& state, const std::string* bytes) {
  const arcs::spool::Limits limits;
  for (auto _ : state) {
    arcs::jsonl::MemorySource source(*bytes);
    arcs::Diagnostics diagnostics;
    arcs::conformance::spool::Validate(&source, limits, &diagnostics);
    if (!diagnostics.findings().empty()) state.SkipWithError("the file has findings");
    benchmark::DoNotOptimize(diagnostics);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes->size()));
}

constexpr char kIdsPrefix[] = "ArcsValidate/ids:";

// The console report, then the ratios of medians.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // Colors only on a terminal (a custom display reporter does not follow --benchmark_color).
  RatioReporter() : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_Defaults : OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
      auto it = run.counters.find("bytes_per_second");
      if (it != run.counters.end()) rates_[run.run_name.function_name].push_back(it->second.value);
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    auto median = [&](const std::string& name) {
      std::vector<double> v = rates_[name];
      if (v.empty()) return 0.0;
      std::sort(v.begin(), v.end());
      return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    if (!g_ids_files.empty()) {
      const std::string reference = kIdsPrefix + g_ids_files.front().label;
      std::printf("\nid patterns: %zu bytes each (medians over %zu repetition(s))\n",
                  g_ids_files.front().bytes.size(), rates_[reference].size());
      for (const IdsFile& file : g_ids_files) {
        const double rate = median(kIdsPrefix + file.label);
        const double ratio = median(reference) > 0 ? rate / median(reference) : 0.0;
        std::printf("ratio %-34s / %s = %.3f  (%.1f MB/s)\n", (kIdsPrefix + file.label).c_str(),
                    g_ids_files.front().label.c_str(), ratio, rate / 1e6);
      }
    }
    if (g_bytes.empty()) return;
    const double arcs = median("ArcsValidate");
    std::printf("\nfile: %zu bytes, %llu lines (medians over %zu repetition(s))\n", g_bytes.size(),
                static_cast<unsigned long long>(g_lines), rates_["ArcsValidate"].size());
    std::printf("%s\n", arcs::json::testing::CodePaths().c_str());
    // The targets of issue #29; NulTerminated and ArcsParse are for information.
    const struct {
      const char* base;
      double target;
    } ratios[] = {{"RapidJsonSax/LengthBounded", 1.5},
                  {"SimdjsonOnDemand/CountValues", 0.5},
                  {"SimdjsonDom/Parse", 0},
                  {"RapidJsonSax/NulTerminated", 0},
                  {"ArcsParse", 0}};
    const double simd = median("ArcsParse/simd"), rapidjson = median("ArcsParse/rapidjson");
    if (simd > 0 && rapidjson > 0) {
      std::printf("ratio ArcsParse/simd / ArcsParse/rapidjson = %.3f  (%.1f MB/s / %.1f MB/s)\n",
                  simd / rapidjson, simd / 1e6, rapidjson / 1e6);
    }
    for (const auto& [base, target] : ratios) {
      const double b = median(base);
      if (b <= 0 || arcs <= 0) continue;
      std::printf("ratio ArcsValidate / %-29s = %.3f  (%.1f MB/s / %.1f MB/s; MB = 10^6 B)", base,
                  arcs / b, arcs / 1e6, b / 1e6);
      if (target > 0) std::printf("  %s %.1f", arcs / b >= target ? "meets >=" : "BELOW", target);
      std::printf("\n");
    }
  }

 private:
  std::map<std::string, std::vector<double>> rates_;
};

// Reads the whole file into *bytes; false (with a message) when it cannot.
bool ReadFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (in) {
    bytes->resize(static_cast<std::size_t>(in.tellg()));
    in.seekg(0);
    in.read(bytes->data(), static_cast<std::streamsize>(bytes->size()));
  }
  if (!in) std::cerr << "arcs_spool_benchmark: cannot read " << path << "\n";
  return static_cast<bool>(in);
}

// The number of findings the validator reports on bytes (zero for a file worth timing).
std::size_t Findings(const std::string& bytes) {
  arcs::jsonl::MemorySource source(bytes);
  arcs::Diagnostics diagnostics;
  arcs::conformance::spool::Validate(&source, arcs::spool::Limits(), &diagnostics);
  return diagnostics.findings().size();
}

// Checks the --file (in g_bytes) and registers the three benchmarks over it; false (with a
// message) when it is not valid.
bool RegisterMainFile(const std::string& path) {
  g_nul_bytes = g_bytes;
  std::replace(g_nul_bytes.begin(), g_nul_bytes.end(), '\n', '\0');

  // Both sides must take their normal, successful path over every line.
  rapidjson::Reader reader;
  NullHandler handler;
  std::uint64_t failures = 0;
  ForEachLine(g_bytes, [&](const char* line, std::size_t size) {
    rapidjson::MemoryStream stream(line, size);
    failures += reader.Parse<rapidjson::kParseDefaultFlags>(stream, handler).IsError();
    ++g_lines;
  });
  const std::size_t findings = Findings(g_bytes);
  if (failures || findings) {
    std::cerr << "arcs_spool_benchmark: " << path << ": " << failures
              << " line(s) RapidJSON rejects, " << findings
              << " finding(s) from the validator; benchmark a valid file (arcs_generate_spool)\n";
    return false;
  }
  benchmark::RegisterBenchmark("RapidJsonSax/LengthBounded", BM_RapidJsonSaxLengthBounded)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("RapidJsonSax/NulTerminated", BM_RapidJsonSaxNulTerminated)
      ->Unit(benchmark::kMillisecond);
  g_padded_bytes = arcs::json::testing::SimdjsonOnDemandCount::Padded(g_bytes);
  arcs::json::testing::RegisterLineCeilings(&g_padded_bytes, g_bytes.size());
  benchmark::RegisterBenchmark("ArcsParse", BM_ArcsParse, std::nullopt)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("ArcsParse/simd", BM_ArcsParse, arcs::json::FrontEnd::kSimd)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("ArcsParse/rapidjson", BM_ArcsParse,
                               arcs::json::FrontEnd::kRapidJson)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("ArcsValidate", BM_ArcsValidate, &g_bytes)
      ->Unit(benchmark::kMillisecond);
  return true;
}

constexpr char kUsage[] =
    "usage: arcs_spool_benchmark [--file=PATH.spool] [--ids-file=LABEL=PATH.spool ...]\n"
    "                            [--benchmark_* flags]\n"
    "       (or set ARCS_SPOOL_BENCH_FILE); make files with arcs_generate_spool\n";

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  if (const char* env = std::getenv("ARCS_SPOOL_BENCH_FILE")) path = env;
  std::vector<std::pair<std::string, std::string>> ids_paths;  // label, path
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--file=")) {
      path = std::string(a.substr(7));
    } else if (a.starts_with("--ids-file=")) {
      a.remove_prefix(11);
      const std::size_t eq = a.find('=');
      if (eq == 0 || eq == std::string_view::npos || eq + 1 == a.size()) {
        std::cerr << "arcs_spool_benchmark: --ids-file takes LABEL=PATH\n" << kUsage;
        return 2;
      }
      ids_paths.emplace_back(a.substr(0, eq), a.substr(eq + 1));
    } else {
      args.push_back(argv[i]);
    }
  }
  int benchmark_argc = static_cast<int>(args.size());
  benchmark::Initialize(&benchmark_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(benchmark_argc, args.data())) return 2;
  if (path.empty() && ids_paths.empty()) {
    std::cerr << kUsage;
    return 2;
  }

  for (const auto& [label, ids_path] : ids_paths) {
    IdsFile& file = g_ids_files.emplace_back(IdsFile{label, {}});
    if (!ReadFile(ids_path, &file.bytes)) return 2;
    if (const std::size_t findings = Findings(file.bytes)) {
      std::cerr << "arcs_spool_benchmark: " << ids_path << ": " << findings
                << " finding(s) from the validator; benchmark a valid file (arcs_generate_spool)\n";
      return 1;
    }
  }

  // Each benchmark goes over the whole file once per iteration. Rates are per CPU second (Google
  // Benchmark's default): everything runs on one thread, so on an idle machine this is wall time,
  // and on a shared one it does not count the time other processes held the CPU.
  if (!path.empty()) {
    if (!ReadFile(path, &g_bytes)) return 2;
    if (!RegisterMainFile(path)) return 1;
  }
  for (const IdsFile& file : g_ids_files) {
    benchmark::RegisterBenchmark((kIdsPrefix + file.label).c_str(), BM_ArcsValidate, &file.bytes)
        ->Unit(benchmark::kMillisecond);
  }

  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
