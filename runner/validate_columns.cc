#include "runner/validate_columns.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reference/core/json_locate.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

// A finding the checker gave a pointer into its line's (or document's) value, and no column.
bool Unplaced(const Finding& f) {
  return f.location.column == 0 && f.location.pointer.starts_with('/');
}

Status PlaceInLines(jsonl::ByteSource* source, std::uint64_t max_line_bytes,
                    Diagnostics* diagnostics) {
  std::map<std::uint64_t, std::vector<std::string_view>> wanted;  // line -> its pointers
  for (const Finding& f : diagnostics->findings()) {
    if (f.location.line > 0 && Unplaced(f)) wanted[f.location.line].push_back(f.location.pointer);
  }
  if (wanted.empty()) return Status::Ok();
  // Keyed by copies: Relocate replaces the findings' pointers the views point into.
  std::map<std::pair<std::uint64_t, std::string>, std::uint64_t, std::less<>> columns;
  jsonl::LineOptions options;
  options.max_line_bytes = max_line_bytes;
  options.max_total_bytes = UINT64_MAX;  // the validator has bounded the file already
  jsonl::LineReader reader(source, options);
  jsonl::Line line;
  for (auto next = wanted.begin(); next != wanted.end();) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (line.number < next->first) continue;
    if (!line.too_long) {
      const std::vector<std::optional<json::PointerPlace>> places =
          json::LocatePointers(line.text, next->second);
      for (std::size_t i = 0; i < places.size(); ++i) {
        // Columns count the byte order mark's bytes, as the checkers' own columns do.
        if (places[i]) {
          columns[{line.number, std::string(next->second[i])}] =
              places[i]->offset + 1 + (line.bom ? kUtf8Bom.size() : 0);
        }
      }
    }
    ++next;
  }
  diagnostics->Relocate([&](const Finding& f, Location* location) {
    if (f.location.line == 0 || !Unplaced(f)) return;
    const auto it = columns.find(std::pair(f.location.line, f.location.pointer));
    if (it != columns.end()) location->column = it->second;
  });
  return Status::Ok();
}

Status PlaceInDocument(jsonl::ByteSource* source, std::uint64_t max_file_bytes,
                       Diagnostics* diagnostics) {
  std::vector<std::string_view> pointers;
  for (const Finding& f : diagnostics->findings()) {
    if (f.location.line == 0 && Unplaced(f)) pointers.push_back(f.location.pointer);
  }
  if (pointers.empty()) return Status::Ok();
  Result<std::string> text = jsonl::ReadSource(source, max_file_bytes);
  if (!text.ok()) return text.status();
  const std::size_t bom = std::string_view(*text).starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  const std::vector<std::optional<json::PointerPlace>> places =
      json::LocatePointers(std::string_view(*text).substr(bom), pointers);
  std::map<std::string, Location, std::less<>> where;  // copies, as above
  for (std::size_t i = 0; i < places.size(); ++i) {
    if (places[i]) where[std::string(pointers[i])] = LocationOf(*text, bom + places[i]->offset);
  }
  diagnostics->Relocate([&](const Finding& f, Location* location) {
    if (f.location.line != 0 || !Unplaced(f)) return;
    const auto it = where.find(f.location.pointer);
    if (it == where.end()) return;
    location->line = it->second.line;
    location->column = it->second.column;
  });
  return Status::Ok();
}

}  // namespace

Status PlaceFindings(jsonl::ByteSource* source, const FileShape& shape, Diagnostics* diagnostics) {
  if (shape.max_line_bytes) return PlaceInLines(source, *shape.max_line_bytes, diagnostics);
  return PlaceInDocument(source, shape.max_file_bytes, diagnostics);
}

}  // namespace arcs::runner
