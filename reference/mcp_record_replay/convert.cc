#include "reference/mcp_record_replay/convert.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/keyed_hash.h"
#include "reference/core/strings.h"
#include "reference/mcp_record_replay/jsonrpc.h"

namespace arcs::mcp_record_replay {
namespace {

using json::Value;

// The writer recurses once per level; deeper values are refused rather than written (serde_json
// stops at 128, and PyYAML's composer recurses too).
constexpr std::size_t kMaxDepth = 512;
// YAML 1.1 and 1.2 limit an implicit key to 1024 characters, and PyYAML enforces it: a longer key
// is written as an explicit "? key" entry. Bytes bound characters from above.
constexpr std::size_t kMaxImplicitKeyBytes = 1000;
// The header comments quote header fields of any length; an excerpt is enough to recognise them.
constexpr std::size_t kCommentBytes = 1000;
// A recording of a million nameless tools/call requests must not make a million log lines.
constexpr std::size_t kMaxWarnings = 100;

char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// Words a YAML 1.1 reader or the YAML 1.2 core schema resolves to a boolean, a null or a float in
// some capitalisation: quoted whatever their case (errata MRR-E43: `"on"`).
bool IsReservedWord(std::string_view s) {
  static constexpr std::string_view kWords[] = {"true", "false", "yes",  "no",  "on", "off",
                                                "y",    "n",     "null", "nan", "inf"};
  if (s.size() > 5) return false;
  std::string lower(s);
  for (char& c : lower) c = AsciiLower(c);
  for (std::string_view word : kWords) {
    if (lower == word) return true;
  }
  return false;
}

// A string written plain: a letter or '_' first, then letters, digits and "_-./", and no reserved
// word. Nothing of that shape is a number, a timestamp, a boolean, a null or structure to any YAML
// reader; every other string is double-quoted.
bool IsPlainWord(std::string_view s) {
  if (s.empty() || !(IsAsciiLetter(s[0]) || s[0] == '_')) return false;
  for (char c : s) {
    if (!IsAsciiLetter(c) && !IsAsciiDigit(c) && c != '_' && c != '-' && c != '.' && c != '/') {
      return false;
    }
  }
  return !IsReservedWord(s);
}

void AppendEscapedCodePoint(unsigned code_point, std::string* out) {
  char escaped[8];
  std::snprintf(escaped, sizeof escaped, "\\u%04X", code_point);
  out->append(escaped);
}

// What a double-quoted scalar must not hold raw: C0 and C1 controls and DEL (PyYAML refuses the
// non-printable ones anywhere in a stream), U+0085, U+2028 and U+2029 (line breaks to a YAML 1.1
// reader, which would fold them into spaces), U+FEFF (a byte order mark) and U+FFFE, U+FFFF.
bool MustEscape(unsigned code_point) {
  return code_point < 0x20 || (code_point >= 0x7F && code_point <= 0x9F) || code_point == 0x2028 ||
         code_point == 0x2029 || code_point == 0xFEFF || code_point == 0xFFFE ||
         code_point == 0xFFFF;
}

// The body of a double-quoted scalar (YAML escapes common to 1.1 and 1.2): the text stays on one
// line whatever it holds. Astral characters are written as UTF-8. Ill-formed UTF-8, which the
// loader refuses, is written with U+FFFD in place of each bad byte.
void AppendEscaped(std::string_view text, std::string* out) {
  std::string repaired;
  if (!IsValidUtf8(text)) {
    repaired = ReplaceIllFormedUtf8(text);
    text = repaired;
  }
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t length = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    unsigned code_point = c;
    if (length == 2) {
      code_point = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3Fu);
    } else if (length == 3) {
      code_point = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(text[i + 1]) & 0x3Fu) << 6) |
                   (static_cast<unsigned char>(text[i + 2]) & 0x3Fu);
    } else if (length == 4) {
      code_point = 0x10000;  // astral: written as UTF-8
    }
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += static_cast<char>(c);
    } else if (c == '\n') {
      *out += "\\n";
    } else if (c == '\t') {
      *out += "\\t";
    } else if (c == '\r') {
      *out += "\\r";
    } else if (MustEscape(code_point)) {
      AppendEscapedCodePoint(code_point, out);
    } else {
      out->append(text.substr(i, length));
    }
    i += length;
  }
}

void AppendString(std::string_view text, std::string* out) {
  if (IsPlainWord(text)) {
    out->append(text);
    return;
  }
  *out += '"';
  AppendEscaped(text, out);
  *out += '"';
}

