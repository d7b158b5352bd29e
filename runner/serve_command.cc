#include "runner/serve_command.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include "conformance/registry.h"
#include "reference/core/jsonl.h"
#include "runner/judge.h"

namespace arcs::runner {
namespace {

constexpr char kServeHelp[] = R"(usage: arcs serve

Speaks the ARCS runner protocol (runner/PROTOCOL.md) on stdin/stdout as the reference
implementation: `arcs run` with no --impl runs `arcs serve`. Stops at {"type":"shutdown"} or at
the end of its input.

Exit status: 0 at shutdown or the end of its input, 1 on a message it cannot read (not the
protocol's, or a line over its limit: stderr says which), 2 on usage errors.
)";

}  // namespace

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
    (help ? std::cout : std::cerr) << kServeHelp;
    return help ? 0 : 2;
  }
  jsonl::FdSource input(0);
  return Serve(&input, stdout, protocol::kMaxLineBytes);
}

}  // namespace arcs::runner
