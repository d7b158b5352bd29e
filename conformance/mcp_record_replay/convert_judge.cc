#include "conformance/mcp_record_replay/convert_judge.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::conformance::mcp_record_replay {
namespace {

// yaml-cpp holds a node in a few hundred bytes: a text beyond this is not parsed at all.
constexpr std::size_t kMaxYamlBytes = std::size_t{64} << 20;
// Flow collections nested deeper are refused before yaml-cpp recurses into them.
constexpr std::size_t kMaxFlowNesting = 256;
// The walk: nodes visited (aliases let a small text stand for an exponential tree) and depth.
constexpr std::size_t kMaxVisits = 1'000'000;
constexpr std::size_t kMaxDepth = 256;
constexpr std::size_t kMaxProblems = 50;
// A radix integer (0x..., 0o...) longer than this is not converted to decimal to be compared.
constexpr std::size_t kMaxRadixDigits = 1000;
constexpr std::size_t kQuoteBytes = 60;
constexpr std::size_t kNamesShown = 10;

constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kNullTag = "tag:yaml.org,2002:null";
constexpr std::string_view kBoolTag = "tag:yaml.org,2002:bool";
constexpr std::string_view kIntTag = "tag:yaml.org,2002:int";
constexpr std::string_view kFloatTag = "tag:yaml.org,2002:float";

// ---------- Messages

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

std::string Child(const std::string& path, std::string_view key) {
  const bool word = !key.empty() && (IsAsciiLetter(key[0]) || key[0] == '_') &&
                    std::all_of(key.begin(), key.end(), [](char c) {
                      return IsAsciiLetter(c) || IsAsciiDigit(c) || c == '_';
                    });
  if (!word) return path + "[" + Quoted(key, 40) + "]";
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string Index(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

class Problems {
 public:
  void Add(std::string problem) {
    if (list_.size() < kMaxProblems) {
      list_.push_back(std::move(problem));
    } else {
      ++more_;
    }
  }
  // A problem that explains the others: listed first, whatever the cap.
  void AddFirst(std::string problem) {
    list_.insert(list_.begin(), std::move(problem));
    if (list_.size() > kMaxProblems) {
      list_.pop_back();
      ++more_;
    }
  }
  std::vector<std::string> Take() && {
    if (more_ > 0) list_.push_back("and " + std::to_string(more_) + " more problems");
    return std::move(list_);
  }

 private:
  std::vector<std::string> list_;
  std::size_t more_ = 0;
};

// ---------- The pre-scan

bool IsFlowIndicator(char c) { return c == '[' || c == ']' || c == '{' || c == '}' || c == ','; }
bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Whether `yaml` nests flow collections deeper than `bound`. Brackets are counted outside comments,
// quoted scalars and block scalars, and at depth 0 only where a node can begin (a line's start,
// after "- ", ": " or "? ", after an anchor or tag), never inside a plain scalar such as `a[b`:
// what it counts is a lower bound of yaml-cpp's nesting, so a document is never refused for
// text a scalar holds. A text it misreads is still bounded by yaml-cpp's own depth guard.
class FlowScan {
 public:
  explicit FlowScan(std::string_view yaml) : yaml_(yaml) {}

  bool Exceeds(std::size_t bound) {
    while (i_ < yaml_.size()) {
      const char c = yaml_[i_];
      if (quote_ != 0) {
        Quoted(c);
      } else if (c == '\n') {
        NewLine();
        continue;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        node_start_ = node_start_ || indicator_;
        indicator_ = false;
        after_space_ = true;
      } else if (c == '#' && after_space_) {
        SkipToLineEnd();
        continue;
      } else if (!Significant(c, bound)) {
        return true;
      }
      ++i_;
    }
    return false;
  }

 private:
  void Quoted(char c) {
    if (quote_ == '"' && c == '\\') {
      ++i_;  // the escaped character
    } else if (quote_ == '\'' && c == '\'' && i_ + 1 < yaml_.size() && yaml_[i_ + 1] == '\'') {
      ++i_;  // '' inside single quotes
    } else if (c == quote_) {
      quote_ = 0;
    }
  }

  // At a line break: the next line's indentation, and the lines of a block scalar skipped.
  void NewLine() {
    ++i_;
    std::size_t spaces = 0;
    while (i_ + spaces < yaml_.size() && yaml_[i_ + spaces] == ' ') ++spaces;
    if (block_parent_) {
      const std::size_t end = std::min(yaml_.find('\n', i_), yaml_.size());
      const std::string_view line = yaml_.substr(i_, end - i_);
      if (line.find_first_not_of(" \t\r") == std::string_view::npos || spaces > *block_parent_) {
        i_ = end;
        return;
      }
      block_parent_.reset();
    }
    line_indent_ = spaces;
    node_start_ = true;
    indicator_ = false;
    after_space_ = true;
  }

  void SkipToLineEnd() {
    while (i_ < yaml_.size() && yaml_[i_] != '\n') ++i_;
  }

  // An anchor or tag before a node: the node still begins after it.
  void SkipProperty() {
    while (i_ + 1 < yaml_.size() && !IsBlank(yaml_[i_ + 1]) && !IsFlowIndicator(yaml_[i_ + 1])) {
      ++i_;
    }
  }

  // A character that is not a blank; false when the bound is exceeded.
  bool Significant(char c, std::size_t bound) {
    const bool start = node_start_;
    node_start_ = false;
    indicator_ = false;
    after_space_ = false;
    if (start && (c == '"' || c == '\'')) {
      quote_ = c;
    } else if (start && (c == '&' || c == '!')) {
      SkipProperty();
      node_start_ = true;
    } else if ((c == '[' || c == '{') && (start || depth_ > 0)) {
      node_start_ = true;
      return ++depth_ <= bound;
    } else if (depth_ > 0) {
      if (c == ']' || c == '}') --depth_;
      node_start_ = c == ',' || c == ':' || c == '?';
    } else if (start && (c == '|' || c == '>')) {
      block_parent_ = line_indent_;
      SkipToLineEnd();
      --i_;  // the caller steps past the character before the line break
    } else if (c == ':' || c == '-' || c == '?') {
      indicator_ = true;
    }
    return true;
  }

  std::string_view yaml_;
  std::size_t i_ = 0;
  std::size_t depth_ = 0;
  char quote_ = 0;
  bool node_start_ = true;
  bool indicator_ = false;  // the last character was ':', '-' or '?': a blank makes it one
  bool after_space_ = true;
  std::size_t line_indent_ = 0;
  std::optional<std::size_t> block_parent_;  // a block scalar's lines are indented deeper
};

// ---------- Scalars by the YAML 1.2 core schema

// A decimal number of the core schema ([-+]?[0-9]+ or the float form) spelled as JSON: no '+',
// no leading zeros, ".5" as 0.5 and "5." as 5. nullopt when `s` is not one.
std::optional<std::string> DecimalAsJson(std::string_view s) {
  std::size_t i = 0;
  std::string out;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    if (s[i] == '-') out += '-';
    ++i;
  }
  const std::size_t int_begin = i;
  while (i < s.size() && IsAsciiDigit(s[i])) ++i;
  std::string_view integer = s.substr(int_begin, i - int_begin);
  std::string_view fraction;
  if (i < s.size() && s[i] == '.') {
    const std::size_t begin = ++i;
    while (i < s.size() && IsAsciiDigit(s[i])) ++i;
    fraction = s.substr(begin, i - begin);
  }
  if (integer.empty() && fraction.empty()) return std::nullopt;
  std::string_view exponent;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    const std::size_t begin = ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t digits = i;
    while (i < s.size() && IsAsciiDigit(s[i])) ++i;
    if (i == digits) return std::nullopt;
    exponent = s.substr(begin, i - begin);
  }
  if (i != s.size()) return std::nullopt;
  while (integer.size() > 1 && integer[0] == '0') integer.remove_prefix(1);
  out += integer.empty() ? "0" : std::string(integer);
  if (!fraction.empty()) out += "." + std::string(fraction);
  if (!exponent.empty()) out += "e" + std::string(exponent);
  return out;
}

int DigitValue(char c) {
  if (IsAsciiDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

// 0o17 and 0x1F (the core schema's octal and hex integers) in decimal; "" when too long to
// convert, nullopt when `s` is not one.
std::optional<std::string> RadixAsJson(std::string_view s) {
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'o' && s[1] != 'x')) return std::nullopt;
  const int base = s[1] == 'o' ? 8 : 16;
  const std::string_view digits = s.substr(2);
  if (!std::all_of(digits.begin(), digits.end(), [&](char c) { return DigitValue(c) < base; })) {
    return std::nullopt;
  }
  if (digits.size() > kMaxRadixDigits) return "";
  std::vector<int> decimal = {0};  // least significant first
  for (char c : digits) {
    int carry = DigitValue(c);
    for (int& d : decimal) {
      const int v = d * base + carry;
      d = v % 10;
      carry = v / 10;
    }
    for (; carry > 0; carry /= 10) decimal.push_back(carry % 10);
  }
  std::string out;
  for (auto d = decimal.rbegin(); d != decimal.rend(); ++d) out += static_cast<char>('0' + *d);
  return out;
}

bool IsCoreNull(std::string_view s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

std::optional<bool> CoreBool(std::string_view s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return std::nullopt;
}

bool IsCoreInfinityOrNan(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    s.remove_prefix(1);
    return s == ".inf" || s == ".Inf" || s == ".INF";
  }
  return s == ".inf" || s == ".Inf" || s == ".INF" || s == ".nan" || s == ".NaN" || s == ".NAN";
}

struct Resolved {
  enum class Kind : std::uint8_t { kNull, kBool, kNumber, kString, kSequence, kMapping, kOther };
  Kind kind = Kind::kOther;
  bool truth = false;
  std::string number;  // as JSON; "" when JSON has no such number (.inf, .nan)
};
using RKind = Resolved::Kind;

// A number of the core schema (`int_only`: the int forms), else kOther.
Resolved ResolveNumber(std::string_view s, bool int_only) {
  Resolved r;
  std::optional<std::string> json = RadixAsJson(s);
  if (!json) {
    json = DecimalAsJson(s);
    const bool integer = json && s.find_first_of(".eE") == std::string_view::npos;
    if (json && int_only && !integer) json.reset();
  }
  if (!json && !int_only && IsCoreInfinityOrNan(s)) json = "";
  if (json) {
    r.kind = RKind::kNumber;
    r.number = std::move(*json);
  }
  return r;
}

Resolved ResolvePlain(std::string_view s) {
  Resolved r;
  if (IsCoreNull(s)) {
    r.kind = RKind::kNull;
  } else if (std::optional<bool> b = CoreBool(s)) {
    r.kind = RKind::kBool;
    r.truth = *b;
  } else if (r = ResolveNumber(s, false); r.kind != RKind::kNumber) {
    r.kind = RKind::kString;
  }
  return r;
}

// A node's kind by the core schema: plain scalars by its regular expressions, quoted and block
// scalars ("!") strings, explicit core tags checked against their forms; any other tag kOther.
Resolved Resolve(const YAML::Node& node) {
  Resolved r;
  switch (node.Type()) {
    case YAML::NodeType::Null:
      r.kind = RKind::kNull;
      return r;
    case YAML::NodeType::Sequence:
      r.kind = RKind::kSequence;
      return r;
    case YAML::NodeType::Map:
      r.kind = RKind::kMapping;
      return r;
    case YAML::NodeType::Undefined:
      return r;
    case YAML::NodeType::Scalar:
      break;
  }
  const std::string& tag = node.Tag();
  const std::string& s = node.Scalar();
  if (tag == "!" || tag == kStrTag) {
    r.kind = RKind::kString;
  } else if (tag == "?") {
    r = ResolvePlain(s);
  } else if (tag == kNullTag && IsCoreNull(s)) {
    r.kind = RKind::kNull;
  } else if (tag == kBoolTag && CoreBool(s)) {
    r.kind = RKind::kBool;
    r.truth = *CoreBool(s);
  } else if (tag == kIntTag || tag == kFloatTag) {
    r = ResolveNumber(s, tag == kIntTag);
  }
  return r;
}

std::string Describe(const YAML::Node& node) {
  const Resolved r = Resolve(node);
  switch (r.kind) {
    case RKind::kNull:
      return "null";
    case RKind::kBool:
      return r.truth ? "true" : "false";
    case RKind::kNumber:
      return "the number " + Excerpt(node.Scalar(), 40);
    case RKind::kString:
      return "the string " + Quoted(node.Scalar(), kQuoteBytes);
    case RKind::kSequence:
      return "a sequence of " + std::to_string(node.size()) + " items";
    case RKind::kMapping:
      return "a mapping";
    case RKind::kOther:
      break;
  }
  return node.IsScalar() ? "the scalar " + Quoted(node.Scalar(), kQuoteBytes) + " tagged " +
                               Quoted(node.Tag(), kQuoteBytes)
                         : "an undefined node";
}

std::string DescribeJson(const json::Value& v) {
  switch (v.kind()) {
    case json::Kind::kNull:
      return "null";
    case json::Kind::kFalse:
      return "false";
    case json::Kind::kTrue:
      return "true";
    case json::Kind::kNumber:
      return "the number " + Excerpt(v.text(), 40);
    case json::Kind::kString:
      return "the string " + Quoted(v.text(), kQuoteBytes);
    case json::Kind::kArray:
      return "a sequence of " + std::to_string(v.items().size()) + " items";
    case json::Kind::kObject:
      return "a mapping";
  }
  return "";
}

// ---------- The walk

class Judge {
 public:
  explicit Judge(Problems* problems) : problems_(problems) {}

