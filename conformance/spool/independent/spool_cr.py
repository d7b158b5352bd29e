"""spool_cr -- a clean-room implementation of the Spool 1.0 file format.

Written from spool.md (Spool Format Specification 1.0, 2025-01-31) only.
Python 3.11, standard library only.

Public API
----------
validate(data, limits=None, major_version="reject") -> Validation
    Judge whether ``data`` (bytes) is a conforming Spool file.
read(data, limits=None, invalid_line="skip", invalid_entry="skip",
     major_version="reject") -> ReadResult
    Read ``data`` as a Spool reader (tolerant where the spec asks readers to be).
write(entries) -> bytes
    Write entries (JSON texts, as kept by ``read``) as a Spool writer must.
roundtrip(data, ...) -> (ReadResult, bytes | None)

Limits (see README.md): max_file_bytes, max_line_bytes, max_entries,
max_json_depth, max_subagent_depth, max_base64_bytes.  Exceeding one makes
the file invalid (validate) / rejected (read).  A limit this implementation
cannot honour for a particular input raises ``LimitUnsupported``.
"""

from __future__ import annotations

import binascii
import calendar
import json
import os
import re
import sys
import threading
from decimal import Decimal, InvalidOperation
from itertools import accumulate

# Read once at import: fault injection for testing the conformance suite.
# Unset (the default) means the frozen, intended behaviour.
MUTANT = os.environ.get("ARCS_MUTANT", "")

__all__ = [
    "validate", "read", "write", "roundtrip", "DEFAULT_LIMITS",
    "LimitUnsupported", "Validation", "ReadResult",
]

INT64_MAX = 2 ** 63 - 1
MiB = 1024 * 1024

DEFAULT_LIMITS = {
    "max_file_bytes": 256 * MiB,      # whole input, bytes
    "max_line_bytes": 16 * MiB,       # one line, bytes, without its line ending
    "max_entries": 100_000,           # non-blank lines (entries incl. the session)
    "max_json_depth": 128,            # containers nested in one entry; the entry object is 1
    "max_subagent_depth": 10,         # subagent_start nesting; a top-level subagent is 1
    "max_base64_bytes": 12 * MiB,     # decoded size of one binary object's `data`
}

# Deepest JSON nesting we will hand to the C json parser at all (it recurses).
HARD_JSON_DEPTH = 100_000
# Up to this depth the default interpreter recursion limit/stack are enough.
_NATIVE_SAFE_DEPTH = 600

MAX_FINDINGS = 1000

_JSON_WS = " \t\r"          # JSON whitespace that can occur inside a line (\n cannot)
_BOM = b"\xef\xbb\xbf"
_UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_VERSION_RE = re.compile(r"([0-9]+)\.([0-9]+)")
_VERSION_LOOSE_RE = re.compile(r"([0-9]+)(?:\.[0-9]+)+")
_ISO_EXT_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})"
    r"(?::([0-9]{2})(?:[.,]([0-9]+))?)?"
    r"(Z|[+-][0-9]{2}(?::[0-9]{2})?)?")
_ISO_BASIC_RE = re.compile(
    r"([0-9]{4})([0-9]{2})([0-9]{2})T([0-9]{2})([0-9]{2})"
    r"(?:([0-9]{2})(?:[.,]([0-9]+))?)?"
    r"(Z|[+-][0-9]{2}(?:[0-9]{2})?)?")
_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_WS_OUTSIDE_STRINGS_RE = re.compile(r'("[^"\\]*(?:\\.[^"\\]*)*")|[ \t\r\n]+', re.S)
_SURROGATE_ESCAPE_RE = re.compile(r"\\u[dD][89abcdefABCDEF]")
_RAW_NUMBER_RE = re.compile(r"-?([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?")

_BRACKETS = b"[]{}"
_DELETE_NON_BRACKETS = bytes(b for b in range(256) if b not in _BRACKETS)
_DEPTH_DELTA = [0] * 256
_DEPTH_DELTA[ord("(")] = 1
_DEPTH_DELTA[ord(")")] = -1


class LimitUnsupported(Exception):
    """The input needs a limit value this implementation cannot honour."""


class _InvalidJSON(Exception):
    pass


# --------------------------------------------------------------------------
# JSON parsing: strict RFC 8259, exact numbers, duplicate names noticed.
# --------------------------------------------------------------------------

class _DupDict(dict):
    """A JSON object that repeated a member name; ``pairs`` keeps them all."""
    __slots__ = ("pairs",)


class _RawNumber:
    """A JSON number too large for Decimal (e.g. 1e99999999999999999999)."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def is_integral(self):
        m = _RAW_NUMBER_RE.fullmatch(self.text)
        if not m:
            return False
        ip, fp, ex = m.group(1), m.group(2) or "", m.group(3) or "0"
        if not (ip + fp).strip("0"):
            return True                      # zero, whatever the exponent
        return not ex.startswith("-")        # astronomically large positive exponent

    def __repr__(self):
        return "_RawNumber(%r)" % self.text


def _pairs_hook(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        d = _DupDict(pairs)
        d.pairs = pairs
    return d


def _parse_int(s):
    if len(s) <= 4000:
        return int(s)
    return Decimal(s)


def _parse_float(s):
    try:
        return Decimal(s)
    except (InvalidOperation, ValueError):
        return _RawNumber(s)


def _reject_constant(name):
    if MUTANT == "accept-nan":
        return float(name.replace("-Infinity", "-inf").replace("Infinity", "inf"))
    raise _InvalidJSON("%s is not JSON (RFC 8259 numbers are finite)" % name)


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs_hook, parse_int=_parse_int,
                            parse_float=_parse_float, parse_constant=_reject_constant,
                            strict=True)


_TO_PARENS = bytes.maketrans(b"[]{}", b"()()")


def _bracket_skeleton(text):
    """The text's brackets outside strings, as b"(" and b")"."""
    stripped = _STRING_RE.sub("", text) if '"' in text else text
    return stripped.encode("utf-8", "surrogatepass").translate(
        None, _DELETE_NON_BRACKETS).translate(_TO_PARENS)


