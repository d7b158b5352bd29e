// Status and Result: how expected failures (bad input, I/O, exceeded limits) travel as values.
// Nothing in ARCS throws for bad input; functions that can fail return Status or Result<T>.
#ifndef ARCS_REFERENCE_CORE_STATUS_H_
#define ARCS_REFERENCE_CORE_STATUS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace arcs {

enum class StatusCode : std::uint8_t {
  kOk,
  kInvalidArgument,  // the caller's request is malformed (usage errors)
  kIoError,          // the file system or a stream failed
  kParseError,       // the input is not what the format requires
  kLimitExceeded,    // the input is larger or deeper than a configured limit allows
  kUnsupported,      // the input asks for something this implementation does not do
  kInternal,         // a defect of ARCS itself: a Result made from an OK status
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design, like absl::StatusOr
  // A failure: an OK status has no value to give, so it becomes kInternal (as absl::StatusOr
  // refuses one), never a Result that is neither a value nor an error.
  Result(Status status)  // NOLINT: implicit by design
      : state_(status.ok() ? Status(StatusCode::kInternal, "a Result made from an OK status")
                           : std::move(status)) {}

  bool ok() const { return std::holds_alternative<T>(state_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(state_);
  }
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_STATUS_H_
