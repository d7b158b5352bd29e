// The oracle of the tests of json::AppendQuoted (json_test.cc, fuzz/json_fuzzer.cc): a string
// quoted a byte at a time, with none of the block paths' tricks to share a mistake with.
#ifndef ARCS_REFERENCE_CORE_TESTING_ESCAPED_SLOWLY_H_
#define ARCS_REFERENCE_CORE_TESTING_ESCAPED_SLOWLY_H_

#include <string>
#include <string_view>

namespace arcs::testing {

// `s` quoted as RFC 8259 asks and Python's json.dumps writes, a byte at a time.
inline std::string EscapedSlowly(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    static constexpr char kHex[] = "0123456789abcdef";
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += std::string("\\u00") + kHex[c >> 4] + kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

}  // namespace arcs::testing

#endif  // ARCS_REFERENCE_CORE_TESTING_ESCAPED_SLOWLY_H_
