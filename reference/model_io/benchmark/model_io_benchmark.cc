// Model IO's validator against RapidJSON's SAX reader with a null handler and against the
// tokenizer ceiling, over the same bytes in the same process (issue #29):
//
//   arcs_model_io_benchmark --file PATH [--runs 5] [--no-targets]
//
// PATH is a valid model_io.json (arcs_generate_model_io writes one). Timed in turn, --runs times:
//   baseline  RapidJSON's SAX reader over the file (json_baselines.h RapidJsonSaxNull);
//   validate  conformance::model_io::Validate over a jsonl::MemorySource of it (bytes in memory,
//             parsed where they stand): the strict parse, MI1-MI11 and the field tables, the
//             content hashes. It must find no error. The targets' figure: the baseline, too,
//             reads the bytes in memory.
//   file      the same over a jsonl::FdSource of the file, as `arcs validate PATH` reads it: the
//             bytes are read into a copy first (from the page cache), which the parse decodes in
//             place. For information.
// Then the ceiling's runs: simdjson On Demand counting every value, each after a baseline run of
// its own, and simdjson's DOM parser for information (TimeCeiling). Ratios are the median of each
// run's against the baseline run beside it (PairedSpeedRatio). Targets (#29, one core): validate
// >= 1.5 x baseline, >= 0.5 x the ceiling. Exit 1 when one is missed (unless --no-targets, for the
// smoke test), 2 on usage or file errors.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/model_io/checker.h"
#include "reference/core/io.h"
#include "reference/core/testing/generated_text.h"
#include "reference/core/testing/json_baselines.h"

namespace {

using arcs::json::testing::Median;
using arcs::json::testing::PairedSpeedRatio;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Whether the validator finds no error in bytes (a finding that rests only on an errata reading
// counts as a warning, as `arcs validate` counts it).
bool Valid(arcs::jsonl::ByteSource* source) {
  arcs::Diagnostics diagnostics;
  diagnostics.ReadingsAsWarnings();  // as `arcs validate` counts them
  arcs::conformance::model_io::Validate(source, arcs::model_io::Limits(), &diagnostics);
  return !diagnostics.has_errors();
}

bool Valid(std::string_view bytes) {
  arcs::jsonl::MemorySource source(bytes);
  return Valid(&source);
}

bool ValidFromFile(const std::string& path) {
  const arcs::Result<int> fd = arcs::OpenToRead(path);
  if (!fd.ok()) return false;
  arcs::jsonl::FdSource source(*fd);
  const bool valid = Valid(&source);
  ::close(*fd);
  return valid;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  std::uint64_t runs = 5;
  bool targets = true;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--file" && has_value) {
      path = argv[++i];
    } else if (a == "--runs" && has_value && arcs::testing::ParseSize(argv[i + 1], &runs) && runs) {
      ++i;
    } else if (a == "--no-targets") {
      targets = false;
    } else {
      path.clear();
      break;
    }
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: arcs_model_io_benchmark --file PATH [--runs 5] [--no-targets]\n");
    return 2;
  }
  // Any size: a benchmark file is its maker's choice (the validator applies its own limit).
  const arcs::Result<std::string> file = arcs::ReadFile(path, std::size_t{1} << 40);
  if (!file.ok()) {
    std::fprintf(stderr, "arcs_model_io_benchmark: %s\n", file.status().message().c_str());
    return 2;
  }
  if (!arcs::json::testing::RapidJsonSaxNull(*file) || !Valid(*file)) {
    std::fprintf(stderr, "arcs_model_io_benchmark: %s is not a valid model_io.json\n",
                 path.c_str());
    return 2;
  }
  std::vector<double> sax, validate, from_file;  // sax[i] pairs with validate[i], from_file[i]
  for (std::uint64_t run = 0; run < runs; ++run) {
    auto start = Clock::now();
    if (!arcs::json::testing::RapidJsonSaxNull(*file)) return 2;
    sax.push_back(Seconds(start));
    start = Clock::now();
    if (!Valid(*file)) return 2;
    validate.push_back(Seconds(start));
    start = Clock::now();
    if (!ValidFromFile(path)) return 2;
    from_file.push_back(Seconds(start));
  }
  arcs::json::testing::CeilingTimes ceiling;
  if (!arcs::json::testing::TimeCeiling(*file, false, runs, &ceiling)) return 2;

  const double mb = static_cast<double>(file->size()) / 1e6;
  const double v_base = PairedSpeedRatio(sax, validate);
  const double v_top = v_base / PairedSpeedRatio(ceiling.baseline_seconds, ceiling.ceiling_seconds);
  std::printf(
      "Model IO validate, %zu bytes (%.1f MB), median of %llu runs each (MB = 10^6 B; ratios: the "
      "median of each run's against the baseline run beside it):\n",
      file->size(), mb, static_cast<unsigned long long>(runs));
  std::printf("  %s\n", arcs::json::testing::CodePaths().c_str());
  std::printf("  baseline: RapidJSON SAX, null handler  %8.1f MB/s\n", mb / Median(sax));
  std::printf("  conformance::model_io::Validate        %8.1f MB/s\n", mb / Median(validate));
  std::printf("  the same, read from the file           %8.1f MB/s  ratio %.3f (for information)\n",
              mb / Median(from_file), PairedSpeedRatio(sax, from_file));
  std::printf("  simdjson On Demand, counting values    %8.1f MB/s  (the tokenizer ceiling)\n",
              mb / Median(ceiling.ceiling_seconds));
  std::printf("  %s\n", arcs::json::testing::DomFigure(mb, ceiling, v_base).c_str());
  std::printf("  validate / baseline %.3f, target (#29) >= 1.5: %s\n", v_base,
              v_base >= 1.5 ? "PASS" : "FAIL");
  std::printf("  validate / simdjson On Demand %.3f, target (#29) >= 0.5: %s\n", v_top,
              v_top >= 0.5 ? "PASS" : "FAIL");
  return targets && (v_base < 1.5 || v_top < 0.5) ? 1 : 0;
}
