"""Clean-room implementation of Model IO 1.0.0 (model-io.md).

Python 3.11, standard library only.

Public API
----------
parse_document(data: bytes) -> object
    Parse model_io.json bytes as one I-JSON text (RFC 7493): UTF-8 without BOM,
    no duplicate member names, no lone surrogates, finite numbers only, nesting
    at most MAX_DEPTH.  Raises DocumentError.

validate(data: bytes) -> (bool, list[Finding])
    Judge the file against the field tables (section 3) and the invariants
    MI1..MI11 (MI10 governs the order of the findings; MI12 governs the core).
    Findings are sorted by (rule, pointer, message), strings compared by
    UTF-16 code units (policy violation_order = code-unit).

compute_core(session: dict) -> dict
    ModelIOCore (section 4.3).  Raises NoCoreError when the session's core fields
    are absent or of the wrong type.

canonicalize(value) -> str
    RFC 8785 (JCS) serialization of a parsed JSON value.

canonical_core(data: bytes) -> bytes
    UTF-8 bytes of canonicalize(computeModelIOCore(session)).  Raises
    DocumentError / NoCoreError.

model_io_hash(data: bytes) -> str
    "sha256:" + lowercase hex SHA-256 of canonical_core(data), no trailing newline.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from dataclasses import dataclass

# Mutation-testing switch, read once at import.  Unset (or empty) means the
# frozen behaviour.  See README.md, "Mutants".
MUTANT = os.environ.get("ARCS_MUTANT", "")

__all__ = [
    "Finding", "DocumentError", "NoCoreError", "LimitError", "parse_document", "validate",
    "compute_core", "canonicalize", "canonical_core", "model_io_hash",
    "MAX_DEPTH", "MAX_FINDINGS", "MAX_INTERACTIONS", "MAX_RESPONSE_BYTES",
    "MAX_TOTAL_RESPONSE_BYTES", "sort_findings",
]

# --- limits -----------------------------------------------------------------

#: Maximum nesting depth of arrays/objects accepted in a document.  A valid
#: ModelIOSession needs 3 (session > interactions > interaction); unknown
#: members may add some.  Deeper documents are rejected (rule "json-depth").
MAX_DEPTH = 512
#: Findings kept in a validate answer (after sorting; the tail is dropped).
MAX_FINDINGS = 5000
#: MI4 / MI11
MAX_INTERACTIONS = 10_000
#: MI11, UTF-8 bytes per response_content
MAX_RESPONSE_BYTES = 1_000_000
#: MI11, UTF-8 bytes of all response_content of a session
MAX_TOTAL_RESPONSE_BYTES = 100_000_000

VALID_MODES = ("record", "replay")

# Patterns are applied with fullmatch(): the spec's patterns are JavaScript
# literals (/^...$/) whose "$" does not match before a trailing newline.
if MUTANT == "dollar-newline":
    _HASH_RE = re.compile(r"^sha256:[a-f0-9]{64}$")
    _hash_ok = lambda s: _HASH_RE.match(s) is not None  # noqa: E731
elif MUTANT == "uppercase-hex":
    _HASH_RE = re.compile(r"sha256:[a-f0-9]{64}", re.IGNORECASE)
    _hash_ok = lambda s: _HASH_RE.fullmatch(s) is not None  # noqa: E731
else:
    _HASH_RE = re.compile(r"sha256:[a-f0-9]{64}")
    _hash_ok = lambda s: _HASH_RE.fullmatch(s) is not None  # noqa: E731

if MUTANT == "semver-loose":
    _SEMVER_RE = re.compile(r"[0-9]+(\.[0-9]+)*")
else:
    # Semantic Versioning 2.0.0 "normal version": X.Y.Z, non-negative
    # integers, no leading zeros.  Pre-release/build suffixes are not X.Y.Z.
    _SEMVER_RE = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")

# ISO 8601 extended date-time in UTC (Z or +00:00); only a warning.
_UTC_TS_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(\.[0-9]+)?(Z|\+00:00|\+00|\+0000)"
)

_SURROGATE_RE = re.compile("[\ud800-\udfff]")


# --- findings -----------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    rule: str
    pointer: str
    message: str
    severity: str = "error"

    def as_dict(self) -> dict:
        return {"rule": self.rule, "severity": self.severity,
                "pointer": self.pointer, "message": self.message}


def _cu(s: str) -> bytes:
    """Sort key comparing strings by UTF-16 code units."""
    return s.encode("utf-16-be", "surrogatepass")


def _rule_key(rule: str) -> bytes:
    # Declared policy violation_order = code-unit: "rule_id ASC" compares the
    # ids as strings, so "MI10" sorts before "MI2".
    return _cu(rule)


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """MI10: sort by (rule_id ASC, path ASC, message ASC)."""
    if MUTANT == "violations-unsorted":
        return list(findings)
    return sorted(findings, key=lambda f: (_rule_key(f.rule), _cu(f.pointer), _cu(f.message)))


class DocumentError(Exception):
    """The bytes are not one acceptable JSON text."""

    def __init__(self, rule: str, message: str, pointer: str = ""):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.pointer = pointer

    def finding(self) -> Finding:
        return Finding(self.rule, self.pointer, self.message)


class NoCoreError(Exception):
    """The session has no ModelIOCore (core fields absent or mistyped)."""

    def __init__(self, pointer: str, message: str):
        super().__init__(message)
        self.pointer = pointer
        self.message = message

    def finding(self) -> Finding:
        return Finding("no-core", self.pointer, self.message)


# --- parsing ------------------------------------------------------------------

class _Dup(Exception):
    pass


def _pairs_hook(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise _Dup(k)
            seen.add(k)
    return obj


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


class _Range(Exception):
    pass


def _parse_number(text: str) -> float:
    # Every JSON number is an IEEE 754 double (RFC 8785 section 3.2.2.3,
    # ECMAScript semantics).  float() of a decimal string is correctly rounded;
    # a magnitude beyond the double range becomes inf, which I-JSON forbids.
    x = float(text)
    if not math.isfinite(x) and MUTANT != "accept-nan":
        raise _Range(text)
    return x


def _escape_ptr(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _check_depth(root) -> None:
    """Refuse containers nested deeper than MAX_DEPTH (breadth-first, no recursion)."""
    level = [root] if type(root) in (dict, list) else []
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            raise DocumentError("json-depth", f"nesting deeper than {MAX_DEPTH}")
        nxt: list = []
        for v in level:
            items = v.values() if type(v) is dict else v
            nxt.extend([c for c in items if type(c) is dict or type(c) is list])
        level = nxt
        depth += 1


def _check_surrogates(root) -> None:
    """Refuse lone surrogates in member names and strings (I-JSON, RFC 7493 2.1)."""
    stack = [(root, "")]
    while stack:
        value, ptr = stack.pop()
        if type(value) is str:
            if _SURROGATE_RE.search(value):
                raise DocumentError("json-lone-surrogate",
                                    "string contains a lone surrogate (not I-JSON, no UTF-8 form)", ptr)
        elif type(value) is dict:
            for k, v in value.items():
                sub = ptr + "/" + _escape_ptr(k)
                if _SURROGATE_RE.search(k):
                    raise DocumentError("json-lone-surrogate",
                                        "member name contains a lone surrogate", sub)
                stack.append((v, sub))
        elif type(value) is list:
            for n, v in enumerate(value):
                stack.append((v, f"{ptr}/{n}"))


# A lone surrogate can only come from a \uD800-\uDFFF escape: strict UTF-8
# decoding refuses encoded surrogates.
_SURROGATE_ESCAPE_RE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_document(data: bytes):
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("parse_document expects bytes")
    data = bytes(data)
    if data.startswith(b"\xef\xbb\xbf"):
        raise DocumentError("json-bom", "the file starts with a UTF-8 byte order mark (RFC 8259 section 8.1)")
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise DocumentError("json-utf8", f"the file is not valid UTF-8 (byte offset {e.start})") from None
    try:
        if MUTANT == "accept-nan":
            value = json.loads(text, object_pairs_hook=_pairs_hook,
                               parse_int=_parse_number, parse_float=_parse_number)
        else:
            value = json.loads(text, object_pairs_hook=_pairs_hook,
                               parse_int=_parse_number, parse_float=_parse_number,
                               parse_constant=_reject_constant)
    except _Dup as e:
        raise DocumentError("json-duplicate-member",
                            f"duplicate member name {json.dumps(str(e.args[0]))[:200]} (not I-JSON)") from None
    except _Range as e:
        raise DocumentError("json-number-range",
                            f"number {str(e.args[0])[:40]} is beyond the IEEE 754 double range (not I-JSON)") from None
    except RecursionError:
        raise DocumentError("json-depth", f"nesting deeper than {MAX_DEPTH}") from None
    except json.JSONDecodeError as e:
        raise DocumentError("json-syntax", f"not a JSON text: {e.msg} at line {e.lineno} column {e.colno}") from None
    except ValueError as e:
        raise DocumentError("json-syntax", f"not a JSON text: {e}") from None
    _check_depth(value)
    if _SURROGATE_ESCAPE_RE.search(text) is not None:
        _check_surrogates(value)
    return value


# --- RFC 8785 ---------------------------------------------------------------

def _es_number(x: float) -> str:
    """ECMAScript Number::toString(x) for a finite double (RFC 8785 3.2.2.3)."""
    if not math.isfinite(x):
        raise ValueError("NaN and Infinity have no JSON form")
    if x == 0:
        return "0"  # also -0
    if x < 0:
        return "-" + _es_number(-x)
    r = repr(x)  # shortest round-trip digits, correctly rounded
    if "e" in r:
        mant, exp_s = r.split("e")
        exp = int(exp_s)
    else:
        mant, exp = r, 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    digits = (ip + fp).lstrip("0")
    scale = exp - len(fp)  # value = int(digits) * 10**scale
    stripped = digits.rstrip("0")
    scale += len(digits) - len(stripped)
    digits = stripped
    k = len(digits)
    n = scale + k  # value = 0.digits * 10**n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    if k == 1:
        return f"{digits}e{sign}{abs(e)}"
    return f"{digits[0]}.{digits[1:]}e{sign}{abs(e)}"


# RFC 8785 section 3.2.2.2: escape '"', '\\' and U+0000..U+001F, using the
# short forms \b \t \n \f \r and otherwise \u00xx (lowercase hex); every
# other character is written as itself.  json.encoder's encode_basestring
# (ensure_ascii=False) writes exactly that; _jcs_string_py is the plain-Python
# statement of the same rule (used by the unit tests as a cross-check).
_ESCAPE_RE = re.compile('["\\\\\x00-\x1f]')
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t",
          "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _esc(m: re.Match) -> str:
    ch = m.group(0)
    s = _SHORT.get(ch)
    if s is not None:
        return s
    return "\\u%04x" % ord(ch)


def _jcs_string_py(s: str) -> str:
    return '"' + _ESCAPE_RE.sub(_esc, s) + '"'


_encode_str = json.encoder.encode_basestring


def _jcs_string(s: str) -> str:
    if _SURROGATE_RE.search(s):
        raise ValueError("lone surrogate: no I-JSON form")
    return _encode_str(s)


def _jcs(value, out: list) -> None:
    t = type(value)
    if t is str:
        out.append(_jcs_string(value))
    elif t is float or t is int:
        if MUTANT == "float-repr":
            out.append(repr(value))
        else:
            out.append(_es_number(float(value)))
    elif t is dict:
        out.append("{")
        first = True
        for k in sorted(value, key=_cu):
            if type(k) is not str:
                raise TypeError("member names must be strings")
            if first:
                first = False
            else:
                out.append(",")
            out.append(_jcs_string(k))
            out.append(":")
            _jcs(value[k], out)
        out.append("}")
    elif t is list or t is tuple:
        out.append("[")
        first = True
        for v in value:
            if first:
                first = False
            else:
                out.append(",")
            _jcs(v, out)
        out.append("]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    else:
        raise TypeError(f"no JSON form for {type(value).__name__}")


def canonicalize(value) -> str:
    out: list[str] = []
    _jcs(value, out)
    return "".join(out)


# --- ModelIOCore --------------------------------------------------------------

_MISSING = object()


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _ptr_field(name: str) -> str:
    return "/" + name


def compute_core(session) -> dict:
    """Section 4.3.  Requires the core fields to have the types of section 3."""
    if not isinstance(session, dict):
        raise NoCoreError("", "the document is not a JSON object")
    for name in ("model_io_schema_version", "adapter_id", "model_id", "mode"):
        v = session.get(name, _MISSING)
        if v is _MISSING:
            raise NoCoreError(_ptr_field(name), f"{name} is missing")
        if not isinstance(v, str):
            raise NoCoreError(_ptr_field(name), f"{name} is not a string")
    inter = session.get("interactions", _MISSING)
    if inter is _MISSING:
        raise NoCoreError("/interactions", "interactions is missing")
    if not isinstance(inter, list):
        raise NoCoreError("/interactions", "interactions is not an array")
    core_items = []
    for n, it in enumerate(inter):
        p = f"/interactions/{n}"
        if not isinstance(it, dict):
            raise NoCoreError(p, "interaction is not an object")
        i = it.get("i", _MISSING)
        if i is _MISSING or not _is_number(i):
            raise NoCoreError(p + "/i", "i is missing or not a number")
        for name in ("prompt_hash", "response_hash", "response_content"):
            v = it.get(name, _MISSING)
            if v is _MISSING or not isinstance(v, str):
                raise NoCoreError(f"{p}/{name}", f"{name} is missing or not a string")
        item = {
            "i": i,
            "prompt_hash": it["prompt_hash"],
            "response_hash": it["response_hash"],
            "response_content": it["response_content"],
        }
        if MUTANT == "core-keeps-tokens":
            for name in ("tokens_input", "tokens_output", "latency_ms"):
                if name in it:
                    item[name] = it[name]
        core_items.append(item)
    if MUTANT != "core-unsorted":
        core_items.sort(key=lambda c: c["i"])  # stable, like Array.prototype.sort
    return {
        "model_io_schema_version": session["model_io_schema_version"],
        "adapter_id": session["adapter_id"],
        "model_id": session["model_id"],
        "mode": session["mode"],
        "interactions": core_items,
    }


class LimitError(NoCoreError):
    """The session exceeds MI11's size limits; it is not hashed."""

    def finding(self) -> Finding:
        return Finding("MI11", self.pointer, self.message)


