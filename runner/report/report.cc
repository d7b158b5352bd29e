#include "runner/report/report.h"

#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "runner/report/escape.h"
#include "runner/report/report_fields.h"

namespace arcs::report {
namespace {

constexpr std::string_view kOutcomeNames[] = {"passed", "failed", "errored", "skipped",
                                              "known_failure"};
constexpr std::string_view kStrictNames[] = {"", "passed", "failed"};

// The index of `name` in `names`, as the enum E whose names they are.
template <typename E, std::size_t N>
bool ParseName(const std::string_view (&names)[N], std::string_view name, E* out) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) {
      *out = static_cast<E>(i);
      return true;
    }
  }
  return false;
}

// A pretty JSON writer for the fixed shape of a report: objects one member per line, arrays of
// strings on one line (requirement ids, missing lists stay readable in a diff of two reports).
class Writer {
 public:
  Writer() = default;
  // A writer of what the report holds `depth` containers deep (to measure a part of it).
  explicit Writer(int depth) : depth_(depth) {}

  std::size_t size() const { return out_.size(); }
  std::string Take() && {
    out_ += '\n';
    return std::move(out_);
  }

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }

  // Starts an object member; the value follows.
  void Key(std::string_view name) {
    NextLine();
    json::AppendQuoted(name, &out_);
    out_ += ": ";
  }
  // Starts an array element; the value follows.
  void Element() { NextLine(); }

  void String(std::string_view value) { json::AppendQuoted(ValidUtf8(value), &out_); }
  void Bool(bool value) { out_ += value ? "true" : "false"; }
  void Null() { out_ += "null"; }
  void Unsigned(std::uint64_t value) { out_ += std::to_string(value); }
  void Int(std::int64_t value) { out_ += std::to_string(value); }
  void Double(double value) {
    if (!std::isfinite(value)) value = 0;  // JSON has no NaN or infinity
    char buffer[64];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out_.append(buffer, end);
  }
  void StringList(const std::vector<std::string>& values) {
    out_ += '[';
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out_ += ", ";
      String(values[i]);
    }
    out_ += ']';
  }

 private:
  void Open(char bracket) {
    out_ += bracket;
    ++depth_;
    empty_ = true;
  }
  void Close(char bracket) {
    --depth_;
    if (!empty_) Newline();
    out_ += bracket;
    empty_ = false;
  }
  void NextLine() {
    if (!empty_) out_ += ',';
    Newline();
    empty_ = false;
  }
  void Newline() {
    out_ += '\n';
    out_.append(2 * static_cast<std::size_t>(depth_), ' ');
  }

  std::string out_;
  int depth_ = 0;
  bool empty_ = true;  // nothing written yet in the innermost open container
};

// Writes a map as an object, calling write(value) for each member. Two keys that differ only in
// invalid UTF-8 would be written as the same name, which FromJson rejects as a duplicate: the
// first one wins, so the report stays readable whatever the keys held.
template <typename T, typename Fn>
void WriteMap(const std::map<std::string, T>& map, Writer* w, Fn write) {
  std::map<std::string, const T*> repaired;
  for (const auto& [key, value] : map) repaired.emplace(ValidUtf8(key), &value);
  w->BeginObject();
  for (const auto& [key, value] : repaired) {
    w->Key(key);
    write(*value);
  }
  w->EndObject();
}

template <typename T>
inline constexpr bool kIsVector = false;
template <typename T>
inline constexpr bool kIsVector<std::vector<T>> = true;
template <typename T>
inline constexpr bool kIsMap = false;
template <typename T>
inline constexpr bool kIsMap<std::map<std::string, T>> = true;
template <typename T>
inline constexpr bool kIsOptional = false;
template <typename T>
inline constexpr bool kIsOptional<std::optional<T>> = true;

// An enum's names (indexed by its value) and what the reader calls it in a message.
template <typename E>
struct EnumText;
template <>
struct EnumText<Outcome> {
  static constexpr const auto& kNames = kOutcomeNames;
  static constexpr std::string_view kWhat = "outcome";
};
template <>
struct EnumText<Ground> {
  static constexpr const auto& kNames = conformance::kGroundNames;
  static constexpr std::string_view kWhat = "ground";
};
template <>
struct EnumText<Strict> {
  static constexpr const auto& kNames = kStrictNames;
  static constexpr std::string_view kWhat = "strict value";
};

