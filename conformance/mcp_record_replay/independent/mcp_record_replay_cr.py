"""Clean-room implementation of the ThoughtJack record/replay recording format
(TJ-SPEC-010 v0.3.0, "Record and Replay").

Python 3.11, standard library only.  Three entry points:

* ``validate(data)``            judges a recording file (bytes) -> Report
* ``load(data, ...)``           loads a recording for replay/convert -> Recording
                                 (raises RecordingRefused)
* ``Replayer`` / ``replay(...)`` plays a loaded recording as a mock MCP server
* ``convert(recording, ...)``   writes a ThoughtJack attack config as YAML text

See README.md next to this file for every reading taken where the spec is
silent or ambiguous.
"""

from __future__ import annotations

import calendar
import gc
import hashlib
import json
import os
import re
import time
from decimal import Decimal

__all__ = [
    "MAX_DEPTH", "MAX_FINDINGS", "Finding", "Report", "Recording", "RecordingRefused",
    "UsageError", "validate", "load", "Replayer", "replay", "convert", "dumps",
    "parse_json_line",
]

# Read once, at import.  Unset (or empty) means the frozen, intended behaviour.
MUTANT = os.environ.get("ARCS_MUTANT", "")

#: Deepest container nesting accepted in one line (the entry object counts as
#: level 1).  128 is serde_json's default recursion limit, i.e. what the Rust
#: data model of the spec (§F-002 "Serde Representation") would accept.
MAX_DEPTH = 128
#: validate stops checking after this many errors (the verdict is settled).
MAX_FINDINGS = 1000
#: Seconds one validate/load may spend on the lines before it gives up (the
#: runner's per-case timeout is 10 s).  None: no limit.
TIME_BUDGET = 4.0

SUPPORTED_VERSION = "1.0"
BOM = b"\xef\xbb\xbf"
U64_MAX = 2 ** 64 - 1


# --------------------------------------------------------------------------
# findings / reports


class Finding(dict):
    """A finding in the runner's shape: rule, severity, line, message, pointer."""

    def __init__(self, rule, severity, message, line=None, pointer=None):
        super().__init__(rule=rule, severity=severity, message=message)
        if line is not None:
            self["line"] = line
        if pointer is not None:
            self["pointer"] = pointer

    @property
    def is_error(self):
        return self["severity"] == "error"


class Report:
    def __init__(self, findings):
        self.findings = findings

    @property
    def valid(self):
        return not any(f.is_error for f in self.findings)

    @property
    def errors(self):
        return [f for f in self.findings if f.is_error]

    def rules(self, severity=None):
        return {f["rule"] for f in self.findings if severity is None or f["severity"] == severity}


class RecordingRefused(Exception):
    def __init__(self, message, findings=()):
        super().__init__(message)
        self.findings = list(findings)


class UsageError(Exception):
    """The command-line arguments cannot work (bad value, passthrough without upstream)."""


class _Stop(Exception):
    pass


# --------------------------------------------------------------------------
# JSON parsing


class _JSONSyntax(ValueError):
    pass


def _no_constant(name):
    raise _JSONSyntax(f"{name} is not a JSON value (RFC 8259 §6)")


def _parse_int(text):
    # CPython refuses int() of more than 4300 digits; keep such numbers exact
    # as Decimal instead of failing on valid JSON.
    if len(text) > 4000:
        return Decimal(text)
    return int(text)


def _depth_exceeds(value, limit: int) -> bool:
    """True when containers nest deeper than ``limit`` (the value itself is 1)."""
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return True
        for x in (v.values() if isinstance(v, dict) else v):
            if isinstance(x, (dict, list)):
                stack.append((x, d + 1))
    return False


class ParsedLine:
    __slots__ = ("value", "top_dups", "lone_surrogate")

    def __init__(self, value, top_dups, lone_surrogate):
        self.value = value
        self.top_dups = top_dups
        self.lone_surrogate = lone_surrogate


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE = re.compile("[\ud800-\udfff]")


def _has_lone_surrogate(value) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _LONE.search(v):
                return True
        elif isinstance(v, dict):
            for k, x in v.items():
                if _LONE.search(k):
                    return True
                stack.append(x)
        elif isinstance(v, list):
            stack.extend(v)
    return False


# One decoder for the common case (C speed); a second one only for integers
# of more than 4300 digits, which CPython's int() refuses by default.
_DECODER = json.JSONDecoder(parse_float=Decimal, parse_constant=_no_constant)
_DECODER_BIG = json.JSONDecoder(parse_float=Decimal, parse_int=_parse_int,
                                parse_constant=_no_constant)


def _decode(decoder, text):
    try:
        return decoder.decode(text)
    except _JSONSyntax:
        raise
    except RecursionError:
        raise _JSONSyntax(f"nesting too deep (resource limit {MAX_DEPTH})") from None
    except json.JSONDecodeError as e:
        raise _JSONSyntax(str(e)) from None
    except ValueError as e:
        if decoder is _DECODER and "digits" in str(e):
            return _decode(_DECODER_BIG, text)
        raise _JSONSyntax(str(e)) from None


