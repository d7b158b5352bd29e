// Fuzz target: Spool round trip (reference/spool/spool.h, §7 and §11.2-§11.3: a reader keeps
// every entry exactly). read -> write -> read -> write, with both policies for invalid lines:
// what Write() produces from an accepted file must be accepted again, hold entries Equal() to the
// first read's, and write back to the very same bytes. Rewrite, the same an entry at a time, must
// give the first write's bytes, or the first read's Status.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "reference/core/json.h"
#include "reference/core/jsonl.h"
#include "reference/spool/spool.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

[[noreturn]] void Fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "spool_roundtrip_fuzzer: %s %s\n", what, detail.c_str());
  __builtin_trap();
}

void RoundTrip(std::string_view input, arcs::spool::InvalidLinePolicy policy) {
  arcs::spool::ReadOptions options;
  options.invalid_line = policy;

  arcs::jsonl::MemorySource source(input);
  arcs::Result<arcs::spool::File> first = arcs::spool::Read(&source, options);
  arcs::jsonl::MemorySource streamed(input);
  arcs::Result<std::string> rewritten_whole = arcs::spool::Rewrite(&streamed, options);
  if (first.ok() != rewritten_whole.ok()) Fail("Rewrite and Read disagree on accepting");
  if (!first.ok()) {
    if (rewritten_whole.status().ToString() != first.status().ToString()) {
      Fail("Rewrite's Status differs:", rewritten_whole.status().ToString());
    }
    return;
  }
  std::string written;
  arcs::spool::Write(*first, &written);
  if (*rewritten_whole != written) Fail("Rewrite's bytes differ from Write's");

  arcs::jsonl::MemorySource again(written);
  arcs::Result<arcs::spool::File> second = arcs::spool::Read(&again, options);
  if (!second.ok()) Fail("the written file is rejected:", second.status().ToString());
  if (second->entries.size() != first->entries.size()) Fail("entry count changed");
  for (std::size_t i = 0; i < first->entries.size(); ++i) {
    if (!arcs::json::Equal(first->entries[i].value(), second->entries[i].value())) {
      Fail("an entry changed, index", std::to_string(i));
    }
  }
  std::string rewritten;
  arcs::spool::Write(*second, &rewritten);
  if (rewritten != written) Fail("the second write differs from the first");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  RoundTrip(input, arcs::spool::InvalidLinePolicy::kReject);
  RoundTrip(input, arcs::spool::InvalidLinePolicy::kSkip);
  return 0;
}
