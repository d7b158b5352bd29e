#include "reference/spool/spool.h"

#include <functional>
#include <limits>
#include <utility>

#include "reference/core/base64.h"

namespace arcs::spool {
namespace {

Status OverLimit(std::uint64_t line, std::string message) {
  return Status(StatusCode::kLimitExceeded, "line " + std::to_string(line) + ": " + message);
}

// The binary objects whose "data" §10.1 bounds: tool_result.output and prompt.attachments items.
Status CheckBase64Sizes(const Entry& entry, const Limits& limits) {
  auto check = [&](const json::Value& binary) -> Status {
    const json::Value* type = binary.Find("type");
    const json::Value* data = binary.Find("data");
    if (!type || type->text() != "binary" || !data || !data->is_string()) return Status::Ok();
    std::optional<std::size_t> size = base64::DecodedSize(data->text());
    if (size && *size > limits.max_base64_bytes) {
      return OverLimit(entry.line, "base64 data decodes to " + std::to_string(*size) +
                                       " bytes, over max_base64_bytes=" +
                                       std::to_string(limits.max_base64_bytes));
    }
    return Status::Ok();
  };
  if (const json::Value* output = entry.value().Find("output")) {
    if (Status s = check(*output); !s.ok()) return s;
  }
  if (const json::Value* attachments = entry.value().Find("attachments")) {
    for (const json::Value& item : attachments->items()) {
      if (Status s = check(item); !s.ok()) return s;
    }
  }
  return Status::Ok();
}

std::optional<Uuid> UuidMember(const json::Value& entry, std::string_view name) {
  const json::Value* v = entry.Find(name);
  return v && v->is_string() ? ParseLowercaseUuid(v->text()) : std::nullopt;
}

// What the subagent depth check (§6.8.3) needs of the entries, gathered as they are read so that
// they need not be kept: each start that names a parent, and every entry's id and whether it is a
// subagent_start (17 bytes an entry).
struct SubagentFacts {
  std::vector<SubagentLink> links;
  std::vector<std::pair<Uuid, bool>> ids;

  void Add(const Entry& entry) {
    const std::optional<Uuid> id = UuidMember(entry.value(), "id");
    if (!id) return;
    const bool is_start = entry.type() == "subagent_start";
    ids.emplace_back(*id, is_start);
    if (!is_start) return;
    if (std::optional<Uuid> parent = UuidMember(entry.value(), "parent_subagent_id")) {
      links.push_back({*id, *parent, static_cast<std::uint32_t>(entry.line)});
    }
  }
};

// Only parents are asked whether they are starts, so only their ids are counted, and a file with
// no parent_subagent_id has nothing to count: a million entries once cost a million map nodes.
Status CheckSubagentDepth(const SubagentFacts& facts, const Limits& limits) {
  const std::vector<SubagentLink>& links = facts.links;
  if (links.empty()) return Status::Ok();
  // Each parent's id -> the entries with that id, all subagent starts (-1: one is not).
  std::unordered_map<Uuid, int, UuidHash> starts;
  for (const SubagentLink& link : links) starts.emplace(link.parent, 0);
  for (const auto& [id, is_start] : facts.ids) {
    auto counted = starts.find(id);
    if (counted == starts.end()) continue;
    int& count = counted->second;
    count = (count < 0 || !is_start) ? -1 : count + 1;
  }
  auto is_start = [&](const Uuid& id) {
    auto it = starts.find(id);
    return it != starts.end() && it->second == 1;
  };
  std::vector<DepthViolation> violations =
      FindDepthViolations(links, is_start, limits.max_subagent_depth);
  if (violations.empty()) return Status::Ok();
  const DepthViolation& v = violations.front();
  return OverLimit(links[v.link].line, v.depth == 0
                                           ? "parent_subagent_id chains form a cycle"
                                           : "subagent nesting depth " + std::to_string(v.depth) +
                                                 " is over max_subagent_depth=" +
                                                 std::to_string(limits.max_subagent_depth));
}

Status Reject(std::uint64_t line, std::string message) {
  return Status(StatusCode::kParseError, "line " + std::to_string(line) + ": " + message);
}

}  // namespace

jsonl::LineOptions LineOptionsFor(const Limits& limits) {
  jsonl::LineOptions options;
  options.max_line_bytes = limits.max_line_bytes;
  options.max_total_bytes = limits.max_file_bytes;
  return options;
}

json::ParseOptions ParseOptionsFor(const Limits& limits) {
  json::ParseOptions options;
  options.max_depth = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(limits.max_json_depth, std::numeric_limits<std::uint32_t>::max()));
  return options;
}

