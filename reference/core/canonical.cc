#include "reference/core/canonical.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "reference/core/number.h"
#include "reference/core/strings.h"

namespace arcs::canonical {

std::optional<std::string> FirstFloat(const json::Value& value) {
  return json::FirstPointerWhere(value, &json::IsFloat);
}

Status AppendPythonSortedJson(const json::Value& value, std::string_view omit, std::string* out) {
  if (json::WritePythonWithoutFloats(value, omit, out)) return Status::Ok();
  const std::optional<std::string> at = FirstFloat(value);
  return Status(StatusCode::kInvalidArgument,
                (!at || at->empty() ? std::string("the value") : *at) +
                    " is a float (a number with a fraction or an exponent): the canonical form "
                    "has none");
}

Result<std::string> PythonSortedJson(const json::Value& value, std::string_view omit) {
  std::string out;
  if (Status s = AppendPythonSortedJson(value, omit, &out); !s.ok()) return s;
  return out;
}

std::string EcmaScriptNumber(double x) {
  if (x == 0) return "0";  // -0 too
  // The shortest digits that read back as x, closest to x on a tie (as ECMA-262 asks), as
  // "d.ddde±x": digits s (k of them) and n, the position of the decimal point (x = 0.s × 10^n).
  char buf[64];
  const auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, std::abs(x), std::chars_format::scientific);
  const std::string_view text(buf, static_cast<std::size_t>(end - buf));
  const std::size_t e = text.find('e');
  std::string digits(text.substr(0, e));
  if (digits.size() > 1) digits.erase(1, 1);  // the '.'
  int exponent = 0;
  std::from_chars(text.data() + e + (text[e + 1] == '+' ? 2 : 1), text.data() + text.size(),
                  exponent);
  const int n = exponent + 1;
  const int k = static_cast<int>(digits.size());
  std::string out = x < 0 ? "-" : "";
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<std::size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(n);
  } else if (-6 < n && n <= 0) {
    out += "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  } else {
    out += digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += (n - 1 < 0 ? "e-" : "e+") + std::to_string(std::abs(n - 1));
  }
  return out;
}

namespace {

// The code point of the UTF-8 sequence starting at s[i] (the text is well-formed UTF-8).
char32_t CodePointAt(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  const int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  char32_t c = length == 1 ? lead : lead & (0x7F >> length);
  for (int k = 1; k < length; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return c;
}

}  // namespace

bool Utf16Less(std::string_view a, std::string_view b) {
  const auto [pa, pb] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  if (pb == b.end()) return false;  // b is a prefix of a, or equal
  if (pa == a.end()) return true;
  // Both differ inside the same code point: the bytes before it are shared.
  std::size_t start = static_cast<std::size_t>(pa - a.begin());
  while (start > 0 && (static_cast<unsigned char>(a[start]) & 0xC0) == 0x80) --start;
  const char32_t ca = CodePointAt(a, start);
  const char32_t cb = CodePointAt(b, start);
  // A code point above U+FFFF is a surrogate pair, D800..DBFF first: below U+E000..U+FFFF.
  if ((ca > 0xFFFF) != (cb > 0xFFFF)) return ca > 0xFFFF ? cb >= 0xE000 : ca < 0xE000;
  return ca < cb;
}

namespace {

// Puts an object's members in JCS order into *members; returns a member whose name repeats, if any.
const json::Member* SortJcs(const json::Value& object, std::vector<const json::Member*>* members) {
  members->reserve(object.members().size());
  for (const json::Member& m : object.members()) members->push_back(&m);
  std::sort(members->begin(), members->end(), [](const json::Member* a, const json::Member* b) {
    return Utf16Less(a->name, b->name);
  });
  for (std::size_t i = 1; i < members->size(); ++i) {
    if ((*members)[i]->name == (*members)[i - 1]->name) return (*members)[i];
  }
  return nullptr;
}

Status AppendJcsScalar(const json::Value& v, std::string* out) {
  if (!v.is_number()) {
    json::Write(v, out);
    return Status::Ok();
  }
  std::optional<double> d = json::ToDouble(v.text());
  if (!d) return Status(StatusCode::kInvalidArgument, "");
  *out += EcmaScriptNumber(*d);
  return Status::Ok();
}

}  // namespace

Status AppendJcs(const json::Value& value, std::string* out,
                 std::span<const std::string_view> omit) {
  struct Open {
    const json::Value* value;
    std::vector<const json::Member*> members;  // objects: in JCS order
    std::size_t next;
  };
  std::vector<Open> stack;
  auto refuse = [&](const std::string& what) {
    std::string where;
    for (const Open& o : stack) {
      where += '/';
      if (o.value->is_array()) {
        where += std::to_string(o.next - 1);
      } else {
        json::AppendPointerToken(o.members[o.next - 1]->name, &where);
      }
    }
    return Status(StatusCode::kInvalidArgument,
                  (where.empty() ? std::string("the value") : where) + " " + what +
                      ": RFC 8785 (I-JSON) has no canonical form for it");
  };
  // Writes v, or opens it; a refusal when it has no canonical form.
  auto enter = [&](const json::Value& v) -> Status {
    if (v.is_array()) {
      *out += '[';
      stack.push_back({&v, {}, 0});
    } else if (v.is_object()) {
      std::vector<const json::Member*> members;
      if (const json::Member* repeated = SortJcs(v, &members)) {
        return refuse("repeats the member name " + Quoted(repeated->name));
      }
      if (stack.empty() && !omit.empty()) {
        std::erase_if(members, [&](const json::Member* m) {
          return std::find(omit.begin(), omit.end(), m->name) != omit.end();
        });
      }
      *out += '{';
      stack.push_back({&v, std::move(members), 0});
    } else if (!AppendJcsScalar(v, out).ok()) {
      return refuse("is a number beyond the range of IEEE 754 doubles");
    }
    return Status::Ok();
  };
  if (Status s = enter(value); !s.ok()) return s;
  while (!stack.empty()) {
    Open& top = stack.back();
    const bool array = top.value->is_array();
    const std::size_t size = array ? top.value->items().size() : top.members.size();
    if (top.next == size) {
      *out += array ? ']' : '}';
      stack.pop_back();
      continue;
    }
    if (top.next > 0) *out += ',';
    const json::Value* child;
    if (array) {
      child = &top.value->items()[top.next];
    } else {
      json::AppendQuoted(top.members[top.next]->name, out);
      *out += ':';
      child = &top.members[top.next]->value;
    }
    ++top.next;
    if (Status s = enter(*child); !s.ok()) return s;  // may move `top`
  }
  return Status::Ok();
}

Result<std::string> Jcs(const json::Value& value, std::span<const std::string_view> omit) {
  std::string out;
  if (Status s = AppendJcs(value, &out, omit); !s.ok()) return s;
  return out;
}

}  // namespace arcs::canonical