// A JSON number as its own text, except that an exponent gets a '.' in its mantissa and a sign:
// PyYAML (YAML 1.1) reads "1e3" and "1.5e3" as strings, "1.0e+3" as the float both mean. The
// value is unchanged; it never passes through a double.
void AppendNumber(std::string_view token, std::string* out) {
  const std::size_t e = token.find_first_of("eE");
  if (e == std::string_view::npos) {
    out->append(token);
    return;
  }
  const std::string_view mantissa = token.substr(0, e);
  const std::string_view exponent = token.substr(e + 1);
  out->append(mantissa);
  if (mantissa.find('.') == std::string_view::npos) *out += ".0";
  *out += token[e];
  if (exponent.empty() || (exponent[0] != '+' && exponent[0] != '-')) *out += '+';
  out->append(exponent);
}

void AppendScalar(const Value& v, std::string* out) {
  switch (v.kind()) {
    case json::Kind::kNull:
      *out += "null";
      return;
    case json::Kind::kFalse:
      *out += "false";
      return;
    case json::Kind::kTrue:
      *out += "true";
      return;
    case json::Kind::kNumber:
      AppendNumber(v.text(), out);
      return;
    case json::Kind::kString:
      AppendString(v.text(), out);
      return;
    case json::Kind::kArray:
      *out += "[]";
      return;
    case json::Kind::kObject:
      *out += "{}";
      return;
  }
}

bool IsNonEmptyCollection(const Value& v) { return !v.items().empty() || !v.members().empty(); }

// An object's members as serde_json and Python read them (errata MRR-E24, last-wins): a repeated
// name once, at its first place, with its last value.
std::vector<const json::Member*> KeptMembers(const Value& object) {
  std::vector<const json::Member*> kept;
  KeyedStringViewMap<std::size_t> at;
  for (const json::Member& m : object.members()) {
    auto [it, added] = at.emplace(m.name, kept.size());
    if (added) {
      kept.push_back(&m);
    } else {
      kept[it->second] = &m;
    }
  }
  return kept;
}

Status TooDeep() {
  return Status(StatusCode::kLimitExceeded, "a value nests deeper than " +
                                                std::to_string(kMaxDepth) +
                                                " levels: more than the converter writes as YAML");
}

// Block-style YAML, a line at a time. Entries are written "key:" or "-" first, then their value,
// which either ends the line (a scalar, {} or []) or continues on the lines below.
class YamlWriter {
 public:
  std::string Take() && { return std::move(out_); }

  void Comment(std::size_t column, std::string_view text) {
    Indent(column);
    out_ += '#';
    if (!text.empty()) {
      out_ += ' ';
      AppendEscaped(Excerpt(text, kCommentBytes), &out_);
    }
    out_ += '\n';
  }
  void Blank() { out_ += '\n'; }
  void EndLine() { out_ += '\n'; }
  void Raw(std::string_view text) { out_ += text; }

  // "key:" at `column`, the line left open for the value.
  void Key(std::size_t column, std::string_view key) {
    Indent(column);
    std::string written;
    AppendString(key, &written);
    if (written.size() <= kMaxImplicitKeyBytes) {
      out_ += written;
    } else {
      out_ += "? ";
      out_ += written;
      out_ += '\n';
      out_.append(column, ' ');
    }
    out_ += ':';
  }
  // "key: text" as a YAML string.
  void StringEntry(std::size_t column, std::string_view key, std::string_view text) {
    Key(column, key);
    out_ += ' ';
    AppendString(text, &out_);
    out_ += '\n';
  }
  // "- " at `column`; the next Key is written on the same line.
  void Item(std::size_t column) {
    Indent(column);
    out_ += "- ";
    inline_ = true;
  }

  // "-" at `column`, the line left open for the item's value.
  void Dash(std::size_t column) {
    Indent(column);
    out_ += '-';
  }

  // The value of the open "key:" (after_dash false) or "-" (true) at `column`.
  Status Value(const json::Value& v, std::size_t column, bool after_dash, std::size_t depth = 1) {
    if (depth > kMaxDepth) return TooDeep();
    if (!IsNonEmptyCollection(v)) {
      out_ += ' ';
      AppendScalar(v, &out_);
      out_ += '\n';
      return Status::Ok();
    }
    if (after_dash) {
      out_ += ' ';
      inline_ = true;  // "- name: x" and "- - x": the first entry on the dash's line
    } else {
      out_ += '\n';
    }
    return Body(v, column + 2, depth);
  }

