// How fast `arcs run` scores an implementation, and what bounds it (issue #3: at least 5,000 cases
// per second per worker against the reference). Three measurements over the same cases:
//   InProcess          the runner's and the reference's work with no process in between: encode
//                      the request, decode it, answer it (the reference), encode and decode the
//                      answer, judge it. The ceiling for any run over pipes.
//   ReferenceOnly      the reference's own share: answering the decoded requests.
//   ArcsRun/jobs:N/pin:P  the real thing: runner::RunImplementation against `arcs serve` through
//                      the supervisor, N workers, each with its own process (wall time), each
//                      worker and its process held to one CPU (pin:1, the default) or not (pin:0).
// The suite is every vector of every format, once per operation, repeated --repeat times (each
// copy with its own request ids) so that process start-up is amortized as in a large suite.
// --max-input-bytes=N leaves out the cases whose input is larger: three vectors (a 1 MiB line,
// 600 KiB of base64, 100,000-deep nesting) carry 95% of the suite's bytes, and with them out the
// figures show the per-case cost rather than the per-byte cost.
#include <benchmark/benchmark.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "runner/judge.h"
#include "protocol/protocol.h"
#include "runner/run.h"
#include "runner/serve_command.h"
#include "runner/suite.h"

namespace {

arcs::runner::Suite g_suite;
std::string g_arcs = ARCS_BINARY;

void CheckPassed(benchmark::State& state, bool passed) {
  if (!passed) state.SkipWithError("a case did not pass: the benchmark measures the wrong path");
}

void BM_InProcess(benchmark::State& state) {
  const arcs::protocol::FormatSupport declared = arcs::runner::ReferenceHello().formats["spool"];
  for (auto _ : state) {
    bool passed = true;
    for (const arcs::runner::SuiteCase& c : g_suite.cases) {
      std::string line = arcs::protocol::EncodeCase(c.Request());
      arcs::Result<arcs::protocol::CaseRequest> request = arcs::protocol::DecodeCase(line);
      std::string answer_line =
          arcs::protocol::EncodeAnswer(arcs::runner::ReferenceAnswer(*request));
      arcs::Result<arcs::protocol::Answer> answer = arcs::protocol::DecodeAnswer(answer_line);
      passed = passed && answer.ok() &&
               arcs::runner::Judge(c, *answer, declared).outcome == arcs::report::Outcome::kPassed;
    }
    CheckPassed(state, passed);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g_suite.cases.size()));
}

void BM_ReferenceOnly(benchmark::State& state) {
  std::vector<arcs::protocol::CaseRequest> requests;
  for (const arcs::runner::SuiteCase& c : g_suite.cases) {
    requests.push_back(c.Request());
  }
  for (auto _ : state) {
    for (const arcs::protocol::CaseRequest& r : requests) {
      benchmark::DoNotOptimize(arcs::runner::ReferenceAnswer(r));
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * requests.size()));
}

void BM_ArcsRun(benchmark::State& state) {
  arcs::runner::RunOptions options;
  options.jobs = static_cast<int>(state.range(0));
  options.pin_workers = state.range(1) != 0;
  const std::string command = arcs::runner::ReferenceCommand(g_arcs);
  for (auto _ : state) {
    arcs::runner::ImplementationRun run = arcs::runner::RunImplementation(
        command, true, g_suite, options, arcs::runner::KnownFailures{}, nullptr);
    CheckPassed(state, run.report.summary.passed == g_suite.cases.size());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * g_suite.cases.size()));
  state.counters["per_worker"] = benchmark::Counter(
      static_cast<double>(state.iterations() * g_suite.cases.size()) / options.jobs,
      benchmark::Counter::kIsRate);
}

BENCHMARK(BM_InProcess)->Name("InProcess")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReferenceOnly)->Name("ReferenceOnly")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ArcsRun)
    ->Name("ArcsRun")
    ->ArgNames({"jobs", "pin"})
    ->ArgsProduct({{1, 2}, {1, 0}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  int repeat = 10;
  std::size_t max_input_bytes = SIZE_MAX;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    if (a.starts_with("--repeat=")) {
      repeat = std::max(1, std::atoi(a.c_str() + 9));
    } else if (a.starts_with("--max-input-bytes=")) {
      max_input_bytes = std::strtoull(a.c_str() + 18, nullptr, 10);
    } else if (a.starts_with("--arcs=")) {
      g_arcs = a.substr(7);
    } else {
      args.push_back(argv[i]);
    }
  }
  int benchmark_argc = static_cast<int>(args.size());
  benchmark::Initialize(&benchmark_argc, args.data());
  if (benchmark::ReportUnrecognizedArguments(benchmark_argc, args.data())) return 2;

  // The vectors only: resource probes measure an implementation's limits, not the runner.
  arcs::runner::SuiteFilter vectors;
  vectors.resource_probes = false;
  arcs::Result<arcs::runner::Suite> suite =
      arcs::runner::LoadSuite(arcs::runner::DefaultSuiteRoot(), vectors);
  if (!suite.ok()) {
    std::cerr << "arcs_runner_benchmark: " << suite.status().message() << "\n";
    return 2;
  }
  g_suite.manifests = std::move(suite->manifests);
  for (int copy = 0; copy < repeat; ++copy) {
    for (arcs::runner::SuiteCase c : suite->cases) {
      if (c.InputBytes() > max_input_bytes) continue;
      c.request_id += "#" + std::to_string(copy);
      g_suite.cases.push_back(std::move(c));
    }
  }
  std::size_t bytes = 0;
  for (const arcs::runner::SuiteCase& c : g_suite.cases) bytes += c.InputBytes();
  std::printf("suite: %zu cases, %.1f MB of input (%zu vectors x operations, %d copies)\n",
              g_suite.cases.size(), bytes / 1e6, suite->cases.size(), repeat);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
