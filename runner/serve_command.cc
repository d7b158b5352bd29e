#include "runner/serve_command.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include "conformance/registry.h"
#include "reference/core/jsonl.h"
#include "reference/core/version.h"

namespace arcs::runner {
namespace {

constexpr char kHelp[] = R"(usage: arcs serve

Speaks the ARCS runner protocol (runner/PROTOCOL.md) on stdin/stdout as the reference
implementation: `arcs run` with no --impl runs `arcs serve`. Stops at {"type":"shutdown"} or at
the end of its input.
)";

protocol::Answer Skipped(const protocol::CaseRequest& request, std::string reason) {
  protocol::Answer answer;
  answer.id = request.id;
  answer.status = protocol::AnswerStatus::kSkipped;
  answer.reason = std::move(reason);
  return answer;
}

}  // namespace

protocol::ImplementationHello ReferenceHello() {
  protocol::ImplementationHello hello;
  hello.implementation = {"arcs-reference", std::string(kArcsVersion), "C++", ""};
  for (const conformance::FormatModule* format : conformance::Formats()) {
    protocol::FormatSupport& support = hello.formats[std::string(format->name)];
    for (const conformance::OperationSpec& op : format->operations) {
      support.operations.emplace_back(op.name);
    }
    for (const conformance::PolicySpec& p : format->policies) {
      support.policies[std::string(p.name)] = p.reference_choice;
    }
  }
  return hello;
}

protocol::Answer ReferenceAnswer(const protocol::CaseRequest& request) {
  const conformance::FormatModule* format = conformance::FindFormat(request.format);
  const conformance::OperationSpec* op =
      format ? format->FindOperation(request.operation) : nullptr;
  if (!op) {
    protocol::Answer answer;
    answer.id = request.id;
    answer.status = protocol::AnswerStatus::kSkipped;
    answer.reason = "the reference does not implement " + request.format + " " + request.operation;
    return answer;
  }
  Result<conformance::LimitValues> limits = format->LimitsFromArgs(request.args);
  // PROTOCOL.md §2: an arg the implementation cannot honour makes it skip the case.
  if (!limits.ok()) return Skipped(request, "args: " + limits.status().message());
  protocol::Answer answer = op->reference({&request.inputs, std::move(*limits), request.args});
  answer.id = request.id;
  return answer;
}

int Serve(jsonl::ByteSource* input, std::FILE* output, std::uint64_t max_line_bytes) {
  auto send = [output](const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), output);
    std::fputc('\n', output);
    std::fflush(output);
  };
  jsonl::LineReader reader(input, {max_line_bytes, UINT64_MAX});
  jsonl::Line line;
  for (;;) {
    Result<bool> more = reader.Next(&line);
    if (!more.ok()) {
      std::cerr << "arcs serve: " << more.status().message() << "\n";
      return 1;
    }
    if (!*more) return 0;
    if (line.too_long) {
      std::cerr << "arcs serve: line " << line.number << " is " << line.length
                << " bytes long, over the protocol's limit of " << max_line_bytes << "\n";
      return 1;
    }
    Result<std::string> type = protocol::MessageType(line.text);
    if (!type.ok()) {
      std::cerr << "arcs serve: " << type.status().message() << "\n";
      return 1;
    }
    if (*type == "shutdown") return 0;
    if (*type == "hello") {
      Result<protocol::RunnerHello> hello = protocol::DecodeRunnerHello(line.text);
      if (!hello.ok()) {
        std::cerr << "arcs serve: hello: " << hello.status().message() << "\n";
        return 1;
      }
      send(protocol::EncodeImplementationHello(ReferenceHello()));
      continue;
    }
    Result<protocol::CaseRequest> request = protocol::DecodeCase(line.text);
    if (!request.ok()) {
      std::cerr << "arcs serve: " << request.status().message() << "\n";
      return 1;
    }
    send(protocol::EncodeAnswer(ReferenceAnswer(*request)));
  }
}

int ServeCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    bool help = args[0] == "--help" || args[0] == "-h";
    (help ? std::cout : std::cerr) << kHelp;
    return help ? 0 : 2;
  }
  jsonl::FdSource input(0);
  return Serve(&input, stdout, protocol::kMaxLineBytes);
}

}  // namespace arcs::runner
