#include "reference/core/json_schema.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <regex>
#include <span>

#include "reference/core/json_fields.h"
#include "reference/core/keyed_hash.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "reference/core/text_formats.h"

namespace arcs::json {

// A compiled subschema. Index -1 means "none"; boolean schemas are nodes with `always`.
struct Node {
  std::string location;
  enum class Always : std::uint8_t { kEvaluate, kTrue, kFalse };
  Always always = Always::kEvaluate;
  std::vector<std::string_view> types;  // empty: no type keyword
  std::uint8_t type_kinds = 0;          // the Kinds the types name, a bit each ("integer" aside)
  bool type_integer = false;            // "integer" is among them
  const Value* constant = nullptr;
  const Value* enumeration = nullptr;
  std::vector<std::string_view> required;
  std::vector<std::pair<std::string_view, int>> properties;
  int additional = -1;
  int items = -1;
  int ref = -1;
  bool date_time = false;
  std::vector<int> one_of;
  std::optional<double> minimum;
  std::string pattern_text;
  std::optional<std::regex> pattern;
  // Whether any of the keywords about the value itself is here (const, enum, format, minimum,
  // pattern, oneOf): most nodes have none, and are then told in one test.
  bool checks_value = false;
};

struct Schema::Compiled {
  Document doc;
  std::vector<Node> nodes;
  std::map<std::string, int, std::less<>> by_location;  // compiled so far, $ref targets included
};

namespace {

constexpr std::string_view kAnnotations[] = {"$schema",     "$id",   "title",
                                             "description", "$defs", "definitions"};
constexpr std::string_view kTypes[] = {"null",   "boolean", "object", "array",
                                       "number", "string",  "integer"};

// A number as Python reads it for comparisons: the nearest double, or an infinity past them.
double AsDouble(const Value& v) {
  if (std::optional<double> d = ToDouble(v.text())) return *d;
  return v.text().starts_with('-') ? -HUGE_VAL : HUGE_VAL;
}

// Whether v is of one of n's types. An integer is a number whose value is one (1.0 is; a number
// past the doubles is an infinity to Python, which is not).
bool OfType(const Node& n, const Value& v) {
  if (n.type_kinds >> static_cast<int>(v.kind()) & 1) return true;
  return n.type_integer && v.is_number() && Classify(v.text()).integral &&
         IsWithinDoubles(v.text());
}

class Compiler {
 public:
  explicit Compiler(Schema::Compiled* out) : out_(out) {}

  Result<int> Compile(const Value& schema, const std::string& location) {
    if (auto it = out_->by_location.find(location); it != out_->by_location.end()) {
      return it->second;
    }
    const int index = static_cast<int>(out_->nodes.size());
    out_->nodes.emplace_back().location = location;
    out_->by_location.emplace(location, index);
    if (schema.is_bool()) {
      out_->nodes[index].always = schema.as_bool() ? Node::Always::kTrue : Node::Always::kFalse;
      return index;
    }
    if (!schema.is_object()) return Fail(location, "a schema is an object or a boolean");
    for (const Member& m : schema.members()) {
      if (Status s = Keyword(m, location, index); !s.ok()) return s;
    }
    return index;
  }

 private:
  static Status Fail(const std::string& location, std::string message) {
    return Status(StatusCode::kParseError, location + ": " + std::move(message));
  }

