#include "conformance/session_data/render_judge.h"

#include <cmark.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference/core/json_fields.h"
#include "reference/core/strings.h"

namespace arcs::conformance::session_data {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD, what cmark makes of U+0000

// A judge that reports every problem of a transcript that lost all its text would write one line
// per snippet; past this many per requirement the rest are counted, not listed. The cap is per
// requirement so that a SHOULD's flood never hides a MUST's problem from the score.
constexpr std::size_t kMaxProblemsPerRequirement = 20;

// cmark keeps a paragraph's text in one buffer and aborts past 1 GiB (bufsize_t is 32 bits and
// cmark_strbuf_grow stops at INT32_MAX / 2); U+0000 grows to three bytes. Markdown beyond this is
// not handed to cmark at all.
constexpr std::size_t kMaxMarkdownBytes = std::size_t{256} << 20;

constexpr std::size_t kContextBytes = 60;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Normalised text (vectors/README.md "expect_render"), built a piece at a time: U+0000 becomes
// U+FFFD, each run of whitespace one space, none at either end. Separate() asks for a space
// before whatever comes next, which is how blocks are kept apart.
class NormalText {
 public:
  void Separate() { pending_space_ = true; }
  void Append(std::string_view text) {
    for (const char c : text) {
      if (IsSpace(c)) {
        pending_space_ = true;
      } else if (c == '\0') {
        for (const char r : kReplacement) Put(r);
      } else {
        Put(c);
      }
    }
  }
  std::size_t size() const { return text_.size(); }
  std::string Take() { return std::move(text_); }

 private:
  void Put(char c) {
    if (pending_space_ && !text_.empty()) text_.push_back(' ');
    pending_space_ = false;
    text_.push_back(c);
  }

  std::string text_;
  bool pending_space_ = false;
};

std::string Normalise(std::string_view text) {
  NormalText normal;
  normal.Append(text);
  return normal.Take();
}

// An html literal or an expected string as the `html` check compares them: ASCII lower case, line
// endings as LF (cmark keeps a CRLF inside an html_block; the vector writes "\n"), U+0000 as cmark
// writes it.
std::string FoldHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else if (text[i] == '\0') {
      out += kReplacement;
    } else {
      out += AsciiLower(text[i]);
    }
  }
  return out;
}

// A string to look for, prepared for Knuth-Morris-Pratt. The transcript is untrusted and the
// expected strings can be long (a 10,000-byte line); std::string_view::find and the
// Boyer-Moore-Horspool searcher take O(n*m) on a transcript built against such a line, KMP takes
// O(n + m) whatever the bytes.
class Pattern {
 public:
  explicit Pattern(std::string needle) : needle_(std::move(needle)), border_(needle_.size(), 0) {
    for (std::size_t i = 1, k = 0; i < needle_.size(); ++i) {
      while (k > 0 && needle_[i] != needle_[k]) k = border_[k - 1];
      if (needle_[i] == needle_[k]) ++k;
      border_[i] = k;
    }
  }
  const std::string& needle() const { return needle_; }
  std::size_t size() const { return needle_.size(); }
  bool empty() const { return needle_.empty(); }

 private:
  friend class Matcher;
  std::string needle_;
  std::vector<std::size_t> border_;  // border_[i]: longest proper border of needle_[0..i]
};

// The occurrences of a non-empty pattern in `text` from `from` on, left to right, overlapping ones
// included. While nothing is matched, memchr skips to the next possible first byte.
class Matcher {
 public:
  Matcher(const Pattern& pattern, std::string_view text, std::size_t from)
      : pattern_(pattern), text_(text), at_(std::min(from, text.size())) {}

  // The start of the next occurrence, or npos.
  std::size_t Next() {
    const std::string& needle = pattern_.needle_;
    if (needle.empty()) return std::string_view::npos;
    while (at_ < text_.size()) {
      if (matched_ == 0) {
        const void* hit = std::memchr(text_.data() + at_, needle[0], text_.size() - at_);
        if (hit == nullptr) {
          at_ = text_.size();
          break;
        }
        at_ = static_cast<std::size_t>(static_cast<const char*>(hit) - text_.data());
      }
      const char c = text_[at_++];
      while (matched_ > 0 && c != needle[matched_]) matched_ = pattern_.border_[matched_ - 1];
      if (c == needle[matched_]) ++matched_;
      if (matched_ == needle.size()) {
        matched_ = pattern_.border_[matched_ - 1];
        return at_ - needle.size();
      }
    }
    return std::string_view::npos;
  }

