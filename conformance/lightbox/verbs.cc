#include "conformance/lightbox/verbs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "reference/core/io.h"
#include "reference/lightbox/lightbox.h"

namespace arcs::conformance::lightbox {
namespace {

constexpr char kVerifyHelp[] = R"(usage: arcs lightbox verify [-j N] SESSION

Checks the hash chain of SESSION (a session folder, or its events.jsonl): every event's hash is
the SHA-256 of its canonical form, the first prev_hash is null and every other one the previous
event's hash. Prints "intact: N events", or the first broken event (0-based), its line and why
(content changed, events inserted, reordered or deleted before it).
  -j N   threads that parse and hash events (default: one per core); the verdict is the same
Exit status: 0 intact, 1 broken, 2 on usage or I/O errors.
)";

constexpr char kHashHelp[] = R"(usage: arcs lightbox hash FILE

Prints the canonical hash of every event of FILE (events.jsonl, or a session folder), one per
line: "INDEX HASH", or "INDEX error: WHY" for an event that has none (not a JSON object, a float).
Exit status: 0 when every event has a hash, 1 otherwise, 2 on usage or I/O errors.
)";

// The events.jsonl a path names (a folder holds it), opened; or an error for the output.
std::optional<int> OpenEvents(const std::vector<std::string>& args, VerbOutput* output) {
  if (args.size() != 1 || args[0].starts_with("-")) {
    output->err.push_back("give one SESSION (a folder or its events.jsonl); see --help");
    output->exit_code = 2;
    return std::nullopt;
  }
  std::string path = args[0];
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) path += "/events.jsonl";
  const Result<int> fd = OpenToRead(path);  // a FIFO would block the verb forever
  if (!fd.ok()) {
    output->err.push_back(fd.status().message());
    output->exit_code = 2;
    return std::nullopt;
  }
  return *fd;
}

// Takes "-j N" (or "-jN") out of args: the thread count, 0 when absent, nullopt when malformed.
std::optional<unsigned> TakeThreads(std::vector<std::string>* args) {
  for (std::size_t i = 0; i < args->size(); ++i) {
    const std::string& a = (*args)[i];
    if (!a.starts_with("-j")) continue;
    const bool separate = a == "-j";
    if (separate && i + 1 == args->size()) return std::nullopt;
    const std::string value = separate ? (*args)[i + 1] : a.substr(2);
    unsigned threads = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), threads);
    if (error != std::errc() || end != value.data() + value.size() || threads == 0 ||
        threads > 1024) {
      return std::nullopt;
    }
    args->erase(args->begin() + static_cast<std::ptrdiff_t>(i),
                args->begin() + static_cast<std::ptrdiff_t>(i + (separate ? 2 : 1)));
    return threads;
  }
  return 0u;
}

VerbOutput Verify(const std::vector<std::string>& given) {
  VerbOutput output;
  std::vector<std::string> args = given;
  const std::optional<unsigned> threads = TakeThreads(&args);
  if (!threads) {
    output.err.push_back("-j takes a thread count from 1 to 1024; see --help");
    output.exit_code = 2;
    return output;
  }
  const std::optional<int> fd = OpenEvents(args, &output);
  if (!fd) return output;
  jsonl::FdSource events(*fd);
  Result<arcs::lightbox::ChainVerdict> verdict = arcs::lightbox::Verify(
      &events, {}, *threads ? *threads : arcs::lightbox::DefaultVerifyThreads());
  ::close(*fd);
  if (!verdict.ok()) {
    output.err.push_back(verdict.status().message());
    output.exit_code = 2;
  } else if (verdict->intact()) {
    output.out.push_back("intact: " + std::to_string(verdict->events) + " events");
  } else {
    output.out.push_back("broken: " + verdict->reason + " (" +
                         std::string(arcs::lightbox::BreakName(verdict->first_break)) + ")");
    output.exit_code = 1;
  }
  return output;
}

VerbOutput Hash(const std::vector<std::string>& args) {
  VerbOutput output;
  const std::optional<int> fd = OpenEvents(args, &output);
  if (!fd) return output;
  jsonl::FdSource events(*fd);
  Status s = arcs::lightbox::HashEach(
      &events, {}, [&](std::uint64_t index, const Result<std::string>& hash) {
        output.out.push_back(std::to_string(index) + " " +
                             (hash.ok() ? *hash : "error: " + hash.status().message()));
        if (!hash.ok()) output.exit_code = 1;
      });
  ::close(*fd);
  if (!s.ok()) {
    output.err.push_back(s.message());
    output.exit_code = 2;
  }
  return output;
}

}  // namespace

std::vector<VerbSpec> Verbs() {
  return {{"verify", kVerifyHelp,
           "checks a session's hash chain: intact, or the first broken event and why", Verify},
          {"hash", kHashHelp, "prints every event's canonical hash, one per line", Hash}};
}

}  // namespace arcs::conformance::lightbox
