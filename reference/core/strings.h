// Small string helpers every part of ARCS uses for messages and reports.
#ifndef ARCS_REFERENCE_CORE_STRINGS_H_
#define ARCS_REFERENCE_CORE_STRINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace arcs {

// The items with `separator` between them ("" for none): Join({"a", "b"}) == "a, b".
std::string Join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace arcs

#endif  // ARCS_REFERENCE_CORE_STRINGS_H_
