// Why a case expects what it expects: the ground of a vector's expectation (conformance/vectors.h)
// and of a case's result in a report (runner/report/report.h), one enum for both. Header-only, so
// that the report library needs nothing else of conformance/.
#ifndef ARCS_CONFORMANCE_GROUND_H_
#define ARCS_CONFORMANCE_GROUND_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace arcs::conformance {

//  kRequired    the spec text settles the outcome
//  kPolicy      the text leaves a choice to implementations; the outcome follows the choice the
//               implementation declares
//  kAcceptable  the text is silent or ambiguous (an errata entry, the case's flag): any of the
//               entry's readings is acceptable
//  kResource    a resource probe made at run time (format.h): any verdict, in time and without a
//               crash
enum class Ground : std::uint8_t { kRequired, kPolicy, kAcceptable, kResource };

inline constexpr std::string_view kGroundNames[] = {"required", "policy", "acceptable", "resource"};

inline std::string_view GroundName(Ground ground) {
  return kGroundNames[static_cast<std::size_t>(ground)];
}

inline bool ParseGround(std::string_view name, Ground* ground) {
  for (std::size_t i = 0; i < std::size(kGroundNames); ++i) {
    if (kGroundNames[i] == name) {
      *ground = static_cast<Ground>(i);
      return true;
    }
  }
  return false;
}

}  // namespace arcs::conformance

#endif  // ARCS_CONFORMANCE_GROUND_H_