  // The entries of a non-empty object or array, at `column`.
  Status Body(const json::Value& v, std::size_t column, std::size_t depth) {
    if (v.is_object()) {
      for (const json::Member* m : KeptMembers(v)) {
        Key(column, m->name);
        if (Status s = Value(m->value, column, false, depth + 1); !s.ok()) return s;
      }
      return Status::Ok();
    }
    for (const json::Value& item : v.items()) {
      Dash(column);
      if (Status s = Value(item, column, true, depth + 1); !s.ok()) return s;
    }
    return Status::Ok();
  }

 private:
  void Indent(std::size_t column) {
    if (inline_) {
      inline_ = false;
    } else {
      out_.append(column, ' ');
    }
  }

  bool inline_ = false;
  std::string out_;
};

class Warnings {
 public:
  void Add(std::string warning) {
    if (list_.size() < kMaxWarnings) {
      list_.push_back(std::move(warning));
    } else {
      ++dropped_;
    }
  }
  std::vector<std::string> Take() && {
    if (dropped_ > 0) list_.push_back(std::to_string(dropped_) + " more warnings not listed");
    return std::move(list_);
  }

 private:
  std::vector<std::string> list_;
  std::size_t dropped_ = 0;
};

// What convert reads of MCP: a list method whose result holds the definitions, and the method
// whose requests name one of them (by key_member in params) and whose results are its responses.
struct Family {
  std::string_view list_method;
  std::string_view list_member;  // of the list's result: "tools"
  std::string_view call_method;
  std::string_view key_member;  // of a definition and of the call's params: "name"
  std::string_view item;        // the YAML key of a definition: "tool"
};
constexpr std::size_t kTools = 0;
constexpr std::size_t kNoFamily = 3;
constexpr std::array<Family, 3> kFamilies = {{
    {"tools/list", "tools", "tools/call", "name", "tool"},
    {"resources/list", "resources", "resources/read", "uri", "resource"},
    {"prompts/list", "prompts", "prompts/get", "name", "prompt"},
}};

// A call request, in request order.
struct Call {
  std::optional<std::string> key;     // params.name (uri); none when not a string
  std::optional<std::size_t> result;  // the message index of its response, when it has a result
};

// What a client request asks for, kept until its response: a list, a call, or nothing convert
// reads (kNoFamily).
struct Asked {
  std::size_t family = kNoFamily;
  bool list = false;
  std::size_t call = 0;  // in the family's calls
};

// Null pairs with nothing (JSON-RPC's unknown id); ids of other kinds break JSON-RPC and are
// left unpaired too.
bool Pairs(const Value& id) { return id.is_string() || id.is_number(); }

// A tool (resource, prompt) as written: its definition, and the message indexes of its results.
struct Entry {
  std::string key;
  const Value* definition = nullptr;  // nullptr: inferred from calls (EC-REC-010)
  std::vector<std::size_t> results;   // in call order
  std::vector<std::size_t> baseline;  // the results among the first phase_after tools/call
};

std::string SeqLabel(const RecordedMessage& m) { return "seq " + std::to_string(m.seq); }

class Converter {
 public:
  Converter(const LoadedRecording& recording, const RandomAccessSource& lines,
            const ConvertOptions& options)
      : recording_(recording), lines_(lines), options_(options) {}

  Result<Converted> Run(std::string_view source_name) && {
    if (Status s = Scan(); !s.ok()) return s;
    for (std::size_t f = 0; f < kFamilies.size(); ++f) entries_[f] = Entries(f);
    Header(source_name);
    Server();
    Status s = options_.style == ConvertStyle::kPhased ? Phased() : Simple();
    for (std::size_t f = 1; s.ok() && f < kFamilies.size(); ++f) {
      if (!entries_[f].empty()) s = Section(f, kFamilies[f].list_member, 0, false);
    }
    if (!s.ok()) return s;
    std::string yaml = std::move(yaml_).Take();
    while (yaml.ends_with("\n\n")) yaml.pop_back();  // sections end with a blank line
    return Converted{std::move(yaml), std::move(warnings_).Take()};
  }

