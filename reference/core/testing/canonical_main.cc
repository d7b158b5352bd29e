// For the oracle tests of reference/core/canonical.h: `arcs_canonical python|jcs` reads JSON
// values, one per line, and prints the canonical form of each (canonical::PythonSortedJson, or
// canonical::Jcs) on a line of its own, or "ERROR <code>" when the line is not strict JSON, or
// "ERROR refused" when the value has no canonical form (a float for Python's; for JCS a repeated
// name or a number beyond the doubles). Messages are left out: they quote the value, which may
// hold a newline. python_canonical_oracle.py compares with CPython, jcs_oracle.mjs with Node.
#include <cstdio>
#include <string>
#include <string_view>

#include "reference/core/canonical.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"

int main(int argc, char** argv) {
  const std::string_view form = argc == 2 ? argv[1] : "";
  if (form != "python" && form != "jcs") {
    std::fprintf(stderr, "usage: arcs_canonical python|jcs <values.jsonl\n");
    return 2;
  }
  arcs::jsonl::FdSource input(0);
  arcs::jsonl::LineReader reader(&input, {std::uint64_t{1} << 30, UINT64_MAX});
  arcs::jsonl::Line line;
  arcs::json::Document doc;
  std::string out;
  for (;;) {
    arcs::Result<bool> more = reader.Next(&line);
    if (!more.ok() || !*more) return more.ok() ? 0 : 2;
    out.clear();
    if (!doc.Parse(line.text, {.max_depth = 1000})) {
      out = "ERROR " + std::string(arcs::json::ErrorCodeName(doc.error().code));
    } else if (arcs::Result<std::string> canonical =
                   form == "jcs" ? arcs::canonical::Jcs(doc.root())
                                 : arcs::canonical::PythonSortedJson(doc.root());
               canonical.ok()) {
      out = *canonical;
    } else {
      out = "ERROR refused";
    }
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
}