  Status Keyword(const Member& m, const std::string& location, int index) {
    const std::string here = location + "/" + std::string(m.name);
    auto node = [&]() -> Node& { return out_->nodes[index]; };  // nodes grows while compiling
    if (std::find(std::begin(kAnnotations), std::end(kAnnotations), m.name) !=
        std::end(kAnnotations)) {
      return Status::Ok();
    }
    if (m.name == "type") return Types(m.value, here, &node());
    if (m.name == "const") {
      node().constant = &m.value;
    } else if (m.name == "enum") {
      if (!m.value.is_array()) return Fail(here, "enum is an array");
      node().enumeration = &m.value;
    } else if (m.name == "required") {
      for (const Value& name : m.value.items()) {
        if (!name.is_string()) return Fail(here, "required lists strings");
        node().required.push_back(name.text());
      }
    } else if (m.name == "properties") {
      if (!m.value.is_object()) return Fail(here, "properties is an object");
      for (const Member& p : m.value.members()) {
        std::string at = here + "/";
        AppendPointerToken(p.name, &at);
        Result<int> sub = Compile(p.value, at);
        if (!sub.ok()) return sub.status();
        node().properties.emplace_back(p.name, *sub);
      }
    } else if (m.name == "additionalProperties" || m.name == "items") {
      Result<int> sub = Compile(m.value, here);
      if (!sub.ok()) return sub.status();
      (m.name == "items" ? node().items : node().additional) = *sub;
    } else if (m.name == "$ref") {
      return Ref(m.value, here, index);
    } else if (m.name == "oneOf") {
      if (!m.value.is_array() || m.value.items().empty()) return Fail(here, "oneOf is an array");
      std::size_t k = 0;
      for (const Value& branch : m.value.items()) {
        Result<int> sub = Compile(branch, here + "/" + std::to_string(k++));
        if (!sub.ok()) return sub.status();
        node().one_of.push_back(*sub);
      }
    } else if (m.name == "minimum") {
      if (!m.value.is_number()) return Fail(here, "minimum is a number");
      node().minimum = AsDouble(m.value);
    } else if (m.name == "pattern") {
      // ECMA-262 regular expressions, as draft-07 says; Python's jsonschema uses re, whose \d
      // also takes other scripts' digits (the patterns compiled here use none of the differences).
      if (!m.value.is_string()) return Fail(here, "pattern is a string");
      try {
        node().pattern.emplace(std::string(m.value.text()), std::regex::ECMAScript);
      } catch (const std::regex_error&) {  // the standard library's only report of a bad pattern
        return Fail(here, "pattern is not a regular expression");
      }
      node().pattern_text = m.value.text();
    } else if (m.name == "format") {
      if (m.value.text() != "date-time") {
        return Status(StatusCode::kUnsupported, here + ": only format date-time is supported");
      }
      node().date_time = true;
    } else {
      return Status(StatusCode::kUnsupported,
                    here + ": the keyword " + Quoted(m.name) + " is not supported");
    }
    return Status::Ok();
  }

  static Status Types(const Value& type, const std::string& here, Node* out) {
    std::vector<const Value*> names;
    if (type.is_string()) names.push_back(&type);
    for (const Value& v : type.items()) names.push_back(&v);
    for (const Value* v : names) {
      if (!v->is_string() ||
          std::find(std::begin(kTypes), std::end(kTypes), v->text()) == std::end(kTypes)) {
        return Status(StatusCode::kUnsupported, here + ": unsupported type");
      }
      out->types.push_back(v->text());
      out->type_integer |= v->text() == "integer";
      for (int kind = 0; kind <= static_cast<int>(Kind::kObject); ++kind) {
        if (KindName(static_cast<Kind>(kind)) == v->text()) out->type_kinds |= 1u << kind;
      }
    }
    if (out->types.empty()) return Fail(here, "type names at least one type");
    return Status::Ok();
  }

