#include "conformance/model_io/truth.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "reference/core/number.h"
#include "reference/model_io/model_io.h"

namespace arcs::conformance::model_io {
namespace {

using arcs::model_io::ContentHash;
using arcs::model_io::IsContentHash;
using arcs::model_io::IsSemver;

// MI11's numbers, as the spec states them.
constexpr std::size_t kMaxInteractions = 10'000;
constexpr std::uint64_t kMaxContentBytes = 1'000'000;
constexpr std::uint64_t kMaxTotalContentBytes = 100'000'000;

// The member under one reading of a repeated name: its first or its last occurrence.
using Lookup = const json::Value* (json::Value::*)(std::string_view) const;

bool NonEmptyString(const json::Value* v) { return v && v->is_string() && !v->text().empty(); }

// `i` as the spec's TypeScript compares it (===): a number's value; anything else is never equal.
std::optional<double> IndexOf(const json::Value* i) {
  if (!i || !i->is_number()) return std::nullopt;
  return json::ToDouble(i->text());
}

void CheckDocument(const json::Value& s, Lookup get, std::set<std::string>* broken) {
  const json::Value* version = (s.*get)("model_io_schema_version");
  if (!NonEmptyString(version) || !IsSemver(version->text())) broken->insert("MI1");
  if (!NonEmptyString((s.*get)("adapter_id")) || !NonEmptyString((s.*get)("model_id"))) {
    broken->insert("MI2");
  }
  const json::Value* mode = (s.*get)("mode");
  if (!mode || !mode->is_string() || (mode->text() != "record" && mode->text() != "replay")) {
    broken->insert("MI3");
  }
  const json::Value* interactions = (s.*get)("interactions");
  if (!interactions || !interactions->is_array()) {
    broken->insert("MI4");
    return;  // MI5-MI11 speak of the elements of an array there is not
  }
  const auto items = interactions->items();
  if (items.size() > kMaxInteractions) broken->insert({"MI4", "MI11"});
  std::optional<double> previous;
  std::set<std::pair<std::string, double>> pairs;
  std::uint64_t total = 0;
  for (std::size_t n = 0; n < items.size(); ++n) {
    const json::Value& x = items[n];
    const json::Value* i = x.is_object() ? (x.*get)("i") : nullptr;
    const std::optional<double> index = IndexOf(i);
    if (!index || *index != static_cast<double>(n)) broken->insert("MI5");
    if (!index || (previous && *index < *previous)) broken->insert("MI9");
    previous = index;
    const json::Value* prompt = x.is_object() ? (x.*get)("prompt_hash") : nullptr;
    if (!prompt || !prompt->is_string() || !IsContentHash(prompt->text())) broken->insert("MI6");
    if (prompt && prompt->is_string() && index &&
        !pairs.emplace(std::string(prompt->text()), *index).second) {
      broken->insert("MI8");
    }
    const json::Value* hash = x.is_object() ? (x.*get)("response_hash") : nullptr;
    const json::Value* content = x.is_object() ? (x.*get)("response_content") : nullptr;
    const bool content_text = content && content->is_string();
    if (!hash || !hash->is_string() || !IsContentHash(hash->text()) || !content_text ||
        ContentHash(content->text()) != hash->text()) {
      broken->insert("MI7");
    }
    if (content_text) {
      const std::uint64_t bytes = content->text().size();
      total += bytes;
      if (bytes > kMaxContentBytes) broken->insert("MI11");
    }
  }
  if (total > kMaxTotalContentBytes) broken->insert("MI11");
}

}  // namespace

std::set<std::string> BrokenInvariants(const json::Value& session) {
  std::set<std::string> broken;
  if (!session.is_object()) {
    // Not a session at all: every invariant that reads a member fails.
    return {"MI1", "MI2", "MI3", "MI4"};
  }
  CheckDocument(session, &json::Value::Find, &broken);
  CheckDocument(session, &json::Value::FindLast, &broken);
  return broken;
}

}  // namespace arcs::conformance::model_io
