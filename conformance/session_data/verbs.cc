#include "conformance/session_data/verbs.h"

#include <string>
#include <utility>
#include <vector>

#include "reference/core/io.h"
#include "reference/session_data/session_data.h"

namespace arcs::conformance::session_data {
namespace {

constexpr char kRenderHelp[] = R"(usage: arcs session-data render FILE|- [-o OUT]
       arcs render FILE [-o OUT]

Writes FILE (a SessionData session; - for standard input) as a Markdown transcript to standard
output, or to OUT with -o (- for standard output): messages in order, content as text with its
code blocks fenced, thinking in a <details> section, each tool use with its type, name and
pathHints, formattedMarkdown as the provider wrote it (errata SD-E26). Session text is escaped so
that it never changes the transcript's structure. A session that is invalid is still rendered, as
far as it decodes; `arcs validate` judges it.
Exit status: 0 rendered, 1 the file is not one JSON text holding an object (nothing to render),
2 on usage or I/O errors.
)";

// FILE (or - for standard input) and -o OUT, in any order; false on anything else.
bool RenderArgs(const std::vector<std::string>& args, std::string* input, std::string* out) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-o" || args[i] == "--output") && i + 1 < args.size() && out->empty()) {
      *out = args[++i];
    } else if (input->empty() && (args[i] == "-" || !args[i].starts_with("-"))) {
      *input = args[i];
    } else {
      return false;
    }
  }
  return !input->empty();
}

VerbOutput Render(const std::vector<std::string>& args) {
  VerbOutput output;
  std::string input, out;
  if (!RenderArgs(args, &input, &out)) {
    output.err.push_back(
        "give one FILE (a SessionData session, - for standard input) and at most "
        "-o OUT; see --help");
    output.exit_code = 2;
    return output;
  }
  const arcs::session_data::Limits limits;
  Result<std::string> text = input == "-" ? ReadAll(0, "standard input", limits.max_file_bytes)
                                          : ReadFile(input, limits.max_file_bytes);
  if (!text.ok()) {
    output.err.push_back(text.status().message());
    output.exit_code = 2;
    return output;
  }
  std::optional<std::string> markdown = arcs::session_data::RenderFile(std::move(*text), limits);
  if (!markdown) {
    output.err.push_back(input + ": not one JSON text holding an object: nothing to render");
    output.exit_code = 1;
    return output;
  }
  if (out.empty() || out == "-") {
    output.document = std::move(*markdown);
  } else if (Status s = WriteFile(out, *markdown); !s.ok()) {
    output.err.push_back(s.message());
    output.exit_code = 2;
  }
  return output;
}

}  // namespace

std::vector<VerbSpec> Verbs() {
  return {{"render", kRenderHelp, "writes a session as a Markdown transcript", Render,
           "a session as a Markdown transcript (SessionData)"}};
}

}  // namespace arcs::conformance::session_data