  // "#/a/b" within the document; the target is compiled under its own location.
  Status Ref(const Value& ref, const std::string& here, int index) {
    const std::string_view target = ref.text();
    if (!ref.is_string() || !(target == "#" || target.starts_with("#/"))) {
      return Status(StatusCode::kUnsupported, here + ": only local $ref (\"#/...\") is supported");
    }
    const Value* v = &out_->doc.root();
    for (std::string_view rest = target.substr(1); !rest.empty() && v;) {
      rest.remove_prefix(1);
      const std::size_t slash = std::min(rest.find('/'), rest.size());
      std::string token(rest.substr(0, slash));
      for (std::size_t at; (at = token.find("~1")) != std::string::npos;) token.replace(at, 2, "/");
      for (std::size_t at; (at = token.find("~0")) != std::string::npos;) token.replace(at, 2, "~");
      v = v->Find(token);
      rest.remove_prefix(slash);
    }
    if (!v) return Fail(here, "$ref " + Quoted(target) + " names nothing in the schema");
    Result<int> sub = Compile(*v, std::string(target));
    if (!sub.ok()) return sub.status();
    out_->nodes[index].ref = *sub;
    return Status::Ok();
  }

  Schema::Compiled* out_;
};

class Evaluator {
 public:
  // An error names at most this many of an object's unexpected members: a message stays small
  // whatever the object holds.
  static constexpr std::size_t kNamesQuoted = 5;

  Evaluator(const std::vector<Node>& nodes, RepeatedNamesRead repeated)
      : nodes_(nodes), repeated_(repeated) {}

  void Run(int index, const Value& v, const PathStep& path) {
    const Node& n = nodes_[index];
    if (n.always == Node::Always::kTrue || Settled()) return;
    if (n.always == Node::Always::kFalse) {
      Fail(n, "false", path, [] { return "no value is allowed here"; });
      return;
    }
    if (n.ref >= 0) Run(n.ref, v, path);
    if (!n.types.empty() && !OfType(n, v)) {
      Fail(n, "type", path, [&] {
        return std::string(KindName(v.kind())) + " is not of type " +
               Join(Strings(n.types), " or ");
      });
    }
    if (n.checks_value) CheckValue(n, v, path);
    if (v.is_object() && !Settled()) Object(n, v, path);
    if (v.is_array() && n.items >= 0) {
      std::size_t i = 0;
      for (const Value& item : v.items()) {
        if (Settled()) break;
        Run(n.items, item, PathStep(path, i++));
      }
    }
  }

  std::vector<SchemaError> Take() { return std::move(errors_); }

 private:
  // Whether v equals an item of `values` (SameData): a string, the common case, only ever equals a
  // string of the same text.
  static bool InEnumeration(const Value& values, const Value& v) {
    const std::span<const Value> items = values.items();
    if (v.is_string()) {
      return std::any_of(items.begin(), items.end(), [&](const Value& e) {
        return e.is_string() && SameBytes(e.text(), v.text());
      });
    }
    return std::any_of(items.begin(), items.end(), [&](const Value& e) { return SameData(v, e); });
  }

  // The keywords about the value itself, in the order their errors are written.
  void CheckValue(const Node& n, const Value& v, const PathStep& path) {
    if (n.constant && !SameData(v, *n.constant)) {
      Fail(n, "const", path, [&] { return Describe(v) + " is not " + ToString(*n.constant); });
    }
    if (n.enumeration && !InEnumeration(*n.enumeration, v)) {
      Fail(n, "enum", path,
           [&] { return Describe(v) + " is not one of " + ToString(*n.enumeration); });
    }
    if (n.date_time && v.is_string() && !IsRfc3339DateTime(v.text())) {
      Fail(n, "format", path, [&] { return Describe(v) + " is not an RFC 3339 date-time"; });
    }
    // A number written without a minus sign is at least any minimum that is not above zero.
    if (n.minimum && v.is_number() && (v.text().front() == '-' || *n.minimum > 0) &&
        AsDouble(v) < *n.minimum) {
      Fail(n, "minimum", path, [&] { return Excerpt(v.text(), 40) + " is less than the minimum"; });
    }
    if (n.pattern && v.is_string() &&
        !std::regex_search(v.text().begin(), v.text().end(), *n.pattern)) {
      Fail(n, "pattern", path,
           [&] { return Describe(v) + " does not match " + Quoted(n.pattern_text, 60); });
    }
    if (!n.one_of.empty() && !Settled()) OneOf(n, v, path);
  }