  void Run(const YAML::Node& root, const ConvertExpectation& expected) {
    if (expected.style == ExpectedStyle::kSimple) {
      Tools(Member(root, "tools", ""), "tools", expected.tools);
    } else {
      Phased(root, expected);
    }
    if (exhausted_) {
      problems_->AddFirst("not judged past " + std::to_string(kMaxVisits) +
                          " nodes: the YAML is too large (aliases?)");
    }
  }

 private:
  bool Visit() {
    if (visits_ >= kMaxVisits) exhausted_ = true;
    ++visits_;
    return !exhausted_;
  }

  void Add(std::string problem) {
    if (!exhausted_) problems_->Add(std::move(problem));
  }

  // The value of the entry of `map` whose key is the string `key`; a repeated key is a problem.
  std::optional<YAML::Node> Member(const YAML::Node& map, std::string_view key,
                                   const std::string& path) {
    std::optional<YAML::Node> found;
    if (!map.IsMap()) return found;
    for (auto entry = map.begin(); entry != map.end() && Visit(); ++entry) {
      // A copy: the iterator's -> returns a proxy that dies with the expression.
      const YAML::Node k = entry->first;
      if (!k.IsScalar() || Resolve(k).kind != RKind::kString || k.Scalar() != key) continue;
      if (found) {
        Add(Child(path, key) + ": the key is repeated");
        break;
      }
      found = entry->second;
    }
    return found;
  }

