// The judge of SessionData's render operation (vectors/README.md "SessionData", errata SD-E26):
// it parses the Markdown an implementation wrote with cmark (CommonMark, no extensions) and checks
// the properties a vector's expect_render names (text in message order, thinking inside a
// <details> section, tool type, name and pathHints, formattedMarkdown verbatim, hostile content
// kept inside its block), never the bytes. Independent of the reference renderer by design: it
// shares no code with reference/session_data's renderer.
#ifndef ARCS_CONFORMANCE_SESSION_DATA_RENDER_JUDGE_H_
#define ARCS_CONFORMANCE_SESSION_DATA_RENDER_JUDGE_H_

#include <string>
#include <string_view>
#include <vector>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::conformance::session_data {

// One item of expect_render.order.
struct OrderItem {
  enum class Kind : std::uint8_t { kText, kThinking, kTool };
  Kind kind = Kind::kText;
  std::string requirement;
  std::vector<std::string> snippets;    // kText, kThinking
  std::string type;                     // kTool
  std::string name;                     // kTool
  std::vector<std::string> path_hints;  // kTool
};

struct VerbatimItem {
  std::string requirement;
  std::string markdown;
};

// One item of expect_render.absent: `node` with `containing`, or a link or image with
// `destination`.
struct AbsentItem {
  std::string requirement;
  std::string node;  // heading, list, block_quote, thematic_break, html, link, image
  std::string containing;
  std::string destination;
};

struct RenderExpectation {
  std::vector<OrderItem> order;
  std::vector<VerbatimItem> verbatim;
  std::vector<AbsentItem> absent;
};

// Reads an expect_render object strictly (every member known and typed; the message names the
// place as a JSON Pointer under `pointer`).
Result<RenderExpectation> ReadRenderExpectation(const json::Value& value,
                                                const std::string& pointer);

// A property that does not hold: the requirement it serves and what is wrong, in one line that
// quotes the implementation's Markdown only as short excerpts.
struct RenderProblem {
  std::string requirement;
  std::string message;
};

// Every property of `expected` that `markdown` (any bytes: it comes from an implementation) does
// not hold, in expectation order; empty when all hold. Never crashes and takes time linear in
// the Markdown and the expectation (apart from cmark's own parse).
std::vector<RenderProblem> JudgeRender(std::string_view markdown,
                                       const RenderExpectation& expected);

}  // namespace arcs::conformance::session_data

#endif  // ARCS_CONFORMANCE_SESSION_DATA_RENDER_JUDGE_H_