 private:
  const Pattern& pattern_;
  std::string_view text_;
  std::size_t at_;
  std::size_t matched_ = 0;
};

// The first occurrence of `pattern` in `text` at or after `from`; an empty pattern is found where
// the search starts.
std::size_t Find(const Pattern& pattern, std::string_view text, std::size_t from) {
  if (pattern.empty()) return from;
  return Matcher(pattern, text, from).Next();
}

// The problems found so far, at most kMaxProblemsPerRequirement listed per requirement.
class Problems {
 public:
  void Add(const std::string& requirement, std::string message) {
    auto [it, inserted] = counts_.try_emplace(requirement, 0);
    if (inserted) requirements_.push_back(requirement);
    if (++it->second <= kMaxProblemsPerRequirement) {
      list_.push_back({requirement, std::move(message)});
    }
  }
  bool Full(const std::string& requirement) const {
    auto it = counts_.find(requirement);
    return it != counts_.end() && it->second >= kMaxProblemsPerRequirement;
  }
  // Counts a problem without building its message (the list of that requirement is full).
  void Count(const std::string& requirement) { Add(requirement, std::string()); }

  std::vector<RenderProblem> Finish() && {
    for (const std::string& requirement : requirements_) {
      const std::size_t count = counts_[requirement];
      if (count > kMaxProblemsPerRequirement) {
        list_.push_back({requirement, "... and " +
                                          std::to_string(count - kMaxProblemsPerRequirement) +
                                          " more problems of " + requirement + " not listed"});
      }
    }
    return std::move(list_);
  }

 private:
  std::vector<RenderProblem> list_;
  std::map<std::string, std::size_t> counts_;
  std::vector<std::string> requirements_;  // in order of first problem
};

enum class AbsentNode : std::uint8_t {
  kHeading,
  kList,
  kBlockQuote,
  kThematicBreak,
  kHtml,
  kLink,
  kImage,
  kUnknown,
};

AbsentNode ParseAbsentNode(std::string_view node) {
  if (node == "heading") return AbsentNode::kHeading;
  if (node == "list") return AbsentNode::kList;
  if (node == "block_quote") return AbsentNode::kBlockQuote;
  if (node == "thematic_break") return AbsentNode::kThematicBreak;
  if (node == "html") return AbsentNode::kHtml;
  if (node == "link") return AbsentNode::kLink;
  if (node == "image") return AbsentNode::kImage;
  return AbsentNode::kUnknown;
}

// The containers whose text `absent` looks into: each one's text is a contiguous range of the
// stream, [begin, end), recorded while the tree is walked.
struct NodeRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  int line = 0;
};

// The first node of an `absent` item's type found to break it, and how many did.
struct Violation {
  std::size_t count = 0;
  std::string detail;  // of the first
};

// What the judge reads out of the parsed transcript in one walk.
struct Transcript {
  std::string stream;
  // The details sections as sorted, disjoint stream ranges [first, second).
  std::vector<std::pair<std::size_t, std::size_t>> details;
  std::vector<NodeRange> headings, lists, block_quotes;
  std::vector<int> thematic_break_lines;
};

struct CmarkNodeFree {
  void operator()(cmark_node* node) const { cmark_node_free(node); }
};
struct CmarkIterFree {
  void operator()(cmark_iter* iter) const { cmark_iter_free(iter); }
};

bool StartsWithDetails(std::string_view literal) {
  std::size_t i = 0;
  while (i < literal.size() && (literal[i] == ' ' || literal[i] == '\t')) ++i;
  constexpr std::string_view kOpen = "<details";
  if (literal.size() - i < kOpen.size()) return false;
  for (std::size_t k = 0; k < kOpen.size(); ++k) {
    if (AsciiLower(literal[i + k]) != kOpen[k]) return false;
  }
  return true;
}

std::size_t CountDetailsClosers(std::string_view folded_literal) {
  static const Pattern kClose(std::string("</details>"));
  Matcher matcher(kClose, folded_literal, 0);
  std::size_t count = 0;
  while (matcher.Next() != std::string_view::npos) ++count;
  return count;
}

