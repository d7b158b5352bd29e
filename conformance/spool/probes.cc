// Spool's resource probes (conformance/format.h ResourceProbe): one file per limit §10.1 names,
// each well past the reference's default and made of valid lines otherwise, so that only the
// size is in question.
#include "conformance/spool/probes.h"

#include <cstdio>

namespace arcs::conformance::spool {
namespace {

constexpr char kSession[] =
    R"({"id":"00000000-0000-4000-8000-000000000000","ts":0,"type":"session","version":"1.0",)"
    R"("agent":"test","recorded_at":"2025-01-01T00:00:00Z"})"
    "\n";

constexpr std::size_t kDepth = 4'000'000;
constexpr std::size_t kLineBytes = 72u << 20;  // over the reference's 64 MiB
constexpr std::size_t kEntries = 1'000'000;
constexpr std::size_t kBase64Bytes = 64u << 20;  // 48 MiB decoded

// Moved in: a braced initializer list would copy the megabytes.
std::map<std::string, std::string> File(std::string bytes) {
  std::map<std::string, std::string> inputs;
  inputs["file"] = std::move(bytes);
  return inputs;
}

std::map<std::string, std::string> DeepNesting() {
  std::string file = kSession;
  file += R"({"id":"00000000-0000-4000-8000-000000000001","ts":1,"type":"x_probe","x_deep":)";
  file.append(kDepth, '[');
  file.append(kDepth, ']');
  file += "}\n";
  return File(std::move(file));
}

std::map<std::string, std::string> LongLine() {
  std::string file = kSession;
  file += R"({"id":"00000000-0000-4000-8000-000000000001","ts":1,"type":"x_probe","x_long":")";
  file.append(kLineBytes, 'a');
  file += "\"}\n";
  return File(std::move(file));
}

std::map<std::string, std::string> ManyEntries() {
  std::string file = kSession;
  file.reserve(file.size() + kEntries * 64);
  char line[128];
  for (std::size_t i = 1; i <= kEntries; ++i) {
    int n = std::snprintf(line, sizeof line,
                          R"({"id":"00000000-0000-4000-8000-%012zx","ts":%zu,"type":"x_probe"})"
                          "\n",
                          i, i);
    file.append(line, static_cast<std::size_t>(n));
  }
  return File(std::move(file));
}

std::map<std::string, std::string> BigBase64() {
  std::string file = kSession;
  file += R"({"id":"00000000-0000-4000-8000-000000000001","ts":1,"type":"tool_call",)"
          R"("tool":"read","input":{}})"
          "\n";
  file += R"({"id":"00000000-0000-4000-8000-000000000002","ts":2,"type":"tool_result",)"
          R"("call_id":"00000000-0000-4000-8000-000000000001","output":{"type":"binary",)"
          R"("media_type":"application/octet-stream","encoding":"base64","data":")";
  file.append(kBase64Bytes, 'A');  // "AAAA" is three zero bytes: canonical base64
  file += "\"}}\n";
  return File(std::move(file));
}

constexpr char kLimitsText[] =
    "§10.1: \"Implementations parsing Spool files from untrusted sources MUST: ... 2. Set "
    "maximum limits for: - Total file size - Individual line length - Number of entries - "
    "Nesting depth (for subagents) - Base64 decoded size\"";

}  // namespace

std::vector<ResourceProbe> ResourceProbes() {
  return {
      {"deep-nesting",
       "4,000,000 nested arrays in an x_ field of one entry",
       {"SP-9.5-1"},
       "§9.5: \"Implementations MAY impose limits\"; errata SP-E31 (JSON nesting depth)",
       DeepNesting},
      {"long-line",
       "one entry of 72 MiB (an x_ field holding one long string)",
       {"SP-10.1-2"},
       kLimitsText,
       LongLine},
      {"many-entries",
       "1,000,000 small x_probe entries after the session",
       {"SP-10.1-3"},
       kLimitsText,
       ManyEntries},
      {"big-base64",
       "a tool_result whose binary output is 64 MiB of base64 (48 MiB decoded)",
       {"SP-10.1-5"},
       kLimitsText,
       BigBase64},
  };
}

}  // namespace arcs::conformance::spool