template <typename T>
void WriteValue(const T& value, Writer* w);

// Writes each member of a record's field list (report_fields.h) as "name": value.
class WritingVisitor {
 public:
  explicit WritingVisitor(Writer* w) : w_(w) {}
  template <typename M>
  void operator()(std::string_view name, const M& member) {
    w_->Key(name);
    WriteValue(member, w_);
  }
  template <typename M>
  void Optional(std::string_view name, const M& member) {
    (*this)(name, member);
  }
  template <typename M, typename Rule>
  void Check(std::string_view, const M&, Rule) {}

 private:
  Writer* w_;
};

// How each C++ type of a report member is written.
template <typename T>
void WriteValue(const T& value, Writer* w) {
  if constexpr (std::is_same_v<T, std::string>) {
    w->String(value);
  } else if constexpr (std::is_same_v<T, bool>) {
    w->Bool(value);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    w->Unsigned(value);
  } else if constexpr (std::is_same_v<T, int>) {
    w->Int(value);
  } else if constexpr (std::is_same_v<T, double>) {
    w->Double(value);
  } else if constexpr (std::is_enum_v<T>) {
    w->String(EnumText<T>::kNames[static_cast<std::size_t>(value)]);
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    w->StringList(value);
  } else if constexpr (kIsVector<T>) {
    w->BeginArray();
    for (const auto& item : value) {
      w->Element();
      WriteValue(item, w);
    }
    w->EndArray();
  } else if constexpr (kIsMap<T>) {
    WriteMap(value, w, [w](const auto& item) { WriteValue(item, w); });
  } else if constexpr (kIsOptional<T>) {
    if (value) {
      WriteValue(*value, w);
    } else {
      w->Null();
    }
  } else {  // a record, by its field list
    w->BeginObject();
    WritingVisitor fields(w);
    internal::VisitFields(value, fields);
    w->EndObject();
  }
}

template <typename T>
void ReadRecord(const json::Value* value, const std::string& pointer, Status* status, T* out);

// Reads each member of a record's field list (report_fields.h) from one JSON object.
class ReadingVisitor {
 public:
  ReadingVisitor(json::FieldReader* r, Status* status) : r_(r), status_(status) {}
  template <typename M>
  void operator()(std::string_view name, M& member) {
    Read(name, &member);
  }
  template <typename M>
  void Optional(std::string_view name, M& member) {
    if (r_->OptionalAny(name)) Read(name, &member);
  }
  template <typename M>
  void Check(std::string_view name, const M& member, Status (*rule)(const M&)) {
    if (!status_->ok()) return;
    if (Status problem = rule(member); !problem.ok()) {
      *status_ = Status(problem.code(), r_->Pointer(name) + ": " + problem.message());
    }
  }

 private:
  // How each C++ type of a report member is read.
  template <typename M>
  void Read(std::string_view name, M* out) {
    if constexpr (std::is_same_v<M, std::string>) {
      r_->String(name, out);
    } else if constexpr (std::is_same_v<M, bool>) {
      r_->Bool(name, out);
    } else if constexpr (std::is_same_v<M, std::uint64_t>) {
      r_->Count(name, out);
    } else if constexpr (std::is_same_v<M, int>) {
      r_->Int(name, out);
    } else if constexpr (std::is_same_v<M, double>) {
      r_->Double(name, out);
    } else if constexpr (std::is_enum_v<M>) {
      const json::Value* value = r_->Required(name, json::Kind::kString);
      if (value && !ParseName(EnumText<M>::kNames, value->text(), out)) {
        r_->Fail(r_->Pointer(name), "unknown " + std::string(EnumText<M>::kWhat) + " \"" +
                                        std::string(value->text()) + "\"");
      }
    } else if constexpr (std::is_same_v<M, std::vector<std::string>>) {
      r_->StringList(name, out);
    } else if constexpr (std::is_same_v<M, std::map<std::string, std::string>>) {
      r_->StringMap(name, out);
    } else if constexpr (kIsVector<M>) {
      r_->ForEach(name, true, [&](const json::Value& item, const std::string& p) {
        ReadRecord(&item, p, status_, &out->emplace_back());
      });
    } else if constexpr (kIsMap<M>) {
      r_->ForEachMember(name, true,
                        [&](std::string_view key, const json::Value& item, const std::string& p) {
                          ReadMapValue(item, p, &(*out)[std::string(key)]);
                        });
    } else if constexpr (kIsOptional<M>) {
      ReadOptional(name, out);
    } else {  // a record, by its field list
      ReadRecord(r_->Required(name, json::Kind::kObject), r_->Pointer(name), status_, out);
    }
  }

