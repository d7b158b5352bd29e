#include "runner/cli.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace arcs::runner {

bool TakeValue(const std::vector<std::string>& args, std::size_t* i, std::string* value) {
  if (*i + 1 >= args.size()) return false;
  *value = args[++*i];
  return true;
}

std::vector<std::string> SplitOptionValues(const std::vector<std::string>& args,
                                           const std::vector<std::string_view>& with_value) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      out.insert(out.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    const std::size_t eq = a.find('=');
    if (a.starts_with("--") && eq != std::string::npos &&
        std::find(with_value.begin(), with_value.end(), std::string_view(a).substr(0, eq)) !=
            with_value.end()) {
      out.push_back(a.substr(0, eq));
      out.push_back(a.substr(eq + 1));
    } else if (a.size() > 2 && a.starts_with("-j") && a[2] >= '0' && a[2] <= '9') {
      out.push_back("-j");
      out.push_back(a.substr(2));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

std::string Seconds(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, seconds < 10 ? "%.2f s" : "%.1f s", seconds);
  return buffer;
}

bool ParseColorWhen(std::string_view text, ColorWhen* when) {
  if (text == "auto") {
    *when = ColorWhen::kAuto;
  } else if (text == "always") {
    *when = ColorWhen::kAlways;
  } else if (text == "never") {
    *when = ColorWhen::kNever;
  } else {
    return false;
  }
  return true;
}

bool UseColor(ColorWhen when, int fd) {
  if (when != ColorWhen::kAuto) return when == ColorWhen::kAlways;
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  if ((no_color && *no_color) || (term && std::string_view(term) == "dumb")) return false;
  return ::isatty(fd) == 1;
}

std::string Paint::Wrap(std::string_view sgr, std::string_view text) const {
  if (!on_) return std::string(text);
  return "\033[" + std::string(sgr) + "m" + std::string(text) + "\033[0m";
}

}  // namespace arcs::runner
