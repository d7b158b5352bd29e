#include "runner/validate_hint.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

// A lone bracket, with the whitespace a pretty-printer might leave around it, is never longer: a
// first line that has grown past this without ending is something else.
constexpr std::size_t kMaxBracketLineBytes = 256;

bool IsLoneBracket(std::string_view line) {
  if (line.starts_with(kUtf8Bom)) line.remove_prefix(kUtf8Bom.size());
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!line.empty() && space(line.front())) line.remove_prefix(1);
  while (!line.empty() && space(line.back())) line.remove_suffix(1);
  return line == "{" || line == "[";
}

// `name` as one word for a POSIX shell, for a command to paste: as it is when every character is
// one no shell reads specially, else single-quoted. A name starting with '-' gets "./" so that jq
// does not take it for an option.
std::string ShellWord(std::string_view name) {
  std::string word = name.starts_with('-') ? "./" : "";
  word += name;
  const bool plain = std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_./:=@%+,-").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

Result<std::size_t> PrettyJsonWatch::Read(char* buf, std::size_t size) {
  Result<std::size_t> n = source_->Read(buf, size);
  if (!n.ok()) return n;
  if (*n == 0) {
    ended_ = true;
  } else if (state_ != State::kOff) {
    Keep(std::string_view(buf, *n));
  }
  return n;
}

void PrettyJsonWatch::Keep(std::string_view bytes) {
  kept_ += bytes;
  if (state_ == State::kFirstLine) {
    const std::size_t end = kept_.find('\n');
    if (end != std::string::npos) {
      state_ =
          IsLoneBracket(std::string_view(kept_).substr(0, end)) ? State::kKeeping : State::kOff;
    } else if (kept_.size() > kMaxBracketLineBytes) {
      state_ = State::kOff;
    }
  }
  if (kept_.size() > max_bytes_) state_ = State::kOff;
  if (state_ == State::kOff) std::string().swap(kept_);
}

std::optional<std::string_view> PrettyJsonWatch::Kept() const {
  if (!ended_ || state_ != State::kKeeping) return std::nullopt;
  return kept_;
}

std::optional<Finding> PrettyJsonHint(std::string_view text, std::string_view format_title,
                                      std::string_view file_name, const Diagnostics& diagnostics,
                                      std::uint32_t max_depth) {
  if (text.starts_with(kUtf8Bom)) text.remove_prefix(kUtf8Bom.size());
  json::Document document;
  json::ParseOptions options;
  options.max_depth = max_depth;
  if (!document.Parse(text, options)) return std::nullopt;
  // The rule broken on the most lines, ties to the one cited first: in a pretty-printed file every
  // line but a few is not a JSON value of its own, so that is the format's line rule.
  std::vector<const Finding*> first_of_rule;
  std::map<std::string_view, std::set<std::uint64_t>> lines_of_rule;
  for (const Finding& f : diagnostics.findings()) {
    if (f.severity != Severity::kError) continue;
    std::set<std::uint64_t>& lines = lines_of_rule[f.rule_id];
    if (lines.empty()) first_of_rule.push_back(&f);
    lines.insert(f.location.line);
  }
  const Finding* rule = nullptr;
  for (const Finding* f : first_of_rule) {
    if (!rule || lines_of_rule[f->rule_id].size() > lines_of_rule[rule->rule_id].size()) rule = f;
  }
  if (!rule || !lines_of_rule[rule->rule_id].contains(1)) return std::nullopt;
  const std::uint64_t lines =
      static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')) +
      (text.ends_with('\n') ? 0 : 1);
  const bool array = document.root().is_array();
  Finding hint;
  hint.rule_id = rule->rule_id;
  hint.level = rule->level;
  hint.severity = Severity::kError;
  hint.location = {1, 1, ""};
  hint.message = "the file is one JSON " + std::string(array ? "array" : "document") +
                 " spread over " + std::to_string(lines) + " lines; " + std::string(format_title) +
                 " wants one JSON object per line (try: jq -c " + (array ? "'.[]'" : ".") +
                 (file_name == "-" ? "" : " " + ShellWord(file_name)) + ")";
  return hint;
}

}  // namespace arcs::runner