  // A record that may be absent: required, and null when absent.
  template <typename M>
  void ReadOptional(std::string_view name, std::optional<M>* out) {
    const json::Value* value = r_->OptionalAny(name);
    if (!value) {
      r_->Fail(r_->Pointer(name),
               "missing member (null when there is no " + std::string(name) + ")");
    } else if (value->is_object()) {
      ReadRecord(value, r_->Pointer(name), status_, &out->emplace());
    } else if (!value->is_null()) {
      r_->Fail(r_->Pointer(name), "expected an object or null");
    }
  }

  // A map's values are read by their key, which json::FieldReader cannot name in advance; a
  // count is checked here with the same rule as json::FieldReader::Count.
  template <typename M>
  void ReadMapValue(const json::Value& item, const std::string& pointer, M* out) {
    if constexpr (std::is_same_v<M, std::uint64_t>) {
      if (!item.is_number()) {
        r_->Fail(pointer, "expected a number, found " + json::DescribeKind(item.kind()));
        return;
      }
      const std::optional<std::int64_t> n = json::ToInt64(item.text());
      if (!n || *n < 0) {
        r_->Fail(pointer, "expected a non-negative integer, found " + std::string(item.text()));
        return;
      }
      *out = static_cast<std::uint64_t>(*n);
    } else {
      ReadRecord(&item, pointer, status_, out);
    }
  }

  json::FieldReader* r_;
  Status* status_;
};

// Reads one JSON object (null: missing) into a record, by its field list; closed to other
// members.
template <typename T>
void ReadRecord(const json::Value* value, const std::string& pointer, Status* status, T* out) {
  json::FieldReader r(value, pointer, status);
  ReadingVisitor fields(&r, status);
  internal::VisitFields(*out, fields);
  r.Finish();
}

// The bytes each byte takes in a JSON string as the Writer writes it.
std::size_t JsonBytes(unsigned char byte) {
  static const auto* const kSizes = [] {
    auto* sizes = new std::array<std::size_t, 256>();
    for (std::size_t b = 0; b < sizes->size(); ++b) {
      std::string quoted;
      json::AppendQuoted(std::string(1, static_cast<char>(b)), &quoted);
      (*sizes)[b] = quoted.size() - 2;
    }
    return sizes;
  }();
  return (*kSizes)[byte];
}

// The length of the longest prefix of valid UTF-8 `text` that takes at most max_json_bytes in a
// JSON string and ends at a character boundary.
std::size_t JsonPrefix(std::string_view text, std::size_t max_json_bytes) {
  std::size_t used = 0;
  std::size_t end = 0;
  for (; end < text.size(); ++end) {
    used += JsonBytes(static_cast<unsigned char>(text[end]));
    if (used > max_json_bytes) break;
  }
  if (end == text.size()) return end;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return end;
}

constexpr std::string_view kCutMark = "\u2026";

void CutList(std::vector<std::string>* list, std::size_t max_items, std::size_t max_json_bytes) {
  if (list->size() > max_items) {
    list->resize(max_items - 1);
    list->emplace_back(kCutMark);
  }
  for (std::string& item : *list) item = CutText(item, max_json_bytes);
}

void CutBlobs(std::vector<Blob>* blobs, std::string_view what, std::vector<std::string>* notes) {
  if (blobs->size() > kMaxEvidenceBlobs) {
    notes->push_back(std::to_string(blobs->size() - kMaxEvidenceBlobs) + " of " +
                     std::to_string(blobs->size()) + " " + std::string(what) + " not kept");
    blobs->resize(kMaxEvidenceBlobs);
  }
  for (Blob& b : *blobs) {
    b.name = CutText(b.name, kMaxShortJsonBytes);
    b.encoding = CutText(b.encoding, kMaxShortJsonBytes);
    b.content = ValidUtf8(b.content);
    if (const std::size_t kept = JsonPrefix(b.content, kMaxBlobJsonBytes);
        kept < b.content.size()) {
      b.content.resize(kept);
      b.truncated = true;
    }
  }
}

