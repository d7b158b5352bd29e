// What the benchmarks measure ARCS's readers against, beside RapidJSON's SAX reader (each runs
// that itself, in its own form): simdjson's On Demand API counting every value, the tokenizer
// ceiling a strict reader that builds a document cannot beat; and the line splitting they share.
// For reference/<format>/benchmark/.
#ifndef ARCS_REFERENCE_CORE_TESTING_JSON_BASELINES_H_
#define ARCS_REFERENCE_CORE_TESTING_JSON_BASELINES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace arcs::json::testing {

// Calls f(line, size) for each '\n'-terminated line of bytes (and a final unterminated one).
template <typename F>
void ForEachLine(std::string_view bytes, F&& f) {
  const char* p = bytes.data();
  const char* const end = p + bytes.size();
  while (p < end) {
    const char* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    const char* const stop = nl ? nl : end;
    f(p, static_cast<std::size_t>(stop - p));
    p = stop + 1;
  }
}

// simdjson On Demand over texts inside one buffer that has simdjson's padding after its end (see
// Padded): counts every value, containers included, reading each scalar's type only. Returns the
// count, or -1 when simdjson refuses the text.
class SimdjsonOnDemandCount {
 public:
  SimdjsonOnDemandCount();
  ~SimdjsonOnDemandCount();
  // text[0, size) lies inside `buffer`, which Padded() made.
  std::int64_t Count(const std::string& buffer, const char* text, std::size_t size);
  // Every value of every non-empty '\n'-separated line of padded[0, size) (Padded made it), or -1
  // when simdjson refuses a line: the ceiling for a JSON Lines format.
  std::int64_t CountLines(const std::string& padded, std::size_t size);
  // `bytes` followed by the padding simdjson reads past a text's end.
  static std::string Padded(std::string_view bytes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// simdjson's own DOM parser over the same padded texts: stage 1, then a tape of every value with
// its strings decoded. Not a ceiling (the targets are set against On Demand), but the fastest a
// reader that builds a document with decoded strings is known to go: the figure beside it.
class SimdjsonDomParse {
 public:
  SimdjsonDomParse();
  ~SimdjsonDomParse();
  // Every non-empty '\n'-separated line of padded[0, size) (Padded made it), or the whole of it as
  // one document when !lines; false when simdjson refuses one.
  bool Parse(const std::string& padded, std::size_t size, bool lines);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// RapidJSON's SAX reader (kParseDefaultFlags) with a handler that does nothing, over every value
// in bytes, one after another (one document, or one a line): the baseline. False when it refuses
// one.
bool RapidJsonSaxNull(std::string_view bytes);

// The ceiling's runs, each right after a baseline run of its own (for PairedSpeedRatio): `runs`
// times, RapidJsonSaxNull(bytes), then simdjson On Demand counting the values of bytes (as one
// document, or one a line when `lines`), on a padded copy made first; then simdjson's DOM parser
// over the same. False when one refuses.
struct CeilingTimes {
  std::vector<double> baseline_seconds, ceiling_seconds, dom_seconds;
};
bool TimeCeiling(std::string_view bytes, bool lines, std::uint64_t runs, CeilingTimes* times);
// Registers with Google Benchmark, over the lines of a file in memory, `padded` (Padded(file)) of
// which the first `size` bytes are the file, and each reporting the file's bytes_per_second:
//   kCeilingBenchmark   simdjson On Demand counting every value (CountLines): the ceiling;
//   kDomBenchmark       simdjson's DOM parser (SimdjsonDomParse), for information.
// `padded` must outlive the runs.
inline constexpr char kCeilingBenchmark[] = "SimdjsonOnDemand/CountValues";
inline constexpr char kDomBenchmark[] = "SimdjsonDom/Parse";
void RegisterLineCeilings(const std::string* padded, std::size_t size);

// A summary's line for the DOM parser's runs: its rate over `megabytes`, and the candidate's speed
// against it (the candidate's paired ratio to the baseline over the DOM parser's), for information.
std::string DomFigure(double megabytes, const CeilingTimes& times, double candidate_over_baseline);

// One line naming the code paths behind a benchmark's figures, for its summary: which JSON front
// end ARCS runs, the simdjson kernel of its stage 1, whether ARCS's AVX-512BW paths run, and the
// kernel of the On Demand ceiling (compiled for this machine). Figures from machines that differ
// there are not comparable.
std::string CodePaths();

// The median of `values` (of the middle two, their mean); 0 for none.
double Median(std::vector<double> values);

// A candidate's throughput as a multiple of the baseline's over the same bytes, from runs timed in
// turn (baseline then candidate, --runs times): the median over runs i of
// baseline_seconds[i] / candidate_seconds[i]. A shared machine's speed drifts from minute to
// minute (up to 1.6x on the 2-core VMs here), and each pair, timed within a second, drifts alike;
// a ratio of the two medians does not cancel it (SessionData's validate / SAX over six runs of
// the benchmark: 0.88-0.96 paired, 0.88-1.11 from the medians). Only the pairs both hold count.
double PairedSpeedRatio(const std::vector<double>& baseline_seconds,
                        const std::vector<double>& candidate_seconds);

}  // namespace arcs::json::testing

#endif  // ARCS_REFERENCE_CORE_TESTING_JSON_BASELINES_H_