std::string_view Literal(cmark_node* node) {
  const char* literal = cmark_node_get_literal(node);
  return literal ? std::string_view(literal) : std::string_view();
}

std::string AtLine(cmark_node* node) {
  return "at line " + std::to_string(cmark_node_get_start_line(node));
}

// The html, link and image items of `absent` are decided node by node during the walk.
struct InlineAbsentCheck {
  AbsentNode node;
  Pattern needle;  // kHtml: FoldHtml(containing); kLink, kImage: the destination
  Violation* violation;
};

// The start of a context excerpt `before` bytes ahead of `at`, not before `floor` and not inside
// a UTF-8 sequence.
std::size_t ContextStart(std::string_view text, std::size_t at, std::size_t floor,
                         std::size_t before = 20) {
  std::size_t from = at > floor + before ? at - before : floor;
  while (from > floor && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) --from;
  return from;
}

// Walks the tree once, in document order: the text stream, the details sections, the ranges of
// the containers `absent` names, and the html, link and image checks of `absent`.
//
// Details sections nest as HTML elements do: an html_block starting with `<details` (at any
// depth) opens one, each `</details>` in a top-level html_block closes the innermost open one, and
// a section is the stream from the outermost opening to the closing that brings the count back to
// zero. A section still open at the end of the document runs to its end (a browser closes it
// there). A closer that is not top-level (inside a quote or a list item) closes nothing, as the
// README says; neither does an html_inline `</details>` (a paragraph's tag, which browsers do
// honour: the `absent` html items are how a vector catches that).
Transcript Walk(cmark_node* document, const std::vector<bool>& wanted,
                const std::vector<InlineAbsentCheck>& inline_checks) {
  Transcript out;
  NormalText text;
  std::unique_ptr<cmark_iter, CmarkIterFree> iter(cmark_iter_new(document));
  std::vector<std::pair<std::vector<NodeRange>*, std::size_t>> open;
  std::size_t depth = 0;
  std::size_t details_begin = 0;
  auto want = [&](AbsentNode node) { return wanted[static_cast<std::size_t>(node)]; };
  const bool has_html_checks = want(AbsentNode::kHtml);
  auto range_list = [&](cmark_node_type type) -> std::vector<NodeRange>* {
    if (type == CMARK_NODE_HEADING && want(AbsentNode::kHeading)) return &out.headings;
    if (type == CMARK_NODE_LIST && want(AbsentNode::kList)) return &out.lists;
    if (type == CMARK_NODE_BLOCK_QUOTE && want(AbsentNode::kBlockQuote)) return &out.block_quotes;
    return nullptr;
  };

  cmark_event_type event;
  while ((event = cmark_iter_next(iter.get())) != CMARK_EVENT_DONE) {
    cmark_node* node = cmark_iter_get_node(iter.get());
    const cmark_node_type type = cmark_node_get_type(node);
    const bool block = type >= CMARK_NODE_FIRST_BLOCK && type <= CMARK_NODE_LAST_BLOCK;
    if (block) text.Separate();
    if (event == CMARK_EVENT_EXIT) {
      if (range_list(type) != nullptr && !open.empty()) {
        auto [list, index] = open.back();
        (*list)[index].end = text.size();
        open.pop_back();
      }
      continue;
    }
    switch (type) {
      case CMARK_NODE_TEXT:
      case CMARK_NODE_CODE:
      case CMARK_NODE_CODE_BLOCK:
        text.Append(Literal(node));
        break;
      case CMARK_NODE_SOFTBREAK:
      case CMARK_NODE_LINEBREAK:
        text.Separate();
        break;
      case CMARK_NODE_HTML_BLOCK:
      case CMARK_NODE_HTML_INLINE: {
        const std::string_view literal = Literal(node);
        const bool top_level = cmark_node_parent(node) == document;
        const bool fold = has_html_checks || (type == CMARK_NODE_HTML_BLOCK && top_level);
        const std::string folded = fold ? FoldHtml(literal) : std::string();
        if (type == CMARK_NODE_HTML_BLOCK) {
          if (StartsWithDetails(literal) && depth++ == 0) details_begin = text.size();
          if (depth > 0 && top_level) {
            const std::size_t closers = CountDetailsClosers(folded);
            if (closers > 0) {
              depth = closers >= depth ? 0 : depth - closers;
              if (depth == 0) out.details.emplace_back(details_begin, text.size());
            }
          }
        }
        for (const InlineAbsentCheck& check : inline_checks) {
          if (check.node != AbsentNode::kHtml) continue;
          const std::size_t at = Find(check.needle, folded, 0);
          if (at == std::string_view::npos) continue;
          if (check.violation->count++ == 0) {
            // Folding turns CR LF into LF, so `at` is only near its place in the literal.
            const std::size_t from = ContextStart(literal, std::min(at, literal.size()), 0);
            check.violation->detail =
                std::string(type == CMARK_NODE_HTML_BLOCK ? "the html_block "
                                                          : "the html_inline ") +
                AtLine(node) + " does: " + Quoted(literal.substr(from), kContextBytes);
          }
        }
        break;
      }
      case CMARK_NODE_LINK:
      case CMARK_NODE_IMAGE: {
        const char* url = cmark_node_get_url(node);
        const std::string_view destination = url ? std::string_view(url) : std::string_view();
        const AbsentNode kind = type == CMARK_NODE_LINK ? AbsentNode::kLink : AbsentNode::kImage;
        for (const InlineAbsentCheck& check : inline_checks) {
          if (check.node != kind || check.needle.needle() != destination) continue;
          if (check.violation->count++ == 0) {
            check.violation->detail =
                std::string(kind == AbsentNode::kLink ? "the link " : "the image ") + AtLine(node) +
                " does";
          }
        }
        break;
      }
      case CMARK_NODE_THEMATIC_BREAK:
        if (want(AbsentNode::kThematicBreak)) {
          out.thematic_break_lines.push_back(cmark_node_get_start_line(node));
        }
        break;
      default:
        if (std::vector<NodeRange>* list = range_list(type)) {
          list->push_back({text.size(), text.size(), cmark_node_get_start_line(node)});
          open.emplace_back(list, list->size() - 1);
        }
        break;
    }
    // Leaf blocks have no exit event: the space after them is asked for here.
    if (block) text.Separate();
  }
  out.stream = text.Take();
  if (depth > 0) out.details.emplace_back(details_begin, out.stream.size());
  return out;
}

