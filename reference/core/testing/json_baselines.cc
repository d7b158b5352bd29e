#include "reference/core/testing/json_baselines.h"

#include <benchmark/benchmark.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::json::testing {

struct SimdjsonOnDemandCount::State {
  simdjson::ondemand::parser parser;
};

SimdjsonOnDemandCount::SimdjsonOnDemandCount() : state_(std::make_unique<State>()) {}
SimdjsonOnDemandCount::~SimdjsonOnDemandCount() = default;

std::string SimdjsonOnDemandCount::Padded(std::string_view bytes) {
  std::string padded(bytes);
  padded.append(simdjson::SIMDJSON_PADDING, ' ');
  return padded;
}

namespace {

// Every value under `value`, itself included; -1 on an error. Recursion is bounded by simdjson's
// own depth limit.
template <typename V>
std::int64_t CountValues(V&& value) {
  simdjson::ondemand::json_type type;
  if (value.type().get(type) != simdjson::SUCCESS) return -1;
  std::int64_t count = 1;
  if (type == simdjson::ondemand::json_type::object) {
    simdjson::ondemand::object object;
    if (value.get_object().get(object) != simdjson::SUCCESS) return -1;
    for (auto field : object) {
      simdjson::ondemand::value member;
      if (field.value().get(member) != simdjson::SUCCESS) return -1;
      const std::int64_t n = CountValues(member);
      if (n < 0) return -1;
      count += n;
    }
  } else if (type == simdjson::ondemand::json_type::array) {
    simdjson::ondemand::array array;
    if (value.get_array().get(array) != simdjson::SUCCESS) return -1;
    for (auto item : array) {
      simdjson::ondemand::value element;
      if (item.get(element) != simdjson::SUCCESS) return -1;
      const std::int64_t n = CountValues(element);
      if (n < 0) return -1;
      count += n;
    }
  }
  return count;
}

}  // namespace

std::int64_t SimdjsonOnDemandCount::Count(const std::string& buffer, const char* text,
                                          std::size_t size) {
  const std::size_t room = static_cast<std::size_t>(buffer.data() + buffer.size() - text);
  simdjson::ondemand::document document;
  if (state_->parser.iterate(simdjson::padded_string_view(text, size, room)).get(document) !=
      simdjson::SUCCESS) {
    return -1;
  }
  return CountValues(document);
}

std::int64_t SimdjsonOnDemandCount::CountLines(const std::string& padded, std::size_t size) {
  std::int64_t values = 0;
  bool refused = false;
  ForEachLine(std::string_view(padded.data(), size), [&](const char* line, std::size_t n) {
    if (n == 0) return;
    const std::int64_t count = Count(padded, line, n);
    refused |= count < 0;
    values += count;
  });
  return refused ? -1 : values;
}

struct SimdjsonDomParse::State {
  simdjson::dom::parser parser;
};

SimdjsonDomParse::SimdjsonDomParse() : state_(std::make_unique<State>()) {}
SimdjsonDomParse::~SimdjsonDomParse() = default;

bool SimdjsonDomParse::Parse(const std::string& padded, std::size_t size, bool lines) {
  // The padding is there (Padded), so the parser need not copy the text. The DOM parser refuses a
  // number beyond its range (an integer beyond 64 bits, 1e999), which JSON allows and ARCS keeps
  // exact: NUMBER_ERROR, and in a text the benchmark's baseline read, nothing else. Such a text
  // counts as read, as far as the parser went.
  const auto parse = [&](const char* text, std::size_t n) {
    simdjson::dom::element root;
    const simdjson::error_code error = state_->parser.parse(text, n, false).get(root);
    return error == simdjson::SUCCESS || error == simdjson::NUMBER_ERROR;
  };
  if (!lines) return parse(padded.data(), size);
  bool ok = true;
  ForEachLine(std::string_view(padded.data(), size), [&](const char* line, std::size_t n) {
    if (n != 0) ok &= parse(line, n);
  });
  return ok;
}

