#include "runner/fuzz/rechain.h"

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/strings.h"
#include "runner/fuzz/json_scan.h"

namespace arcs::fuzz {
namespace {

// Where the top-level members named `name` hold their values, last first.
class TopMembers : public JsonVisitor {
 public:
  TopMembers(std::string_view text, std::string_view name) : text_(text), quoted_(Quoted(name)) {}

  void Value(const ValueSpan& value) override {
    if (value.depth == 1) top_values_.insert(value.begin);
  }
  void Member(const MemberSpan& m) override {
    if (top_values_.contains(m.value_begin) &&
        text_.substr(m.name_begin, m.name_end - m.name_begin) == quoted_) {
      spans_.emplace_back(m.value_begin, m.value_end);
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> LastFirst() {
    std::sort(spans_.rbegin(), spans_.rend());
    return spans_;
  }

 private:
  static std::string Quoted(std::string_view name) {
    std::string q;
    json::AppendQuoted(name, &q);
    return q;
  }
  std::string_view text_;
  std::string quoted_;
  std::set<std::size_t> top_values_;
  std::vector<std::pair<std::size_t, std::size_t>> spans_;
};

// `line` with the value of each top-level member `name` replaced by `value` (JSON text).
std::string SetMember(std::string line, std::string_view name, std::string_view value) {
  TopMembers members(line, name);
  ScanJson(line, members);
  for (const auto& [begin, end] : members.LastFirst()) line.replace(begin, end - begin, value);
  return line;
}

bool Blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

std::string Rechain(std::string_view input, const conformance::HashChain& chain) {
  std::string out;
  out.reserve(input.size());
  std::optional<std::string> previous;
  for (std::string_view line : LinesWithEnds(input)) {
    std::size_t body = line.size();
    while (body > 0 && (line[body - 1] == '\n' || line[body - 1] == '\r')) --body;
    if (Blank(line.substr(0, body))) {
      out += line;
      continue;
    }
    std::string link = "null";
    if (previous) {
      link.clear();
      json::AppendQuoted(*previous, &link);
    }
    std::string event = SetMember(std::string(line.substr(0, body)), chain.link_member, link);
    if (Result<std::string> hash = chain.line_hash(event); hash.ok()) {
      std::string quoted;
      json::AppendQuoted(*hash, &quoted);
      event = SetMember(std::move(event), chain.hash_member, quoted);
      previous = *hash;
    }
    out += event;
    out += line.substr(body);
  }
  return out;
}

}  // namespace arcs::fuzz