  // Exactly one branch holds; otherwise one error, every branch's errors in its context (as
  // Python's jsonschema reports a oneOf). Which branches hold is asked quietly: the errors of the
  // branches that fail are written out only when the oneOf itself fails (a message per branch per
  // value, thrown away, was most of the time MCP recordings spent in their schemas).
  void OneOf(const Node& n, const Value& v, const PathStep& path) {
    std::size_t holding = 0;
    for (int branch : n.one_of) holding += Holds(branch, v, path);
    if (holding == 1) return;
    const auto message = [holding] {
      return holding == 0 ? std::string("the value is valid under none of the oneOf schemas")
                          : "the value is valid under " + std::to_string(holding) +
                                " of the oneOf schemas, not exactly one";
    };
    if (quiet_) return Fail(n, "oneOf", path, message);
    std::vector<SchemaError> context;
    for (int branch : n.one_of) {
      std::vector<SchemaError> outer = std::move(errors_);
      errors_.clear();
      Run(branch, v, path);
      context.insert(context.end(), std::make_move_iterator(errors_.begin()),
                     std::make_move_iterator(errors_.end()));
      errors_ = std::move(outer);
    }
    Fail(n, "oneOf", path, message);
    errors_.back().context = std::move(context);
  }

  // Whether `v` is valid under node `index`, found without writing an error.
  bool Holds(int index, const Value& v, const PathStep& path) {
    const bool quiet = std::exchange(quiet_, true);
    const bool failed = std::exchange(failed_, false);
    Run(index, v, path);
    const bool holds = !failed_;
    quiet_ = quiet;
    failed_ = failed;
    return holds;
  }

  // Quietly, once one error is found nothing more can change the answer.
  bool Settled() const { return quiet_ && failed_; }

  static std::vector<std::string> Strings(const std::vector<std::string_view>& views) {
    return {views.begin(), views.end()};
  }

  static std::string Describe(const Value& v) {
    return v.is_string() ? Quoted(v.text(), 60) : Excerpt(ToString(v), 60);
  }

  // An error at `path`: its message is made only when errors are being written.
  template <typename Message>
  void Fail(const Node& n, std::string_view keyword, const PathStep& path, const Message& message) {
    if (quiet_) {
      failed_ = true;
      return;
    }
    errors_.push_back({n.location, std::string(keyword), path.ToPointer(), message(), {}});
  }

  // The members the instance holds, each name once when the last one counts: built only for an
  // object that repeats a name (Value::repeats_a_name) when the caller's flag says it counts.
  template <typename F>
  void ForEachMember(const Value& object, F f) const {
    if (repeated_ == RepeatedNamesRead::kAllMembers || !object.repeats_a_name()) {
      for (const Member& m : object.members()) f(m);
      return;
    }
    std::vector<const Member*> members;
    KeyedStringViewMap<std::size_t> last;
    for (const Member& m : object.members()) {
      auto [it, fresh] = last.emplace(m.name, members.size());
      if (fresh) {
        members.push_back(&m);
      } else {
        members[it->second] = &m;
      }
    }
    for (const Member* m : members) f(*m);
  }

