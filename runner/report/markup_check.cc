#include "runner/report/markup_check.h"

#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "runner/report/escape.h"

namespace arcs::report::testing {
namespace {

Status Bad(std::size_t at, const std::string& what) {
  return Status(StatusCode::kParseError, "at byte " + std::to_string(at) + ": " + what);
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == ':' || c == '_' || c == '.';
}

// A reference at text[at] ('&'): its length, or 0 when it is not one the renderers write.
std::size_t ReferenceLength(std::string_view text, std::size_t at) {
  static constexpr std::array<std::string_view, 5> kNamed = {"&amp;", "&lt;", "&gt;", "&quot;",
                                                             "&#39;"};
  for (std::string_view named : kNamed) {
    if (text.substr(at).starts_with(named)) return named.size();
  }
  std::size_t i = at + 1;
  if (i >= text.size() || text[i] != '#') return 0;
  const bool hex = ++i < text.size() && text[i] == 'x';
  if (hex) ++i;
  const std::size_t digits = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                             (hex && std::isxdigit(static_cast<unsigned char>(text[i]))))) {
    ++i;
  }
  return i > digits && i < text.size() && text[i] == ';' ? i + 1 - at : 0;
}

class MarkupChecker {
 public:
  MarkupChecker(std::string_view text, bool html) : text_(text), html_(html) {}

  Status Run() {
    if (ValidUtf8(text_) != text_) return Bad(0, "not valid UTF-8");
    while (at_ < text_.size()) {
      Status s = text_[at_] == '<' ? Tag() : Character();
      if (!s.ok()) return s;
    }
    if (!open_.empty()) return Bad(at_, "<" + open_.back() + "> is never closed");
    return Status::Ok();
  }

 private:
  Status Character() {
    const auto c = static_cast<unsigned char>(text_[at_]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return Bad(at_, "a control character");
    if (c == '&') {
      const std::size_t n = ReferenceLength(text_, at_);
      if (n == 0) return Bad(at_, "a '&' that starts no reference");
      at_ += n;
      return Status::Ok();
    }
    ++at_;
    return Status::Ok();
  }

  Status Tag() {
    const std::string_view rest = text_.substr(at_);
    if (rest.starts_with("<?xml ") || rest.starts_with("<!DOCTYPE ")) return Skip(">");
    if (rest.starts_with("<!--")) return Skip("-->");
    const bool closing = rest.starts_with("</");
    std::size_t i = at_ + (closing ? 2 : 1);
    const std::size_t name_start = i;
    while (i < text_.size() && IsNameChar(text_[i])) ++i;
    if (i == name_start) return Bad(at_, "a '<' that opens no tag");
    const std::string name(text_.substr(name_start, i - name_start));
    if (closing) return Close(name, i);
    return Open(name, i);
  }

  Status Skip(std::string_view end) {
    const std::size_t found = text_.find(end, at_);
    if (found == std::string_view::npos) return Bad(at_, "unterminated markup");
    at_ = found + end.size();
    return Status::Ok();
  }

  Status Close(const std::string& name, std::size_t i) {
    if (i >= text_.size() || text_[i] != '>') return Bad(i, "a malformed end tag");
    if (open_.empty() || open_.back() != name) return Bad(at_, "</" + name + "> closes nothing");
    open_.pop_back();
    at_ = i + 1;
    return Status::Ok();
  }

  // Attributes: name="value" or name='value', values free of '<' and of stray '&'.
  Status Open(const std::string& name, std::size_t i) {
    for (;;) {
      while (i < text_.size() && text_[i] == ' ') ++i;
      if (i >= text_.size()) return Bad(at_, "an unterminated tag");
      if (text_[i] == '>' || text_.substr(i).starts_with("/>")) break;
      const std::size_t attribute = i;
      while (i < text_.size() && IsNameChar(text_[i])) ++i;
      if (i == attribute || i + 1 >= text_.size() || text_[i] != '=') {
        return Bad(i, "a malformed attribute in <" + name + ">");
      }
      const char quote = text_[++i];
      if (quote != '"' && quote != '\'') return Bad(i, "an unquoted attribute value");
      const std::size_t end = text_.find(quote, i + 1);
      if (end == std::string_view::npos) return Bad(i, "an unterminated attribute value");
      for (std::size_t k = i + 1; k < end; ++k) {
        if (text_[k] == '<') return Bad(k, "a '<' in an attribute value");
        if (text_[k] == '&' && ReferenceLength(text_, k) == 0) return Bad(k, "a stray '&'");
      }
      i = end + 1;
    }
    const bool self_closed = text_[i] == '/';
    at_ = i + (self_closed ? 2 : 1);
    if (self_closed || (html_ && IsVoid(name))) return Status::Ok();
    if (html_ && (name == "script" || name == "style")) return Skip("</" + name + ">");
    open_.push_back(name);
    return Status::Ok();
  }

  static bool IsVoid(std::string_view name) {
    for (std::string_view v : {"br", "meta", "link", "img", "hr", "input", "col", "wbr"}) {
      if (name == v) return true;
    }
    return false;
  }

  std::string_view text_;
  bool html_;
  std::size_t at_ = 0;
  std::vector<std::string> open_;
};

}  // namespace

Status CheckXml(std::string_view text) { return MarkupChecker(text, false).Run(); }

Status CheckHtml(std::string_view text) { return MarkupChecker(text, true).Run(); }

Status CheckMarkdown(std::string_view text) {
  std::size_t header = 0, line_start = 0;
  while (line_start < text.size()) {
    std::size_t end = text.find('\n', line_start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(line_start, end - line_start);
    std::size_t separators = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\') {
        ++i;
      } else if (line[i] == '|') {
        ++separators;
      } else if (line[i] == '<' && !line.substr(i).starts_with("<br>")) {
        return Bad(line_start + i, "a '<' that is not <br>");
      }
    }
    if (!line.starts_with("|")) {
      header = 0;
    } else if (header == 0) {
      header = separators;
    } else if (separators != header) {
      return Bad(line_start, "a table row of " + std::to_string(separators) +
                                 " separators under a header of " + std::to_string(header));
    }
    line_start = end + 1;
  }
  return Status::Ok();
}

}  // namespace arcs::report::testing
