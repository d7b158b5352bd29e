// Writes a valid model_io.json for the Model IO benchmark (bench.sh): `arcs_generate_model_io
// --out FILE [--bytes SIZE] [--seed N]`. Interactions are added until the file reaches SIZE
// (default 100M, about the largest MI11 allows), at most 10,000 of them, each with
// generated_text content (escapes, 2- to 4-byte UTF-8) under MI11's 1,000,000 bytes, its
// response_hash computed, and the ephemeral members a recorder writes. Deterministic.
#include <cstdio>
#include <fstream>
#include <string>

#include "reference/core/sha256.h"
#include "reference/core/testing/generated_text.h"
#include "reference/model_io/model_io.h"

namespace {

int Usage() {
  std::fprintf(stderr, "usage: arcs_generate_model_io --out FILE [--bytes SIZE] [--seed N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  std::uint64_t bytes = 100'000'000, seed = 1;
  for (int k = 1; k + 1 < argc; k += 2) {
    const std::string flag = argv[k], value = argv[k + 1];
    if (flag == "--out") {
      out_path = value;
    } else if (flag == "--bytes") {
      if (!arcs::testing::ParseSize(value, &bytes)) return Usage();
    } else if (flag == "--seed") {
      if (!arcs::testing::ParseSize(value, &seed)) return Usage();
    } else {
      return Usage();
    }
  }
  if (out_path.empty() || argc % 2 == 0) return Usage();
  arcs::testing::Rng rng(seed);
  const arcs::model_io::Limits limits;
  const std::uint64_t per_interaction = bytes / limits.max_interactions + 1;
  std::string text =
      R"({"model_io_schema_version":"1.0.0","adapter_id":"bench-adapter","model_id":"bench-model",)"
      R"("mode":"record","created_at_utc":"2026-01-05T10:00:00.000Z","interactions":[)";
  std::uint64_t count = 0;
  std::string content;
  while (text.size() + per_interaction < bytes && count < limits.max_interactions) {
    content.clear();
    arcs::testing::AppendText(rng, per_interaction * 9 / 10, &content);
    if (count) text += ',';
    text += R"({"i":)" + std::to_string(count) + R"(,"prompt_hash":")" +
            arcs::model_io::ContentHash("prompt " + std::to_string(count % 97)) +
            R"(","response_hash":")" + arcs::model_io::ContentHash(content) +
            R"(","response_content":)";
    arcs::testing::AppendJsonString(content, rng.Next() % 4 == 0, &text);
    text += R"(,"tokens_input":)" + std::to_string(rng.Next() % 4000) + R"(,"latency_ms":)" +
            std::to_string(rng.Next() % 90000) + "." + std::to_string(rng.Next() % 10) + "}";
    ++count;
  }
  text += R"(],"stats":{"total_interactions":)" + std::to_string(count) +
          R"(,"total_tokens_input":1,"total_tokens_output":2,"total_latency_ms":3.5}})";
  std::ofstream(out_path, std::ios::binary) << text;
  std::fprintf(stderr, "arcs_generate_model_io: %s: %llu interactions, %zu bytes\n",
               out_path.c_str(), static_cast<unsigned long long>(count), text.size());
  return 0;
}
