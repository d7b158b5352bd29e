#include <gtest/gtest.h>

#include "reference/session_data/session_data.h"

namespace arcs::session_data {
namespace {

// The expected strings follow from CommonMark's rules (spec 0.30) as cited; the render judge
// (conformance/session_data) checks the reference's transcripts of every vector with cmark.
std::string Render(const Session& s) {
  std::string out;
  RenderMarkdown(s, &out);
  return out;
}

Session OneMessage(Message m) {
  Session s;
  s.session_id = "s";
  s.exchanges.push_back({"ex_0", "", "", {std::move(m)}});
  return s;
}

Message Text(std::string_view text, std::string_view type = "text") {
  Message m;
  m.role = "agent";
  m.content.push_back({type, text});
  return m;
}

// §2.4: any ASCII punctuation may be backslash-escaped, and then is literal. What opens inline
// structure is escaped wherever it stands; what opens a block, at the start of a line.
TEST(RenderTest, PunctuationThatOpensStructureIsEscaped) {
  const std::string md = Render(OneMessage(Text("# not a heading <b>[x](y)</b> a-b 1. c")));
  EXPECT_NE(md.find("\\# not a heading \\<b\\>\\[x\\](y)\\</b\\> a-b 1. c\n"), std::string::npos)
      << md;
  for (std::string_view line : {"- item", "+ item", "> quote", "=====", "12. item", "3) item"}) {
    const std::string escaped = Render(OneMessage(Text(line)));
    const std::size_t digits = line.find_first_not_of("0123456789");
    const std::string want =
        std::string(line.substr(0, digits)) + "\\" + std::string(line.substr(digits)) + "\n";
    EXPECT_NE(escaped.find("\n" + want), std::string::npos) << line << "\n" << escaped;
  }
}

// §4.4: four leading spaces would start an indented code block; references keep them as text.
TEST(RenderTest, LeadingBlanksAreCharacterReferences) {
  const std::string md = Render(OneMessage(Text("    indented\n\tx")));
  EXPECT_NE(md.find("&#32;&#32;&#32;&#32;indented\\\n&#9;x\n"), std::string::npos) << md;
}

// §4.5: a closing fence is at least as long as the opening one, so a fence longer than any
// backtick run inside cannot be closed by the content.
TEST(RenderTest, FencedCodeGetsALongerFence) {
  const std::string md = Render(OneMessage(Text("see:\n```go\na ```` b\n```\nafter")));
  EXPECT_NE(md.find("\n`````go\na ```` b\n`````\n"), std::string::npos) << md;
  EXPECT_NE(md.find("after\n"), std::string::npos) << md;
}

TEST(RenderTest, UnclosedFenceEndsWithThePart) {
  const std::string md = Render(OneMessage(Text("~~~\ncode")));
  EXPECT_NE(md.find("```\ncode\n```\n"), std::string::npos) << md;
}

TEST(RenderTest, ThinkingIsInADetailsSection) {
  const std::string md = Render(OneMessage(Text("</details> hmm", "thinking")));
  EXPECT_NE(md.find("<details>\n<summary>Thinking</summary>\n\n\\</details\\> hmm\n\n</details>\n"),
            std::string::npos)
      << md;
}

TEST(RenderTest, ToolTypeNamePathHintsAndFormattedMarkdown) {
  Message m;
  m.role = "agent";
  m.tool = ToolInfo{};
  m.tool->type = "write";
  m.tool->name = "Write";
  m.tool->summary = "a <b> & c\n\nd";
  m.tool->formatted_markdown = "**done**";
  m.path_hints = {"src/*.go"};
  const std::string md = Render(OneMessage(m));
  EXPECT_NE(md.find("**Tool:** write \xC2\xB7 Write\n"), std::string::npos) << md;
  EXPECT_NE(md.find("<summary>a &lt;b&gt; &amp; c&#10;&#10;d</summary>\n"), std::string::npos)
      << md;
  EXPECT_NE(md.find("<formatted-markdown>\n\n**done**\n\n</formatted-markdown>\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- src/\\*.go\n"), std::string::npos) << md;
}

// Where GitHub renders the transcript, session text links nothing and notifies no one. GFM's
// extended autolinks (www., a scheme's "://") are matched in the source: a backslash before the
// '.' or the ':' (§2.4) stops them. An e-mail address and an @mention are found in the rendered
// text, where escapes no longer show: an empty HTML comment after the '@' splits it. The text
// itself reads the same.
TEST(RenderTest, TextLinksAndMentionsNothing) {
  const std::string md = Render(OneMessage(
      Text("see www.example.com, WWW.x.org and https://evil.example/a or ftp://f.example; "
           "mail user@example.com, ping @octocat, @ alone, a.b: c")));
  EXPECT_NE(md.find("see www\\.example.com, WWW\\.x.org and https\\://evil.example/a or "
                    "ftp\\://f.example; mail user@<!-- -->example.com, ping @<!-- -->octocat, "
                    "@ alone, a.b: c\n"),
            std::string::npos)
      << md;
  Message m;
  m.role = "agent";
  m.tool = ToolInfo{};
  m.tool->type = "shell";
  m.tool->name = "@octocat";
  m.tool->summary = "for @octocat";
  m.path_hints = {"https://evil.example/p"};
  const std::string tool = Render(OneMessage(m));
  EXPECT_NE(tool.find("**Tool:** shell \xC2\xB7 @<!-- -->octocat\n"), std::string::npos) << tool;
  EXPECT_NE(tool.find("<summary>for @<!-- -->octocat</summary>"), std::string::npos) << tool;
  EXPECT_NE(tool.find("- https\\://evil.example/p\n"), std::string::npos) << tool;
}

TEST(RenderTest, NulBecomesTheReplacementCharacter) {
  const std::string md = Render(OneMessage(Text(std::string_view("a\0b", 3))));
  EXPECT_NE(md.find("a\xEF\xBF\xBD"
                    "b"),
            std::string::npos)
      << md;
}

}  // namespace
}  // namespace arcs::session_data