  // The first difference between `y` and `j` as "path: what", or "" when they are the same data.
  std::string Difference(const YAML::Node& y, const json::Value& j, const std::string& path,
                         std::size_t depth) {
    if (!Visit()) return "";
    if (depth > kMaxDepth) return path + ": nested deeper than " + std::to_string(kMaxDepth);
    const Resolved r = Resolve(y);
    bool same = false;
    switch (j.kind()) {
      case json::Kind::kNull:
        same = r.kind == RKind::kNull;
        break;
      case json::Kind::kFalse:
      case json::Kind::kTrue:
        same = r.kind == RKind::kBool && r.truth == j.as_bool();
        break;
      case json::Kind::kNumber:
        same = r.kind == RKind::kNumber && !r.number.empty() && json::SameValue(r.number, j.text());
        break;
      case json::Kind::kString:
        same = r.kind == RKind::kString && y.Scalar() == j.text();
        break;
      case json::Kind::kArray:
        if (r.kind == RKind::kSequence) return SequenceDifference(y, j, path, depth);
        break;
      case json::Kind::kObject:
        if (r.kind == RKind::kMapping) return MappingDifference(y, j, path, depth);
        break;
    }
    return same ? "" : path + ": expected " + DescribeJson(j) + ", found " + Describe(y);
  }