def _max_depth(text, limit=None):
    """Deepest container nesting of a JSON text (strings ignored).  With
    ``limit``, may return any value above ``limit`` once depth > limit is certain."""
    skel = _bracket_skeleton(text)
    if not skel:
        return 0
    if limit is not None and b"(" * (limit + 1) in skel:
        return limit + 1
    return max(0, max(accumulate(map(_DEPTH_DELTA.__getitem__, skel))))


def _decode_json(text):
    try:
        return _DECODER.decode(text)
    except _InvalidJSON:
        raise
    except RecursionError:
        raise
    except (ValueError, TypeError) as e:            # JSONDecodeError is a ValueError
        raise _InvalidJSON(str(e)) from None


def _decode_json_deep(text, depth):
    """Parse a text of known nesting ``depth`` beyond the default stack budget."""
    result = {}

    def work():
        old = sys.getrecursionlimit()
        try:
            sys.setrecursionlimit(max(old, depth * 2 + 1000))
            result["value"] = _decode_json(text)
        except BaseException as e:                  # re-raised in the caller's thread
            result["error"] = e
        finally:
            sys.setrecursionlimit(old)

    old_size = threading.stack_size()
    threading.stack_size(min(1024 * MiB, max(64 * MiB, depth * 4096)))
    try:
        t = threading.Thread(target=work, name="spool-deep-json")
        t.start()
    finally:
        threading.stack_size(old_size)
    t.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def parse_line(text, max_depth):
    """Parse one JSON text.  Returns (value, depth_exceeded_depth_or_None)."""
    n = text.count("[") + text.count("{")
    if n <= max_depth and n <= _NATIVE_SAFE_DEPTH:
        return _decode_json(text), None
    depth = _max_depth(text, max_depth)
    if depth > max_depth:
        return None, depth
    if depth <= _NATIVE_SAFE_DEPTH:
        return _decode_json(text), None
    if depth > HARD_JSON_DEPTH:
        raise LimitUnsupported("max_json_depth above %d cannot be honoured (the entry nests %d deep)"
                               % (HARD_JSON_DEPTH, depth))
    return _decode_json_deep(text, depth), None


# --------------------------------------------------------------------------
# Value predicates
# --------------------------------------------------------------------------

def _is_int(v):
    t = type(v)
    if t is int:
        return True
    if t is Decimal:
        return v.is_finite() and v == v.to_integral_value()
    if t is _RawNumber:
        return v.is_integral()
    return False


def _raw_is_zero(text):
    m = _RAW_NUMBER_RE.fullmatch(text)
    return bool(m) and not (m.group(1) + (m.group(2) or "")).strip("0")


def _int_value_le(v, bound):
    t = type(v)
    if t is int or t is Decimal:
        return v <= bound
    if t is _RawNumber:          # only huge exponents land here
        return v.text.startswith("-") or _raw_is_zero(v.text)
    return False


def _int_value_ge0(v):
    t = type(v)
    if t is int or t is Decimal:
        return v >= 0
    if t is _RawNumber:
        return not v.text.startswith("-") or _raw_is_zero(v.text)
    return False


def _is_uuid(v):
    if type(v) is not str:
        return False
    if MUTANT == "uppercase-uuid":
        return _UUID_RE.fullmatch(v.lower()) is not None
    return _UUID_RE.fullmatch(v) is not None


def _iso8601_ok(v):
    if type(v) is not str:
        return False
    m = _ISO_EXT_RE.fullmatch(v) or _ISO_BASIC_RE.fullmatch(v)
    if not m:
        return False
    y, mo, d, h, mi = (int(m.group(i)) for i in range(1, 6))
    s = int(m.group(6)) if m.group(6) else 0
    if not 1 <= mo <= 12:
        return False
    if not 1 <= d <= calendar.monthrange(y, mo)[1]:
        return False
    if h > 23 or mi > 59 or s > 60:
        return False
    tz = m.group(8)
    if tz and tz != "Z":
        digits = tz[1:].replace(":", "")
        if int(digits[:2]) > 23 or (len(digits) > 2 and int(digits[2:]) > 59):
            return False
    return True