std::string_view Entry::type() const {
  const json::Value* type = value().Find("type");
  return type && type->is_string() ? type->text() : std::string_view();
}

namespace {

// One entry as §3 asks writers to put it: compact JSON, then "\n".
void WriteLine(const Entry& entry, std::string* out) {
  json::Write(entry.value(), out);
  out->push_back('\n');
}

// Read's loop: each entry it keeps goes to `on_entry`, in order, as soon as it is read; what needs
// them all (the subagent depth) is judged at the end from what SubagentFacts kept of them.
Status ReadEach(jsonl::ByteSource* source, const ReadOptions& options, Diagnostics* notes,
                const std::function<void(Entry&&)>& on_entry) {
  const Limits& limits = options.limits;
  jsonl::LineReader reader(source, LineOptionsFor(limits));
  json::ParseOptions parse_options = ParseOptionsFor(limits);
  std::uint64_t entries = 0;
  SubagentFacts subagents;
  jsonl::Line line;
  while (true) {
    Result<bool> next = reader.Next(&line);
    if (!next.ok()) return next.status();
    if (!*next) break;
    if (line.too_long) {
      return Status(StatusCode::kLimitExceeded,
                    "line " + std::to_string(line.number) + ": " + std::to_string(line.length) +
                        " bytes is over max_line_bytes=" + std::to_string(limits.max_line_bytes));
    }
    if (jsonl::IsBlank(line.text)) continue;  // §3.6: blank lines MUST be ignored by readers
    Entry entry;
    entry.line = line.number;
    std::string problem;
    if (!entry.document.Parse(line.text, parse_options)) {
      if (entry.document.error().code == json::ErrorCode::kDepthExceeded) {
        return Status(StatusCode::kLimitExceeded, "line " + std::to_string(line.number) +
                                                      ": JSON nesting is over max_json_depth=" +
                                                      std::to_string(limits.max_json_depth));
      }
      problem = "not JSON: " + entry.document.error().message;
    } else if (!entry.value().is_object()) {
      problem = "not a JSON object";
    }
    if (!problem.empty()) {
      if (options.invalid_line == InvalidLinePolicy::kReject) return Reject(line.number, problem);
      if (notes) {
        // Filled member by member: GCC 12 -O3 takes a braced Finding temporary here for
        // uninitialized (-Wmaybe-uninitialized, a false positive).
        Finding note;
        note.rule_id = "SP-11.4.3-1";
        note.severity = Severity::kWarning;
        note.location.line = line.number;
        note.message = "skipped: " + problem;
        notes->Add(std::move(note));
      }
      continue;
    }
    if (entries == 0 && entry.type() != "session") {
      return Reject(line.number, "the first entry is not a session entry (§4.1, §11.4.2)");
    }
    if (entries >= limits.max_entries) {
      return Status(StatusCode::kLimitExceeded,
                    "line " + std::to_string(line.number) +
                        ": more entries than max_entries=" + std::to_string(limits.max_entries));
    }
    if (Status s = CheckBase64Sizes(entry, limits); !s.ok()) return s;
    ++entries;
    subagents.Add(entry);
    on_entry(std::move(entry));
  }
  if (entries == 0) {
    return Status(StatusCode::kParseError, "the file has no entries (§4.3, §11.4.1)");
  }
  return CheckSubagentDepth(subagents, limits);
}

}  // namespace

Result<File> Read(jsonl::ByteSource* source, const ReadOptions& options, Diagnostics* notes) {
  File file;
  Status read = ReadEach(source, options, notes,
                         [&](Entry&& entry) { file.entries.push_back(std::move(entry)); });
  if (!read.ok()) return read;
  return file;
}

Result<std::string> Rewrite(jsonl::ByteSource* source, const ReadOptions& options) {
  std::string out;
  Status read = ReadEach(source, options, nullptr, [&](Entry&& entry) { WriteLine(entry, &out); });
  if (!read.ok()) return read;
  return out;
}

void Write(const File& file, std::string* out) {
  for (const Entry& entry : file.entries) WriteLine(entry, out);
}

}  // namespace arcs::spool