bool InsideDetails(const Transcript& t, std::size_t begin, std::size_t end) {
  auto after = std::upper_bound(
      t.details.begin(), t.details.end(), begin,
      [](std::size_t at, const std::pair<std::size_t, std::size_t>& s) { return at < s.first; });
  if (after == t.details.begin()) return false;
  return end <= std::prev(after)->second;
}

// The first occurrence of a non-empty pattern at or after `from` that lies inside a details
// section, or npos. One pass of the matcher: linear in the stream.
std::size_t FindInsideDetails(const Transcript& t, const Pattern& pattern, std::size_t from) {
  Matcher matcher(pattern, t.stream, from);
  for (std::size_t at; (at = matcher.Next()) != std::string_view::npos;) {
    if (InsideDetails(t, at, at + pattern.size())) return at;
  }
  return std::string_view::npos;
}

// Where a search started, for a message.
std::string SearchedFrom(const std::string& stream, std::size_t cursor) {
  if (cursor >= stream.size()) return "searched from the end of the transcript's text";
  return "searched from " + Quoted(std::string_view(stream).substr(cursor), kContextBytes);
}

std::string_view KindName(OrderItem::Kind kind) {
  switch (kind) {
    case OrderItem::Kind::kText:
      return "text";
    case OrderItem::Kind::kThinking:
      return "thinking";
    case OrderItem::Kind::kTool:
      return "tool";
  }
  return "";
}