bool RapidJsonSaxNull(std::string_view bytes) {
  rapidjson::Reader reader;
  rapidjson::BaseReaderHandler<> handler;
  rapidjson::MemoryStream stream(bytes.data(), bytes.size());
  for (;;) {
    rapidjson::SkipWhitespace(stream);
    if (stream.Tell() == bytes.size()) return true;
    constexpr unsigned kFlags = rapidjson::kParseDefaultFlags | rapidjson::kParseStopWhenDoneFlag;
    if (reader.Parse<kFlags>(stream, handler).IsError()) return false;
  }
}

bool TimeCeiling(std::string_view bytes, bool lines, std::uint64_t runs, CeilingTimes* times) {
  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  const std::string padded = SimdjsonOnDemandCount::Padded(bytes);
  SimdjsonOnDemandCount counter;
  SimdjsonDomParse dom;
  for (std::uint64_t run = 0; run < runs; ++run) {
    auto start = Clock::now();
    if (!RapidJsonSaxNull(bytes)) return false;
    times->baseline_seconds.push_back(since(start));
    start = Clock::now();
    const std::int64_t values = lines ? counter.CountLines(padded, bytes.size())
                                      : counter.Count(padded, padded.data(), bytes.size());
    if (values < 0) return false;
    times->ceiling_seconds.push_back(since(start));
    start = Clock::now();
    if (!dom.Parse(padded, bytes.size(), lines)) return false;
    times->dom_seconds.push_back(since(start));
  }
  return true;
}

void RegisterLineCeilings(const std::string* padded, std::size_t size) {
  const auto bytes = static_cast<std::int64_t>(size);
  benchmark::RegisterBenchmark(kCeilingBenchmark, [=](benchmark::State& state) {
    SimdjsonOnDemandCount counter;
    for (auto _ : state) {
      const std::int64_t values = counter.CountLines(*padded, size);
      if (values < 0) state.SkipWithError("simdjson refused a line");
      benchmark::DoNotOptimize(values);
    }
    state.SetBytesProcessed(state.iterations() * bytes);
  })->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(kDomBenchmark, [=](benchmark::State& state) {
    SimdjsonDomParse parser;
    for (auto _ : state) {
      if (!parser.Parse(*padded, size, true)) {
        state.SkipWithError("simdjson refused a line");
      }
    }
    state.SetBytesProcessed(state.iterations() * bytes);
  })->Unit(benchmark::kMillisecond);
}

std::string DomFigure(double megabytes, const CeilingTimes& times, double candidate_over_baseline) {
  const double ratio =
      candidate_over_baseline / PairedSpeedRatio(times.baseline_seconds, times.dom_seconds);
  char line[256];
  std::snprintf(line, sizeof line,
                "simdjson DOM parse (strings decoded)   %8.1f MB/s  candidate / this %.3f (for "
                "information: a document built, as ARCS builds one)",
                megabytes / Median(times.dom_seconds), ratio);
  return line;
}

// The kernel this file's On Demand code was compiled for (-march=native): simdjson names it by
// a macro; the library's builtin_implementation() names the library's own, built for any x86-64.
#define ARCS_NAME_OF(kernel) ARCS_NAME_OF_TOKEN(kernel)
#define ARCS_NAME_OF_TOKEN(kernel) #kernel

std::string CodePaths() {
  const simdjson::implementation* stage1 = simdjson::get_active_implementation();
  const std::string front_end =
      CurrentFrontEnd() == FrontEnd::kSimd
          ? "simd (simdjson's " + stage1->name() + " stage 1: " + stage1->description() + ")"
          : std::string("rapidjson");
  const char* strings = UseAvx512Vbmi2() ? "AVX-512BW with VBMI2"
                        : UseAvx512Bw()  ? "AVX-512BW"
                        : UseAvx2()      ? "AVX2"
                                         : "portable";
  return "code paths: ARCS's JSON front end " + front_end + "; ARCS's string paths " + strings +
         "; the ceiling's On Demand " + ARCS_NAME_OF(SIMDJSON_BUILTIN_IMPLEMENTATION);
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

double PairedSpeedRatio(const std::vector<double>& baseline_seconds,
                        const std::vector<double>& candidate_seconds) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < std::min(baseline_seconds.size(), candidate_seconds.size()); ++i) {
    ratios.push_back(baseline_seconds[i] / candidate_seconds[i]);
  }
  return Median(std::move(ratios));
}

}  // namespace arcs::json::testing
