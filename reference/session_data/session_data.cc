#include "reference/session_data/session_data.h"

#include <algorithm>
#include <cstdlib>
#include <span>

#include "reference/core/json_fields.h"
#include "reference/core/json_schema.h"
#include "reference/core/keyed_hash.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::session_data {
namespace {

using json::Member;
using json::PathStep;
using json::Value;

// The requirements the file-level findings cite.
constexpr std::string_view kJsonRule = "SD-JSON-1";      // one JSON text, UTF-8
constexpr std::string_view kRepeatedRule = "SD-JSON-2";  // RFC 8259 §4: names SHOULD be unique
constexpr std::string_view kLimitRule = "SD-JSON-3";     // ARCS's limits
constexpr std::string_view kUniqueExchangeRule = "SD-NOTES-8";
constexpr std::string_view kAbsoluteRootRule = "SD-TOP-15";
constexpr std::string_view kSlugRule = "SD-TOP-14";

constexpr std::string_view kValidateRules[] = {
    "SD-VALIDATE-1", "SD-VALIDATE-2", "SD-VALIDATE-3", "SD-VALIDATE-4", "SD-VALIDATE-5",
    "SD-VALIDATE-6", "SD-VALIDATE-7", "SD-VALIDATE-8", "SD-VALIDATE-9", "SD-VALIDATE-10"};
constexpr std::string_view kToolTypes[] = {"write", "read",    "search", "shell",
                                           "task",  "generic", "unknown"};

// ---------------------------------------------------------------------------------------------
// encoding/json.

// The Go fields of each type, by JSON name, and the requirement a value of the wrong type cites.
constexpr std::string_view kSessionFields[] = {"schemaVersion", "provider",  "sessionId",
                                               "createdAt",     "updatedAt", "slug",
                                               "workspaceRoot", "exchanges"};
constexpr std::string_view kSessionRules[] = {"SD-TOP-1", "SD-TOP-2", "SD-TOP-3", "SD-TOP-4",
                                              "SD-TOP-5", "SD-TOP-6", "SD-TOP-7", "SD-TOP-8"};
constexpr std::string_view kProviderFields[] = {"id", "name", "version"};
constexpr std::string_view kProviderRules[] = {"SD-PROVIDER-1", "SD-PROVIDER-2", "SD-PROVIDER-3"};
constexpr std::string_view kExchangeFields[] = {"exchangeId", "startTime", "endTime", "messages",
                                                "metadata"};
constexpr std::string_view kExchangeRules[] = {"SD-EXCHANGE-1", "SD-EXCHANGE-2", "SD-EXCHANGE-3",
                                               "SD-EXCHANGE-4", "SD-EXCHANGE-5"};
constexpr std::string_view kMessageFields[] = {"id",      "timestamp", "role",      "model",
                                               "content", "tool",      "pathHints", "metadata"};
constexpr std::string_view kMessageRules[] = {"SD-MESSAGE-1", "SD-MESSAGE-2", "SD-MESSAGE-3",
                                              "SD-MESSAGE-4", "SD-MESSAGE-5", "SD-MESSAGE-6",
                                              "SD-MESSAGE-7", "SD-MESSAGE-8"};
constexpr std::string_view kContentFields[] = {"type", "text"};
constexpr std::string_view kContentRules[] = {"SD-CONTENT-1", "SD-CONTENT-2"};
constexpr std::string_view kToolFields[] = {
    "name", "type", "useId", "input", "output", "summary", "formattedMarkdown"};
constexpr std::string_view kToolRules[] = {"SD-TOOL-1", "SD-TOOL-2", "SD-TOOL-3", "SD-TOOL-4",
                                           "SD-TOOL-5", "SD-TOOL-6", "SD-TOOL-7"};

// Whether a member name matches a field name as encoding/json's fallback does (bytes.EqualFold:
// Unicode simple folding). Field names are ASCII, and the only other runes that fold to ASCII
// letters are U+017F LONG S (to S) and U+212A KELVIN SIGN (to K).
bool FoldEqual(std::string_view name, std::string_view field) {
  std::size_t i = 0;
  for (char f : field) {
    if (i >= name.size()) return false;
    const auto upper = [](char c) { return c >= 'a' && c <= 'z' ? char(c - 32) : c; };
    char c = name[i];
    if (name.substr(i, 2) == "\xC5\xBF") {
      c = 'S', i += 2;
    } else if (name.substr(i, 3) == "\xE2\x84\xAA") {
      c = 'K', i += 3;
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      return false;
    } else {
      ++i;
    }
    if (upper(c) != upper(f)) return false;
  }
  return i == name.size();
}

// Decodes a parsed file into the spec's Go types as encoding/json does, collecting a finding for
// every value of the wrong JSON type (Unmarshal goes on and returns the first; ARCS lists all).
class GoDecoder {
 public:
  // fold: names matched as encoding/json matches them (errata SD-E10's go-folding), else exactly.
  GoDecoder(std::vector<Finding>* errors, bool fold) : errors_(errors), fold_(fold) {}

