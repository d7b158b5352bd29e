// The render judge against transcripts whose verdict follows from CommonMark itself: each test
// says which construct the Markdown makes and why, so the expectation never comes from the code.
#include "conformance/session_data/render_judge.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "reference/core/json_fields.h"
#include "reference/core/strings.h"

namespace arcs::conformance::session_data {
namespace {

OrderItem Text(std::vector<std::string> snippets) {
  OrderItem item;
  item.kind = OrderItem::Kind::kText;
  item.requirement = "SD-RENDER-2";
  item.snippets = std::move(snippets);
  return item;
}

OrderItem Thinking(std::vector<std::string> snippets) {
  OrderItem item = Text(std::move(snippets));
  item.kind = OrderItem::Kind::kThinking;
  item.requirement = "SD-RENDER-4";
  return item;
}

OrderItem Tool(std::string type, std::string name, std::vector<std::string> path_hints) {
  OrderItem item;
  item.kind = OrderItem::Kind::kTool;
  item.requirement = "SD-RENDER-3";
  item.type = std::move(type);
  item.name = std::move(name);
  item.path_hints = std::move(path_hints);
  return item;
}

RenderExpectation Order(std::vector<OrderItem> items) {
  RenderExpectation e;
  e.order = std::move(items);
  return e;
}

RenderExpectation Absent(std::string node, std::string containing) {
  RenderExpectation e;
  AbsentItem item;
  item.requirement = "SD-RENDER-7";
  item.node = std::move(node);
  if (item.node == "link" || item.node == "image") {
    item.destination = std::move(containing);
  } else {
    item.containing = std::move(containing);
  }
  e.absent.push_back(std::move(item));
  return e;
}

std::string Describe(const std::vector<RenderProblem>& problems) {
  std::string out;
  for (const RenderProblem& p : problems) out += "\n  " + p.requirement + ": " + p.message;
  return out.empty() ? " (none)" : out;
}

std::vector<std::string> RequirementsOf(const std::vector<RenderProblem>& problems) {
  std::vector<std::string> out;
  for (const RenderProblem& p : problems) out.push_back(p.requirement);
  return out;
}

#define EXPECT_PASSES(markdown, expected)                                         \
  do {                                                                            \
    const std::vector<RenderProblem> problems_ = JudgeRender(markdown, expected); \
    EXPECT_TRUE(problems_.empty()) << Describe(problems_);                        \
  } while (false)

#define EXPECT_FAILS_WITH(markdown, expected, ...)                                \
  do {                                                                            \
    const std::vector<RenderProblem> problems_ = JudgeRender(markdown, expected); \
    EXPECT_EQ(RequirementsOf(problems_), (std::vector<std::string>{__VA_ARGS__})) \
        << Describe(problems_);                                                   \
  } while (false)

// --- order: text ----------------------------------------------------------------------------

TEST(JudgeRenderOrder, TextInMessageOrderPasses) {
  const std::string md = "## User\n\nHello there\n\n## Agent\n\nHi back\n";
  EXPECT_PASSES(md, Order({Text({"Hello there"}), Text({"Hi back"})}));
}

TEST(JudgeRenderOrder, SwappedOrderFailsRender2) {
  const std::string md = "## User\n\nHello there\n\n## Agent\n\nHi back\n";
  const std::vector<RenderProblem> problems =
      JudgeRender(md, Order({Text({"Hi back"}), Text({"Hello there"})}));
  ASSERT_EQ(problems.size(), 1u) << Describe(problems);
  EXPECT_EQ(problems[0].requirement, "SD-RENDER-2");
  EXPECT_NE(problems[0].message.find("order item 2"), std::string::npos) << problems[0].message;
  EXPECT_NE(problems[0].message.find("\"Hello there\""), std::string::npos);
}

TEST(JudgeRenderOrder, MissingItemLeavesTheCursorAndTheRestIsJudged) {
  const std::string md = "Hello\n\nHi\n";
  const std::vector<RenderProblem> problems =
      JudgeRender(md, Order({Text({"Goodbye"}), Text({"Hello"}), Text({"Hi"})}));
  ASSERT_EQ(problems.size(), 1u) << Describe(problems);
  EXPECT_NE(problems[0].message.find("order item 1"), std::string::npos);
}

TEST(JudgeRenderOrder, SnippetsOfOnePartAreFoundInOrder) {
  const std::string md = "first line\nsecond line\n";
  EXPECT_PASSES(md, Order({Text({"first line", "second line"})}));
  EXPECT_FAILS_WITH(md, Order({Text({"second line", "first line"})}), "SD-RENDER-2");
}

TEST(JudgeRenderOrder, BlocksAreSeparatedBySpace) {
  // Two paragraphs: their texts never run together.
  const std::string md = "foo\n\nbar\n";
  EXPECT_FAILS_WITH(md, Order({Text({"foobar"})}), "SD-RENDER-2");
  EXPECT_PASSES(md, Order({Text({"foo bar"})}));
}

TEST(JudgeRenderOrder, WhitespaceIsNormalisedOnBothSides) {
  // A soft line break is a space; the continuation line's indentation is not content.
  const std::string md = "Hello\n   world\tand\t\tmore\n";
  EXPECT_PASSES(md, Order({Text({"  Hello \r\n world\vand\fmore "})}));
}

TEST(JudgeRenderOrder, HtmlIsNotText) {
  // "<b>" and "</b>" are html_inline; the <div> block runs to the blank line and is html_block.
  const std::string md = "<b>bold</b> text\n\n<div>\nsecret\n</div>\n";
  EXPECT_PASSES(md, Order({Text({"bold text"})}));
  EXPECT_FAILS_WITH(md, Order({Text({"<b>bold"})}), "SD-RENDER-2");
  EXPECT_FAILS_WITH(md, Order({Text({"secret"})}), "SD-RENDER-2");
}

TEST(JudgeRenderOrder, CodeIsTextAndTheInfoStringIsNot) {
  const std::string md = "use `a` here\n\n```go\nfmt.Println(\"hi\")\n```\n";
  EXPECT_PASSES(md, Order({Text({"use a here", "fmt.Println(\"hi\")"})}));
  EXPECT_FAILS_WITH(md, Order({Text({"go fmt.Println"})}), "SD-RENDER-2");
}

TEST(JudgeRenderOrder, EscapesAndEntitiesAreReadAsTheirCharacters) {
  const std::string md = "\\*a\\* &amp; &lt;x&gt; \\`b\\`\n";
  EXPECT_PASSES(md, Order({Text({"*a* & <x> `b`"})}));
}

TEST(JudgeRenderOrder, EmptyTranscript) {
  EXPECT_PASSES("", Order({}));
  EXPECT_FAILS_WITH("", Order({Text({"x"})}), "SD-RENDER-2");
  // A blank snippet is trivially found, even in nothing.
  EXPECT_PASSES("", Order({Text({" \n\t"})}));
}

// --- order: thinking --------------------------------------------------------------------------

// "<details>" starts an html block that runs to the blank line; "thought" is a paragraph; the
// lone "</details>" is a top-level html block.
constexpr char kDetailsTranscript[] =
    "Question\n\n<details>\n<summary>Thinking</summary>\n\nthought\n\n</details>\n\nAnswer\n";

TEST(JudgeRenderThinking, InsideDetailsPasses) {
  EXPECT_PASSES(kDetailsTranscript,
                Order({Text({"Question"}), Thinking({"thought"}), Text({"Answer"})}));
}

TEST(JudgeRenderThinking, TheSummaryIsHtmlNotText) {
  EXPECT_FAILS_WITH(kDetailsTranscript, Order({Text({"Thinking"})}), "SD-RENDER-2");
}

TEST(JudgeRenderThinking, InABlockQuoteFailsOnlyRender4) {
  const std::string md = "Question\n\n> thought\n\nAnswer\n";
  const std::vector<RenderProblem> problems =
      JudgeRender(md, Order({Text({"Question"}), Thinking({"thought"}), Text({"Answer"})}));
  ASSERT_EQ(RequirementsOf(problems), std::vector<std::string>{"SD-RENDER-4"})
      << Describe(problems);
  EXPECT_NE(problems[0].message.find("not inside a <details> section"), std::string::npos);
}

TEST(JudgeRenderThinking, AbsentThinkingFailsRender4) {
  EXPECT_FAILS_WITH("Question\n\nAnswer\n",
                    Order({Text({"Question"}), Thinking({"thought"}), Text({"Answer"})}),
                    "SD-RENDER-4");
}

TEST(JudgeRenderThinking, AfterTheSectionClosedFails) {
  const std::string md = "<details>\n<summary>Thinking</summary>\n\n</details>\n\nthought\n";
  EXPECT_FAILS_WITH(md, Order({Thinking({"thought"})}), "SD-RENDER-4");
}

TEST(JudgeRenderThinking, EverySnippetMustBeInside) {
  const std::string md = "<details>\n\nstep one\n\n</details>\n\nstep two\n";
  EXPECT_FAILS_WITH(md, Order({Thinking({"step one", "step two"})}), "SD-RENDER-4");
  EXPECT_PASSES(md, Order({Thinking({"step one"}), Text({"step two"})}));
}

// The same words may stand before the section, outside it (a model named like the thought): the
// line is judged where it stands inside the section (found by the session_data_render_fuzzer).
TEST(JudgeRenderThinking, AnEarlierMatchOutsideTheSectionIsNotTheThought) {
  const std::string md =
      "Model: <\n\n<details>\n<summary>Thinking</summary>\n\n\\<\n\n</details>\n";
  EXPECT_PASSES(md, Order({Thinking({"<"})}));
}

TEST(JudgeRenderThinking, ACloserInsideAQuoteClosesNothing) {
  // "> </details>" is an html_block inside a block_quote, not a top-level one.
  const std::string md = "<details>\n\n> </details>\n\nthought\n\n</details>\n";
  EXPECT_PASSES(md, Order({Thinking({"thought"})}));
}

TEST(JudgeRenderThinking, AnOpenerInAListItemCounts) {
  // "<details>" is an html_block inside the item; "thought" (indented 2) is the item's paragraph;
  // "</details>" at column 0 after a blank line ends the list and is top-level.
  const std::string md = "- <details>\n\n  thought\n\n</details>\n\nafter\n";
  EXPECT_PASSES(md, Order({Thinking({"thought"}), Text({"after"})}));
  EXPECT_FAILS_WITH(md, Order({Thinking({"after"})}), "SD-RENDER-4");
}

TEST(JudgeRenderThinking, TagsAreCaseInsensitiveAndMayHaveAttributes) {
  const std::string md = "  <DETAILS open>\n\nthought\n\n</Details>\n";
  EXPECT_PASSES(md, Order({Thinking({"thought"})}));
}

TEST(JudgeRenderThinking, AnInlineCloserIsHtmlInlineAndClosesNothing) {
  // "step 1 </details>" is a paragraph holding an html_inline: the section goes on, but the
  // html that session text made is what `absent` catches.
  const std::string md = "<details>\n\nstep 1 </details>\n\nthought\n\n</details>\n";
  EXPECT_PASSES(md, Order({Thinking({"step 1", "thought"})}));
  EXPECT_FAILS_WITH(md, Absent("html", "</details>"), "SD-RENDER-7");
}

TEST(JudgeRenderThinking, NestedSectionsCloseInPairs) {
  const std::string md =
      "<details>\n\n<details>\n\ninner\n\n</details>\n\nouter\n\n</details>\n\nafter\n";
  EXPECT_PASSES(md, Order({Thinking({"inner", "outer"}), Text({"after"})}));
  EXPECT_FAILS_WITH(md, Order({Thinking({"after"})}), "SD-RENDER-4");
}

TEST(JudgeRenderThinking, AnUnclosedSectionRunsToTheEnd) {
  EXPECT_PASSES("<details>\n\nthought\n", Order({Thinking({"thought"})}));
}

TEST(JudgeRenderThinking, FoundOutsideStillMovesTheCursor) {
  const std::string md = "> thought\n\nafter\n";
  EXPECT_FAILS_WITH(md, Order({Thinking({"thought"}), Text({"after"})}), "SD-RENDER-4");
}

// --- order: tool ------------------------------------------------------------------------------

TEST(JudgeRenderTool, TypeNameAndPathHintsPass) {
  const std::string md = "**write** `Write`\n\n- `src/main.go`\n- `README.md`\n";
  EXPECT_PASSES(md, Order({Tool("write", "Write", {"src/main.go", "README.md"})}));
}

TEST(JudgeRenderTool, MissingPathHintFailsRender3) {
  const std::string md = "**write** `Write`\n\n- `src/main.go`\n";
  const std::vector<RenderProblem> problems =
      JudgeRender(md, Order({Tool("write", "Write", {"src/main.go", "docs/x.md"})}));
  ASSERT_EQ(RequirementsOf(problems), std::vector<std::string>{"SD-RENDER-3"})
      << Describe(problems);
  EXPECT_NE(problems[0].message.find("path hint 2"), std::string::npos) << problems[0].message;
}

TEST(JudgeRenderTool, NameBeforeTypeFails) {
  // The search is case-sensitive: "write" is found after "Write", and no "Write" follows it.
  const std::string md = "`Write` **write**\n";
  const std::vector<RenderProblem> problems = JudgeRender(md, Order({Tool("write", "Write", {})}));
  ASSERT_EQ(RequirementsOf(problems), std::vector<std::string>{"SD-RENDER-3"})
      << Describe(problems);
  EXPECT_NE(problems[0].message.find("the name"), std::string::npos) << problems[0].message;
}

TEST(JudgeRenderTool, ToolFollowsItsMessageText) {
  const std::string md = "**shell** `Bash`\n\nRun the program\n";
  EXPECT_FAILS_WITH(md, Order({Text({"Run the program"}), Tool("shell", "Bash", {})}),
                    "SD-RENDER-3", "SD-RENDER-3");
}

// --- verbatim ---------------------------------------------------------------------------------

TEST(JudgeRenderVerbatim, PresentByteForByte) {
  const std::string formatted = "### Wrote a.go\n\n| line | text |\n|---|---|\n| 1 | package a |\n";
  RenderExpectation e;
  e.verbatim.push_back({"SD-RENDER-5", formatted});
  EXPECT_PASSES("**write** `Write`\n\n" + formatted + "\nnext\n", e);
  // Quoted, it is no longer the same bytes.
  EXPECT_FAILS_WITH("> ### Wrote a.go\n>\n> | line | text |\n> |---|---|\n> | 1 | package a |\n", e,
                    "SD-RENDER-5");
}

// --- absent -----------------------------------------------------------------------------------

TEST(JudgeRenderAbsent, EscapedHeadingPassesUnescapedFails) {
  RenderExpectation e = Absent("heading", "Title");
  e.order = {Text({"# Title"})};
  // "\#" is a literal "#": a paragraph whose text is "# Title".
  EXPECT_PASSES("\\# Title\n", e);
  // Unescaped, it is an ATX heading whose text is "Title": the "#" is not in the text either.
  EXPECT_FAILS_WITH("# Title\n", e, "SD-RENDER-2", "SD-RENDER-7");
}

TEST(JudgeRenderAbsent, OnlyTheHeadingsOwnTextCounts) {
  const RenderExpectation e = Absent("heading", "Title");
  EXPECT_PASSES("# Other\n\nTitle\n", e);
  const std::vector<RenderProblem> problems = JudgeRender("# My Title here\n\n# Title\n", e);
  ASSERT_EQ(RequirementsOf(problems), std::vector<std::string>{"SD-RENDER-7"})
      << Describe(problems);
  EXPECT_NE(problems[0].message.find("line 1"), std::string::npos) << problems[0].message;
  EXPECT_NE(problems[0].message.find("1 more"), std::string::npos) << problems[0].message;
}

TEST(JudgeRenderAbsent, SetextHeading) {
  const RenderExpectation e = Absent("heading", "title line");
  // A "---" line under a paragraph line makes it a level-2 setext heading.
  EXPECT_FAILS_WITH("title line\n---\n", e, "SD-RENDER-7");
  EXPECT_FAILS_WITH("title line\n===\n", e, "SD-RENDER-7");
  // "\---" is a paragraph continuation line.
  EXPECT_PASSES("title line\n\\---\n", e);
}

TEST(JudgeRenderAbsent, ListsAndBlockQuotes) {
  EXPECT_FAILS_WITH("- dash item\n", Absent("list", "dash item"), "SD-RENDER-7");
  EXPECT_FAILS_WITH("1. numbered item\n", Absent("list", "numbered item"), "SD-RENDER-7");
  EXPECT_PASSES("\\- dash item\n", Absent("list", "dash item"));
  EXPECT_PASSES("1\\. numbered item\n", Absent("list", "numbered item"));
  EXPECT_FAILS_WITH("> quoted line\n", Absent("block_quote", "quoted line"), "SD-RENDER-7");
  EXPECT_PASSES("\\> quoted line\n", Absent("block_quote", "quoted line"));
  // The renderer's own list is fine as long as no list holds the text.
  EXPECT_PASSES("- `a.go`\n\ndash item\n", Absent("list", "dash item"));
}

TEST(JudgeRenderAbsent, NestedContainersEachCount) {
  // The outer and the inner list both hold "deep".
  const std::vector<RenderProblem> problems =
      JudgeRender("- a\n  - deep\n", Absent("list", "deep"));
  ASSERT_EQ(problems.size(), 1u) << Describe(problems);
  EXPECT_NE(problems[0].message.find("1 more"), std::string::npos) << problems[0].message;
}

TEST(JudgeRenderAbsent, HtmlNodes) {
  const RenderExpectation e = Absent("html", "</details>");
  EXPECT_FAILS_WITH("step 1 </details>\n", e, "SD-RENDER-7");
  EXPECT_FAILS_WITH("step 1 </DETAILS>\n", e, "SD-RENDER-7");
  // An entity or a backslash keeps "<" a character.
  EXPECT_PASSES("step 1 &lt;/details>\n", e);
  EXPECT_PASSES("step 1 \\</details>\n", e);
  // Inside a code span it is code, not html.
  EXPECT_PASSES("step 1 `</details>`\n", e);
}

TEST(JudgeRenderAbsent, HtmlBlockLiteralAcrossLines) {
  // Without a blank line the html block runs on: the heading line is swallowed into its literal.
  const RenderExpectation e = Absent("html", "</details>\n# Injected");
  EXPECT_FAILS_WITH("<details>\nstep 1 </details>\n# Injected\n", e, "SD-RENDER-7");
  EXPECT_FAILS_WITH("<details>\r\nstep 1 </details>\r\n# Injected\r\n", e, "SD-RENDER-7");
  EXPECT_PASSES("<details>\n\nstep 1 &lt;/details>\n\\# Injected\n\n</details>\n", e);
}

TEST(JudgeRenderAbsent, LinksAndImages) {
  EXPECT_FAILS_WITH("[x](http://evil)\n", Absent("link", "http://evil"), "SD-RENDER-7");
  // CommonMark has no bare-URL autolinks: escaped brackets leave plain text.
  EXPECT_PASSES("\\[x\\](http://evil)\n", Absent("link", "http://evil"));
  EXPECT_FAILS_WITH("see <http://evil>\n", Absent("link", "http://evil"), "SD-RENDER-7");
  EXPECT_PASSES("see \\<http://evil>\n", Absent("link", "http://evil"));
  EXPECT_FAILS_WITH("[x]: http://evil\n\nsee [x]\n", Absent("link", "http://evil"), "SD-RENDER-7");
  EXPECT_FAILS_WITH("![i](http://evil/b.png)\n", Absent("image", "http://evil/b.png"),
                    "SD-RENDER-7");
  // An image is not a link, and the destination must be equal, not merely contained.
  EXPECT_PASSES("![i](http://evil/b.png)\n", Absent("link", "http://evil/b.png"));
  EXPECT_PASSES("[x](http://evil/more)\n", Absent("link", "http://evil"));
}

TEST(JudgeRenderAbsent, ThematicBreakBySpelling) {
  const RenderExpectation e = Absent("thematic_break", "_ _ _ _ _ _ _ _ _");
  EXPECT_FAILS_WITH("before\n\n_ _ _ _ _ _ _ _ _\n\nafter\n", e, "SD-RENDER-7");
  EXPECT_FAILS_WITH("> _ _ _ _ _ _ _ _ _\r\n", e, "SD-RENDER-7");
  EXPECT_PASSES("before\n\n\\_ _ _ _ _ _ _ _ _\n\nafter\n", e);
  // The renderer's own separators are spelt otherwise.
  EXPECT_PASSES("before\n\n---\n\nafter\n", e);
}

TEST(JudgeRenderAbsent, FenceClosedEarly) {
  // Text "```\n# after" inside a fence of three backticks: its "```" closes the fence and
  // "# after" becomes a heading.
  RenderExpectation e = Absent("heading", "after");
  e.order = {Text({"# after"})};
  EXPECT_FAILS_WITH("```\n```\n# after\n```\n", e, "SD-RENDER-2", "SD-RENDER-7");
  // A longer fence keeps it code.
  EXPECT_PASSES("````\n```\n# after\n````\n", e);
}

// --- robustness -------------------------------------------------------------------------------

TEST(JudgeRenderRobustness, NulBytesAreReplacementCharacters) {
  const std::string md("a\0b\n\0", 5);
  EXPECT_PASSES(md, Order({Text({std::string("a\0b", 3)})}));
  EXPECT_PASSES(md, Order({Text({"a\xEF\xBF\xBD"
                                 "b"})}));
}

// Nor can a message quoting the transcript drive the terminal that shows it: no C1 control (U+009B
// is CSI) and no bidi override (U+202E) goes through raw either.
TEST(JudgeRenderRobustness, MessagesAreOneLineOfUtf8) {
  // The html block ends at the blank line (the lone CR); its literal holds the control bytes.
  const std::string md = "<div>\x01\xFF\xE2\x80\xA8\xC2\x9B\xE2\x80\xAE \"\\ evil\n\rtext</div>\n";
  RenderExpectation e = Absent("html", "evil");
  e.order = {Text({"missing\x01\xFF\xC2\x9B\xE2\x80\xAE"})};
  const std::vector<RenderProblem> problems = JudgeRender(md, e);
  ASSERT_EQ(problems.size(), 2u) << Describe(problems);
  for (const RenderProblem& p : problems) {
    EXPECT_TRUE(IsValidUtf8(p.message)) << p.message;
    for (const char c : p.message) EXPECT_FALSE(c >= 0 && c < 0x20) << p.message;
    EXPECT_EQ(p.message.find("\xE2\x80\xA8"), std::string::npos);
    EXPECT_EQ(p.message.find("\xC2\x9B"), std::string::npos) << p.message;
    EXPECT_EQ(p.message.find("\xE2\x80\xAE"), std::string::npos) << p.message;
  }
}

TEST(JudgeRenderRobustness, ProblemsAreCappedPerRequirement) {
  std::vector<OrderItem> items;
  for (int i = 0; i < 30; ++i) items.push_back(Text({"missing " + std::to_string(i)}));
  items.push_back(Tool("shell", "Bash", {}));
  const std::vector<RenderProblem> problems = JudgeRender("nothing here\n", Order(items));
  std::vector<std::string> expected(20, "SD-RENDER-2");
  expected.push_back("SD-RENDER-3");
  expected.push_back("SD-RENDER-3");
  expected.push_back("SD-RENDER-2");
  EXPECT_EQ(RequirementsOf(problems), expected) << Describe(problems);
  EXPECT_NE(problems.back().message.find("10 more"), std::string::npos) << problems.back().message;
}

TEST(JudgeRenderRobustness, LargeHostileInputsComplete) {
  // No timing here (benchmarks hold those): each input must simply come back judged. cmark keeps
  // a node of some 200 bytes per bracket or delimiter, so those inputs are 1 MiB, not 5.
  const struct {
    const char* unit;
    std::size_t size;
  } kInputs[] = {
      {"`", 5 << 20},  {"- ", 5 << 20}, {"<details>\n", 5 << 20}, {"```\n# h\n", 5 << 20},
      {"[", 1 << 20},  {"`[", 1 << 20}, {"[](", 1 << 20},         {"*_", 1 << 20},
      {"> ", 1 << 20}, {"\\", 1 << 20},
  };
  RenderExpectation e = Absent("heading", "h");
  e.order = {Text({"end"})};
  e.absent.push_back(Absent("list", "x").absent[0]);
  e.absent.push_back(Absent("html", "<details").absent[0]);
  for (const auto& input : kInputs) {
    const std::string unit = input.unit;
    std::string md;
    md.reserve(input.size + unit.size() + 8);
    while (md.size() < input.size) md += unit;
    md += "\n\nend\n";
    const std::vector<RenderProblem> problems = JudgeRender(md, e);
    EXPECT_LE(problems.size(), 4u) << unit << Describe(problems);
  }
}

TEST(JudgeRenderRobustness, LongSnippetAgainstNearMisses) {
  // Runs of 9,999 x's never hold the snippet's 10,000: a naive search would compare 10^4 bytes at
  // each of 2*10^6 places.
  const std::string snippet(10000, 'x');
  std::string md;
  while (md.size() < (2u << 20)) md += std::string(9999, 'x') + "\n";
  EXPECT_FAILS_WITH(md, Order({Text({snippet})}), "SD-RENDER-2");
  RenderExpectation verbatim;
  verbatim.verbatim.push_back({"SD-RENDER-5", snippet});
  EXPECT_FAILS_WITH(md, verbatim, "SD-RENDER-5");
}

TEST(JudgeRenderRobustness, DeepNesting) {
  std::string md(200000, '>');
  md += " deep\n";
  EXPECT_FAILS_WITH(md, Absent("block_quote", "deep"), "SD-RENDER-7");
  std::string lists;
  for (int i = 0; i < 2000; ++i)
    lists += std::string(2 * static_cast<std::size_t>(i), ' ') + "- a\n";
  const std::vector<RenderProblem> problems = JudgeRender(lists, Absent("list", "a"));
  ASSERT_EQ(problems.size(), 1u) << Describe(problems);
  EXPECT_NE(problems[0].message.find("1999 more"), std::string::npos) << problems[0].message;
}

// --- ReadRenderExpectation --------------------------------------------------------------------

Result<RenderExpectation> Read(const std::string& text) {
  json::Document doc;
  if (Status s = json::ParseData(text, &doc); !s.ok()) return s;
  return ReadRenderExpectation(doc.root(), "/x");
}

TEST(ReadRenderExpectation, ReadsEveryMember) {
  Result<RenderExpectation> e = Read(R"({
    "order": [
      {"kind": "text", "requirement": "SD-RENDER-2", "snippets": ["a", "b"]},
      {"kind": "thinking", "requirement": "SD-RENDER-4", "snippets": ["t"]},
      {"kind": "tool", "requirement": "SD-RENDER-3", "type": "write", "name": "Write",
       "path_hints": ["src/main.go"]}],
    "verbatim": [{"requirement": "SD-RENDER-5", "markdown": "**x**"}],
    "absent": [{"requirement": "SD-RENDER-7", "node": "heading", "containing": "h"},
               {"requirement": "SD-RENDER-7", "node": "link", "destination": "http://x"}]})");
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  ASSERT_EQ(e->order.size(), 3u);
  EXPECT_EQ(e->order[0].kind, OrderItem::Kind::kText);
  EXPECT_EQ(e->order[0].snippets, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(e->order[1].kind, OrderItem::Kind::kThinking);
  EXPECT_EQ(e->order[1].requirement, "SD-RENDER-4");
  EXPECT_EQ(e->order[2].kind, OrderItem::Kind::kTool);
  EXPECT_EQ(e->order[2].type, "write");
  EXPECT_EQ(e->order[2].name, "Write");
  EXPECT_EQ(e->order[2].path_hints, std::vector<std::string>{"src/main.go"});
  ASSERT_EQ(e->verbatim.size(), 1u);
  EXPECT_EQ(e->verbatim[0].markdown, "**x**");
  ASSERT_EQ(e->absent.size(), 2u);
  EXPECT_EQ(e->absent[0].node, "heading");
  EXPECT_EQ(e->absent[0].containing, "h");
  EXPECT_EQ(e->absent[1].destination, "http://x");
}

TEST(ReadRenderExpectation, EveryManifestExpectationLoads) {
  const char* root = std::getenv("ARCS_SOURCE_DIR");
  const std::string path = std::string(root ? root : ".") + "/vectors/session_data/manifest.json";
  json::Document doc;
  ASSERT_TRUE(json::LoadDataFile(path, &doc).ok()) << path;
  const json::Value* cases = doc.root().Find("cases");
  ASSERT_NE(cases, nullptr);
  std::size_t loaded = 0;
  for (std::size_t i = 0; i < cases->items().size(); ++i) {
    const json::Value* operations = cases->items()[i].Find("operations");
    const json::Value* render = operations ? operations->Find("render") : nullptr;
    const json::Value* expect = render ? render->Find("expect_render") : nullptr;
    if (!expect) continue;
    const std::string pointer = "/cases/" + std::to_string(i) + "/operations/render/expect_render";
    Result<RenderExpectation> e = ReadRenderExpectation(*expect, pointer);
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    ++loaded;
  }
  EXPECT_GT(loaded, 0u);
}

TEST(ReadRenderExpectation, RefusesWithAPointer) {
  const struct {
    const char* json;
    const char* pointer;
  } kCases[] = {
      {R"([])", "/x: expected an object"},
      {R"({})", "/x/order: missing"},
      {R"({"order": {}})", "/x/order: expected an array"},
      {R"({"order": [], "extra": 1})", "/x/extra: unknown member"},
      {R"({"order": [], "verbatim": "x"})", "/x/verbatim: expected an array"},
      {R"({"order": [7]})", "/x/order/0: expected an object"},
      {R"({"order": [{"kind": "picture", "requirement": "SD-RENDER-2", "snippets": []}]})",
       "/x/order/0/kind:"},
      {R"({"order": [{"kind": "text", "requirement": "", "snippets": []}]})",
       "/x/order/0/requirement: is empty"},
      {R"({"order": [{"kind": "text", "requirement": "SD-RENDER-2", "snippets": ["a", 1]}]})",
       "/x/order/0/snippets/1: expected a string"},
      {R"({"order": [{"kind": "text", "requirement": "SD-RENDER-2", "snippets": [],
                      "type": "x"}]})",
       "/x/order/0/type: unknown member"},
      {R"({"order": [{"kind": "tool", "requirement": "SD-RENDER-3", "type": "x", "name": "y"}]})",
       "/x/order/0/path_hints: missing"},
      {R"({"order": [{"kind": "tool", "requirement": "SD-RENDER-3", "type": "x", "name": "y",
                      "path_hints": [], "snippets": []}]})",
       "/x/order/0/snippets: unknown member"},
      {R"({"order": [], "verbatim": [{"requirement": "SD-RENDER-5"}]})",
       "/x/verbatim/0/markdown: missing"},
      {R"({"order": [], "absent": [{"requirement": "SD-RENDER-7", "node": "table",
                                    "containing": "x"}]})",
       "/x/absent/0/node:"},
      {R"({"order": [], "absent": [{"requirement": "SD-RENDER-7", "node": "link",
                                    "containing": "x"}]})",
       "/x/absent/0/destination: missing"},
      {R"({"order": [], "absent": [{"requirement": "SD-RENDER-7", "node": "link",
                                    "destination": "x", "containing": "x"}]})",
       "/x/absent/0/containing: unknown member"},
      {R"({"order": [], "absent": [{"requirement": "SD-RENDER-7", "node": "heading",
                                    "containing": " \n "}]})",
       "/x/absent/0/containing: is empty"},
      {R"({"order": [], "absent": [{"requirement": "SD-RENDER-7", "node": "heading",
                                    "destination": "x"}]})",
       "/x/absent/0/containing: missing"},
  };
  for (const auto& c : kCases) {
    Result<RenderExpectation> e = Read(c.json);
    ASSERT_FALSE(e.ok()) << c.json;
    EXPECT_NE(e.status().message().find(c.pointer), std::string::npos)
        << c.json << "\n  -> " << e.status().message();
  }
}

}  // namespace
}  // namespace arcs::conformance::session_data
