#include "runner/fuzz/json_scan.h"

#include <cstddef>
#include <vector>

#include "reference/core/strings.h"
#include "runner/fuzz/mutate.h"

namespace arcs::fuzz {
namespace {

// What an object expects next; arrays need no state, their elements are simply values.
enum class Expect : std::uint8_t { kName, kColon, kValue, kComma };

struct Frame {
  std::size_t begin = 0;
  bool object = false;
  Expect expect = Expect::kName;
  std::size_t name_begin = 0;
  std::size_t name_end = 0;
  // The object's last member, held back until the next one tells where it begins.
  bool has_member = false;
  MemberSpan member;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsNumberByte(char c) {
  return IsDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

class Scanner {
 public:
  Scanner(std::string_view text, JsonVisitor& visitor) : text_(text), visitor_(visitor) {}

  void Run() {
    while (at_ < text_.size() && Step()) {
    }
    // A truncated text: the members of the objects left open end where it does.
    for (const Frame& frame : stack_) {
      if (frame.has_member) visitor_.Member(frame.member);
    }
  }

 private:
  // Reads one token; false when the scan can go no further.
  bool Step() {
    const char c = text_[at_];
    if (c == '{' || c == '[') return Open(c == '{');
    if (c == '}' || c == ']') return Close(c == '}');
    if (c == '"') return String();
    if (c == ':' || c == ',') {
      Punctuation(c);
    } else if (IsDigit(c) || c == '-') {
      Number();
    } else if (IsLetter(c)) {
      Word();
    } else {
      ++at_;  // whitespace, or a byte that is not JSON: read on
    }
    return true;
  }

  bool Open(bool object) {
    if (stack_.size() >= kMaxDepth) return false;
    Frame frame;
    frame.begin = at_;
    frame.object = object;
    stack_.push_back(frame);
    ++at_;
    return true;
  }

  bool Close(bool object) {
    if (stack_.empty() || stack_.back().object != object) return false;
    const Frame& top = stack_.back();
    if (top.has_member) visitor_.Member(top.member);
    const std::size_t begin = top.begin;
    stack_.pop_back();
    ++at_;
    Complete(begin, object ? ValueKind::kObject : ValueKind::kArray);
    return true;
  }

  bool String() {
    const std::size_t begin = at_;
    std::size_t end = at_ + 1;
    while (true) {
      // Unterminated: nothing after it is meaningful.
      if (end >= text_.size()) return false;
      end += JsonPlainPrefix(text_.substr(end));
      if (end >= text_.size()) return false;
      if (text_[end] == '"') break;
      end += text_[end] == '\\' ? 2 : 1;  // an escape, or a raw control byte
    }
    at_ = end + 1;
    Frame* top = stack_.empty() ? nullptr : &stack_.back();
    if (top != nullptr && top->object && top->expect == Expect::kName) {
      top->name_begin = begin;
      top->name_end = at_;
      top->expect = Expect::kColon;
    } else {
      Complete(begin, ValueKind::kString);
    }
    return true;
  }

  void Punctuation(char c) {
    ++at_;
    if (stack_.empty() || !stack_.back().object) return;
    Frame& top = stack_.back();
    if (c == ',') {
      top.expect = Expect::kName;
    } else if (top.expect == Expect::kColon) {
      top.expect = Expect::kValue;
    }
  }

  void Number() {
    const std::size_t begin = at_;
    while (at_ < text_.size() && IsNumberByte(text_[at_])) ++at_;
    Complete(begin, ValueKind::kNumber);
  }

  void Word() {
    const std::size_t begin = at_;
    while (at_ < text_.size() && IsLetter(text_[at_])) ++at_;
    const std::string_view word = text_.substr(begin, at_ - begin);
    if (word == "true" || word == "false") Complete(begin, ValueKind::kBool);
    if (word == "null") Complete(begin, ValueKind::kNull);
  }

  // A value [begin, at_) seen whole; a member too if its object was waiting for one.
  void Complete(std::size_t begin, ValueKind kind) {
    visitor_.Value(ValueSpan{begin, at_, static_cast<std::uint32_t>(stack_.size()), kind});
    if (stack_.empty() || !stack_.back().object || stack_.back().expect != Expect::kValue) return;
    Frame& top = stack_.back();
    MemberSpan member{top.name_begin, top.name_end, begin, at_};
    if (top.has_member) {
      top.member.next_begin = top.name_begin;
      member.previous_end = top.member.value_end;
      visitor_.Member(top.member);
    }
    top.member = member;
    top.has_member = true;
    top.expect = Expect::kComma;
  }

  std::string_view text_;
  JsonVisitor& visitor_;
  std::size_t at_ = 0;
  std::vector<Frame> stack_;
};

}  // namespace

void ScanJson(std::string_view text, JsonVisitor& visitor) { Scanner(text, visitor).Run(); }

}  // namespace arcs::fuzz