// Every field of the case within its own bound (see report.h).
void CutFields(CaseResult* c) {
  for (std::string* s : {&c->id, &c->format, &c->operation, &c->level, &c->error_kind, &c->rules,
                         &c->mismatch, &c->flag, &c->policy}) {
    *s = CutText(*s, kMaxShortJsonBytes);
  }
  c->expected = CutText(c->expected, kMaxTextJsonBytes);
  c->actual = CutText(c->actual, kMaxTextJsonBytes);
  CutList(&c->requirements, kMaxListItems, kMaxShortJsonBytes);
  CutList(&c->readings, kMaxListItems, kMaxShortJsonBytes);
  std::vector<std::string> notes;
  if (c->evidence) {
    Evidence& e = *c->evidence;
    e.vector = CutText(e.vector, kMaxShortJsonBytes);
    e.verdict = CutText(e.verdict, kMaxShortJsonBytes);
    e.spec_text = CutText(e.spec_text, kMaxTextJsonBytes);
    e.expected_properties = CutText(e.expected_properties, kMaxTextJsonBytes);
    e.reference_verdict = CutText(e.reference_verdict, kMaxShortJsonBytes);
    CutList(&e.files, kMaxEvidenceBlobs, kMaxShortJsonBytes);
    CutList(&e.expected_errors, kMaxListItems, kMaxShortJsonBytes);
    CutList(&e.expected_warnings, kMaxListItems, kMaxShortJsonBytes);
    for (std::vector<FindingEvidence>* findings : {&e.findings, &e.reference_findings}) {
      if (findings->size() > kMaxEvidenceFindings) findings->resize(kMaxEvidenceFindings);
      for (FindingEvidence& f : *findings) {
        f.rule = CutText(f.rule, kMaxShortJsonBytes);
        f.severity = CutText(f.severity, kMaxShortJsonBytes);
        f.pointer = CutText(f.pointer, kMaxShortJsonBytes);
        f.message = CutText(f.message, kMaxShortJsonBytes * 2);
      }
    }
    CutBlobs(&e.inputs, "inputs", &notes);
    CutBlobs(&e.outputs, "outputs", &notes);
    CutBlobs(&e.reference_outputs, "reference outputs", &notes);
  }
  if (!notes.empty()) {
    c->message = "report cut: " + Join(notes, ", ") + (c->message.empty() ? "" : "; ") + c->message;
  }
  c->message = CutText(c->message, kMaxMessageJsonBytes);
}

// The bytes the case takes in a report's JSON.
std::size_t CaseJsonBytes(const CaseResult& c) {
  Writer w(4);  // report, implementations, an implementation, its cases
  w.Element();
  WriteValue(c, &w);
  return w.size();
}

}  // namespace

std::string CutText(std::string_view text, std::size_t max_json_bytes) {
  std::string valid = ValidUtf8(text);
  if (JsonPrefix(valid, max_json_bytes) == valid.size()) return valid;
  valid.resize(JsonPrefix(valid, max_json_bytes - kCutMark.size()));
  return valid + std::string(kCutMark);
}

void BoundCase(CaseResult* c) {
  CutFields(c);
  if (CaseJsonBytes(*c) <= kMaxCaseJsonBytes) return;
  if (c->evidence) {
    Evidence& e = *c->evidence;
    for (std::vector<Blob>* blobs : {&e.reference_outputs, &e.outputs, &e.inputs}) {
      for (Blob& b : *blobs) {
        b.truncated = b.truncated || !b.content.empty();
        b.content.clear();
      }
      if (CaseJsonBytes(*c) <= kMaxCaseJsonBytes) return;
    }
    // Findings from the last, the reference's before the implementation's, as many as the excess
    // takes (each measured as written), then again.
    for (std::vector<FindingEvidence>* findings : {&e.reference_findings, &e.findings}) {
      for (std::size_t size = CaseJsonBytes(*c); size > kMaxCaseJsonBytes && !findings->empty();
           size = CaseJsonBytes(*c)) {
        for (std::size_t freed = 0; freed < size - kMaxCaseJsonBytes && !findings->empty();) {
          Writer w(6);  // ... a case, its evidence
          w.Element();
          WriteValue(std::vector<FindingEvidence>{findings->back()}, &w);
          freed += w.size();
          findings->pop_back();
        }
      }
    }
    if (CaseJsonBytes(*c) <= kMaxCaseJsonBytes) return;
  }
  // Only the suite's own data can be this long: every text and list to its shortest bound.
  for (std::vector<std::string>* list : {&c->requirements, &c->readings}) {
    CutList(list, 8, kMaxShortJsonBytes);
  }
  for (std::string* s : {&c->expected, &c->actual, &c->message}) {
    *s = CutText(*s, kMaxShortJsonBytes);
  }
  if (c->evidence) {
    Evidence& e = *c->evidence;
    CutList(&e.expected_errors, 8, kMaxShortJsonBytes);
    CutList(&e.expected_warnings, 8, kMaxShortJsonBytes);
    e.spec_text = CutText(e.spec_text, kMaxShortJsonBytes);
    e.expected_properties = CutText(e.expected_properties, kMaxShortJsonBytes);
  }
}

