#include "reference/core/json_locate.h"

#include <cstdint>
#include <map>
#include <string>

#include "reference/core/strings.h"

namespace arcs::json {
namespace {

// The pointers asked for, as a tree of their tokens: node 0 is the whole text, and a node's
// children the tokens that follow it in some pointer.
struct Node {
  std::map<std::string, std::size_t, std::less<>> children;
  std::size_t parent = 0;
  std::size_t offset = 0;
  bool reached = false;
  std::size_t unreached_children = 0;
};

// RFC 6901's reference tokens of `pointer`, decoded; false when it is not a pointer.
bool Tokens(std::string_view pointer, std::vector<std::string>* tokens) {
  if (pointer.empty()) return true;
  if (pointer[0] != '/') return false;
  std::string token;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens->push_back(std::move(token));
      token.clear();
    } else if (pointer[i] == '~') {
      if (i + 1 == pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) return false;
      token += pointer[++i] == '0' ? '~' : '/';
    } else {
      token += pointer[i];
    }
  }
  return true;
}

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::size_t pos() const { return pos_; }
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void Advance() { ++pos_; }

  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r'))
      ++pos_;
  }

  // At a '"': past the closing quote, the content decoded into *out when it is not null.
  bool String(std::string* out) {
    ++pos_;
    while (!AtEnd()) {
      const char c = text_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        if (out) *out += c;
        continue;
      }
      if (AtEnd()) return false;
      const char e = text_[pos_++];
      if (!out) continue;
      switch (e) {
        case 'b':
          *out += '\b';
          break;
        case 'f':
          *out += '\f';
          break;
        case 'n':
          *out += '\n';
          break;
        case 'r':
          *out += '\r';
          break;
        case 't':
          *out += '\t';
          break;
        case 'u': {
          std::optional<std::uint32_t> c1 = Hex4();
          if (!c1) return false;
          std::uint32_t code = *c1;
          // A high surrogate followed by an escaped low one is one code point; any other
          // surrogate stands alone, and is U+FFFD as a reader that repairs text makes it.
          if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            const std::size_t back = pos_;
            pos_ += 2;
            const std::optional<std::uint32_t> c2 = Hex4();
            if (c2 && *c2 >= 0xDC00 && *c2 < 0xE000) {
              code = 0x10000 + ((code - 0xD800) << 10) + (*c2 - 0xDC00);
            } else {
              pos_ = back;
            }
          }
          if (code >= 0xD800 && code < 0xE000) code = 0xFFFD;
          char utf8[4];
          out->append(utf8, EncodeUtf8(code, utf8));
          break;
        }
        default:  // '"', '\\', '/'
          *out += e;
      }
    }
    return false;
  }

  // Past one value of any kind; false when the text ends first or is not JSON where it looked.
  bool SkipValue() {
    const char c = Peek();
    if (c == '"') return String(nullptr);
    if (c == '{' || c == '[') {
      ++pos_;
      return SkipRest();
    }
    const std::size_t start = pos_;
    while (!AtEnd() && Peek() != ',' && Peek() != ']' && Peek() != '}' && Peek() != ' ' &&
           Peek() != '\t' && Peek() != '\n' && Peek() != '\r' && Peek() != '"' && Peek() != '{' &&
           Peek() != '[') {
      ++pos_;
    }
    return pos_ > start;
  }

  // Inside an array or object: past its closing bracket, whatever it holds.
  bool SkipRest() {
    std::size_t depth = 1;
    while (!AtEnd()) {
      const char c = Peek();
      if (c == '"') {
        if (!String(nullptr)) return false;
        continue;
      }
      ++pos_;
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) return true;
    }
    return false;
  }

 private:
  std::optional<std::uint32_t> Hex4() {
    if (text_.size() - pos_ < 4) return std::nullopt;
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      value <<= 4;
      if (h >= '0' && h <= '9') {
        value |= static_cast<std::uint32_t>(h - '0');
      } else if (h >= 'a' && h <= 'f') {
        value |= static_cast<std::uint32_t>(h - 'a' + 10);
      } else if (h >= 'A' && h <= 'F') {
        value |= static_cast<std::uint32_t>(h - 'A' + 10);
      } else {
        return std::nullopt;
      }
    }
    return value;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

