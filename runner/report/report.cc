#include "runner/report/report.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <tuple>

#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/core/json_fields.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "runner/report/escape.h"

namespace arcs::report {
namespace {

constexpr std::string_view kOutcomeNames[] = {"passed", "failed", "errored", "skipped",
                                              "known_failure"};
constexpr std::string_view kGroundNames[] = {"required", "policy", "acceptable", "resource"};
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

void WriteCounts(const Counts& c, Writer* w) {
  w->BeginObject();
  w->Key("passed");
  w->Unsigned(c.passed);
  w->Key("failed");
  w->Unsigned(c.failed);
  w->Key("errored");
  w->Unsigned(c.errored);
  w->Key("skipped");
  w->Unsigned(c.skipped);
  w->Key("known_failures");
  w->Unsigned(c.known_failures);
  w->Key("total");
  w->Unsigned(c.total);
  w->EndObject();
}

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

void WriteFlag(const FlagSummary& flag, Writer* w) {
  w->BeginObject();
  w->Key("flag");
  w->String(flag.flag);
  w->Key("cases");
  w->Unsigned(flag.cases);
  w->Key("readings");
  w->StringList(flag.readings);
  w->Key("consistent");
  w->Bool(flag.consistent);
  w->Key("taken");
  WriteMap(flag.taken, w, [w](std::uint64_t n) { w->Unsigned(n); });
  w->EndObject();
}

void WriteStrict(const StrictCounts& strict, Writer* w) {
  w->BeginObject();
  w->Key("passed");
  w->Unsigned(strict.passed);
  w->Key("failed");
  w->Unsigned(strict.failed);
  w->Key("not_judged");
  w->Unsigned(strict.not_judged);
  w->EndObject();
}

void WriteOperation(const OperationSummary& op, Writer* w) {
  w->BeginObject();
  w->Key("operation");
  w->String(op.operation);
  w->Key("supported");
  w->Bool(op.supported);
  w->Key("counts");
  WriteCounts(op.counts, w);
  w->Key("by_level");
  WriteMap(op.by_level, w, [w](const Counts& counts) { WriteCounts(counts, w); });
  w->EndObject();
}

void WriteFormat(const FormatSummary& f, Writer* w) {
  w->BeginObject();
  w->Key("format");
  w->String(f.format);
  w->Key("certification");
  w->String(f.certification);
  w->Key("missing");
  w->StringList(f.missing);
  w->Key("policies");
  WriteMap(f.policies, w, [w](const std::string& value) { w->String(value); });
  w->Key("counts");
  WriteCounts(f.counts, w);
  w->Key("operations");
  w->BeginArray();
  for (const OperationSummary& op : f.operations) {
    w->Element();
    WriteOperation(op, w);
  }
  w->EndArray();
  w->Key("flags");
  w->BeginArray();
  for (const FlagSummary& flag : f.flags) {
    w->Element();
    WriteFlag(flag, w);
  }
  w->EndArray();
  w->Key("strict");
  WriteStrict(f.strict, w);
  w->EndObject();
}

void WriteBlobs(const std::vector<Blob>& blobs, Writer* w) {
  w->BeginArray();
  for (const Blob& b : blobs) {
    w->Element();
    w->BeginObject();
    w->Key("name");
    w->String(b.name);
    w->Key("size");
    w->Unsigned(b.size);
    w->Key("encoding");
    w->String(b.encoding);
    w->Key("content");
    w->String(b.content);
    w->Key("truncated");
    w->Bool(b.truncated);
    w->EndObject();
  }
  w->EndArray();
}

void WriteFindings(const std::vector<FindingEvidence>& findings, Writer* w) {
  w->BeginArray();
  for (const FindingEvidence& f : findings) {
    w->Element();
    w->BeginObject();
    w->Key("rule");
    w->String(f.rule);
    w->Key("severity");
    w->String(f.severity);
    w->Key("line");
    w->Unsigned(f.line);
    w->Key("message");
    w->String(f.message);
    w->EndObject();
  }
  w->EndArray();
}

void WriteEvidence(const std::optional<Evidence>& evidence, Writer* w) {
  if (!evidence) {
    w->Null();
    return;
  }
  const Evidence& e = *evidence;
  w->BeginObject();
  w->Key("vector");
  w->String(e.vector);
  w->Key("spec_text");
  w->String(e.spec_text);
  w->Key("inputs");
  WriteBlobs(e.inputs, w);
  w->Key("expected_properties");
  w->String(e.expected_properties);
  w->Key("expected_errors");
  w->StringList(e.expected_errors);
  w->Key("expected_warnings");
  w->StringList(e.expected_warnings);
  w->Key("verdict");
  w->String(e.verdict);
  w->Key("findings");
  WriteFindings(e.findings, w);
  w->Key("findings_total");
  w->Unsigned(e.findings_total);
  w->Key("outputs");
  WriteBlobs(e.outputs, w);
  w->Key("reference_outputs");
  WriteBlobs(e.reference_outputs, w);
  w->EndObject();
}

void WriteRequirements(const std::vector<RequirementInfo>& requirements, Writer* w) {
  w->BeginArray();
  for (const RequirementInfo& r : requirements) {
    w->Element();
    w->BeginObject();
    w->Key("id");
    w->String(r.id);
    w->Key("format");
    w->String(r.format);
    w->Key("section");
    w->String(r.section);
    w->Key("level");
    w->String(r.level);
    w->Key("text");
    w->String(r.text);
    w->EndObject();
  }
  w->EndArray();
}

void WriteCase(const CaseResult& c, Writer* w) {
  w->BeginObject();
  w->Key("id");
  w->String(c.id);
  w->Key("format");
  w->String(c.format);
  w->Key("operation");
  w->String(c.operation);
  w->Key("requirements");
  w->StringList(c.requirements);
  w->Key("level");
  w->String(c.level);
  w->Key("outcome");
  w->String(OutcomeName(c.outcome));
  w->Key("error_kind");
  w->String(c.error_kind);
  w->Key("expected");
  w->String(c.expected);
  w->Key("actual");
  w->String(c.actual);
  w->Key("message");
  w->String(c.message);
  w->Key("rerun");
  w->Bool(c.rerun);
  w->Key("rules");
  w->String(c.rules);
  w->Key("mismatch");
  w->String(c.mismatch);
  w->Key("ground");
  w->String(GroundName(c.ground));
  w->Key("flag");
  w->String(c.flag);
  w->Key("policy");
  w->String(c.policy);
  w->Key("readings");
  w->StringList(c.readings);
  w->Key("strict");
  w->String(StrictName(c.strict));
  w->Key("peak_rss_bytes");
  w->Unsigned(c.peak_rss_bytes);
  w->Key("seconds");
  w->Double(c.seconds);
  w->Key("evidence");
  WriteEvidence(c.evidence, w);
  w->EndObject();
}

void WriteImplementation(const ImplementationReport& impl, Writer* w) {
  w->BeginObject();
  w->Key("name");
  w->String(impl.name);
  w->Key("version");
  w->String(impl.version);
  w->Key("language");
  w->String(impl.language);
  w->Key("homepage");
  w->String(impl.homepage);
  w->Key("command");
  w->String(impl.command);
  w->Key("summary");
  WriteCounts(impl.summary, w);
  w->Key("formats");
  w->BeginArray();
  for (const FormatSummary& f : impl.formats) {
    w->Element();
    WriteFormat(f, w);
  }
  w->EndArray();
  w->Key("cases");
  w->BeginArray();
  for (const CaseResult& c : impl.cases) {
    w->Element();
    WriteCase(c, w);
  }
  w->EndArray();
  w->Key("abandoned");
  w->Bool(impl.abandoned);
  w->Key("restarts");
  w->Unsigned(impl.restarts);
  w->Key("stderr_tail");
  w->String(impl.stderr_tail);
  w->EndObject();
}

void WriteRun(const RunInfo& run, Writer* w) {
  w->BeginObject();
  w->Key("arcs_version");
  w->String(run.arcs_version);
  w->Key("started_at");
  w->String(run.started_at);
  w->Key("seconds");
  w->Double(run.seconds);
  w->Key("jobs");
  w->Int(run.jobs);
  w->Key("timeout_seconds");
  w->Double(run.timeout_seconds);
  w->Key("cpu_timeout_seconds");
  w->Double(run.cpu_timeout_seconds);
  w->Key("filters");
  w->StringList(run.filters);
  w->Key("known_failures");
  w->String(run.known_failures);
  w->EndObject();
}

void ReadCounts(const json::Value* value, const std::string& pointer, Status* status, Counts* c) {
  json::FieldReader r(value, pointer, status);
  r.Count("passed", &c->passed);
  r.Count("failed", &c->failed);
  r.Count("errored", &c->errored);
  r.Count("skipped", &c->skipped);
  r.Count("known_failures", &c->known_failures);
  r.Count("total", &c->total);
  r.Finish();
}

void ReadStrict(const json::Value* value, const std::string& pointer, Status* status,
                StrictCounts* s) {
  json::FieldReader r(value, pointer, status);
  r.Count("passed", &s->passed);
  r.Count("failed", &s->failed);
  r.Count("not_judged", &s->not_judged);
  r.Finish();
}

void ReadFlag(const json::Value& value, const std::string& pointer, Status* status,
              FlagSummary* flag) {
  json::FieldReader r(&value, pointer, status);
  r.String("flag", &flag->flag);
  r.Count("cases", &flag->cases);
  r.StringList("readings", &flag->readings);
  r.Bool("consistent", &flag->consistent);
  // FieldReader reads counts only as members it is asked for by name; these are keyed by
  // reading, so each value is checked here with the same rule as FieldReader::Count.
  r.ForEachMember(
      "taken", true, [&](std::string_view reading, const json::Value& item, const std::string& p) {
        if (!item.is_number()) {
          r.Fail(p, "expected a number, found " + json::DescribeKind(item.kind()));
          return;
        }
        const std::optional<std::int64_t> n = json::ToInt64(item.text());
        if (!n || *n < 0) {
          r.Fail(p, "expected a non-negative integer, found " + std::string(item.text()));
          return;
        }
        flag->taken[std::string(reading)] = static_cast<std::uint64_t>(*n);
      });
  r.Finish();
}

void ReadOperation(const json::Value& value, const std::string& pointer, Status* status,
                   OperationSummary* op) {
  json::FieldReader r(&value, pointer, status);
  r.String("operation", &op->operation);
  r.Bool("supported", &op->supported);
  ReadCounts(r.Required("counts", json::Kind::kObject), r.Pointer("counts"), status, &op->counts);
  r.ForEachMember("by_level", true,
                  [&](std::string_view level, const json::Value& item, const std::string& p) {
                    ReadCounts(&item, p, status, &op->by_level[std::string(level)]);
                  });
  r.Finish();
}

void ReadFormat(const json::Value& value, const std::string& pointer, Status* status,
                FormatSummary* f) {
  json::FieldReader r(&value, pointer, status);
  r.String("format", &f->format);
  r.String("certification", &f->certification);
  r.StringList("missing", &f->missing);
  r.StringMap("policies", &f->policies);
  ReadCounts(r.Required("counts", json::Kind::kObject), r.Pointer("counts"), status, &f->counts);
  r.ForEach("operations", true, [&](const json::Value& item, const std::string& p) {
    ReadOperation(item, p, status, &f->operations.emplace_back());
  });
  r.ForEach("flags", true, [&](const json::Value& item, const std::string& p) {
    ReadFlag(item, p, status, &f->flags.emplace_back());
  });
  ReadStrict(r.Required("strict", json::Kind::kObject), r.Pointer("strict"), status, &f->strict);
  r.Finish();
}

void ReadBlobs(json::FieldReader& parent, std::string_view name, Status* status,
               std::vector<Blob>* blobs) {
  parent.ForEach(name, true, [&](const json::Value& item, const std::string& p) {
    json::FieldReader r(&item, p, status);
    Blob& b = blobs->emplace_back();
    r.String("name", &b.name);
    r.Count("size", &b.size);
    r.String("encoding", &b.encoding);
    if (status->ok() && b.encoding != "text" && b.encoding != "hex") {
      r.Fail(r.Pointer("encoding"), "expected \"text\" or \"hex\"");
    }
    r.String("content", &b.content);
    r.Bool("truncated", &b.truncated);
    r.Finish();
  });
}

void ReadEvidence(const json::Value& value, const std::string& pointer, Status* status,
                  Evidence* e) {
  json::FieldReader r(&value, pointer, status);
  r.String("vector", &e->vector);
  r.String("spec_text", &e->spec_text);
  ReadBlobs(r, "inputs", status, &e->inputs);
  r.String("expected_properties", &e->expected_properties);
  r.StringList("expected_errors", &e->expected_errors);
  r.StringList("expected_warnings", &e->expected_warnings);
  r.String("verdict", &e->verdict);
  r.ForEach("findings", true, [&](const json::Value& item, const std::string& p) {
    json::FieldReader f(&item, p, status);
    FindingEvidence& finding = e->findings.emplace_back();
    f.String("rule", &finding.rule);
    f.String("severity", &finding.severity);
    f.Count("line", &finding.line);
    f.String("message", &finding.message);
    f.Finish();
  });
  r.Count("findings_total", &e->findings_total);
  ReadBlobs(r, "outputs", status, &e->outputs);
  ReadBlobs(r, "reference_outputs", status, &e->reference_outputs);
  r.Finish();
}

void ReadRequirements(json::FieldReader& parent, Status* status,
                      std::vector<RequirementInfo>* requirements) {
  parent.ForEach("requirements", true, [&](const json::Value& item, const std::string& p) {
    json::FieldReader r(&item, p, status);
    RequirementInfo& info = requirements->emplace_back();
    r.String("id", &info.id);
    r.String("format", &info.format);
    r.String("section", &info.section);
    r.String("level", &info.level);
    r.String("text", &info.text);
    r.Finish();
  });
}

void ReadCase(const json::Value& value, const std::string& pointer, Status* status, CaseResult* c) {
  json::FieldReader r(&value, pointer, status);
  r.String("id", &c->id);
  r.String("format", &c->format);
  r.String("operation", &c->operation);
  r.StringList("requirements", &c->requirements);
  r.String("level", &c->level);
  if (const json::Value* outcome = r.Required("outcome", json::Kind::kString)) {
    if (!ParseOutcome(outcome->text(), &c->outcome)) {
      r.Fail(r.Pointer("outcome"), "unknown outcome \"" + std::string(outcome->text()) + "\"");
    }
  }
  r.String("error_kind", &c->error_kind);
  r.String("expected", &c->expected);
  r.String("actual", &c->actual);
  r.String("message", &c->message);
  r.Bool("rerun", &c->rerun);
  r.String("rules", &c->rules);
  r.String("mismatch", &c->mismatch);
  if (const json::Value* ground = r.Required("ground", json::Kind::kString)) {
    if (!ParseGround(ground->text(), &c->ground)) {
      r.Fail(r.Pointer("ground"), "unknown ground \"" + std::string(ground->text()) + "\"");
    }
  }
  r.String("flag", &c->flag);
  r.String("policy", &c->policy);
  r.StringList("readings", &c->readings);
  if (const json::Value* strict = r.Required("strict", json::Kind::kString)) {
    if (!ParseStrict(strict->text(), &c->strict)) {
      r.Fail(r.Pointer("strict"), "unknown strict value \"" + std::string(strict->text()) + "\"");
    }
  }
  r.Count("peak_rss_bytes", &c->peak_rss_bytes);
  r.Double("seconds", &c->seconds);
  if (status->ok() && c->seconds < 0) r.Fail(r.Pointer("seconds"), "must not be negative");
  if (const json::Value* evidence = r.OptionalAny("evidence"); !evidence) {
    r.Fail(r.Pointer("evidence"), "missing member (null when there is no evidence)");
  } else if (evidence->is_object()) {
    ReadEvidence(*evidence, r.Pointer("evidence"), status, &c->evidence.emplace());
  } else if (!evidence->is_null()) {
    r.Fail(r.Pointer("evidence"), "expected an object or null");
  }
  r.Finish();
}

void ReadImplementation(const json::Value& value, const std::string& pointer, Status* status,
                        ImplementationReport* impl) {
  json::FieldReader r(&value, pointer, status);
  r.String("name", &impl->name);
  r.String("version", &impl->version);
  r.String("language", &impl->language);
  r.String("homepage", &impl->homepage);
  r.String("command", &impl->command);
  ReadCounts(r.Required("summary", json::Kind::kObject), r.Pointer("summary"), status,
             &impl->summary);
  r.ForEach("formats", true, [&](const json::Value& item, const std::string& p) {
    ReadFormat(item, p, status, &impl->formats.emplace_back());
  });
  r.ForEach("cases", true, [&](const json::Value& item, const std::string& p) {
    ReadCase(item, p, status, &impl->cases.emplace_back());
  });
  r.Bool("abandoned", &impl->abandoned);
  r.Count("restarts", &impl->restarts);
  r.String("stderr_tail", &impl->stderr_tail);
  r.Finish();
}

void ReadRun(const json::Value* value, const std::string& pointer, Status* status, RunInfo* run) {
  json::FieldReader r(value, pointer, status);
  r.String("arcs_version", &run->arcs_version);
  r.String("started_at", &run->started_at);
  r.Double("seconds", &run->seconds);
  r.Int("jobs", &run->jobs);
  r.Double("timeout_seconds", &run->timeout_seconds);
  // Reports written before --timeout-cpu have none.
  if (const json::Value* cpu = r.Optional("cpu_timeout_seconds", json::Kind::kNumber)) {
    run->cpu_timeout_seconds = json::ToDouble(cpu->text()).value_or(-1);
  }
  // The schema's bounds: no negative time, and at least one worker.
  if (status->ok() && run->seconds < 0) r.Fail(r.Pointer("seconds"), "must not be negative");
  if (status->ok() && run->jobs < 1) r.Fail(r.Pointer("jobs"), "must be at least 1");
  if (status->ok() && run->timeout_seconds < 0) {
    r.Fail(r.Pointer("timeout_seconds"), "must not be negative");
  }
  if (status->ok() && run->cpu_timeout_seconds < 0) {
    r.Fail(r.Pointer("cpu_timeout_seconds"), "must not be negative");
  }
  r.StringList("filters", &run->filters);
  r.String("known_failures", &run->known_failures);
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
    CutList(&e.expected_errors, kMaxListItems, kMaxShortJsonBytes);
    CutList(&e.expected_warnings, kMaxListItems, kMaxShortJsonBytes);
    if (e.findings.size() > kMaxEvidenceFindings) e.findings.resize(kMaxEvidenceFindings);
    for (FindingEvidence& f : e.findings) {
      f.rule = CutText(f.rule, kMaxShortJsonBytes);
      f.severity = CutText(f.severity, kMaxShortJsonBytes);
      f.message = CutText(f.message, kMaxShortJsonBytes * 2);
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
  WriteCase(c, &w);
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
    // Findings from the last, as many as the excess takes (each measured as written), then again.
    for (std::size_t size = CaseJsonBytes(*c); size > kMaxCaseJsonBytes && !e.findings.empty();
         size = CaseJsonBytes(*c)) {
      for (std::size_t freed = 0; freed < size - kMaxCaseJsonBytes && !e.findings.empty();) {
        Writer w(6);  // ... a case, its evidence
        w.Element();
        WriteFindings({e.findings.back()}, &w);
        freed += w.size();
        e.findings.pop_back();
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

std::string_view GroundName(Ground ground) {
  return kGroundNames[static_cast<std::size_t>(ground)];
}

bool ParseGround(std::string_view name, Ground* ground) {
  return ParseName(kGroundNames, name, ground);
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
  w.BeginObject();
  w.Key("report_version");
  w.Int(report.report_version);
  w.Key("complete");
  w.Bool(report.complete);
  w.Key("run");
  WriteRun(report.run, &w);
  w.Key("implementations");
  w.BeginArray();
  for (const ImplementationReport& impl : report.implementations) {
    w.Element();
    WriteImplementation(impl, &w);
  }
  w.EndArray();
  w.Key("requirements");
  WriteRequirements(report.requirements, &w);
  w.EndObject();
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
  json::FieldReader r(&doc.root(), "", &status);
  r.Int("report_version", &report.report_version);
  if (status.ok() && report.report_version != kReportVersion) {
    return Status(StatusCode::kUnsupported,
                  "/report_version: " + std::to_string(report.report_version) +
                      " is not supported (this build reads version " +
                      std::to_string(kReportVersion) + ")");
  }
  r.Bool("complete", &report.complete);
  ReadRun(r.Required("run", json::Kind::kObject), r.Pointer("run"), &status, &report.run);
  r.ForEach("implementations", true, [&](const json::Value& item, const std::string& p) {
    ReadImplementation(item, p, &status, &report.implementations.emplace_back());
  });
  ReadRequirements(r, &status, &report.requirements);
  r.Finish();
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
