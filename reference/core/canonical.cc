#include "reference/core/canonical.h"

#include <vector>

#include "reference/core/number.h"

namespace arcs::canonical {

std::optional<std::string> FirstFloat(const json::Value& root) {
  struct Frame {
    const json::Value* value;
    std::size_t next;
  };
  auto is_float = [](const json::Value& v) {
    if (!v.is_number()) return false;
    const json::NumberInfo info = json::Classify(v.text());
    return info.has_fraction || info.has_exponent;
  };
  auto pointer = [](const std::vector<Frame>& frames) {
    std::string out;
    for (const Frame& f : frames) {
      out += '/';
      if (f.value->is_array()) {
        out += std::to_string(f.next - 1);
      } else {
        json::AppendPointerToken(f.value->members()[f.next - 1].name, &out);
      }
    }
    return out;
  };
  if (is_float(root)) return "";
  std::vector<Frame> frames;
  if (root.is_array() || root.is_object()) frames.push_back({&root, 0});
  while (!frames.empty()) {
    Frame& top = frames.back();
    const std::size_t size =
        top.value->is_array() ? top.value->items().size() : top.value->members().size();
    if (top.next == size) {
      frames.pop_back();
      continue;
    }
    const json::Value& child =
        top.value->is_array() ? top.value->items()[top.next] : top.value->members()[top.next].value;
    ++top.next;
    if (is_float(child)) return pointer(frames);
    if (child.is_array() || child.is_object()) frames.push_back({&child, 0});
  }
  return std::nullopt;
}

Status AppendPythonSortedJson(const json::Value& value, std::string_view omit, std::string* out) {
  if (std::optional<std::string> at = FirstFloat(value)) {
    return Status(StatusCode::kInvalidArgument,
                  (at->empty() ? std::string("the value") : *at) +
                      " is a float (a number with a fraction or an exponent): the canonical form "
                      "has none");
  }
  if (omit.empty() || !value.is_object()) {
    json::Write(value, out, json::WriteStyle::kPython);
    return Status::Ok();
  }
  const std::size_t start = out->size();
  *out += '{';
  for (const json::Member* m : json::MembersSortedLastWins(value)) {
    if (m->name == omit) continue;
    if (out->size() > start + 1) *out += ',';
    json::AppendQuoted(m->name, out);
    *out += ':';
    json::Write(m->value, out, json::WriteStyle::kPython);
  }
  *out += '}';
  return Status::Ok();
}

Result<std::string> PythonSortedJson(const json::Value& value, std::string_view omit) {
  std::string out;
  if (Status s = AppendPythonSortedJson(value, omit, &out); !s.ok()) return s;
  return out;
}

}  // namespace arcs::canonical
