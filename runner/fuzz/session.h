// One implementation under test held open for `arcs fuzz`: a process started once, shaken hands
// with once, asked one case at a time, and started again after a crash, timeout or protocol error
// (as `arcs run` does, without the re-run: a fuzzer's next input is its own question). Unlike the
// supervisor (runner/supervisor/supervisor.h), which plays a list of cases known in advance, a
// session takes each case as the fuzzer makes it.
#ifndef ARCS_RUNNER_FUZZ_SESSION_H_
#define ARCS_RUNNER_FUZZ_SESSION_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "reference/core/status.h"
#include "protocol/protocol.h"
#include "runner/supervisor/subprocess.h"
#include "runner/supervisor/supervisor.h"

namespace arcs::fuzz {

// What became of one case: answered, crash, timeout, protocol error, or interrupted (the run was
// stopped), as the supervisor names them.
struct Reply {
  supervisor::Fate fate = supervisor::Fate::kAnswered;
  protocol::Answer answer;  // kAnswered
  std::string detail;       // otherwise: what happened (untrusted text: it may quote the process)
  // When the process answered the case asked before this one a second time while this one was
  // pending: that case's id, and what it did ("answered twice: ..."), its protocol error. This
  // case was not at fault, and was asked again in a fresh process: the fields above are that
  // answer's.
  std::string answered_twice_id;
  std::string answered_twice;
};

class Session {
 public:
  Session(std::string command, std::vector<std::string> formats, double timeout_seconds);
  ~Session();

  // Starts the process and shakes hands; the hello is then hello(). An error says why (the
  // process's last stderr line included).
  Status Start(const std::atomic<bool>* stop);
  const protocol::ImplementationHello& hello() const { return hello_; }

  // Sends `request` and waits for its answer. After anything but an answer the process is killed
  // and the next Ask starts a fresh one (a failure to start is that Ask's crash). A second answer
  // to the case asked before (see PROTOCOL.md §2) is that case's fault: the reply says so, and
  // this case is asked again in a fresh process. Request ids must differ from one Ask to the next.
  Reply Ask(const protocol::CaseRequest& request, const std::atomic<bool>* stop);

  // Asks the process to shut down, reading what it still writes meanwhile: a second answer to the
  // case it answered last is that case's protocol error, returned ("answered twice: ..."; "" when
  // none). Then no process is left; the next Ask starts one.
  std::string Shutdown(const std::atomic<bool>* stop);
  // The id of the case the current process answered last, "" when none.
  const std::string& answered() const { return answered_; }

  std::uint64_t restarts() const { return restarts_; }

 private:
  Status Handshake(const std::atomic<bool>* stop);
  Reply AskOnce(const protocol::CaseRequest& request, const std::atomic<bool>* stop);

  std::string command_;
  std::vector<std::string> formats_;
  double timeout_seconds_;
  std::unique_ptr<supervisor::Subprocess> process_;
  protocol::ImplementationHello hello_;
  std::string answered_;  // the id of the case process_ answered last, "" when none
  std::uint64_t starts_ = 0;
  std::uint64_t restarts_ = 0;
};

}  // namespace arcs::fuzz

#endif  // ARCS_RUNNER_FUZZ_SESSION_H_
