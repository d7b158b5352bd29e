// The byte column of findings that a checker reports at a JSON Pointer without one (most of
// them: a checker that reads a parsed value knows where in it a problem is, not where in the
// bytes). `arcs validate` reads the file again after validating it and finds where each pointer
// leads (json::LocatePointers):
//  - in a JSON Lines format (one that bounds its lines), a finding at line N with pointer P gets
//    the column of P in line N: a member at its name, an element at its value, 1-based, counting
//    bytes from the line's start (line 1's byte order mark included, as the checkers count it);
//  - in a format whose file is one JSON document, a finding about the document (line 0) with
//    pointer P gets the line and column of P in the file.
// A pointer that names something missing (a required member) leads to the object that lacks it.
// Only a file that can be read again is placed: a regular file, or standard input redirected from
// one; a pipe's findings keep their line's column 1.
#ifndef ARCS_RUNNER_VALIDATE_COLUMNS_H_
#define ARCS_RUNNER_VALIDATE_COLUMNS_H_

#include <cstdint>
#include <optional>

#include "reference/core/diagnostics.h"
#include "reference/core/jsonl.h"

namespace arcs::runner {

// How a format's file is read, for placing its findings.
struct FileShape {
  // The format's max_line_bytes when it reads its file line by line; nothing when the file is one
  // JSON document.
  std::optional<std::uint64_t> max_line_bytes;
  std::uint64_t max_file_bytes = 0;  // a document's bound, when it is one
};

// Places the findings of `diagnostics` that have a pointer and no column, reading the file again
// from `source` (from its first byte). Fails only when the source does; the findings then keep
// what they had.
Status PlaceFindings(jsonl::ByteSource* source, const FileShape& shape, Diagnostics* diagnostics);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_COLUMNS_H_
