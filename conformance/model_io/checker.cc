#include "conformance/model_io/checker.h"

#include <algorithm>

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
  LineFeeds line_feeds;
  Result<std::string> text = jsonl::ReadSource(source, limits.max_file_bytes, &line_feeds);
  if (!text.ok()) {
    add(text.status().code() == StatusCode::kLimitExceeded ? kLimitRule : kJsonRule, {},
        text.status().message() +
            (text.status().code() == StatusCode::kLimitExceeded ? " (max_file_bytes)" : ""));
    return;
  }
  if (text->starts_with(kUtf8Bom)) {
    // RFC 8259 lets a parser ignore the mark: only MIO-E17's reading makes the file not JSON.
    add(kJsonRule, LocationOf(*text, 0),
        "the file starts with a byte order mark (U+FEFF), which RFC 8259 §8.1 forbids writers to "
        "add (a reader MAY ignore it; ARCS reads the file as not JSON: errata MIO-E17)",
        "MIO-E17");
    return;
  }
  // The document takes the text (it decodes strings in place); its line feeds were kept to place
  // findings, as SessionData's checker does: a file read whole is then held once.
  json::Document doc;
  arcs::model_io::ContentDigests digests(limits);  // MI7's hashing, done while the parse goes on
  json::ParseOptions options = arcs::model_io::ParseOptionsFor(limits);
  options.observer = &digests;
  if (!doc.ParseTaking(std::move(*text), options)) {
    // A lone surrogate escape is grammatical JSON: only MIO-E19's I-JSON reading refuses it.
    const std::string_view rule = RuleOf(doc.error().code);
    add(rule, line_feeds.LocationOf(doc.error().offset),
        "not one JSON document: " + doc.error().message,
        rule == kLoneSurrogateRule ? "MIO-E19" : "");
    return;
  }
  for (const json::Duplicate& d : doc.duplicates()) {
    Location where = line_feeds.LocationOf(d.offset);
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