def _top_level_duplicates(text):
    last = [()]

    def hook(pairs):
        last[0] = pairs  # objects complete inside-out: the last one is the top level
        return dict(pairs)

    dec = json.JSONDecoder(object_pairs_hook=hook, parse_float=Decimal, parse_int=_parse_int,
                           parse_constant=_no_constant)
    dec.decode(text)
    seen, dups = set(), set()
    for k, _ in last[0]:
        if k in seen:
            dups.add(k)
        seen.add(k)
    return sorted(dups)


def parse_json_line(text: str) -> ParsedLine:
    """Parse one JSON text exactly: NaN/Infinity refused, numbers kept exact
    (floats as Decimal), duplicate member names of the top-level object noted
    (the last one wins), depth limited to MAX_DEPTH.  Raises _JSONSyntax."""
    value = _decode(_DECODER, text)
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth_exceeds(value, MAX_DEPTH):
        raise _JSONSyntax(f"nesting deeper than {MAX_DEPTH} levels (resource limit)")
    top = []
    if isinstance(value, dict) and (
            "\\u" in text or '\\"' in text
            or sum(map(text.count, map('"%s"'.__mod__, value))) > len(value)):
        top = _top_level_duplicates(text)  # slow path, only when a name may repeat
    lone = "\\u" in text and bool(_SURROGATE_ESCAPE.search(text)) and _has_lone_surrogate(value)
    return ParsedLine(value, top, lone)


# --------------------------------------------------------------------------
# JSON writing (exact numbers, ASCII-safe)


def dumps(value) -> str:
    """Compact JSON text; Decimal numbers are written with their exact value."""
    parts = []
    _dump(value, parts.append)
    return "".join(parts)


def _dump(v, out):
    if v is None:
        out("null")
    elif v is True:
        out("true")
    elif v is False:
        out("false")
    elif isinstance(v, str):
        out(json.dumps(v))
    elif isinstance(v, int):
        out(int.__repr__(v))
    elif isinstance(v, Decimal):
        out(str(v))
    elif isinstance(v, float):
        out(repr(v))
    elif isinstance(v, dict):
        out("{")
        first = True
        for k, x in v.items():
            if not first:
                out(",")
            first = False
            out(json.dumps(k))
            out(":")
            _dump(x, out)
        out("}")
    elif isinstance(v, (list, tuple)):
        out("[")
        for i, x in enumerate(v):
            if i:
                out(",")
            _dump(x, out)
        out("]")
    else:  # pragma: no cover
        raise TypeError(f"cannot serialise {type(v).__name__}")


# --------------------------------------------------------------------------
# field checks


_DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
    r"(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))", re.ASCII)
_VERSION = re.compile(r"[0-9]+\.[0-9]+", re.ASCII)


_DIRS = ("c2s", "s2c")
_DT_CACHE = {}


def is_date_time(s) -> bool:
    """RFC 3339 §5.6 ``date-time`` (JSON Schema ``format: date-time``)."""
    if not isinstance(s, str):
        return False
    r = _DT_CACHE.get(s)
    if r is None:
        if len(_DT_CACHE) > 100000:
            _DT_CACHE.clear()
        r = _DT_CACHE[s] = _is_date_time(s)
    return r


def _is_date_time(s) -> bool:
    m = _DATE_TIME.fullmatch(s)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    if not 1 <= month <= 12:
        return False
    if MUTANT == "feb-30":
        if not 1 <= day <= 31:
            return False
    elif not 1 <= day <= calendar.monthrange(year, month)[1]:
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    if m.group(8) is not None and (int(m.group(8)) > 23 or int(m.group(9)) > 59):
        return False
    return True


def is_u64(v) -> bool:
    """A JSON integer the schema accepts (``"type": "integer", "minimum": 0``)
    that the Rust model (``u64``) can also hold: no fraction, no exponent."""
    if MUTANT == "bool-int" and isinstance(v, bool):
        return True
    return type(v) is int and 0 <= v <= U64_MAX


def _describe(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, Decimal)):
        return f"the number {v}"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


# --------------------------------------------------------------------------
# the recording


class Recording:
    def __init__(self, header, messages, footer, findings):
        self.header = header          # dict
        self.messages = messages      # list of message entry dicts, file order
        self.footer = footer          # dict or None (EC-REC-011)
        self.findings = findings      # warnings/notes met while loading


