// RenderBadges (render.h).
#include <cstdio>
#include <set>

#include "runner/report/escape.h"
#include "runner/report/render.h"
#include "runner/report/render_common.h"

namespace arcs::report {
namespace {

// Approximate advance widths of Verdana at 11px, the shields.io font, so that the text fits its
// box without shipping font metrics. Wide and narrow letters are singled out; every other
// character (including any non-ASCII one) counts as an average letter.
double TextWidth(std::string_view text) {
  double width = 0;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte & 0xC0) == 0x80) continue;  // continuation byte: counted with its lead byte
    if (std::string_view("iljtfrI.,:;|! '()[]").find(c) != std::string_view::npos) {
      width += 4;
    } else if (std::string_view("mwMW%@").find(c) != std::string_view::npos) {
      width += 10.5;
    } else if (c >= 'A' && c <= 'Z') {
      width += 7.7;
    } else {
      width += 6.9;
    }
  }
  return width;
}

// One decimal, rounded half up (SVG lengths; the widths are never negative).
std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f",
                static_cast<double>(static_cast<long long>(value * 10 + 0.5)) / 10);
  return text;
}

std::string Color(std::string_view certification) {
  if (certification == "full") return "#4c1";
  if (certification == "partial") return "#dfb317";
  return "#e05d44";
}

std::string BadgeSvg(std::string_view implementation, const FormatSummary& format) {
  const std::string label = Truncate(format.format, 40);
  const std::string message = internal::CertificationText(format);
  const double label_width = TextWidth(label) + 10;
  const double message_width = TextWidth(message) + 10;
  const std::string total = Number(label_width + message_width);
  const std::string title =
      EscapeXml(Truncate(implementation, 100)) + ": " + EscapeXml(label) + " " + EscapeXml(message);
  auto text = [](double x, std::string_view content) {
    const std::string escaped = EscapeXml(content);
    return "<text x=\"" + Number(x) + "\" y=\"15\" fill=\"#010101\" fill-opacity=\".3\">" +
           escaped + "</text><text x=\"" + Number(x) + "\" y=\"14\">" + escaped + "</text>";
  };
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + total +
         "\" height=\"20\" role=\"img\" aria-label=\"" + title + "\"><title>" + title +
         "</title><linearGradient id=\"s\" x2=\"0\" y2=\"100%\"><stop offset=\"0\" "
         "stop-color=\"#bbb\" stop-opacity=\".1\"/><stop offset=\"1\" stop-opacity=\".1\"/>"
         "</linearGradient><clipPath id=\"r\"><rect width=\"" +
         total + "\" height=\"20\" rx=\"3\" fill=\"#fff\"/></clipPath><g clip-path=\"url(#r)\">" +
         "<rect width=\"" + Number(label_width) + "\" height=\"20\" fill=\"#555\"/><rect x=\"" +
         Number(label_width) + "\" width=\"" + Number(message_width) + "\" height=\"20\" fill=\"" +
         Color(format.certification) + "\"/><rect width=\"" + total +
         "\" height=\"20\" fill=\"url(#s)\"/></g><g fill=\"#fff\" text-anchor=\"middle\" "
         "font-family=\"Verdana,Geneva,DejaVu Sans,sans-serif\" font-size=\"11\">" +
         text(label_width / 2, label) + text(label_width + message_width / 2, message) +
         "</g></svg>\n";
}

}  // namespace

std::vector<Badge> RenderBadges(const Report& report) {
  std::vector<Badge> badges;
  std::set<std::string> used;
  for (const ImplementationReport& impl : report.implementations) {
    for (const FormatSummary& format : impl.formats) {
      const std::string stem = Slug(impl.name) + "-" + Slug(format.format);
      std::string file_name = stem + ".svg";
      // Two implementations whose names slug alike (or a repeated name) must not overwrite
      // each other's badge.
      for (int n = 2; used.contains(file_name); ++n) {
        file_name = stem + "-" + std::to_string(n) + ".svg";
      }
      used.insert(file_name);
      badges.push_back({file_name, BadgeSvg(impl.name, format)});
    }
  }
  return badges;
}

}  // namespace arcs::report