// The cursor walks the stream once for the strings found; a string not found costs one pass over
// the rest of the stream and leaves the cursor where it was (so one lost part does not hide the
// order of the others). Time: the stream times the strings not found, at worst.
void JudgeOrder(const Transcript& t, const std::vector<OrderItem>& order, Problems* problems) {
  const std::string& stream = t.stream;
  std::size_t cursor = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const OrderItem& item = order[i];
    const std::string label =
        "order item " + std::to_string(i + 1) + " (" + std::string(KindName(item.kind)) + "): ";
    // Finds one expected string from the cursor; moves the cursor past it when found.
    auto find = [&](std::string_view expected, const std::string& what) {
      const Pattern pattern(Normalise(expected));
      std::size_t at = Find(pattern, stream, cursor);
      if (at == std::string_view::npos) {
        if (problems->Full(item.requirement)) {
          problems->Count(item.requirement);
        } else {
          problems->Add(item.requirement,
                        label + what + " " + Quoted(pattern.needle()) +
                            " is not in the transcript after the previous item (message order); " +
                            SearchedFrom(stream, cursor));
        }
        return;
      }
      // A thinking line is judged at its first match inside a details section: the same words
      // may stand earlier outside one (in a model name, say) without making it misplaced.
      if (item.kind == OrderItem::Kind::kThinking && !pattern.empty() &&
          !InsideDetails(t, at, at + pattern.size())) {
        const std::size_t inside = FindInsideDetails(t, pattern, at);
        if (inside == std::string_view::npos) {
          problems->Add(item.requirement, label + what + " " + Quoted(pattern.needle()) +
                                              " is in the transcript but not inside a <details> "
                                              "section");
        } else {
          at = inside;
        }
      }
      cursor = at + pattern.size();
    };
    if (item.kind == OrderItem::Kind::kTool) {
      find(item.type, "the type");
      find(item.name, "the name");
      for (std::size_t k = 0; k < item.path_hints.size(); ++k) {
        find(item.path_hints[k], "path hint " + std::to_string(k + 1));
      }
    } else {
      for (const std::string& snippet : item.snippets) find(snippet, "the line");
    }
  }
}

void JudgeVerbatim(std::string_view markdown, const std::vector<VerbatimItem>& verbatim,
                   Problems* problems) {
  for (std::size_t i = 0; i < verbatim.size(); ++i) {
    const VerbatimItem& item = verbatim[i];
    if (Find(Pattern(item.markdown), markdown, 0) != std::string_view::npos) continue;
    problems->Add(item.requirement, "verbatim item " + std::to_string(i + 1) + ": " +
                                        Quoted(item.markdown) +
                                        " does not occur byte for byte in the Markdown");
  }
}

// The containers of one type holding `needle` in their text: one left-to-right pass over the
// stream, whatever the nesting. The ranges come in document order, so their begins increase; the
// first occurrence starting at or after a range's begin ends first, so the range holds an
// occurrence exactly when that one ends inside it.
Violation FindInRanges(const Transcript& t, const std::vector<NodeRange>& ranges,
                       const Pattern& needle, std::string_view what) {
  Violation violation;
  Matcher matcher(needle, t.stream, 0);
  std::size_t at = matcher.Next();
  for (const NodeRange& range : ranges) {
    while (at != std::string_view::npos && at < range.begin) at = matcher.Next();
    if (at == std::string_view::npos) break;
    if (at + needle.size() > range.end) continue;
    if (violation.count++ == 0) {
      // The range starts with the space that separates the node from what comes before.
      const std::size_t begin =
          range.begin < range.end && t.stream[range.begin] == ' ' ? range.begin + 1 : range.begin;
      const std::size_t from = ContextStart(t.stream, at, begin);
      violation.detail =
          "the " + std::string(what) + " at line " + std::to_string(range.line) + " does: " +
          Quoted(std::string_view(t.stream).substr(from, range.end - from), kContextBytes);
    }
  }
  return violation;
}

// A thematic_break has no text, so `containing` is matched against its source line (normalised):
// the break as the transcript spells it ("* * *", "___", "- - -"), with the markers of the quotes
// and lists it stands in. A break is only text that became structure when its spelling is one a
// renderer would not choose for its own separators, so a vector names such a spelling (say
// "_ _ _ _ _ _ _ _ _"); the text of the break's neighbours is judged with the heading rule (a
// "---" under a paragraph makes a setext heading, not a break).
Violation FindInBreaks(std::string_view markdown, const std::vector<int>& lines,
                       const Pattern& needle) {
  Violation violation;
  std::size_t next = 0;  // index into lines
  std::size_t begin = 0;
  int line = 1;
  // Lines end as cmark ends them: LF, CR LF or CR.
  while (next < lines.size() && begin <= markdown.size()) {
    std::size_t end = markdown.find_first_of("\r\n", begin);
    if (end == std::string_view::npos) end = markdown.size();
    if (line == lines[next]) {
      const std::string_view source = markdown.substr(begin, end - begin);
      if (Find(needle, Normalise(source), 0) != std::string_view::npos && violation.count++ == 0) {
        violation.detail = "the thematic_break at line " + std::to_string(line) +
                           " does: " + Quoted(source, kContextBytes);
      }
      while (next < lines.size() && lines[next] <= line) ++next;
    }
    if (end == markdown.size()) break;
    begin =
        end +
        (markdown[end] == '\r' && end + 1 < markdown.size() && markdown[end + 1] == '\n' ? 2 : 1);
    ++line;
  }
  return violation;
}