def _check_limits(session) -> None:
    """MI11 as a resource limit for hash/canonicalize ("Size limits prevent
    resource exhaustion"): a session beyond them is refused, not hashed."""
    if not isinstance(session, dict):
        return
    inter = session.get("interactions")
    if not isinstance(inter, list):
        return
    if len(inter) > MAX_INTERACTIONS:
        raise LimitError("/interactions",
                         f"interactions has {len(inter)} elements, more than {MAX_INTERACTIONS}")
    total = 0
    for n, it in enumerate(inter):
        if isinstance(it, dict) and isinstance(it.get("response_content"), str):
            size = len(it["response_content"].encode("utf-8"))
            if size > MAX_RESPONSE_BYTES:
                raise LimitError(f"/interactions/{n}/response_content",
                                 f"response_content is {size} bytes, more than {MAX_RESPONSE_BYTES}")
            total += size
    if total > MAX_TOTAL_RESPONSE_BYTES:
        raise LimitError("/interactions",
                         f"response_content totals {total} bytes, more than {MAX_TOTAL_RESPONSE_BYTES}")


def canonical_core(data: bytes) -> bytes:
    session = parse_document(data)
    _check_limits(session)
    core = compute_core(session)
    return canonicalize(core).encode("utf-8")


def model_io_hash(data: bytes) -> str:
    canon = canonical_core(data)
    if MUTANT == "hash-trailing-newline":
        canon += b"\n"
    return "sha256:" + hashlib.sha256(canon).hexdigest()