def _analyse(data: bytes, loading: bool, bom: str = "ignore", blank_lines: str = "ignore"):
    """Shared engine of validate() and load().

    validate (loading=False): every problem of the file is reported.
    load (loading=True): fails fast on the first error, but tolerates what a
    reader must tolerate (EC-REC-002 truncated final line, EC-REC-011 missing
    footer) and what the declared policies allow (bom, blank_lines).
    Returns (findings, header, messages, footer)."""
    findings = []
    n_errors = [0]

    dropped = [0]

    def add(rule, severity, message, line=None, pointer=None):
        if severity != "error" and len(findings) >= MAX_FINDINGS:
            dropped[0] += 1  # bounded memory on huge recordings
            return
        f = Finding(rule, severity, message, line, pointer)
        findings.append(f)
        if severity == "error":
            if loading:
                raise _Stop()
            n_errors[0] += 1
            if n_errors[0] >= MAX_FINDINGS:
                findings.append(Finding("CR-too-many-errors", "note",
                                        f"stopped after {MAX_FINDINGS} errors"))
                raise _Stop()

    header = None
    messages = []
    footer = None
    footer_line = None
    first_entry_seen = False
    seqs = set()
    last_seq = None
    n_c2s = n_s2c = 0

    deadline = None if TIME_BUDGET is None else time.monotonic() + TIME_BUDGET
    try:
        if data.startswith(BOM):
            if loading and bom == "ignore":
                add("CR-bom", "warning", "UTF-8 byte order mark ignored (policy bom: ignore)", 1)
            else:
                add("CR-bom", "error",
                    "the recording starts with a byte order mark (RFC 8259 §8.1: MUST NOT add one)", 1)
            data = data[len(BOM):]
        if not data:
            add("F-002", "error", "empty file: no metadata header (\"Line 1: Metadata header\")")
            raise _Stop()

        # fast whole-file decode; per-line decoding only when it fails
        try:
            lines = data.decode("utf-8").split("\n")
            is_text = True
        except UnicodeDecodeError:
            lines = data.split(b"\n")
            is_text = False
        terminated = not lines[-1]
        if terminated:
            lines.pop()
        n_lines = len(lines)

        for i, text in enumerate(lines):
            lineno = i + 1
            if deadline is not None and not (i & 1023) and time.monotonic() > deadline:
                findings.append(Finding(
                    "CR-time-limit", "error",
                    f"stopped at line {lineno} of {n_lines}: time limit of {TIME_BUDGET} s "
                    "(resource limit)", lineno))
                raise _Stop()
            unterminated_last = i == n_lines - 1 and not terminated
            if not is_text:
                try:
                    text = text.decode("utf-8")
                except UnicodeDecodeError as e:
                    if unterminated_last and text.rstrip(b"\r").strip(b" \t"):
                        _truncated(add, loading, lineno, f"invalid UTF-8 ({e.reason})")
                        continue
                    add("CR-utf8", "error", f"invalid UTF-8 at byte {e.start}: {e.reason}", lineno)
                    continue
            if text.endswith("\r"):
                text = text[:-1]
            # blank lines
            if not text.strip(" \t\r"):
                if loading and blank_lines == "ignore":
                    continue
                add("CR-blank-line", "error",
                    "empty line: every line of a recording holds one JSON object "
                    "(F-002 \"One JSON object per line\")", lineno)
                continue
            if "\r" in text:
                add("NFR-003", "error",
                    "carriage return inside a line (NDJSON: JSON texts MUST NOT contain "
                    "newlines or carriage returns)", lineno)
                continue
            try:
                if text.lstrip(" \t")[:1] != "{":
                    add("F-002", "error", "line is not a JSON object", lineno)
                    continue
                parsed = parse_json_line(text)
            except _JSONSyntax as e:
                if unterminated_last and "resource limit" not in str(e):
                    _truncated(add, loading, lineno, str(e))
                    continue
                add("NFR-003", "error", f"line is not one JSON text: {e}", lineno)
                continue
            obj = parsed.value
            if not isinstance(obj, dict):
                add("F-002", "error", f"line holds {_describe(obj)}, not a JSON object", lineno)
                continue
            if unterminated_last:
                add("CR-final-newline", "warning",
                    "last line is not ended by a newline (NDJSON: each JSON text MUST be followed by \\n)",
                    lineno)
            if parsed.top_dups:
                add("CR-duplicate-name", "error",
                    "duplicate member name(s) in the entry: "
                    + ", ".join(sorted(set(parsed.top_dups))), lineno)
            if parsed.lone_surrogate:
                add("CR-lone-surrogate", "warning",
                    "a string holds an unpaired UTF-16 surrogate escape (RFC 8259 §8.2)", lineno)

            kind = obj.get("type")
            if "type" not in obj:
                add("F-002", "error", "entry has no \"type\" member", lineno, "/type")
                continue
            if kind not in ("header", "message", "footer"):
                if MUTANT == "unknown-type-ok":
                    continue
                add("F-002", "error",
                    f"unknown entry type {dumps(kind)} (one of header, message, footer)", lineno, "/type")
                continue

            if footer is not None and MUTANT != "after-footer":
                add("F-002", "error",
                    f"entry after the footer of line {footer_line} (\"Final line: Footer\")", lineno)

            if kind == "header":
                if first_entry_seen:
                    add("F-002", "error",
                        "header is not the first line (\"Line 1: Metadata header\")", lineno)
                first_entry_seen = True
                _check_header(obj, add, lineno)
                if header is None:
                    header = obj
                continue

            if not first_entry_seen:
                first_entry_seen = True
                if MUTANT != "no-header-ok":
                    add("F-002", "error",
                        "the first line is not the metadata header (\"Line 1: Metadata header\")", lineno)

            if kind == "message":
                ok = _check_message(obj, add, lineno)
                if ok:
                    seq = obj["seq"]
                    if seq in seqs:
                        add("CR-seq-unique", "error", f"seq {seq} is used twice", lineno, "/seq")
                    elif last_seq is not None and seq < last_seq:
                        add("CR-seq-order", "warning",
                            f"seq {seq} is lower than the previous {last_seq}", lineno, "/seq")
                    seqs.add(seq)
                    last_seq = seq
                    if obj["dir"] == "c2s":
                        n_c2s += 1
                    else:
                        n_s2c += 1
                    messages.append(obj)
                continue

            # footer
            if footer is not None:
                add("F-002", "error", f"second footer (first on line {footer_line})", lineno)
                continue
            if _check_footer(obj, add, lineno):
                footer = obj
                footer_line = lineno

        if not first_entry_seen:
            add("F-002", "error", "no metadata header (\"Line 1: Metadata header\")")
        if footer is None:
            add("EC-REC-011", "error" if MUTANT == "footer-required" else "note",
                "no footer (unclean shutdown): footer fields unavailable")
        else:
            total = n_c2s + n_s2c
            for field, actual in (("total_messages", total), ("client_messages", n_c2s),
                                  ("server_messages", n_s2c)):
                if footer[field] != actual:
                    add("CR-footer-count", "error",
                        f"footer {field} is {footer[field]} but the recording holds {actual}",
                        footer_line, "/" + field)
    except _Stop:
        pass
    if dropped[0]:
        findings.append(Finding("CR-too-many-findings", "note",
                                f"{dropped[0]} further warnings/notes not listed"))
    return findings, header, messages, footer


