#include "conformance/model_io/checker.h"

#include <algorithm>
#include <optional>
#include <string>

#include "reference/core/json.h"
#include "reference/core/strings.h"

namespace arcs::conformance::model_io {
namespace {

// The requirements of conformance/model_io/requirements.json the file-level findings cite.
constexpr std::string_view kJsonRule = "MIO-JSON-1";           // one JSON document, UTF-8
constexpr std::string_view kRepeatedNameRule = "MIO-JSON-2";   // I-JSON: no repeated names
constexpr std::string_view kLoneSurrogateRule = "MIO-JSON-3";  // I-JSON: no lone surrogates
constexpr std::string_view kLimitRule = "MIO-JSON-5";          // ARCS's limits: depth, file size

std::string_view RuleOf(json::ErrorCode code) {
  switch (code) {
    case json::ErrorCode::kLoneSurrogate:
      return kLoneSurrogateRule;
    case json::ErrorCode::kDepthExceeded:
    case json::ErrorCode::kTooLarge:
    case json::ErrorCode::kTooManyValues:
      return kLimitRule;
    default:
      return kJsonRule;
  }
}

}  // namespace

void Validate(jsonl::ByteSource* source, const arcs::model_io::Limits& limits,
              Diagnostics* diagnostics) {
  auto add = [&](std::string_view rule, Location where, std::string message,
                 std::string reading = {}) {
    diagnostics->Add({std::string(rule), Severity::kError, std::move(where), std::move(message),
                      std::move(reading)});
  };
  const auto refuse = [&](const Status& status) {
    const bool too_large = status.code() == StatusCode::kLimitExceeded;
    add(too_large ? kLimitRule : kJsonRule, {},
        status.message() + (too_large ? " (max_file_bytes)" : ""));
  };
  // Bytes in memory already (ByteSource::Unread) are parsed where they stand, and their line feeds
  // are counted only to place a finding. Other sources are read into a copy, which the document
  // takes and decodes in place: their line feeds are counted as each piece is read, since the copy
  // no longer holds them once decoded (as SessionData's checker does; a file read whole is then
  // held once).
  std::string copy;
  std::string_view text;
  std::optional<LineFeeds> line_feeds;
  if (std::optional<Result<std::string_view>> bytes =
          jsonl::InMemory(*source, limits.max_file_bytes)) {
    if (!bytes->ok()) return refuse(bytes->status());
    text = **bytes;
  } else {
    Result<std::string> read =
        jsonl::ReadSource(source, limits.max_file_bytes, &line_feeds.emplace());
    if (!read.ok()) return refuse(read.status());
    copy = std::move(*read);
    text = copy;
  }
  const auto location_of = [&](std::size_t offset) {
    if (!line_feeds) line_feeds.emplace(text);  // a borrowed text, never written
    return line_feeds->LocationOf(offset);
  };
  if (text.starts_with(kUtf8Bom)) {
    // RFC 8259 lets a parser ignore the mark: only MIO-E17's reading makes the file not JSON.
    add(kJsonRule, LocationOf(text, 0),
        "the file starts with a byte order mark (U+FEFF), which RFC 8259 §8.1 forbids writers to "
        "add (a reader MAY ignore it; ARCS reads the file as not JSON: errata MIO-E17)",
        "MIO-E17");
    return;
  }
  json::Document doc;
  arcs::model_io::ContentDigests digests(limits);  // MI7's hashing, done while the parse goes on
  json::ParseOptions options = arcs::model_io::ParseOptionsFor(limits);
  options.observer = &digests;
  const bool parsed =
      line_feeds ? doc.ParseTaking(std::move(copy), options) : doc.ParseBorrowing(text, options);
  if (!parsed) {
    // A lone surrogate escape is grammatical JSON: only MIO-E19's I-JSON reading refuses it.
    const std::string_view rule = RuleOf(doc.error().code);
    add(rule, location_of(doc.error().offset), "not one JSON document: " + doc.error().message,
        rule == kLoneSurrogateRule ? "MIO-E19" : "");
    return;
  }
  for (const json::Duplicate& d : doc.duplicates()) {
    Location where = location_of(d.offset);
    where.pointer = d.pointer;
    // RFC 8259 only says names SHOULD be unique: the refusal is MIO-E18's I-JSON reading.
    add(kRepeatedNameRule, std::move(where),
        "a member name repeated in its object: I-JSON forbids it, and RFC 8785 has no canonical "
        "form for it",
        "MIO-E18");
  }
  for (arcs::model_io::Violation& v : arcs::model_io::Verify(
           doc.root(), limits, arcs::model_io::ViolationOrder::kCodeUnit, &digests)) {
    add(v.rule_id, {0, 0, std::move(v.path)}, std::move(v.message), std::move(v.reading));
  }
}

std::vector<std::string_view> AllRules() {
  std::vector<std::string_view> rules = arcs::model_io::VerifyRules();
  for (std::string_view r : {kJsonRule, kRepeatedNameRule, kLoneSurrogateRule, kLimitRule}) {
    if (std::find(rules.begin(), rules.end(), r) == rules.end()) rules.push_back(r);
  }
  return rules;
}

}  // namespace arcs::conformance::model_io
