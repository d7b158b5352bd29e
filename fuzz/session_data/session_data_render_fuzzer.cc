// Fuzz target: the SessionData renderer (reference/session_data) on any bytes, its transcript
// parsed with cmark: no crash; for a session without formattedMarkdown (which is the provider's
// own Markdown, used as it is), session text never changes the structure: the headings are the
// renderer's own (one for the session, one per exchange, one per message), there is no link or
// image, every HTML node is one the renderer writes, and the render judge finds every text line
// in message order, thinking inside its <details> section, and each tool's type, name and
// pathHints. With formattedMarkdown, the judge finds it verbatim.
#include <cmark.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <regex>
#include <string>
#include <string_view>

#include "conformance/session_data/render_judge.h"
#include "fuzz/fuzz_check.h"
#include "reference/session_data/session_data.h"

namespace {

using namespace arcs;
using namespace arcs::conformance::session_data;
using arcs::session_data::Session;

constexpr std::size_t kMaxInputBytes = 64 * 1024;

using arcs::libfuzzer::Check;

// The judge's normalisation (vectors/README.md "SessionData"): NUL as U+FFFD, blank runs as one
// space, no leading or trailing space.
std::string Normalise(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (c == '\0') {
      out += "\xEF\xBF\xBD";
    } else {
      out += c;
    }
  }
  return out;
}

// A part's snippets: each line that is not blank and not a fence line.
std::vector<std::string> Snippets(std::string_view text) {
  static const std::regex fence("^ {0,3}(`{3,}|~{3,})");
  std::vector<std::string> out;
  while (true) {
    const std::size_t end = text.find_first_of("\r\n");
    const std::string line(text.substr(0, end));
    if (!std::regex_search(line, fence) && !Normalise(line).empty()) out.push_back(Normalise(line));
    if (end == std::string_view::npos) return out;
    text.remove_prefix(end + (text.substr(end, 2) == "\r\n" ? 2 : 1));
  }
}

RenderExpectation Expect(const Session& s, bool* formatted) {
  RenderExpectation e;
  for (const auto& x : s.exchanges) {
    for (const auto& m : x.messages) {
      for (const auto& part : m.content) {
        OrderItem item;
        item.kind = part.type == "thinking" ? OrderItem::Kind::kThinking : OrderItem::Kind::kText;
        item.requirement = part.type == "thinking" ? "SD-RENDER-4" : "SD-RENDER-2";
        item.snippets = Snippets(part.text);
        if (!item.snippets.empty()) e.order.push_back(std::move(item));
      }
      if (!m.tool) continue;
      OrderItem tool;
      tool.kind = OrderItem::Kind::kTool;
      tool.requirement = "SD-RENDER-3";
      tool.type = Normalise(m.tool->type);
      tool.name = Normalise(m.tool->name);
      for (std::string_view hint : m.path_hints) tool.path_hints.push_back(Normalise(hint));
      e.order.push_back(std::move(tool));
      if (m.tool->formatted_markdown) {
        *formatted = true;
        e.verbatim.push_back({"SD-RENDER-5", std::string(*m.tool->formatted_markdown)});
      }
    }
  }
  return e;
}

// The renderer's own structure: headings by level, no links or images, only its HTML.
void CheckStructure(const std::string& markdown, const Session& s) {
  std::size_t messages = 0;
  for (const auto& x : s.exchanges) messages += x.messages.size();
  std::size_t headings[7] = {};
  cmark_node* doc = cmark_parse_document(markdown.data(), markdown.size(), CMARK_OPT_DEFAULT);
  cmark_iter* it = cmark_iter_new(doc);
  for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
    if (ev != CMARK_EVENT_ENTER) continue;
    cmark_node* node = cmark_iter_get_node(it);
    const cmark_node_type type = cmark_node_get_type(node);
    if (type == CMARK_NODE_HEADING) ++headings[cmark_node_get_heading_level(node)];
    Check(type != CMARK_NODE_LINK && type != CMARK_NODE_IMAGE, "session text made a link");
    // The renderer's own empty comment, which breaks an @mention: never the session's text.
    Check(type != CMARK_NODE_HTML_INLINE ||
              std::string_view(cmark_node_get_literal(node)) == "<!-- -->",
          "session text made inline HTML");
    if (type == CMARK_NODE_HTML_BLOCK) {
      const std::string_view html = cmark_node_get_literal(node);
      Check(html.starts_with("<details>\n<summary>Thinking</summary>") ||
                html.starts_with("</details>") || html.starts_with("<summary>") ||
                html.starts_with("<formatted-markdown>") ||
                html.starts_with("</formatted-markdown>"),
            "session text made an HTML block");
    }
  }
  cmark_iter_free(it);
  cmark_node_free(doc);
  Check(headings[1] == 1 && headings[2] == s.exchanges.size() && headings[3] == messages &&
            headings[4] + headings[5] + headings[6] == 0,
        "session text made a heading");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > kMaxInputBytes) return -1;  // cmark's own cost grows fast on hostile Markdown
  arcs::session_data::Limits limits;
  limits.max_json_depth = 64;
  const auto reading =
      arcs::session_data::Reading::Read(std::string(reinterpret_cast<const char*>(data), size),
                                        limits, arcs::session_data::Reading::Purpose::kRender);
  if (!reading.is_object()) return 0;
  std::string markdown;
  arcs::session_data::RenderMarkdown(reading.session(), &markdown);
  bool formatted = false;
  RenderExpectation expected = Expect(reading.session(), &formatted);
  if (formatted) expected.order.clear();  // the provider's Markdown may reshape what follows
  for (const RenderProblem& p : JudgeRender(markdown, expected)) {
    std::fprintf(stderr, "%s: %s\n", p.requirement.c_str(), p.message.c_str());
    Check(false, "the render judge finds a property broken");
  }
  if (!formatted) CheckStructure(markdown, reading.session());
  return 0;
}
