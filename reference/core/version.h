// The version of ARCS itself, reported by `arcs --version`, in reports and by `arcs serve`.
#ifndef ARCS_REFERENCE_CORE_VERSION_H_
#define ARCS_REFERENCE_CORE_VERSION_H_

#include <string_view>

namespace arcs {

inline constexpr std::string_view kArcsVersion = "0.2.0";

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_VERSION_H_
