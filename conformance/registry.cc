#include "conformance/registry.h"

#include "conformance/lightbox/module.h"
#include "conformance/mcp_record_replay/module.h"
#include "conformance/model_io/module.h"
#include "conformance/session_data/module.h"
#include "conformance/spool/module.h"

namespace arcs::conformance {

std::span<const FormatModule* const> Formats() {
  static const FormatModule* const formats[] = {
      &spool::Module(),        &lightbox::Module(),          &model_io::Module(),
      &session_data::Module(), &mcp_record_replay::Module(),
  };
  return formats;
}

const FormatModule* FindFormat(std::string_view name) {
  for (const FormatModule* f : Formats()) {
    if (f->name == name) return f;
  }
  return nullptr;
}

const FormatModule* FindFormatCommand(std::string_view command) {
  for (const FormatModule* f : Formats()) {
    if (f->name == command || (!f->command_alias.empty() && f->command_alias == command)) return f;
  }
  return nullptr;
}

namespace {

// An extension (".spool") needs a name before it; a whole file name ("events.jsonl") is the
// path's last component.
bool NamedAs(std::string_view path, std::string_view ending) {
  if (!path.ends_with(ending)) return false;
  if (ending.starts_with('.')) return path.size() > ending.size();
  return path.size() == ending.size() || path[path.size() - ending.size() - 1] == '/';
}

}  // namespace

const FormatModule* FormatForPath(std::string_view path) {
  for (const FormatModule* f : Formats()) {
    for (std::string_view ending : f->extensions) {
      if (NamedAs(path, ending)) return f;
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