std::vector<std::string> Requirements(const RenderExpectation& expected) {
  std::vector<std::string> out;
  auto add = [&](const std::string& r) {
    if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
  };
  for (const OrderItem& item : expected.order) add(item.requirement);
  for (const VerbatimItem& item : expected.verbatim) add(item.requirement);
  for (const AbsentItem& item : expected.absent) add(item.requirement);
  return out;
}

// Reading ----------------------------------------------------------------------------------------

void ReadRequirement(json::FieldReader* f, std::string* out) {
  f->String("requirement", out);
  if (f->ok() && out->empty()) f->Fail(f->Pointer("requirement"), "is empty");
}

void ReadOrderItem(const json::Value& value, const std::string& pointer, Status* status,
                   OrderItem* item) {
  json::FieldReader f(&value, pointer, status);
  std::string kind;
  f.String("kind", &kind);
  ReadRequirement(&f, &item->requirement);
  if (kind == "text" || kind == "thinking") {
    item->kind = kind == "text" ? OrderItem::Kind::kText : OrderItem::Kind::kThinking;
    f.StringList("snippets", &item->snippets);
  } else if (kind == "tool") {
    item->kind = OrderItem::Kind::kTool;
    f.String("type", &item->type);
    f.String("name", &item->name);
    f.StringList("path_hints", &item->path_hints);
  } else if (f.ok()) {
    f.Fail(f.Pointer("kind"), "expected \"text\", \"thinking\" or \"tool\", found " + Quoted(kind));
  }
  f.Finish();
}

void ReadVerbatimItem(const json::Value& value, const std::string& pointer, Status* status,
                      VerbatimItem* item) {
  json::FieldReader f(&value, pointer, status);
  ReadRequirement(&f, &item->requirement);
  f.String("markdown", &item->markdown);
  f.Finish();
}

void ReadAbsentItem(const json::Value& value, const std::string& pointer, Status* status,
                    AbsentItem* item) {
  json::FieldReader f(&value, pointer, status);
  ReadRequirement(&f, &item->requirement);
  f.String("node", &item->node);
  const AbsentNode node = ParseAbsentNode(item->node);
  if (node == AbsentNode::kLink || node == AbsentNode::kImage) {
    f.String("destination", &item->destination);
  } else if (node != AbsentNode::kUnknown) {
    f.String("containing", &item->containing);
    // An empty string is in every node: the renderer's own structure would fail the item.
    const bool empty =
        node == AbsentNode::kHtml ? item->containing.empty() : Normalise(item->containing).empty();
    if (f.ok() && empty) f.Fail(f.Pointer("containing"), "is empty (after normalisation)");
  } else if (f.ok()) {
    f.Fail(f.Pointer("node"),
           "expected \"heading\", \"list\", \"block_quote\", \"thematic_break\", \"html\", "
           "\"link\" or \"image\", found " +
               Quoted(item->node));
  }
  f.Finish();
}

}  // namespace

Result<RenderExpectation> ReadRenderExpectation(const json::Value& value,
                                                const std::string& pointer) {
  Status status;
  RenderExpectation out;
  json::FieldReader f(&value, pointer, &status);
  f.ForEach("order", true, [&](const json::Value& item, const std::string& at) {
    ReadOrderItem(item, at, &status, &out.order.emplace_back());
  });
  f.ForEach("verbatim", false, [&](const json::Value& item, const std::string& at) {
    ReadVerbatimItem(item, at, &status, &out.verbatim.emplace_back());
  });
  f.ForEach("absent", false, [&](const json::Value& item, const std::string& at) {
    ReadAbsentItem(item, at, &status, &out.absent.emplace_back());
  });
  f.Finish();
  if (!status.ok()) return status;
  return out;
}

