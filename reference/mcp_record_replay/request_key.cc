#include "reference/mcp_record_replay/request_key.h"

#include "reference/core/canonical.h"
#include "reference/core/sha256.h"

namespace arcs::mcp_record_replay {

namespace {

constexpr std::string_view kMeta[] = {"_meta"};                           // MRR-E30
constexpr std::string_view kInitializeOmits[] = {"_meta", "clientInfo"};  // MRR-E50

}  // namespace

Result<std::string> RequestKey(std::string_view method, const json::Value* params) {
  std::string canonical = "{}";  // absent and null params (MRR-E31)
  if (params && !params->is_null()) {
    Result<std::string> jcs = canonical::Jcs(
        *params, method == "initialize" ? std::span<const std::string_view>(kInitializeOmits)
                                        : std::span<const std::string_view>(kMeta));
    if (!jcs.ok()) return jcs.status();
    canonical = std::move(*jcs);
  }
  std::string key(method);
  key += '\0';
  const auto digest = Sha256::Of(canonical);
  key.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  return key;
}

}  // namespace arcs::mcp_record_replay
