#include "runner/report/escape.h"

#include <gtest/gtest.h>

namespace arcs::report {
namespace {

constexpr std::string_view kFffd = "\xEF\xBF\xBD";

std::string R(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += kFffd;
  return out;
}

TEST(ReportEscape, ValidUtf8KeepsValidText) {
  const std::string text = "plain ASCII, é, € and 😀 \x7f";
  EXPECT_EQ(ValidUtf8(text), text);
  EXPECT_EQ(ValidUtf8(std::string("nul\0inside", 10)), std::string("nul\0inside", 10));
}

TEST(ReportEscape, ValidUtf8ReplacesEachMaximalSubpartOnce) {
  EXPECT_EQ(ValidUtf8("a\x80z"), "a" + R(1) + "z");              // stray continuation
  EXPECT_EQ(ValidUtf8("a\xC0\xAFz"), "a" + R(2) + "z");          // overlong: C0 never valid
  EXPECT_EQ(ValidUtf8("a\xE0\x80\xAFz"), "a" + R(3) + "z");      // overlong 3-byte
  EXPECT_EQ(ValidUtf8("a\xED\xA0\x80z"), "a" + R(3) + "z");      // surrogate U+D800
  EXPECT_EQ(ValidUtf8("a\xF4\x90\x80\x80z"), "a" + R(4) + "z");  // past U+10FFFF
  EXPECT_EQ(ValidUtf8("a\xE2\x82z"), "a" + R(1) + "z");          // truncated: one subpart
  EXPECT_EQ(ValidUtf8("a\xF0\x9F\x98"), "a" + R(1));             // truncated at the end
  EXPECT_EQ(ValidUtf8("\xFF\xFE"), R(2));                        // never valid bytes
}

TEST(ReportEscape, EscapeXmlEscapesMarkupAndQuotes) {
  EXPECT_EQ(EscapeXml("<a href=\"x\" title='y'>&</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
}

TEST(ReportEscape, EscapeXmlReplacesWhatXmlForbids) {
  EXPECT_EQ(EscapeXml("tab\tlf\ncr\r"), "tab\tlf\ncr\r");
  EXPECT_EQ(EscapeXml(std::string("\0\x01\x1b", 3)), R(3));
  EXPECT_EQ(EscapeXml("\xEF\xBF\xBE\xEF\xBF\xBF"), R(2));  // U+FFFE, U+FFFF
  EXPECT_EQ(EscapeXml("bad \xC3"), "bad " + R(1));
  EXPECT_EQ(EscapeXml("\xE2\x80\xAE"
                      "abc\xE2\x81\xA6"),
            R(1) + "abc" + R(1));  // U+202E, U+2066
}

TEST(ReportEscape, EscapeMarkdownNeutralizesTableAndInlineMarkup) {
  EXPECT_EQ(EscapeMarkdown("a|b `c` [d](e) *f* _g_ ~h~ \\"),
            "a\\|b \\`c\\` \\[d\\](e) \\*f\\* \\_g\\_ \\~h\\~ \\\\");
  EXPECT_EQ(EscapeMarkdown("<script>&amp;"), "&lt;script&gt;&amp;amp;");
  EXPECT_EQ(EscapeMarkdown("one\r\ntwo\nthree\rfour"), "one<br>two<br>three<br>four");
  EXPECT_EQ(EscapeMarkdown("tab\tbell\x07"), "tab bell" + R(1));
  EXPECT_EQ(EscapeMarkdown("spool-11.1-minimal"), "spool-11.1-minimal");
  EXPECT_EQ(EscapeMarkdown("\xE2\x80\xA8"), R(1));  // LINE SEPARATOR
  EXPECT_EQ(EscapeMarkdown("\xE2\x80\xAE"
                           "abc"),
            R(1) + "abc");
}

// Checked against cmark-gfm's autolink extension in runner/report/check_markdown_gfm.py.
TEST(ReportEscape, EscapeMarkdownLeavesNoAutolinkOrMention) {
  const std::string wj = "\xE2\x81\xA0";  // WORD JOINER
  EXPECT_EQ(EscapeMarkdown("see https://evil.example/x"), "see https\\://evil.example/x");
  EXPECT_EQ(EscapeMarkdown("www.evil.example WWW.X"), "www\\.evil.example WWW\\.X");
  EXPECT_EQ(EscapeMarkdown("ask @octocat or a@b.example"),
            "ask @" + wj + "octocat or a@" + wj + "b.example");
  EXPECT_EQ(EscapeMarkdown("1.0 w.x"), "1.0 w.x");
}

TEST(ReportEscape, TruncateCutsAtCharacterBoundaries) {
  EXPECT_EQ(Truncate("short", 10), "short");
  EXPECT_EQ(Truncate("abcdef", 3), "abc\xE2\x80\xA6");
  EXPECT_EQ(Truncate("a€b", 2), "a\xE2\x80\xA6");  // € is three bytes: not split
  EXPECT_EQ(Truncate("\xFF", 10), R(1));
}

TEST(ReportEscape, SlugKeepsLowercaseAlphanumericsAndSingleDashes) {
  EXPECT_EQ(Slug("My Spool (Python) 1.0"), "my-spool-python-1-0");
  EXPECT_EQ(Slug("../../etc/passwd"), "etc-passwd");
  EXPECT_EQ(Slug("<>"), "x");
  EXPECT_EQ(Slug("héllo"), "h-llo");
  const std::string slug = Slug(std::string(300, 'a'));
  EXPECT_EQ(slug.size(), kMaxSlugBytes);
  EXPECT_EQ(slug.substr(0, kMaxSlugBytes - 9), std::string(kMaxSlugBytes - 9, 'a'));
  EXPECT_EQ(slug[kMaxSlugBytes - 9], '-');
  EXPECT_NE(slug, Slug(std::string(299, 'a') + "b"));
}

}  // namespace
}  // namespace arcs::report