// An array or object being read because some pointer goes on inside it.
struct Frame {
  std::size_t node;
  bool object;
  std::size_t index = 0;  // of the next element of an array
};

// Reads `text` and marks each node of the tree it reaches, with its offset.
void MarkReached(std::string_view text, std::vector<Node>* nodes) {
  Scanner s(text);
  s.SkipSpace();
  if (s.AtEnd()) return;
  std::vector<Frame> stack;
  // Marks `node` at `offset`, then enters the value at the scanner when a pointer goes on into it,
  // else skips it. False when the text stops making sense.
  const auto visit = [&](std::size_t node, std::size_t offset) {
    Node& n = (*nodes)[node];
    n.reached = true;
    n.offset = offset;
    if (node != 0) --(*nodes)[n.parent].unreached_children;
    const char c = s.Peek();
    if (!n.children.empty() && (c == '{' || c == '[')) {
      s.Advance();
      stack.push_back({node, c == '{'});
      return true;
    }
    return s.SkipValue();
  };
  if (!visit(0, s.pos())) return;
  while (!stack.empty()) {
    Frame& frame = stack.back();
    if ((*nodes)[frame.node].unreached_children == 0) {  // nothing more to find in here
      if (!s.SkipRest()) return;
      stack.pop_back();
      continue;
    }
    s.SkipSpace();
    if (s.Peek() == ',') {
      s.Advance();
      s.SkipSpace();
    }
    if (s.Peek() == (frame.object ? '}' : ']')) {
      s.Advance();
      stack.pop_back();
      continue;
    }
    std::string token;
    std::size_t offset = s.pos();
    if (frame.object) {
      if (s.Peek() != '"' || !s.String(&token)) return;
      s.SkipSpace();
      if (s.Peek() != ':') return;
      s.Advance();
      s.SkipSpace();
    } else {
      token = std::to_string(frame.index++);
    }
    if (s.AtEnd()) return;
    const std::map<std::string, std::size_t, std::less<>>& children = (*nodes)[frame.node].children;
    const auto child = children.find(token);
    // A repeated name: the first member of that name was the one.
    if (child != children.end() && !(*nodes)[child->second].reached) {
      if (!visit(child->second, offset)) return;
    } else if (!s.SkipValue()) {
      return;
    }
  }
}

}  // namespace

std::vector<std::optional<PointerPlace>> LocatePointers(
    std::string_view text, const std::vector<std::string_view>& pointers) {
  std::vector<Node> nodes(1);
  std::vector<std::optional<std::size_t>> ends;  // each pointer's node, when it is a pointer
  for (std::string_view pointer : pointers) {
    std::vector<std::string> tokens;
    if (!Tokens(pointer, &tokens)) {
      ends.emplace_back();
      continue;
    }
    std::size_t node = 0;
    for (std::string& token : tokens) {
      const auto it = nodes[node].children.find(token);
      if (it != nodes[node].children.end()) {
        node = it->second;
        continue;
      }
      nodes[node].children.emplace(std::move(token), nodes.size());
      ++nodes[node].unreached_children;
      Node child;
      child.parent = node;
      nodes.push_back(std::move(child));
      node = nodes.size() - 1;
    }
    ends.emplace_back(node);
  }
  MarkReached(text, &nodes);
  std::vector<std::optional<PointerPlace>> places;
  for (const std::optional<std::size_t>& end : ends) {
    if (!end) {
      places.emplace_back();
      continue;
    }
    std::size_t node = *end;
    while (!nodes[node].reached && node != 0) node = nodes[node].parent;
    if (!nodes[node].reached) {
      places.emplace_back();
    } else {
      places.push_back(PointerPlace{nodes[node].offset, node == *end});
    }
  }
  return places;
}

}  // namespace arcs::json