  // Whether a member filled a field by a folded match (the exact-names reading ignores it).
  bool folded() const { return folded_; }

  void DecodeSession(const Value& object, Session* s, const PathStep& path) {
    std::string_view* const strings[] = {&s->schema_version, nullptr,        &s->session_id,
                                         &s->created_at,     &s->updated_at, &s->slug,
                                         &s->workspace_root};
    for (const Member& m : object.members()) {
      const int f = MatchField(m.name, kSessionFields);
      const PathStep at(path, m.name);
      if (f < 0) continue;  // unknown members are ignored
      if (f == 1) {
        Struct(m.value, &s->provider, kSessionRules[f], at, &GoDecoder::DecodeProvider);
      } else if (f == 7) {
        Slice(m.value, &s->exchanges, kSessionRules[f], at, &GoDecoder::DecodeExchange);
      } else {
        String(m.value, strings[f], kSessionRules[f], at);
      }
    }
  }

 private:
  // The field a member fills: the one named exactly, else one named so when folded; -1 for none.
  int MatchField(std::string_view name, std::span<const std::string_view> fields) {
    for (std::size_t k = 0; k < fields.size(); ++k) {
      if (SameBytes(fields[k], name)) return static_cast<int>(k);
    }
    for (std::size_t k = 0; fold_ && k < fields.size(); ++k) {
      if (FoldEqual(name, fields[k])) {
        folded_ = true;
        return static_cast<int>(k);
      }
    }
    return -1;
  }

  template <typename T>
  using StructDecoder = void (GoDecoder::*)(const Value&, T*, const PathStep&);

  void WrongType(const Value& v, std::string_view rule, const PathStep& at, std::string_view go) {
    errors_->push_back({Statement::kRules, std::string(rule), "", "", at.ToPointer(), 0, false,
                        "a JSON " + std::string(json::KindName(v.kind())) +
                            " where the Go type is " + std::string(go) +
                            ": encoding/json cannot decode it (an UnmarshalTypeError)"});
  }

  // null leaves a string as it was.
  void String(const Value& v, std::string_view* out, std::string_view rule, const PathStep& at) {
    if (v.is_string()) {
      *out = v.text();
    } else if (!v.is_null()) {
      WrongType(v, rule, at, "string");
    }
  }

  // *string: null makes it nil.
  void OptionalString(const Value& v, std::optional<std::string_view>* out, std::string_view rule,
                      const PathStep& at) {
    if (v.is_null()) {
      out->reset();
    } else if (v.is_string()) {
      *out = v.text();
    } else {
      WrongType(v, rule, at, "*string");
    }
  }

  // A struct decodes an object into what it holds already; null leaves it as it was.
  template <typename T>
  void Struct(const Value& v, T* out, std::string_view rule, const PathStep& at,
              StructDecoder<T> decode) {
    if (v.is_object()) {
      (this->*decode)(v, out, at);
    } else if (!v.is_null()) {
      WrongType(v, rule, at, "a struct");
    }
  }

