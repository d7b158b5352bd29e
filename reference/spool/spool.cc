#include "reference/spool/spool.h"

#include <limits>

namespace arcs::spool {
namespace {

struct LimitField {
  std::string_view name;
  std::uint64_t Limits::*field;
};

constexpr LimitField kLimitFields[] = {
    {"max_file_bytes", &Limits::max_file_bytes},
    {"max_line_bytes", &Limits::max_line_bytes},
    {"max_entries", &Limits::max_entries},
    {"max_json_depth", &Limits::max_json_depth},
    {"max_subagent_depth", &Limits::max_subagent_depth},
    {"max_base64_bytes", &Limits::max_base64_bytes},
};

Status Reject(std::uint64_t line, std::string message) {
  return Status(StatusCode::kParseError, "line " + std::to_string(line) + ": " + message);
}

}  // namespace

Status SetLimit(std::string_view name, std::uint64_t value, Limits* limits) {
  for (const LimitField& f : kLimitFields) {
    if (f.name == name) {
      limits->*f.field = value;
      return Status::Ok();
    }
  }
  return Status(StatusCode::kInvalidArgument, "unknown limit '" + std::string(name) + "'");
}

std::vector<std::pair<std::string_view, std::uint64_t>> ListLimits(const Limits& limits) {
  std::vector<std::pair<std::string_view, std::uint64_t>> out;
  for (const LimitField& f : kLimitFields) out.emplace_back(f.name, limits.*f.field);
  return out;
}

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

Result<File> Read(jsonl::ByteSource* source, const ReadOptions& options, Diagnostics* notes) {
  const Limits& limits = options.limits;
  jsonl::LineReader reader(source, LineOptionsFor(limits));
  json::ParseOptions parse_options = ParseOptionsFor(limits);
  File file;
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
        return Status(StatusCode::kLimitExceeded,
                      "line " + std::to_string(line.number) + ": JSON nesting is over max_json_depth=" +
                          std::to_string(limits.max_json_depth));
      }
      problem = "not JSON: " + entry.document.error().message;
    } else if (!entry.value().is_object()) {
      problem = "not a JSON object";
    }
    if (!problem.empty()) {
      if (options.invalid_line == InvalidLinePolicy::kReject) return Reject(line.number, problem);
      if (notes) {
        notes->Add({"SP-11.4.3-1", Level::kMust, Severity::kWarning, {line.number, 0, ""},
                    "skipped: " + problem});
      }
      continue;
    }
    if (file.entries.empty() && entry.type() != "session") {
      return Reject(line.number, "the first entry is not a session entry (§4.1, §11.4.2)");
    }
    if (file.entries.size() >= limits.max_entries) {
      return Status(StatusCode::kLimitExceeded,
                    "line " + std::to_string(line.number) + ": more entries than max_entries=" +
                        std::to_string(limits.max_entries));
    }
    file.entries.push_back(std::move(entry));
  }
  if (file.entries.empty()) {
    return Status(StatusCode::kParseError, "the file has no entries (§4.3, §11.4.1)");
  }
  return file;
}

void Write(const File& file, std::string* out) {
  for (const Entry& entry : file.entries) {
    json::Write(entry.value(), out);
    out->push_back('\n');
  }
}

}  // namespace arcs::spool
