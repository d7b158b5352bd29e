// Fuzz target: the two JSON front ends (reference/core/json.h FrontEnd) decide every text alike:
// the same verdict, error (code, offset, message), duplicate names and document, through Parse,
// ParseTaking, ParseBorrowing and ParseInBuffer, strict, read as Go, and under low depth and value
// bounds (reference/core/testing/json_differential.h). The input is tried whole and, when it has
// several lines, line by line, as the JSONL formats read it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "reference/core/testing/json_differential.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

void Check(std::string_view text, std::string_view input) {
  const std::string difference = arcs::json::testing::FrontEndDifference(text);
  if (difference.empty()) return;
  std::fprintf(stderr, "json_differential_fuzzer: %s\ninput (%zu bytes): %.*s\n",
               difference.c_str(), input.size(),
               static_cast<int>(input.size() < 512 ? input.size() : 512), input.data());
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Check(input, input);
  if (input.find('\n') == std::string_view::npos) return 0;
  for (std::size_t start = 0; start < input.size();) {
    std::size_t end = input.find('\n', start);
    if (end == std::string_view::npos) end = input.size();
    Check(input.substr(start, end - start), input);
    start = end + 1;
  }
  return 0;
}
