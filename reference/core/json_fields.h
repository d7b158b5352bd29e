// Strict reading of the project's own JSON: protocol messages, reports, vector manifests,
// requirement catalogues. One reader for all of them, so every data file is held to the same
// rules: a member of the wrong kind is an error, a missing required member is an error, and in a
// closed object a member nobody asked for is an error (a typo in a manifest must not quietly
// become ""). Every problem is one Status naming its place as a JSON Pointer.
//
// The first problem wins: after it every call is a no-op that returns nothing, so a reader is
// written straight through without a check after each member.
#ifndef ARCS_REFERENCE_CORE_JSON_FIELDS_H_
#define ARCS_REFERENCE_CORE_JSON_FIELDS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::json {

// Parses `text` as one JSON value and refuses repeated member names at any depth (RFC 8259 leaves
// them to the application; two readers of our files would disagree on the value).
Status ParseData(std::string_view text, Document* doc, const ParseOptions& options = {});
// The same for a text the document may keep (Document::ParseTaking): a long line held once.
Status ParseDataTaking(std::string text, Document* doc, const ParseOptions& options = {});

// ReadFile + ParseData; the message starts with the path.
Status LoadDataFile(const std::string& path, Document* doc);

// "a string", "an object", "null", ... for messages.
std::string DescribeKind(Kind kind);

class FieldReader {
 public:
  // kClosed: Finish() fails on a member no call asked for. kOpen: such members are ignored (the
  // runner protocol leaves room for later additions).
  enum class Members : std::uint8_t { kClosed, kOpen };

  // `value` null means the object itself is missing (an error). `status` is shared by every
  // reader of one document, so nested readers stop at the first problem anywhere.
  FieldReader(const Value* value, std::string pointer, Status* status,
              Members members = Members::kClosed);

  bool ok() const { return status_->ok(); }
  const std::string& pointer() const { return pointer_; }

  // The member checked to be of `kind` (kTrue or kFalse stand for both booleans), else nullptr.
  // Absent: nullptr, and an error only for Required.
  const Value* Required(std::string_view name, Kind kind);
  const Value* Optional(std::string_view name, Kind kind);
  // The member whatever its kind, for a caller that checks it; nullptr when absent.
  const Value* OptionalAny(std::string_view name);

  // Typed members. The Optional* forms leave *out alone when the member is absent and say
  // whether it was present.
  void String(std::string_view name, std::string* out);
  bool OptionalString(std::string_view name, std::string* out);
  void Bool(std::string_view name, bool* out);
  // A non-negative integer that fits in 63 bits, written without fraction or exponent.
  void Count(std::string_view name, std::uint64_t* out);
  bool OptionalCount(std::string_view name, std::uint64_t* out);
  void Int(std::string_view name, int* out);
  void Double(std::string_view name, double* out);
  void StringList(std::string_view name, std::vector<std::string>* out);
  bool OptionalStringList(std::string_view name, std::vector<std::string>* out);
  void StringMap(std::string_view name, std::map<std::string, std::string>* out);
  bool OptionalStringMap(std::string_view name, std::map<std::string, std::string>* out);
  // A string holding canonical base64 (RFC 4648 section 4, padded), decoded.
  std::optional<std::string> Base64(std::string_view name, bool required);

  // Calls read(element, pointer) for each element of an array member.
  void ForEach(std::string_view name, bool required,
               const std::function<void(const Value&, const std::string&)>& read);
  // Calls read(member name, value, pointer) for each member of an object member.
  void ForEachMember(
      std::string_view name, bool required,
      const std::function<void(std::string_view, const Value&, const std::string&)>& read);

  // Closed objects: fails on the first member no call above asked for.
  void Finish();

  std::string Pointer(std::string_view name) const;
  void Fail(const std::string& pointer, const std::string& message);

 private:
  const Value* Member(std::string_view name, Kind kind, bool required);
  bool ReadCount(const Value* v, std::string_view name, std::uint64_t* out);

  const Value* value_;
  std::string pointer_;
  Status* status_;
  Members members_;
  std::vector<std::string> known_;
};

// The pointer of element `index` under `pointer`.
std::string ElementPointer(const std::string& pointer, std::size_t index);
// The pointer of member `name` under `pointer`.
std::string MemberPointer(const std::string& pointer, std::string_view name);

// A JSON Pointer kept as steps on the caller's stack and written out only when a finding needs
// it, so that walking a large document costs no string per value. A step lives as long as the
// call that made it; the root is a default-constructed step.
class PathStep {
 public:
  PathStep() = default;
  PathStep(const PathStep& parent, std::string_view name) : parent_(&parent), name_(name) {}
  PathStep(const PathStep& parent, std::size_t index)
      : parent_(&parent), index_(index), is_index_(true) {}
  std::string ToPointer() const;  // "" for the root

 private:
  const PathStep* parent_ = nullptr;
  std::string_view name_;
  std::size_t index_ = 0;
  bool is_index_ = false;
};

}  // namespace arcs::json

#endif  // ARCS_REFERENCE_CORE_JSON_FIELDS_H_
