// Structural checks of the renderings, for the tests and the report fuzzer: whatever a report
// holds, the HTML, the JUnit XML and the SVG badges stay well-formed (every tag closed in order,
// every attribute quoted, no stray '<' or '&'), and every Markdown table row keeps its header's
// cell count. They check the shape the renderers write, not XML or HTML in general.
#ifndef ARCS_RUNNER_REPORT_MARKUP_CHECK_H_
#define ARCS_RUNNER_REPORT_MARKUP_CHECK_H_

#include <string_view>

#include "reference/core/status.h"

namespace arcs::report::testing {

// XML 1.0 as the JUnit and SVG renderers write it: an optional <?xml ...?> declaration, then
// elements, text, character and entity references (&amp; &lt; &gt; &quot; &#39; &#N; &#xN;);
// valid UTF-8 with no control character but tab, LF and CR.
Status CheckXml(std::string_view text);

// HTML as the HTML renderer writes it: the same rules, plus <!DOCTYPE html>, void elements
// (br, meta, link, img, hr, input, col, wbr) that are not closed, and <script> and <style>
// whose content runs to their own end tag.
Status CheckHtml(std::string_view text);

// Every table row (a line starting with '|') has as many cell separators (a '|' not escaped by a
// backslash) as its table's header; no '<' opens a tag but <br>.
Status CheckMarkdown(std::string_view text);

}  // namespace arcs::report::testing

#endif  // ARCS_RUNNER_REPORT_MARKUP_CHECK_H_