  std::string SequenceDifference(const YAML::Node& y, const json::Value& j, const std::string& path,
                                 std::size_t depth) {
    if (y.size() != j.items().size()) {
      return path + ": expected " + DescribeJson(j) + ", found " + Describe(y);
    }
    std::size_t i = 0;
    for (auto item = y.begin(); item != y.end(); ++item, ++i) {
      std::string d = Difference(*item, j.items()[i], Index(path, i), depth + 1);
      if (!d.empty()) return d;
    }
    return "";
  }

  std::string MappingDifference(const YAML::Node& y, const json::Value& j, const std::string& path,
                                std::size_t depth) {
    std::map<std::string, YAML::Node, std::less<>> entries;
    for (auto entry = y.begin(); entry != y.end(); ++entry) {
      if (!Visit()) return "";
      const YAML::Node k = entry->first;
      if (Resolve(k).kind != RKind::kString) {
        return path + ": a key that is not a string (" + Describe(k) + ")";
      }
      if (!entries.emplace(k.Scalar(), entry->second).second) {
        return Child(path, k.Scalar()) + ": the key is repeated";
      }
    }
    std::map<std::string_view, const json::Value*> members;  // a repeated name: its last value
    for (const json::Member& m : j.members()) members[m.name] = &m.value;
    for (const auto& [name, value] : members) {
      auto it = entries.find(name);
      if (it == entries.end()) {
        return Child(path, name) + ": missing, expected " + DescribeJson(*value);
      }
      std::string d = Difference(it->second, *value, Child(path, name), depth + 1);
      if (!d.empty()) return d;
    }
    for (const auto& [name, value] : entries) {
      if (!members.contains(name)) {
        return Child(path, name) + ": not expected, found " + Describe(value);
      }
    }
    return "";
  }