void BoundImplementation(ImplementationReport* impl) {
  for (std::string* s : {&impl->name, &impl->version, &impl->language, &impl->homepage}) {
    *s = CutText(*s, kMaxTextJsonBytes);
  }
  impl->command = CutText(impl->command, kMaxMessageJsonBytes);
  // The tail's last bytes: the end of what it wrote says most.
  std::string tail = ValidUtf8(impl->stderr_tail);
  std::size_t used = 0;
  std::size_t start = tail.size();
  while (start > 0) {
    const std::size_t cost = JsonBytes(static_cast<unsigned char>(tail[start - 1]));
    if (used + cost > kMaxStderrJsonBytes - kCutMark.size()) break;
    used += cost;
    --start;
  }
  if (start > 0) {
    while (start < tail.size() && (static_cast<unsigned char>(tail[start]) & 0xC0) == 0x80) ++start;
    tail = std::string(kCutMark) + tail.substr(start);
  }
  impl->stderr_tail = std::move(tail);
  for (FormatSummary& f : impl->formats) {
    std::map<std::string, std::string> policies;
    for (const auto& [name, choice] : f.policies) {
      if (policies.size() + 1 == kMaxPolicies && f.policies.size() > kMaxPolicies) {
        policies[std::string(kCutMark)] = kCutMark;  // the rest not kept
        break;
      }
      policies[CutText(name, kMaxShortJsonBytes)] = CutText(choice, kMaxShortJsonBytes);
    }
    f.policies = std::move(policies);
    CutList(&f.missing, kMaxListItems, kMaxShortJsonBytes);
  }
}

std::string_view OutcomeName(Outcome outcome) {
  return kOutcomeNames[static_cast<std::size_t>(outcome)];
}

bool ParseOutcome(std::string_view name, Outcome* outcome) {
  return ParseName(kOutcomeNames, name, outcome);
}

std::string_view StrictName(Strict strict) {
  return kStrictNames[static_cast<std::size_t>(strict)];
}

bool ParseStrict(std::string_view name, Strict* strict) {
  return ParseName(kStrictNames, name, strict);
}

Blob MakeBlob(std::string name, std::string_view bytes) {
  Blob blob;
  blob.name = std::move(name);
  blob.size = bytes.size();
  blob.truncated = bytes.size() > kMaxEvidenceBytes;
  std::string_view kept = bytes.substr(0, kMaxEvidenceBytes);
  if (IsValidUtf8(bytes)) {
    // The cut must not split the last character: drop its first bytes if its rest was cut off.
    std::size_t lead = kept.size();
    auto byte = [&](std::size_t i) { return static_cast<unsigned char>(kept[i]); };
    while (lead > 0 && kept.size() - lead < 3 && (byte(lead - 1) & 0xC0) == 0x80) --lead;
    if (blob.truncated && lead > 0) {
      const unsigned char first = byte(lead - 1);
      const std::size_t length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1;
      if (kept.size() - (lead - 1) < length) kept = kept.substr(0, lead - 1);
    }
    blob.encoding = "text";
    blob.content = std::string(kept);
    return blob;
  }
  blob.encoding = "hex";
  static constexpr char kDigits[] = "0123456789abcdef";
  blob.content.reserve(2 * kept.size());
  for (unsigned char byte : kept) {
    blob.content += kDigits[byte >> 4];
    blob.content += kDigits[byte & 0xF];
  }
  return blob;
}