  // A slice is replaced by the array's elements, each decoded into a zero value; null makes it
  // nil.
  template <typename T>
  void Slice(const Value& v, std::vector<T>* out, std::string_view rule, const PathStep& at,
             StructDecoder<T> decode) {
    if (!v.is_array()) {
      if (v.is_null()) out->clear();
      if (!v.is_null()) WrongType(v, rule, at, "a slice");
      return;
    }
    out->assign(v.items().size(), T{});
    std::size_t i = 0;
    for (const Value& item : v.items()) {
      Struct(item, &(*out)[i], rule, PathStep(at, i), decode);
      ++i;
    }
  }

  void StringSlice(const Value& v, std::vector<std::string_view>* out, std::string_view rule,
                   const PathStep& at) {
    if (!v.is_array()) {
      if (v.is_null()) out->clear();
      if (!v.is_null()) WrongType(v, rule, at, "[]string");
      return;
    }
    out->assign(v.items().size(), {});
    std::size_t i = 0;
    for (const Value& item : v.items()) {
      String(item, &(*out)[i], rule, PathStep(at, i));
      ++i;
    }
  }

  // map[string]interface{}: any object, its numbers as float64; null makes it nil.
  void Map(const Value& v, const Value** out, std::string_view rule, const PathStep& at) {
    if (v.is_null()) {
      *out = nullptr;
    } else if (!v.is_object()) {
      WrongType(v, rule, at, "map[string]interface{}");
    } else if (std::string number; !NumbersFit(v, &number)) {
      errors_->push_back({Statement::kRules, std::string(rule), "", "", at.ToPointer(), 0, false,
                          "the number " + Excerpt(number, 40) +
                              " is beyond float64, as which encoding/json decodes a number in "
                              "interface{} (an UnmarshalTypeError; errata SD-E14)",
                          "SD-E14"});
    } else {
      *out = &v;
    }
  }

  // Whether every number inside `v` fits a float64; *bad is the first that does not. Iterative:
  // a map holds any JSON, as deep as the parser allows. The stack is kept from map to map: one
  // allocated for each was a sixth of the decoder's instructions.
  bool NumbersFit(const Value& v, std::string* bad) {
    std::vector<const Value*>& pending = numbers_pending_;
    pending.assign(1, &v);
    while (!pending.empty()) {
      const Value* x = pending.back();
      pending.pop_back();
      // Go's ParseFloat refuses a number beyond float64's range (an UnmarshalTypeError); one that
      // underflows becomes 0 without error, as json::ToDouble reads it.
      if (x->is_number() && !json::IsWithinDoubles(*x)) {
        *bad = x->text();
        return false;
      }
      for (const Value& item : x->items()) pending.push_back(&item);
      for (const Member& m : x->members()) pending.push_back(&m.value);
    }
    return true;
  }

  void DecodeProvider(const Value& object, ProviderInfo* p, const PathStep& path) {
    std::string_view* const strings[] = {&p->id, &p->name, &p->version};
    for (const Member& m : object.members()) {
      const int f = MatchField(m.name, kProviderFields);
      if (f >= 0) String(m.value, strings[f], kProviderRules[f], PathStep(path, m.name));
    }
  }

  void DecodeExchange(const Value& object, Exchange* x, const PathStep& path) {
    std::string_view* const strings[] = {&x->exchange_id, &x->start_time, &x->end_time};
    const Value* metadata = nullptr;
    for (const Member& m : object.members()) {
      const int f = MatchField(m.name, kExchangeFields);
      const PathStep at(path, m.name);
      if (f < 0) continue;
      if (f == 3) {
        Slice(m.value, &x->messages, kExchangeRules[f], at, &GoDecoder::DecodeMessage);
      } else if (f == 4) {
        Map(m.value, &metadata, kExchangeRules[f], at);
      } else {
        String(m.value, strings[f], kExchangeRules[f], at);
      }
    }
  }