  // A list of tools at `path` (`tools`, `baseline.tools`).
  void Tools(const std::optional<YAML::Node>& list, const std::string& path,
             const std::vector<ExpectedTool>& expected) {
    const std::string count = std::to_string(expected.size());
    if (expected.empty()) {
      if (!list || list->IsNull() || (list->IsSequence() && list->size() == 0)) return;
      Add(path + ": expected no tools (absent, null or empty), found " + Describe(*list));
      return;
    }
    if (!list || !list->IsSequence()) {
      Add(path + ": expected a list of " + count + " tools, found " +
          (list ? Describe(*list) : "nothing"));
      return;
    }
    std::vector<YAML::Node> items;
    std::vector<std::optional<std::string>> names;
    for (auto item = list->begin(); item != list->end() && Visit(); ++item) {
      names.push_back(ToolName(*item, Index(path, items.size())));
      items.push_back(*item);
    }
    Order(names, expected, path);
    std::vector<bool> used(items.size(), false);
    for (const ExpectedTool& tool : expected) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (used[i] || names[i] != tool.name) continue;
        used[i] = true;
        Tool(items[i], tool, Index(path, i));
        break;
      }
    }
  }

  // The tool's name (item.tool.name), or nullopt with a problem.
  std::optional<std::string> ToolName(const YAML::Node& item, const std::string& path) {
    if (!item.IsMap()) {
      Add(path + ": expected a mapping with tool, found " + Describe(item));
      return std::nullopt;
    }
    std::optional<YAML::Node> tool = Member(item, "tool", path);
    if (!tool || !tool->IsMap()) {
      Add(Child(path, "tool") + ": expected a mapping with name, found " +
          (tool ? Describe(*tool) : "nothing"));
      return std::nullopt;
    }
    std::optional<YAML::Node> name = Member(*tool, "name", Child(path, "tool"));
    if (!name || !name->IsScalar() || Resolve(*name).kind != RKind::kString) {
      Add(Child(Child(path, "tool"), "name") + ": expected a string, found " +
          (name ? Describe(*name) : "nothing"));
      return std::nullopt;
    }
    return name->Scalar();
  }

  // The names in the expected order, nothing more.
  void Order(const std::vector<std::optional<std::string>>& names,
             const std::vector<ExpectedTool>& expected, const std::string& path) {
    bool same = names.size() == expected.size();
    for (std::size_t i = 0; same && i < names.size(); ++i) same = names[i] == expected[i].name;
    if (same) return;
    std::vector<std::string> found, wanted;
    for (std::size_t i = 0; i < names.size() && i < kNamesShown; ++i) {
      found.push_back(names[i] ? Quoted(*names[i], 40) : "?");
    }
    for (std::size_t i = 0; i < expected.size() && i < kNamesShown; ++i) {
      wanted.push_back(Quoted(expected[i].name, 40));
    }
    Add(path + ": the tools are [" + Join(found) + (names.size() > kNamesShown ? ", …" : "") +
        "] (" + std::to_string(names.size()) + "), expected [" + Join(wanted) +
        (expected.size() > kNamesShown ? ", …" : "") + "] (" + std::to_string(expected.size()) +
        ")");
  }

  void Tool(const YAML::Node& item, const ExpectedTool& expected, const std::string& path) {
    if (expected.definition) {
      const std::string at = Child(path, "tool");
      const std::optional<YAML::Node> tool = Member(item, "tool", path);
      if (!tool) return;  // ToolName found it: not reached
      for (std::string_view member : {"name", "description", "inputSchema"}) {
        const json::Value* want = expected.definition->Find(member);
        const std::optional<YAML::Node> found = Member(*tool, member, at);
        if (want && !found) {
          Add(Child(at, member) + ": missing, expected " + DescribeJson(*want));
        } else if (!want && found) {
          Add(Child(at, member) + ": not in the recorded definition, found " + Describe(*found));
        } else if (want) {
          if (std::string d = Difference(*found, *want, Child(at, member), 1); !d.empty()) {
            Add(std::move(d));
          }
        }
      }
    }
    Results(item, expected.results, path);
  }

  // k results: none, not judged; one, `response` is it or `response.sequence` is [it]; more,
  // `response.sequence` is the list.
  void Results(const YAML::Node& item, const std::vector<const json::Value*>& results,
               const std::string& path) {
    if (results.empty()) return;
    const std::string at = Child(path, "response");
    const std::string k = std::to_string(results.size());
    const std::optional<YAML::Node> response = Member(item, "response", path);
    if (!response) {
      Add(at + ": missing, expected " +
          (results.size() == 1 ? "the tool's result" : k + " results"));
      return;
    }
    const std::optional<YAML::Node> sequence = Member(*response, "sequence", at);
    if (results.size() == 1) {
      std::string inline_difference = Difference(*response, *results.front(), at, 1);
      if (inline_difference.empty()) return;
      if (!sequence) {
        Add(std::move(inline_difference));
        return;
      }
    }
    if (!sequence) {
      Add(Child(at, "sequence") + ": missing, expected " + k + " results; found response " +
          Describe(*response));
      return;
    }
    Sequence(*sequence, results, Child(at, "sequence"));
  }

  void Sequence(const YAML::Node& sequence, const std::vector<const json::Value*>& results,
                const std::string& path) {
    if (!sequence.IsSequence()) {
      Add(path + ": expected " + std::to_string(results.size()) + " results, found " +
          Describe(sequence));
      return;
    }
    if (sequence.size() != results.size()) {
      Add(path + ": " + std::to_string(sequence.size()) + " results, expected " +
          std::to_string(results.size()));
    }
    std::size_t i = 0;
    for (auto item = sequence.begin(); item != sequence.end() && i < results.size(); ++item, ++i) {
      if (std::string d = Difference(*item, *results[i], Index(path, i), 1); !d.empty()) {
        Add(std::move(d));
      }
    }
  }

  void Phased(const YAML::Node& root, const ConvertExpectation& expected) {
    const std::optional<YAML::Node> baseline = Member(root, "baseline", "");
    if (baseline && !baseline->IsMap() && !expected.baseline.empty()) {
      Add("baseline: expected a mapping with tools, found " + Describe(*baseline));
    } else {
      Tools(baseline ? Member(*baseline, "tools", "baseline") : std::nullopt, "baseline.tools",
            expected.baseline);
    }
    const std::optional<YAML::Node> phases = Member(root, "phases", "");
    if (!phases || !phases->IsSequence() || phases->size() == 0) {
      Add("phases: expected a list whose first phase advances on tools/call, found " +
          (phases ? Describe(*phases) : "nothing"));
      return;
    }
    Advance(*phases->begin(), expected.phase_after);
  }

  // phases[0].advance: {on: tools/call, count: N}, `on` a string key (YAML 1.2).
  void Advance(const YAML::Node& phase, std::uint64_t phase_after) {
    const std::optional<YAML::Node> advance = Member(phase, "advance", "phases[0]");
    if (!advance || !advance->IsMap()) {
      Add("phases[0].advance: expected a mapping with on and count, found " +
          (advance         ? Describe(*advance)
           : phase.IsMap() ? "nothing"
                           : "phases[0] " + Describe(phase)));
      return;
    }
    json::Document on, count;
    (void)on.Parse("\"tools/call\"");
    (void)count.Parse(std::to_string(phase_after));
    const std::pair<std::string_view, const json::Document*> wanted[] = {{"on", &on},
                                                                         {"count", &count}};
    for (const auto& [key, value] : wanted) {
      const std::string at = Child("phases[0].advance", key);
      const std::optional<YAML::Node> found = Member(*advance, key, "phases[0].advance");
      if (!found) {
        Add(at + ": missing, expected " + DescribeJson(value->root()));
      } else if (std::string d = Difference(*found, value->root(), at, 1); !d.empty()) {
        Add(std::move(d));
      }
    }
  }

  Problems* problems_;
  std::size_t visits_ = 0;
  bool exhausted_ = false;
};

