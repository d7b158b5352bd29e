// Fuzz target: the report reader (runner/report/report.h) and every renderer (render.h). The first
// byte chooses how the rest is used:
//  even  a report as JSON: FromJson must give a value or a Status; what it accepts must survive
//        ToJson -> FromJson -> ToJson unchanged, and render well-formed.
//  odd   strings an implementation chose (its name, version, language, homepage, messages,
//        expected and actual texts, stderr, policies, gaps) planted in the hostile sample report,
//        each as "PZQ" + piece + "QZP": every rendering must stay well-formed (markup_check.h),
//        and no piece holding a character that means something there may appear verbatim.
// A piece is a length byte, then that many bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "runner/report/markup_check.h"
#include "runner/report/render.h"
#include "runner/report/report.h"
#include "runner/report/sample.h"

namespace {

constexpr std::size_t kMaxInputBytes = 64 * 1024;

void Check(bool ok, const char* what, std::string_view detail = "") {
  if (!ok) {
    std::fprintf(stderr, "report_fuzzer: %s %.*s\n", what, static_cast<int>(detail.size()),
                 detail.data());
    __builtin_trap();
  }
}

void CheckStatus(const arcs::Status& s, const char* what) { Check(s.ok(), what, s.message()); }

using arcs::report::Report;

void CheckRenderingsAreWellFormed(const Report& report) {
  using namespace arcs::report;
  CheckStatus(testing::CheckHtml(RenderHtml(report)), "HTML is not well-formed:");
  CheckStatus(testing::CheckXml(RenderJunit(report)), "JUnit XML is not well-formed:");
  CheckStatus(testing::CheckMarkdown(RenderMarkdown(report)), "Markdown is not well-formed:");
  for (const Badge& badge : RenderBadges(report)) {
    CheckStatus(testing::CheckXml(badge.svg), "a badge is not well-formed:");
  }
}

void FuzzReader(std::string_view text) {
  arcs::Result<Report> report = arcs::report::FromJson(text);
  if (!report.ok()) return;
  const std::string once = arcs::report::ToJson(*report);
  arcs::Result<Report> again = arcs::report::FromJson(once);
  CheckStatus(again.status(), "a written report does not read back:");
  Check(arcs::report::ToJson(*again) == once, "a report changed through ToJson -> FromJson");
  CheckRenderingsAreWellFormed(*report);
}

std::vector<std::string> Pieces(std::string_view data) {
  std::vector<std::string> pieces;
  while (!data.empty()) {
    const std::size_t n =
        std::min<std::size_t>(static_cast<unsigned char>(data[0]), data.size() - 1);
    pieces.push_back("PZQ" + std::string(data.substr(1, n)) + "QZP");
    data.remove_prefix(1 + n);
  }
  return pieces;
}

// Every string of the report an implementation (or the command line) chose, to plant pieces in.
std::vector<std::string*> UntrustedStrings(Report* report) {
  std::vector<std::string*> out = {&report->run.known_failures};
  for (std::string& filter : report->run.filters) out.push_back(&filter);
  for (auto& impl : report->implementations) {
    for (std::string* s : {&impl.name, &impl.version, &impl.language, &impl.homepage, &impl.command,
                           &impl.stderr_tail}) {
      out.push_back(s);
    }
    for (auto& format : impl.formats) {
      for (std::string& gap : format.missing) out.push_back(&gap);
      for (auto& [name, choice] : format.policies) out.push_back(&choice);
    }
    for (auto& c : impl.cases) {
      for (std::string* s : {&c.message, &c.expected, &c.actual}) out.push_back(s);
    }
  }
  return out;
}

bool HasAny(std::string_view text, std::string_view characters) {
  return text.find_first_of(characters) != std::string_view::npos;
}

void FuzzRenderers(std::string_view data) {
  const std::vector<std::string> pieces = Pieces(data);
  if (pieces.empty()) return;
  Report report = arcs::report::testing::SampleReport();
  std::vector<std::string*> targets = UntrustedStrings(&report);
  for (std::size_t i = 0; i < targets.size(); ++i) *targets[i] = pieces[i % pieces.size()];
  CheckRenderingsAreWellFormed(report);

  const std::string html = arcs::report::RenderHtml(report);
  const std::string junit = arcs::report::RenderJunit(report);
  const std::string markdown = arcs::report::RenderMarkdown(report);
  for (const std::string& piece : pieces) {
    if (HasAny(piece, "<&")) {
      Check(html.find(piece) == std::string::npos, "raw markup in HTML:", piece);
      Check(junit.find(piece) == std::string::npos, "raw markup in JUnit:", piece);
    }
    const bool live_in_markdown = HasAny(piece, "<|`[\n\r@") ||
                                  piece.find("://") != std::string::npos ||
                                  piece.find("www.") != std::string::npos;
    if (live_in_markdown) {
      Check(markdown.find(piece) == std::string::npos, "raw markup in Markdown:", piece);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > kMaxInputBytes) return -1;  // rendering is linear: size costs only time
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    FuzzReader(rest);
  } else {
    FuzzRenderers(rest);
  }
  return 0;
}
