// The `arcs report` and `arcs diff` commands: render a JSON report (render.h) and compare two
// (diff.h). arcs_main.cc dispatches to them; they take the arguments after the command name.
#ifndef ARCS_RUNNER_REPORT_REPORT_COMMAND_H_
#define ARCS_RUNNER_REPORT_REPORT_COMMAND_H_

#include <string>
#include <vector>

namespace arcs::runner {

// arcs report REPORT.json (--html | --markdown | --junit) [--out FILE]
// arcs report REPORT.json --badges DIR
// Exit 0 on success, 2 on usage errors, an unreadable or malformed report, or a failed write.
int ReportCommand(const std::vector<std::string>& args);

// arcs diff OLD.json NEW.json [--fail-on-change]
// Exit 0 when nothing regressed (with --fail-on-change: when nothing changed), 1 otherwise, 2 on
// usage errors or an unreadable or malformed report.
int DiffCommand(const std::vector<std::string>& args);

}  // namespace arcs::runner

#endif  // ARCS_RUNNER_REPORT_REPORT_COMMAND_H_
