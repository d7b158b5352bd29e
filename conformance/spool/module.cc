#include "conformance/spool/module.h"

#include <set>

#include "conformance/spool/checker.h"
#include "conformance/spool/probes.h"
#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::conformance::spool {

// Built at compile time from conformance/spool/requirements.json (see conformance/CMakeLists.txt).
std::string_view CatalogueText();

namespace {

using arcs::spool::Limits;

// §10.1: "Set maximum limits for: Total file size, Individual line length, Number of entries,
// Nesting depth (for subagents), Base64 decoded size"; JSON nesting depth is §9.5's "MAY impose
// limits" (errata SP-E31). The defaults are the reader's (reference/spool/spool.h).
const std::vector<BoundLimit<Limits>>& SpoolLimits() {
  static const Limits d;
  static const std::vector<BoundLimit<Limits>> limits = {
      {{"max_file_bytes", d.max_file_bytes, "SP-10.1-1", "bytes in the whole file, a BOM included"},
       &Limits::max_file_bytes},
      {{kMaxLineBytesLimit, d.max_line_bytes, "SP-10.1-2", "bytes in one line, not its ending"},
       &Limits::max_line_bytes},
      {{"max_entries", d.max_entries, "SP-10.1-3", "entries (non-blank lines)"},
       &Limits::max_entries},
      {{kMaxJsonDepthLimit, d.max_json_depth, "SP-9.5-1",
        "nesting of arrays and objects in one line (the line's object is 1)"},
       &Limits::max_json_depth},
      {{"max_subagent_depth", d.max_subagent_depth, "SP-10.1-4",
        "subagent nesting along parent_subagent_id (a top-level start is 1)"},
       &Limits::max_subagent_depth},
      {{"max_base64_bytes", d.max_base64_bytes, "SP-10.1-5",
        "decoded size of one base64 data value"},
       &Limits::max_base64_bytes},
  };
  return limits;
}

// §3.3: "Implementations MAY check that the first line is valid JSON containing
// "type":"session" as a heuristic for format detection."
bool LooksLikeSpool(std::string_view head) {
  if (head.starts_with(kUtf8Bom)) head.remove_prefix(kUtf8Bom.size());
  std::string_view first = head.substr(0, head.find('\n'));
  json::Document doc;
  if (!doc.Parse(first)) return false;
  const json::Value* type = doc.root().Find("type");
  return type && type->is_string() && type->text() == "session";
}

void ValidateFile(jsonl::ByteSource* source, const CompanionSources&, const LimitValues& limits,
                  Diagnostics* out) {
  Validate(source, ToSpoolLimits(limits), out);
}

protocol::Answer ValidateAnswer(const CaseInput& input) {
  return ValidateCaseAnswer(Module(), input);
}

// A line holding ill-formed UTF-8, a byte order mark or a raw control character in a string is
// also no JSON text (RFC 8259 §7, §8.1): it breaks "Each line MUST contain exactly one JSON object"
// (SP-3.6-1) as much as the rule the validator cites for the defect itself.
std::set<std::string> MoreBrokenRules(const CaseInput& input) {
  for (const protocol::ReportedFinding& f : ValidateAnswer(input).findings) {
    if (f.severity == "error" && (f.rule == "SP-3.4-1" || f.rule == "SP-9.1-2")) {
      return {"SP-3.6-1"};
    }
  }
  return {};
}

protocol::Answer RoundtripAnswer(const CaseInput& input) {
  arcs::spool::ReadOptions options;
  options.limits = ToSpoolLimits(input.limits);
  jsonl::MemorySource source(input.Input("file"));
  Result<std::string> written = arcs::spool::Rewrite(&source, options);
  protocol::Answer answer;
  if (!written.ok()) {
    answer.verdict = protocol::Verdict::kInvalid;
    return answer;
  }
  answer.outputs["file"] = std::move(*written);
  return answer;
}

// The lines of `input` the validator finds an error on, or marks with a note naming an errata
// reading (an entry ARCS accepts that another reading makes invalid: checker.cc, NoteByReading):
// the entries a reader declaring invalid_entry=skip may drop.
std::set<std::uint64_t> LinesWithErrors(const std::string& input, const Limits& limits) {
  std::set<std::uint64_t> lines;
  jsonl::MemorySource source(input);
  Diagnostics diagnostics;
  Validate(&source, limits, &diagnostics);
  for (const Finding& f : diagnostics.findings()) {
    const bool entry_reading = f.severity == Severity::kNote && !f.reading.empty();
    if ((f.severity == Severity::kError || entry_reading) && f.location.line) {
      lines.insert(f.location.line);
    }
  }
  return lines;
}

bool Declares(const std::map<std::string, std::string>& policies, const std::string& policy,
              const std::string& choice) {
  auto it = policies.find(policy);
  return it != policies.end() && it->second == choice;
}

// What a round trip may leave out of, or put into, its output beyond the entries ARCS reads.
struct Allowance {
  std::set<std::uint64_t> droppable_lines;  // input lines whose entry may be missing
  std::size_t stand_ins = 0;                // output lines that may match no entry
  // Entries sharing an id (indices): all but one may be missing, not all.
  std::vector<std::vector<std::size_t>> duplicate_ids;
};

Allowance AllowanceFor(const AnswerCheck& check, const arcs::spool::File& expected,
                       std::size_t skipped_lines, const Limits& limits) {
  Allowance allow;
  // §10.1 item 3, declared invalid_entry=skip: the entries ARCS finds faults in.
  if (Declares(check.policies, "invalid_entry", "skip")) {
    allow.droppable_lines = LinesWithErrors(check.input.Input("file"), limits);
  }
  // An acceptable reading may find an entry invalid, or a line readable, where ARCS does not:
  // under a skip policy any entry after the session may go, and a line ARCS skipped may be kept.
  if (check.ambiguous) {
    if (Declares(check.policies, "invalid_entry", "skip") ||
        Declares(check.policies, "invalid_line", "skip")) {
      for (std::size_t i = 1; i < expected.entries.size(); ++i) {
        allow.droppable_lines.insert(expected.entries[i].line);
      }
    }
    allow.stand_ins = skipped_lines;
  }
  // §11.4.4: a reader "MAY ... Use only the first or last entry with a given ID": one entry of
  // each repeated id stays, unless every one of them may go for another reason (a skipped
  // invalid entry).
  std::map<std::string_view, std::vector<std::size_t>> by_id;
  for (std::size_t i = 0; i < expected.entries.size(); ++i) {
    const json::Value* id = expected.entries[i].value().Find("id");
    if (id && id->is_string()) by_id[id->text()].push_back(i);
  }
  std::vector<std::uint64_t> duplicate_lines;
  for (auto& [id, group] : by_id) {
    if (group.size() < 2) continue;
    bool one_must_stay = false;
    for (std::size_t i : group) {
      duplicate_lines.push_back(expected.entries[i].line);
      one_must_stay = one_must_stay || !allow.droppable_lines.contains(expected.entries[i].line);
    }
    if (one_must_stay) allow.duplicate_ids.push_back(std::move(group));
  }
  allow.droppable_lines.insert(duplicate_lines.begin(), duplicate_lines.end());
  return allow;
}

// "" unless every entry of a repeated id that must keep one (Allowance) is missing.
std::string MissingDuplicate(const Allowance& allow, const std::vector<arcs::spool::Entry>& entries,
                             const std::vector<bool>& kept) {
  for (const std::vector<std::size_t>& group : allow.duplicate_ids) {
    bool any = false;
    for (std::size_t i : group) any = any || kept[i];
    if (!any) {
      return "no entry with the id repeated on input line " +
             std::to_string(entries[group.front()].line) +
             " is in the output (§11.4.4 lets a reader keep the first or the last, not none)";
    }
  }
  return "";
}

// Whether an output line holds the entry: the same data, or (RFC 8259 §4 leaves repeated names
// to the reader) the same with one value kept per repeated name.
bool SameEntry(const json::Value& output, const arcs::spool::Entry& entry) {
  if (json::SameData(entry.value(), output)) return true;
  if (entry.document.duplicates().empty()) return false;
  return json::SameData(entry.value(), output, json::RepeatedNames::kFirst) ||
         json::SameData(entry.value(), output, json::RepeatedNames::kLast);
}

// PROTOCOL.md §3 roundtrip: the output holds the input's entries in order, each the same data,
// less what AllowanceFor allows, and no BOM (§3.4: "Writers MUST NOT emit a BOM"). CRLF endings
// miss a writer's SHOULD (§3.5: "Writers SHOULD use Unix-style line endings"): an advisory, which
// costs only the strict profile. A missing final line ending is no other line ending, so §3.5
// does not reach it. "" or the first problem.
std::string CheckRoundtrip(const AnswerCheck& check) {
  if (check.answer.verdict != protocol::Verdict::kValid) return "";  // rejected: nothing written
  auto out = check.answer.outputs.find("file");
  if (out == check.answer.outputs.end()) return "no output \"file\"";
  const std::string& output = out->second;
  if (output.starts_with(kUtf8Bom)) return "the output starts with a BOM (spool.md §3.4)";
  const Limits limits = ToSpoolLimits(check.input.limits);
  arcs::spool::ReadOptions options;
  options.limits = limits;
  options.invalid_line = arcs::spool::InvalidLinePolicy::kSkip;
  jsonl::MemorySource source(check.input.Input("file"));
  Diagnostics skipped;
  Result<arcs::spool::File> expected = arcs::spool::Read(&source, options, &skipped);
  if (!expected.ok()) {
    return "the reference cannot read the input to compare (" + expected.status().message() + ")";
  }
  Allowance allow = AllowanceFor(check, *expected, skipped.findings().size(), limits);
  const std::vector<arcs::spool::Entry>& entries = expected->entries;
  const json::ParseOptions parse = arcs::spool::ParseOptionsFor(limits);
  std::size_t next = 0;
  std::uint64_t line = 0;
  std::vector<bool> kept(entries.size());
  std::uint64_t crlf_lines = 0;
  std::uint64_t first_crlf_line = 0;
  json::Document doc;
  for (std::size_t start = 0; start < output.size();) {
    std::size_t end = std::min(output.find('\n', start), output.size());
    std::string_view text(output.data() + start, end - start);
    start = end + 1;
    ++line;
    if (end < output.size() && text.ends_with('\r')) {
      text.remove_suffix(1);
      if (crlf_lines++ == 0) first_crlf_line = line;
    }
    const bool parsed = doc.Parse(text, parse) && doc.root().is_object();
    std::size_t probe = next;
    while (parsed && probe < entries.size() &&
           allow.droppable_lines.contains(entries[probe].line) &&
           !SameEntry(doc.root(), entries[probe])) {
      ++probe;
    }
    if (parsed && probe < entries.size() && SameEntry(doc.root(), entries[probe])) {
      kept[probe] = true;
      next = probe + 1;
    } else if (allow.stand_ins > 0) {
      --allow.stand_ins;
    } else if (!parsed) {
      return "output line " + std::to_string(line) + " is not a JSON object" +
             (doc.error().message.empty() ? "" : " (" + doc.error().message + ")");
    } else if (probe == entries.size()) {
      return "output line " + std::to_string(line) +
             " is not an entry of the input (or repeats one)";
    } else {
      return "output line " + std::to_string(line) + " differs from the entry on input line " +
             std::to_string(entries[probe].line);
    }
  }
  while (next < entries.size() && allow.droppable_lines.contains(entries[next].line)) ++next;
  if (next < entries.size()) {
    return "the entry on input line " + std::to_string(entries[next].line) +
           " is missing from the output";
  }
  if (crlf_lines > 0 && check.advisory) {
    *check.advisory = std::to_string(crlf_lines) +
                      " output line(s) end with CRLF, the first line " +
                      std::to_string(first_crlf_line) +
                      " (spool.md §3.5: \"Writers SHOULD use Unix-style line endings\")";
  }
  return MissingDuplicate(allow, entries, kept);
}

FormatModule Build() {
  FormatModule m;
  m.name = "spool";
  m.title = "Spool 1.0";
  m.spec = "spool.md";
  m.spec_version = "1.0";
  m.rule_prefix = "SP-";
  m.extensions = {".spool"};
  m.extension_rule = "SP-3.1-1";
  m.sniff = LooksLikeSpool;
  m.limits = LimitSpecs(SpoolLimits());
  // The reference's choices where spool.md leaves one:
  //  - invalid_line: reject. Skipping would drop a user's line on a round trip, silently
  //    changing what they gave us.
  //  - invalid_entry: keep. A JSON object line that breaks a field rule is kept as it is, so a
  //    round trip loses nothing; its faults are the validator's business.
  //  - major_version: accept. The reader keeps what it cannot interpret; the validator's verdict
  //    on such a file is an acceptable set (errata SP-E28).
  m.policies = {
      {"invalid_line", {"reject", "skip"}, "reject", "spool.md §11.4.3"},
      {"invalid_entry", {"reject", "skip", "keep"}, "keep", "spool.md §10.1 item 3"},
      {"major_version", {"reject", "accept"}, "accept", "spool.md §7.5"},
  };
  m.operations = {
      {"validate",
       "judges whether the input is a conforming Spool file",
       {"file"},
       "valid",
       "invalid",
       ValidateAnswer,
       nullptr},
      {"roundtrip",
       "reads the input as a Spool reader and, if it accepts it, writes it back",
       {"file"},
       "accept",
       "reject",
       RoundtripAnswer,
       CheckRoundtrip},
  };
  m.resource_probes = ResourceProbes();
  m.more_broken_rules = MoreBrokenRules;
  m.rules = AllRules;
  m.validator = ValidateFile;
  m.catalogue_text = CatalogueText;
  return m;
}

}  // namespace

const FormatModule& Module() {
  static const FormatModule module = Build();
  return module;
}

Limits ToSpoolLimits(const LimitValues& values) { return ToReferenceLimits(SpoolLimits(), values); }

}  // namespace arcs::conformance::spool