std::vector<RenderProblem> JudgeRender(std::string_view markdown,
                                       const RenderExpectation& expected) {
  Problems problems;
  // Unparsed Markdown holds none of the properties as far as the judge can tell: each requirement
  // the expectation names fails, with the reason.
  if (markdown.size() > kMaxMarkdownBytes) {
    for (const std::string& requirement : Requirements(expected)) {
      problems.Add(requirement, "not judged: the Markdown is " + std::to_string(markdown.size()) +
                                    " bytes, more than the " + std::to_string(kMaxMarkdownBytes) +
                                    " the judge parses");
    }
    return std::move(problems).Finish();
  }

  // What `absent` asks for decides what the walk records.
  std::vector<bool> wanted(static_cast<std::size_t>(AbsentNode::kUnknown) + 1, false);
  std::vector<Violation> violations(expected.absent.size());
  std::vector<InlineAbsentCheck> inline_checks;
  for (std::size_t i = 0; i < expected.absent.size(); ++i) {
    const AbsentItem& item = expected.absent[i];
    const AbsentNode node = ParseAbsentNode(item.node);
    wanted[static_cast<std::size_t>(node)] = true;
    if (node == AbsentNode::kHtml) {
      inline_checks.push_back({node, Pattern(FoldHtml(item.containing)), &violations[i]});
    } else if (node == AbsentNode::kLink || node == AbsentNode::kImage) {
      inline_checks.push_back({node, Pattern(item.destination), &violations[i]});
    }
  }

  std::unique_ptr<cmark_node, CmarkNodeFree> document(
      cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT));
  if (!document) {
    for (const std::string& requirement : Requirements(expected)) {
      problems.Add(requirement, "not judged: cmark could not parse the Markdown");
    }
    return std::move(problems).Finish();
  }
  const Transcript transcript = Walk(document.get(), wanted, inline_checks);
  document.reset();

  JudgeOrder(transcript, expected.order, &problems);
  JudgeVerbatim(markdown, expected.verbatim, &problems);

  for (std::size_t i = 0; i < expected.absent.size(); ++i) {
    const AbsentItem& item = expected.absent[i];
    const AbsentNode node = ParseAbsentNode(item.node);
    const std::string label = "absent item " + std::to_string(i + 1) + ": ";
    Violation& violation = violations[i];
    std::string what;  // what the item forbids, for the message
    if (node == AbsentNode::kLink || node == AbsentNode::kImage) {
      what = "have the destination " + Quoted(item.destination);
    } else if (node == AbsentNode::kThematicBreak) {
      what = "stand on a line holding " + Quoted(Normalise(item.containing));
    } else {
      what = "hold " +
             Quoted(node == AbsentNode::kHtml ? item.containing : Normalise(item.containing));
    }
    const Pattern needle(Normalise(item.containing));
    switch (node) {
      case AbsentNode::kHeading:
        violation = FindInRanges(transcript, transcript.headings, needle, "heading");
        break;
      case AbsentNode::kList:
        violation = FindInRanges(transcript, transcript.lists, needle, "list");
        break;
      case AbsentNode::kBlockQuote:
        violation = FindInRanges(transcript, transcript.block_quotes, needle, "block_quote");
        break;
      case AbsentNode::kThematicBreak:
        violation = FindInBreaks(markdown, transcript.thematic_break_lines, needle);
        break;
      case AbsentNode::kHtml:
      case AbsentNode::kLink:
      case AbsentNode::kImage:
        break;  // decided during the walk
      case AbsentNode::kUnknown:
        problems.Add(item.requirement, label + "not judged: " + Quoted(item.node) +
                                           " is not a node type the judge " + "knows");
        continue;
    }
    if (violation.count == 0) continue;
    std::string message =
        label + "no " + item.node + " node may " + what + ", but " + violation.detail;
    if (violation.count > 1) message += " (and " + std::to_string(violation.count - 1) + " more)";
    problems.Add(item.requirement, std::move(message));
  }
  return std::move(problems).Finish();
}

}  // namespace arcs::conformance::session_data