// ---------- Documents

// yaml-cpp's events, ignored: the documents are counted without building them.
class IgnoreEvents : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// How many documents `text` holds, counting no further than 2. Not YAML::LoadAll: yaml-cpp 0.7
// reads a ',' outside any collection as an endless run of empty documents, and LoadAll keeps
// them all until memory runs out. Throws YAML::Exception when the text is not YAML.
std::size_t CountDocuments(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  IgnoreEvents ignore;
  std::size_t documents = 0;
  while (documents < 2 && parser.HandleNextDocument(ignore)) ++documents;
  return documents;
}

// ---------- The expectation

void ReadTool(const json::Value& value, const std::string& pointer, Status* status,
              ExpectedTool* out) {
  json::FieldReader f(&value, pointer, status);
  f.String("name", &out->name);
  out->definition = f.Optional("definition", json::Kind::kObject);
  f.ForEach("results", true, [&](const json::Value& result, const std::string&) {
    out->results.push_back(&result);
  });
  f.Finish();
  if (!f.ok() || !out->definition) return;
  const json::Value* name = out->definition->Find("name");
  if (name && (!name->is_string() || name->text() != out->name)) {
    f.Fail(json::MemberPointer(f.Pointer("definition"), "name"), "differs from name");
  }
}

std::vector<ExpectedTool> ReadTools(json::FieldReader* f, std::string_view name, Status* status) {
  std::vector<ExpectedTool> tools;
  f->ForEach(name, true, [&](const json::Value& item, const std::string& at) {
    ReadTool(item, at, status, &tools.emplace_back());
  });
  return tools;
}

}  // namespace

