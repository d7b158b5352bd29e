#include "runner/check_adapter_command.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "conformance/registry.h"
#include "protocol/protocol.h"
#include "reference/core/strings.h"
#include "runner/cli.h"
#include "runner/report/escape.h"
#include "runner/report/render_common.h"
#include "runner/run.h"
#include "runner/suite.h"

namespace arcs::runner {
namespace {

constexpr char kCheckAdapterHelp[] = R"(usage: arcs check-adapter --impl 'COMMAND' [options]

A first look at an adapter before a whole `arcs run`, in well under a minute. It checks, in the
order a new adapter meets them:
  1. the handshake (runner/PROTOCOL.md §1): the hello, the formats, operations and policies
     declared, and each policy of a declared format left undeclared (its cases would fail);
  2. one small case per declared operation, with the smallest input among the cases whose
     outcome the spec settles (a valid file where there is one), judged as `arcs run` judges it;
  3. each resource probe of a declared format, for one declared operation: the longest protocol
     lines the suite sends (Spool's longest: 96 MiB), each alone to a fresh process, with its
     line's size, the time it took (a warning past half the timeout) and the adapter's peak
     memory (PROTOCOL.md §3, resource).
Then it lists what to fix, and the `arcs run` command to try next.

  --impl 'COMMAND'            the adapter, run with /bin/sh -c
  --timeout SECONDS           per case, of wall-clock time (default 10, as `arcs run`)
  --timeout-cpu SECONDS       per case, of CPU time (see `arcs run --help`)
  --timeout-handshake SECONDS for the hello (default 10, or --timeout if longer)
  --no-resource-probes        leave out step 3
  --suite DIR                 the ARCS source tree holding vectors/ and conformance/
  --color[=WHEN]              auto (the default), always or never

Exit status: 0 when every check passed (warnings do not count), 1 when one did not, 2 on usage
or I/O errors.
)";

struct CheckArgs {
  std::string impl;
  std::optional<double> timeout;  // wall clock; default: WallTimeout
  double timeout_cpu = 0;
  double timeout_handshake = 0;  // 0: the default (RunOptions)
  bool resource_probes = true;
  std::string suite_root;
  ColorWhen color = ColorWhen::kAuto;
};

// Whether the arguments were understood; *error says why not ("" for --help).
bool ParseCheckAdapterArgs(const std::vector<std::string>& raw, CheckArgs* out,
                           std::string* error) {
  const std::vector<std::string> args = SplitOptionValues(
      raw, {"--impl", "--timeout", "--timeout-cpu", "--timeout-handshake", "--suite", "--color"});
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string v;
    if (a == "--impl" && TakeValue(args, &i, &out->impl)) {
    } else if ((a == "--timeout" || a == "--timeout-cpu" || a == "--timeout-handshake") &&
               TakeValue(args, &i, &v)) {
      const std::optional<double> t = ParseDecimal(v, 0.001, 86400);
      if (!t) {
        *error = a + " wants seconds, a decimal number from 0.001 to 86400";
        return false;
      }
      if (a == "--timeout") {
        out->timeout = *t;
      } else if (a == "--timeout-cpu") {
        out->timeout_cpu = *t;
      } else {
        out->timeout_handshake = *t;
      }
    } else if (a == "--no-resource-probes") {
      out->resource_probes = false;
    } else if (a == "--suite" && TakeValue(args, &i, &out->suite_root)) {
    } else if (a == "--color") {
      out->color = ColorWhen::kAlways;
    } else if (a.starts_with("--color=")) {
      if (!ParseColorWhen(a.substr(8), &out->color)) {
        *error = "--color wants auto, always or never";
        return false;
      }
    } else {
      *error = a == "--help" || a == "-h" ? "" : "unknown or incomplete option '" + a + "'";
      return false;
    }
  }
  if (out->impl.empty()) *error = "--impl 'COMMAND' is required";
  return !out->impl.empty();
}

// The case that shows an operation works with the least to go wrong: the smallest input among
// the cases whose outcome the text settles, one the operation accepts where there is one.
const SuiteCase* SmallCase(const Suite& suite, std::string_view format, std::string_view op) {
  const SuiteCase* best = nullptr;
  auto rank = [](const SuiteCase& c) {
    const std::string_view accepted = c.format->FindOperation(c.operation)->valid_outcome;
    return std::pair{c.expectation->expect.outcome != accepted, c.InputBytes()};
  };
  for (const SuiteCase& c : suite.cases) {
    if (c.format->name != format || c.operation != op || c.probe ||
        c.expectation->expect.ground != conformance::Ground::kRequired) {
      continue;
    }
    if (!best || rank(c) < rank(*best)) best = &c;
  }
  return best;
}

struct Plan {
  Suite cases;                          // pointing into the loaded suite
  std::vector<std::size_t> line_bytes;  // by case: a probe's request line, else 0
  std::vector<std::string> warnings;
};

// Each of a format's probes once, for the first operation (in the format's order) the adapter
// declares: a probe may be slow for its line's length, another for what the line holds.
void AddProbes(const Suite& suite, const protocol::ImplementationHello& hello,
               const conformance::FormatModule& format, Plan* plan) {
  std::set<const conformance::ResourceProbe*> added;
  for (const conformance::OperationSpec& op : format.operations) {
    if (!protocol::Declares(hello, format.name, op.name)) continue;
    for (const SuiteCase& c : suite.cases) {
      if (c.format == &format && c.probe && c.operation == op.name &&
          added.insert(c.probe).second) {
        plan->cases.cases.push_back(c);
        plan->line_bytes.push_back(c.RequestLineBytes());  // its inputs made to be measured
      }
    }
  }
}

Plan MakePlan(const Suite& suite, const protocol::ImplementationHello& hello, bool probes) {
  Plan plan;
  for (const conformance::FormatModule* format : conformance::Formats()) {
    const auto declared = hello.formats.find(std::string(format->name));
    if (declared == hello.formats.end()) continue;
    for (const conformance::PolicySpec& policy : format->policies) {
      if (!declared->second.policies.contains(std::string(policy.name))) {
        plan.warnings.push_back(std::string(format->name) + " declares no choice for the policy " +
                                std::string(policy.name) + " (" +
                                Join({policy.choices.begin(), policy.choices.end()}, " or ") +
                                "): its policy cases fail as 'policy not declared' "
                                "(PROTOCOL.md §1, Policies)");
      }
    }
    for (const std::string& op : declared->second.operations) {
      if (const SuiteCase* c = SmallCase(suite, format->name, op)) {
        plan.cases.cases.push_back(*c);
        plan.line_bytes.push_back(0);
      }
    }
    if (probes) AddProbes(suite, hello, *format, &plan);
  }
  return plan;
}

std::string Declared(const protocol::ImplementationHello& hello) {
  std::vector<std::string> formats;
  for (const auto& [format, support] : hello.formats) {
    formats.push_back(Printable(format) + " (" + Printable(Join(support.operations)) + ")");
  }
  return formats.empty() ? "no format" : Join(formats, "; ");
}

// One line per check: what was sent, how it ended, and for a probe its line size and cost.
std::string CheckLine(const Paint& paint, const report::CaseResult& c, std::size_t line_bytes,
                      double timeout_seconds) {
  const bool probe = line_bytes > 0;
  const bool ok = c.outcome == report::Outcome::kPassed;
  std::string line = "  " + (ok ? paint.Green("ok  ") : paint.Red("FAIL")) + " " + c.format + " " +
                     c.operation + (probe ? " (resource probe)" : "") + ": " + Printable(c.id) +
                     " in " + Seconds(c.seconds);
  if (probe) line += ", one line of " + report::internal::ByteSize(line_bytes);
  if (c.peak_rss_bytes > 0) line += ", peak " + report::internal::ByteSize(c.peak_rss_bytes);
  line += "\n";
  if (ok && probe && c.seconds > timeout_seconds / 2) {
    line += "       " + paint.Yellow("warn") + " it took more than half the " +
            Seconds(timeout_seconds) +
            " timeout: on a busy machine it may run out (stream the line, give the "
            "implementation limits of its own, or run with --timeout-cpu)\n";
  }
  if (!ok) {
    line += "       " + Printable(report::internal::OutcomeText(c));
    if (!c.expected.empty()) {
      line += ": expected " + Printable(c.expected) + ", got " + Printable(c.actual);
    }
    line += "\n";
    if (!c.message.empty()) line += "       " + Printable(c.message) + "\n";
  }
  return line;
}

int Check(const CheckArgs& args) {
  const Paint paint(UseColor(args.color, 1));
  SuiteFilter everything;
  Result<Suite> suite =
      LoadSuite(args.suite_root.empty() ? DefaultSuiteRoot() : args.suite_root, everything);
  if (!suite.ok()) {
    std::cerr << "arcs check-adapter: " << suite.status().message() << "\n";
    return 2;
  }
  RunOptions options;
  options.timeout_seconds = WallTimeout(args.timeout, args.timeout_cpu);
  options.cpu_timeout_seconds = args.timeout_cpu;
  options.handshake_timeout_seconds = args.timeout_handshake;
  options.max_consecutive_failures = 1 << 20;  // every check runs, whatever the ones before
  const std::atomic<bool> stop = false;
  std::cout << "arcs check-adapter: " << Printable(args.impl) << "\n";
  const ImplementationRun shake = RunImplementation(args.impl, false, {}, options, {}, &stop);
  if (!shake.handshake_error.empty()) {
    std::cout << "  " << paint.Red("FAIL") << " handshake: " << Printable(shake.handshake_error)
              << "\n       answer the first line, {\"type\":\"hello\",\"protocol\":2}, with one "
                 "line {\"type\":\"hello\",\"protocol\":2,\"implementation\":{...},\"formats\":"
                 "{...}} (runner/PROTOCOL.md §1); `arcs run --trace CASE` shows every line\n";
    return 1;
  }
  const protocol::ImplementationInfo& info = shake.hello.implementation;
  std::cout << "  " << paint.Green("ok  ") << " handshake: " << Printable(info.name) << " "
            << Printable(info.version) << " (" << Printable(info.language) << ") declares "
            << Declared(shake.hello) << "\n";
  const Plan plan = MakePlan(*suite, shake.hello, args.resource_probes);
  for (const std::string& w : plan.warnings) {
    std::cout << "  " << paint.Yellow("warn") << " " << w << "\n";
  }
  const ImplementationRun run = RunImplementation(args.impl, false, plan.cases, options, {}, &stop);
  std::size_t failed = 0;
  for (std::size_t i = 0; i < run.report.cases.size(); ++i) {
    const report::CaseResult& c = run.report.cases[i];
    failed += c.outcome != report::Outcome::kPassed;
    std::cout << CheckLine(paint, c, plan.line_bytes[i], options.timeout_seconds);
  }
  if (plan.cases.cases.empty()) {
    std::cout << "  " << paint.Red("FAIL") << " no case to send: the hello declares no operation "
              << "this suite has cases for (`arcs formats` lists them)\n";
    return 1;
  }
  std::cout << (failed == 0
                    ? paint.Green("every check passed")
                    : paint.Red(std::to_string(failed) + " of " +
                                std::to_string(run.report.cases.size()) + " checks failed"));
  if (!plan.warnings.empty()) std::cout << ", " << plan.warnings.size() << " warnings";
  std::cout << "; next: arcs run --impl '" << Printable(args.impl)
            << "' (--write-known-failures DIR/ lists what fails, to fix in turn)\n";
  return failed == 0 ? 0 : 1;
}

}  // namespace

int CheckAdapterCommand(const std::vector<std::string>& args) {
  CheckArgs parsed;
  std::string error;
  if (!ParseCheckAdapterArgs(args, &parsed, &error)) {
    if (error.empty()) {
      std::cout << kCheckAdapterHelp;
      return 0;
    }
    std::cerr << "arcs check-adapter: " << error << "\n" << kCheckAdapterHelp;
    return 2;
  }
  return Check(parsed);
}

}  // namespace arcs::runner
