#include "reference/core/json_fields.h"

#include <algorithm>
#include <limits>

#include "reference/core/base64.h"
#include "reference/core/io.h"
#include "reference/core/number.h"

namespace arcs::json {

namespace {

// What ParseData says of a document just parsed (`parsed`: whether Parse succeeded).
Status DataStatus(bool parsed, const Document& doc) {
  if (!parsed) {
    return Status(StatusCode::kParseError, "not JSON (" + doc.error().message + " at byte " +
                                               std::to_string(doc.error().offset) + ")");
  }
  if (!doc.duplicates().empty()) {
    return Status(StatusCode::kParseError,
                  "member name repeated at " + doc.duplicates().front().pointer);
  }
  return Status::Ok();
}

}  // namespace

Status ParseData(std::string_view text, Document* doc, const ParseOptions& options) {
  return DataStatus(doc->Parse(text, options), *doc);
}

Status ParseDataTaking(std::string text, Document* doc, const ParseOptions& options) {
  return DataStatus(doc->ParseTaking(std::move(text), options), *doc);
}

Status LoadDataFile(const std::string& path, Document* doc) {
  Result<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  if (Status s = ParseData(*bytes, doc); !s.ok()) {
    return Status(StatusCode::kParseError, path + ": " + s.message());
  }
  return Status::Ok();
}

std::string DescribeKind(Kind kind) {
  const std::string_view name = KindName(kind);
  if (kind == Kind::kNull) return "null";
  return (name.front() == 'a' || name.front() == 'o' ? "an " : "a ") + std::string(name);
}

std::string MemberPointer(const std::string& pointer, std::string_view name) {
  std::string p = pointer + "/";
  AppendPointerToken(name, &p);
  return p;
}

std::string PathStep::ToPointer() const {
  std::vector<const PathStep*> steps;
  for (const PathStep* s = this; s->parent_; s = s->parent_) steps.push_back(s);
  std::string pointer;
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    pointer += '/';
    if ((*it)->is_index_) {
      pointer += std::to_string((*it)->index_);
    } else {
      AppendPointerToken((*it)->name_, &pointer);
    }
  }
  return pointer;
}