def _truncated(add, loading, lineno, why):
    if loading and MUTANT != "truncated-refused":
        add("EC-REC-002", "warning",
            f"final line is truncated (crash during record) and skipped: {why}", lineno)
    else:
        add("EC-REC-002", "error",
            f"final line is truncated (crash during record): {why}", lineno)


def _require(obj, name, add, lineno, what):
    if name not in obj:
        add("F-002", "error", f"{what} lacks the required member \"{name}\"", lineno, "/" + name)
        return False
    return True


def _check_header(obj, add, lineno):
    for name in ("version", "recorded_at", "upstream", "thoughtjack_version"):
        if not _require(obj, name, add, lineno, "header"):
            continue
        v = obj[name]
        if not isinstance(v, str):
            add("F-002", "error", f"header {name} must be a string, not {_describe(v)}", lineno, "/" + name)
            continue
        if name == "version":
            if not _VERSION.fullmatch(v):
                add("F-002", "error",
                    f"header version {dumps(v)} does not match ^\\d+\\.\\d+$", lineno, "/version")
                continue
            if v != SUPPORTED_VERSION and MUTANT != "any-version":
                add("EC-REC-008", "error",
                    f"recording version {v} is not supported (this implementation reads {SUPPORTED_VERSION})",
                    lineno, "/version")
        elif name == "recorded_at" and not is_date_time(v):
            add("F-002", "error", f"header recorded_at {dumps(v)} is not an RFC 3339 date-time",
                lineno, "/recorded_at")
    if "name" in obj and not isinstance(obj["name"], str):
        add("F-002", "error", f"header name must be a string, not {_describe(obj['name'])}", lineno, "/name")
    if "tags" in obj:
        tags = obj["tags"]
        if not isinstance(tags, list):
            add("F-002", "error", f"header tags must be an array, not {_describe(tags)}", lineno, "/tags")
        else:
            for j, t in enumerate(tags):
                if not isinstance(t, str):
                    add("F-002", "error", f"header tags[{j}] must be a string, not {_describe(t)}",
                        lineno, f"/tags/{j}")


