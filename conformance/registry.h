// The formats ARCS certifies: the only list of them. The runner, `arcs validate`, `arcs serve`,
// `arcs formats`, the vector and catalogue tests iterate it; a new format is one line here plus
// its own folders (ADDING_A_FORMAT.md).
#ifndef ARCS_CONFORMANCE_REGISTRY_H_
#define ARCS_CONFORMANCE_REGISTRY_H_

#include <span>
#include <string_view>

#include "conformance/format.h"

namespace arcs::conformance {

std::span<const FormatModule* const> Formats();
const FormatModule* FindFormat(std::string_view name);
// The format a command names: its name or its command alias ("mcp"), or nullptr.
const FormatModule* FindFormatCommand(std::string_view command);
// The format a file name's extension names, or nullptr.
const FormatModule* FormatForPath(std::string_view path);
// The format whose sniffer recognises these first bytes, or nullptr.
const FormatModule* SniffFormat(std::string_view head);

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_REGISTRY_H_
