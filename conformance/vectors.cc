#include "conformance/vectors.h"

#include <algorithm>
#include <set>

#include "conformance/json_file.h"
#include "conformance/spool/checker.h"
#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/core/number.h"
#include "reference/core/strings.h"
#include "reference/spool/spool.h"

namespace arcs::conformance {
namespace {

std::vector<std::string> StringList(const json::Value& object, std::string_view name) {
  std::vector<std::string> out;
  if (const json::Value* list = object.Find(name)) {
    for (const json::Value& item : list->items()) {
      if (item.is_string()) out.emplace_back(item.text());
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string Bracketed(const std::vector<std::string>& items) { return "[" + Join(items) + "]"; }

}  // namespace

Result<Manifest> LoadManifest(const std::string& path) {
  json::Document doc;
  if (Status s = LoadJsonFile(path, &doc); !s.ok()) return s;
  std::string folder = path.substr(0, path.find_last_of('/') + 1);
  Manifest manifest;
  manifest.format = StringMember(doc.root(), "format");
  manifest.catalogue = StringMember(doc.root(), "catalogue");
  const json::Value* cases = doc.root().Find("cases");
  if (!cases || !cases->is_array()) return Status(StatusCode::kParseError, path + ": no cases");
  for (const json::Value& item : cases->items()) {
    VectorCase c;
    c.id = StringMember(item, "id");
    c.description = StringMember(item, "description");
    c.file = folder + StringMember(item, "file");
    c.requirements = StringList(item, "requirements");
    if (const json::Value* limits = item.Find("limits")) {
      for (const json::Member& m : limits->members()) {
        std::optional<std::int64_t> v =
            m.value.is_number() ? json::ToInt64(m.value.text()) : std::nullopt;
        if (!v || *v < 0) {
          return Status(StatusCode::kParseError, path + ": case " + c.id + ": limit " +
                                                     std::string(m.name) + " is not a count");
        }
        c.limits.emplace_back(m.name, static_cast<std::uint64_t>(*v));
      }
    }
    const json::Value* validate = item.Find("validate");
    const json::Value* read = item.Find("read");
    if (c.id.empty() || !validate || !read) {
      return Status(StatusCode::kParseError,
                    path + ": case \"" + c.id + "\" needs an id, validate and read");
    }
    c.expect_valid = StringMember(*validate, "result") == "valid";
    c.expected_errors = StringList(*validate, "errors");
    c.expected_warnings = StringList(*validate, "warnings");
    // "read" is "accept" / "reject", or an object for implementation-defined outcomes.
    c.read_result = read->is_string() ? std::string(read->text()) : StringMember(*read, "result");
    c.read_policy = StringMember(*read, "policy");
    if (const json::Value* outcomes = read->Find("outcomes")) {
      for (const json::Member& m : outcomes->members()) {
        if (m.value.is_string()) c.read_outcomes[std::string(m.name)] = std::string(m.value.text());
      }
    }
    manifest.cases.push_back(std::move(c));
  }
  return manifest;
}

CaseResult RunSpoolCase(const VectorCase& c) {
  CaseResult result{c.id, {}};
  Result<std::string> bytes = ReadFile(c.file);
  if (!bytes.ok()) {
    result.problems.push_back(bytes.status().ToString());
    return result;
  }
  arcs::spool::Limits limits;
  for (const auto& [name, value] : c.limits) {
    Status s = arcs::spool::SetLimit(name, value, &limits);
    if (!s.ok()) result.problems.push_back(s.ToString());
  }

  // The file verdict.
  jsonl::MemorySource source(*bytes);
  Diagnostics diagnostics;
  spool::Validate(&source, limits, &diagnostics);
  std::set<std::string> errors, warnings;
  for (const Finding& f : diagnostics.findings()) {
    (f.severity == Severity::kError ? errors : warnings).insert(f.rule_id);
  }
  std::vector<std::string> got_errors(errors.begin(), errors.end());
  std::vector<std::string> got_warnings(warnings.begin(), warnings.end());
  if (diagnostics.has_errors() == c.expect_valid) {
    result.problems.push_back(std::string("validate: expected ") +
                              (c.expect_valid ? "valid" : "invalid") + ", got " +
                              (c.expect_valid ? "invalid" : "valid"));
  }
  if (got_errors != c.expected_errors) {
    result.problems.push_back("validate: errors " + Bracketed(got_errors) + ", expected " +
                              Bracketed(c.expected_errors));
  }
  if (got_warnings != c.expected_warnings) {
    result.problems.push_back("validate: warnings " + Bracketed(got_warnings) + ", expected " +
                              Bracketed(c.expected_warnings));
  }

  // The reader's behaviour, under the policies the reference declares.
  arcs::spool::ReadOptions options;
  options.limits = limits;
  std::string expected_read = c.read_result;
  if (c.read_result == "implementation-defined") {
    expected_read = "(the reference declares no choice for policy " + c.read_policy + ")";
    for (const arcs::spool::DeclaredPolicy& p : arcs::spool::kDeclaredPolicies) {
      if (p.policy != c.read_policy) continue;
      auto outcome = c.read_outcomes.find(std::string(p.choice));
      if (outcome != c.read_outcomes.end()) expected_read = outcome->second;
    }
  }
  jsonl::MemorySource read_source(*bytes);
  Result<arcs::spool::File> file = arcs::spool::Read(&read_source, options);
  std::string got_read = file.ok() ? "accept" : "reject";
  if (got_read != expected_read) {
    result.problems.push_back("read: expected " + expected_read + ", got " + got_read +
                              (file.ok() ? "" : " (" + file.status().message() + ")"));
  }
  if (!file.ok()) return result;

  // Accepted: writing back must keep every entry exactly, and be stable.
  std::string first;
  arcs::spool::Write(*file, &first);
  jsonl::MemorySource reread_source(first);
  Result<arcs::spool::File> reread = arcs::spool::Read(&reread_source, options);
  if (!reread.ok()) {
    result.problems.push_back("roundtrip: the written file does not read back: " +
                              reread.status().message());
    return result;
  }
  std::string second;
  arcs::spool::Write(*reread, &second);
  if (first != second)
    result.problems.push_back("roundtrip: a second write differs from the first");
  if (reread->entries.size() != file->entries.size()) {
    result.problems.push_back("roundtrip: entry count changed");
  } else {
    for (std::size_t i = 0; i < file->entries.size(); ++i) {
      if (!json::Equal(file->entries[i].value(), reread->entries[i].value())) {
        result.problems.push_back("roundtrip: entry " + std::to_string(i + 1) + " changed");
      }
    }
  }
  if (first.starts_with("\xEF\xBB\xBF") || first.find('\r') != std::string::npos ||
      (!first.empty() && first.back() != '\n')) {
    result.problems.push_back("roundtrip: output has a BOM, a CR or no final LF");
  }
  return result;
}

}  // namespace arcs::conformance