 private:
  // Reads every client request and server response once: the calls in request order, which
  // response answers which (errata MRR-E28), and the first list response of each family.
  Status Scan() {
    json::Document line;
    for (std::size_t i = 0; i < recording_.messages.size(); ++i) {
      const RecordedMessage& m = recording_.messages[i];
      const bool request = m.dir == Direction::kClientToServer && m.kind == MessageKind::kRequest;
      const bool response = m.dir == Direction::kServerToClient &&
                            (m.kind == MessageKind::kResponse || m.kind == MessageKind::kError);
      if (!request && !response) continue;
      if (Status s = ReadMessageLine(lines_, m, &line); !s.ok()) return s;
      const Value* msg = line.root().Find("msg");
      if (!msg || !msg->is_object()) continue;
      if (request) {
        ClientRequest(*msg, m);
      } else if (const std::size_t f = ServerResponse(*msg, m, i); f != kNoFamily) {
        lists_[f] = std::move(line);
        line = json::Document();
      }
    }
    return Status::Ok();
  }

  // Inside msg a repeated name holds its last value (errata MRR-E24): FindLast throughout.
  void ClientRequest(const Value& msg, const RecordedMessage& m) {
    const Value* id = msg.FindLast("id");
    const Value* method = msg.FindLast("method");
    if (!id || !method || !method->is_string()) return;
    Asked asked;
    for (std::size_t f = 0; f < kFamilies.size(); ++f) {
      const Family& family = kFamilies[f];
      if (method->text() == family.list_method) {
        asked = {f, true, 0};
      } else if (method->text() == family.call_method) {
        asked = {f, false, calls_[f].size()};
        calls_[f].push_back({CallKey(msg, family, m), std::nullopt});
      }
    }
    if (!Pairs(*id)) return;
    pending_.Add(*id, asked_.size());
    asked_.push_back(asked);
  }

  std::optional<std::string> CallKey(const Value& msg, const Family& family,
                                     const RecordedMessage& m) {
    const Value* params = msg.FindLast("params");
    const Value* key =
        params && params->is_object() ? params->FindLast(family.key_member) : nullptr;
    if (key && key->is_string()) return std::string(key->text());
    warnings_.Add(std::string(family.call_method) + " at " + SeqLabel(m) +
                  " has no string params." + std::string(family.key_member) + ": skipped");
    return std::nullopt;
  }

  // The family whose first list response this is (its line is then kept), else kNoFamily.
  std::size_t ServerResponse(const Value& msg, const RecordedMessage& m, std::size_t index) {
    const Value* id = msg.FindLast("id");
    if (!id || !Pairs(*id)) return kNoFamily;
    const std::optional<std::uint64_t> waiting = pending_.Take(*id);
    if (!waiting) return kNoFamily;
    const Asked& p = asked_[*waiting];
    // An error response consumes its request and gives no result (errata MRR-E44).
    if (p.family == kNoFamily || m.kind != MessageKind::kResponse) return kNoFamily;
    if (!p.list) {
      calls_[p.family][p.call].result = index;
      return kNoFamily;
    }
    const Family& family = kFamilies[p.family];
    if (ListArray(msg, family)) {
      if (!lists_[p.family].root().is_null()) {
        warnings_.Add("a further " + std::string(family.list_method) + " response at " +
                      SeqLabel(m) + ": the first is used");
        return kNoFamily;
      }
      return p.family;
    }
    warnings_.Add(std::string(family.list_method) + " response at " + SeqLabel(m) +
                  " has no result." + std::string(family.list_member) + " array: passed over");
    return kNoFamily;
  }

  static const Value* ListArray(const Value& msg, const Family& family) {
    const Value* result = msg.FindLast("result");
    const Value* list = result ? result->FindLast(family.list_member) : nullptr;
    return list && list->is_array() ? list : nullptr;
  }

  // The definitions of the list response in order, or without one those the calls name in order
  // of first call (EC-REC-010); each with its results.
  std::vector<Entry> Entries(std::size_t f) {
    const Family& family = kFamilies[f];
    std::vector<Entry> entries;
    KeyedStringMap<std::size_t> by_key;
    const Value* msg = lists_[f].root().Find("msg");
    const Value* listed = msg ? ListArray(*msg, family) : nullptr;
    if (listed) {
      for (const Value& item : listed->items()) {
        const Value* key = item.is_object() ? item.FindLast(family.key_member) : nullptr;
        if (!key || !key->is_string()) {
          warnings_.Add("an item of the " + std::string(family.list_method) +
                        " response without a string " + std::string(family.key_member) +
                        ": left out");
        } else if (!by_key.emplace(key->text(), entries.size()).second) {
          warnings_.Add(std::string(family.list_method) + " lists " + Quoted(key->text(), 80) +
                        " twice: the first is used");
        } else {
          entries.push_back({std::string(key->text()), &item, {}, {}});
        }
      }
    } else if (!calls_[f].empty()) {
      warnings_.Add("no " + std::string(family.list_method) + " response (EC-REC-010): " +
                    std::string(family.list_member) + " inferred from the " +
                    std::string(family.call_method) + " requests, without their schemas");
    }
    AddResults(f, listed != nullptr, &entries, &by_key);
    return entries;
  }

