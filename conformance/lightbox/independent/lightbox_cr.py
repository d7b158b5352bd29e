"""Clean-room implementation of the Lightbox event format, schema_version "1".

Written from lightbox.md (the spec), NOTES.md and the runner protocol only.
Python 3.11 standard library only.

Public API (all inputs are bytes, never text):

    validate(events, meta=None, limits=None) -> Result   # does the session conform?
    verify(events, meta=None, limits=None, policy=...)   # does the hash chain hold?
    hash_events(events, limits=None) -> Result           # canonical hash of every event
    read(events, meta=None, limits=None, policy=...)     # read as a Lightbox reader
    write(events, limits=None) -> Result                 # chain the given events

    canonical_bytes(event) / compute_hash(event)         # the canonical form itself

A Result has .ok (bool), .findings (list of dicts: rule, severity, line, pointer,
message), and operation-specific members (.hashes, .events_out, .first_broken, .events).

See README.md for every choice made where the spec is silent or ambiguous.
"""

from __future__ import annotations

import calendar
import hashlib
import json
import os
import re

# Read once at import: deliberate, named bugs used to test the conformance suite
# (README.md, "Mutants").  Unset means the frozen, intended behaviour.
MUTANT = os.environ.get("ARCS_MUTANT", "")

SCHEMA_VERSION = "1"

# Policy for a session whose schema_version is not "1" (spec: "Readers MAY refuse
# to read schema_version > N (with clear error message)").
POLICY_REFUSE = "refuse"
POLICY_WARN = "warn"
DEFAULT_POLICY = POLICY_REFUSE

# Resource limits (README.md, "Limits").  All may be lowered per call.
DEFAULT_LIMITS = {
    "max_file_bytes": 256 * 1024 * 1024,
    "max_line_bytes": 16 * 1024 * 1024,
    "max_entries": 50_000,
    "max_json_depth": 512,
}
# Findings kept per result (the runner keeps 1000); the rest are only counted.
MAX_FINDINGS = 1000
# CPython's json scanner recurses; beyond this we cannot honour a deeper limit.
HARD_DEPTH_CAP = 800

BOM = b"\xef\xbb\xbf"

REQUIRED_FIELDS = (
    "schema_version", "session_id", "invocation_id", "tool", "input", "output",
    "status", "timestamp_start", "timestamp_end", "prev_hash", "hash",
)
STATUSES = ("pending", "complete", "error")
# Optional fields and their type names.
OPTIONAL_FIELDS = {
    "parent_invocation": "string",
    "actor": "string",
    "originating_actor": "string",
    "error": "object",
    "chunk_count": "integer",
    "total_bytes": "integer",
    "content_hashes": "object",
    "retry_of": "string",
}

INVOCATION_RE = re.compile(r"inv_[0-9]{5,}\Z")
HEX64_RE = re.compile(r"[0-9a-f]{64}\Z")
ISO_RE = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]+))?(Z|[+-]([0-9]{2}):([0-9]{2}))?\Z"
)


# ---------------------------------------------------------------------------
# Results and findings
# ---------------------------------------------------------------------------

class Result:
    def __init__(self):
        self.ok = True
        self.findings = []
        self.hashes = None        # hash: list of hex strings
        self.events_out = None    # write: bytes of the written events.jsonl
        self.first_broken = None  # verify: 0-based index of the first broken event
        self.refused = False      # verify/read: the session was refused as a whole
        self.events = None        # read: list of parsed events
        self.dropped = 0          # findings beyond MAX_FINDINGS, counted only

    def add(self, rule, severity, message, line=None, pointer=None):
        if severity == "error":
            self.ok = False
        if len(self.findings) >= MAX_FINDINGS:
            self.dropped += 1
            return None
        f = {"rule": rule, "severity": severity, "message": message}
        if line is not None:
            f["line"] = line
        if pointer is not None:
            f["pointer"] = pointer
        self.findings.append(f)
        return f

    def errors(self):
        return [f for f in self.findings if f["severity"] == "error"]


class LimitExceeded(Exception):
    pass


def _limits(limits):
    out = dict(DEFAULT_LIMITS)
    if limits:
        for k, v in limits.items():
            if k not in DEFAULT_LIMITS:
                raise ValueError("unknown limit %r" % k)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError("limit %r must be a non-negative integer" % k)
            if k == "max_json_depth" and v > HARD_DEPTH_CAP:
                raise ValueError("max_json_depth above %d is not supported" % HARD_DEPTH_CAP)
            out[k] = v
    return out


