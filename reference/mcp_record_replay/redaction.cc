#include "reference/mcp_record_replay/redaction.h"

#include <re2/re2.h>

#include <algorithm>

#include "reference/core/strings.h"

namespace arcs::mcp_record_replay {
namespace {

std::string ReplaceAll(std::string_view text, std::string_view value, std::string_view marker) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t found; (found = text.find(value, at)) != std::string_view::npos;
       at = found + value.size()) {
    out.append(text.substr(at, found - at));
    out.append(marker);
  }
  out.append(text.substr(at));
  return out;
}

// Members replay pairs and matches by (errata MRR-E52).
bool Kept(std::string_view name) { return name == "jsonrpc" || name == "id" || name == "method"; }

}  // namespace

Result<Redactor> Redactor::Create(const RedactionRules& rules) {
  Redactor redactor;
  redactor.rules_ = rules;
  for (const auto& [name, value] : rules.env) {
    if (value.empty()) {
      return Status(StatusCode::kInvalidArgument,
                    "the value of " + Quoted(name, 60) + " is empty: nothing to redact");
    }
    redactor.by_length_.push_back({"[REDACTED:" + name + "]", value});
  }
  std::stable_sort(redactor.by_length_.begin(), redactor.by_length_.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  RE2::Options options;
  options.set_log_errors(false);  // the complaint goes into the Status instead
  for (const std::string& pattern : rules.patterns) {
    auto re = std::make_unique<RE2>(pattern, options);
    if (!re->ok()) {
      return Status(StatusCode::kInvalidArgument,
                    "the pattern " + Quoted(pattern, 60) + " is not RE2 syntax: " + re->error());
    }
    if (RE2::FullMatch("", *re)) {
      return Status(StatusCode::kInvalidArgument,
                    "the pattern " + Quoted(pattern, 60) +
                        " matches the empty string (it would redact between every two characters)");
    }
    redactor.patterns_.push_back(std::move(re));
  }
  return redactor;
}

Redactor::Redactor(Redactor&&) noexcept = default;
Redactor& Redactor::operator=(Redactor&&) noexcept = default;
Redactor::~Redactor() = default;

std::optional<std::string> Redactor::Redact(std::string_view text) const {
  std::optional<std::string> out;
  for (const auto& [marker, value] : by_length_) {
    const std::string_view current = out ? std::string_view(*out) : text;
    if (current.find(value) != std::string_view::npos) out = ReplaceAll(current, value, marker);
  }
  for (const std::unique_ptr<RE2>& re : patterns_) {
    if (!RE2::PartialMatch(out ? std::string_view(*out) : text, *re)) continue;
    if (!out) out = std::string(text);
    RE2::GlobalReplace(&*out, *re, "[REDACTED]");
  }
  return out;
}

bool Redactor::Holds(std::string_view text) const {
  for (const auto& entry : by_length_) {
    if (text.find(entry.second) != std::string_view::npos) return true;
  }
  for (const std::unique_ptr<RE2>& re : patterns_) {
    if (RE2::PartialMatch(text, *re)) return true;
  }
  return false;
}

RedactedMessage Redactor::RedactMessage(const json::Value& msg) const {
  RedactedMessage result;
  std::string out = "{";
  bool changed = false;
  for (const json::Member& m : msg.members()) {
    if (out.size() > 1) out.push_back(',');
    json::AppendQuoted(m.name, &out);
    out.push_back(':');
    result.secret_left |= Holds(m.name);
    if (Kept(m.name)) {
      json::Write(m.value, &out);
      result.secret_left |= m.value.is_string() && Holds(m.value.text());
    } else {
      changed |= WriteRedacted(m.value, &out, &result.secret_left);
    }
  }
  out.push_back('}');
  if (changed) result.msg = std::move(out);
  return result;
}

// Recursive: as deep as the parser allowed (the recording's max_json_depth), as json::Write is.
bool Redactor::WriteRedacted(const json::Value& value, std::string* out, bool* secret_left) const {
  bool changed = false;
  if (value.is_string()) {
    const std::optional<std::string> redacted = Redact(value.text());
    json::AppendQuoted(redacted ? std::string_view(*redacted) : value.text(), out);
    return redacted.has_value();
  }
  if (value.is_array()) {
    out->push_back('[');
    for (const json::Value& item : value.items()) {
      if (&item != value.items().data()) out->push_back(',');
      changed |= WriteRedacted(item, out, secret_left);
    }
    out->push_back(']');
    return changed;
  }
  if (value.is_object()) {
    out->push_back('{');
    for (const json::Member& m : value.members()) {
      if (&m != value.members().data()) out->push_back(',');
      json::AppendQuoted(m.name, out);
      out->push_back(':');
      *secret_left |= Holds(m.name);
      changed |= WriteRedacted(m.value, out, secret_left);
    }
    out->push_back('}');
    return changed;
  }
  json::Write(value, out);  // null, a boolean, a number: its text
  return false;
}

std::string Redactor::Statement() const {
  auto list = [](const std::vector<std::string>& items) {
    std::string out = "[";
    for (const std::string& item : items) {
      if (out.size() > 1) out.push_back(',');
      json::AppendQuoted(item, &out);
    }
    return out + "]";
  };
  std::vector<std::string> names;
  for (const auto& entry : rules_.env) names.push_back(entry.first);
  std::string out = "{";
  json::AppendRawMember("env", list(names), &out);
  json::AppendRawMember("patterns", list(rules_.patterns), &out);
  return out + "}";
}

}  // namespace arcs::mcp_record_replay
