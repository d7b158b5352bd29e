// RFC 4648 base64 (standard alphabet, "=" padding required to a multiple of four characters).
#ifndef ARCS_REFERENCE_CORE_BASE64_H_
#define ARCS_REFERENCE_CORE_BASE64_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace arcs::base64 {

// The decoded size, or nullopt when text is not canonical RFC 4648 §4 base64 (bad alphabet, bad
// length, misplaced or missing padding, non-zero pad bits). Runs in constant memory.
std::optional<std::size_t> DecodedSize(std::string_view text);

// Decodes valid base64; nullopt when DecodedSize() would return nullopt.
std::optional<std::string> Decode(std::string_view text);
// The same into `out`, which has room for text.size() / 4 * 3 bytes and may be where `text` is or
// before it in the same buffer (decoding in place); the decoded size, or nullopt (out untouched).
std::optional<std::size_t> DecodeTo(std::string_view text, char* out);

std::string Encode(std::string_view bytes);
// Appends the encoding of bytes to *out (which a JSON writer can quote as is: the alphabet and
// '=' need no escaping).
void EncodeAppend(std::string_view bytes, std::string* out);

}  // namespace arcs::base64

#endif  // ARCS_REFERENCE_CORE_BASE64_H_