def response_hash(content: str) -> str:
    """Section 4.5."""
    return "sha256:" + hashlib.sha256(content.encode("utf-8")).hexdigest()


# --- validation ---------------------------------------------------------------

def _describe(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if _is_number(v):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _num_text(v) -> str:
    try:
        return _es_number(float(v))
    except (ValueError, OverflowError):
        return str(v)


def _check_session(doc, add) -> None:
    if not isinstance(doc, dict):
        add("field-table", "", f"the document must be a JSON object (ModelIOSession), found {_describe(doc)}")
        return

    # MI1
    v = doc.get("model_io_schema_version", _MISSING)
    p = "/model_io_schema_version"
    if v is _MISSING:
        add("MI1", p, "model_io_schema_version is missing")
    elif not isinstance(v, str):
        add("MI1", p, f"model_io_schema_version must be a string, found {_describe(v)}")
    elif v == "":
        add("MI1", p, "model_io_schema_version is empty")
    elif not _SEMVER_RE.fullmatch(v):
        add("MI1", p, "model_io_schema_version does not match semver X.Y.Z")

    # MI2
    for name in ("adapter_id", "model_id"):
        v = doc.get(name, _MISSING)
        p = "/" + name
        if v is _MISSING:
            add("MI2", p, f"{name} is missing")
        elif not isinstance(v, str):
            add("MI2", p, f"{name} must be a string, found {_describe(v)}")
        elif v == "" and MUTANT != "empty-id-ok":
            add("MI2", p, f"{name} is empty")

    # MI3
    v = doc.get("mode", _MISSING)
    if v is _MISSING:
        add("MI3", "/mode", "mode is missing")
    elif not isinstance(v, str):
        add("MI3", "/mode", f"mode must be 'record' or 'replay', found {_describe(v)}")
    else:
        mv = v.lower() if MUTANT == "mode-case-insensitive" else v
        if mv not in VALID_MODES:
            add("MI3", "/mode", "mode must be 'record' or 'replay'")

    # Optional, ephemeral fields (section 3.2)
    for name in ("created_at_utc", "ended_at_utc"):
        if name in doc:
            v = doc[name]
            p = "/" + name
            if not isinstance(v, str):
                add("field-table", p, f"{name} must be a string, found {_describe(v)}")
            elif not _UTC_TS_RE.fullmatch(v):
                add("timestamp-format", p, f"{name} is not an ISO 8601 UTC date-time", "warning")
    if "stats" in doc:
        st = doc["stats"]
        if not isinstance(st, dict):
            add("field-table", "/stats", f"stats must be an object, found {_describe(st)}")
        else:
            for name in ("total_interactions", "total_tokens_input",
                         "total_tokens_output", "total_latency_ms"):
                p = "/stats/" + name
                if name not in st:
                    add("field-table", p, f"stats.{name} is missing")
                elif not _is_number(st[name]):
                    add("field-table", p, f"stats.{name} must be a number, found {_describe(st[name])}")

    # MI4
    inter = doc.get("interactions", _MISSING)
    if inter is _MISSING:
        add("MI4", "/interactions", "interactions is missing")
        return
    if not isinstance(inter, list):
        add("MI4", "/interactions", f"interactions must be an array, found {_describe(inter)}")
        return
    limit_hit = (len(inter) >= MAX_INTERACTIONS) if MUTANT == "max-interactions-off-by-one" \
        else (len(inter) > MAX_INTERACTIONS)
    if limit_hit:
        msg = f"interactions has {len(inter)} elements, more than {MAX_INTERACTIONS}"
        add("MI4", "/interactions", msg)
        add("MI11", "/interactions", msg)
        # Resource limit: the elements of an oversized array are not examined.
        return

    total_bytes = 0
    prev_i = None
    seen_pairs: dict = {}
    for n, it in enumerate(inter):
        p = f"/interactions/{n}"
        if not isinstance(it, dict):
            add("field-table", p, f"an interaction must be an object, found {_describe(it)}")
            prev_i = None
            continue

        # MI5 / MI9
        i = it.get("i", _MISSING)
        expected = n + 1 if MUTANT == "index-from-one" else n
        if i is _MISSING:
            add("MI5", p + "/i", "i is missing")
            i_num = None
        elif not _is_number(i):
            add("MI5", p + "/i", f"i must be a number, found {_describe(i)}")
            i_num = None
        else:
            i_num = i
            if i != expected:
                add("MI5", p + "/i", f"i is {_num_text(i)}, expected {expected}")
            if prev_i is not None and i < prev_i:
                add("MI9", p + "/i",
                    f"interactions are not sorted by i ascending: {_num_text(i)} follows {_num_text(prev_i)}")
        prev_i = i_num if i_num is not None else prev_i

        # MI6
        ph = it.get("prompt_hash", _MISSING)
        if ph is _MISSING:
            add("MI6", p + "/prompt_hash", "prompt_hash is missing")
        elif not isinstance(ph, str):
            add("MI6", p + "/prompt_hash", f"prompt_hash must be a string, found {_describe(ph)}")
        elif not _hash_ok(ph):
            add("MI6", p + "/prompt_hash", "prompt_hash does not match ^sha256:[a-f0-9]{64}$")

        # MI8
        if isinstance(ph, str) and i_num is not None:
            key = ph if MUTANT == "dup-prompt-hash" else (ph, float(i_num))
            first = seen_pairs.get(key)
            if first is not None:
                add("MI8", p, f"(prompt_hash, i) pair repeats the one at /interactions/{first}")
            else:
                seen_pairs[key] = n

        # response_content (field table) and MI11
        rc = it.get("response_content", _MISSING)
        rc_ok = False
        if rc is _MISSING:
            add("field-table", p + "/response_content", "response_content is missing")
        elif not isinstance(rc, str):
            add("field-table", p + "/response_content",
                f"response_content must be a string, found {_describe(rc)}")
        else:
            rc_ok = True
            size = len(rc) if MUTANT == "content-chars-not-bytes" else len(rc.encode("utf-8"))
            total_bytes += size
            if size > MAX_RESPONSE_BYTES:
                add("MI11", p + "/response_content",
                    f"response_content is {size} bytes, more than {MAX_RESPONSE_BYTES}")

        # MI7
        rh = it.get("response_hash", _MISSING)
        if rh is _MISSING:
            add("MI7", p + "/response_hash", "response_hash is missing")
        elif not isinstance(rh, str):
            add("MI7", p + "/response_hash", f"response_hash must be a string, found {_describe(rh)}")
        elif not _hash_ok(rh):
            add("MI7", p + "/response_hash", "response_hash does not match ^sha256:[a-f0-9]{64}$")
        elif rc_ok and MUTANT != "hash-no-check" and rh != response_hash(rc):
            add("MI7", p + "/response_hash", "response_hash is not sha256(response_content)")

        # Optional, ephemeral interaction fields
        for name in ("tokens_input", "tokens_output", "latency_ms"):
            if name in it and not _is_number(it[name]):
                add("field-table", f"{p}/{name}", f"{name} must be a number, found {_describe(it[name])}")

    if total_bytes > MAX_TOTAL_RESPONSE_BYTES:
        add("MI11", "/interactions",
            f"response_content totals {total_bytes} bytes, more than {MAX_TOTAL_RESPONSE_BYTES}")


def validate(data: bytes) -> tuple[bool, list[Finding]]:
    """Return (valid, findings).  valid is False when any finding is an error."""
    try:
        doc = parse_document(data)
    except DocumentError as e:
        return False, [e.finding()]
    findings: list[Finding] = []

    def add(rule, pointer, message, severity="error"):
        findings.append(Finding(rule, pointer, message, severity))

    _check_session(doc, add)
    findings = sort_findings(findings)
    valid = not any(f.severity == "error" for f in findings)
    return valid, findings[:MAX_FINDINGS]