def _ptr(*parts):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


# ---------------------------------------------------------------------------
# JSON parsing
# ---------------------------------------------------------------------------

class _FloatFound(ValueError):
    def __init__(self, literal):
        super().__init__(literal)
        self.literal = literal


def _reject_float(literal):
    if MUTANT == "accept-float":
        return float(literal)
    raise _FloatFound(literal)


def _reject_constant(name):
    if MUTANT == "accept-nan":
        return float(name)
    raise _FloatFound(name)


class ParseError(Exception):
    """A line that is not one JSON object Lightbox can use."""

    def __init__(self, rule, message):
        super().__init__(message)
        self.rule = rule
        self.message = message


_DUPS = []


def _dup_hook(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            _DUPS.append(k)
        d[k] = v
    return d


_DECODER = json.JSONDecoder(parse_float=_reject_float, parse_constant=_reject_constant)
_DUP_DECODER = json.JSONDecoder(parse_float=_reject_float, parse_constant=_reject_constant,
                                object_pairs_hook=_dup_hook)


def _depth_ok(obj, max_depth):
    """Iterative nesting check; a scalar has depth 0, [] or {} depth 1."""
    stack = [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            if d > max_depth:
                return False
            stack.extend((v, d + 1) for v in o.values() if isinstance(v, (dict, list)))
        elif isinstance(o, list):
            if d > max_depth:
                return False
            stack.extend((v, d + 1) for v in o if isinstance(v, (dict, list)))
    return True


def parse_json_object(raw, max_depth, want_duplicates=False):
    """Parse bytes holding one JSON text that must be an object.

    Returns (obj, duplicates) where duplicates is a list of repeated member
    names (only collected when want_duplicates).  Raises ParseError.
    """
    try:
        text = raw.decode("utf-8", "replace" if MUTANT == "replace-bad-unicode" else "strict")
    except UnicodeDecodeError as e:
        raise ParseError("LB-utf8", "not valid UTF-8 (byte %d)" % e.start)
    dups = _DUPS
    dups.clear()
    try:
        obj = (_DUP_DECODER if want_duplicates else _DECODER).decode(text)
    except _FloatFound as e:
        raise ParseError("LB-float", "floats are prohibited (canonicalization rule 4): %s"
                         % e.literal[:40])
    except RecursionError:
        raise ParseError("LB-limit-depth", "JSON nesting deeper than this implementation "
                         "allows (%d)" % max_depth)
    except json.JSONDecodeError as e:
        raise ParseError("LB-json", "not a JSON text: %s" % e.msg + " (column %d)" % e.colno)
    except ValueError as e:  # CPython's 4300-digit integer limit, among others
        raise ParseError("LB-json", "JSON value not parseable: %s" % str(e)[:200])
    if MUTANT == "hash-any-case":
        for k in ("hash", "prev_hash"):
            if isinstance(obj.get(k) if isinstance(obj, dict) else None, str):
                obj[k] = obj[k].lower()
    if not isinstance(obj, dict):
        raise ParseError("LB-not-object", "line is a JSON %s, not an object"
                         % type(obj).__name__.replace("dict", "object").replace("list", "array"))
    # A line with no more brackets than the limit cannot nest deeper: skip the walk.
    if raw.count(b"[") + raw.count(b"{") > max_depth and not _depth_ok(obj, max_depth):
        raise ParseError("LB-limit-depth", "JSON nesting deeper than this implementation "
                         "allows (%d)" % max_depth)
    return obj, list(dups)


# ---------------------------------------------------------------------------
# Canonical form and hash
# ---------------------------------------------------------------------------

class NoCanonicalForm(Exception):
    pass


# json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False), built once.
_CANON_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                                  allow_nan=(MUTANT in ("accept-nan", "accept-float")))


def canonical_bytes(event, _parsed=False):
    """The canonical bytes of an event: the event without its top-level 'hash'
    member, keys sorted by code point at every level, no whitespace, no ASCII
    escaping, UTF-8.  Raises NoCanonicalForm for floats or lone surrogates."""
    d = {k: v for k, v in event.items() if k != "hash"}
    if MUTANT == "keep-hash-field":
        d = dict(event)
    if MUTANT == "drop-prev-hash":
        d.pop("prev_hash", None)
    if MUTANT == "drop-nested-hash":
        d = _without_hash(d)
    try:
        if MUTANT == "unsorted-keys":
            s = json.dumps(d, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        elif MUTANT == "spaced-separators":
            s = json.dumps(d, sort_keys=True, ensure_ascii=False, allow_nan=False)
        else:
            s = _CANON_ENCODER.encode(d)
    except ValueError as e:  # NaN/Infinity with allow_nan=False
        raise NoCanonicalForm("no canonical form: %s" % e)
    except RecursionError:
        raise NoCanonicalForm("nesting too deep to serialize")
    if MUTANT == "nfc-normalize":
        import unicodedata
        s = unicodedata.normalize("NFC", s)
    if MUTANT == "replace-bad-unicode":
        s = re.sub("[\ud800-\udfff]", "\ufffd", s)
    if not _parsed and MUTANT != "accept-float" and MUTANT != "accept-nan":
        _assert_no_float(d)  # events parsed here cannot hold floats: skipped for them
    try:
        return s.encode("utf-8")
    except UnicodeEncodeError:
        raise NoCanonicalForm("a string holds a lone surrogate, which UTF-8 cannot encode")


def _without_hash(obj):  # the mutant drop-nested-hash only
    if isinstance(obj, dict):
        return {k: _without_hash(v) for k, v in obj.items() if k != "hash"}
    if isinstance(obj, list):
        return [_without_hash(v) for v in obj]
    return obj


def _assert_no_float(obj):
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, float):
            raise NoCanonicalForm("floats are prohibited (canonicalization rule 4)")
        if isinstance(o, dict):
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)


