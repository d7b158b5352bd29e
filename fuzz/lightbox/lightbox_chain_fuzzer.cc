// Fuzz target: the Lightbox hash chain (reference/lightbox/lightbox.h), structure-aware. The
// custom mutator edits the bytes (libFuzzer's own mutations), then half the time re-chains them
// (WriteChain over the events with their links dropped), so that inputs get past the hash check
// to everything behind it. The target: Verify and HashEach agree on the number of events, a
// break names an event that exists, and what WriteChain writes verifies intact, holds as many
// events, and writes back to the very same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "reference/core/jsonl.h"
#include "reference/lightbox/lightbox.h"

// libFuzzer's mutator; absent from the replay build, which never calls the custom mutator.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size)
    __attribute__((weak));

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

void Check(bool ok, const char* what, const std::string& detail = "") {
  if (!ok) {
    std::fprintf(stderr, "lightbox_chain_fuzzer: %s %s\n", what, detail.c_str());
    __builtin_trap();
  }
}

arcs::lightbox::Limits SmallLimits() {
  arcs::lightbox::Limits limits;
  limits.max_line_bytes = 16 * 1024;
  limits.max_json_depth = 32;
  return limits;
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  if (seed % 2 == 0) return size;
  std::string chained;
  arcs::jsonl::MemorySource source(std::string_view(reinterpret_cast<char*>(data), size));
  if (!arcs::lightbox::WriteChain(&source, SmallLimits(), &chained).ok() ||
      chained.size() > max_size) {
    return size;
  }
  std::memcpy(data, chained.data(), chained.size());
  return chained.size();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // verification is linear: size costs only time
  using namespace arcs;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  jsonl::MemorySource source(input);
  Result<lightbox::ChainVerdict> verdict = lightbox::Verify(&source, SmallLimits());
  if (!verdict.ok()) return 0;
  Check(verdict->intact() || verdict->first_broken < verdict->events,
        "the first broken event is not an event of the file");
  std::uint64_t hashed = 0;
  jsonl::MemorySource again(input);
  Check(lightbox::HashEach(&again, SmallLimits(),
                           [&](std::uint64_t, const Result<std::string>&) { ++hashed; })
            .ok(),
        "HashEach fails where Verify did not");
  Check(hashed == verdict->events, "HashEach and Verify count other events");

  std::string written;
  jsonl::MemorySource events(input);
  if (!lightbox::WriteChain(&events, SmallLimits(), &written).ok()) return 0;
  jsonl::MemorySource chain(written);
  Result<lightbox::ChainVerdict> rewritten = lightbox::Verify(&chain, SmallLimits());
  Check(rewritten.ok() && rewritten->intact(), "a written chain does not verify:",
        rewritten.ok() ? rewritten->reason : rewritten.status().message());
  Check(rewritten->events == verdict->events, "writing changed the number of events");
  std::string twice;
  jsonl::MemorySource written_source(written);
  Check(lightbox::WriteChain(&written_source, SmallLimits(), &twice).ok() && twice == written,
        "a written chain does not write back to the same bytes");
  return 0;
}