  void DecodeMessage(const Value& object, Message* msg, const PathStep& path) {
    std::string_view* const strings[] = {&msg->id, &msg->timestamp, &msg->role, &msg->model};
    const Value* metadata = nullptr;
    for (const Member& m : object.members()) {
      const int f = MatchField(m.name, kMessageFields);
      const PathStep at(path, m.name);
      if (f < 0) continue;
      if ((f == 4 || f == 6) && m.value.is_array() && m.value.items().empty()) {
        msg->empty_array_written = true;
      }
      if (f == 4) {
        Slice(m.value, &msg->content, kMessageRules[f], at, &GoDecoder::DecodeContentPart);
      } else if (f == 5) {
        Tool(m.value, &msg->tool, kMessageRules[f], at);
      } else if (f == 6) {
        StringSlice(m.value, &msg->path_hints, kMessageRules[f], at);
      } else if (f == 7) {
        Map(m.value, &metadata, kMessageRules[f], at);
      } else {
        String(m.value, strings[f], kMessageRules[f], at);
      }
    }
  }

  // *ToolInfo: an object decodes into the struct it points to (a new one when nil); null makes it
  // nil.
  void Tool(const Value& v, std::optional<ToolInfo>* out, std::string_view rule,
            const PathStep& at) {
    if (v.is_null()) {
      out->reset();
    } else if (!v.is_object()) {
      WrongType(v, rule, at, "*ToolInfo");
    } else {
      if (!*out) out->emplace();
      DecodeTool(v, &**out, at);
    }
  }

  void DecodeContentPart(const Value& object, ContentPart* c, const PathStep& path) {
    std::string_view* const strings[] = {&c->type, &c->text};
    for (const Member& m : object.members()) {
      const int f = MatchField(m.name, kContentFields);
      if (f >= 0) String(m.value, strings[f], kContentRules[f], PathStep(path, m.name));
    }
  }

  void DecodeTool(const Value& object, ToolInfo* t, const PathStep& path) {
    std::string_view* const strings[] = {&t->name, &t->type, &t->use_id};
    for (const Member& m : object.members()) {
      const int f = MatchField(m.name, kToolFields);
      const PathStep at(path, m.name);
      if (f < 0) continue;
      if (f <= 2) {
        String(m.value, strings[f], kToolRules[f], at);
      } else if (f <= 4) {
        Map(m.value, f == 3 ? &t->input : &t->output, kToolRules[f], at);
      } else {
        OptionalString(m.value, f == 5 ? &t->summary : &t->formatted_markdown, kToolRules[f], at);
      }
    }
  }

  std::vector<Finding>* errors_;
  bool fold_;
  bool folded_ = false;
  std::vector<const Value*> numbers_pending_;  // NumbersFit's stack
};

// ---------------------------------------------------------------------------------------------
// Validate(): the Validation list on the decoded session. Empty slices and "" are absent, as
// upstream codes it (errata SD-E15); "non-empty content" is the array's length (SD-E16).

class Validator {
 public:
  explicit Validator(std::vector<Finding>* out) : out_(out) {}

  void Run(const Session& s) {
    const PathStep root;
    if (s.schema_version != "1.0") {
      Add(0, PathStep(root, "schemaVersion"),
          "schemaVersion is " + Quoted(s.schema_version) + ", not \"1.0\"");
    }
    const PathStep provider(root, "provider");
    NonEmpty(1, s.provider.id, PathStep(provider, "id"));
    NonEmpty(1, s.provider.name, PathStep(provider, "name"));
    NonEmpty(1, s.provider.version, PathStep(provider, "version"));
    NonEmpty(2, s.session_id, PathStep(root, "sessionId"));
    NonEmpty(2, s.created_at, PathStep(root, "createdAt"));
    NonEmpty(2, s.workspace_root, PathStep(root, "workspaceRoot"));
    const PathStep exchanges(root, "exchanges");
    for (std::size_t i = 0; i < s.exchanges.size(); ++i) {
      const Exchange& x = s.exchanges[i];
      const PathStep at(exchanges, i);
      NonEmpty(3, x.exchange_id, PathStep(at, "exchangeId"));
      const PathStep messages(at, "messages");
      for (std::size_t j = 0; j < x.messages.size(); ++j) {
        Check(x.messages[j], PathStep(messages, j));
      }
    }
  }

