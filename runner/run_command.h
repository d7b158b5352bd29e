// `arcs run`: scores implementations over the runner protocol against every vector, and writes
// the report (runner/report/report.h).
#ifndef ARCS_RUNNER_RUN_COMMAND_H_
#define ARCS_RUNNER_RUN_COMMAND_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "reference/core/status.h"

namespace arcs::runner {

// The known-failures file: one `CASE_ID/OPERATION` per line, optionally prefixed by
// `IMPLEMENTATION_NAME:` to apply to that implementation only; `#` starts a comment.
struct KnownFailures {
  std::string path;
  // implementation name ("" for every implementation) -> request ids ("<case id>/<operation>")
  std::map<std::string, std::set<std::string>> entries;
  bool Lists(const std::string& implementation, const std::string& request_id) const;
};
Result<KnownFailures> ParseKnownFailures(const std::string& path, std::string_view text);

// 0: every MUST case of every implementation passed or is a listed known failure, and no listed
// case passed; 1 otherwise (or when interrupted); 2 on usage or I/O errors.
int RunCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_RUN_COMMAND_H_