def _check_message(obj, add, lineno) -> bool:
    # fast path: the common, fully valid entry
    seq = obj.get("seq")
    m = obj.get("msg")
    lat = obj.get("latency_ms", 0)
    if (type(seq) is int and 0 <= seq <= U64_MAX and obj.get("dir") in _DIRS
            and type(m) is dict and type(lat) is int and 0 <= lat <= U64_MAX
            and is_date_time(obj.get("ts"))):
        if m.get("jsonrpc") != "2.0" or not (
                type(m.get("method")) is str or ("method" not in m and "id" in m and ("result" in m) != ("error" in m))):
            _check_jsonrpc(m, add, lineno)
        return True
    ok = True
    for name in ("seq", "ts", "dir", "msg"):
        if MUTANT == "ts-optional" and name == "ts":
            continue
        if not _require(obj, name, add, lineno, "message"):
            ok = False
    if "seq" in obj and not is_u64(obj["seq"]):
        add("F-002", "error",
            f"seq must be a non-negative integer (u64), not {_describe(obj['seq'])}", lineno, "/seq")
        ok = False
    if "ts" in obj and not is_date_time(obj["ts"]):
        add("F-002", "error", f"ts {dumps(obj['ts'])} is not an RFC 3339 date-time", lineno, "/ts")
        ok = False
    if "dir" in obj:
        d = obj["dir"]
        allowed = ("c2s", "s2c", "C2S", "S2C") if MUTANT == "dir-case" else ("c2s", "s2c")
        if not isinstance(d, str) or d not in allowed:
            add("F-002", "error", f"dir must be \"c2s\" or \"s2c\", not {dumps(d)}", lineno, "/dir")
            ok = False
        elif MUTANT == "dir-case":
            obj["dir"] = d.lower()
    if "msg" in obj:
        m = obj["msg"]
        if not isinstance(m, dict) and not (MUTANT == "msg-array" and isinstance(m, list)):
            add("F-002", "error", f"msg must be a JSON object (a JSON-RPC message), not {_describe(m)}",
                lineno, "/msg")
            ok = False
        elif isinstance(m, dict):
            _check_jsonrpc(m, add, lineno)
    if "latency_ms" in obj:
        lat = obj["latency_ms"]
        bad = not is_u64(lat)
        if MUTANT == "negative-latency" and type(lat) is int:
            bad = False
        if bad:
            add("F-002", "error",
                f"latency_ms must be a non-negative integer, not {_describe(lat)}", lineno, "/latency_ms")
            ok = False
    return ok


def _check_footer(obj, add, lineno) -> bool:
    ok = True
    for name in ("total_messages", "duration_ms", "client_messages", "server_messages"):
        if not _require(obj, name, add, lineno, "footer"):
            ok = False
        elif not is_u64(obj[name]):
            add("F-002", "error",
                f"footer {name} must be a non-negative integer, not {_describe(obj[name])}",
                lineno, "/" + name)
            ok = False
    return ok


def _check_jsonrpc(m, add, lineno):
    if m.get("jsonrpc") != "2.0":
        add("CR-jsonrpc", "warning", "msg.jsonrpc is not \"2.0\"", lineno, "/msg/jsonrpc")
    if "method" in m:
        if not isinstance(m["method"], str):
            add("CR-jsonrpc", "warning", "msg.method is not a string", lineno, "/msg/method")
    elif "id" in m and ("result" in m) != ("error" in m):
        pass  # a response
    else:
        add("CR-jsonrpc", "warning",
            "msg is neither a request, a notification nor a response", lineno, "/msg")


def _analyse_nogc(data, loading, **kw):
    # millions of small containers: the cyclic GC would rescan them again and
    # again (none of them can form a cycle)
    was = gc.isenabled()
    gc.disable()
    try:
        return _analyse(data, loading, **kw)
    finally:
        if was:
            gc.enable()


def validate(data: bytes) -> Report:
    findings, *_ = _analyse_nogc(data, loading=False)
    return Report(findings)


def load(data: bytes, bom: str = "ignore", blank_lines: str = "ignore") -> Recording:
    """Load a recording for replay or convert ("Validates recording on load
    (fails fast on corrupt file)")."""
    findings, header, messages, footer = _analyse_nogc(data, loading=True, bom=bom, blank_lines=blank_lines)
    errors = [f for f in findings if f.is_error]
    if errors or header is None:
        msg = errors[0]["message"] if errors else "no metadata header"
        raise RecordingRefused(msg, findings)
    return Recording(header, messages, footer, findings)


# --------------------------------------------------------------------------
# request / response pairing


def _is_request(m) -> bool:
    return isinstance(m, dict) and isinstance(m.get("method"), str) and "id" in m


def _is_response(m) -> bool:
    return (isinstance(m, dict) and "method" not in m and "id" in m
            and (("result" in m) or ("error" in m)))


def _id_key(v):
    # JSON-RPC ids: 1 and "1" are different ids; 1 and 1.0 the same value
    if isinstance(v, bool) or v is None:
        return ("lit", v)
    if isinstance(v, (int, Decimal)):
        return ("num", _number_key(v))
    if isinstance(v, str):
        return ("str", v)
    return ("other", dumps(v))


def pair_exchanges(messages):
    """[(request_msg, response_entry_or_None)] for every c2s request, in
    recorded order, plus the list of s2c responses in recorded order.  A
    response answers the earliest still-unanswered earlier request with the
    same id (EC-REC-003: duplicate ids are answered first-in, first-out)."""
    pairs = []
    pending = {}
    responses = []
    for entry in messages:
        m = entry.get("msg")
        if entry["dir"] == "c2s" and _is_request(m):
            slot = [m, None]
            pairs.append(slot)
            pending.setdefault(_id_key(m["id"]), []).append(slot)
        elif entry["dir"] == "s2c" and _is_response(m):
            responses.append(entry)
            queue = pending.get(_id_key(m["id"]))
            if queue:
                slot = queue.pop(0)
                slot[1] = entry
    return [tuple(p) for p in pairs], responses