 private:
  void Add(int rule, const PathStep& at, std::string message, std::string reading = "") {
    out_->push_back({Statement::kRules, std::string(kValidateRules[rule]), "", "", at.ToPointer(),
                     0, false, std::move(message), std::move(reading)});
  }

  void NonEmpty(int rule, std::string_view value, const PathStep& at) {
    if (value.empty()) Add(rule, at, at.ToPointer().substr(1) + " must be non-empty");
  }

  void Check(const Message& m, const PathStep& at) {
    const bool user = SameBytes(m.role, "user");
    const bool agent = SameBytes(m.role, "agent");
    if (!user && !agent) {
      Add(4, PathStep(at, "role"), "role is " + Quoted(m.role) + ", not \"user\" or \"agent\"");
    }
    if (user && m.content.empty()) Add(5, PathStep(at, "content"), "a user message needs content");
    if (user && m.tool) Add(5, PathStep(at, "tool"), "a user message cannot have a tool");
    if (user && !m.model.empty())
      Add(5, PathStep(at, "model"), "a user message cannot have a model");
    if (agent && m.content.empty() && !m.tool && m.path_hints.empty()) {
      // A member written [] is there in the JSON: only the go-zero-absent reading reads it as
      // absent (errata SD-E15).
      Add(6, at, "an agent message needs content, a tool or pathHints",
          m.empty_array_written ? "SD-E15" : "");
    }
    const PathStep content(at, "content");
    for (std::size_t k = 0; k < m.content.size(); ++k) {
      const std::string_view type = m.content[k].type;
      if (!SameBytes(type, "text") && !SameBytes(type, "thinking")) {
        Add(7, PathStep(PathStep(content, k), "type"),
            "content type is " + Quoted(type) + ", not \"text\" or \"thinking\"");
      }
    }
    if (!m.tool) return;
    const PathStep tool(at, "tool");
    NonEmpty(8, m.tool->name, PathStep(tool, "name"));
    if (std::none_of(std::begin(kToolTypes), std::end(kToolTypes),
                     [&](std::string_view type) { return SameBytes(type, m.tool->type); })) {
      Add(9, PathStep(tool, "type"),
          "tool type is " + Quoted(m.tool->type) + ", not one of the seven");
    }
  }

  std::vector<Finding>* out_;
};

// ---------------------------------------------------------------------------------------------
// Prose (errata SD-E17 to SD-E19).

// POSIX "/...", a drive letter and a separator, or a UNC "\\..." (SD-E18).
bool IsAbsolute(std::string_view path) {
  const bool drive = path.size() >= 3 && ((path[0] | 0x20) >= 'a' && (path[0] | 0x20) <= 'z') &&
                     path[1] == ':' && (path[2] == '\\' || path[2] == '/');
  return path.starts_with('/') || path.starts_with("\\\\") || drive;
}

// No file system in use takes these in a name (SD-E19).
bool IsFilenameSafe(std::string_view slug) {
  if (slug == "." || slug == "..") return false;
  return std::none_of(slug.begin(), slug.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7F ||
           std::string_view("/\\<>:\"|?*").find(c) != std::string_view::npos;
  });
}

void CheckProse(const Session& s, std::vector<Finding>* out) {
  auto add = [&](std::string_view rule, std::string pointer, std::string message, bool warning,
                 std::string reading) {
    out->push_back({Statement::kProse, std::string(rule), "", "", std::move(pointer), 0, warning,
                    std::move(message), std::move(reading)});
  };
  KeyedStringViewSet ids;
  for (std::size_t i = 0; i < s.exchanges.size(); ++i) {
    const std::string_view id = s.exchanges[i].exchange_id;
    if (!id.empty() && !ids.insert(id).second) {
      add(kUniqueExchangeRule, "/exchanges/" + std::to_string(i) + "/exchangeId",
          "exchangeId " + Quoted(id) +
              " is used by an earlier exchange: ids must be unique within "
              "the session (errata SD-E17)",
          false, "SD-E17");
    }
  }
  // A warning: Validate() "checks all constraints" and asks workspaceRoot only to be non-empty,
  // the schema only to be a string; "Absolute path" is the table's description (errata SD-E18).
  if (!IsAbsolute(s.workspace_root)) {
    add(kAbsoluteRootRule, "/workspaceRoot",
        "workspaceRoot " + Quoted(s.workspace_root) +
            " is not an absolute path (\"/...\", \"C:\\...\" or \"\\\\...\"; errata SD-E18)",
        true, "");
  }
  if (!s.slug.empty() && !IsFilenameSafe(s.slug)) {
    add(kSlugRule, "/slug", "slug " + Quoted(s.slug) + " is not filename-safe (errata SD-E19)",
        true, "");
  }
}

