// The Spool validator's speed against a fixed baseline, over the same bytes in the same process.
//
//   arcs_spool_benchmark --file=PATH.spool [--benchmark_* flags]
//
// The file is read into memory once. Each benchmark then goes over that one buffer:
//   RapidJsonSax/LengthBounded   the baseline the requirement names: rapidjson::Reader with
//                                kParseDefaultFlags and a handler that does nothing
//                                (rapidjson::BaseReaderHandler<>), one Parse per '\n'-separated
//                                line, reading each line through a rapidjson::MemoryStream.
//   RapidJsonSax/NulTerminated   the same, over a copy of the buffer in which every '\n' is a NUL,
//                                read through rapidjson::StringStream (no end-of-line check at
//                                all): the fastest way to feed RapidJSON these lines, so the ratio
//                                against it is the conservative one.
//   ArcsValidate                 conformance::spool::Validate over a jsonl::MemorySource of the
//                                buffer with the default limits: line splitting, strict parsing,
//                                every per-entry and cross-entry rule.
// Every benchmark reports bytes_per_second. At the end the ratio ArcsValidate / baseline is
// printed (medians over repetitions), once for each baseline; the requirement is
// ArcsValidate / LengthBounded >= 0.5 (tools/bench.sh fails when it is not met).
// Before timing, the file must validate without a single finding and every line must parse with
// the baseline: a benchmark over an invalid file measures the wrong code path.
#include <benchmark/benchmark.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stream.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/spool/checker.h"
#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/spool/spool.h"

namespace {

std::string g_bytes;      // the file, as read
std::string g_nul_bytes;  // the same bytes with every '\n' replaced by '\0'
std::uint64_t g_lines = 0;

// Calls f(line) for each '\n'-terminated line of bytes (and a final unterminated one).
template <typename F>
void ForEachLine(std::string_view bytes, F&& f) {
  const char* p = bytes.data();
  const char* end = p + bytes.size();
  while (p < end) {
    const char* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* stop = nl ? nl : end;
    f(p, static_cast<std::size_t>(stop - p));
    p = stop + 1;
  }
}

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

void BM_ArcsValidate(benchmark::State& state) {
  const arcs::spool::Limits limits;
  for (auto _ : state) {
    arcs::jsonl::MemorySource source(g_bytes);
    arcs::Diagnostics diagnostics;
    arcs::conformance::spool::Validate(&source, limits, &diagnostics);
    if (!diagnostics.findings().empty()) state.SkipWithError("the file has findings");
    benchmark::DoNotOptimize(diagnostics);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

// Each benchmark goes over the whole file once per iteration. Rates are per CPU second (Google
// Benchmark's default): everything runs on one thread, so on an idle machine this is wall time,
// and on a shared one it does not count the time other processes held the CPU.
BENCHMARK(BM_RapidJsonSaxLengthBounded)
    ->Name("RapidJsonSax/LengthBounded")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RapidJsonSaxNulTerminated)
    ->Name("RapidJsonSax/NulTerminated")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ArcsValidate)->Name("ArcsValidate")->Unit(benchmark::kMillisecond);

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
    const double arcs = median("ArcsValidate");
    std::printf("\nfile: %zu bytes, %llu lines (medians over %zu repetition(s))\n", g_bytes.size(),
                static_cast<unsigned long long>(g_lines), rates_["ArcsValidate"].size());
    for (const char* base : {"RapidJsonSax/LengthBounded", "RapidJsonSax/NulTerminated"}) {
      const double b = median(base);
      if (b <= 0 || arcs <= 0) continue;
      const bool primary = std::string_view(base) == "RapidJsonSax/LengthBounded";
      std::printf("ratio ArcsValidate / %-27s = %.3f  (%.1f MB/s / %.1f MB/s; MB = 10^6 B)  %s%s\n",
                  base, arcs / b, arcs / 1e6, b / 1e6,
                  arcs / b >= 0.5 ? "meets >= 0.5" : "BELOW 0.5",
                  primary ? " (the requirement)" : " (stricter, for information)");
    }
  }

 private:
  std::map<std::string, std::vector<double>> rates_;
};

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  if (const char* env = std::getenv("ARCS_SPOOL_BENCH_FILE")) path = env;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--file=")) {
      path = std::string(a.substr(7));
    } else {
      args.push_back(argv[i]);
    }
  }
  int benchmark_argc = static_cast<int>(args.size());
  benchmark::Initialize(&benchmark_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(benchmark_argc, args.data())) return 2;
  if (path.empty()) {
    std::cerr << "usage: arcs_spool_benchmark --file=PATH.spool [--benchmark_* flags]\n"
                 "       (or set ARCS_SPOOL_BENCH_FILE); make one with arcs_generate_spool\n";
    return 2;
  }

  {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (in) {
      g_bytes.resize(static_cast<std::size_t>(in.tellg()));
      in.seekg(0);
      in.read(g_bytes.data(), static_cast<std::streamsize>(g_bytes.size()));
    }
    if (!in) {
      std::cerr << "arcs_spool_benchmark: cannot read " << path << "\n";
      return 2;
    }
  }
  g_nul_bytes = g_bytes;
  std::replace(g_nul_bytes.begin(), g_nul_bytes.end(), '\n', '\0');

  // Both sides must take their normal, successful path over every line.
  {
    rapidjson::Reader reader;
    NullHandler handler;
    std::uint64_t failures = 0;
    ForEachLine(g_bytes, [&](const char* line, std::size_t size) {
      rapidjson::MemoryStream stream(line, size);
      failures += reader.Parse<rapidjson::kParseDefaultFlags>(stream, handler).IsError();
      ++g_lines;
    });
    arcs::jsonl::MemorySource source(g_bytes);
    arcs::Diagnostics diagnostics;
    arcs::conformance::spool::Validate(&source, arcs::spool::Limits(), &diagnostics);
    if (failures || !diagnostics.findings().empty()) {
      std::cerr << "arcs_spool_benchmark: " << path << ": " << failures
                << " line(s) RapidJSON rejects, " << diagnostics.findings().size()
                << " finding(s) from the validator; benchmark a valid file (arcs_generate_spool)\n";
      return 1;
    }
  }

  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
