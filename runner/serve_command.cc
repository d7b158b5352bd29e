#include "runner/serve_command.h"

#include <cstdio>
#include <iostream>
#include <string>

#include "conformance/spool/checker.h"
#include "reference/spool/spool.h"
#include "runner/version.h"

namespace arcs::runner {
namespace {

constexpr char kHelp[] = R"(usage: arcs serve

Speaks the ARCS runner protocol (runner/PROTOCOL.md) on stdin/stdout as the reference
implementation: `arcs run` with no --impl runs `arcs serve`. Stops at {"type":"shutdown"} or at
the end of its input.
)";

protocol::Answer Errored(const protocol::CaseRequest& request, std::string message) {
  protocol::Answer answer;
  answer.id = request.id;
  answer.status = protocol::AnswerStatus::kErrored;
  answer.reason = std::move(message);
  return answer;
}

Result<arcs::spool::Limits> SpoolLimits(const protocol::CaseRequest& request) {
  arcs::spool::Limits limits;
  for (const auto& [name, value] : request.limits) {
    if (Status s = arcs::spool::SetLimit(name, value, &limits); !s.ok()) return s;
  }
  return limits;
}

protocol::Answer SpoolValidate(const protocol::CaseRequest& request,
                               const arcs::spool::Limits& limits) {
  jsonl::MemorySource source(request.input);
  Diagnostics diagnostics;
  conformance::spool::Validate(&source, limits, &diagnostics);
  protocol::Answer answer;
  answer.id = request.id;
  answer.verdict =
      diagnostics.has_errors() ? protocol::Verdict::kInvalid : protocol::Verdict::kValid;
  answer.findings_given = true;
  for (const Finding& f : diagnostics.findings()) {
    answer.findings.push_back({f.rule_id, std::string(SeverityName(f.severity)), f.location.line,
                               f.location.pointer, f.message});
  }
  return answer;
}

protocol::Answer SpoolRoundtrip(const protocol::CaseRequest& request,
                                const arcs::spool::Limits& limits) {
  arcs::spool::ReadOptions options;
  options.limits = limits;
  jsonl::MemorySource source(request.input);
  Result<arcs::spool::File> file = arcs::spool::Read(&source, options);
  protocol::Answer answer;
  answer.id = request.id;
  if (!file.ok()) {
    answer.verdict = protocol::Verdict::kInvalid;
    return answer;
  }
  std::string out;
  arcs::spool::Write(*file, &out);
  answer.output = std::move(out);
  return answer;
}

struct Operation {
  std::string_view format;
  std::string_view operation;
  protocol::Answer (*run)(const protocol::CaseRequest&, const arcs::spool::Limits&);
};

constexpr Operation kOperations[] = {
    {"spool", "validate", SpoolValidate},
    {"spool", "roundtrip", SpoolRoundtrip},
};

}  // namespace

protocol::ImplementationHello ReferenceHello() {
  protocol::ImplementationHello hello;
  hello.implementation = {"arcs-reference", std::string(kArcsVersion), "C++", ""};
  protocol::FormatSupport& spool = hello.formats["spool"];
  for (const Operation& op : kOperations) {
    if (op.format == "spool") spool.operations.emplace_back(op.operation);
  }
  for (const arcs::spool::DeclaredPolicy& p : arcs::spool::kDeclaredPolicies) {
    spool.policies[std::string(p.policy)] = p.choice;
  }
  return hello;
}

protocol::Answer ReferenceAnswer(const protocol::CaseRequest& request) {
  for (const Operation& op : kOperations) {
    if (op.format != request.format || op.operation != request.operation) continue;
    Result<arcs::spool::Limits> limits = SpoolLimits(request);
    if (!limits.ok()) return Errored(request, limits.status().message());
    return op.run(request, *limits);
  }
  protocol::Answer answer;
  answer.id = request.id;
  answer.status = protocol::AnswerStatus::kSkipped;
  answer.reason = "the reference does not implement " + request.format + " " + request.operation;
  return answer;
}

int ServeCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    bool help = args[0] == "--help" || args[0] == "-h";
    (help ? std::cout : std::cerr) << kHelp;
    return help ? 0 : 2;
  }
  std::ios::sync_with_stdio(false);
  auto send = [](const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  };
  std::string line;
  while (std::getline(std::cin, line)) {
    Result<std::string> type = protocol::MessageType(line);
    if (!type.ok()) {
      std::cerr << "arcs serve: " << type.status().message() << "\n";
      return 1;
    }
    if (*type == "shutdown") return 0;
    if (*type == "hello") {
      Result<protocol::RunnerHello> hello = protocol::DecodeRunnerHello(line);
      if (!hello.ok()) {
        std::cerr << "arcs serve: hello: " << hello.status().message() << "\n";
        return 1;
      }
      send(protocol::EncodeImplementationHello(ReferenceHello()));
      continue;
    }
    Result<protocol::CaseRequest> request = protocol::DecodeCase(line);
    if (!request.ok()) {
      std::cerr << "arcs serve: " << request.status().message() << "\n";
      return 1;
    }
    send(protocol::EncodeAnswer(ReferenceAnswer(*request)));
  }
  return 0;
}

}  // namespace arcs::runner
