#include <gtest/gtest.h>

#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/sample.h"

namespace arcs::report {
namespace {

using testing::Occurrences;

TEST(ReportJunit, OneSuitePerImplementationAndFormat) {
  const std::string xml = RenderJunit(testing::SampleReport());
  EXPECT_TRUE(
      xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "
                      "name=\"ARCS\" tests=\"17\" failures=\"2\" errors=\"2\" "
                      "skipped=\"2\" time=\"10.125\">\n"));
  EXPECT_NE(xml.find("<testsuite name=\"arcs-reference/spool\" tests=\"8\" failures=\"0\" "
                     "errors=\"0\" skipped=\"1\" time=\"4.500\">"),
            std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"&lt;script&gt;alert(1)&lt;/script&gt; py.spool/spool\" "
                     "tests=\"8\" failures=\"1\" errors=\"2\" skipped=\"1\" time=\"5.500\">"),
            std::string::npos);
  EXPECT_NE(xml.find("/lightbox\" tests=\"1\" failures=\"1\""), std::string::npos);
  EXPECT_EQ(Occurrences(xml, "<testsuite "), 3u);
  EXPECT_EQ(Occurrences(xml, "<testcase "), 17u);
  EXPECT_TRUE(xml.ends_with("</testsuites>\n"));
}

TEST(ReportJunit, AFailureCarriesItsEvidence) {
  const std::string xml = RenderJunit(testing::SampleReport());
  EXPECT_NE(
      xml.find("vector: vectors/lightbox/manifest.json\nspec: §3.6: &quot;Each line MUST be a "
               "complete JSON object.&quot;; §6.1"),
      std::string::npos);
  EXPECT_NE(xml.find("&quot;\ninput file (33 bytes, text):\n{&quot;type&quot;:"),
            std::string::npos);
  EXPECT_NE(xml.find("&quot;end&quot;}\ninput binary (11 bytes, hex):\n00fffe3c736372697074"),
            std::string::npos);
  EXPECT_NE(xml.find("verdict: valid\nfinding: &lt;script&gt;"), std::string::npos);
}

TEST(ReportJunit, MapsOutcomesToElements) {
  const std::string xml = RenderJunit(testing::SampleReport());
  EXPECT_NE(
      xml.find("<testcase classname=\"arcs-reference.spool.validate\" "
               "name=\"spool-3.4-bom\" time=\"0.750\">\n      <properties>\n        <property "
               "name=\"ground\" value=\"required\"/>\n        <property name=\"strict\" "
               "value=\"passed\"/>\n      </properties>\n    </testcase>\n"),
      std::string::npos);
  EXPECT_NE(
      xml.find("<testcase classname=\"arcs-reference.spool.validate\" "
               "name=\"spool-11.1-minimal\" time=\"0.125\">\n      <properties>\n        <property "
               "name=\"ground\" value=\"policy\"/>\n        <property name=\"policy\" "
               "value=\"invalid_line=reject\"/>\n        <property name=\"strict\" "
               "value=\"passed\"/>\n      </properties>\n      <skipped message=\"known "
               "failure: expected: valid; actual: invalid (SP-3.6-1)\"/>"),
      std::string::npos);
  // The implementation's own dot does not invent a level.
  EXPECT_NE(xml.find("classname=\"&lt;script&gt;alert(1)&lt;/script&gt; py_spool.spool."
                     "validate\" name=\"spool-3.6-crlf\" time=\"1.000\">\n      <properties>\n     "
                     "   <property "
                     "name=\"ground\" value=\"acceptable\"/>\n        <property name=\"flag\" "
                     "value=\"SP-E5\"/>\n      </properties>\n      <error message=\"expected: "
                     "valid; actual: crash: killed by signal 11 (SIGSEGV)\" type=\"crash\">"),
            std::string::npos);
  EXPECT_NE(
      xml.find(
          "name=\"spool-2.3-iso8601-basic\" time=\"0.500\">\n      <properties>\n        <property "
          "name=\"ground\" value=\"acceptable\"/>\n        <property name=\"flag\" "
          "value=\"SP-E14\"/>\n        <property name=\"readings\" "
          "value=\"iso8601\"/>\n        <property name=\"strict\" "
          "value=\"failed\"/>\n      </properties>\n    </testcase>\n"),
      std::string::npos);
  EXPECT_NE(xml.find("<property name=\"ground\" value=\"resource\"/>\n        <property "
                     "name=\"peak_rss_bytes\" value=\"1610612736\"/>\n"),
            std::string::npos);
  EXPECT_NE(xml.find("<failure message=\"expected: invalid (LB-2.1-1); actual: valid\" "
                     "type=\"failed\">expected: invalid (LB-2.1-1)\nactual: valid\nvector: "),
            std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"unsupported: &#39; onmouseover=&#39;alert(4) see "
                     "https://evil.example/x"),
            std::string::npos);
  EXPECT_NE(xml.find("<property name=\"certification\" value=\"partial 40%\"/>"),
            std::string::npos);
}

TEST(ReportJunit, EscapesAndStaysWellFormedText) {
  Report r = testing::SampleReport();
  r.implementations[1].cases[1].actual += std::string("\0\x0b\xFF\xEF\xBF\xBE", 6);
  r.implementations[1].cases[3].readings = {std::string(testing::HostileStrings()[0])};
  const std::string xml = RenderJunit(r);
  for (std::string_view hostile : testing::HostileStrings()) {
    EXPECT_EQ(xml.find(hostile), std::string::npos) << "found: " << hostile;
  }
  EXPECT_EQ(ValidUtf8(xml), xml);
  for (char c : xml) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_TRUE(byte >= 0x20 || c == '\n' || c == '\t' || c == '\r') << static_cast<int>(byte);
  }
  EXPECT_EQ(xml.find("\xEF\xBF\xBE"), std::string::npos);
  EXPECT_EQ(Occurrences(xml, "<![CDATA["), 0u);
}

}  // namespace
}  // namespace arcs::report
