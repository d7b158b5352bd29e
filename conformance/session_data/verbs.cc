#include "conformance/session_data/verbs.h"

#include <utility>

#include "reference/core/io.h"
#include "reference/session_data/session_data.h"

namespace arcs::conformance::session_data {
namespace {

constexpr char kRenderHelp[] = R"(usage: arcs session-data render FILE
       arcs render FILE

Writes FILE (a SessionData session) as a Markdown transcript to standard output: messages in
order, content as text with its code blocks fenced, thinking in a <details> section, each tool
use with its type, name and pathHints, formattedMarkdown as the provider wrote it (errata SD-E26).
Session text is escaped so that it never changes the transcript's structure. A session that is
invalid is still rendered, as far as it decodes; `arcs validate` judges it.
Exit status: 0 rendered, 1 the file is not one JSON text holding an object (nothing to render),
2 on usage or I/O errors.
)";

VerbOutput Render(const std::vector<std::string>& args) {
  VerbOutput output;
  if (args.size() != 1 || args[0].starts_with("-")) {
    output.err.push_back("give one FILE (a SessionData session); see --help");
    output.exit_code = 2;
    return output;
  }
  const arcs::session_data::Limits limits;
  Result<std::string> text = ReadFile(args[0], limits.max_file_bytes);
  if (!text.ok()) {
    output.err.push_back(text.status().message());
    output.exit_code = 2;
    return output;
  }
  std::optional<std::string> markdown = arcs::session_data::RenderFile(std::move(*text), limits);
  if (!markdown) {
    output.err.push_back(args[0] + ": not one JSON text holding an object: nothing to render");
    output.exit_code = 1;
    return output;
  }
  output.document = std::move(*markdown);
  return output;
}

}  // namespace

std::vector<VerbSpec> Verbs() {
  return {{"render", kRenderHelp, "writes a session as a Markdown transcript", Render,
           "a session as a Markdown transcript (SessionData)"}};
}

}  // namespace arcs::conformance::session_data
