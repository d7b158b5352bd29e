// The Lightbox chain verifier's speed against a fixed baseline, over the same bytes in the same
// process.
//
//   arcs_lightbox_benchmark --file=PATH.jsonl [--benchmark_* flags]
//
// The --file is read into memory once. Each benchmark then goes over that one buffer:
//   Baseline/SaxAndSha256  the baseline the requirement names: the least any verifier must do,
//                          tokenizing every byte once and hashing every byte once.
//                          rapidjson::Reader with kParseDefaultFlags and a handler that does
//                          nothing (rapidjson::BaseReaderHandler<>), one Parse per '\n'-separated
//                          line through a rapidjson::MemoryStream (as arcs_spool_benchmark's
//                          baseline), then OpenSSL's SHA-256 (EVP_Digest) of the whole buffer.
//   Baseline/SaxOnly       the first half alone, for information.
//   Baseline/Sha256Only    the second half alone, for information.
//   Sha256PerLine/OneByOne  the SHA-256 of each line apart, by OpenSSL (Sha256::Of): the shape of
//                          verification's hashing, for information.
//   Sha256PerLine/SideBySide  the same digests by Sha256Batch (multi-buffer where it is built in),
//                          as Verify takes them; the digests must be the same.
//   LightboxVerify         lightbox::Verify over a jsonl::MemorySource of the buffer with the
//                          default limits: line splitting, strict parsing, the canonical bytes of
//                          every event (sorted members, re-escaped strings), their SHA-256, and
//                          the links. It must come out intact.
//   LightboxVerify/threads/2  the same with 2 threads parsing and hashing (Verify's threads
//                          argument), timed by the wall clock.
//   LightboxValidate       conformance::lightbox::Validate over the buffer as events.jsonl, no
//                          meta.json: what `arcs validate` runs, every field rule and the chain.
//   SimdjsonOnDemand/CountValues  simdjson On Demand counting every value of every line (the
//                          tokenizer ceiling, json_baselines.h), for issue #29's targets.
//   SimdjsonDom/Parse      simdjson's DOM parser over every line, for information.
// Every benchmark reports bytes_per_second (of the file). At the end the ratios are printed
// (medians over repetitions); the requirement is LightboxVerify / Baseline/SaxAndSha256 >= 0.5
// (reference/lightbox/benchmark/bench.sh fails when it is not met, and also compares with the
// spec's Python loop, python_verify.py). Issue #29's for validation: LightboxValidate >= 1.5 x
// Baseline/SaxOnly and >= 0.5 x the ceiling.
//
// Before timing, every line must parse with the baseline, the chain must verify intact and the
// validator must find no error: a benchmark over a broken file measures the wrong code path.
#include <benchmark/benchmark.h>
#include <openssl/evp.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
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
#include <utility>
#include <vector>

#include "conformance/lightbox/checker.h"
#include "reference/core/jsonl.h"
#include "reference/core/sha256.h"
#include "reference/core/testing/json_baselines.h"
#include "reference/lightbox/lightbox.h"