def _type_name(v):
    if v is None:
        return "null"
    if type(v) is bool:
        return "boolean"
    if type(v) in (int, Decimal, _RawNumber, float):
        return "number"
    if type(v) is str:
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def _has_lone_surrogate(value):
    """True if some string (or member name) holds an unpaired surrogate."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is str:
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(v, dict):
            items = v.pairs if type(v) is _DupDict else v.items()
            for k, x in items:
                try:
                    k.encode("utf-8")
                except UnicodeEncodeError:
                    return True
                stack.append(x)
        elif isinstance(v, list):
            stack.extend(v)
    return False


# --------------------------------------------------------------------------
# Entry rules (spool.md section 5, 6, 9)
# --------------------------------------------------------------------------

# kind names: uuid ts str int bool obj strs iso version output attachments
#             trimmed ended status style reason arr any
_COMMON = {"id": ("uuid", True), "ts": ("ts", True), "type": ("str", True)}

_TYPES = {
    "session": {
        "version": ("version", True), "agent": ("str", True), "recorded_at": ("iso", True),
        "agent_version": ("str", False), "title": ("str", False), "author": ("str", False),
        "tags": ("strs", False), "duration_ms": ("int", False), "entry_count": ("int", False),
        "tools_used": ("strs", False), "schema_url": ("str", False),
        "trimmed": ("trimmed", False), "ended": ("ended", False),
    },
    "prompt": {"content": ("str", True), "subagent_id": ("uuid", False),
               "attachments": ("attachments", False)},
    "thinking": {"content": ("str", True), "collapsed": ("bool", False),
                 "truncated": ("bool", False), "original_bytes": ("int", False),
                 "subagent_id": ("uuid", False)},
    "tool_call": {"tool": ("str", True), "input": ("obj", True), "subagent_id": ("uuid", False)},
    "tool_result": {"call_id": ("uuid", True), "output": ("output", False),
                    "error": ("str", False), "truncated": ("bool", False),
                    "original_bytes": ("int", False), "subagent_id": ("uuid", False)},
    "response": {"content": ("str", True), "truncated": ("bool", False),
                 "original_bytes": ("int", False), "subagent_id": ("uuid", False)},
    "error": {"code": ("str", True), "message": ("str", True), "recoverable": ("bool", False),
              "details": ("obj", False), "subagent_id": ("uuid", False)},
    "subagent_start": {"agent": ("str", True), "context": ("str", False),
                       "parent_subagent_id": ("uuid", False)},
    "subagent_end": {"start_id": ("uuid", True), "summary": ("str", False),
                     "status": ("status", False)},
    "annotation": {"target_id": ("uuid", True), "content": ("str", True),
                   "author": ("str", False), "style": ("style", False),
                   "created_at": ("iso", False)},
    "redaction_marker": {"target_id": ("uuid", True), "reason": ("reason", False),
                         "count": ("int", False), "inline": ("bool", False)},
}
# Fields the spec itself defines outside the per-type tables (6.10.2, 9.4).
_SPEC_EXTRA_FIELDS = {"_redacted": "arr", "_encoding_errors": "any"}

_ENDED = {"completed", "cancelled", "error", "timeout", "unknown"}
_STATUS = {"completed", "failed", "cancelled"}
_STYLES = {"highlight", "comment", "pin", "warning", "success"}
_REASONS = {"api_key", "password", "email", "phone", "path", "ip_address", "pii", "custom"}
_NONNEG_INT_FIELDS = {"duration_ms", "entry_count", "original_bytes", "count"}

_SECTION = {
    "session": "6.1", "prompt": "6.2", "thinking": "6.3", "tool_call": "6.4",
    "tool_result": "6.5", "response": "6.6", "error": "6.7", "subagent_start": "6.8.1",
    "subagent_end": "6.8.2", "annotation": "6.9", "redaction_marker": "6.10",
}


class _EntryCheck:
    """Collects the findings for one entry, split by consequence."""
    __slots__ = ("errors", "warnings", "limits_hit", "version_major")

    def __init__(self):
        self.errors = []        # (rule, pointer, message): the entry breaks a MUST
        self.warnings = []      # (rule, pointer, message, severity)
        self.limits_hit = []    # (rule, pointer, message): a resource limit is exceeded
        self.version_major = None

    def err(self, rule, pointer, message):
        self.errors.append((rule, pointer, message))

    def warn(self, rule, pointer, message, severity="warning"):
        self.warnings.append((rule, pointer, message, severity))


def _check_binary(obj, ptr, chk, limits, where):
    if not isinstance(obj, dict):
        chk.err("CR-9.2-binary", ptr, "%s must be a binary object, got %s" % (where, _type_name(obj)))
        return
    if obj.get("type") != "binary":
        chk.err("CR-9.2-binary", ptr + "/type", '%s: binary object "type" MUST be "binary"' % where)
    if type(obj.get("media_type")) is not str:
        chk.err("CR-9.2-binary", ptr + "/media_type",
                "%s: binary object requires a string media_type" % where)
    if obj.get("encoding") != "base64":
        chk.err("CR-9.2-binary", ptr + "/encoding", '%s: binary "encoding" MUST be "base64"' % where)
    data = obj.get("data")
    decoded_len = None
    if type(data) is not str:
        chk.err("CR-9.2-binary", ptr + "/data", "%s: binary object requires a string data" % where)
    else:
        pad = len(data) - len(data.rstrip("="))
        estimate = (len(data) // 4) * 3 - min(pad, 2)
        if estimate > limits["max_base64_bytes"]:
            chk.limits_hit.append(("CR-10.1-max_base64_bytes", ptr + "/data",
                                   "binary data decodes to about %d bytes, over max_base64_bytes=%d"
                                   % (estimate, limits["max_base64_bytes"])))
        else:
            try:
                decoded_len = len(binascii.a2b_base64(data.encode("ascii"), strict_mode=True))
            except (binascii.Error, UnicodeEncodeError, ValueError):
                chk.err("CR-9.2-base64", ptr + "/data",
                        "%s: data is not RFC 4648 base64 (standard alphabet, padded)" % where)
    if "size_bytes" in obj:
        sb = obj["size_bytes"]
        if not _is_int(sb):
            chk.err("CR-9.2-binary", ptr + "/size_bytes", "size_bytes must be an integer")
        elif decoded_len is not None and obj.get("truncated") is not True and \
                type(sb) in (int, Decimal) and sb != decoded_len:
            chk.warn("CR-9.2-size", ptr + "/size_bytes",
                     "size_bytes %s differs from the decoded data length %d" % (sb, decoded_len))
    if "filename" in obj and type(obj["filename"]) is not str:
        chk.err("CR-9.2-binary", ptr + "/filename", "filename must be a string")
    if "truncated" in obj and type(obj["truncated"]) is not bool:
        chk.err("CR-9.2-binary", ptr + "/truncated", "truncated must be a boolean")


def _check_field(kind, name, v, chk, limits, etype):
    ptr = "/" + name
    sec = _SECTION.get(etype, "5") if type(etype) is str else "5"
    rule = "CR-%s-%s" % (sec, name)
    if kind == "uuid":
        if not _is_uuid(v):
            chk.err("CR-5.1-uuid" if name == "id" else rule, ptr,
                    "%s must be a lowercase hyphenated UUID string, got %s" % (name, _short(v)))
    elif kind == "ts":
        if not _is_int(v):
            chk.err("CR-5.2-ts", ptr, "ts must be a non-negative integer, got %s" % _short(v))
        elif not _int_value_ge0(v) and MUTANT != "negative-ts":
            chk.err("CR-5.2-ts", ptr, "ts MUST be >= 0")
        elif not _int_value_le(v, INT64_MAX) and MUTANT != "ts-overflow":
            chk.err("CR-5.2-ts", ptr, "ts must be representable as a 64-bit signed integer")
        elif type(v) is not int:
            chk.warn("CR-8.3-integer", ptr, "integer written with a fraction or exponent", "note")
    elif kind == "str":
        if type(v) is not str:
            chk.err("CR-5.3-type" if name == "type" else rule, ptr,
                    "%s must be a string, got %s" % (name, _type_name(v)))
    elif kind == "int":
        if not _is_int(v):
            chk.err(rule, ptr, "%s must be an integer, got %s" % (name, _short(v)))
        else:
            if name in _NONNEG_INT_FIELDS and not _int_value_ge0(v):
                chk.warn(rule, ptr, "%s is negative" % name)
            if type(v) is not int:
                chk.warn("CR-8.3-integer", ptr, "integer written with a fraction or exponent", "note")
    elif kind == "bool":
        if type(v) is not bool:
            chk.err(rule, ptr, "%s must be a boolean, got %s" % (name, _type_name(v)))
    elif kind == "obj":
        if not isinstance(v, dict):
            chk.err(rule, ptr, "%s must be an object, got %s" % (name, _type_name(v)))
    elif kind == "arr":
        if not isinstance(v, list):
            chk.err(rule, ptr, "%s must be an array, got %s" % (name, _type_name(v)))
    elif kind == "strs":
        if not isinstance(v, list) or any(type(x) is not str for x in v):
            chk.err(rule, ptr, "%s must be an array of strings" % name)
    elif kind == "iso":
        if not _iso8601_ok(v):
            chk.err(rule, ptr, "%s must be an ISO 8601 date-time string, got %s" % (name, _short(v)))
    elif kind == "version":
        if type(v) is not str:
            chk.err("CR-6.1-version", ptr, "version must be a string, got %s" % _type_name(v))
        else:
            m = _VERSION_RE.fullmatch(v)
            if m:
                chk.version_major = int(m.group(1))
            else:
                m = _VERSION_LOOSE_RE.fullmatch(v)
                if m:
                    chk.version_major = int(m.group(1))
                    chk.warn("CR-6.1-version", ptr, "version %r is not of the form MAJOR.MINOR" % v)
                else:
                    chk.err("CR-6.1-version", ptr, "version %r is not a Spool version" % v)
            if chk.version_major == 0:
                chk.warn("CR-7.5-version", ptr, "version %r predates Spool 1.0" % v)
    elif kind == "output":
        if type(v) is str:
            pass
        elif isinstance(v, dict):
            _check_binary(v, ptr, chk, limits, "output")
        else:
            chk.err("CR-6.5-output", ptr, "output must be a string or a binary object, got %s"
                    % _type_name(v))
    elif kind == "attachments":
        if not isinstance(v, list):
            chk.err("CR-9.3-attachments", ptr, "attachments must be an array")
        else:
            for i, a in enumerate(v):
                _check_binary(a, "%s/%d" % (ptr, i), chk, limits, "attachment %d" % i)
    elif kind == "trimmed":
        if not isinstance(v, dict):
            chk.err("CR-6.1.2-trimmed", ptr, "trimmed must be an object")
        else:
            if "original_duration_ms" in v and not _is_int(v["original_duration_ms"]):
                chk.err("CR-6.1.2-trimmed", ptr + "/original_duration_ms", "must be an integer")
            if "kept_range" in v:
                kr = v["kept_range"]
                if not isinstance(kr, list) or len(kr) != 2 or not all(_is_int(x) for x in kr):
                    chk.err("CR-6.1.2-trimmed", ptr + "/kept_range",
                            "kept_range must be a two-element array [start_ms, end_ms]")
            for f in ("original_duration_ms", "kept_range"):
                if f not in v:
                    chk.warn("CR-6.1.2-trimmed", ptr, "trimmed lacks %s" % f)
    elif kind == "ended":
        if type(v) is not str:
            chk.err("CR-6.1.3-ended", ptr, "ended must be a string")
        elif v not in _ENDED:
            chk.err("CR-6.1.3-ended", ptr, "ended %r is not one of %s" % (v, sorted(_ENDED)))
    elif kind == "status":
        if type(v) is not str:
            chk.err("CR-6.8.2-status", ptr, "status must be a string")
        elif v not in _STATUS:
            chk.err("CR-6.8.2-status", ptr, 'status %r is not "completed", "failed" or "cancelled"' % v)
    elif kind == "style":
        if type(v) is not str:
            chk.err("CR-6.9.1-style", ptr, "style must be a string")
        elif v not in _STYLES:
            chk.warn("CR-6.9.1-style", ptr, "unknown annotation style %r" % v)
    elif kind == "reason":
        if type(v) is not str:
            chk.err("CR-6.10.1-reason", ptr, "reason must be a string")
        elif v not in _REASONS:
            chk.warn("CR-6.10.1-reason", ptr, "unknown redaction reason %r" % v)
    # "any": nothing to check


def _short(v):
    """A short, safe rendering of a value for messages (never recurses)."""
    if isinstance(v, (dict, list)):
        return "a JSON %s" % _type_name(v)
    if type(v) is str:
        s = json.dumps(v)
    elif type(v) is _RawNumber:
        s = v.text
    elif v is None or type(v) is bool:
        s = json.dumps(v)
    else:
        s = str(v)
    return s if len(s) <= 60 else s[:57] + "..."


def check_entry(obj, limits, is_first):
    """Check one entry object; returns an _EntryCheck."""
    chk = _EntryCheck()
    etype = obj.get("type")
    spec = _TYPES.get(etype) if type(etype) is str else None
    # duplicate member names: every occurrence of a defined field is checked
    extra_values = []
    if type(obj) is _DupDict:
        seen = set()
        dups = set()
        for k, _ in obj.pairs:
            if k in seen:
                dups.add(k)
            seen.add(k)
        chk.warn("CR-RFC8259-dup-name", "", "repeated member name(s): %s" % ", ".join(sorted(dups)))
        last = {}
        for k, v in obj.pairs:
            if k in dups:
                if k in last:
                    extra_values.append((k, last[k]))
                last[k] = v
    fields = dict(_COMMON)
    if spec:
        fields.update(spec)
    for name, (kind, required) in fields.items():
        if name in obj:
            _check_field(kind, name, obj[name], chk, limits, etype)
        elif required:
            sec = "5.%d" % (1 + ["id", "ts", "type"].index(name)) if name in _COMMON else _SECTION[etype]
            chk.err("CR-%s-%s" % (sec, name), "/" + name,
                    "%s entry lacks the required field %s" % (etype if spec else "an", name))
    for name, v in extra_values:
        if name in fields:
            _check_field(fields[name][0], name, v, chk, limits, etype)
    for name, kind in _SPEC_EXTRA_FIELDS.items():
        if name in obj:
            _check_field(kind, name, obj[name], chk, limits, etype)

    if etype == "session":
        ts = obj.get("ts")
        if _is_int(ts) and ts != 0 and MUTANT != "no-session-ts-check":
            chk.err("CR-6.1-ts", "/ts", "the session entry's ts MUST be 0")
    elif etype == "tool_result":
        has_out, has_err = "output" in obj, "error" in obj
        if has_out == has_err and not (MUTANT == "output-and-error" and has_out):
            chk.err("CR-6.5-output-error", "",
                    "exactly one of output or error MUST be present (found %s)"
                    % ("both" if has_out else "neither"))
    elif etype == "subagent_start":
        if "subagent_id" in obj and "parent_subagent_id" not in obj:
            chk.err("CR-6.8.3-parent", "/parent_subagent_id",
                    "a nested subagent_start (it has subagent_id) MUST include parent_subagent_id")

    # unknown types and fields (section 7): tolerated, flagged if not x_-prefixed
    if spec is None:
        if type(etype) is str and not etype.startswith("x_"):
            chk.warn("CR-7.2-x-prefix", "/type",
                     "unknown entry type %r is not x_-prefixed (custom types MUST be)" % etype)
    else:
        for name in obj:
            if name not in fields and name not in _SPEC_EXTRA_FIELDS and not name.startswith("x_") \
                    and not (etype == "subagent_start" and name == "subagent_id"):
                chk.warn("CR-7.4-x-prefix", "/" + _ptr_escape(name),
                         "unknown field %r is not x_-prefixed (custom fields MUST be)" % name)
    return chk


def _ptr_escape(name):
    return name.replace("~", "~0").replace("/", "~1")


# --------------------------------------------------------------------------
# Findings
# --------------------------------------------------------------------------

class _Findings:
    def __init__(self, cap=MAX_FINDINGS):
        self.items = []
        self.cap = cap
        self.dropped = 0
        self.errors = 0

    def add(self, rule, severity, line=None, message=None, pointer=None):
        if severity == "error":
            self.errors += 1
        if len(self.items) >= self.cap:
            self.dropped += 1
            return
        f = {"rule": rule, "severity": severity}
        if line is not None:
            f["line"] = line
        if pointer:
            f["pointer"] = pointer
        if message:
            f["message"] = message
        self.items.append(f)

    def final(self):
        out = list(self.items)
        if self.dropped:
            out.append({"rule": "CR-findings-cut", "severity": "note",
                        "message": "%d further findings not listed" % self.dropped})
        return out


class Validation:
    def __init__(self, valid, findings):
        self.valid = valid
        self.findings = findings

    def __repr__(self):
        return "Validation(valid=%r, %d findings)" % (self.valid, len(self.findings))


class ReadResult:
    def __init__(self, accepted, entries, findings, reason=None):
        self.accepted = accepted
        self.entries = entries      # list of (line_number, json_text, value)
        self.findings = findings
        self.reason = reason

    def __repr__(self):
        return "ReadResult(accepted=%r, %d entries, reason=%r)" % (
            self.accepted, len(self.entries), self.reason)


def _limits(limits):
    lim = dict(DEFAULT_LIMITS)
    if limits:
        for k, v in limits.items():
            if k not in DEFAULT_LIMITS:
                raise LimitUnsupported("unknown limit %r" % k)
            if type(v) is not int or v < 0:
                raise LimitUnsupported("limit %r must be a non-negative integer" % k)
            lim[k] = v
    return lim


class _Stop(Exception):
    """Processing stops: the file is invalid / rejected as a whole."""


# --------------------------------------------------------------------------
# The shared engine
# --------------------------------------------------------------------------

def _analyze(data, limits, mode, invalid_line="skip", invalid_entry="skip",
             major_version="reject"):
    """mode "validate": judge the file.  mode "read": behave as a reader.

    Returns (ok, entries, findings, reason)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("data must be bytes")
    data = bytes(data)
    lim = _limits(limits)
    F = _Findings()
    V = mode == "validate"
    entries = []            # (line_no, text, obj)
    reason = None

    def fail(rule, line, message, pointer=None):
        F.add(rule, "error", line, message, pointer)
        raise _Stop(message)

    try:
        if len(data) > lim["max_file_bytes"]:
            fail("CR-10.1-max_file_bytes", None, "file is %d bytes, over max_file_bytes=%d"
                 % (len(data), lim["max_file_bytes"]))
        if data.startswith(_BOM):
            data = data[3:]
            if V and MUTANT != "accept-bom":
                F.add("CR-3.4-bom", "error", 1, "file starts with a byte order mark (MUST NOT)")
            else:
                F.add("CR-3.4-bom", "warning", 1, "leading byte order mark ignored")

        lines = data.split(b"\n")
        final_newline = lines[-1] == b""
        if final_newline:
            lines.pop()
        elif MUTANT == "drop-unterminated-line" and not V and len(lines) > 1:
            lines.pop()

        if len(lines) > lim["max_entries"]:
            # Cheap early refusal: count the non-blank lines before parsing any.
            nonblank = sum(1 for ln in lines if ln.strip(b" \t\r"))
            if nonblank > lim["max_entries"]:
                fail("CR-10.1-max_entries", None, "%d entries, over max_entries=%d"
                     % (nonblank, lim["max_entries"]))

        crlf_lines = 0
        lf_lines = 0
        blank_lines = 0
        count = 0
        session_seen = False
        first_nonblank = None
        max_line = lim["max_line_bytes"]
        max_entries = lim["max_entries"]
        max_depth = lim["max_json_depth"]

        for idx, raw in enumerate(lines):
            lineno = idx + 1
            terminated = idx < len(lines) - 1 or final_newline
            if raw.endswith(b"\r") and terminated:
                raw = raw[:-1]
                crlf_lines += 1
                if MUTANT == "reject-crlf" and not V:
                    fail("CR-3.5-crlf", lineno, "CRLF line ending")
            elif terminated:
                lf_lines += 1
            if len(raw) > max_line:
                fail("CR-10.1-max_line_bytes", lineno, "line is %d bytes, over max_line_bytes=%d"
                     % (len(raw), max_line))
            if not raw.strip(b" \t\r"):
                blank_lines += 1
                if MUTANT == "reject-blank-lines" and not V:
                    fail("CR-3.6-blank", lineno, "blank line")
                if V:
                    F.add("CR-3.6-blank", "warning", lineno,
                          "blank line (readers ignore it; each line should hold one JSON object)")
                continue
            count += 1
            if count > max_entries:
                fail("CR-10.1-max_entries", lineno, "more than max_entries=%d entries" % max_entries)
            first = first_nonblank is None
            if first:
                first_nonblank = lineno

            # -- the line as text
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                msg = "line is not valid UTF-8 (byte %d)" % e.start
                if V:
                    F.add("CR-3.4-utf8", "error", lineno, msg)
                    if first:
                        F.add("CR-4.1-session-first", "error", lineno,
                              "the first line is not a session entry")
                    continue
                if first:
                    fail("CR-4.1-session-first", lineno, msg + "; the first line must be the session entry")
                if invalid_line == "reject":
                    fail("CR-11.4.3-invalid-line", lineno, msg)
                F.add("CR-11.4.3-invalid-line", "warning", lineno, msg + "; line skipped")
                continue

            if text[0] in _JSON_WS or text[-1] in _JSON_WS:
                if V:
                    F.add("CR-3.6-whitespace", "error", lineno,
                          "whitespace outside the JSON object on its line")
                text = text.strip(_JSON_WS)

            # -- the line as JSON
            obj = None
            problem = None
            try:
                obj, too_deep = parse_line(text, max_depth)
                if too_deep is not None:
                    fail("CR-10.1-max_json_depth", lineno,
                         "JSON nests deeper than max_json_depth=%d" % max_depth)
            except _InvalidJSON as e:
                problem = "not a JSON text: %s" % e
            except RecursionError:
                # parse_line measures depth first, so this should not happen; never crash.
                fail("CR-10.1-max_json_depth", lineno, "JSON nests too deep to parse")
            if problem is None and not isinstance(obj, dict):
                problem = "the line holds a JSON %s, not an object" % _type_name(obj)
            if problem is not None:
                if V:
                    F.add("CR-3.6-json", "error", lineno, problem)
                    if first:
                        F.add("CR-4.1-session-first", "error", lineno,
                              "the first line is not a session entry")
                    continue
                if first:
                    fail("CR-4.1-session-first", lineno, problem + "; the first line must be the session entry")
                if invalid_line == "reject":
                    fail("CR-11.4.3-invalid-line", lineno, problem)
                F.add("CR-11.4.3-invalid-line", "warning", lineno, problem + "; line skipped")
                continue

            # -- the entry
            chk = check_entry(obj, lim, first)
            if ('\\u' in text and _SURROGATE_ESCAPE_RE.search(text)
                    and _has_lone_surrogate(obj)):
                chk.err("CR-9.1-utf8", "", "a string holds an unpaired surrogate (not valid UTF-8 text)")
            for rule, ptr, msg in chk.limits_hit:
                fail(rule, lineno, msg, ptr)
            etype = obj.get("type")
            if first:
                if etype != "session" and MUTANT != "no-session-first":
                    if V:
                        F.add("CR-4.1-session-first", "error", lineno,
                              "the first entry is not a session entry (type %s)" % _short(etype))
                    else:
                        fail("CR-4.1-session-first", lineno,
                             "the first entry is not a session entry (type %s)" % _short(etype))
                else:
                    session_seen = True
                if chk.version_major is not None and chk.version_major > 1:
                    if major_version == "reject":
                        if V:
                            F.add("CR-7.5-major-version", "error", lineno,
                                  "version %r has a major number above 1" % obj.get("version"), "/version")
                        else:
                            fail("CR-7.5-major-version", lineno,
                                 "version %r has a major number above 1" % obj.get("version"), "/version")
                    else:
                        F.add("CR-7.5-major-version", "warning", lineno,
                              "version %r has a major number above 1" % obj.get("version"), "/version")
            elif etype == "session":
                F.add("CR-6.1-session-repeated", "warning", lineno,
                      "a further session entry after the first line")
            for rule, ptr, msg, sev in chk.warnings:
                F.add(rule, sev, lineno, msg, ptr)
            if chk.errors:
                if V:
                    for rule, ptr, msg in chk.errors:
                        F.add(rule, "error", lineno, msg, ptr)
                else:
                    if first:
                        rule, ptr, msg = chk.errors[0]
                        fail(rule, lineno, "the session entry is invalid: " + msg, ptr)
                    if invalid_entry == "reject":
                        rule, ptr, msg = chk.errors[0]
                        fail(rule, lineno, msg, ptr)
                    if invalid_entry == "skip":
                        for rule, ptr, msg in chk.errors:
                            F.add(rule, "warning", lineno, msg + "; entry skipped", ptr)
                        continue
                    for rule, ptr, msg in chk.errors:
                        F.add(rule, "warning", lineno, msg + "; entry kept", ptr)
            entries.append((lineno, text, obj))

        if first_nonblank is None:
            if MUTANT == "empty-file-valid":
                return True, entries, F.final(), None
            fail("CR-4.3-empty", None, "the file holds no entry (empty or only whitespace)")
        if crlf_lines:
            F.add("CR-3.5-crlf", "warning" if V else "note", None,
                  "%d line(s) end in CRLF%s" % (crlf_lines, " (mixed with LF)" if lf_lines else ""))
        if not V and blank_lines:
            F.add("CR-3.6-blank", "note", None, "%d blank line(s) ignored" % blank_lines)
        if not final_newline and V:
            F.add("CR-3.5-final-newline", "note", len(lines), "the last line has no line ending")

        _cross_checks(entries, lim, F, V, fail)

    except _Stop as e:
        reason = str(e)
        return False, entries, F.final(), reason

    if V:
        ok = F.errors == 0
    else:
        ok = True
    return ok, entries, F.final(), reason


