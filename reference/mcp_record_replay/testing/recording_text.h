// Recordings written by hand for tests (summary_test.cc, verify_test.cc): a header line, message
// lines whose seq counts from 1 as they are added, and a footer, each line as TJ-SPEC-010 writes
// it.
#ifndef ARCS_REFERENCE_MCP_RECORD_REPLAY_TESTING_RECORDING_TEXT_H_
#define ARCS_REFERENCE_MCP_RECORD_REPLAY_TESTING_RECORDING_TEXT_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace arcs::mcp_record_replay::testing {

inline constexpr char kHeaderLine[] =
    R"({"type":"header","version":"1.0","recorded_at":"2026-11-28T10:00:00Z","upstream":"u","thoughtjack_version":"t"})";

class RecordingText {
 public:
  explicit RecordingText(std::string_view header = kHeaderLine)
      : text_(std::string(header) + "\n") {}
  // Adds a message line (dir "c2s" or "s2c"; latency_ms when latency >= 0); returns its seq.
  std::uint64_t Add(std::string_view dir, std::string_view msg, int latency = -1) {
    ++seq_;
    text_ += R"({"type":"message","seq":)" + std::to_string(seq_) +
             R"(,"ts":"2026-11-28T10:00:00Z","dir":")" + std::string(dir) + R"(","msg":)" +
             std::string(msg) +
             (latency >= 0 ? R"(,"latency_ms":)" + std::to_string(latency) : std::string()) + "}\n";
    return seq_;
  }
  void Footer(std::uint64_t duration_ms, std::uint64_t client, std::uint64_t server) {
    text_ += R"({"type":"footer","total_messages":)" + std::to_string(seq_) + R"(,"duration_ms":)" +
             std::to_string(duration_ms) + R"(,"client_messages":)" + std::to_string(client) +
             R"(,"server_messages":)" + std::to_string(server) + "}\n";
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::uint64_t seq_ = 0;
};

// JSON-RPC messages, their parts given as JSON text.
inline std::string Request(std::string_view id, std::string_view method,
                           std::string_view params = "{}") {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"method":")" + std::string(method) +
         R"(","params":)" + std::string(params) + "}";
}
inline std::string Response(std::string_view id, std::string_view result = "{}") {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"result":)" + std::string(result) +
         "}";
}
inline std::string ErrorResponse(std::string_view id, std::string_view error) {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) + R"(,"error":)" + std::string(error) + "}";
}
inline std::string Notification(std::string_view method, std::string_view params = "{}") {
  return R"({"jsonrpc":"2.0","method":")" + std::string(method) + R"(","params":)" +
         std::string(params) + "}";
}

}  // namespace arcs::mcp_record_replay::testing

#endif  // ARCS_REFERENCE_MCP_RECORD_REPLAY_TESTING_RECORDING_TEXT_H_