# --------------------------------------------------------------------------
# canonical params (by-request key)


def _number_key(v) -> str:
    d = Decimal(v) if not isinstance(v, Decimal) else v
    if d == 0:
        return "0"
    sign, digits, exp = d.as_tuple()
    digits = list(digits)
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
        exp += 1
    return ("-" if sign else "") + "".join(map(str, digits)) + "e" + str(exp)


def _canon(v):
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + _canon(v[k]) for k in sorted(v)) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_canon(x) for x in v) + "]"
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, (int, Decimal)):
        return _number_key(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=True)
    return json.dumps(v)


def _params_without_meta(m):
    p = m.get("params", {})
    if isinstance(p, dict) and "_meta" in p:
        p = {k: v for k, v in p.items() if k != "_meta"}
    return p


def request_key(m) -> str:
    """method + SHA-256 of the params, canonical (sorted keys, numbers by value),
    without params._meta; absent params count as {}."""
    if MUTANT == "by-request-method-only":
        return m["method"]
    p = _params_without_meta(m)
    h = hashlib.sha256(_canon(p).encode("utf-8", "surrogatepass")).hexdigest()
    return m["method"] + "\x00" + h


def _leaves(v, path=(), out=None):
    if out is None:
        out = set()
    if isinstance(v, dict) and v:
        for k, x in v.items():
            _leaves(x, path + (k,), out)
    elif isinstance(v, list) and v:
        for i, x in enumerate(v):
            _leaves(x, path + (i,), out)
    else:
        out.add((path, _canon(v)))
    return out


# --------------------------------------------------------------------------
# replay


MATCH_MODES = ("sequential", "by-request", "fuzzy")
UNMATCHED = ("error", "warn", "passthrough")
_SCALED = re.compile(r"scaled:([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?", re.ASCII)


def parse_timing(t):
    if t == "instant" or t == "realistic":
        return (t, None)
    if isinstance(t, str):
        m = _SCALED.fullmatch(t)
        if m:
            f = float(t[len("scaled:"):])
            if f == f and f != float("inf"):
                return ("scaled", f)
    raise UsageError(f"--timing: invalid value {t!r} (instant, realistic, scaled:N with N >= 0)")


class PassthroughNeeded(Exception):
    """An unmatched request would be forwarded to the upstream."""


class Replayer:
    """The replay server of §F-003, played in-process.

    ``handle_line(text)`` returns the list of JSON-RPC messages (dicts) the
    server writes for one line of client input; ``self.exited`` becomes True
    when the server stops on its own (on_unmatched: error)."""

    def __init__(self, recording: Recording, match_mode="sequential", timing="instant",
                 on_unmatched="error", upstream=None):
        if match_mode not in MATCH_MODES:
            raise UsageError(f"--match-mode: invalid value {match_mode!r}")
        if on_unmatched not in UNMATCHED:
            raise UsageError(f"--on-unmatched: invalid value {on_unmatched!r}")
        self.timing = parse_timing(timing)  # delays are computed, not slept (see README)
        if on_unmatched == "passthrough" and upstream is None:
            raise UsageError("--on-unmatched passthrough needs --upstream")
        self.mode = match_mode
        self.on_unmatched = on_unmatched
        self.upstream = upstream
        self.exited = False
        self.log = []  # (level, text): what a real server would log
        pairs, responses = pair_exchanges(recording.messages)
        # sequential: recorded responses in recorded order
        self._seq = [e for e in responses]
        self._seq_pos = 0
        # by-request: FIFO queue per (method, params hash)
        self._queues = {}
        # fuzzy: unused exchanges in recorded order, per method
        self._by_method = {}
        for req, resp in pairs:
            if resp is None:
                continue
            self._queues.setdefault(request_key(req), []).append(resp)
            self._by_method.setdefault(req["method"], []).append([req, resp, False])

    # -- matching ---------------------------------------------------------
    def _find(self, req):
        if self.mode == "sequential":
            if self._seq_pos < len(self._seq):
                e = self._seq[self._seq_pos]
                self._seq_pos += 1
                return e
            return None
        if self.mode == "by-request":
            q = self._queues.get(request_key(req))
            if q:
                return q.pop(0)
            return None
        return self._fuzzy(req)

    def _fuzzy(self, req):
        cands = self._by_method.get(req["method"])
        if not cands:
            return None
        p = _params_without_meta(req)
        key = _canon(p)
        # an exact match first
        for c in cands:
            if not c[2] and _canon(_params_without_meta(c[0])) == key:
                c[2] = True
                return c[1]
        mine = _leaves(p)
        ident = _identity(p)
        best, best_score, ties = None, -1.0, 0
        for c in cands:
            if c[2]:
                continue
            q = _params_without_meta(c[0])
            if _identity(q) != ident:
                continue
            theirs = _leaves(q)
            union = len(mine | theirs)
            score = len(mine & theirs) / union if union else 1.0
            if score > best_score:
                best, best_score, ties = c, score, 0
            elif score == best_score:
                ties += 1
        if best is None:
            return None
        if ties:
            self.log.append(("debug", f"fuzzy match ambiguous for {req['method']}: first of {ties + 1} used"))
        best[2] = True
        return best[1]

    # -- serving ----------------------------------------------------------
    def handle_line(self, line: str):
        if self.exited:
            return []
        if line.strip(" \t\r") == "":
            return []
        try:
            m = parse_json_line(line).value
        except _JSONSyntax as e:
            return [_error(None, -32700, f"Parse error: {e}")]
        if not isinstance(m, dict):
            return [_error(None, -32600, "Invalid Request")]
        if "method" not in m:
            if _is_response(m):
                return []  # the client answering a server request: nothing to send
            return [_error(m.get("id"), -32600, "Invalid Request")]
        if not isinstance(m["method"], str):
            return [_error(m.get("id"), -32600, "Invalid Request")] if "id" in m else []
        if "id" not in m and MUTANT != "notification-answered":
            return []  # EC-REC-005: a notification gets no response
        entry = self._find(m)
        if entry is not None:
            resp = dict(entry["msg"])
            resp["id"] = m.get("id")
            return [resp]
        return self._unmatched(m)

    def _unmatched(self, m):
        if self.on_unmatched == "passthrough":
            raise PassthroughNeeded(m["method"])
        err = _error(m.get("id"), -32000, "No matching response")
        if self.on_unmatched == "error":
            self.log.append(("error", f"No matching response in recording: {m['method']}"))
            if MUTANT != "error-continues":
                self.exited = True
            return [err]
        self.log.append(("warn", f"No matching response, returning error: {m['method']}"))
        if MUTANT == "warn-exits":
            self.exited = True
        return [err]