// ---------------------------------------------------------------------------------------------

// The document with one member kept for each repeated name, the first or the last, in document
// order: the file as SD-E22's first-wins and last-wins readings read it. Iterative: the value may
// be as deep as the parser allows.
std::string WithoutRepeatedNames(const Value& root, bool keep_first) {
  std::string out;
  if (!root.is_object() && !root.is_array()) {
    json::Write(root, &out);
    return out;
  }
  struct Frame {
    const Value* value;
    std::vector<std::size_t> kept;  // an object's members written, by index
    std::size_t next = 0;
  };
  const auto open = [&out, keep_first](const Value* v) {
    Frame frame{v, {}, 0};
    const std::span<const Member> members = v->members();
    KeyedStringViewMap<std::size_t> chosen;
    for (std::size_t i = 0; i < members.size(); ++i) {
      auto [it, fresh] = chosen.try_emplace(members[i].name, i);
      if (!fresh && !keep_first) it->second = i;
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (chosen[members[i].name] == i) frame.kept.push_back(i);
    }
    out.push_back(v->is_object() ? '{' : '[');
    return frame;
  };
  std::vector<Frame> stack;
  stack.push_back(open(&root));
  while (!stack.empty()) {
    Frame& top = stack.back();
    const bool object = top.value->is_object();
    if (top.next == (object ? top.kept.size() : top.value->items().size())) {
      out.push_back(object ? '}' : ']');
      stack.pop_back();
      continue;
    }
    if (top.next > 0) out.push_back(',');
    const Value* child = nullptr;
    if (object) {
      const Member& m = top.value->members()[top.kept[top.next]];
      json::AppendQuoted(m.name, &out);
      out.push_back(':');
      child = &m.value;
    } else {
      child = &top.value->items()[top.next];
    }
    ++top.next;
    if (child->is_object() || child->is_array()) {
      stack.push_back(open(child));
    } else {
      json::Write(*child, &out);
    }
  }
  return out;
}

const json::Schema& SpecSchema() {
  static const json::Schema schema = [] {
    Result<json::Schema> compiled = json::Schema::Compile(SchemaText());
    if (!compiled.ok()) std::abort();  // the embedded schema compiles (session_data_test.cc)
    return std::move(*compiled);
  }();
  return schema;
}

Finding JsonFinding(std::string_view rule, std::size_t offset, std::string message) {
  return {Statement::kJson, std::string(rule), "", "", "", offset, false, std::move(message)};
}

}  // namespace

std::string_view StatementName(Statement statement) {
  switch (statement) {
    case Statement::kJson:
      return "json";
    case Statement::kRules:
      return "rules";
    case Statement::kSchema:
      return "schema";
    case Statement::kProse:
      return "prose";
  }
  return "";
}

Reading Reading::Read(std::string text, const Limits& limits, Purpose purpose) {
  Reading r;
  if (!r.Parse(std::move(text), limits)) return r;
  const bool decoded = r.Decode();
  if (purpose == Purpose::kJudge) r.Judge(decoded, limits);
  return r;
}

