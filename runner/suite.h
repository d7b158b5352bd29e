// The suite `arcs run` plays: every vector of every format, once per operation the format
// defines, with the level it is scored at. Formats and their operations are data (kFormats in
// suite.cc); adding an operation is a row there and a judge in judge.cc.
#ifndef ARCS_RUNNER_SUITE_H_
#define ARCS_RUNNER_SUITE_H_

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/vectors.h"
#include "reference/core/status.h"

namespace arcs::runner {

struct FormatDef {
  std::string_view format;
  std::string_view manifest;                 // repository path
  std::vector<std::string_view> operations;  // in report order
};
const std::vector<FormatDef>& Formats();
const FormatDef* FindFormat(std::string_view format);

struct SuiteCase {
  const conformance::VectorCase* vector = nullptr;
  std::string format;
  std::string operation;
  std::string level;       // "MUST" | "SHOULD" | "MAY": the strongest among the requirements
  std::string request_id;  // "<case id>/<operation>", unique in the suite
  std::string input;       // the input file's bytes
};

struct SuiteFilter {
  std::vector<std::string> formats;     // empty: all
  std::vector<std::string> operations;  // empty: all
  std::vector<std::string> levels;      // empty: all
  std::vector<std::string> globs;       // fnmatch against "<id>" or "<id>/<operation>"; empty: all
  bool Empty() const;
  std::vector<std::string> Describe() const;  // e.g. {"--format spool", "--filter spool-11.*"}
};

struct Suite {
  std::deque<conformance::Manifest> manifests;  // the cases point into these
  std::vector<SuiteCase> cases;                 // sorted by (format, id, operation)
};

// Loads every format's manifest and catalogue under `root` (the source tree) and keeps the
// cases the filter selects. Fails on unreadable data or a filter naming an unknown format,
// operation or level.
Result<Suite> LoadSuite(const std::string& root, const SuiteFilter& filter);

// Where the suite's data lives when --suite is not given: $ARCS_SOURCE_DIR, else the source tree
// this binary was built from.
std::string DefaultSuiteRoot();

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_SUITE_H_
