// WriteAllRenderings (render.h); the renderers themselves are in render_<form>.cc.
#include "runner/report/render.h"

#include <filesystem>
#include <system_error>

#include "reference/core/io.h"

namespace arcs::report {
namespace {

Status MakeDirectories(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return Status(StatusCode::kIoError, dir + ": " + error.message());
  return Status::Ok();
}

}  // namespace

Status WriteBadges(const Report& report, const std::string& dir) {
  if (Status s = MakeDirectories(dir); !s.ok()) return s;
  for (const Badge& badge : RenderBadges(report)) {
    if (Status s = WriteFile(dir + "/" + badge.file_name, badge.svg); !s.ok()) return s;
  }
  return Status::Ok();
}

Status WriteAllRenderings(const Report& report, const std::string& dir,
                          const std::string& basename) {
  if (Status s = MakeDirectories(dir); !s.ok()) return s;
  const std::string stem = dir + "/" + basename;
  const std::pair<std::string, std::string> files[] = {
      {stem + ".json", ToJson(report)},
      {stem + ".md", RenderMarkdown(report)},
      {stem + ".html", RenderHtml(report)},
      {stem + ".junit.xml", RenderJunit(report)},
  };
  for (const auto& [path, content] : files) {
    if (Status s = WriteFile(path, content); !s.ok()) return s;
  }
  return WriteBadges(report, dir + "/badges");
}

}  // namespace arcs::report