Result<ConvertExpectation> ReadConvertExpectation(const json::Value& value,
                                                  const std::string& pointer) {
  Status status;
  ConvertExpectation out;
  json::FieldReader f(&value, pointer, &status);
  std::string style;
  f.String("style", &style);
  if (f.ok() && style != "simple" && style != "phased") {
    f.Fail(f.Pointer("style"), "must be \"simple\" or \"phased\"");
  }
  if (style == "phased") {
    out.style = ExpectedStyle::kPhased;
    out.baseline = ReadTools(&f, "baseline", &status);
    f.Count("phase_after", &out.phase_after);
  } else {
    out.tools = ReadTools(&f, "tools", &status);
  }
  f.Finish();  // the other style's members are refused as unknown
  if (!status.ok()) return status;
  return out;
}

std::vector<std::string> JudgeConvert(std::string_view yaml, const ConvertExpectation& expected) {
  Problems problems;
  if (yaml.size() > kMaxYamlBytes) {
    problems.Add("not judged: the YAML is " + std::to_string(yaml.size()) + " bytes, more than " +
                 std::to_string(kMaxYamlBytes));
    return std::move(problems).Take();
  }
  if (FlowScan(yaml).Exceeds(kMaxFlowNesting)) {
    problems.Add("not judged: flow collections nest deeper than " +
                 std::to_string(kMaxFlowNesting));
    return std::move(problems).Take();
  }
  try {
    const std::string text(yaml);
    if (const std::size_t documents = CountDocuments(text); documents != 1) {
      problems.Add("expected one YAML document, found " +
                   (documents > 1 ? std::string("more") : std::string("none")));
    } else if (const YAML::Node root = YAML::Load(text); !root.IsMap()) {
      problems.Add("the document is not a mapping: " + Describe(root));
    } else {
      Judge(&problems).Run(root, expected);
    }
  } catch (const YAML::Exception& e) {
    problems.Add("not YAML: " + Quoted(e.what(), 200));
  } catch (const std::exception& e) {
    problems.Add("not judged: " + Quoted(e.what(), 200));
  }
  return std::move(problems).Take();
}

std::vector<std::string> JudgeConvert(std::string_view yaml, const json::Value& expect_convert) {
  Result<ConvertExpectation> expected = ReadConvertExpectation(expect_convert, "/expect_convert");
  if (!expected.ok()) return {"the vector's expect_convert: " + expected.status().message()};
  return JudgeConvert(yaml, *expected);
}

}  // namespace arcs::conformance::mcp_record_replay