_REF_FIELDS = {
    "call_id": "tool_call", "subagent_id": "subagent_start", "start_id": "subagent_start",
    "parent_subagent_id": "subagent_start", "target_id": None,
}


def _cross_checks(entries, lim, F, V, fail):
    by_id = {}
    for lineno, _text, obj in entries:
        i = obj.get("id")
        if type(i) is not str:
            continue
        if i in by_id:
            if V and MUTANT != "dup-ids-valid":
                F.add("CR-5.1-unique", "error", lineno,
                      "id %s already used on line %d (ids MUST be unique)" % (i, by_id[i][0]))
            else:
                F.add("CR-5.1-unique", "warning", lineno,
                      "id %s already used on line %d" % (i, by_id[i][0]))
        else:
            by_id[i] = (lineno, obj)

    prev_ts = None
    order_warned = False
    for lineno, _text, obj in entries:
        etype = obj.get("type")
        ts = obj.get("ts")
        if _is_int(ts) and type(ts) is not _RawNumber:
            if prev_ts is not None and ts < prev_ts and not order_warned:
                F.add("CR-4.2-order", "warning" if V else "note", lineno,
                      "timestamps are not in non-decreasing order")
                order_warned = True
            prev_ts = ts
        if type(etype) is not str or etype not in _TYPES:
            continue
        for field, want in _REF_FIELDS.items():
            if field not in obj or field not in _TYPES[etype]:
                continue
            ref = obj[field]
            if type(ref) is not str:
                continue
            target = by_id.get(ref)
            if target is None:
                rule = "CR-6.10.3-orphan" if etype == "redaction_marker" else "CR-ref-unresolved"
                F.add(rule, "warning", lineno, "%s %s names no entry of this file" % (field, ref),
                      "/" + field)
                continue
            tobj = target[1]
            if want is not None and tobj.get("type") != want:
                F.add("CR-ref-type", "warning", lineno, "%s %s names a %s entry, not a %s"
                      % (field, ref, _short(tobj.get("type")), want), "/" + field)
            if etype in ("annotation", "redaction_marker") and field == "target_id":
                if tobj.get("ts") != ts and _is_int(ts):
                    F.add("CR-%s-ts" % _SECTION[etype], "note", lineno,
                          "ts should match the target entry's ts", "/ts")
                if etype == "redaction_marker" and obj.get("inline") is True and "_redacted" not in tobj:
                    F.add("CR-6.10.2-inline", "warning", lineno,
                          "inline marker, but the target has no _redacted metadata")

    if entries:
        session = entries[0][2]
        ec = session.get("entry_count")
        if type(ec) is int and ec != len(entries) and V:
            F.add("CR-6.1-entry_count", "warning", entries[0][0],
                  "entry_count is %d, the file holds %d entries" % (ec, len(entries)), "/entry_count")

    # subagent nesting depth (10.1): follow parent_subagent_id chains
    max_sub = lim["max_subagent_depth"]
    depth_of = {}
    for lineno, _text, obj in entries:
        if obj.get("type") != "subagent_start":
            continue
        chain = []
        seen = set()
        cur = obj
        depth = None
        while True:
            cid = cur.get("id")
            if type(cid) is str and cid in depth_of:
                depth = depth_of[cid]
                break
            if id(cur) in seen:
                fail("CR-10.1-max_subagent_depth", lineno,
                     "parent_subagent_id chain forms a cycle (unbounded nesting)")
            seen.add(id(cur))
            chain.append(cur)
            if len(chain) > max_sub:
                fail("CR-10.1-max_subagent_depth", lineno,
                     "subagents nest more than max_subagent_depth=%d deep" % max_sub)
            parent = cur.get("parent_subagent_id")
            nxt = by_id.get(parent) if type(parent) is str else None
            if nxt is None or nxt[1].get("type") != "subagent_start":
                depth = 0
                break
            cur = nxt[1]
        for c in reversed(chain):
            depth += 1
            if depth > max_sub:
                fail("CR-10.1-max_subagent_depth", lineno,
                     "subagents nest more than max_subagent_depth=%d deep" % max_sub)
            cid = c.get("id")
            if type(cid) is str:
                depth_of[cid] = depth


