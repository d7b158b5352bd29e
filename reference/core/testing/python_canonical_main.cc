// For the CPython oracle test (python_canonical_oracle.py): reads JSON values, one per line, and
// prints canonical::PythonSortedJson of each on a line of its own, or "ERROR <code>" when the
// line is not strict JSON or holds a float ("ERROR float"). Messages are left out: they quote
// the value, which may hold a newline.
#include <cstdio>
#include <string>

#include "reference/core/canonical.h"
#include "reference/core/json.h"
#include "reference/core/jsonl.h"

int main() {
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
    } else if (arcs::Result<std::string> canonical = arcs::canonical::PythonSortedJson(doc.root());
               canonical.ok()) {
      out = *canonical;
    } else {
      out = "ERROR float";
    }
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
}
