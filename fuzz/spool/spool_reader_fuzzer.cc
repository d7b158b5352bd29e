// Fuzz target: the Spool reference reader (reference/spool/spool.h), with both policies for
// invalid lines. Whatever the bytes, Read() must return (no crash, no sanitizer report), and a
// file it accepts must hold what spool.h promises: at least one entry, every entry an object, the
// first a session entry, line numbers strictly increasing.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"
#include "reference/spool/spool.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "spool_reader_fuzzer: %s\n", what);
  __builtin_trap();
}

void ReadWith(std::string_view input, arcs::spool::InvalidLinePolicy policy) {
  arcs::spool::ReadOptions options;
  options.invalid_line = policy;
  arcs::jsonl::MemorySource source(input);
  arcs::Diagnostics notes;
  arcs::Result<arcs::spool::File> file = arcs::spool::Read(&source, options, &notes);
  if (!file.ok()) {
    if (file.status().message().empty()) Fail("a rejection without a reason");
    return;
  }
  if (file->entries.empty()) Fail("an accepted file without entries");
  if (file->entries.front().type() != "session")
    Fail("an accepted file not starting with a session");
  std::uint64_t last_line = 0;
  for (const arcs::spool::Entry& entry : file->entries) {
    if (!entry.value().is_object()) Fail("an entry that is not an object");
    if (entry.line <= last_line) Fail("entry line numbers not increasing");
    last_line = entry.line;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return 0;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  ReadWith(input, arcs::spool::InvalidLinePolicy::kReject);
  ReadWith(input, arcs::spool::InvalidLinePolicy::kSkip);
  return 0;
}