  void AddResults(std::size_t f, bool listed, std::vector<Entry>* entries,
                  KeyedStringMap<std::size_t>* by_key) {
    const Family& family = kFamilies[f];
    std::set<std::string> unlisted;
    for (std::size_t c = 0; c < calls_[f].size(); ++c) {
      const Call& call = calls_[f][c];
      if (!call.key) continue;
      auto it = by_key->find(*call.key);
      if (it == by_key->end() && listed) {
        if (unlisted.insert(*call.key).second) {
          warnings_.Add(std::string(family.call_method) + " of " + Quoted(*call.key, 80) +
                        ", which " + std::string(family.list_method) + " did not list: left out");
        }
        continue;
      }
      if (it == by_key->end()) {
        it = by_key->emplace(*call.key, entries->size()).first;
        entries->push_back({*call.key, nullptr, {}, {}});
      }
      if (!call.result) continue;
      Entry& entry = (*entries)[it->second];
      entry.results.push_back(*call.result);
      // calls-overall (errata MRR-E44): the first N tools/call requests of the session.
      if (f == kTools && c < options_.phase_after) entry.baseline.push_back(*call.result);
    }
  }

  void Header(std::string_view source_name) {
    const bool phased = options_.style == ConvertStyle::kPhased;
    yaml_.Comment(
        0, "Auto-generated from " + std::string(source_name) + (phased ? " (phased style)" : ""));
    if (phased) {
      yaml_.Comment(
          0, "Phase transition after " + std::to_string(options_.phase_after) + " tool calls");
    }
    yaml_.Comment(0, "Recorded: " + recording_.header.recorded_at);
    yaml_.Comment(0, "Upstream: " + recording_.header.upstream);
    yaml_.Comment(0, "");
    yaml_.Comment(0, phased ? "To add injection, edit the responses under phases[0].replace_tools."
                            : "To add injection, edit the response.content fields below.");
    yaml_.Blank();
  }

  void Server() {
    yaml_.Key(0, "server");
    yaml_.EndLine();
    yaml_.StringEntry(2, "name", "replay-session");
    yaml_.StringEntry(2, "version", "1.0.0");
    if (options_.style == ConvertStyle::kPhased) {
      yaml_.Key(2, "capabilities");
      yaml_.EndLine();
      yaml_.Key(4, "tools");
      yaml_.EndLine();
      yaml_.Key(6, "listChanged");
      yaml_.Raw(" true\n");
    }
    yaml_.Blank();
  }

  Status Simple() { return Section(kTools, "tools", 0, false); }

  Status Phased() {
    yaml_.Key(0, "baseline");
    yaml_.EndLine();
    if (Status s = Section(kTools, "tools", 2, true); !s.ok()) return s;
    yaml_.Key(0, "phases");
    yaml_.EndLine();
    yaml_.Item(2);
    yaml_.StringEntry(4, "name", "attack");
    yaml_.Key(4, "advance");
    yaml_.EndLine();
    yaml_.StringEntry(6, "on", "tools/call");
    yaml_.Key(6, "count");
    yaml_.Raw(" " + std::to_string(options_.phase_after) + "\n");
    yaml_.Blank();
    yaml_.Comment(4, "TODO: Replace with malicious responses");
    return ReplaceTools(4);
  }

  // Each tool with a result, with its last one: the response to edit into the attack.
  Status ReplaceTools(std::size_t column) {
    yaml_.Key(column, "replace_tools");
    bool any = false;
    for (const Entry& entry : entries_[kTools]) {
      if (entry.results.empty()) continue;
      if (!any) yaml_.EndLine();
      any = true;
      yaml_.Key(column + 2, entry.key);
      yaml_.EndLine();
      if (Status s = Definition(kFamilies[kTools], entry, column + 4); !s.ok()) return s;
      yaml_.Key(column + 4, "response");
      if (Status s = WriteResult(entry.results.back(), column + 4, false); !s.ok()) return s;
    }
    if (!any) yaml_.Raw(" {}\n");
    return Status::Ok();
  }

