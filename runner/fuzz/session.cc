#include "runner/fuzz/session.h"

#include <chrono>

namespace arcs::fuzz {
namespace {

constexpr std::size_t kMaxLineBytes = protocol::kMaxLineBytes;
constexpr std::size_t kStderrTailBytes = 16u << 10;

supervisor::Clock::time_point After(double seconds) {
  return supervisor::Clock::now() + std::chrono::duration_cast<supervisor::Clock::duration>(
                                        std::chrono::duration<double>(seconds));
}

// The fate of an exchange that brought no line, and what the process said about it.
Reply Failed(supervisor::Subprocess& process, const supervisor::Exchange& ex) {
  Reply r;
  switch (ex.end) {
    case supervisor::SendEnd::kTimeout:
      r.fate = supervisor::Fate::kTimeout;
      r.detail = "no answer in time";
      return r;
    case supervisor::SendEnd::kTooLong:
      r.fate = supervisor::Fate::kProtocolError;
      r.detail = "a stdout line past the line limit";
      return r;
    case supervisor::SendEnd::kStopped:
      r.fate = supervisor::Fate::kInterrupted;
      r.detail = "stopped";
      return r;
    default:
      break;
  }
  r.fate = supervisor::Fate::kCrash;
  r.detail = process.WaitForExit(std::chrono::seconds(1), nullptr);
  if (r.detail.empty()) r.detail = "closed its stdout or stdin";
  if (std::string last = process.LastStderrLine(); !last.empty()) {
    r.detail += "; stderr ends with: " + supervisor::QuoteBytes(last);
  }
  return r;
}

// How the line `ex` brought answers `request`, read as `arcs run` reads it; `answered` is the id
// of the case the process answered last ("" for none). A second answer to that case is that
// case's protocol error, said apart: this one is still unanswered.
Reply Read(const protocol::CaseRequest& request, const supervisor::Exchange& ex,
           const std::string& answered) {
  supervisor::AnswerReading a =
      supervisor::ClassifyAnswer(request, ex, answered.empty() ? nullptr : &answered);
  Reply r;
  r.fate = a.fate;
  if (a.second_answer) {
    r.answered_twice_id = answered;
    r.answered_twice = std::move(a.detail);
  } else {
    r.answer = std::move(a.answer);
    r.detail = std::move(a.detail);
  }
  return r;
}

}  // namespace

Session::Session(std::string command, std::vector<std::string> formats, double timeout_seconds)
    : command_(std::move(command)),
      formats_(std::move(formats)),
      timeout_seconds_(timeout_seconds) {}

Session::~Session() { Shutdown(nullptr); }

std::string Session::Shutdown(const std::atomic<bool>* stop) {
  if (!process_) return "";
  std::string second;  // the protocol error of the case answered last, when it is answered again
  supervisor::Subprocess::LineSink on_line;
  if (!answered_.empty()) on_line = supervisor::SecondAnswerSink(answered_, &second);
  process_->Shutdown(protocol::EncodeShutdown() + "\n", std::chrono::milliseconds(500), stop,
                     on_line);
  process_.reset();
  answered_.clear();
  return second;
}

Status Session::Handshake(const std::atomic<bool>* stop) {
  Result<std::unique_ptr<supervisor::Subprocess>> started =
      supervisor::Subprocess::Start(command_, kMaxLineBytes, kStderrTailBytes);
  if (!started.ok()) return started.status();
  std::unique_ptr<supervisor::Subprocess> p = std::move(started).value();
  restarts_ += starts_++ > 0;
  protocol::RunnerHello ours;
  ours.formats = formats_;
  supervisor::Exchange ex = p->Send(protocol::EncodeRunnerHello(ours) + "\n",
                                    After(std::max(10.0, timeout_seconds_)), stop);
  if (ex.end != supervisor::SendEnd::kLine) {
    return Status(StatusCode::kIoError, "no hello: " + Failed(*p, ex).detail);
  }
  Result<protocol::ImplementationHello> theirs = protocol::DecodeImplementationHello(ex.line);
  if (!theirs.ok()) {
    return Status(StatusCode::kParseError, "not a valid hello: " + theirs.status().message() +
                                               "; the line: " + supervisor::QuoteBytes(ex.line));
  }
  hello_ = std::move(theirs).value();
  process_ = std::move(p);
  return Status::Ok();
}

Status Session::Start(const std::atomic<bool>* stop) { return Handshake(stop); }

Reply Session::Ask(const protocol::CaseRequest& request, const std::atomic<bool>* stop) {
  Reply r = AskOnce(request, stop);
  if (r.answered_twice_id.empty()) return r;
  // Nothing was answered in the fresh process yet: this case's second try is its own.
  Reply again = AskOnce(request, stop);
  again.answered_twice_id = std::move(r.answered_twice_id);
  again.answered_twice = std::move(r.answered_twice);
  return again;
}

Reply Session::AskOnce(const protocol::CaseRequest& request, const std::atomic<bool>* stop) {
  if (!process_) {
    if (Status s = Handshake(stop); !s.ok()) {
      Reply r;
      r.fate = supervisor::Fate::kCrash;
      r.detail = "in the handshake of a fresh process: " + s.message();
      return r;
    }
  }
  const std::string message = protocol::EncodeCase(request);
  supervisor::Exchange ex = process_->Send(message + "\n", After(timeout_seconds_), stop);
  Reply r =
      ex.end == supervisor::SendEnd::kLine ? Read(request, ex, answered_) : Failed(*process_, ex);
  if (r.fate == supervisor::Fate::kAnswered) {
    answered_ = request.id;
    return r;
  }
  answered_.clear();
  process_->Kill();
  process_.reset();
  return r;
}

}  // namespace arcs::fuzz
