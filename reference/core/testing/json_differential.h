// The two JSON front ends (json.h FrontEnd) side by side: the oracle of json_differential_test.cc
// and of fuzz/json_differential_fuzzer.cc.
#ifndef ARCS_REFERENCE_CORE_TESTING_JSON_DIFFERENTIAL_H_
#define ARCS_REFERENCE_CORE_TESTING_JSON_DIFFERENTIAL_H_

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace arcs::json::testing {

// Parses `text` with each front end, through Parse, ParseTaking, ParseBorrowing and ParseInBuffer,
// under each of a few option sets (strict, read as Go, a low depth bound, a low value bound), and
// returns the first difference: in the verdict, the error (code, offset, message), the duplicate
// names (pointer, offset), the Go repair flag, or the document (kinds, member order and names,
// string bytes, number text, escape-free marks). "" when there is none. Switches the process-wide
// front end while it runs and restores it: not for use beside other threads that parse. The SIMD
// front end's stage 1 indexes the text in pieces of each size of `piece_sizes` in turn (by default
// the parser's own, and pieces of a few bytes).
std::string FrontEndDifference(std::string_view text);
std::string FrontEndDifference(std::string_view text, std::span<const std::size_t> piece_sizes);

}  // namespace arcs::json::testing

#endif  // ARCS_REFERENCE_CORE_TESTING_JSON_DIFFERENTIAL_H_
