// `arcs validate --sarif`: the findings as one SARIF 2.1.0 log (OASIS Static Analysis Results
// Interchange Format), the form code-scanning UIs such as GitHub's take. Written as the files are
// done, like the other outputs: the results first, then the tool with the rules they cite (so
// that no file's findings are held until the end), then the invocation.
//
// One run; tool.driver "arcs" with its version and one rule per rule id cited (its catalogue text,
// level, format, spec and section, and helpUri: the spec's Markdown at the rule's heading, see
// RuleHelpUri); one result per finding kept and shown, with its rule (ruleIndex: SARIF gives a
// result no helpUri of its own, viewers take its rule's), level (error, warning, note), message
// and location, at the line and column the text output shows. Valid JSON whatever the bytes:
// messages that quote a file are repaired to UTF-8 as the JSON output repairs them, and a file name
// becomes a URI with every byte outside RFC 3986's unreserved characters and '/' percent-encoded.
#ifndef ARCS_RUNNER_VALIDATE_SARIF_H_
#define ARCS_RUNNER_VALIDATE_SARIF_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runner/validate_output.h"

namespace arcs::runner {

// The URI of a file as `arcs validate` was given it: a relative reference for a relative path
// ("logs/a%20b.spool"), a file URI for an absolute one ("file:///tmp/a.spool").
std::string ArtifactUri(std::string_view path);

class SarifLog {
 public:
  // `specs_dir`: where the rules' specs are read for their helpUri (RuleHelpUri).
  explicit SarifLog(std::string specs_dir) : specs_dir_(std::move(specs_dir)) {}
  // The log up to its first result.
  static std::string Begin();
  // The results of one file's findings (a file name "-" stands for standard input, which has no
  // URI). Each result after the first of the log starts with a comma.
  void AppendResults(const ValidatedFile& file, std::string* out);
  // A file or folder that could not be checked: a tool execution notification, and the run is
  // not successful.
  void AddFailure(std::string_view path, std::string_view message);
  // The rest of the log, ending with a newline.
  void AppendEnd(std::string* out) const;

 private:
  struct Rule {
    std::string id;
    std::string format;
  };
  std::size_t RuleIndex(std::string_view id, std::string_view format);
  void AddNotification(std::string_view path, std::string_view level, std::string_view message);

  std::string specs_dir_;
  std::vector<Rule> rules_;  // in the order first cited: a result's ruleIndex
  std::map<std::string, std::size_t, std::less<>> rule_index_;
  std::size_t results_ = 0;
  std::string notifications_;  // JSON objects, comma-separated
  bool failed_ = false;
};

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_SARIF_H_