std::string ElementPointer(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

FieldReader::FieldReader(const Value* value, std::string pointer, Status* status, Members members)
    : value_(value), pointer_(std::move(pointer)), status_(status), members_(members) {
  if (!value_) {
    Fail(pointer_, "missing");
  } else if (!value_->is_object()) {
    Fail(pointer_, "expected an object, found " + DescribeKind(value_->kind()));
  }
}

const Value* FieldReader::Member(std::string_view name, Kind kind, bool required) {
  if (!ok()) return nullptr;
  known_.emplace_back(name);
  const Value* member = value_->Find(name);
  if (!member) {
    if (required) Fail(Pointer(name), "missing");
    return nullptr;
  }
  const bool is_bool = kind == Kind::kTrue || kind == Kind::kFalse;
  if (is_bool ? !member->is_bool() : member->kind() != kind) {
    Fail(Pointer(name),
         "expected " + DescribeKind(kind) + ", found " + DescribeKind(member->kind()));
    return nullptr;
  }
  return member;
}

const Value* FieldReader::Required(std::string_view name, Kind kind) {
  return Member(name, kind, true);
}

const Value* FieldReader::Optional(std::string_view name, Kind kind) {
  return Member(name, kind, false);
}

const Value* FieldReader::OptionalAny(std::string_view name) {
  if (!ok()) return nullptr;
  known_.emplace_back(name);
  return value_->Find(name);
}

void FieldReader::String(std::string_view name, std::string* out) {
  if (const Value* v = Required(name, Kind::kString)) *out = std::string(v->text());
}

bool FieldReader::OptionalString(std::string_view name, std::string* out) {
  const Value* v = Optional(name, Kind::kString);
  if (v) *out = std::string(v->text());
  return v != nullptr;
}

void FieldReader::Bool(std::string_view name, bool* out) {
  if (const Value* v = Required(name, Kind::kTrue)) *out = v->as_bool();
}

void FieldReader::Count(std::string_view name, std::uint64_t* out) {
  ReadCount(Required(name, Kind::kNumber), name, out);
}

bool FieldReader::OptionalCount(std::string_view name, std::uint64_t* out) {
  return ReadCount(Optional(name, Kind::kNumber), name, out);
}

bool FieldReader::ReadCount(const Value* v, std::string_view name, std::uint64_t* out) {
  if (!v) return false;
  std::optional<std::int64_t> n = ToInt64(v->text());
  if (!n || *n < 0) {
    Fail(Pointer(name), "expected a non-negative integer, found " + std::string(v->text()));
    return false;
  }
  *out = static_cast<std::uint64_t>(*n);
  return true;
}

void FieldReader::Int(std::string_view name, int* out) {
  const Value* v = Required(name, Kind::kNumber);
  if (!v) return;
  std::optional<std::int64_t> n = ToInt64(v->text());
  if (!n || *n < std::numeric_limits<int>::min() || *n > std::numeric_limits<int>::max()) {
    Fail(Pointer(name), "expected an integer in the range of int, found " + std::string(v->text()));
    return;
  }
  *out = static_cast<int>(*n);
}

void FieldReader::Double(std::string_view name, double* out) {
  const Value* v = Required(name, Kind::kNumber);
  if (!v) return;
  std::optional<double> d = ToDouble(v->text());
  if (!d) {
    Fail(Pointer(name), "number out of range: " + std::string(v->text()));
    return;
  }
  *out = *d;
}

namespace {

bool ReadStrings(FieldReader* reader, const Value* array, std::string_view name,
                 std::vector<std::string>* out) {
  if (!array) return false;
  std::size_t index = 0;
  for (const Value& item : array->items()) {
    if (!item.is_string()) {
      reader->Fail(ElementPointer(reader->Pointer(name), index),
                   "expected a string, found " + DescribeKind(item.kind()));
      return false;
    }
    out->emplace_back(item.text());
    ++index;
  }
  return true;
}

bool ReadStringMap(FieldReader* reader, const Value* object, std::string_view name,
                   std::map<std::string, std::string>* out) {
  if (!object) return false;
  for (const json::Member& m : object->members()) {
    if (!m.value.is_string()) {
      reader->Fail(MemberPointer(reader->Pointer(name), m.name),
                   "expected a string, found " + DescribeKind(m.value.kind()));
      return false;
    }
    (*out)[std::string(m.name)] = std::string(m.value.text());
  }
  return true;
}

}  // namespace

void FieldReader::StringList(std::string_view name, std::vector<std::string>* out) {
  ReadStrings(this, Required(name, Kind::kArray), name, out);
}

bool FieldReader::OptionalStringList(std::string_view name, std::vector<std::string>* out) {
  return ReadStrings(this, Optional(name, Kind::kArray), name, out);
}

void FieldReader::StringMap(std::string_view name, std::map<std::string, std::string>* out) {
  ReadStringMap(this, Required(name, Kind::kObject), name, out);
}

bool FieldReader::OptionalStringMap(std::string_view name,
                                    std::map<std::string, std::string>* out) {
  return ReadStringMap(this, Optional(name, Kind::kObject), name, out);
}

std::optional<std::string> FieldReader::Base64(std::string_view name, bool required) {
  const Value* v = Member(name, Kind::kString, required);
  if (!v) return std::nullopt;
  std::optional<std::string> bytes = base64::Decode(v->text());
  if (!bytes) Fail(Pointer(name), "is not canonical base64 (RFC 4648 section 4, padded)");
  return bytes;
}

void FieldReader::ForEach(std::string_view name, bool required,
                          const std::function<void(const Value&, const std::string&)>& read) {
  const Value* array = Member(name, Kind::kArray, required);
  if (!array) return;
  std::size_t index = 0;
  for (const Value& item : array->items()) {
    if (!ok()) return;
    read(item, ElementPointer(Pointer(name), index++));
  }
}

void FieldReader::ForEachMember(
    std::string_view name, bool required,
    const std::function<void(std::string_view, const Value&, const std::string&)>& read) {
  const Value* object = Member(name, Kind::kObject, required);
  if (!object) return;
  for (const json::Member& m : object->members()) {
    if (!ok()) return;
    read(m.name, m.value, MemberPointer(Pointer(name), m.name));
  }
}

void FieldReader::Finish() {
  if (!ok() || members_ == Members::kOpen) return;
  for (const json::Member& m : value_->members()) {
    if (std::find(known_.begin(), known_.end(), m.name) == known_.end()) {
      Fail(Pointer(m.name), "unknown member");
      return;
    }
  }
}

std::string FieldReader::Pointer(std::string_view name) const {
  return MemberPointer(pointer_, name);
}

void FieldReader::Fail(const std::string& pointer, const std::string& message) {
  if (!ok()) return;
  *status_ = Status(StatusCode::kParseError,
                    (pointer.empty() ? std::string("(root)") : pointer) + ": " + message);
}

}  // namespace arcs::json