  void Object(const Node& n, const Value& v, const PathStep& path) {
    for (std::string_view name : n.required) {
      if (Settled()) return;
      if (!v.Find(name)) {
        Fail(n, "required", path, [&] { return Quoted(name) + " is a required property"; });
      }
    }
    // No member can fail: no properties, and any other member allowed (additionalProperties
    // absent or true: a metadata object's members are not looked at one by one).
    if (n.properties.empty() &&
        (n.additional < 0 || nodes_[n.additional].always == Node::Always::kTrue)) {
      return;
    }
    if (Settled()) return;
    std::vector<std::string> unexpected;  // the first few names, quoted
    std::size_t unexpected_count = 0;
    ForEachMember(v, [&](const Member& m) {
      if (Settled()) return;
      auto p = std::find_if(n.properties.begin(), n.properties.end(),
                            [&](const auto& prop) { return SameBytes(prop.first, m.name); });
      const PathStep at(path, m.name);
      if (p != n.properties.end()) {
        Run(p->second, m.value, at);
      } else if (n.additional >= 0) {
        if (nodes_[n.additional].always == Node::Always::kFalse) {
          if (unexpected_count++ < kNamesQuoted && !quiet_) {
            unexpected.push_back(Quoted(m.name, 40));
          }
        } else {
          Run(n.additional, m.value, at);
        }
      }
    });
    if (unexpected_count > kNamesQuoted) {
      unexpected.push_back("and " + std::to_string(unexpected_count - kNamesQuoted) + " more");
    }
    if (unexpected_count > 0) {
      Fail(n, "additionalProperties", path, [&] {
        return "additional properties are not allowed (" + Join(unexpected) + " unexpected)";
      });
    }
  }

  const std::vector<Node>& nodes_;
  RepeatedNamesRead repeated_;
  std::vector<SchemaError> errors_;
  bool quiet_ = false;   // inside Holds: errors are counted, not written
  bool failed_ = false;  // an error was found while quiet
};

// A node that holds nothing but a $ref (an array's "items": {"$ref": ...}) checks nothing and costs
// a call for each value: what points at it points at what it names instead. The errors are the
// same, at the target's location as before. (A cycle of such nodes is left as it was; so is
// additionalProperties, whose node Object() reads itself: a $ref to false there still fails each
// member at the false schema, as jsonschema reports it.)
void SkipPureRefs(std::vector<Node>* nodes) {
  const auto pure = [&](const Node& n) {
    return n.ref >= 0 && n.always == Node::Always::kEvaluate && n.types.empty() &&
           !n.checks_value && n.required.empty() && n.properties.empty() && n.additional < 0 &&
           n.items < 0;
  };
  const auto target = [&](int index) {
    for (std::size_t hops = 0; index >= 0 && pure((*nodes)[index]) && hops < nodes->size();
         ++hops) {
      index = (*nodes)[index].ref;
    }
    return index;
  };
  for (Node& n : *nodes) {
    n.ref = target(n.ref);
    n.items = target(n.items);
    for (auto& property : n.properties) property.second = target(property.second);
    for (int& branch : n.one_of) branch = target(branch);
  }
}

}  // namespace

Schema::Schema(std::unique_ptr<Compiled> compiled) : compiled_(std::move(compiled)) {}
Schema::Schema(Schema&&) noexcept = default;
Schema& Schema::operator=(Schema&&) noexcept = default;
Schema::~Schema() = default;

Result<Schema> Schema::Compile(std::string_view text) {
  auto compiled = std::make_unique<Compiled>();
  if (!compiled->doc.Parse(text)) {
    return Status(StatusCode::kParseError,
                  "the schema is not JSON: " + compiled->doc.error().message);
  }
  if (!compiled->doc.duplicates().empty()) {
    return Status(StatusCode::kParseError,
                  "the schema repeats the member " + compiled->doc.duplicates()[0].pointer);
  }
  Result<int> root = Compiler(compiled.get()).Compile(compiled->doc.root(), "#");
  if (!root.ok()) return root.status();
  for (Node& n : compiled->nodes) {
    n.checks_value =
        n.constant || n.enumeration || n.date_time || n.minimum || n.pattern || !n.one_of.empty();
  }
  SkipPureRefs(&compiled->nodes);
  return Schema(std::move(compiled));
}

std::vector<SchemaError> Schema::Evaluate(const Value& instance, RepeatedNamesRead repeated) const {
  Evaluator evaluator(compiled_->nodes, repeated);
  evaluator.Run(0, instance, PathStep());
  return evaluator.Take();
}

}  // namespace arcs::json
