// arcs_lightbox_verify: lightbox::Verify over a file, read as `arcs validate` reads one (a file
// descriptor, streamed), for the end-to-end time and peak memory of the Lightbox benchmark
// (reference/lightbox/benchmark/bench.sh runs it under /usr/bin/time -v) and its smoke test.
// Until the Lightbox format module is registered, `arcs validate` does not read events.jsonl.
//
//   arcs_lightbox_verify FILE
//
// Prints "FILE: intact, N events" (exit 0) or "FILE: broken at event K (KIND), N events: REASON"
// (exit 1); exit 2 on usage and I/O errors and exceeded limits. Default limits.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <string>

#include "reference/core/jsonl.h"
#include "reference/lightbox/lightbox.h"

int main(int argc, char** argv) {
  if (argc != 2 || argv[1][0] == '-') {
    std::cerr << "usage: arcs_lightbox_verify FILE\n";
    return 2;
  }
  const std::string path = argv[1];
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    std::cerr << "arcs_lightbox_verify: " << path << ": " << std::strerror(errno) << "\n";
    return 2;
  }
  arcs::jsonl::FdSource source(fd);
  arcs::Result<arcs::lightbox::ChainVerdict> verdict =
      arcs::lightbox::Verify(&source, arcs::lightbox::Limits());
  close(fd);
  if (!verdict.ok()) {
    std::cerr << "arcs_lightbox_verify: " << path << ": " << verdict.status().message() << "\n";
    return 2;
  }
  if (verdict->intact()) {
    std::cout << path << ": intact, " << verdict->events << " events\n";
    return 0;
  }
  std::cout << path << ": broken at event " << verdict->first_broken << " ("
            << arcs::lightbox::BreakName(verdict->first_break) << "), " << verdict->events
            << " events: " << verdict->reason << "\n";
  return 1;
}