def compute_hash(event, _parsed=False):
    return hashlib.sha256(canonical_bytes(event, _parsed)).hexdigest()


# ---------------------------------------------------------------------------
# Splitting events.jsonl
# ---------------------------------------------------------------------------

def _split(data, lim, res, strict):
    """Split events.jsonl bytes into (line_number, raw) pairs of non-blank lines.

    strict (validate): a BOM and blank lines are errors.  Otherwise they are
    tolerated.  Raises LimitExceeded.
    """
    if len(data) > lim["max_file_bytes"]:
        raise LimitExceeded("events.jsonl is %d bytes, above the limit of %d"
                            % (len(data), lim["max_file_bytes"]))
    if data.startswith(BOM):
        if strict:
            res.add("LB-bom", "error", "events.jsonl starts with a UTF-8 byte order mark", line=1)
        data = data[3:]
    if not data:
        return []
    # Cheap guard before splitting a huge file into a huge list.
    if data.count(b"\n") > 4 * lim["max_entries"] + 16:
        raise LimitExceeded("events.jsonl has more than %d lines" % (4 * lim["max_entries"]))
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    elif strict:
        res.add("LB-final-newline", "note", "the last line is not ended by a newline",
                line=len(parts))
    out = []
    for i, raw in enumerate(parts, 1):
        if len(raw) > lim["max_line_bytes"]:
            raise LimitExceeded("line %d is %d bytes, above the limit of %d"
                                % (i, len(raw), lim["max_line_bytes"]))
        if not raw.strip(b" \t\r"):
            if strict:
                res.add("LB-blank-line", "error",
                        "blank line: every line must hold one JSON object", line=i)
            continue
        out.append((i, raw))
        if len(out) > lim["max_entries"]:
            raise LimitExceeded("more than %d events" % lim["max_entries"])
    return out


# ---------------------------------------------------------------------------
# Field checks
# ---------------------------------------------------------------------------