// The file as one JSON text, read as Go reads it (bad Unicode replaced); false with a finding
// when it is not one, or is over a limit.
bool Reading::Parse(std::string text, const Limits& limits) {
  if (text.size() > limits.max_file_bytes) {
    findings_.push_back(JsonFinding(
        kLimitRule, 0,
        "the file is larger than max_file_bytes (" + std::to_string(limits.max_file_bytes) + ")"));
    return false;
  }
  // ARCS reads a leading byte order mark as no part of the JSON text (SD-JSON-1); RFC 8259 §8.1
  // lets a parser ignore it instead (errata SD-E7), so the text after it is judged all the same.
  const bool bom = text.starts_with(kUtf8Bom);
  if (bom) {
    Finding f = JsonFinding(kJsonRule, 0,
                            "the file starts with a byte order mark, which is not part of a JSON "
                            "text (RFC 8259 §8.1; errata SD-E7)");
    f.reading = "SD-E7";
    findings_.push_back(std::move(f));
    text.erase(0, 3);
  }
  json::ParseOptions options;
  options.max_depth =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(limits.max_json_depth, UINT32_MAX));
  options.bad_unicode = json::BadUnicode::kReplaceAsGo;
  if (doc_.ParseTaking(std::move(text), options)) {
    is_object_ = !bom && doc_.root().is_object();  // a renderer needs one JSON text (SD-RENDER-6)
    return true;
  }
  const json::ParseError& e = doc_.error();
  const bool limit = e.code == json::ErrorCode::kDepthExceeded ||
                     e.code == json::ErrorCode::kTooLarge ||
                     e.code == json::ErrorCode::kTooManyValues;
  findings_.push_back(
      JsonFinding(limit ? kLimitRule : kJsonRule, e.offset + (bom ? 3 : 0),
                  "not one JSON text: " + e.message + (limit ? " (max_json_depth)" : "")));
  return false;
}

// The session as Go decodes it; whether it decoded without error (the decode errors are findings
// of the rules statement).
bool Reading::Decode() {
  const Value& root = doc_.root();
  std::vector<Finding> errors;
  if (root.is_object()) {
    GoDecoder decoder(&errors, true);
    decoder.DecodeSession(root, &session_, PathStep());
    folded_ = decoder.folded();
  } else if (!root.is_null()) {  // null into a struct has no effect: the zero SessionData
    errors.push_back({Statement::kRules, std::string(kJsonRule), "", "", "", 0, false,
                      "the value is a JSON " + std::string(json::KindName(root.kind())) +
                          ", not an object: Go cannot decode it into SessionData"});
  }
  findings_.insert(findings_.end(), errors.begin(), errors.end());
  return errors.empty();
}

// Every statement's findings: the repeated names, Validate() on what decoded, the schema on the
// file as Python's json reads it (UTF-8, the last of repeated names), and the prose; then the
// errata readings that the errors among them rest on (Finding::reading).
void Reading::Judge(bool decoded, const Limits& limits) {
  const bool utf8 = !doc_.replaced_ill_formed_utf8();
  for (std::size_t k = 0; utf8 && k < doc_.duplicates().size(); ++k) {
    Finding f = JsonFinding(kRepeatedRule, doc_.duplicates()[k].offset,
                            "a member name repeated in its object: Go assigns each in turn, "
                            "Python's json keeps the last (errata SD-E22)");
    f.pointer = doc_.duplicates()[k].pointer;
    f.warning = true;
    findings_.push_back(std::move(f));
  }
  if (decoded) Validator(&findings_).Run(session_);
  if (!utf8) {
    findings_.push_back({Statement::kSchema, std::string(kJsonRule), "", "", "", 0, false,
                         "the file is not UTF-8, so there is no JSON text for the schema to "
                         "judge (RFC 8259 §8.1; errata SD-E8)",
                         "SD-E8"});
  }
  // Ill-formed bytes replaced, the value is what a lossy decoder hands the schema (SD-E8's
  // replace-everywhere), so what the schema refuses in it is refused under every reading.
  for (json::SchemaError& e : SpecSchema().Evaluate(
           doc_.root(), doc_.duplicates().empty() ? json::RepeatedNamesRead::kAllMembers
                                                  : json::RepeatedNamesRead::kLastWins)) {
    // Whether format asserts is the reading assertion of SD-E13; annotation asserts nothing.
    std::string reading = e.keyword == "format" ? "SD-E13" : "";
    findings_.push_back({Statement::kSchema, "", std::move(e.location), std::move(e.keyword),
                         std::move(e.instance_pointer), 0, false, std::move(e.message),
                         std::move(reading)});
  }
  if (decoded) CheckProse(session_, &findings_);
  if (folded_) TagFoldedNames();
  TagRepeatedNames(limits);
}