  // `name:` at `column` and the family's entries, each with its results (the baseline ones in the
  // phased style's baseline).
  Status Section(std::size_t f, std::string_view name, std::size_t column, bool baseline) {
    const Family& family = kFamilies[f];
    const std::vector<Entry>& entries = entries_[f];
    yaml_.Key(column, name);
    if (entries.empty()) {
      yaml_.Raw(" []\n\n");
      return Status::Ok();
    }
    yaml_.EndLine();
    yaml_.Comment(column + 2,
                  entries.front().definition
                      ? "Extracted from " + std::string(family.list_method) + " response"
                      : "Inferred from " + std::string(family.call_method) + " requests (no " +
                            std::string(family.list_method) + " response: schemas missing)");
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) yaml_.Blank();
      yaml_.Item(column + 2);
      if (Status s = Definition(family, entries[i], column + 4); !s.ok()) return s;
      Status s = WriteResponse(baseline ? entries[i].baseline : entries[i].results, column + 4,
                               baseline ? "Responses from the first " +
                                              std::to_string(options_.phase_after) +
                                              " tool calls (benign phase)"
                                        : "All observed responses (in call order)");
      if (!s.ok()) return s;
    }
    yaml_.Blank();
    return Status::Ok();
  }

  Status Definition(const Family& family, const Entry& entry, std::size_t column) {
    yaml_.Key(column, family.item);
    if (entry.definition) return yaml_.Value(*entry.definition, column, false);
    yaml_.EndLine();
    yaml_.StringEntry(column + 2, family.key_member, entry.key);
    return Status::Ok();
  }

  // No results: no response. One: inline, as the example's list_directory (unless the result
  // itself has a `sequence` member, which a reader would take for a sequence). More: a sequence.
  Status WriteResponse(const std::vector<std::size_t>& results, std::size_t column,
                       std::string_view comment) {
    if (results.empty()) return Status::Ok();
    json::Document line;
    const Value* result = nullptr;
    if (results.size() == 1) {
      if (Status s = ReadResult(results.front(), &line, &result); !s.ok()) return s;
      if (!result->is_object() || !result->FindLast("sequence")) {
        yaml_.Key(column, "response");
        return yaml_.Value(*result, column, false);
      }
    }
    yaml_.Key(column, "response");
    yaml_.EndLine();
    yaml_.Comment(column + 2, comment);
    yaml_.Key(column + 2, "sequence");
    yaml_.EndLine();
    for (std::size_t message : results) {
      yaml_.Dash(column + 4);
      if (Status s = WriteResult(message, column + 4, true); !s.ok()) return s;
    }
    yaml_.StringEntry(column + 2, "on_exhausted", "last");
    return Status::Ok();
  }

  // The result of the response at `message`, as the value of the open key or dash.
  Status WriteResult(std::size_t message, std::size_t column, bool after_dash) {
    json::Document line;
    const Value* result = nullptr;
    if (Status s = ReadResult(message, &line, &result); !s.ok()) return s;
    return yaml_.Value(*result, column, after_dash);
  }

  Status ReadResult(std::size_t message, json::Document* line, const Value** result) {
    if (Status s = ReadMessageLine(lines_, recording_.messages[message], line); !s.ok()) return s;
    const Value* msg = line->root().Find("msg");
    *result = msg ? msg->FindLast("result") : nullptr;
    if (!*result) {
      return Status(StatusCode::kIoError, "a recorded line changed while it was converted");
    }
    return Status::Ok();
  }

  const LoadedRecording& recording_;
  const RandomAccessSource& lines_;
  const ConvertOptions& options_;
  Warnings warnings_;
  PendingIds pending_;  // client requests waiting, each an index in asked_
  std::vector<Asked> asked_;
  std::array<std::vector<Call>, kFamilies.size()> calls_;
  std::array<json::Document, kFamilies.size()> lists_;  // the first list response's line
  std::array<std::vector<Entry>, kFamilies.size()> entries_;
  YamlWriter yaml_;
};

}  // namespace

Result<Converted> Convert(const LoadedRecording& recording, const RandomAccessSource& lines,
                          const ConvertOptions& options, std::string_view source_name) {
  return Converter(recording, lines, options).Run(source_name);
}

Result<std::string> JsonAsYaml(const json::Value& value) {
  YamlWriter yaml;
  if (IsNonEmptyCollection(value)) {
    if (Status s = yaml.Body(value, 0, 1); !s.ok()) return s;
  } else {
    std::string scalar;
    AppendScalar(value, &scalar);
    yaml.Raw(scalar + "\n");
  }
  return std::move(yaml).Take();
}

}  // namespace arcs::mcp_record_replay
