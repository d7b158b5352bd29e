#include "conformance/registry.h"

#include "conformance/spool/module.h"

namespace arcs::conformance {

std::span<const FormatModule* const> Formats() {
  static const FormatModule* const formats[] = {
      &spool::Module(),
  };
  return formats;
}

const FormatModule* FindFormat(std::string_view name) {
  for (const FormatModule* f : Formats()) {
    if (f->name == name) return f;
  }
  return nullptr;
}

const FormatModule* FormatForPath(std::string_view path) {
  for (const FormatModule* f : Formats()) {
    for (std::string_view extension : f->extensions) {
      if (path.size() > extension.size() && path.ends_with(extension)) return f;
    }
  }
  return nullptr;
}

const FormatModule* SniffFormat(std::string_view head) {
  for (const FormatModule* f : Formats()) {
    if (f->sniff && f->sniff(head)) return f;
  }
  return nullptr;
}

}  // namespace arcs::conformance
