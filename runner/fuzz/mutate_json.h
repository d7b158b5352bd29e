// The JSON-aware mutation families: each edits one value or member of a JSON text (a whole
// document, or one line of a JSON Lines file) in place, found by a tolerant scan (json_scan.h)
// and drawn uniformly among its kind, and keeps every other byte: the mutants are the near-misses
// where readers disagree.
#ifndef ARCS_RUNNER_FUZZ_MUTATE_JSON_H_
#define ARCS_RUNNER_FUZZ_MUTATE_JSON_H_

#include <span>

#include "runner/fuzz/mutate_family.h"

namespace arcs::fuzz {

// Each scans Target::bytes once or twice, and does not apply when the scan finds nothing of what
// it edits:
// json:change-type (a value replaced by one of another type; a number by itself quoted, a numeric
// string by its content unquoted), json:drop-member (with one of its commas),
// json:repeat-member (the same member twice), json:duplicate-name (the name again with another
// value), json:deepen (a value wrapped in arrays or {"x": ...} objects up to a depth readers
// bound: 128, 256, 1000...), json:edge-number (a number replaced by an edge form, valid or not),
// json:escape (into a string or name: NUL, U+2028, lone surrogates, a raw control byte, invalid
// or overlong UTF-8...), json:name-case (a member name's ASCII letters recased).
std::span<const Family> JsonFamilies();

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_MUTATE_JSON_H_