// A rules error that names matched exactly would not give rests on go-folding (errata SD-E10).
void Reading::TagFoldedNames() {
  std::vector<Finding> exact;
  Session session;
  GoDecoder(&exact, false).DecodeSession(doc_.root(), &session, PathStep());
  if (exact.empty()) Validator(&exact).Run(session);
  for (Finding& f : findings_) {
    if (f.statement != Statement::kRules || f.warning || f.note || !f.reading.empty()) continue;
    const bool also_exact = std::any_of(exact.begin(), exact.end(), [&](const Finding& e) {
      return e.rule_id == f.rule_id && e.pointer == f.pointer;
    });
    if (!also_exact) f.reading = "SD-E10";
  }
  // And the other way: what names matched exactly would find that go-folding does not, a note.
  for (const Finding& e : exact) {
    if (e.warning) continue;
    const bool also_folded = std::any_of(findings_.begin(), findings_.end(), [&](const Finding& f) {
      return f.statement == Statement::kRules && e.rule_id == f.rule_id && e.pointer == f.pointer;
    });
    if (also_folded) continue;
    Finding note = e;
    note.reading = "SD-E10";
    note.note = true;
    note.message = "with member names matched exactly (errata SD-E10), " + e.message;
    findings_.push_back(std::move(note));
  }
}

// An error that the file read with only the first, or only the last, of each repeated name does not
// have rests on how the statement reads repeated names (as-decoded, errata SD-E22).
void Reading::TagRepeatedNames(const Limits& limits) {
  if (doc_.duplicates().empty()) return;
  Limits rewritten = limits;
  rewritten.max_file_bytes = UINT64_MAX;  // ill-formed bytes are written back as U+FFFD
  const auto same = [](const Finding& a, const Finding& b) {
    return a.statement == b.statement && a.rule_id == b.rule_id &&
           a.schema_location == b.schema_location && a.schema_keyword == b.schema_keyword &&
           a.pointer == b.pointer;
  };
  for (const bool keep_first : {true, false}) {
    const Reading other = Read(WithoutRepeatedNames(doc_.root(), keep_first), rewritten);
    for (Finding& f : findings_) {
      if (f.warning || f.note || !f.reading.empty() || f.statement == Statement::kJson) continue;
      if (std::none_of(other.findings().begin(), other.findings().end(),
                       [&](const Finding& o) { return same(f, o); })) {
        f.reading = "SD-E22";
      }
    }
  }
}

bool ValidUnder(const std::vector<Finding>& findings, std::string_view choice) {
  return std::none_of(findings.begin(), findings.end(), [&](const Finding& f) {
    if (f.warning || f.note) return false;
    if (choice == "rules") return f.statement != Statement::kSchema;
    if (choice == "schema") return f.statement != Statement::kRules;
    return true;
  });
}

std::vector<std::string_view> RuleIds() {
  std::vector<std::string_view> ids = {kJsonRule,           kRepeatedRule,     kLimitRule,
                                       kUniqueExchangeRule, kAbsoluteRootRule, kSlugRule};
  ids.insert(ids.end(), std::begin(kValidateRules), std::end(kValidateRules));
  using Rules = std::span<const std::string_view>;
  for (Rules rules : {Rules(kSessionRules), Rules(kProviderRules), Rules(kExchangeRules),
                      Rules(kMessageRules), Rules(kContentRules), Rules(kToolRules)}) {
    ids.insert(ids.end(), rules.begin(), rules.end());
  }
  return ids;
}

}  // namespace arcs::session_data