def _type_name(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


# Required field -> accepted type names.
REQUIRED_TYPES = {
    "schema_version": ("string",),
    "session_id": ("string",),
    "invocation_id": ("string",),
    "tool": ("string",),
    "input": ("object",),
    "output": ("object", "null"),
    "status": ("string",),
    "timestamp_start": ("string",),
    "timestamp_end": ("string", "null"),
    "prev_hash": ("string", "null"),
    "hash": ("string",),
}


def iso8601(s):
    """Returns (ok, fraction_digits or None, has_offset)."""
    m = ISO_RE.match(s)
    if not m:
        return False, None, False
    y, mo, d, h, mi, sec = (int(m.group(i)) for i in range(1, 7))
    if not (1 <= mo <= 12) or not (1 <= d <= calendar.monthrange(y if y else 2000, mo)[1]):
        return False, None, False
    if h > 23 or mi > 59 or sec > 60:
        return False, None, False
    if m.group(9) is not None and (int(m.group(9)) > 23 or int(m.group(10)) > 59):
        return False, None, False
    frac = m.group(7)
    return True, (len(frac) if frac is not None else None), m.group(8) is not None


def check_fields(ev, line, res, reader=False):
    """Field-table checks of one event.  reader=True applies only what a reader
    needs (presence and types of the fields it uses); validate applies all."""
    for name in REQUIRED_FIELDS:
        if name not in ev:
            if name == "schema_version" and reader:
                res.add("LB-missing-schema-version", "warning",
                        "schema_version is missing; read as \"1\"", line=line)
                continue
            if MUTANT == "optional-timestamp-end" and name == "timestamp_end":
                continue
            res.add("LB-required-field", "error", "required field %r is missing" % name,
                    line=line, pointer=_ptr(name))
            continue
        t = _type_name(ev[name])
        if t not in REQUIRED_TYPES[name]:
            res.add("LB-field-type", "error", "%s must be %s, not %s"
                    % (name, " or ".join(REQUIRED_TYPES[name]), t),
                    line=line, pointer=_ptr(name))
    for name, want in OPTIONAL_FIELDS.items():
        if name not in ev:
            continue
        v = ev[name]
        t = _type_name(v)
        if t == "null":
            res.add("LB-optional-null", "warning",
                    "optional field %s is null; treated as absent" % name,
                    line=line, pointer=_ptr(name))
            continue
        if t != want:
            res.add("LB-field-type", "error", "%s must be %s, not %s" % (name, want, t),
                    line=line, pointer=_ptr(name))
        elif want == "integer" and v < 0:
            res.add("LB-field-range", "error", "%s must not be negative" % name,
                    line=line, pointer=_ptr(name))
    status = ev.get("status")
    if isinstance(status, str) and status not in STATUSES and MUTANT != "any-status":
        res.add("LB-status", "error", "status must be pending, complete or error, not %r"
                % status[:40], line=line, pointer="/status")
    if reader:
        return

    inv = ev.get("invocation_id")
    if isinstance(inv, str) and not INVOCATION_RE.match(inv):
        res.add("LB-invocation-id-format", "error",
                "invocation_id %r does not have the form inv_NNNNN" % inv[:40],
                line=line, pointer="/invocation_id")
    ts = ev.get("timestamp_start")
    if isinstance(ts, str):
        ok, frac, off = iso8601(ts)
        if not ok:
            res.add("LB-timestamp", "error", "timestamp_start is not an ISO 8601 date-time",
                    line=line, pointer="/timestamp_start")
        elif frac is None:
            res.add("LB-timestamp-ms", "error",
                    "timestamp_start has no milliseconds (\"ISO 8601 with milliseconds\")",
                    line=line, pointer="/timestamp_start")
        else:
            if frac != 3:
                res.add("LB-timestamp-ms", "warning",
                        "timestamp_start has %d fractional digits, not 3" % frac,
                        line=line, pointer="/timestamp_start")
            if not off:
                res.add("LB-timestamp-offset", "warning",
                        "timestamp_start has no UTC offset", line=line, pointer="/timestamp_start")
    te = ev.get("timestamp_end")
    if isinstance(te, str):
        ok, _frac, off = iso8601(te)
        if not ok:
            res.add("LB-timestamp", "error", "timestamp_end is not an ISO 8601 date-time",
                    line=line, pointer="/timestamp_end")
        elif not off:
            res.add("LB-timestamp-offset", "warning",
                    "timestamp_end has no UTC offset", line=line, pointer="/timestamp_end")
    if status == "pending":
        if ev.get("output", None) is not None and MUTANT != "pending-output":
            res.add("LB-pending", "error", "a pending event has output=null", line=line,
                    pointer="/output")
        if ev.get("timestamp_end", None) is not None:
            res.add("LB-pending", "error", "a pending event has timestamp_end=null",
                    line=line, pointer="/timestamp_end")
    elif status in ("complete", "error"):
        if "timestamp_end" in ev and ev["timestamp_end"] is None:
            res.add("LB-timestamp-end-null", "warning",
                    "timestamp_end is null although the event is not pending",
                    line=line, pointer="/timestamp_end")
    if status == "error" and "error" not in ev:
        res.add("LB-error-details", "note", "status=error without error details", line=line)
    if "error" in ev and status != "error" and ev["error"] is not None:
        res.add("LB-error-details", "warning", "error details on an event whose status is "
                "not error", line=line, pointer="/error")
    ch = ev.get("content_hashes")
    if isinstance(ch, dict):
        for k, v in ch.items():
            if not isinstance(v, str):
                res.add("LB-content-hashes", "error", "content_hashes values are hashes "
                        "(strings)", line=line, pointer=_ptr("content_hashes", k))
            elif not HEX64_RE.match(v):
                res.add("LB-content-hashes", "warning", "content_hashes value is not a "
                        "lowercase hex SHA-256", line=line, pointer=_ptr("content_hashes", k))
            if not (k.startswith("input.") or k.startswith("output.")):
                res.add("LB-content-hashes", "warning", "content_hashes key %r names no "
                        "input or output field" % k[:60], line=line,
                        pointer=_ptr("content_hashes", k))
    h = ev.get("hash")
    if isinstance(h, str) and not HEX64_RE.match(h):
        res.add("LB-hash-format", "error", "hash is not 64 lowercase hex digits",
                line=line, pointer="/hash")
    p = ev.get("prev_hash")
    if isinstance(p, str) and not HEX64_RE.match(p):
        res.add("LB-hash-format", "error", "prev_hash is not 64 lowercase hex digits",
                line=line, pointer="/prev_hash")


def _schema_version_known(ev):
    """True when the event's schema_version is "1" (or missing, read as "1")."""
    if "schema_version" not in ev:
        return True
    v = ev["schema_version"]
    return v == SCHEMA_VERSION and isinstance(v, str)


# ---------------------------------------------------------------------------
# meta.json
# ---------------------------------------------------------------------------

def _check_meta(meta, lim, res, strict):
    """Returns the parsed meta object, or None when it is unusable (an error
    finding is then recorded)."""
    if strict and meta.startswith(BOM):
        res.add("LB-meta-bom", "error", "meta.json starts with a byte order mark")
    if meta.startswith(BOM):
        meta = meta[3:]
    if len(meta) > lim["max_file_bytes"]:
        res.add("LB-limit", "error", "meta.json above the size limit")
        return None
    try:
        obj, dups = parse_json_object(meta, lim["max_json_depth"], want_duplicates=strict)
    except ParseError as e:
        if e.rule == "LB-float":
            # meta.json is not hashed: rule 4 does not bind it. Re-read leniently.
            try:
                obj = json.loads(meta.decode("utf-8"))
                dups = []
                if not isinstance(obj, dict):
                    raise ValueError
            except Exception:
                res.add("LB-meta", "error", "meta.json: " + e.message)
                return None
        else:
            res.add("LB-meta", "error", "meta.json: " + e.message)
            return None
    if not strict:
        return obj
    for k in dups:
        res.add("LB-meta-duplicate-key", "error", "meta.json repeats the member %r" % k[:60],
                pointer=_ptr(k))
    for name in ("session_id", "schema_version", "lightbox_version", "created_at"):
        if name not in obj:
            res.add("LB-meta-field", "warning", "meta.json has no %s" % name, pointer=_ptr(name))
        elif not isinstance(obj[name], str):
            res.add("LB-meta-field", "error", "meta.json %s must be a string" % name,
                    pointer=_ptr(name))
    if isinstance(obj.get("schema_version"), str) and obj["schema_version"] != SCHEMA_VERSION:
        res.add("LB-schema-version", "error", "meta.json schema_version is %r, not \"1\""
                % obj["schema_version"][:40], pointer="/schema_version")
    if isinstance(obj.get("created_at"), str) and not iso8601(obj["created_at"])[0]:
        res.add("LB-timestamp", "error", "meta.json created_at is not ISO 8601",
                pointer="/created_at")
    return obj


def _meta_version_known(meta_obj):
    if meta_obj is None or "schema_version" not in meta_obj:
        return True
    return meta_obj["schema_version"] == SCHEMA_VERSION and isinstance(
        meta_obj["schema_version"], str)


# ---------------------------------------------------------------------------
# validate
# ---------------------------------------------------------------------------

def validate(events, meta=None, limits=None):
    res = Result()
    lim = _limits(limits)
    meta_obj = None
    if meta is not None:
        meta_obj = _check_meta(meta, lim, res, strict=True)
    try:
        lines = _split(events, lim, res, strict=True)
    except LimitExceeded as e:
        res.add("LB-limit", "error", str(e))
        return res

    prev_stored = None      # the previous event's stored hash (str) ...
    prev_known = True       # ... when the previous event could be read at all
    session_id = meta_obj.get("session_id") if isinstance(meta_obj, dict) and \
        isinstance(meta_obj.get("session_id"), str) else None
    session_src = "meta.json"
    invocations = {}        # invocation_id -> {"status", "resolved", "line"}
    retry_links = []        # (line, retry_of)
    parent_links = []       # (line, parent_invocation)
    pending_lines = {}

    for index, (line, raw) in enumerate(lines):
        try:
            ev, dups = parse_json_object(raw, lim["max_json_depth"], want_duplicates=True)
        except ParseError as e:
            res.add(e.rule, "error", e.message, line=line)
            prev_known = False
            continue
        for k in dups:
            res.add("LB-duplicate-key", "error", "member %r appears more than once; the "
                    "canonical form cannot hold both" % k[:60], line=line)
        check_fields(ev, line, res)

        sv = ev.get("schema_version")
        if isinstance(sv, str) and sv != SCHEMA_VERSION and MUTANT != "validate-any-version":
            res.add("LB-schema-version", "error", "schema_version is %r; this is version \"1\""
                    % sv[:40], line=line, pointer="/schema_version")

        # the hash chain
        if "prev_hash" in ev:
            p = ev["prev_hash"]
            if index == 0:
                if p is not None and MUTANT != "first-prev-hash-free":
                    res.add("LB-chain-first", "error",
                            "the first event must have prev_hash=null", line=line,
                            pointer="/prev_hash")
            elif prev_known and MUTANT != "no-link-check":
                if p != prev_stored:
                    res.add("LB-chain-link", "error",
                            "prev_hash is not the previous event's hash", line=line,
                            pointer="/prev_hash")
        h = ev.get("hash")
        if isinstance(h, str):
            try:
                computed = compute_hash(ev, True)
            except NoCanonicalForm as e:
                res.add("LB-canonical", "error", str(e), line=line)
            else:
                if computed != h:
                    res.add("LB-hash-mismatch", "error",
                            "hash does not match the canonical hash %s" % computed,
                            line=line, pointer="/hash")
        prev_stored = h if isinstance(h, str) else None
        prev_known = isinstance(h, str)

        # one session
        sid = ev.get("session_id")
        if isinstance(sid, str):
            if session_id is None:
                session_id, session_src = sid, "line %d" % line
            elif sid != session_id:
                res.add("LB-session-id", "error", "session_id differs from %s's"
                        % session_src, line=line, pointer="/session_id")

        # invocations: unique per call, except an async pending/resolved pair
        inv = ev.get("invocation_id")
        status = ev.get("status")
        if isinstance(inv, str):
            prior = invocations.get(inv)
            if prior is None:
                invocations[inv] = {"status": status, "resolved": False, "line": line,
                                    "tool": ev.get("tool")}
                if status == "pending":
                    pending_lines[inv] = line
            elif prior["status"] == "pending" and not prior["resolved"] and \
                    status in ("complete", "error"):
                prior["resolved"] = True
                pending_lines.pop(inv, None)
                if ev.get("input") != {} and MUTANT != "resolved-input-free":
                    res.add("LB-async-input", "error", "the resolving event of an async call "
                            "must have input={}", line=line, pointer="/input")
                if ev.get("tool") != prior["tool"]:
                    res.add("LB-async-tool", "warning", "the resolving event names another "
                            "tool than its pending event (line %d)" % prior["line"], line=line,
                            pointer="/tool")
            else:
                if MUTANT != "duplicate-invocation":
                    res.add("LB-invocation-unique", "error", "invocation_id %r was already "
                            "used (line %d) and this is not the resolution of a pending call"
                            % (inv[:40], prior["line"]), line=line, pointer="/invocation_id")
            r = ev.get("retry_of")
            if isinstance(r, str):
                if r == inv:
                    res.add("LB-retry-self", "error", "a retry must have a new invocation_id, "
                            "not its own", line=line, pointer="/retry_of")
                else:
                    retry_links.append((line, r))
            pi = ev.get("parent_invocation")
            if isinstance(pi, str):
                parent_links.append((line, pi))

    for line, r in retry_links:
        if r not in invocations:
            res.add("LB-retry-link", "warning", "retry_of names an invocation_id not in "
                    "this session", line=line, pointer="/retry_of")
        elif invocations[r]["line"] > line:
            res.add("LB-retry-link", "warning", "retry_of names a later invocation, "
                    "not a prior attempt", line=line, pointer="/retry_of")
    for line, p in parent_links:
        if p not in invocations:
            res.add("LB-parent-link", "warning", "parent_invocation names an "
                    "invocation_id not in this session", line=line, pointer="/parent_invocation")
    for inv, line in pending_lines.items():
        res.add("LB-async-unresolved", "note", "pending call %s has no resolving event"
                % inv[:40], line=line)
    return res


# ---------------------------------------------------------------------------
# hash
# ---------------------------------------------------------------------------

def hash_events(events, limits=None):
    res = Result()
    lim = _limits(limits)
    try:
        lines = _split(events, lim, res, strict=False)
    except LimitExceeded as e:
        res.add("LB-limit", "error", str(e))
        return res
    hashes = []
    for index, (line, raw) in enumerate(lines):
        try:
            ev, _ = parse_json_object(raw, lim["max_json_depth"])
            hashes.append(compute_hash(ev, True))
        except ParseError as e:
            res.add(e.rule, "error", "event %d: %s" % (index, e.message), line=line)
        except NoCanonicalForm as e:
            res.add("LB-canonical", "error", "event %d: %s" % (index, e), line=line)
    if res.ok:
        res.hashes = hashes
    return res


# ---------------------------------------------------------------------------
# read
# ---------------------------------------------------------------------------

def _version_gate(res, where, value, policy, line=None):
    """Apply the unknown_schema_version policy. Returns False when refused."""
    msg = "%s has schema_version %s; this reader implements \"1\"" % (
        where, json.dumps(value, ensure_ascii=False)[:60])
    if policy == POLICY_WARN:
        res.add("LB-unknown-schema-version", "warning", msg, line=line,
                pointer="/schema_version")
        return True
    res.add("LB-unknown-schema-version", "error", msg + ": refused", line=line,
            pointer="/schema_version")
    res.refused = True
    return False


def read(events, meta=None, limits=None, policy=DEFAULT_POLICY):
    """Read the session as a Lightbox reader: BOM, CRLF and blank lines are
    tolerated, unknown fields ignored (kept), a missing schema_version read as
    "1"; a line that is not a usable event refuses the session."""
    res = Result()
    lim = _limits(limits)
    if meta is not None:
        meta_obj = _check_meta(meta, lim, res, strict=False)
        if meta_obj is None:
            res.refused = True
            return res
        if not _meta_version_known(meta_obj):
            if not _version_gate(res, "meta.json", meta_obj["schema_version"], policy):
                return res
    try:
        lines = _split(events, lim, res, strict=False)
    except LimitExceeded as e:
        res.add("LB-limit", "error", str(e))
        res.refused = True
        return res
    out = []
    for index, (line, raw) in enumerate(lines):
        try:
            ev, _ = parse_json_object(raw, lim["max_json_depth"])
        except ParseError as e:
            res.add(e.rule, "error", "event %d: %s" % (index, e.message), line=line)
            continue
        if not _schema_version_known(ev):
            if not _version_gate(res, "event %d" % index, ev.get("schema_version"),
                                 policy, line=line):
                return res
        check_fields(ev, line, res, reader=True)
        out.append(ev)
    if res.ok:
        res.events = out
    else:
        res.refused = True
    return res


# ---------------------------------------------------------------------------
# verify
# ---------------------------------------------------------------------------

def verify(events, meta=None, limits=None, policy=DEFAULT_POLICY):
    """Check the hash chain.  res.ok: the chain holds.  Otherwise either
    res.refused (the session as a whole is refused: limits, meta.json, the
    schema_version policy) or res.first_broken (0-based index of the first
    event whose hash or link does not hold, or that cannot be read)."""
    res = Result()
    lim = _limits(limits)
    if meta is not None:
        meta_obj = _check_meta(meta, lim, res, strict=False)
        if meta_obj is None:
            res.refused = True
            return res
        if not _meta_version_known(meta_obj):
            if not _version_gate(res, "meta.json", meta_obj["schema_version"], policy):
                return res
    try:
        lines = _split(events, lim, res, strict=False)
    except LimitExceeded as e:
        res.add("LB-limit", "error", str(e))
        res.refused = True
        return res

    parsed = []
    for index, (line, raw) in enumerate(lines):
        try:
            ev, _ = parse_json_object(raw, lim["max_json_depth"])
        except ParseError as e:
            parsed.append((line, None, e))
            continue
        parsed.append((line, ev, None))
    # The schema_version policy applies to the session as a whole, before the chain.
    for index, (line, ev, _) in enumerate(parsed):
        if ev is not None and not _schema_version_known(ev):
            if not _version_gate(res, "event %d" % index, ev.get("schema_version"),
                                 policy, line=line):
                return res

    prev = None
    for index, (line, ev, err) in enumerate(parsed):
        problem = None
        if err is not None:
            problem = (err.rule, err.message)
        elif "hash" not in ev or not isinstance(ev["hash"], str):
            problem = ("LB-chain-hash", "the event has no hash string")
        elif "prev_hash" not in ev and MUTANT != "drop-prev-hash":
            problem = ("LB-chain-link", "the event has no prev_hash")
        else:
            p = ev.get("prev_hash")
            if index == 0 and p is not None and MUTANT != "first-prev-hash-free":
                problem = ("LB-chain-first", "the first event must have prev_hash=null")
            elif index > 0 and p != prev and MUTANT != "no-link-check":
                problem = ("LB-chain-link", "prev_hash is not the previous event's hash")
            else:
                try:
                    computed = compute_hash(ev, True)
                except NoCanonicalForm as e:
                    problem = ("LB-canonical", str(e))
                else:
                    if computed != ev["hash"]:
                        problem = ("LB-hash-mismatch",
                                   "hash does not match the canonical hash %s" % computed)
        if problem is not None:
            res.add(problem[0], "error", "event %d: %s" % (index, problem[1]), line=line)
            res.first_broken = index
            return res
        prev = ev["hash"]
    return res


# ---------------------------------------------------------------------------
# write
# ---------------------------------------------------------------------------

def write(events, limits=None):
    """Chain the given events: set schema_version "1" where it is missing, set
    prev_hash and hash, and write one canonical-with-hash line per event.  The
    written session must pass validate(); otherwise the write is refused."""
    res = Result()
    lim = _limits(limits)
    try:
        lines = _split(events, lim, res, strict=False)
    except LimitExceeded as e:
        res.add("LB-limit", "error", str(e))
        return res
    out_lines = []
    prev = None
    for index, (line, raw) in enumerate(lines):
        try:
            ev, dups = parse_json_object(raw, lim["max_json_depth"], want_duplicates=True)
        except ParseError as e:
            res.add(e.rule, "error", "event %d: %s" % (index, e.message), line=line)
            continue
        for k in dups:
            res.add("LB-duplicate-key", "error", "event %d repeats the member %r"
                    % (index, k[:60]), line=line)
        if "schema_version" not in ev and MUTANT != "no-default-schema-version":
            ev["schema_version"] = SCHEMA_VERSION
        elif ev.get("schema_version") != SCHEMA_VERSION or not isinstance(
                ev.get("schema_version"), str):
            res.add("LB-schema-version", "error", "event %d has schema_version %s; this "
                    "writer writes \"1\" only" % (index, json.dumps(ev.get("schema_version"))
                                                   [:40]), line=line)
            continue
        for k in ("prev_hash", "hash"):
            if k in ev:
                res.add("LB-write-chain-field", "warning", "event %d already has %s; "
                        "replaced by the writer" % (index, k), line=line)
        ev.pop("hash", None)
        ev["prev_hash"] = prev
        try:
            h = compute_hash(ev, True)
        except NoCanonicalForm as e:
            res.add("LB-canonical", "error", "event %d: %s" % (index, e), line=line)
            continue
        ev["hash"] = h
        prev = h
        out_lines.append(json.dumps(ev, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=False).encode("utf-8") + b"\n")
    if not res.ok:
        return res
    data = b"".join(out_lines)
    check = validate(data, None, limits)
    for f in check.errors():
        res.add(f["rule"], "error", "written session would not conform: " + f["message"],
                line=f.get("line"), pointer=f.get("pointer"))
    if res.ok:
        res.events_out = data
    return res
