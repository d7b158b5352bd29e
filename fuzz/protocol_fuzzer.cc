// Fuzz target: the runner protocol (protocol/protocol.h), which reads whatever an
// implementation under test prints. Every decoder must return a value or a Status for any line,
// and what a decoder accepts must survive encode -> decode unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "protocol/protocol.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

using arcs::libfuzzer::Check;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // long lines only cost time: the decoders are linear
  std::string_view line(reinterpret_cast<const char*>(data), size);
  using namespace arcs::protocol;

  (void)MessageType(line);
  if (arcs::Result<Answer> a = DecodeAnswer(line); a.ok()) {
    arcs::Result<Answer> again = DecodeAnswer(EncodeAnswer(*a));
    Check(again.ok(), "an encoded answer does not decode");
    Check(again->id == a->id && again->status == a->status && again->reason == a->reason &&
              again->outputs == a->outputs && again->findings.size() == a->findings.size(),
          "an answer changed through encode -> decode");
    if (a->status == AnswerStatus::kOk) Check(again->verdict == a->verdict, "verdict changed");
  }
  if (arcs::Result<ImplementationHello> h = DecodeImplementationHello(line); h.ok()) {
    arcs::Result<ImplementationHello> again =
        DecodeImplementationHello(EncodeImplementationHello(*h));
    Check(again.ok(), "an encoded hello does not decode");
    Check(again->implementation.name == h->implementation.name &&
              again->formats.size() == h->formats.size(),
          "a hello changed through encode -> decode");
  }
  if (arcs::Result<CaseRequest> c = DecodeCase(line); c.ok()) {
    arcs::Result<CaseRequest> again = DecodeCase(EncodeCase(*c));
    Check(again.ok(), "an encoded case does not decode");
    Check(again->id == c->id && *again->inputs == *c->inputs && again->args == c->args,
          "a case changed through encode -> decode");
  }
  (void)DecodeRunnerHello(line);
  return 0;
}