# --------------------------------------------------------------------------
# Public operations
# --------------------------------------------------------------------------

def validate(data, limits=None, major_version="reject"):
    ok, _entries, findings, _reason = _analyze(data, limits, "validate",
                                               major_version=major_version)
    return Validation(ok, findings)


def read(data, limits=None, invalid_line="skip", invalid_entry="skip", major_version="reject"):
    if invalid_line not in ("skip", "reject"):
        raise ValueError("invalid_line must be skip or reject")
    if invalid_entry not in ("skip", "reject", "keep"):
        raise ValueError("invalid_entry must be skip, reject or keep")
    if major_version not in ("reject", "accept"):
        raise ValueError("major_version must be reject or accept")
    ok, entries, findings, reason = _analyze(data, limits, "read", invalid_line,
                                             invalid_entry, major_version)
    if not ok:
        return ReadResult(False, [], findings, reason)
    if MUTANT == "drop-unknown-types":
        entries = [e for e in entries if e[2].get("type") in _TYPES]
    if MUTANT == "drop-orphan-markers":
        ids = {e[2].get("id") for e in entries}
        entries = [e for e in entries if not (e[2].get("type") == "redaction_marker"
                                              and e[2].get("target_id") not in ids)]
    return ReadResult(True, entries, findings, None)


