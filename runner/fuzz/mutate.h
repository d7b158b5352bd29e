// The mutation engine of `arcs fuzz`: from a seed (a test vector's input), one mutant at a time,
// deterministic for a given random seed on every platform, so that a disagreement found by a
// fuzzing run can be found again from its seed number alone. Pure: no I/O, no global state.
//
// Mutations come in three groups of families, chosen by what the input looks like (SniffShape):
// byte-level ones (libFuzzer's), line-aware ones for JSON Lines, and JSON-aware ones that edit one
// JSON value (a whole document, or one line) in place, keeping every other byte as it was (number
// spellings, escapes, whitespace): the mutants stay close to valid files, where readers differ.
#ifndef ARCS_RUNNER_FUZZ_MUTATE_H_
#define ARCS_RUNNER_FUZZ_MUTATE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/xoshiro.h"

namespace arcs::fuzz {

// A deterministic random source: reference/core/xoshiro.h, with unbiased bounded
// draws (Lemire's method), so the same seed gives the same sequence everywhere (std::
// distributions differ between standard libraries).
class Random {
 public:
  explicit Random(std::uint64_t seed);

  std::uint64_t Next();
  // Uniform in [0, n); 0 when n is 0.
  std::uint64_t Below(std::uint64_t n);
  // True with probability 1/n (always when n <= 1).
  bool OneIn(std::uint64_t n);

 private:
  Xoshiro256 generator_;
};

// What the mutator saw the input to be, deciding which mutations apply.
enum class Shape : std::uint8_t { kJsonLines, kJsonDocument, kBytes };

// kJsonLines: every line that is not blank (JSON whitespace only) is one JSON value, and there are
// two such lines or one ending in '\n'. kJsonDocument: the whole input is one JSON value (say,
// pretty-printed). kBytes: anything else, the empty input included. "A JSON value" is what the
// reference reads strictly (reference/core/json.h: UTF-8, no lone surrogate), nested at most
// kMaxDepth deep.
Shape SniffShape(std::string_view input);

// The deepest nesting the shape sniffer accepts and the JSON-aware mutations look into.
inline constexpr std::uint32_t kMaxDepth = 256;

struct Mutation {
  std::string bytes;  // the mutant
  std::string what;   // the family that made it, one of MutationNames(): "json:duplicate-name"

  bool operator==(const Mutation&) const = default;
};

// One mutation of `input`. Families are chosen among those that fit its shape, byte-level ones
// always included: JSON-aware ones on the document or on one line, line-aware ones on JSON Lines.
// A kBytes input gets these too, less often: the line-aware ones if it has a line break, the
// JSON-aware ones on one of its lines wherever the tolerant scan (json_scan.h) finds values, as
// most vectors that expect a rejection are JSON with one flaw and worth mutating as such. `other`
// (may be empty) is another seed for splicing. The mutant is at most max_bytes long: families that
// would grow past it are not chosen, and an input already longer is truncated ("byte:truncate").
// Linear in the input's size.
Mutation Mutate(std::string_view input, std::string_view other, std::size_t max_bytes,
                Random& random);

// The same for an input whose shape is known (SniffShape(input), which parses it): a fuzzing loop
// that mutates the same seeds over and over sniffs each once, and that is most of the cost of
// mutating a large seed. Given another shape than the input's, the mutations are still bounded and
// deterministic, only chosen less well.
Mutation Mutate(std::string_view input, Shape shape, std::string_view other, std::size_t max_bytes,
                Random& random);

// Every `what` Mutate can report, byte-level, then line-aware, then JSON-aware.
std::vector<std::string_view> MutationNames();

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_MUTATE_H_