def _error(id_, code, message):
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


def replay(recording: Recording, script: bytes, **options):
    """Play ``script`` (the client's lines) against the recording.
    Returns (answers: list of dicts, end: "script-end" | "exit-non-zero")."""
    r = Replayer(recording, **options)
    answers = []
    if script.startswith(BOM):
        script = script[len(BOM):]
    text = script.decode("utf-8", "replace")
    for line in text.split("\n"):
        answers.extend(r.handle_line(line))
        if r.exited:
            return answers, "exit-non-zero"
    return answers, "script-end"


# --------------------------------------------------------------------------
# convert


def _identity(p):
    if not isinstance(p, dict):
        return (None, None)
    return (_canon(p.get("name")) if "name" in p else None,
            _canon(p.get("uri")) if "uri" in p else None)


class _Comment:
    def __init__(self, text):
        self.text = text


def convert(recording: Recording, style="simple", phase_after=None, source="recording"):
    """The attack config of §F-004 as YAML text (and a list of warnings)."""
    if style not in ("simple", "phased"):
        raise UsageError(f"--style: invalid value {style!r}")
    if phase_after is None:
        phase_after = 3
    if isinstance(phase_after, str) and re.fullmatch(r"[0-9]+", phase_after, re.ASCII):
        phase_after = int(phase_after)
    if type(phase_after) is not int or phase_after < 0:
        raise UsageError(f"--phase-after: invalid value {phase_after!r}")

    warnings = []
    pairs, _ = pair_exchanges(recording.messages)

    def list_defs(method, field, key):
        defs, order = {}, []
        for req, resp in pairs:
            if req["method"] != method or resp is None:
                continue
            res = resp["msg"].get("result")
            items = res.get(field) if isinstance(res, dict) else None
            if not isinstance(items, list):
                continue
            for it in items:
                if isinstance(it, dict) and isinstance(it.get(key), str) and it[key] not in defs:
                    defs[it[key]] = it
                    order.append(it[key])
        return defs, order

    def calls(method, key):
        """[(name, result)] of the successful calls, in recorded call order."""
        out = []
        for req, resp in pairs:
            if req["method"] != method:
                continue
            p = req.get("params")
            name = p.get(key) if isinstance(p, dict) else None
            if not isinstance(name, str):
                warnings.append(f"{method} request without a string params.{key}: skipped")
                continue
            if resp is None:
                warnings.append(f"{method} {name}: no recorded response")
                continue
            if "result" not in resp["msg"]:
                warnings.append(f"{method} {name}: error response skipped")
                continue
            out.append((name, resp["msg"]["result"]))
        return out

    def build(kind, defs, order, called, key):
        names = list(order)
        for name, _ in called:
            if name not in defs and name not in names:
                names.append(name)
                warnings.append(f"{kind} {name} was called but never listed: no schema")
        items = []
        for name in names:
            d = defs.get(name, {key: name})
            results = [r for n, r in called if n == name]
            items.append((name, d, results))
        return items

    tdefs, torder = list_defs("tools/list", "tools", "name")
    rdefs, rorder = list_defs("resources/list", "resources", "uri")
    pdefs, porder = list_defs("prompts/list", "prompts", "name")
    tool_calls = calls("tools/call", "name")
    tools = build("tool", tdefs, torder, tool_calls, "name")
    resources = build("resource", rdefs, rorder, calls("resources/read", "uri"), "uri")
    prompts = build("prompt", pdefs, porder, calls("prompts/get", "name"), "name")
    if not tdefs and tool_calls:
        warnings.insert(0, "the recording has no tools/list response: tools inferred from tools/call (EC-REC-010)")

    def response_of(results):
        if not results:
            return None
        if len(results) == 1 and MUTANT != "always-sequence":
            return results[0]
        return {"sequence": list(results), "on_exhausted": "last"}

    def entry(kind, d, results):
        e = {kind: d}
        r = response_of(results)
        if r is not None:
            e["response"] = r
        return e

    h = recording.header
    head = [f"Auto-generated from {source}" + (" (phased style)" if style == "phased" else "")]
    if style == "phased":
        head.append(f"Phase transition after {phase_after} tool calls")
    else:
        head.append(f"Recorded: {h.get('recorded_at')}")
        head.append(f"Upstream: {h.get('upstream')}")
        head.append("")
        head.append("To add injection, edit the response.content fields below.")
    for w in warnings:
        head.append("WARNING: " + w)

    doc = {}
    if style == "simple":
        doc["server"] = {"name": "replay-session", "version": "1.0.0"}
        doc["tools"] = [entry("tool", d, rs) for _, d, rs in tools]
        if resources:
            doc["resources"] = [entry("resource", d, rs) for _, d, rs in resources]
        if prompts:
            doc["prompts"] = [entry("prompt", d, rs) for _, d, rs in prompts]
    else:
        # the first `phase_after` tools/call of the session (all tools together)
        # form the benign baseline; the phase advances on the next one.
        benign = tool_calls[:phase_after] if MUTANT != "phase-off-by-one" else tool_calls[:phase_after + 1]
        doc["server"] = {"name": "replay-session", "capabilities": {"tools": {"listChanged": True}}}
        base_tools = []
        for name, d, _ in tools:
            base_tools.append(entry("tool", d, [r for n, r in benign if n == name]))
        baseline = {"tools": base_tools}
        if resources:
            baseline["resources"] = [entry("resource", d, rs) for _, d, rs in resources]
        if prompts:
            baseline["prompts"] = [entry("prompt", d, rs) for _, d, rs in prompts]
        doc["baseline"] = baseline
        replace = {}
        for name, d, results in tools:
            last_text = _last_text(results)
            text = (last_text + "\n\n" if last_text else "") + "[INJECT YOUR PAYLOAD HERE]\n"
            replace[name] = {"tool": d, "response": {"content": [{"type": "text", "text": text}]}}
        phase = {"name": "attack", "advance": {"on": "tools/call", "count": phase_after},
                 _Comment("TODO: Replace with malicious responses"): None,
                 "replace_tools": replace}
        doc["phases"] = [phase]
    return to_yaml(doc, head), warnings


