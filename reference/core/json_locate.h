// Where the values that JSON Pointers (RFC 6901) name stand in a JSON text, by byte offset: a
// checker reports a finding at a pointer into a line or a document, and `arcs validate` shows it
// at the byte column the pointer leads to.
//
// Not a validator (json.h decides what is JSON): it is given texts the strict parser has already
// read, and on anything it does not expect it stops, leaving the pointers it has not reached where
// the scan got to. One pass over the text however many pointers are asked for; only the arrays and
// objects on the way to a pointer are entered, the others are skipped by counting brackets, so the
// cost is the text's length. No recursion: the only stack is one entry per token of the pointer
// being followed.
#ifndef ARCS_REFERENCE_CORE_JSON_LOCATE_H_
#define ARCS_REFERENCE_CORE_JSON_LOCATE_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace arcs::json {

struct PointerPlace {
  // Where the pointer stands: a member of an object at its name's opening quote (the name is
  // what a reader looks for, and a pointer's last token names it), an element of an array or
  // the whole text at the value's first byte.
  std::size_t offset = 0;
  // Whether the whole pointer resolved. When it did not (a member that is missing, an index past
  // the end), `offset` is where it stops resolving: the member, element or value its longest
  // prefix that exists names, which is the object or array that lacks the rest.
  bool found = false;
};

// For each of `pointers`, in order: where it stands in `text` (one JSON value, whitespace around
// it allowed). Nothing for a string that is not a pointer ("" names the whole text; any other
// must start with '/', and '~' must be followed by 0 or 1) or when the text holds no value.
// A member name is compared after its escapes are decoded ("\u0061" is "a"); of a repeated name,
// the first member is the one, as Value::Find takes it.
std::vector<std::optional<PointerPlace>> LocatePointers(
    std::string_view text, const std::vector<std::string_view>& pointers);

}  // namespace arcs::json

#endif  // ARCS_REFERENCE_CORE_JSON_LOCATE_H_