bool Answered(const CaseResult& c) {
  return c.outcome == Outcome::kPassed || c.outcome == Outcome::kFailed ||
         (c.outcome == Outcome::kKnownFailure && c.error_kind.empty());
}

void StrictCounts::Add(Strict strict) {
  switch (strict) {
    case Strict::kNotJudged:
      ++not_judged;
      break;
    case Strict::kPassed:
      ++passed;
      break;
    case Strict::kFailed:
      ++failed;
      break;
  }
}

void Counts::Add(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPassed:
      ++passed;
      break;
    case Outcome::kFailed:
      ++failed;
      break;
    case Outcome::kErrored:
      ++errored;
      break;
    case Outcome::kSkipped:
      ++skipped;
      break;
    case Outcome::kKnownFailure:
      ++known_failures;
      break;
  }
  ++total;
}

std::string ToJson(const Report& report) {
  Writer w;
  WriteValue(report, &w);
  return std::move(w).Take();
}

Status CheckUniqueCases(const Report& report, std::string_view which) {
  using Key = std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>;
  std::set<Key> seen;
  for (const ImplementationReport& impl : report.implementations) {
    for (const CaseResult& c : impl.cases) {
      if (!seen.emplace(impl.name, c.format, c.id, c.operation).second) {
        return Status(StatusCode::kParseError, std::string(which) + "case " + c.id + " (" +
                                                   c.operation + ") appears twice for " +
                                                   impl.name + "/" + c.format);
      }
    }
  }
  return Status::Ok();
}

Result<Report> FromJson(std::string_view text) {
  json::Document doc;
  // A report nests seven levels deep; the default bound leaves ample room.
  if (Status s = json::ParseData(text, &doc); !s.ok()) return s;
  Report report;
  Status status;
  ReadRecord(&doc.root(), "", &status, &report);
  if (!status.ok()) return status;
  if (Status unique = CheckUniqueCases(report, "/implementations: "); !unique.ok()) return unique;
  return report;
}

Result<Report> ReadReportFile(const std::string& path) {
  Result<std::string> text =
      path == "-" ? ReadAll(0, "standard input", kMaxReportBytes) : ReadFile(path, kMaxReportBytes);
  if (!text.ok()) return text.status();
  Result<Report> report = FromJson(*text);
  if (!report.ok()) {
    return Status(report.status().code(), path + ": " + report.status().message());
  }
  return report;
}

void Recount(ImplementationReport* impl) {
  impl->summary = {};
  for (FormatSummary& f : impl->formats) {
    f.counts = {};
    for (OperationSummary& op : f.operations) {
      op.counts = {};
      op.by_level.clear();
    }
  }
  for (const CaseResult& c : impl->cases) {
    impl->summary.Add(c.outcome);
    for (FormatSummary& f : impl->formats) {
      if (f.format != c.format) continue;
      f.counts.Add(c.outcome);
      for (OperationSummary& op : f.operations) {
        if (op.operation != c.operation) continue;
        op.counts.Add(c.outcome);
        op.by_level[c.level].Add(c.outcome);
      }
    }
  }
  SummarizeReadings(impl);
}

void SummarizeReadings(ImplementationReport* impl) {
  for (FormatSummary& f : impl->formats) {
    f.strict = {};
    std::map<std::string, FlagSummary> flags;
    for (const CaseResult& c : impl->cases) {
      if (c.format != f.format) continue;
      f.strict.Add(c.strict);
      // Acceptable cases, and required ones whose output a flag's readings split (MCP replay).
      if (c.flag.empty()) continue;
      FlagSummary& flag = flags[c.flag];
      if (!Answered(c)) continue;
      ++flag.cases;
      // A reading listed twice still fits the case once.
      for (const std::string& reading :
           std::set<std::string>(c.readings.begin(), c.readings.end())) {
        ++flag.taken[reading];
      }
    }
    f.flags.clear();
    for (auto& [name, flag] : flags) {
      flag.flag = name;
      for (const auto& [reading, n] : flag.taken) {
        if (n == flag.cases) flag.readings.push_back(reading);
      }
      flag.consistent = !flag.readings.empty() || flag.cases == 0;
      f.flags.push_back(std::move(flag));
    }
  }
}

}  // namespace arcs::report
