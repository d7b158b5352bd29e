// Canonical forms of JSON values, the bytes a format hashes. One per convention a spec names;
// each is written once here so that every format (and its fuzzers and oracle tests) shares it.
#ifndef ARCS_REFERENCE_CORE_CANONICAL_H_
#define ARCS_REFERENCE_CORE_CANONICAL_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "reference/core/json.h"
#include "reference/core/status.h"

namespace arcs::canonical {

// Python's json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False), encoded as
// UTF-8, of the object json.loads makes from `value`'s text (Lightbox's hash input):
//  - names sorted by code point, of a repeated name only the last member (json::MemberOrder);
//  - strings escaped as Python does: \" \\ \b \f \n \r \t, the other U+0000..U+001F as lowercase
//    \u00xx, everything else raw (DEL and U+2028 included);
//  - integers of any size exact, as Python prints them ("-0" is 0);
//  - no floats: a number with a fraction or an exponent fails with kInvalidArgument naming its
//    JSON Pointer (Python reads it as a float, which the canonical form prohibits).
// A value that is a string holding a lone surrogate cannot occur: the strict parser refuses it
// (Python parses it, but cannot encode the result as UTF-8).
// `omit`, when not empty, is a member of the top-level object left out (an event's own "hash").
Result<std::string> PythonSortedJson(const json::Value& value, std::string_view omit = "");

// The same, appended to *out (which a caller hashing many values reuses); *out is unchanged on
// failure.
Status AppendPythonSortedJson(const json::Value& value, std::string_view omit, std::string* out);

// The JSON Pointer of the first float (json::IsFloat: a number with a fraction or an exponent) in
// `value` ("" for the value itself), or nullopt when it has none. Iterative: any depth the parser
// allowed.
std::optional<std::string> FirstFloat(const json::Value& value);

// RFC 8785 (JSON Canonicalization Scheme, JCS), the canonical form Model IO hashes:
//  - names sorted by their UTF-16 code units (not code points: U+10000 and above sort before
//    U+E000..U+FFFF), no repeated name;
//  - strings escaped as ECMAScript's JSON.stringify does, which is Python's escaping above;
//  - numbers as ECMAScript writes the nearest IEEE 754 double (EcmaScriptNumber): 1.0 is 1,
//    1e21 is 1e+21, -0 is 0; a number beyond the doubles' range has no canonical form;
//  - no whitespace.
// Fails with kInvalidArgument, naming the JSON Pointer, for what RFC 8785 §3.1 excludes (I-JSON,
// RFC 7493): a repeated member name, a number that overflows a double. (Lone surrogates never
// reach here: the strict parser refuses them.)
// `omit` names members of the top-level object left out (TJ-SPEC-010's by-request key leaves out
// params._meta, and an initialize request's clientInfo).
Result<std::string> Jcs(const json::Value& value, std::span<const std::string_view> omit = {});

// The same, appended to *out; *out may hold part of the value on failure.
Status AppendJcs(const json::Value& value, std::string* out,
                 std::span<const std::string_view> omit = {});

// ECMAScript's Number::toString(x) for a finite double (ECMA-262 §6.1.6.1.20; RFC 8785
// §3.2.2.3): the shortest digits that read back as x, in plain notation for exponents from -7 to
// 20 and as d.ddde+n otherwise; -0 is "0".
std::string EcmaScriptNumber(double x);

// Whether UTF-8 string a sorts before b when both are compared as UTF-16 code units, as ECMAScript
// compares strings (JCS's member order).
bool Utf16Less(std::string_view a, std::string_view b);

}  // namespace arcs::canonical

#endif  // ARCS_REFERENCE_CORE_CANONICAL_H_
