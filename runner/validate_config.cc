#include "runner/validate_config.h"

#include <fnmatch.h>
#include <sys/stat.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "conformance/registry.h"
#include "reference/core/io.h"
#include "reference/core/strings.h"

namespace arcs::runner {
namespace {

constexpr std::string_view kKnownKeys = "select, ignore, max-warnings, per-file-ignores";

Status Malformed(const std::string& path, std::uint64_t line, const std::string& what) {
  return Status(StatusCode::kInvalidArgument,
                path + ":" + std::to_string(line == 0 ? 1 : line) + ": " + what);
}

// A list of rule prefixes: a TOML array of non-empty strings.
Result<std::vector<std::string>> Prefixes(const toml::node& node, std::string_view key,
                                          const std::string& path, LintConfig* config) {
  const toml::array* array = node.as_array();
  if (!array) {
    return Malformed(path, node.source().begin.line,
                     std::string(key) + " wants an array of rule ids or prefixes, like [\"SP-4\"]");
  }
  std::vector<std::string> prefixes;
  for (const toml::node& item : *array) {
    const std::optional<std::string_view> text = item.value<std::string_view>();
    if (!text || text->empty()) {
      return Malformed(path, item.source().begin.line,
                       std::string(key) + " holds " +
                           (text ? "an empty string" : "something that is not a string") +
                           "; each entry is a rule id or a prefix of one");
    }
    if (!NamesSomeRule(*text)) {
      config->warnings.push_back(path + ":" + std::to_string(item.source().begin.line) +
                                 ": warning: " + std::string(key) + " '" + Printable(*text) +
                                 "' matches no rule of any format (arcs rules lists them)");
    }
    prefixes.emplace_back(*text);
  }
  return prefixes;
}

// '/' + the path of the folder `folder` holds `file` in, or "" when it is not below it.
std::string RelativePath(const std::string& folder, const std::string& file) {
  const std::string prefix = folder.ends_with('/') ? folder : folder + "/";
  return file.starts_with(prefix) ? file.substr(prefix.size()) : "";
}

}  // namespace

bool MatchesAny(std::string_view rule_id, const std::vector<std::string>& prefixes) {
  for (const std::string& p : prefixes) {
    if (rule_id.starts_with(p)) return true;
  }
  return false;
}

bool NamesSomeRule(std::string_view prefix) {
  for (const conformance::FormatModule* f : conformance::Formats()) {
    for (const conformance::Requirement& r : f->BuiltInCatalogue().requirements) {
      if (std::string_view(r.id).starts_with(prefix)) return true;
    }
  }
  return false;
}

std::vector<std::string> LintConfig::IgnoresFor(const std::string& file) const {
  std::vector<std::string> rules;
  const std::size_t slash = file.find_last_of('/');
  const std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
  const std::string relative = RelativePath(folder, file);
  for (const PerFileIgnore& p : per_file_ignores) {
    const bool by_name = p.glob.find('/') == std::string::npos;
    const std::string& subject = by_name ? name : relative;
    if (!subject.empty() && ::fnmatch(p.glob.c_str(), subject.c_str(), 0) == 0) {
      rules.insert(rules.end(), p.rules.begin(), p.rules.end());
    }
  }
  return rules;
}

Result<LintConfig> ParseLintConfig(std::string_view text, const std::string& path,
                                   const std::string& folder) {
  toml::table table;
  // toml++ reports a syntax error by throwing (the packaged library is built with exceptions):
  // caught here, at the one call, and turned into the value every other failure is.
  try {
    table = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    return Malformed(path, e.source().begin.line, std::string(e.description()));
  }
  LintConfig config;
  config.path = path;
  config.folder = folder;
  for (const auto& [key, node] : table) {
    const std::uint64_t line = key.source().begin.line;
    if (key == "select" || key == "ignore") {
      Result<std::vector<std::string>> prefixes = Prefixes(node, key.str(), path, &config);
      if (!prefixes.ok()) return prefixes.status();
      if (key == "select") {
        config.select = std::move(*prefixes);
      } else {
        config.ignore = std::move(*prefixes);
      }
    } else if (key == "max-warnings") {
      const std::optional<std::int64_t> n = node.value_exact<std::int64_t>();
      if (!n || *n < 0) {
        return Malformed(path, node.source().begin.line,
                         "max-warnings wants a whole number from 0 up");
      }
      config.max_warnings = static_cast<std::uint64_t>(*n);
    } else if (key == "per-file-ignores") {
      const toml::table* globs = node.as_table();
      if (!globs) {
        return Malformed(path, line,
                         "per-file-ignores wants a table: [per-file-ignores] then \"GLOB\" = "
                         "[\"RULE\", ...]");
      }
      for (const auto& [glob, rules] : *globs) {
        if (glob.str().empty()) return Malformed(path, glob.source().begin.line, "an empty glob");
        Result<std::vector<std::string>> prefixes =
            Prefixes(rules, "per-file-ignores \"" + Printable(glob.str()) + "\"", path, &config);
        if (!prefixes.ok()) return prefixes.status();
        config.per_file_ignores.push_back({std::string(glob.str()), std::move(*prefixes)});
      }
    } else {
      return Malformed(
          path, line,
          "unknown key '" + Printable(key.str()) + "' (known: " + std::string(kKnownKeys) + ")");
    }
  }
  return config;
}

Result<LintConfig> ReadLintConfig(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();  // its message names the path
  const std::string absolute = AbsolutePath(path);
  const std::size_t slash = absolute.find_last_of('/');
  return ParseLintConfig(*text, path, slash == 0 ? "/" : absolute.substr(0, slash));
}

std::string AbsolutePath(const std::string& file) {
  const std::size_t slash = file.find_last_of('/');
  const std::string folder =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : file.substr(0, slash));
  char* real = ::realpath(folder.c_str(), nullptr);
  if (!real) return "";
  std::string path = real;
  std::free(real);
  const std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
  return path.ends_with('/') ? path + name : path + "/" + name;
}

Result<const LintConfig*> ConfigFinder::For(const std::string& file) {
  const std::string absolute = AbsolutePath(file == "-" ? "./-" : file);
  if (absolute.empty()) return nullptr;  // its folder is gone: the file's own read will say so
  return InFolder(absolute.substr(0, std::max<std::size_t>(absolute.find_last_of('/'), 1)));
}

Result<const LintConfig*> ConfigFinder::InFolder(const std::string& folder) {
  if (const auto it = by_folder_.find(folder); it != by_folder_.end()) return it->second;
  const std::string candidate =
      (folder.ends_with('/') ? folder : folder + "/") + std::string(kConfigFileName);
  struct stat st {};
  Result<const LintConfig*> found = nullptr;
  if (::stat(candidate.c_str(), &st) == 0 || errno != ENOENT) {
    Result<LintConfig> config = ReadLintConfig(candidate);
    if (config.ok()) {
      configs_.push_back(std::make_unique<LintConfig>(std::move(*config)));
      found = configs_.back().get();
    } else {
      found = config.status();
    }
  } else if (folder != "/") {
    const std::size_t slash = folder.find_last_of('/');
    found = InFolder(slash == 0 ? "/" : folder.substr(0, slash));
  }
  by_folder_.emplace(folder, found);
  return found;
}

}  // namespace arcs::runner
