// The formats ARCS certifies: the only list of them. The runner, `arcs validate`, `arcs serve`,
// `arcs formats`, the vector and catalogue tests iterate it; a new format is one line here plus
// its own folders (ADDING_A_FORMAT.md).
#ifndef ARCS_CONFORMANCE_REGISTRY_H_
#define ARCS_CONFORMANCE_REGISTRY_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "conformance/format.h"
#include "reference/core/status.h"

namespace arcs::conformance {

std::span<const FormatModule* const> Formats();
const FormatModule* FindFormat(std::string_view name);
// The format a command names: its name or its command alias ("mcp"), or nullptr.
const FormatModule* FindFormatCommand(std::string_view command);
// The format a file name's extension names, or nullptr.
const FormatModule* FormatForPath(std::string_view path);
// How many first bytes of a file a sniffer is given.
inline constexpr std::size_t kSniffBytes = 64 * 1024;

// The first kSniffBytes of the file at `path` (a FIFO, socket or folder refused, never waited
// for: io.h OpenToRead); the error message starts with the path.
Result<std::string> ReadSniffBytes(const std::string& path);

// Which formats a file's content may tell when its name tells none.
enum class Sniffing : std::uint8_t {
  kAnyFormat,           // a file named on the command line: any format's sniffer
  kUnnamedFormatsOnly,  // a folder walk: only formats whose files have no name of their own
};

// A file's format, as every command tells it (null format: none could be told).
struct Detection {
  const FormatModule* format = nullptr;
  bool by_content = false;  // told by its first bytes, not by its name
};

// The format of the file at `path`: the one its name names (FormatForPath), else the one whose
// sniffer recognises its first kSniffBytes, which `head` reads (called only then, and only when
// some format may be told so). `only`: no other format is told. Fails with what `head` failed
// with.
Result<Detection> DetectFormat(std::string_view path,
                               const std::function<Result<std::string>()>& head,
                               Sniffing sniffing = Sniffing::kAnyFormat,
                               const FormatModule* only = nullptr);

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_REGISTRY_H_