def _entry_line(text):
    """One entry as a writer writes it: the reader's JSON text, kept verbatim
    (member order, number spelling, escapes and repeated names survive), with
    insignificant whitespace removed only if it holds a carriage return."""
    if "\r" in text or "\n" in text:
        text = _WS_OUTSIDE_STRINGS_RE.sub(lambda m: m.group(1) or "", text)
    return text


def write(entries):
    """Write entries as a Spool file: UTF-8, no BOM, one JSON object per line,
    every line ended by LF.  ``entries`` holds JSON texts, or (line, text, value)
    tuples as ReadResult.entries does."""
    out = []
    for e in entries:
        text = e[1] if isinstance(e, tuple) else e
        if MUTANT == "drop-unknown-fields" and isinstance(e, tuple):
            obj = e[2]
            etype = obj.get("type")
            if etype in _TYPES:
                keep = set(_COMMON) | set(_TYPES[etype])
                text = json.dumps({k: v for k, v in obj.items() if k in keep},
                                  ensure_ascii=False, separators=(",", ":"), default=str)
        out.append(_entry_line(text))
    body = "\n".join(out) + "\n" if out else ""
    encoded = body.encode("utf-8")
    if MUTANT == "writer-bom":
        encoded = _BOM + encoded
    return encoded


def roundtrip(data, limits=None, invalid_line="skip", invalid_entry="skip", major_version="reject"):
    r = read(data, limits, invalid_line, invalid_entry, major_version)
    if not r.accepted:
        return r, None
    return r, write(r.entries)


if __name__ == "__main__":                       # small CLI: spool_cr.py FILE...
    rc = 0
    for path in sys.argv[1:]:
        with open(path, "rb") as fh:
            v = validate(fh.read())
        print("%s: %s" % (path, "valid" if v.valid else "invalid"))
        for f in v.findings:
            print("  %s %s line %s: %s" % (f["severity"], f["rule"], f.get("line"), f.get("message", "")))
        rc |= 0 if v.valid else 1
    sys.exit(rc)