namespace {

std::string g_bytes;  // the file, as read
std::uint64_t g_lines = 0;

using arcs::json::testing::ForEachLine;

struct NullHandler : rapidjson::BaseReaderHandler<> {};

// The number of lines RapidJSON's SAX reader rejects.
std::uint64_t SaxFailures(rapidjson::Reader& reader) {
  NullHandler handler;
  std::uint64_t failures = 0;
  ForEachLine(g_bytes, [&](const char* line, std::size_t size) {
    rapidjson::MemoryStream stream(line, size);
    failures += reader.Parse<rapidjson::kParseDefaultFlags>(stream, handler).IsError();
  });
  return failures;
}

// OpenSSL's SHA-256 of the whole buffer; false when OpenSSL fails.
bool Sha256(unsigned char (&digest)[EVP_MAX_MD_SIZE]) {
  unsigned int size = 0;
  return EVP_Digest(g_bytes.data(), g_bytes.size(), digest, &size, EVP_sha256(), nullptr) == 1;
}

void BM_SaxAndSha256(benchmark::State& state) {
  rapidjson::Reader reader;  // reused: its parse stack is allocated once
  for (auto _ : state) {
    const std::uint64_t failures = SaxFailures(reader);
    unsigned char digest[EVP_MAX_MD_SIZE];
    if (failures) state.SkipWithError("RapidJSON rejected a line");
    if (!Sha256(digest)) state.SkipWithError("OpenSSL's SHA-256 failed");
    benchmark::DoNotOptimize(failures);
    benchmark::DoNotOptimize(digest);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

void BM_SaxOnly(benchmark::State& state) {
  rapidjson::Reader reader;
  for (auto _ : state) {
    const std::uint64_t failures = SaxFailures(reader);
    if (failures) state.SkipWithError("RapidJSON rejected a line");
    benchmark::DoNotOptimize(failures);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

void BM_Sha256Only(benchmark::State& state) {
  for (auto _ : state) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    if (!Sha256(digest)) state.SkipWithError("OpenSSL's SHA-256 failed");
    benchmark::DoNotOptimize(digest);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

// Each line's SHA-256, apart (OpenSSL) or side by side (Sha256Batch).
std::vector<arcs::Sha256Digest> LineDigests(bool side_by_side) {
  std::vector<arcs::Sha256Digest> digests(g_lines);
  arcs::Sha256Batch batch;
  std::size_t k = 0;
  ForEachLine(g_bytes, [&](const char* line, std::size_t size) {
    if (side_by_side) {
      batch.Add({line, size}, &digests[k++]);
    } else {
      digests[k++] = arcs::Sha256::Of({line, size});
    }
  });
  batch.Flush();
  return digests;
}

void BM_Sha256PerLine(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(LineDigests(state.range(0) != 0));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

// Verify's verdict on the buffer: "intact" or why not.
std::string Verdict() {
  arcs::jsonl::MemorySource source(g_bytes);
  arcs::Result<arcs::lightbox::ChainVerdict> verdict =
      arcs::lightbox::Verify(&source, arcs::lightbox::Limits());
  if (!verdict.ok()) return verdict.status().message();
  return verdict->intact() ? "intact" : verdict->reason;
}

void BM_LightboxVerify(benchmark::State& state) {
  const arcs::lightbox::Limits limits;
  for (auto _ : state) {
    arcs::jsonl::MemorySource source(g_bytes);
    arcs::Result<arcs::lightbox::ChainVerdict> verdict = arcs::lightbox::Verify(&source, limits);
    if (!verdict.ok() || !verdict->intact()) state.SkipWithError("the chain is not intact");
    benchmark::DoNotOptimize(verdict);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

// Verify with 2 threads (issue #29: on both cores of the target machine). Timed by the wall
// clock (UseRealTime): CPU time would count both threads' work.
void BM_LightboxVerifyThreads(benchmark::State& state) {
  const arcs::lightbox::Limits limits;
  const auto threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    arcs::jsonl::MemorySource source(g_bytes);
    arcs::Result<arcs::lightbox::ChainVerdict> verdict =
        arcs::lightbox::Verify(&source, limits, threads);
    if (!verdict.ok() || !verdict->intact()) state.SkipWithError("the chain is not intact");
    benchmark::DoNotOptimize(verdict);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

// The validator's errors on the buffer as a session's events.jsonl (a finding that rests only on
// an errata reading counts as a warning, as `arcs validate` counts it).
std::uint64_t ValidatorErrors() {
  arcs::jsonl::MemorySource source(g_bytes);
  arcs::Diagnostics diagnostics;
  diagnostics.ReadingsAsWarnings();  // as `arcs validate` counts them
  arcs::conformance::lightbox::Validate(&source, nullptr, arcs::lightbox::Limits(), &diagnostics);
  return diagnostics.error_count();
}

void BM_LightboxValidate(benchmark::State& state) {
  for (auto _ : state) {
    if (ValidatorErrors() != 0) state.SkipWithError("the validator found an error");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_bytes.size()));
}

std::string g_padded_bytes;  // g_bytes followed by simdjson's padding

constexpr char kBaseline[] = "Baseline/SaxAndSha256";

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
    const double verify = median("LightboxVerify");
    std::printf("\nfile: %zu bytes, %llu lines (medians over %zu repetition(s))\n", g_bytes.size(),
                static_cast<unsigned long long>(g_lines), rates_["LightboxVerify"].size());
    std::printf("%s\n", arcs::json::testing::CodePaths().c_str());
    for (const char* base : {kBaseline, "Baseline/SaxOnly", "Baseline/Sha256Only"}) {
      const double b = median(base);
      if (b <= 0 || verify <= 0) continue;
      const bool primary = std::string_view(base) == kBaseline;
      std::printf("ratio LightboxVerify / %-21s = %.3f  (%.1f MB/s / %.1f MB/s; MB = 10^6 B)  %s\n",
                  base, verify / b, verify / 1e6, b / 1e6,
                  primary ? (verify / b >= 0.5 ? "meets >= 0.5 (the requirement)"
                                               : "BELOW 0.5 (the requirement)")
                          : "(for information)");
    }
    const double apart = median("Sha256PerLine/OneByOne");
    const double together = median("Sha256PerLine/SideBySide");
    if (apart > 0 && together > 0) {
      std::printf("ratio Sha256PerLine/SideBySide / OneByOne = %.3f  (%.1f MB/s / %.1f MB/s)\n",
                  together / apart, together / 1e6, apart / 1e6);
    }
    // Issue #29's targets for validation, on one core.
    const double validate = median("LightboxValidate");
    for (const auto& [base, target] : {std::pair{"Baseline/SaxOnly", 1.5},
                                       {arcs::json::testing::kCeilingBenchmark, 0.5},
                                       {arcs::json::testing::kDomBenchmark, 0.0}}) {
      const double b = median(base);
      if (b <= 0 || validate <= 0) continue;
      std::printf("ratio LightboxValidate / %-28s = %.3f  (%.1f MB/s / %.1f MB/s)", base,
                  validate / b, validate / 1e6, b / 1e6);
      if (target > 0)
        std::printf("  %s %.1f (#29)", validate / b >= target ? "meets >=" : "BELOW", target);
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
  if (!in) std::cerr << "arcs_lightbox_benchmark: cannot read " << path << "\n";
  return static_cast<bool>(in);
}

constexpr char kUsage[] =
    "usage: arcs_lightbox_benchmark --file=PATH.jsonl [--benchmark_* flags]\n"
    "       (or set ARCS_LIGHTBOX_BENCH_FILE); make files with arcs_generate_lightbox\n";

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  if (const char* env = std::getenv("ARCS_LIGHTBOX_BENCH_FILE")) path = env;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
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
    std::cerr << kUsage;
    return 2;
  }
  if (!ReadFile(path, &g_bytes)) return 2;

  // Both sides must take their normal, successful path over every line.
  rapidjson::Reader reader;
  const std::uint64_t failures = SaxFailures(reader);
  ForEachLine(g_bytes, [](const char*, std::size_t) { ++g_lines; });
  const std::string verdict = Verdict();
  const std::uint64_t errors = ValidatorErrors();
  const bool same_digests = LineDigests(true) == LineDigests(false);
  if (failures || verdict != "intact" || errors || !same_digests) {
    std::cerr << "arcs_lightbox_benchmark: " << path << ": " << failures
              << " line(s) RapidJSON rejects; Verify: " << verdict << "; " << errors
              << " error(s) from the validator"
              << (same_digests ? "" : "; the lines' digests differ side by side")
              << "; benchmark a valid session with an intact chain (arcs_generate_lightbox)\n";
    return 1;
  }
  g_padded_bytes = arcs::json::testing::SimdjsonOnDemandCount::Padded(g_bytes);

  // Each benchmark goes over the whole file once per iteration. Rates are per CPU second (Google
  // Benchmark's default): everything runs on one thread, so on an idle machine this is wall time,
  // and on a shared one it does not count the time other processes held the CPU.
  benchmark::RegisterBenchmark(kBaseline, BM_SaxAndSha256)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("Baseline/SaxOnly", BM_SaxOnly)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("Baseline/Sha256Only", BM_Sha256Only)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("Sha256PerLine/OneByOne", BM_Sha256PerLine)
      ->Arg(0)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("Sha256PerLine/SideBySide", BM_Sha256PerLine)
      ->Arg(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("LightboxVerify", BM_LightboxVerify)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("LightboxVerify/threads", BM_LightboxVerifyThreads)
      ->Arg(2)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("LightboxValidate", BM_LightboxValidate)
      ->Unit(benchmark::kMillisecond);
  arcs::json::testing::RegisterLineCeilings(&g_padded_bytes, g_bytes.size());

  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