def _last_text(results):
    for r in reversed(results):
        content = r.get("content") if isinstance(r, dict) else None
        if isinstance(content, list):
            for c in content:
                if isinstance(c, dict) and c.get("type") == "text" and isinstance(c.get("text"), str):
                    return c["text"]
    return ""


# --------------------------------------------------------------------------
# YAML writer (YAML 1.2; every string double-quoted, so no scalar is re-typed)


_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*", re.ASCII)
_YAML11_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def _yaml_str(s: str) -> str:
    out = json.dumps(s, ensure_ascii=True)  # JSON escapes are YAML escapes
    return out.replace("\x7f", "\\x7f")     # DEL is not printable in YAML


def _yaml_key(k: str) -> str:
    if _PLAIN_KEY.fullmatch(k) and k.lower() not in _YAML11_WORDS:
        return k
    return _yaml_str(k)


def _yaml_scalar(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return _yaml_str(v)
    if isinstance(v, int):
        return int.__repr__(v)
    if isinstance(v, Decimal):
        s = str(v)
        return s
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, list):
        return "[]"
    return _yaml_str(str(v))


def _is_block(v):
    return isinstance(v, (dict, list)) and len(v) > 0


def _comment_line(text):
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return ("# " + text).rstrip()


def _yaml_lines(v, indent, out):
    pad = " " * indent
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(k, _Comment):
                out.append(pad + _comment_line(k.text))
                continue
            key = _yaml_key(k)
            if _is_block(x):
                out.append(f"{pad}{key}:")
                _yaml_lines(x, indent + 2, out)
            else:
                out.append(f"{pad}{key}: {_yaml_scalar(x)}")
    else:
        for x in v:
            if _is_block(x):
                start = len(out)
                _yaml_lines(x, indent + 2, out)
                first = out[start]
                out[start] = pad + "- " + first[indent + 2:]
            else:
                out.append(f"{pad}- {_yaml_scalar(x)}")


def to_yaml(doc, comments=()) -> str:
    out = [_comment_line(c) for c in comments]
    if out:
        out.append("")
    _yaml_lines(doc, 0, out)
    return "\n".join(out) + "\n"
