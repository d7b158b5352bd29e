// Fuzz target: TJ-SPEC-010 convert (reference/mcp_record_replay/convert.h) against the convert
// judge (conformance/mcp_record_replay/convert_judge.h), two independent readings of YAML. An
// input whose first byte is even is a recording: it loads or not, and a loaded one converts in both
// styles without a crash, each warning one line. Otherwise the rest is one JSON value V:
// recorded as the one result of a tool call, converted, and judged against the expectation that
// the tool's response is V, which must hold: whatever V holds (any string, number, depth), the
// YAML written reads back as the same data.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "conformance/mcp_record_replay/convert_judge.h"
#include "fuzz/fuzz_check.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/convert.h"
#include "reference/mcp_record_replay/loader.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

using arcs::libfuzzer::Check;
namespace mrr = arcs::mcp_record_replay;
namespace judge = arcs::conformance::mcp_record_replay;

arcs::Result<mrr::Converted> ConvertText(std::string_view recording, mrr::ConvertStyle style) {
  mrr::LoadOptions load;
  load.limits.max_json_depth = 64;
  arcs::jsonl::MemorySource source(recording);
  arcs::Result<mrr::LoadedRecording> loaded = mrr::LoadRecording(&source, load);
  if (!loaded.ok()) return loaded.status();
  mrr::ConvertOptions options;
  options.style = style;
  return mrr::Convert(*loaded, mrr::MemoryRandomAccess(recording), options, "fuzz.jsonl");
}

void AnyRecording(std::string_view recording) {
  for (mrr::ConvertStyle style : {mrr::ConvertStyle::kSimple, mrr::ConvertStyle::kPhased}) {
    arcs::Result<mrr::Converted> converted = ConvertText(recording, style);
    if (!converted.ok()) return;
    Check(converted->yaml.starts_with("# Auto-generated from"), "the YAML lost its header");
    for (const std::string& warning : converted->warnings) {
      Check(warning.find('\n') == std::string::npos, "a warning of several lines");
    }
  }
}

void OneResult(std::string_view value_text) {
  arcs::json::Document value;
  arcs::json::ParseOptions options;
  options.max_depth = 60;
  if (!value.Parse(value_text, options) || !value.duplicates().empty()) return;
  const std::string result = arcs::json::ToString(value.root());
  const std::string recording =
      R"({"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"})"
      "\n"
      R"({"type":"message","seq":1,"ts":"2025-02-04T10:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}})"
      "\n"
      R"({"type":"message","seq":2,"ts":"2025-02-04T10:00:00Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":)" +
      result + "}}\n";
  arcs::Result<mrr::Converted> converted = ConvertText(recording, mrr::ConvertStyle::kSimple);
  if (!converted.ok()) return;  // a number beyond the doubles: the recording is refused
  arcs::json::Document expect;
  Check(expect.Parse(R"({"style":"simple","tools":[{"name":"t","results":[)" + result + "]}]}"),
        "the fuzzer's expectation does not parse");
  const std::vector<std::string> problems = judge::JudgeConvert(converted->yaml, expect.root());
  if (!problems.empty()) std::fprintf(stderr, "%s\n", problems.front().c_str());
  Check(problems.empty(), "a result does not read back from the YAML as the same data");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > kMaxInputBytes) return -1;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    AnyRecording(text);
  } else {
    OneResult(text);
  }
  return 0;
}
