// `arcs validate` as a configurable linter: which rules' findings a file is checked for
// (--select, --ignore, and the same keys in a .arcs.toml config file), and the warnings a run
// allows (--max-warnings).
//
// Rules are chosen by prefix of their ids, as ruff and flake8 choose codes: "SP-4" holds SP-4.3-1
// and SP-4.1-2, "MRR-" every MCP recording rule, a whole id only itself. A finding is kept when
// its rule matches a selected prefix (every rule when none is selected) and no ignored one.
//
// A config file (.arcs.toml, TOML 1.0, read with toml++):
//   select = ["SP-", "LB-"]          # only these rules (default: every rule)
//   ignore = ["SP-3.5-1"]            # never these
//   max-warnings = 10                # more warnings than this in the files it governs: exit 1
//   [per-file-ignores]
//   "legacy/*.spool" = ["SP-6"]      # these rules, in the files the glob matches
// It governs the files in its folder and below: each file gets the nearest one from its folder
// up to the filesystem root. A glob with no '/' matches a file's name; one with a '/' matches
// its path relative to the config file's folder ('*' crosses '/' there, so "logs/*" holds
// logs/a/b.spool). Keys it does not know and values of the wrong type are errors: a typo must not
// silently check everything.
#ifndef ARCS_RUNNER_VALIDATE_CONFIG_H_
#define ARCS_RUNNER_VALIDATE_CONFIG_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/core/status.h"

namespace arcs::runner {

inline constexpr std::string_view kConfigFileName = ".arcs.toml";

// Whether `rule_id` starts with one of `prefixes`.
bool MatchesAny(std::string_view rule_id, const std::vector<std::string>& prefixes);

// Whether some rule id of some format's catalogue starts with `prefix` (`arcs rules` lists them).
bool NamesSomeRule(std::string_view prefix);

struct PerFileIgnore {
  std::string glob;
  std::vector<std::string> rules;
};

struct LintConfig {
  std::string path;    // the file it was read from
  std::string folder;  // that file's folder, absolute: per-file globs are relative to it
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> ignore;
  std::optional<std::uint64_t> max_warnings;
  std::vector<PerFileIgnore> per_file_ignores;
  // "PATH:LINE: ..." for each prefix that names no rule: worth a warning, not an error (a rule
  // a later arcs drops must not break a CI that ignores it).
  std::vector<std::string> warnings;

  // The ignores of `file` (its absolute path) by its per-file-ignores.
  std::vector<std::string> IgnoresFor(const std::string& file) const;
};

// The config in `text`, read from the file `path` whose absolute folder is `folder`; a malformed
// one is kInvalidArgument "PATH:LINE: what is wrong" (LINE: 1-based, where TOML or the key says).
Result<LintConfig> ParseLintConfig(std::string_view text, const std::string& path,
                                   const std::string& folder);

// The config file at `path`: read and parsed; kIoError when it cannot be read.
Result<LintConfig> ReadLintConfig(const std::string& path);

// The config file that governs each file: the nearest .arcs.toml from its folder up, each read
// once per run whatever the number of files it governs.
class ConfigFinder {
 public:
  // For `file` ("-": standard input, governed from the working folder): the config, or null when
  // none governs it; fails with the config file's error when the nearest one is malformed or
  // cannot be read.
  Result<const LintConfig*> For(const std::string& file);

 private:
  Result<const LintConfig*> InFolder(const std::string& folder);
  // By folder (absolute): the config found there or above, or its error.
  std::map<std::string, Result<const LintConfig*>, std::less<>> by_folder_;
  std::vector<std::unique_ptr<LintConfig>> configs_;
};

// The absolute path of `file` with its folder resolved (links, "..") and its name kept, or
// "" when the folder cannot be resolved.
std::string AbsolutePath(const std::string& file);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_VALIDATE_CONFIG_H_
