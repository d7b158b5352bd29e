#include "conformance/registry.h"

#include <unistd.h>

#include "conformance/lightbox/module.h"
#include "conformance/mcp_record_replay/module.h"
#include "conformance/model_io/module.h"
#include "conformance/session_data/module.h"
#include "conformance/spool/module.h"
#include "reference/core/io.h"
#include "reference/core/jsonl.h"

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

Result<std::string> ReadSniffBytes(const std::string& path) {
  const Result<int> fd = OpenToRead(path);
  if (!fd.ok()) return fd.status();
  jsonl::FdSource source(*fd);
  Result<std::string> head = jsonl::ReadHead(&source, kSniffBytes);
  ::close(*fd);
  if (!head.ok()) return Status(head.status().code(), path + ": " + head.status().message());
  return head;
}

Result<Detection> DetectFormat(std::string_view path,
                               const std::function<Result<std::string>()>& head, Sniffing sniffing,
                               const FormatModule* only) {
  if (const FormatModule* named = FormatForPath(path)) {
    return Detection{!only || named == only ? named : nullptr, false};
  }
  std::vector<const FormatModule*> sniffers;
  for (const FormatModule* f : Formats()) {
    const bool may = sniffing == Sniffing::kAnyFormat || f->extensions.empty();
    if ((!only || f == only) && may && f->sniff) sniffers.push_back(f);
  }
  if (sniffers.empty()) return Detection{};
  Result<std::string> bytes = head();
  if (!bytes.ok()) return bytes.status();
  for (const FormatModule* f : sniffers) {
    if (f->sniff(*bytes)) return Detection{f, true};
  }
  return Detection{};
}

}  // namespace arcs::conformance
