// The files `arcs validate DIR` checks: every regular file under DIR, at any depth, that a format
// claims, in sorted path order so that two runs over the same tree print the same lines.
//
// A format claims a file by its name when it declares names (Spool: *.spool; Lightbox:
// events.jsonl; Model IO: model_io.json), else by its content (SessionData and MCP recordings,
// whose specs name no extension: the first 64 KiB of every other file are read to tell). With
// --format F, only F claims files: by its names, and by its content for every file no other
// format's name claims (a renamed events.jsonl is still a Lightbox session). Entries whose name
// starts with '.' are skipped (.git and the like hold no recordings and would cost a read each).
// Symbolic links are followed, but each folder (by device and inode) is walked once, so a link back
// up the tree ends there instead of looping. Whatever cannot be read is a failure, never passed
// over in silence (a run that checked less than it was asked must not say "0 invalid"): a folder
// that cannot be listed, an entry that cannot be told a file or a folder (a dangling link, a link
// loop), a file that could be claimed by its content and cannot be read.
#ifndef ARCS_RUNNER_VALIDATE_FILES_H_
#define ARCS_RUNNER_VALIDATE_FILES_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "conformance/format.h"

namespace arcs::runner {

struct FoundFile {
  std::string path;                                   // DIR, '/', the path below it
  const conformance::FormatModule* format = nullptr;  // the format that claims it
};

// Calls `found` for each file claimed under `dir` (only by `only`, when it is not null), and
// `failed` for each failure with the path and a message ("PATH: why"); returns how many files
// were found.
using WalkFailure = std::function<void(const std::string& path, const std::string& message)>;
std::uint64_t WalkFolder(const std::string& dir, const conformance::FormatModule* only,
                         const std::function<void(const FoundFile&)>& found,
                         const WalkFailure& failed);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_FILES_H_
