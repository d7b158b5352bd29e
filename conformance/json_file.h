// Loading the suite's own JSON data files (catalogues, manifests) through the strict JSON layer.
#ifndef ARCS_CONFORMANCE_JSON_FILE_H_
#define ARCS_CONFORMANCE_JSON_FILE_H_

#include <string>

#include "reference/core/io.h"
#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::conformance {

inline Status LoadJsonFile(const std::string& path, json::Document* doc) {
  Result<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  if (!doc->Parse(*bytes)) {
    return Status(StatusCode::kParseError, path + ": " + doc->error().message + " at byte " +
                                               std::to_string(doc->error().offset));
  }
  return Status::Ok();
}

// The named member when it is a string, else "".
inline std::string StringMember(const json::Value& object, std::string_view name) {
  const json::Value* v = object.Find(name);
  return v && v->is_string() ? std::string(v->text()) : std::string();
}

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_JSON_FILE_H_
