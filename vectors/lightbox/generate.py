#!/usr/bin/env python3
"""Writes the Lightbox test vectors: every input file under cases/ and manifest.json.

Every chain here is computed by CPython itself (json.dumps with the canonical settings,
hashlib.sha256), never by the code under test. Lines are written the way the upstream recorder
writes them (json.dumps defaults: ASCII escapes, ", " and ": " separators) unless a case says
otherwise. Where a case needs bytes json.dumps would not write (a float written 1.0, a repeated
member name, a raw control byte, invalid UTF-8), the line is built from json.dumps output with a
placeholder replaced by those bytes; the hash is still computed by json.dumps over the Python
value the case names (the value json.loads gives, or the one a reading of the errata hashes).

    python3 vectors/lightbox/generate.py           # (re)write cases/ and manifest.json
    python3 vectors/lightbox/generate.py --check   # exit 1 if a file on disk differs

The manifest is written from the case table below (CASES): each case's expectations, rules and
quotations are written here by hand, next to the input they describe, and follow
vectors/README.md and conformance/lightbox/errata.md. Each operation's spec_text is written out
here; manifest_lib states each quotation once in the manifest's "quotes" and cites it by id. The
quotations are checked against lightbox.md when ../shared/specs/lightbox.md is found.
"""

import base64
import hashlib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import generated_files  # noqa: E402  (vectors/)
import manifest_lib  # noqa: E402  (vectors/)

sys.set_int_max_str_digits(0)  # the 4301- and 10000-digit integers (errata LB-E26)

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
MANIFEST = os.path.join(HERE, "manifest.json")

SESSION = "session_92c1"
META = {"session_id": SESSION, "schema_version": "1", "lightbox_version": "0.1.0",
        "created_at": "2025-01-15T10:00:00.000+00:00"}
T_START = "2025-01-15T10:23:01.123+00:00"
T_END = "2025-01-15T10:23:01.456+00:00"
DROP = object()  # event(..., field=DROP) leaves the field out


# ------------------------------------------------------------------------------------------------
# Values whose JSON text json.dumps would not write.

class Raw:
    """A value written into a line as `text` verbatim. `value` is what the chain hashes (what
    json.loads gives, or what a reading hashes); `canon`, when given, is canonical text that
    json.dumps cannot produce (-0 kept as written)."""

    def __init__(self, text, value=None, canon=None):
        self.text, self.value, self.canon = text, value, canon


class Dup:
    """An object with repeated member names: (name, value) pairs in line order. A name may be a
    Raw (its text is the name's JSON spelling, its value the name)."""

    def __init__(self, *pairs):
        self.pairs = list(pairs)

    def resolved(self, wins):
        out = {}
        for k, v in (self.pairs if wins == "last" else reversed(self.pairs)):
            out[k.value if isinstance(k, Raw) else k] = v
        if wins == "first":
            out = dict(reversed(list(out.items())))
        return out

    def get(self, name, default=None):
        return self.resolved("last").get(name, default)


def render(value, ensure_ascii=True, separators=(", ", ": "), sort_keys=False):
    """json.dumps of value, with Raw and Dup written as their text."""
    subs = {}

    def token(text):
        t = "@@RAW%d@@" % len(subs)
        subs['"%s"' % t] = text
        return t

    def prep(v):
        if isinstance(v, Raw):
            return token(v.text)
        if isinstance(v, Dup):
            members = []
            for k, x in v.pairs:
                name = k.text if isinstance(k, Raw) else json.dumps(k, ensure_ascii=ensure_ascii)
                members.append(name + separators[1] +
                               render(x, ensure_ascii, separators, sort_keys))
            return token("{" + separators[0].join(members) + "}")
        if isinstance(v, dict) and any(isinstance(k, Raw) for k in v):
            return prep(Dup(*v.items()))
        if isinstance(v, dict):
            return {k: prep(x) for k, x in v.items()}
        if isinstance(v, list):
            return [prep(x) for x in v]
        return v

    text = json.dumps(prep(value), ensure_ascii=ensure_ascii, separators=separators,
                      sort_keys=sort_keys)
    for t, raw in subs.items():
        text = text.replace(t, raw, 1)
    return text


# ------------------------------------------------------------------------------------------------
# The canonical form and the chain, as CPython computes them.

def _hashed_value(v, wins, subs):
    """The Python value a hash covers: Dup resolved, Raw replaced by its value (or by a
    placeholder for canonical text json.dumps cannot write)."""
    if isinstance(v, Raw):
        if v.canon is not None:
            t = "@@CANON%d@@" % len(subs)
            subs['"%s"' % t] = v.canon
            return t
        return v.value
    if isinstance(v, Dup):
        v = v.resolved(wins)
    if isinstance(v, dict):
        return {(k.value if isinstance(k, Raw) else k): _hashed_value(x, wins, subs)
                for k, x in v.items()}
    if isinstance(v, list):
        return [_hashed_value(x, wins, subs) for x in v]
    return v


def _utf16_order(v):
    if isinstance(v, dict):
        return {k: _utf16_order(v[k]) for k in sorted(v, key=lambda k: k.encode("utf-16-be"))}
    if isinstance(v, list):
        return [_utf16_order(x) for x in v]
    return v


def canonical(event, ascii=False, order="code-point", wins="last", surrogates="utf-8",
              leave_out=(), fill_version=False):
    """The canonical bytes of an event (its "hash" member left out): json.dumps(sort_keys=True,
    separators=(",", ":"), ensure_ascii=False), the rule list's form (errata LB-E23). The options
    give the other readings of the errata: ascii (the code sample's default escaping, LB-E23),
    order "utf-16" (RFC 8785's key order, LB-E24), wins "first" (LB-E28), surrogates "escape"
    (LB-E27), leave_out (LB-E19 null-is-absent, LB-E30 known-fields-only), fill_version (LB-E31
    default-filled)."""
    subs = {}
    body = _hashed_value(event, wins, subs)
    body = {k: v for k, v in body.items() if k != "hash" and k not in leave_out}
    if fill_version and "schema_version" not in body:
        body["schema_version"] = "1"
    if order == "utf-16":
        text = json.dumps(_utf16_order(body), separators=(",", ":"), ensure_ascii=ascii)
    else:
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=ascii)
    for t, raw in subs.items():
        text = text.replace(t, raw, 1)
    if surrogates == "escape":
        text = re.sub("[\ud800-\udfff]", lambda m: "\\u%04x" % ord(m.group()), text)
    return text.encode("utf-8")


def sha(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def set_member(event, name, value):
    if isinstance(event, Dup):
        event.pairs.append((name, value))
    else:
        event[name] = value


def rehash(event, **how):
    """Sets event's hash (in place, as its last member) from its members as they are."""
    if isinstance(event, Dup):
        event.pairs = [(k, v) for k, v in event.pairs if k != "hash"]
    else:
        event.pop("hash", None)
    set_member(event, "hash", sha(canonical(event, **how)))
    return event


def chain(events, **how):
    """The events with prev_hash and hash set, as CPython computes them."""
    prev, out = None, []
    for e in events:
        e = Dup(*e.pairs) if isinstance(e, Dup) else dict(e)
        set_member(e, "prev_hash", prev)
        rehash(e, **how)
        prev = e.get("hash") if isinstance(e, Dup) else e["hash"]
        out.append(e)
    return out


def event(n, **fields):
    """An event shaped like the spec's example, invocation inv_<n>."""
    e = {"schema_version": "1", "session_id": SESSION, "invocation_id": "inv_%05d" % n,
         "tool": "send_email", "input": {"to": "user@example.com", "subject": "Hello"},
         "output": {"success": True, "message_id": "msg_%d" % n}, "status": "complete",
         "timestamp_start": T_START, "timestamp_end": T_END}
    for k, v in fields.items():
        if v is DROP:
            e.pop(k, None)
        else:
            e[k] = v
    return e


def pending(n, **fields):
    f = {"status": "pending", "output": None, "timestamp_end": None}
    f.update(fields)
    return event(n, **f)


def resolution(n, status="complete", **fields):
    f = {"input": {}, "timestamp_start": "2025-01-15T10:23:02.000+00:00",
         "timestamp_end": "2025-01-15T10:23:02.500+00:00"}
    f.update(fields)
    return event(n, status=status, **f)


def failed(n, **fields):
    f = {"output": {}, "error": {"type": "TimeoutError", "message": "timed out"}}
    f.update(fields)
    return event(n, status="error", **f)


def lines(events, ensure_ascii=True, separators=(", ", ": "), ending="\n"):
    """events.jsonl as the upstream recorder writes it (json.dumps defaults, one event a line);
    an item that is bytes or str is written as that line."""
    out = []
    for e in events:
        if isinstance(e, bytes):
            out.append(e)
        elif isinstance(e, str):
            out.append(e.encode("utf-8"))
        else:
            out.append(render(e, ensure_ascii, separators).encode("utf-8"))
    return b"".join(l + ending.encode() for l in out)


def two(**fields):
    """A chain of two events, the second with `fields` (the usual shape of a case)."""
    return chain([event(1), event(2, **fields)])


def meta(**fields):
    m = dict(META)
    for k, v in fields.items():
        if v is DROP:
            m.pop(k, None)
        else:
            m[k] = v
    return (json.dumps(m, indent=2) + "\n").encode("utf-8")


DEFAULT_META = meta()


# ------------------------------------------------------------------------------------------------
# Quotations (verbatim; checked against lightbox.md by check_quotes()).

def row(table, text):
    return '§%s: "%s"' % (table, text)


R = {name: row("Required Fields", text) for name, text in {
    "schema_version": '| `schema_version` | string | Always "1" for this version |',
    "session_id": "| `session_id` | string | Groups events into one run |",
    "invocation_id": "| `invocation_id` | string | Unique per call, format: `inv_NNNNN` |",
    "tool": "| `tool` | string | Tool name |",
    "input": "| `input` | object | Arguments passed to the tool |",
    "output": "| `output` | object\\|null | Result (null for pending) |",
    "status": "| `status` | string | `pending`, `complete`, or `error` |",
    "timestamp_start": "| `timestamp_start` | string | ISO 8601 with milliseconds |",
    "timestamp_end": "| `timestamp_end` | string\\|null | ISO 8601 (null for pending) |",
    "prev_hash": "| `prev_hash` | string\\|null | SHA-256 hash of previous event (null for first) |",
    "hash": "| `hash` | string | SHA-256 hash of this event |",
}.items()}
R.update({name: row("Optional Fields", text) for name, text in {
    "parent_invocation": "| `parent_invocation` | string | ID of parent call for nested invocations |",
    "actor": "| `actor` | string | Direct invoker (agent/user/service) |",
    "originating_actor": "| `originating_actor` | string | Session initiator |",
    "error": "| `error` | object | Error details when `status=error` |",
    "chunk_count": "| `chunk_count` | integer | For streaming, number of chunks |",
    "total_bytes": "| `total_bytes` | integer | For streaming, total byte count |",
    "content_hashes": "| `content_hashes` | object | Hashes for redacted/large payloads |",
    "retry_of": "| `retry_of` | string | Link to prior attempt's invocation_id |",
}.items()})

O_JSONL = '§Overview: "Lightbox stores tool execution events as append-only JSONL files."'
O_CHAIN = ('§Overview: "Each event is hash-chained to the previous event, creating a '
           'tamper-evident log."')
L_EVENTS = '§Storage Layout: "events.jsonl     # Append-only event log (one JSON object per line)"'
L_META = '§Storage Layout: "meta.json        # Session metadata"'
L_DIR = '§Storage Layout: "~/.lightbox/sessions/<session_id>/"'
M_SID = '§Session Metadata (meta.json): ""session_id": "session_abc123...","'
M_VER = '§Session Metadata (meta.json): ""schema_version": "1","'
M_LBV = '§Session Metadata (meta.json): ""lightbox_version": "0.1.0","'
M_CREATED = '§Session Metadata (meta.json): ""created_at": "2025-01-15T10:00:00.000+00:00""'
X_EVENT = ('§Example Event: ""invocation_id": "inv_00042", "tool": "send_email", '
           '"input": {"to": "user@example.com", "subject": "Hello"}, '
           '"output": {"success": true, "message_id": "msg_123"}, '
           '"status": "complete", "timestamp_start": '
           '"2025-01-15T10:23:01.123+00:00", "timestamp_end": '
           '"2025-01-15T10:23:01.456+00:00", "prev_hash": "a3f2c1...", '
           '"hash": "b4e3d2...""')
C_CRIT = ('§Canonicalization Rules: "**CRITICAL: These rules MUST NOT change without incrementing '
          'schema_version.**"')
C_KEYS = ('§Canonicalization Rules: "1. **Key ordering**: Alphabetical at all nesting levels '
          '(`sort_keys=True`)"')
C_WS = ('§Canonicalization Rules: "2. **Whitespace**: None between elements '
        "(`separators=(',', ':')`)\"")
C_UTF8 = ('§Canonicalization Rules: "3. **Encoding**: UTF-8, no ASCII escaping '
          '(`ensure_ascii=False`)"')
C_FLOATS = ('§Canonicalization Rules: "4. **Floats**: PROHIBITED - use string representations '
            'for decimals"')
C_STRINGS = '§Canonicalization Rules: "5. **Strings**: Stored as-is, no Unicode normalization"'
C_NULLS = '§Canonicalization Rules: "6. **Nulls**: Serialized as JSON `null`"'
H_COMMENT = "§Hash Computation: \"# event_dict must include prev_hash but EXCLUDE 'hash' field\""
H_DUMPS = ("§Hash Computation: \"canonical = json.dumps(event_dict, sort_keys=True, "
           "separators=(',', ':'))\"")
H_SHA = "§Hash Computation: \"return hashlib.sha256(canonical.encode('utf-8')).hexdigest()\""
ORD_APPEND = '§Ordering: "**Event order is append order, NOT timestamp order.**"'
ORD_NUM = '§Ordering: "- Events are numbered monotonically within a session"'
ORD_SKEW = '§Ordering: "- Timestamps are observational only (may be skewed)"'
ORD_VERIFY = '§Ordering: "- Verification and replay use append order"'
A_TWO = '§Async Events: "Async tool calls produce TWO events:"'
A_PENDING = ('§Async Events: "1. **Pending**: `status=pending`, `output=null`, '
             '`timestamp_end=null`"')
A_RESOLVED = ('§Async Events: "2. **Resolved**: Same `invocation_id`, `status=complete|error`, '
              '`input={}`"')
A_BOTH = '§Async Events: "Both events remain in the hash chain (no overwrites)."'
RT_NEW = ('§Retries: "Each retry attempt is a NEW `invocation_id`. Use `retry_of` to link '
          'attempts:"')
RT_EX = '§Retries: "{"invocation_id": "inv_00002", "retry_of": "inv_00001", ...}"'
RT_EVID = '§Retries: "Failed attempts remain as evidence."'
RD_WHEN = '§Redacted Content: "When content is redacted (size limits or sensitive keys):"'
RD_API = '§Redacted Content: ""input": {"api_key": "[REDACTED]"},"'
RD_API_HASH = ('§Redacted Content: ""content_hashes": {"input.api_key": '
               '"sha256_hash_here"}"')
RD_OVER = ('§Redacted Content: "Oversized content:"; §Redacted Content: ""large_field": { '
           '"_redacted": true, "_reason": "size_limit", "_bytes": 102400 }"')
RD_OVER_HASH = ('§Redacted Content: ""content_hashes": {"output.large_field": '
                '"sha256_hash_here"}"')
CP_FWD = ('§Compatibility Policy: "**Forward compatibility**: Lightbox readers MUST ignore unknown '
          'fields."')
CP_NEW = ('§Compatibility Policy: "New optional fields may be added in minor releases without '
          'bumping `schema_version`."')
CP_REFUSE = ('§Compatibility Policy: "- Readers MAY refuse to read schema_version > N (with clear '
             'error message)"')
CP_WARN = ('§Compatibility Policy: "- Unknown `schema_version` should produce a warning, not '
           'silent failure"')
CP_SET = ('§Compatibility Policy: "- Writers MUST set `schema_version` to exactly the version they '
          'implement"')
CP_OMIT = '§Compatibility Policy: "- Writers MUST NOT omit `schema_version` field"'
RFC_LIMITS = ('RFC 8259 §9: "An implementation may set limits on the size of texts that it '
              'accepts. An implementation may set limits on the maximum depth of nesting."')
RFC_NUMBERS = ('RFC 8259 §6: "Numeric values that cannot be represented in the grammar below '
               '(such as Infinity and NaN) are not permitted."')
RFC_STRINGS = ('RFC 8259 §7: "All Unicode characters may be placed within the quotation marks, '
               'except for the characters that MUST be escaped: quotation mark, reverse solidus, '
               'and the control characters (U+0000 through U+001F)."')
RFC_UTF8 = ('RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed '
            'ecosystem MUST be encoded using UTF-8 [RFC3629]."')
RFC_BOM = ('RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF) to the '
           'beginning of a networked-transmitted JSON text."')
RFC_TEXT = 'RFC 8259 §2: "JSON-text = ws value ws"'
RFC_NAMES = 'RFC 8259 §4: "The names within an object SHOULD be unique."'
RFC_SURROGATE = ('RFC 8259 §8.2: "the behavior of software that receives JSON texts containing '
                 'such values is unpredictable"')


# ------------------------------------------------------------------------------------------------
# Expectations.

# The readings of every flag (conformance/lightbox/errata.md, "Flags at a glance"), ARCS first.
FLAGS = {
    "LB-E2": ["meta-optional", "meta-required"],
    "LB-E4": ["not-an-event", "separator-allowed", "bad-line"],
    "LB-E5": ["final-newline-optional", "lf-terminated", "unterminated-is-truncated"],
    "LB-E6": ["json-text-lines", "lf-only"],
    "LB-E7": ["bom-tolerated", "bom-not-json", "bom-ignored"],
    "LB-E8": ["empty-log", "at-least-one-event"],
    "LB-E9": ["example-fields-required", "example-illustrative"],
    "LB-E10": ["one-session", "fields-independent"],
    "LB-E11": ["padded-five", "exactly-five", "any-string"],
    "LB-E14": ["open-calls-allowed", "pairs-required"],
    "LB-E15": ["stated-properties", "same-call"],
    "LB-E16": ["rfc-3339-millis", "millis-where-stated", "at-least-millis", "iso-8601-millis",
               "iso-8601-any-fraction"],
    "LB-E17": ["null-means-pending", "errors-without-result", "null-allowed"],
    "LB-E18": ["error-status-only", "required-for-errors", "free-optional"],
    "LB-E19": ["null-is-wrong-type", "typed-refusal", "null-is-absent", "null-is-allowed"],
    "LB-E20": ["non-negative", "any-integer"],
    "LB-E21": ["known-parent-warning", "resolved-parents", "earlier-parents", "free-reference"],
    "LB-E22": ["earlier-attempt", "failed-earlier-attempt", "known-attempt", "free-link"],
    "LB-E23": ["rule-list", "code-sample"],
    "LB-E24": ["code-point", "utf-16"],
    "LB-E25": ["python-json", "by-value", "number-text"],
    "LB-E26": ["exact-integers", "limited-integers"],
    "LB-E27": ["refuse", "escape"],
    "LB-E28": ["i-json-last-wins", "reject-duplicates", "last-wins", "first-wins"],
    "LB-E30": ["whole-event", "known-fields-only"],
    "LB-E31": ["as-written", "default-filled", "required-field"],
    "LB-E33": ["chain-only", "typed-events", "checked-events"],
    "LB-E35": ["append-position", "increasing-invocation-ids"],
    "LB-E36": ["observational", "ordered-within-event"],
    "LB-E37": ["any-split", "top-level-member", "dotted-walk"],
    "LB-E38": ["redaction-index", "free-map"],
    "LB-E42": ["events-only", "readable-meta", "checked-meta"],
    "LB-E43": ["as-given", "typed-events", "checked-events"],
}


def F(flag, *outcomes):
    """An acceptable set: the outcome under each reading of `flag`, in FLAGS order."""
    readings = FLAGS[flag]
    assert len(outcomes) == len(readings), (flag, outcomes)
    assert len(set(outcomes)) > 1, ("one outcome is required, not acceptable", flag, outcomes)
    return {"flag": flag, "readings": dict(zip(readings, outcomes)), "arcs": readings[0]}


def P(refuse, warn):
    """The unknown_schema_version policy (errata LB-E34)."""
    return {"policy": "unknown_schema_version", "outcomes": {"refuse": refuse, "warn": warn}}


def _op(expect, reqs, quotes, errata, rules=None):
    if isinstance(expect, str):
        expect = {"outcome": expect}
    errata = list(errata)
    if "flag" in expect and expect["flag"] not in errata:
        errata.append(expect["flag"])
    errata = sorted(set(errata), key=lambda e: int(e.split("E")[-1]))
    text = "; ".join(quotes)
    if errata:
        text += ("; " if text else "") + "errata " + ", ".join(errata)
    op = {"requirements": sorted(set(reqs)), "spec_text": text, "expect": expect}
    if rules is not None:
        errors, warnings = rules
        op["requirements"] = sorted(set(reqs) | set(errors) | set(warnings))
        op["rules"] = {"errors": sorted(set(errors)), "warnings": sorted(set(warnings))}
    assert op["requirements"] and op["spec_text"], op
    return op


def V(expect, errors=(), warnings=(), reqs=(), q=(), e=()):
    """validate: the file verdict, with the ARCS checker's exact rule sets."""
    return _op(expect, reqs, q, e, (errors, warnings))


# verify: the chain. Cases whose only defects are outside the chain verify (errata LB-E33).
def VY(expect="verified", reqs=(), q=(), e=("LB-E33",)):
    return _op(expect, ("LB-HASH-7",) + tuple(reqs), (O_CHAIN,) + tuple(q), e)


def RD(expect, reqs, q, e=()):
    """read: what a reader does with the session."""
    return _op(expect, reqs, q, e)


HASH_REQS = ("LB-CANON-2", "LB-CANON-3", "LB-CANON-10", "LB-HASH-1", "LB-HASH-6")
HASH_QUOTES = (C_KEYS, C_WS, C_UTF8, H_COMMENT, H_DUMPS, H_SHA)


def H(expect="hashed", reqs=(), q=(), e=()):
    """hash: each event's canonical SHA-256 (the output is checked against the reference)."""
    return _op(expect, HASH_REQS + tuple(reqs), HASH_QUOTES + tuple(q), e)


def W(expect, reqs=(), q=(), e=()):
    """write: the events written as a chain."""
    return _op(expect, ("LB-COMPAT-7", "LB-COMPAT-8", "LB-HASH-1", "LB-HASH-6") + tuple(reqs),
               (CP_SET, CP_OMIT, H_COMMENT, H_DUMPS, H_SHA) + tuple(q), e)


# The verify expectation of a case built to break a type row with an intact chain (LB-E33).
VY_TYPED = VY(F("LB-E33", "verified", "failed", "failed"))


def verifier_scope(cid, ops, meta_bytes):
    """A verifier checks the chain; whether it also judges the rest of the session is the suite's
    to decide (NOTES.md), so where the session breaks a rule outside the chain and the chain holds,
    its outcome is an acceptable set: LB-E42 for meta.json, LB-E33 for the events. A reader given
    a meta.json that breaks a rule is LB-E42's too (unless the case scores READ otherwise)."""
    vy, val = ops.get("verify"), ops.get("validate")
    if not vy or not val or vy["expect"] != {"outcome": "verified"}:
        return
    exp = val["expect"]
    if "invalid" not in ([exp["outcome"]] if "outcome" in exp else exp["readings"].values()):
        return
    in_meta = cid.startswith("lightbox-meta-") or cid.endswith("-meta")
    if in_meta:
        if meta_bytes is None:  # nothing to judge: a session without meta.json (LB-E2)
            return
        def no_constant(name):  # NaN, Infinity: not JSON (RFC 8259 §6)
            raise ValueError(name)
        try:
            readable = isinstance(json.loads(meta_bytes, parse_constant=no_constant), dict)
        except ValueError:
            readable = False
        flag = F("LB-E42", "verified", "verified" if readable else "failed", "failed")
        if "read" not in ops:
            ops["read"] = RD(F("LB-E42", "accept", "accept" if readable else "reject", "reject"),
                             ("LB-META-1",), (L_META,))
    else:
        flag = F("LB-E33", "verified", "verified", "failed")
    vy["expect"] = flag
    text, _, errata = vy["spec_text"].rpartition("; errata ")
    if not text:
        text, errata = vy["spec_text"], ""
    if in_meta and L_META not in text:
        text += "; " + L_META
    names = set(e for e in errata.split(", ") if e) | {flag["flag"]}
    vy["spec_text"] = text + "; errata " + ", ".join(
        sorted(names, key=lambda e: int(e.split("E")[-1])))


# ------------------------------------------------------------------------------------------------
# The case table.

CASE_LIST = []


def case(cid, description, events, ops, meta=DEFAULT_META, args=None, folder=None):
    """One vector: events (bytes of events.jsonl, or a list of events written by lines()),
    meta (bytes of meta.json, or None for no meta.json), ops by operation name."""
    assert cid.startswith("lightbox-"), cid
    folder = folder or cid[len("lightbox-"):]
    if not isinstance(events, bytes):
        events = lines(events)
    inputs = {"events": "cases/%s/events.jsonl" % folder}
    files = {"%s/events.jsonl" % folder: events}
    if meta is not None:
        inputs["meta"] = "cases/%s/meta.json" % folder
        files["%s/meta.json" % folder] = meta
    c = {"id": cid, "description": description, "inputs": inputs}
    if args:
        c["args"] = args
    order = ["validate", "read", "verify", "hash", "write"]
    verifier_scope(cid, ops, meta)
    c["operations"] = {name: ops[name] for name in order if name in ops}
    assert set(ops) <= set(order), ops.keys()
    CASE_LIST.append((c, files))


# --- Examples of the spec (errata LB-E40) --------------------------------------------------------

EXAMPLE = {"schema_version": "1", "session_id": "session_92c1...", "invocation_id": "inv_00042",
           "tool": "send_email", "input": {"to": "user@example.com", "subject": "Hello"},
           "output": {"success": True, "message_id": "msg_123"}, "status": "complete",
           "timestamp_start": "2025-01-15T10:23:01.123+00:00",
           "timestamp_end": "2025-01-15T10:23:01.456+00:00", "prev_hash": "a3f2c1...",
           "hash": "b4e3d2..."}

VALID_CHAIN_REQS = ("LB-EVENT-1", "LB-EVENT-12", "LB-EVENT-13", "LB-EVENT-15", "LB-HASH-2",
                    "LB-HASH-3", "LB-HASH-4", "LB-HASH-5", "LB-LAYOUT-1", "LB-META-1")


def examples():
    three = chain([event(1), event(2), event(3)])
    case("lightbox-example-chain",
         "Three events shaped like the spec's example, chained by CPython and written as the "
         "upstream recorder writes lines, with the example meta.json.",
         three,
         {"validate": V("valid", reqs=VALID_CHAIN_REQS + ("LB-META-2", "LB-META-6"),
                        q=(O_CHAIN, L_EVENTS, R["schema_version"], R["prev_hash"], R["hash"])),
          "verify": VY(e=("LB-E33",)),
          "hash": H(reqs=("LB-CANON-7",), q=(C_NULLS,))},
         folder="example-chain")
    completed = dict(EXAMPLE, session_id=SESSION)
    del completed["prev_hash"], completed["hash"]
    case("lightbox-example-event",
         "The spec's example event, completed into a one-event session: a real session_id, "
         "prev_hash null (it is the first event), its hash computed.",
         chain([completed]),
         {"validate": V("valid", reqs=VALID_CHAIN_REQS, q=(X_EVENT, R["prev_hash"], R["hash"]),
                        e=("LB-E40",)),
          "verify": VY(e=("LB-E33", "LB-E40")),
          "hash": H()})
    case("lightbox-example-event-verbatim",
         "The spec's example event verbatim on one line, placeholders and all: its hash "
         "\"b4e3d2...\" and prev_hash \"a3f2c1...\" are not SHA-256 hex digests.",
         [EXAMPLE],
         {"validate": V("invalid", errors=["LB-HASH-3", "LB-HASH-4"],
                        q=(X_EVENT, R["hash"], R["prev_hash"], H_SHA), e=("LB-E32", "LB-E40")),
          "verify": VY("failed", q=(H_SHA,), e=("LB-E32", "LB-E33", "LB-E40"))},
         meta=meta(session_id="session_92c1..."))
    spec_meta = ('{\n  "session_id": "session_abc123...",\n  "schema_version": "1",\n'
                 '  "lightbox_version": "0.1.0",\n  "created_at": "2025-01-15T10:00:00.000+00:00"\n'
                 '}\n').encode()
    case("lightbox-example-meta",
         "The spec's meta.json example verbatim (session_id \"session_abc123...\"), beside two "
         "events of that session.",
         chain([event(1, session_id="session_abc123..."),
                event(2, session_id="session_abc123...")]),
         {"validate": V("valid", reqs=("LB-META-1", "LB-META-2", "LB-META-3", "LB-META-4",
                                       "LB-META-5", "LB-META-6"),
                        q=(L_META, M_SID, M_VER, M_LBV, M_CREATED), e=("LB-E9", "LB-E40")),
          "verify": VY()},
         meta=spec_meta)
    case("lightbox-example-retry",
         "The Retries example completed: inv_00001 fails with status error, inv_00002 retries "
         "it with retry_of \"inv_00001\".",
         chain([failed(1), event(2, retry_of="inv_00001")]),
         {"validate": V("valid", reqs=("LB-OPT-8", "LB-RETRY-1", "LB-RETRY-2", "LB-EVENT-14"),
                        q=(RT_NEW, RT_EX, RT_EVID, R["retry_of"]), e=("LB-E22", "LB-E40")),
          "verify": VY()})
    case("lightbox-redact-api-key",
         "The Redacted Content example completed: input.api_key is \"[REDACTED]\" and "
         "content_hashes names it with a SHA-256 digest.",
         chain([event(1), event(2, tool="call_api",
                                input={"url": "https://api.example.com/v1/send",
                                       "api_key": "[REDACTED]"},
                                content_hashes={"input.api_key": sha(json.dumps("sk-live-1234"))})]),
         {"validate": V("valid", reqs=("LB-OPT-7", "LB-REDACT-1", "LB-REDACT-2", "LB-REDACT-3"),
                        q=(RD_WHEN, RD_API, RD_API_HASH, R["content_hashes"]),
                        e=("LB-E37", "LB-E38", "LB-E40")),
          "verify": VY()})
    case("lightbox-redact-oversized",
         "The oversized-content example completed: output.large_field is a {_redacted, _reason, "
         "_bytes} marker named by content_hashes.",
         chain([event(1), event(2, tool="read_file", input={"path": "/var/log/big.log"},
                                output={"large_field": {"_redacted": True,
                                                        "_reason": "size_limit",
                                                        "_bytes": 102400}},
                                content_hashes={"output.large_field": sha("x" * 102400)})]),
         {"validate": V("valid", reqs=("LB-OPT-7", "LB-REDACT-1", "LB-REDACT-2", "LB-REDACT-3"),
                        q=(RD_WHEN, RD_OVER, RD_OVER_HASH, R["content_hashes"]),
                        e=("LB-E37", "LB-E38", "LB-E40")),
          "verify": VY()})


# --- The chain (errata LB-E33, LB-E32) ----------------------------------------------------------

CHAIN_Q = (O_CHAIN, R["prev_hash"], R["hash"])


def broken(cid, description, events, rule, first_broken_reqs=(), extra_errors=(), q=()):
    case(cid, description, events,
         {"validate": V("invalid", errors=[rule, *extra_errors], reqs=first_broken_reqs,
                        q=CHAIN_Q + tuple(q)),
          "verify": VY("failed", reqs=("LB-ORDER-4",), q=(ORD_VERIFY,) + tuple(q), e=())})


def chains():
    three = chain([event(1), event(2), event(3)])
    case("lightbox-chain-valid", "Three chained events, every hash and link right.", three,
         {"validate": V("valid", reqs=VALID_CHAIN_REQS, q=CHAIN_Q),
          "verify": VY(reqs=("LB-ORDER-4",), q=(ORD_VERIFY,), e=()),
          "hash": H(reqs=("LB-CANON-7",), q=(C_NULLS,))})

    def edited(i):
        out = [dict(e) for e in three]
        out[i]["input"] = {"to": "attacker@example.com", "subject": "Hello"}
        return out

    case("lightbox-content-edited",
         "The second event's input edited after the chain was computed: its stored hash is not "
         "the hash of its content.", edited(1),
         {"validate": V("invalid", errors=["LB-HASH-2"], q=CHAIN_Q),
          "verify": VY("failed", e=())})
    broken("lightbox-content-edited-first",
           "The first of three events edited after the chain was computed.", edited(0),
           "LB-HASH-2")
    broken("lightbox-content-edited-last",
           "The last of three events edited after the chain was computed.", edited(2),
           "LB-HASH-2")
    bad = [dict(e) for e in three]
    bad[2]["hash"] = sha("another event")
    broken("lightbox-hash-mismatch",
           "The last event's hash replaced by the SHA-256 of something else (64 lowercase hex "
           "digits).", bad, "LB-HASH-2")
    e1, e2 = two()
    e2 = rehash(dict(e2, prev_hash=sha("an event that is not in the file")))
    broken("lightbox-prev-hash-mismatch",
           "The second event's prev_hash names no event of the file (its own hash recomputed).",
           [e1, e2], "LB-HASH-5")
    f1 = rehash(dict(event(1), prev_hash=sha("an earlier session")))
    f2 = rehash(dict(event(2), prev_hash=f1["hash"]))
    broken("lightbox-first-prev-hash-not-null",
           "The first event's prev_hash is a SHA-256 digest, not null; the chain is otherwise "
           "intact.", [f1, f2], "LB-HASH-4")
    e1, e2 = two()
    e2 = rehash(dict(e2, prev_hash=None))
    broken("lightbox-later-prev-hash-null",
           "The second event's prev_hash is null, as only the first event's may be.", [e1, e2],
           "LB-HASH-5")
    broken("lightbox-events-swapped",
           "The second and third of three chained events written in swapped order.",
           [three[0], three[2], three[1]], "LB-HASH-5")
    broken("lightbox-event-removed",
           "The middle one of three chained events removed.", [three[0], three[2]], "LB-HASH-5")
    broken("lightbox-event-removed-first",
           "The first of three chained events removed: the file starts mid-chain.",
           [three[1], three[2]], "LB-HASH-4")
    case("lightbox-event-removed-last",
         "The last of three chained events removed: what is left is an intact chain of two "
         "(removing the tail cannot be detected).", three[:2],
         {"validate": V("valid", reqs=VALID_CHAIN_REQS, q=CHAIN_Q, e=("LB-E33",)),
          "verify": VY()})
    x = rehash(dict(event(9, tool="delete_files", input={"path": "/"}), prev_hash=three[0]["hash"]))
    broken("lightbox-event-inserted",
           "An event chained to the first one inserted between the first and the second.",
           [three[0], x, three[1], three[2]], "LB-HASH-5")
    broken("lightbox-event-duplicated",
           "The second line written twice: the copy reuses the invocation_id and links to the "
           "first event instead of the second.", [three[0], three[1], three[1], three[2]],
           "LB-HASH-5", extra_errors=("LB-EVENT-14",), q=(R["invocation_id"],))
    e1, e2 = two()
    del e2["hash"]
    case("lightbox-hash-missing", "The second event has no hash member.", [e1, e2],
         {"validate": V("invalid", errors=["LB-EVENT-11"], q=(R["hash"],)),
          "verify": VY("failed")})
    e1 = chain([event(1)])[0]
    e2 = event(2)
    rehash(e2)
    case("lightbox-prev-hash-missing",
         "The second event has no prev_hash member (its hash computed without one).", [e1, e2],
         {"validate": V("invalid", errors=["LB-EVENT-10"], q=(R["prev_hash"],)),
          "verify": VY("failed")})
    e1, e2 = two()
    e2["hash"] = 12345
    case("lightbox-hash-number", "The second event's hash is the number 12345.", [e1, e2],
         {"validate": V("invalid", errors=["LB-EVENT-11"], q=(R["hash"],)),
          "verify": VY("failed")})
    e1, e2 = two()
    e2 = rehash(dict(e2, prev_hash=0))
    case("lightbox-prev-hash-number",
         "The second event's prev_hash is the number 0 (its hash computed with it).", [e1, e2],
         {"validate": V("invalid", errors=["LB-EVENT-10"], q=(R["prev_hash"],)),
          "verify": VY("failed")})
    e1, e2 = two()
    e2["hash"] = e2["hash"].upper()
    case("lightbox-hash-uppercase",
         "The second (last) event's hash written in upper-case hex: the right digest, another "
         "string.", [e1, e2],
         {"validate": V("invalid", errors=["LB-HASH-3"], q=(R["hash"], H_SHA), e=("LB-E32",)),
          "verify": VY("failed", q=(H_SHA,), e=("LB-E32",))})
    e1, e2 = two()
    e2 = rehash(dict(e2, prev_hash=e1["hash"].upper()))
    case("lightbox-prev-hash-uppercase",
         "The second event's prev_hash is the first event's hash in upper-case hex (its own hash "
         "computed over that).", [e1, e2],
         {"validate": V("invalid", errors=["LB-HASH-3"], q=(R["prev_hash"], H_SHA),
                        e=("LB-E32",)),
          "verify": VY("failed", q=(H_SHA,), e=("LB-E32",))})
    for cid, desc, f in (
            ("lightbox-hash-63-digits", "The last event's hash is its digest without the last "
             "hex digit.", lambda h: h[:63]),
            ("lightbox-hash-sha256-prefix", "The last event's hash is \"sha256:\" and its digest.",
             lambda h: "sha256:" + h),
            ("lightbox-hash-base64", "The last event's hash is its digest in base64.",
             lambda h: base64.b64encode(bytes.fromhex(h)).decode())):
        e1, e2 = two()
        e2["hash"] = f(e2["hash"])
        case(cid, desc, [e1, e2],
             {"validate": V("invalid", errors=["LB-HASH-3"], q=(R["hash"], H_SHA), e=("LB-E32",)),
              "verify": VY("failed", q=(H_SHA,), e=("LB-E32",))})
    early = chain([event(1, timestamp_start="2025-01-15T10:00:00.000+00:00",
                         timestamp_end="2025-01-15T10:00:01.000+00:00"),
                   event(2, timestamp_start="2025-01-15T10:00:02.000+00:00",
                         timestamp_end="2025-01-15T10:00:03.000+00:00"),
                   event(3, timestamp_start="2025-01-15T10:00:04.000+00:00",
                         timestamp_end="2025-01-15T10:00:05.000+00:00")])
    broken("lightbox-chain-in-timestamp-order-only",
           "Three events chained in timestamp order, written first, third, second: the lines "
           "hold a chain only when sorted by timestamp.", [early[0], early[2], early[1]],
           "LB-HASH-5", first_broken_reqs=("LB-ORDER-1",), q=(ORD_APPEND,))
    late = chain([event(1, timestamp_start="2025-01-15T10:00:04.000+00:00",
                        timestamp_end="2025-01-15T10:00:05.000+00:00"),
                  event(2, timestamp_start="2025-01-15T10:00:02.000+00:00",
                        timestamp_end="2025-01-15T10:00:03.000+00:00"),
                  event(3, timestamp_start="2025-01-15T10:00:00.000+00:00",
                        timestamp_end="2025-01-15T10:00:01.000+00:00")])
    case("lightbox-timestamps-decreasing",
         "Three chained events whose timestamps decrease along the file.", late,
         {"validate": V("valid", reqs=("LB-ORDER-1", "LB-ORDER-3"),
                        q=(ORD_APPEND, ORD_SKEW), e=("LB-E36",)),
          "verify": VY(reqs=("LB-ORDER-4",), q=(ORD_APPEND, ORD_VERIFY), e=("LB-E33", "LB-E36"))})
    case("lightbox-line-not-canonical",
         "ASCII events written with members unsorted and spaces around every separator: the "
         "hash covers the parsed event, not the line.",
         lines(three, separators=(" , ", " : ")),
         {"validate": V("valid", reqs=("LB-HASH-2", "LB-HASH-7"), q=(O_CHAIN, H_DUMPS),
                        e=("LB-E23",)),
          "verify": VY(reqs=("LB-CANON-3",), q=(H_DUMPS,), e=("LB-E23", "LB-E33"))})
    case("lightbox-line-canonical",
         "Events written as their canonical text with the hash member in its sorted place.",
         b"".join(json.dumps(e, sort_keys=True, separators=(",", ":"),
                             ensure_ascii=False).encode() + b"\n" for e in three),
         {"validate": V("valid", reqs=("LB-HASH-2",), q=(O_CHAIN, H_DUMPS)),
          "verify": VY(),
          "hash": H()})


# --- Lines that are not one JSON object (errata LB-E3) -----------------------------------------

LINE_Q = (L_EVENTS, O_JSONL)


def not_a_line(cid, description, data, extra_q=(), hash_op=False):
    ops = {"validate": V("invalid", errors=["LB-LAYOUT-1"], q=LINE_Q + tuple(extra_q),
                         e=("LB-E3",)),
           "verify": VY("failed", q=(L_EVENTS,), e=("LB-E3", "LB-E33"))}
    if hash_op:
        ops["hash"] = H("refused", q=tuple(extra_q), e=("LB-E3", "LB-E25"))
    case(cid, description, data, ops)


def line_texts(events, ensure_ascii=True):
    return [render(e, ensure_ascii).encode("utf-8") for e in events]


def bad_lines():
    e1, e2 = (x.encode() for x in (render(e) for e in two()))
    not_a_line("lightbox-line-syntax-error",
               "A line between the two events is an object cut off after a member name and "
               "colon.", e1 + b'\n{"schema_version": "1", "session_id": }\n' + e2 + b"\n")
    not_a_line("lightbox-line-two-objects",
               "The second line holds two JSON objects, the event written twice.",
               e1 + b"\n" + e2 + e2 + b"\n")
    not_a_line("lightbox-line-array", "The last line is an empty JSON array.",
               e1 + b"\n" + e2 + b"\n[]\n")
    not_a_line("lightbox-line-number", "The last line is the JSON number 42.",
               e1 + b"\n" + e2 + b"\n42\n")
    not_a_line("lightbox-line-null", "The last line is the JSON literal null.",
               e1 + b"\n" + e2 + b"\nnull\n")
    not_a_line("lightbox-line-comment", "The last line is a // comment.",
               e1 + b"\n" + e2 + b"\n// recorded by lightbox 0.1.0\n")
    a, b = two(output={"success": True, "ratio": Raw("-Infinity", 0)})
    not_a_line("lightbox-line-nan",
               "The second event's output holds -Infinity, which is not a JSON number.",
               lines([a, b]), extra_q=(RFC_NUMBERS,), hash_op=True)
    a, b = two(input={"to": "user@example.com", "x": Raw("NaN", 0)})
    not_a_line("lightbox-number-nan",
               "The second event's input holds NaN, which is not a JSON number.",
               lines([a, b]), extra_q=(RFC_NUMBERS,), hash_op=True)
    for cid, desc, raw in (
            ("lightbox-line-invalid-utf8", "The second event's tool name holds the byte FF, "
             "which UTF-8 never uses.", b"\xff"),
            ("lightbox-line-overlong-utf8", "The second event's tool name holds C0 AF, an "
             "overlong UTF-8 form of \"/\".", b"\xc0\xaf"),
            ("lightbox-line-encoded-surrogate", "The second event's tool name holds ED A0 80, "
             "the UTF-8 form of the surrogate U+D800, which UTF-8 forbids.", b"\xed\xa0\x80")):
        not_a_line(cid, desc, e1 + b"\n" + e2.replace(b'"send_email"', b'"send' + raw + b'email"',
                                                      1) + b"\n", extra_q=(RFC_UTF8,))
    # The byte FF read as U+FFFD, and the chain hashed over that text: still not UTF-8, so not
    # an event, whatever its hash says.
    a, b = chain([event(1), event(2, tool="send\ufffdemail")])
    line = render(b).encode("utf-8").replace(b'"send\\ufffdemail"', b'"send\xffemail"', 1)
    assert b"\xff" in line
    not_a_line("lightbox-invalid-utf8-hashed-as-replacement",
               "The second event's tool name holds the byte FF; its hash was computed over the "
               "line decoded with U+FFFD in place of that byte.",
               render(a).encode() + b"\n" + line + b"\n", extra_q=(RFC_UTF8,), hash_op=True)
    for cid, desc, raw in (
            ("lightbox-line-raw-control-in-string", "The second event's tool name holds a raw "
             "U+0001 byte.", b"\x01"),
            ("lightbox-line-raw-nul", "The second event's tool name holds a raw NUL byte.",
             b"\x00"),
            ("lightbox-line-raw-tab-in-string", "The second event's tool name holds a raw tab.",
             b"\t")):
        not_a_line(cid, desc, e1 + b"\n" + e2.replace(b'"send_email"', b'"send' + raw + b'email"',
                                                      1) + b"\n", extra_q=(RFC_STRINGS,))
    not_a_line("lightbox-line-truncated-last-line",
               "The last line is the second event cut off in the middle, with no final newline "
               "(a crash mid-write).", e1 + b"\n" + e2[:len(e2) // 2])
    not_a_line("lightbox-bom-second-line",
               "The second line starts with a byte order mark (U+FEFF is not JSON whitespace).",
               e1 + b"\n\xef\xbb\xbf" + e2 + b"\n", extra_q=(RFC_BOM,))
    case("lightbox-line-empty-object",
         "The last line is the empty object {}: a JSON object that lacks every member of an "
         "event.", e1 + b"\n" + e2 + b"\n{}\n",
         {"validate": V("invalid", errors=["LB-EVENT-%d" % i for i in range(1, 12)],
                        q=(L_EVENTS,) + tuple(R[k] for k in (
                            "schema_version", "session_id", "invocation_id", "tool", "input",
                            "output", "status", "timestamp_start", "timestamp_end", "prev_hash",
                            "hash")), e=("LB-E3",)),
          "verify": VY("failed", e=("LB-E3", "LB-E33"))})


# --- Blank lines, line endings, BOM, empty log (errata LB-E4 to LB-E8) -------------------------

def layout():
    e1, e2 = line_texts(two())
    blank_q = (L_EVENTS, O_JSONL)

    def blank(cid, description, data):
        case(cid, description, data,
             {"validate": V(F("LB-E4", "invalid", "valid", "invalid"), errors=["LB-LAYOUT-1"],
                            q=blank_q),
              "read": RD(F("LB-E4", "accept", "accept", "reject"), ("LB-LAYOUT-1",), blank_q),
              "verify": VY(F("LB-E4", "verified", "verified", "failed"), q=(L_EVENTS,), e=())})

    blank("lightbox-blank-line-between-events", "An empty line between the two events.",
          e1 + b"\n\n" + e2 + b"\n")
    blank("lightbox-blank-line-at-end", "An empty line after the last event (the file ends "
          "\"\\n\\n\").", e1 + b"\n" + e2 + b"\n\n")
    blank("lightbox-blank-line-before-first-event", "An empty first line, then the two events.",
          b"\n" + e1 + b"\n" + e2 + b"\n")
    blank("lightbox-blank-line-spaces-only", "A line of three spaces between the two events.",
          e1 + b"\n   \n" + e2 + b"\n")
    blank("lightbox-blank-lines-only", "events.jsonl holds two empty lines and nothing else.",
          b"\n\n")
    blank("lightbox-blank-line-crlf-empty-line", "A line holding only CR (\"\\r\\n\") between "
          "two LF-terminated events.", e1 + b"\n\r\n" + e2 + b"\n")
    case("lightbox-no-final-newline",
         "Two events; the last line, a complete event, has no final newline.",
         e1 + b"\n" + e2,
         {"validate": V(F("LB-E5", "valid", "invalid", "invalid"), reqs=("LB-LAYOUT-1",),
                        q=(L_EVENTS,)),
          "read": RD(F("LB-E5", "accept", "accept", "reject"), ("LB-LAYOUT-1",), (L_EVENTS,)),
          "verify": VY(F("LB-E5", "verified", "verified", "failed"), q=(L_EVENTS,), e=())})

    def ending(cid, description, data):
        case(cid, description, data,
             {"validate": V(F("LB-E6", "valid", "invalid"), reqs=("LB-LAYOUT-1",),
                            q=(L_EVENTS, RFC_TEXT)),
              "read": RD("accept", ("LB-LAYOUT-1",), (L_EVENTS, RFC_TEXT), e=("LB-E6",)),
              "verify": VY(q=(L_EVENTS,), e=("LB-E6", "LB-E33"))})

    ending("lightbox-crlf", "Both events end with CRLF.", e1 + b"\r\n" + e2 + b"\r\n")
    ending("lightbox-mixed-line-endings", "The first event ends with CRLF, the second with LF.",
           e1 + b"\r\n" + e2 + b"\n")
    ending("lightbox-space-before-object", "Two spaces before the second event's object.",
           e1 + b"\n  " + e2 + b"\n")
    ending("lightbox-tab-after-object", "A tab after the first event's object.",
           e1 + b"\t\n" + e2 + b"\n")
    bom_q = (L_EVENTS, RFC_BOM)
    case("lightbox-bom-events", "events.jsonl starts with a UTF-8 byte order mark.",
         b"\xef\xbb\xbf" + e1 + b"\n" + e2 + b"\n",
         {"validate": V(F("LB-E7", "invalid", "invalid", "valid"), errors=["LB-LAYOUT-1"],
                        q=bom_q),
          "read": RD(F("LB-E7", "accept", "reject", "accept"), ("LB-LAYOUT-1",), bom_q),
          "verify": VY(F("LB-E7", "verified", "failed", "verified"), q=bom_q, e=())})
    case("lightbox-bom-meta", "meta.json starts with a UTF-8 byte order mark.",
         e1 + b"\n" + e2 + b"\n",
         {"validate": V(F("LB-E7", "invalid", "invalid", "valid"), errors=["LB-META-1"],
                        q=(L_META, RFC_BOM)),
          "verify": VY(e=("LB-E7", "LB-E33"))},
         meta=b"\xef\xbb\xbf" + DEFAULT_META)
    case("lightbox-events-empty", "An empty (0-byte) events.jsonl beside a valid meta.json.", b"",
         {"validate": V(F("LB-E8", "valid", "invalid"), reqs=("LB-LAYOUT-1", "LB-HASH-4"),
                        q=(L_EVENTS, R["prev_hash"])),
          "read": RD(F("LB-E8", "accept", "reject"), ("LB-LAYOUT-1",), (L_EVENTS,)),
          "verify": VY(F("LB-E8", "verified", "failed"), q=(L_EVENTS,), e=())})


# --- meta.json (errata LB-E2, LB-E9, LB-E10) ----------------------------------------------------

def metas():
    base = two()
    case("lightbox-meta-absent", "A valid two-event log given without meta.json.", base,
         {"validate": V(F("LB-E2", "valid", "invalid"), reqs=("LB-LAYOUT-2",),
                        q=(L_DIR, L_EVENTS, L_META)),
          "verify": VY(e=("LB-E2", "LB-E33"))}, meta=None)
    for cid, desc, data in (
            ("lightbox-meta-not-json", "meta.json is an object cut off after its first member.",
             b'{\n  "session_id": "session_92c1",\n'),
            ("lightbox-meta-empty", "meta.json is empty (0 bytes).", b""),
            ("lightbox-meta-array", "meta.json is a JSON array holding the metadata object.",
             b"[" + DEFAULT_META.strip() + b"]\n"),
            ("lightbox-meta-nan", "meta.json holds NaN in a member of its own (not JSON, RFC 8259 "
             "§6; Python's json reads it).",
             DEFAULT_META.replace(b'\n}', b',\n  "load": NaN\n}', 1))):
        q = (L_META, M_SID) + ((RFC_NUMBERS,) if cid.endswith("-nan") else ())
        case(cid, desc, base,
             {"validate": V("invalid", errors=["LB-META-1"], q=q, e=("LB-E9",)),
              "verify": VY(e=("LB-E3", "LB-E33"))}, meta=data)
    for cid, desc, m, rule, q in (
            ("lightbox-meta-missing-session-id", "meta.json has no session_id.",
             meta(session_id=DROP), "LB-META-2", M_SID),
            ("lightbox-meta-missing-schema-version", "meta.json has no schema_version.",
             meta(schema_version=DROP), "LB-META-3", M_VER),
            ("lightbox-meta-missing-lightbox-version", "meta.json has no lightbox_version.",
             meta(lightbox_version=DROP), "LB-META-4", M_LBV),
            ("lightbox-meta-missing-created-at", "meta.json has no created_at.",
             meta(created_at=DROP), "LB-META-5", M_CREATED),
            ("lightbox-meta-lightbox-version-number", "meta.json's lightbox_version is the "
             "number 0.1.", DEFAULT_META.replace(b'"0.1.0"', b'0.1'), "LB-META-4", M_LBV),
            ("lightbox-meta-session-id-null", "meta.json's session_id is null.",
             meta(session_id=None), "LB-META-2", M_SID),
            ("lightbox-meta-created-at-impossible-date", "meta.json's created_at is "
             "2025-02-30T10:00:00.000+00:00, a date that does not exist.",
             meta(created_at="2025-02-30T10:00:00.000+00:00"), "LB-META-5", M_CREATED),
            ("lightbox-meta-schema-version-number", "meta.json's schema_version is the number 1, "
             "not the string \"1\".", meta(schema_version=1), "LB-META-3", M_VER)):
        ops = {"validate": V(F("LB-E9", "invalid", "valid"), errors=[rule], q=(L_META, q))}
        if cid.endswith("schema-version-number"):
            ops["validate"] = V(F("LB-E9", "invalid", "valid"), errors=[rule],
                                reqs=("LB-COMPAT-7",), q=(L_META, q, CP_SET), e=("LB-E34",))
            ops["read"] = RD(P("reject", "accept"), ("LB-COMPAT-5", "LB-COMPAT-6"),
                             (CP_REFUSE, CP_WARN), e=("LB-E34",))
            ops["verify"] = VY(P("failed", "verified"), reqs=("LB-COMPAT-5", "LB-COMPAT-6"),
                               q=(CP_REFUSE, CP_WARN), e=("LB-E34",))
        else:
            ops["verify"] = VY(e=("LB-E9", "LB-E33"))
        case(cid, desc, base, ops, meta=m)
    case("lightbox-meta-indented-no-newline",
         "meta.json as upstream writes it: indented by two spaces, no final newline.", base,
         {"validate": V("valid", reqs=("LB-META-1",), q=(L_META, M_SID), e=("LB-E9",)),
          "verify": VY()}, meta=json.dumps(META, indent=2).encode())
    case("lightbox-meta-extra-member",
         "meta.json holds a fifth member, \"hostname\", besides the four of the example.", base,
         {"validate": V("valid", reqs=("LB-META-1", "LB-COMPAT-2"), q=(L_META, CP_NEW),
                        e=("LB-E9", "LB-E30")),
          "verify": VY()}, meta=meta(hostname="ci-runner-7"))
    case("lightbox-meta-unknown-field",
         "meta.json holds an unknown member whose value is a nested object.", base,
         {"validate": V("valid", reqs=("LB-META-1", "LB-COMPAT-2"), q=(L_META, CP_NEW),
                        e=("LB-E30",)),
          "read": RD("accept", ("LB-COMPAT-1",), (CP_FWD,), e=("LB-E30",)),
          "verify": VY()}, meta=meta(x_labels={"team": "infra", "build": 1234}))
    case("lightbox-meta-session-id-differs",
         "meta.json's session_id is not the events' session_id.", base,
         {"validate": V(F("LB-E10", "invalid", "valid"), errors=["LB-META-6"],
                        q=(M_SID, R["session_id"])),
          "verify": VY(e=("LB-E10", "LB-E33"))}, meta=meta(session_id="session_other"))
    case("lightbox-events-session-id-differs",
         "The second event's session_id is not the first event's.",
         two(session_id="session_other"),
         {"validate": V(F("LB-E10", "invalid", "valid"), errors=["LB-EVENT-19"],
                        q=(R["session_id"],)),
          "verify": VY(e=("LB-E10", "LB-E33"))})
    case("lightbox-meta-created-after-events",
         "meta.json's created_at is a day after the events' timestamps.", base,
         {"validate": V("valid", reqs=("LB-META-5", "LB-ORDER-3"), q=(ORD_SKEW, M_CREATED),
                        e=("LB-E36",)),
          "verify": VY()}, meta=meta(created_at="2025-01-16T10:00:00.000+00:00"))
    case("lightbox-meta-created-at-no-fraction",
         "meta.json's created_at has no fraction of a second: 2025-01-15T10:00:00+00:00.", base,
         {"validate": V(F("LB-E16", "invalid", "valid", "invalid", "invalid", "valid"),
                        errors=["LB-META-5"], q=(M_CREATED, R["timestamp_start"])),
          "verify": VY(e=("LB-E16", "LB-E33"))},
         meta=meta(created_at="2025-01-15T10:00:00+00:00"))
    case("lightbox-meta-surrogate-lone",
         "meta.json's lightbox_version ends with the escape \\ud800, a lone surrogate.", base,
         {"validate": V(F("LB-E27", "invalid", "valid"), errors=["LB-CANON-8"],
                        q=(C_UTF8, RFC_SURROGATE)),
          "verify": VY(e=("LB-E27", "LB-E33"))},
         meta=DEFAULT_META.replace(b'"0.1.0"', b'"0.1.0\\ud800"'))
    case("lightbox-meta-dup-session-id",
         "meta.json names session_id twice, both times with the events' session_id.", base,
         {"validate": V(F("LB-E28", "invalid", "invalid", "valid", "valid"),
                        errors=["LB-CANON-9"], q=(M_SID, C_KEYS, RFC_NAMES)),
          "verify": VY(e=("LB-E28", "LB-E33"))},
         meta=DEFAULT_META.replace(b'{\n', b'{\n  "session_id": "session_92c1",\n', 1))


# --- The field tables (errata LB-E33, LB-E19, LB-E31) -------------------------------------------

def typed(cid, description, field, value, rule, events=None, extra_q=(), e=(), read=None):
    """The second event's `field` set to `value` (DROP: left out), the chain intact."""
    if events is None:
        events = two(**{field: value})
    ops = {"validate": V("invalid", errors=[rule], q=(R[field],) + tuple(extra_q), e=e),
           "verify": VY_TYPED}
    if read:  # what a reader makes of it (errata LB-E43)
        ops["read"] = read
    case(cid, description, events, ops)


def fields():
    typed("lightbox-session-id-missing", "The second event has no session_id.", "session_id",
          DROP, "LB-EVENT-2")
    typed("lightbox-session-id-number", "The second event's session_id is the number 92.",
          "session_id", 92, "LB-EVENT-2")
    typed("lightbox-invocation-id-missing", "The second event has no invocation_id.",
          "invocation_id", DROP, "LB-EVENT-3")
    typed("lightbox-invocation-id-number", "The second event's invocation_id is the number 2.",
          "invocation_id", 2, "LB-EVENT-3", e=("LB-E11",))
    typed("lightbox-tool-missing", "The second event has no tool.", "tool", DROP, "LB-EVENT-4",
          read=RD(F("LB-E43", "accept", "reject", "reject"), ("LB-EVENT-4",), (R["tool"],)))
    typed("lightbox-tool-number", "The second event's tool is the number 7.", "tool", 7,
          "LB-EVENT-4")
    typed("lightbox-input-missing", "The second event has no input.", "input", DROP,
          "LB-EVENT-5")
    typed("lightbox-input-string", "The second event's input is a string holding JSON text.",
          "input", '{"to": "user@example.com"}', "LB-EVENT-5")
    typed("lightbox-input-null", "The second event's input is null.", "input", None,
          "LB-EVENT-5")
    typed("lightbox-input-array", "The second event's input is an array of arguments.",
          "input", ["user@example.com", "Hello"], "LB-EVENT-5")
    typed("lightbox-output-missing", "The second event has no output.", "output", DROP,
          "LB-EVENT-6")
    typed("lightbox-output-string", "The second event's output is the string \"ok\".", "output",
          "ok", "LB-EVENT-6")
    typed("lightbox-status-missing", "The second event has no status.", "status", DROP,
          "LB-EVENT-7")
    typed("lightbox-status-number", "The second event's status is the number 1.", "status", 1,
          "LB-EVENT-7")
    typed("lightbox-ts-start-missing", "The second event has no timestamp_start.",
          "timestamp_start", DROP, "LB-EVENT-8")
    typed("lightbox-ts-start-number", "The second event's timestamp_start is a number of "
          "milliseconds since 1970.", "timestamp_start", 1736936581123, "LB-EVENT-8")
    typed("lightbox-ts-end-missing", "The second event has no timestamp_end.", "timestamp_end",
          DROP, "LB-EVENT-9")
    typed("lightbox-ts-end-number", "The second event's timestamp_end is a number of "
          "milliseconds since 1970.", "timestamp_end", 1736936581456, "LB-EVENT-9")
    typed("lightbox-parent-invocation-number", "The second event's parent_invocation is the "
          "number 1.", "parent_invocation", 1, "LB-OPT-1")
    typed("lightbox-actor-number", "The second event's actor is the number 0.", "actor", 0,
          "LB-OPT-2")
    typed("lightbox-originating-actor-bool", "The second event's originating_actor is true.",
          "originating_actor", True, "LB-OPT-3")
    typed("lightbox-error-string", "The second event has status error and error \"timeout\", a "
          "string.", "error", "timeout", "LB-OPT-4",
          events=chain([event(1), failed(2, error="timeout")]), e=("LB-E18",))
    typed("lightbox-chunk-count-string", "The second event's chunk_count is the string \"3\".",
          "chunk_count", "3", "LB-OPT-5")
    typed("lightbox-total-bytes-bool", "The second event's total_bytes is false.", "total_bytes",
          False, "LB-OPT-6")
    typed("lightbox-content-hashes-array", "The second event's content_hashes is an array of "
          "digests.", "content_hashes", [sha("x")], "LB-OPT-7", e=("LB-E38",))
    typed("lightbox-retry-of-number", "The second event's retry_of is the number 1.", "retry_of",
          1, "LB-OPT-8")
    case("lightbox-optional-fields-all",
         "Three events using every optional field with its type: a parent, actors, streaming "
         "counts, a redaction, a failed call and its retry.",
         chain([event(1, tool="agent_step", actor="agent", originating_actor="user"),
                failed(2, parent_invocation="inv_00001", actor="agent", originating_actor="user",
                       chunk_count=3, total_bytes=2048, input={"token": "[REDACTED]"},
                       content_hashes={"input.token": sha(json.dumps("tok-1"))}),
                event(3, parent_invocation="inv_00001", retry_of="inv_00002", actor="agent",
                      originating_actor="user", chunk_count=0, total_bytes=0)]),
         {"validate": V("valid", reqs=["LB-OPT-%d" % i for i in range(1, 9)] +
                        ["LB-OPT-10", "LB-OPT-11", "LB-OPT-12", "LB-RETRY-2", "LB-REDACT-1",
                         "LB-REDACT-2", "LB-REDACT-3"],
                        q=tuple(R[k] for k in ("parent_invocation", "actor", "originating_actor",
                                               "error", "chunk_count", "total_bytes",
                                               "content_hashes", "retry_of"))),
          "verify": VY(),
          "hash": H()})
    # A missing schema_version (LB-E31): required invalid; what its hash is, is not settled.
    w = chain([event(1), event(2, schema_version=DROP)])
    e1 = chain([event(1)])[0]
    d2 = event(2, schema_version=DROP, prev_hash=e1["hash"])
    d2["hash"] = sha(canonical(d2, fill_version=True))
    for cid, desc, events, errors, verify in (
            ("lightbox-schema-version-missing-as-written", "The second event has no "
             "schema_version; its hash was computed over the event as written.", w,
             ["LB-EVENT-1"], ("verified", "failed", "failed")),
            ("lightbox-schema-version-missing-filled", "The second event has no schema_version; "
             "its hash was computed with \"schema_version\": \"1\" filled in, as upstream does.",
             [e1, d2], ["LB-EVENT-1", "LB-HASH-2"], ("failed", "verified", "failed"))):
        case(cid, desc, events,
             {"validate": V("invalid", errors=errors, reqs=("LB-COMPAT-8",),
                            q=(R["schema_version"], CP_OMIT), e=("LB-E31",)),
              "verify": VY(F("LB-E31", *verify), q=(H_COMMENT,), e=()),
              "hash": H(F("LB-E31", "hashed", "hashed", "refused"), e=("LB-E31",))})
    # Optional fields whose value is null (LB-E19).
    k = two(actor=None)
    e1 = chain([event(1)])[0]
    d = dict(event(2, actor=None), prev_hash=e1["hash"])
    d["hash"] = sha(canonical(d, leave_out=("actor",)))
    null_cases = (
        ("lightbox-actor-null-hashed", "The second event's actor is null, and its hash covers "
         "\"actor\": null.", k, "LB-OPT-2", "actor", "K"),
        ("lightbox-actor-null-dropped", "The second event's actor is null, and its hash was "
         "computed without the member, as upstream does.", [e1, d], "LB-OPT-2", "actor", "D"),
        ("lightbox-retry-of-null-hashed", "The second event's retry_of is null, and its hash "
         "covers it.", two(retry_of=None), "LB-OPT-8", "retry_of", "K"),
        ("lightbox-error-null-hashed", "The second event has status error and error null, and "
         "its hash covers it.", chain([event(1), failed(2, error=None)]), "LB-OPT-4", "error",
         "K"))
    for cid, desc, events, rule, field, shape in null_cases:
        if shape == "K":
            validate, verify = ("invalid", "invalid", "invalid", "valid"), \
                ("verified", "failed", "failed", "verified")
            errors = [rule]
        else:
            validate, verify = ("invalid", "invalid", "valid", "invalid"), \
                ("failed", "failed", "verified", "failed")
            errors = [rule, "LB-HASH-2"]
        case(cid, desc, events,
             {"validate": V(F("LB-E19", *validate), errors=errors, q=(R[field], R["prev_hash"])),
              "verify": VY(F("LB-E19", *verify), q=(H_COMMENT,), e=()),
              "hash": H(F("LB-E19", "hashed", "refused", "hashed", "hashed"),
                        reqs=("LB-CANON-7",), q=(C_NULLS,))})


# --- Status, null output and end, error details, counts (LB-E17, LB-E18, LB-E20) -------------

def statuses():
    case("lightbox-status-unknown", "The second event's status is \"done\".", two(status="done"),
         {"validate": V("invalid", errors=["LB-EVENT-12"], q=(R["status"],)),
          "read": RD(F("LB-E43", "accept", "reject", "reject"), ("LB-EVENT-12",), (R["status"],)),
          "verify": VY()})
    case("lightbox-status-capitalized", "The second event's status is \"Complete\".",
         two(status="Complete"),
         {"validate": V("invalid", errors=["LB-EVENT-12"], q=(R["status"],)),
          "verify": VY()})
    for cid, desc, events, rule, outcomes, q in (
            ("lightbox-complete-output-null", "A complete event whose output is null.",
             two(output=None), "LB-EVENT-17", ("invalid", "invalid", "valid"), R["output"]),
            ("lightbox-error-output-null", "An error event (with error details) whose output is "
             "null.", chain([event(1), failed(2, output=None)]), "LB-EVENT-17",
             ("invalid", "valid", "valid"), R["output"]),
            ("lightbox-error-end-null", "An error event (with error details) whose timestamp_end "
             "is null.", chain([event(1), failed(2, timestamp_end=None)]), "LB-EVENT-18",
             ("invalid", "invalid", "valid"), R["timestamp_end"]),
            ("lightbox-complete-end-null", "A complete event whose timestamp_end is null.",
             two(timestamp_end=None), "LB-EVENT-18", ("invalid", "invalid", "valid"),
             R["timestamp_end"])):
        case(cid, desc, events,
             {"validate": V(F("LB-E17", *outcomes), errors=[rule], q=(q, A_PENDING)),
              "verify": VY(e=("LB-E17", "LB-E33"))})
    for cid, desc, fields in (
            ("lightbox-pending-output-not-null", "A pending event (never resolved) whose output "
             "is an object.", {"output": {"queued": True}}),
            ("lightbox-pending-end-not-null", "A pending event (never resolved) whose "
             "timestamp_end is a timestamp.", {"timestamp_end": T_END})):
        case(cid, desc, chain([event(1), pending(2, **fields)]),
             {"validate": V("invalid", errors=["LB-ASYNC-2"], q=(A_PENDING,), e=("LB-E17",)),
              "verify": VY()})
    for cid, desc, events, errors, warnings, outcomes in (
            ("lightbox-error-without-details", "An error event without an error member.",
             chain([event(1), failed(2, error=DROP)]), [], ["LB-OPT-13"],
             ("valid", "invalid", "valid")),
            ("lightbox-complete-with-error", "A complete event with an error member.",
             two(error={"message": "partial"}), ["LB-OPT-11"], [],
             ("invalid", "invalid", "valid")),
            ("lightbox-pending-with-error", "A pending event (never resolved) with an error "
             "member.", chain([event(1), pending(2, error={"message": "slow"})]), ["LB-OPT-11"],
             [], ("invalid", "invalid", "valid"))):
        case(cid, desc, events,
             {"validate": V(F("LB-E18", *outcomes), errors=errors, warnings=warnings,
                            q=(R["error"],)),
              "verify": VY(e=("LB-E18", "LB-E33"))})
    case("lightbox-error-details-any-members",
         "An error event whose error object holds a number and an array.",
         chain([event(1), failed(2, error={"code": 7, "trace": ["a"]})]),
         {"validate": V("valid", reqs=("LB-OPT-4", "LB-OPT-11"), q=(R["error"],), e=("LB-E18",)),
          "verify": VY()})
    for cid, desc, field in (
            ("lightbox-chunk-count-negative", "The second event's chunk_count is -1.",
             "chunk_count"),
            ("lightbox-total-bytes-negative", "The second event's total_bytes is -1.",
             "total_bytes")):
        case(cid, desc, two(**{field: -1}),
             {"validate": V(F("LB-E20", "invalid", "valid"), errors=["LB-OPT-12"], q=(R[field],)),
              "verify": VY(e=("LB-E20", "LB-E33"))})
    case("lightbox-chunk-count-negative-zero",
         "The second event's chunk_count is written -0; its hash covers the integer 0, as "
         "Python parses it.", two(chunk_count=Raw("-0", 0)),
         {"validate": V(F("LB-E25", "valid", "valid", "invalid"), reqs=("LB-OPT-12", "LB-OPT-5"),
                        q=(R["chunk_count"], C_FLOATS), e=("LB-E20",)),
          "verify": VY(F("LB-E25", "verified", "verified", "failed"), q=(H_DUMPS,), e=()),
          "hash": H(reqs=("LB-CANON-5",), q=(C_FLOATS,), e=("LB-E25",))})


# --- Invocation ids, async pairs, retries, parents (LB-E11 to LB-E15, LB-E21, LB-E22, LB-E35) --

def invocations():
    inv_q = (R["invocation_id"],)
    for cid, desc, inv, outcomes in (
            ("lightbox-invocation-id-six-digits", "The second event's invocation_id is "
             "inv_100000 (the 100,000th call).", "inv_100000", ("valid", "invalid", "valid")),
            ("lightbox-invocation-id-twenty-digits", "The second event's invocation_id is inv_ "
             "and 20 digits.", "inv_00000000000000000002", ("valid", "invalid", "valid")),
            ("lightbox-invocation-id-four-digits", "The second event's invocation_id is "
             "inv_0002.", "inv_0002", ("invalid", "invalid", "valid")),
            ("lightbox-invocation-id-uppercase", "The second event's invocation_id is "
             "INV_00002.", "INV_00002", ("invalid", "invalid", "valid")),
            ("lightbox-invocation-id-hyphen", "The second event's invocation_id is inv-00002.",
             "inv-00002", ("invalid", "invalid", "valid")),
            ("lightbox-invocation-id-letter", "The second event's invocation_id is inv_0000a.",
             "inv_0000a", ("invalid", "invalid", "valid")),
            ("lightbox-invocation-id-fullwidth-digits", "The second event's invocation_id is "
             "inv_ and five FULLWIDTH DIGIT characters.", "inv_\uff10\uff10\uff10\uff10\uff12",
             ("invalid", "invalid", "valid")),
            ("lightbox-invocation-id-other-prefix", "The second event's invocation_id is "
             "call_00002.", "call_00002", ("invalid", "invalid", "valid")),
            ("lightbox-invocation-id-empty", "The second event's invocation_id is \"\".", "",
             ("invalid", "invalid", "valid"))):
        # The row's "format: `inv_NNNNN`" is Description text: under `any-string` it describes
        # upstream's ids and the Type column's string is the rule (LB-E11).
        errors = ["LB-EVENT-13"] if outcomes[0] == "invalid" else []
        case(cid, desc, two(invocation_id=inv),
             {"validate": V(F("LB-E11", *outcomes), errors=errors, reqs=("LB-EVENT-13",),
                            q=inv_q + (X_EVENT,)),
              "verify": VY(e=("LB-E11", "LB-E33"))})
    case("lightbox-invocation-id-same-number",
         "Two calls inv_00001 and inv_000001: different strings with the same number.",
         two(invocation_id="inv_000001"),
         {"validate": V(F("LB-E11", "valid", "invalid", "valid"),
                        reqs=("LB-EVENT-13", "LB-EVENT-14"), q=inv_q),
          "verify": VY(e=("LB-E11", "LB-E33"))})
    pair = chain([event(1), pending(2, tool="run_job", input={"job": "build"}),
                  resolution(2, tool="run_job", output={"exit_code": 0})])
    case("lightbox-async-pair",
         "An async call: a pending event, then its resolution with the same invocation_id, "
         "status complete and input {}.", pair,
         {"validate": V("valid", reqs=("LB-ASYNC-1", "LB-ASYNC-2", "LB-ASYNC-3", "LB-EVENT-14",
                                       "LB-EVENT-17", "LB-EVENT-18"),
                        q=(A_TWO, A_PENDING, A_RESOLVED, A_BOTH) + inv_q, e=("LB-E12",)),
          "verify": VY(),
          "hash": H(reqs=("LB-CANON-7",), q=(C_NULLS,))})
    unique = [
        ("lightbox-invocation-id-reused", "Two complete events with the same invocation_id.",
         chain([event(1), event(1, input={"to": "other@example.com", "subject": "Hi"})]),
         ["LB-EVENT-14"], (R["invocation_id"],), ("LB-E12",)),
        ("lightbox-retry-reuses-id", "A retry of a failed call that reuses the call's "
         "invocation_id (and names it in retry_of).",
         chain([failed(1), event(1, retry_of="inv_00001")]), ["LB-EVENT-14", "LB-RETRY-1"],
         (R["invocation_id"], RT_NEW), ("LB-E12", "LB-E22")),
        ("lightbox-async-resolved-twice", "A pending event resolved twice, by two complete "
         "events.", chain([pending(1), resolution(1), resolution(1, output={"again": True})]),
         ["LB-ASYNC-3"], (A_TWO, A_RESOLVED), ("LB-E13",)),
        ("lightbox-async-pending-twice", "Two pending events with one invocation_id, then a "
         "resolution.", chain([pending(1), pending(1), resolution(1)]), ["LB-EVENT-14"],
         (A_TWO, A_PENDING) + inv_q, ("LB-E13",)),
        ("lightbox-async-error-then-complete", "A pending event resolved by an error event, "
         "then by a complete event.",
         chain([pending(1), resolution(1, status="error",
                                       error={"message": "lost connection"}), resolution(1)]),
         ["LB-ASYNC-3"], (A_TWO, A_RESOLVED), ("LB-E13",)),
        ("lightbox-async-resolution-before-pending", "A complete event with input {}, then a "
         "pending event with its invocation_id.", chain([resolution(1), pending(1)]),
         ["LB-EVENT-14"], (A_TWO, A_PENDING, A_RESOLVED) + inv_q, ("LB-E13",)),
        ("lightbox-async-resolution-input-not-empty", "An async call whose resolution repeats "
         "input {\"job\": \"build\"}.",
         chain([pending(1, input={"job": "build"}), resolution(1, input={"job": "build"})]),
         ["LB-ASYNC-3"], (A_RESOLVED,), ("LB-E15",)),
    ]
    for cid, desc, events, errors, q, e in unique:
        ops = {"validate": V("invalid", errors=errors, q=q, e=e), "verify": VY()}
        if cid == "lightbox-invocation-id-reused":  # a reader's business? (errata LB-E43)
            ops["read"] = RD(F("LB-E43", "accept", "accept", "reject"), ("LB-EVENT-14",), q)
        case(cid, desc, events, ops)
    for cid, desc, events in (
            ("lightbox-async-pending-at-end", "The last event is a pending call with no "
             "resolution yet.", chain([event(1), pending(2)])),
            ("lightbox-async-pending-never-resolved", "A pending call that no later event "
             "resolves, followed by two complete calls.",
             chain([pending(1), event(2), event(3)]))):
        case(cid, desc, events,
             {"validate": V(F("LB-E14", "valid", "invalid"), reqs=("LB-ASYNC-1",),
                            q=(A_TWO, A_BOTH)),
              "verify": VY(e=("LB-E14", "LB-E33"))})
    for cid, desc, fields in (
            ("lightbox-async-resolution-other-tool", "An async call whose resolution names "
             "another tool.", {"tool": "send_sms"}),
            ("lightbox-async-resolution-other-start", "An async call whose resolution has "
             "another timestamp_start than its pending event (that of its own recording).", {}),
            ("lightbox-async-resolution-other-actor", "An async call whose pending event says "
             "actor agent and whose resolution says actor service.", {"actor": "service"})):
        p = pending(1, actor="agent", timestamp_start=T_START)
        r = resolution(1, actor="agent", timestamp_start=T_START)
        if cid.endswith("other-start"):
            r["timestamp_start"] = "2025-01-15T10:23:02.000+00:00"
        r.update(fields)
        case(cid, desc, chain([p, r]),
             {"validate": V(F("LB-E15", "valid", "invalid"), reqs=("LB-ASYNC-3",),
                            q=(A_RESOLVED,)),
              "verify": VY(e=("LB-E15", "LB-E33"))})
    case("lightbox-async-resolution-error",
         "An async call resolved by an error event (input {}, error details).",
         chain([pending(1), resolution(1, status="error", output={},
                                       error={"message": "job failed"})]),
         {"validate": V("valid", reqs=("LB-ASYNC-1", "LB-ASYNC-3", "LB-OPT-11"),
                        q=(A_TWO, A_RESOLVED), e=("LB-E13",)),
          "verify": VY()})
    case("lightbox-async-interleaved",
         "Two async calls and a synchronous one, interleaved: pending 1, pending 2, complete 3, "
         "resolution 2, resolution 1.",
         chain([pending(1), pending(2), event(3), resolution(2), resolution(1)]),
         {"validate": V("valid", reqs=("LB-ASYNC-1", "LB-ASYNC-3", "LB-EVENT-14", "LB-ORDER-2"),
                        q=(A_TWO, A_RESOLVED, ORD_NUM), e=("LB-E12", "LB-E35")),
          "verify": VY()})
    for cid, desc, ids in (
            ("lightbox-invocation-ids-decreasing", "Three calls whose invocation ids decrease "
             "along the file: inv_00003, inv_00002, inv_00001.", (3, 2, 1)),
            ("lightbox-invocation-ids-concurrent", "inv_00002 completes and is appended before "
             "inv_00001.", (2, 1))):
        case(cid, desc, chain([event(n) for n in ids]),
             {"validate": V(F("LB-E35", "valid", "invalid"), reqs=("LB-ORDER-2",), q=(ORD_NUM,)),
              "verify": VY(e=("LB-E33", "LB-E35"))})
    case("lightbox-invocation-ids-gaps", "Three calls inv_00001, inv_00005, inv_00009.",
         chain([event(1), event(5), event(9)]),
         {"validate": V("valid", reqs=("LB-ORDER-2", "LB-EVENT-13"), q=(ORD_NUM,), e=("LB-E35",)),
          "verify": VY()})
    # Parents (LB-E21).
    for cid, desc, events, errors, warnings, outcomes in (
            ("lightbox-parent-unknown", "The second event's parent_invocation names an "
             "invocation no event has.", two(parent_invocation="inv_00099"), [], ["LB-OPT-9"],
             ("valid", "invalid", "invalid", "valid")),
            ("lightbox-parent-later", "The first event's parent is the second event, appended "
             "after it (a parent recorded when it returns).",
             chain([event(1, parent_invocation="inv_00002"), event(2, tool="agent_step")]), [],
             [], ("valid", "valid", "invalid", "valid")),
            ("lightbox-parent-self", "The second event's parent_invocation is its own "
             "invocation_id.", two(parent_invocation="inv_00002"), ["LB-OPT-10"], [],
             ("invalid", "invalid", "invalid", "valid")),
            ("lightbox-parent-cycle", "Two events each naming the other as parent.",
             chain([event(1, parent_invocation="inv_00002"),
                    event(2, parent_invocation="inv_00001")]), ["LB-OPT-10"], [],
             ("invalid", "invalid", "invalid", "valid"))):
        case(cid, desc, events,
             {"validate": V(F("LB-E21", *outcomes), errors=errors, warnings=warnings,
                            reqs=("LB-OPT-9", "LB-OPT-10"), q=(R["parent_invocation"],)),
              "verify": VY(e=("LB-E21", "LB-E33"))})
    case("lightbox-parent-earlier", "The second event's parent is the first event.",
         chain([event(1, tool="agent_step"), event(2, parent_invocation="inv_00001")]),
         {"validate": V("valid", reqs=("LB-OPT-1", "LB-OPT-9", "LB-OPT-10"),
                        q=(R["parent_invocation"],), e=("LB-E21",)),
          "verify": VY()})
    # Retries (LB-E22).
    for cid, desc, events, errors, outcomes in (
            ("lightbox-retry-of-later", "The first event's retry_of names the second event, "
             "appended after it.", chain([event(1, retry_of="inv_00002"), failed(2)]),
             ["LB-RETRY-2"], ("invalid", "invalid", "valid", "valid")),
            ("lightbox-retry-of-unknown", "The second event's retry_of names an invocation no "
             "event has.", two(retry_of="inv_00099"), ["LB-RETRY-2"],
             ("invalid", "invalid", "invalid", "valid")),
            ("lightbox-retry-of-complete", "The second event retries the first, which completed.",
             two(retry_of="inv_00001"), [], ("valid", "invalid", "valid", "valid"))):
        case(cid, desc, events,
             {"validate": V(F("LB-E22", *outcomes), errors=errors, reqs=("LB-RETRY-2",),
                            q=(RT_NEW, RT_EVID, R["retry_of"])),
              "verify": VY(e=("LB-E22", "LB-E33"))})
    case("lightbox-retry-of-self", "The second event's retry_of is its own invocation_id.",
         chain([failed(1), event(2, retry_of="inv_00002")]),
         {"validate": V("invalid", errors=["LB-RETRY-1"], q=(RT_NEW,), e=("LB-E22",)),
          "verify": VY()})
    case("lightbox-retry-chain",
         "A call that fails, a retry of it that fails, and a retry of the retry that completes.",
         chain([failed(1), failed(2, retry_of="inv_00001"), event(3, retry_of="inv_00002")]),
         {"validate": V("valid", reqs=("LB-RETRY-1", "LB-RETRY-2", "LB-OPT-8"),
                        q=(RT_NEW, RT_EX, RT_EVID), e=("LB-E22",)),
          "verify": VY()})


# --- Timestamps (LB-E16, LB-E36) ----------------------------------------------------------------

def timestamps():
    flagged = [
        ("lightbox-ts-start-micros", "timestamp_start with six fraction digits.",
         "timestamp_start", "2025-01-15T10:23:01.123456+00:00", ("invalid", "invalid", "valid",
                                                                 "invalid", "valid")),
        ("lightbox-ts-start-no-offset", "timestamp_start without an offset.", "timestamp_start",
         "2025-01-15T10:23:01.123", ("invalid", "invalid", "invalid", "valid", "valid")),
        ("lightbox-ts-start-basic-format", "timestamp_start in ISO 8601 basic format.",
         "timestamp_start", "20250115T102301.123Z", ("invalid", "invalid", "invalid", "valid",
                                                     "valid")),
        ("lightbox-ts-start-comma", "timestamp_start with a comma as decimal sign.",
         "timestamp_start", "2025-01-15T10:23:01,123Z", ("invalid", "invalid", "invalid",
                                                         "valid", "valid")),
        ("lightbox-ts-start-unknown-offset", "timestamp_start with the offset -00:00.",
         "timestamp_start", "2025-01-15T10:23:01.123-00:00", ("valid", "valid", "valid",
                                                              "invalid", "invalid")),
        ("lightbox-ts-end-no-fraction", "timestamp_end without a fraction of a second.",
         "timestamp_end", "2025-01-15T10:23:01+00:00", ("invalid", "valid", "invalid",
                                                        "invalid", "valid")),
        # "with milliseconds" is Description text: under `iso-8601-any-fraction` it describes
        # upstream's precision, as LB-E11's `any-string` reads the `invocation_id` row's format.
        ("lightbox-ts-start-no-fraction", "timestamp_start without a fraction of a second.",
         "timestamp_start", "2025-01-15T10:23:01+00:00", ("invalid", "invalid", "invalid",
                                                          "invalid", "valid")),
        ("lightbox-ts-start-one-fraction-digit", "timestamp_start with one fraction digit.",
         "timestamp_start", "2025-01-15T10:23:01.1+00:00", ("invalid", "invalid", "invalid",
                                                            "invalid", "valid")),
        ("lightbox-ts-start-two-fraction-digits", "timestamp_start with two fraction digits.",
         "timestamp_start", "2025-01-15T10:23:01.12+00:00", ("invalid", "invalid", "invalid",
                                                             "invalid", "valid")),
    ]
    for cid, desc, field, value, outcomes in flagged:
        rule = "LB-EVENT-15" if field == "timestamp_start" else "LB-EVENT-16"
        case(cid, "The second event's " + desc, two(**{field: value}),
             {"validate": V(F("LB-E16", *outcomes),
                            errors=[rule] if outcomes[0] == "invalid" else [], reqs=(rule,),
                            q=(R["timestamp_start"], R["timestamp_end"])),
              "verify": VY(e=("LB-E16", "LB-E33"))})
    # RFC 3339 allows a lower-case t and z; ISO 8601 writes the designators upper case.
    case("lightbox-ts-lowercase-t-z", "The second event's timestamps use a lower-case t and z.",
         two(timestamp_start="2025-01-15t10:23:01.123z", timestamp_end="2025-01-15t10:23:01.456z"),
         {"validate": V(F("LB-E16", "valid", "valid", "valid", "invalid", "invalid"),
                        reqs=("LB-EVENT-15", "LB-EVENT-16"),
                        q=(R["timestamp_start"], R["timestamp_end"])),
          "verify": VY(e=("LB-E16", "LB-E33"))})
    for cid, desc, start, end in (
            ("lightbox-ts-utc-z", "Both timestamps of the second event end in Z.",
             "2025-01-15T10:23:01.123Z", "2025-01-15T10:23:01.456Z"),
            ("lightbox-ts-offsets", "The second event's timestamps carry the offsets +05:30 and "
             "-08:00.", "2025-01-15T15:53:01.123+05:30", "2025-01-15T02:23:01.456-08:00"),
            ("lightbox-ts-leap-day", "The second event's timestamps fall on 29 February 2024.",
             "2024-02-29T10:23:01.123+00:00", "2024-02-29T10:23:01.456+00:00"),
            ("lightbox-ts-leap-second", "The second event's timestamp_start is the leap second "
             "2016-12-31T23:59:60.000Z.", "2016-12-31T23:59:60.000Z",
             "2017-01-01T00:00:00.250Z")):
        case(cid, desc, two(timestamp_start=start, timestamp_end=end),
             {"validate": V("valid", reqs=("LB-EVENT-15", "LB-EVENT-16"),
                            q=(R["timestamp_start"], R["timestamp_end"]), e=("LB-E16",)),
              "verify": VY()})
    for cid, desc, field, value in (
            ("lightbox-ts-start-space", "timestamp_start with a space instead of T.",
             "timestamp_start", "2025-01-15 10:23:01.123+00:00"),
            ("lightbox-ts-start-offset-no-colon", "timestamp_start with the offset +0000 after "
             "an extended-format time.", "timestamp_start", "2025-01-15T10:23:01.123+0000"),
            ("lightbox-ts-start-date-only", "timestamp_start is a date only.", "timestamp_start",
             "2025-01-15"),
            ("lightbox-ts-start-impossible-date", "timestamp_start on 30 February.",
             "timestamp_start", "2025-02-30T10:23:01.123+00:00"),
            ("lightbox-ts-start-hour-25", "timestamp_start at hour 25.", "timestamp_start",
             "2025-01-15T25:23:01.123+00:00"),
            ("lightbox-ts-start-words", "timestamp_start is the word \"yesterday\".",
             "timestamp_start", "yesterday"),
            ("lightbox-ts-end-impossible-date", "timestamp_end on 30 February.", "timestamp_end",
             "2025-02-30T10:23:01.456+00:00")):
        rule = "LB-EVENT-15" if field == "timestamp_start" else "LB-EVENT-16"
        case(cid, "The second event's " + desc, two(**{field: value}),
             {"validate": V("invalid", errors=[rule], q=(R[field],), e=("LB-E16",)),
              "verify": VY()})
    case("lightbox-end-before-start",
         "The second event's timestamp_end is a second before its timestamp_start.",
         two(timestamp_end="2025-01-15T10:23:00.123+00:00"),
         {"validate": V(F("LB-E36", "valid", "invalid"), reqs=("LB-ORDER-3",), q=(ORD_SKEW,)),
          "verify": VY(e=("LB-E33", "LB-E36"))})


# --- Redactions (LB-E37, LB-E38) ----------------------------------------------------------------

def redactions():
    digest = sha(json.dumps("secret"))

    def redacted(cid, description, expect, errors, reqs, q, flag_e=(), **fields):
        case(cid, description, two(**fields),
             {"validate": V(expect, errors=errors,
                            reqs=("LB-REDACT-1", "LB-REDACT-2", "LB-REDACT-3") + tuple(reqs),
                            q=(RD_WHEN,) + tuple(q), e=flag_e),
              "verify": VY(e=("LB-E33",) + tuple(f for f in flag_e if f in ("LB-E37",
                                                                               "LB-E38")))})

    path_q = (RD_API, RD_API_HASH, RD_OVER_HASH)
    redacted("lightbox-redact-path-dotted-name",
             "content_hashes key input.a.b names the input member \"a.b\" (a name holding a dot).",
             F("LB-E37", "valid", "valid", "invalid"), [], (), path_q,
             input={"a.b": "[REDACTED]"}, content_hashes={"input.a.b": digest})
    redacted("lightbox-redact-path-nested",
             "content_hashes key input.headers.authorization names a member of a nested object.",
             F("LB-E37", "valid", "invalid", "valid"), [], (), path_q,
             input={"url": "https://example.com", "headers": {"authorization": "[REDACTED]"}},
             content_hashes={"input.headers.authorization": digest})
    redacted("lightbox-redact-path-array-index",
             "content_hashes key input.messages.1 names the second element of an input array.",
             F("LB-E37", "valid", "invalid", "valid"), [], (), path_q,
             input={"messages": ["hello", "[REDACTED]"]},
             content_hashes={"input.messages.1": digest})
    e38 = [
        ("lightbox-redact-path-to-plain-value", "content_hashes key input.to names a plain "
         "string, not a redaction marker.", ["LB-REDACT-2"],
         {"content_hashes": {"input.to": digest}}),
        ("lightbox-redact-path-to-nothing", "content_hashes key input.missing names no member.",
         ["LB-REDACT-1"], {"input": {"to": "[REDACTED]"}, "content_hashes":
                           {"input.missing": digest}}),
        ("lightbox-redact-path-empty", "content_hashes key \"input.\" names no member.",
         ["LB-REDACT-1"], {"input": {"to": "[REDACTED]"}, "content_hashes": {"input.": digest}}),
        ("lightbox-redact-key-not-input-output", "content_hashes key \"tool\" is neither input. "
         "nor output.", ["LB-REDACT-1"], {"content_hashes": {"tool": digest}}),
        ("lightbox-redact-marker-redacted-false", "The named value is an object with _redacted "
         "false.", ["LB-REDACT-2"],
         {"output": {"body": {"_redacted": False, "_reason": "size_limit", "_bytes": 10}},
          "content_hashes": {"output.body": digest}}),
        ("lightbox-redact-marker-bytes-string", "The named marker's _bytes is the string "
         "\"102400\".", ["LB-REDACT-2"],
         {"output": {"body": {"_redacted": True, "_reason": "size_limit", "_bytes": "102400"}},
          "content_hashes": {"output.body": digest}}),
        ("lightbox-redact-marker-no-reason", "The named marker has no _reason.", ["LB-REDACT-2"],
         {"output": {"body": {"_redacted": True, "_bytes": 102400}},
          "content_hashes": {"output.body": digest}}),
        ("lightbox-redact-value-placeholder", "The content hash is the spec's placeholder "
         "\"sha256_hash_here\".", ["LB-REDACT-3"],
         {"input": {"api_key": "[REDACTED]"},
          "content_hashes": {"input.api_key": "sha256_hash_here"}}),
        ("lightbox-redact-value-uppercase", "The content hash is a SHA-256 digest in upper-case "
         "hex.", ["LB-REDACT-3"],
         {"input": {"api_key": "[REDACTED]"}, "content_hashes": {"input.api_key": digest.upper()}}),
        ("lightbox-redact-value-number", "The content hash is the number 0.", ["LB-REDACT-3"],
         {"input": {"api_key": "[REDACTED]"}, "content_hashes": {"input.api_key": 0}}),
    ]
    for cid, desc, errors, fields in e38:
        redacted(cid, desc, F("LB-E38", "invalid", "valid"), errors, (),
                 (RD_API, RD_API_HASH, RD_OVER, R["content_hashes"]), **fields)
    for cid, desc, fields in (
            ("lightbox-redact-marker-other-reason", "A marker whose _reason is \"policy\", "
             "named by content_hashes.",
             {"output": {"body": {"_redacted": True, "_reason": "policy", "_bytes": 512}},
              "content_hashes": {"output.body": digest}}),
            ("lightbox-redact-marker-extra-member", "A marker with a fourth member, "
             "\"_media_type\", named by content_hashes.",
             {"output": {"body": {"_redacted": True, "_reason": "size_limit", "_bytes": 512,
                                  "_media_type": "text/plain"}},
              "content_hashes": {"output.body": digest}}),
            ("lightbox-redacted-string-without-entry", "Tool data holding the string "
             "\"[REDACTED]\" that no content_hashes key names (the event has no content_hashes).",
             {"output": {"note": "[REDACTED]"}})):
        redacted(cid, desc, "valid", [], (), (RD_API, RD_OVER), flag_e=("LB-E38",), **fields)


# --- Canonical form: escapes, key order, numbers, surrogates, names (LB-E23 to LB-E30) ---------

def canon():
    def pair(cid, description, fields, flag, arcs_file, how, line_ascii=True, hash_op=True,
             extra_reqs=(), extra_q=(), read=False):
        """A two-event session whose second event holds `fields`, chained with the ARCS canonical
        form (arcs_file) or with another reading's (`how`)."""
        events = two(**fields) if arcs_file else chain([event(1), event(2, **fields)], **how)
        ok = ("valid", "invalid") if arcs_file else ("invalid", "valid")
        vok = ("verified", "failed") if arcs_file else ("failed", "verified")
        ops = {"validate": V(F(flag, *ok), errors=[] if arcs_file else ["LB-HASH-2"],
                             reqs=("LB-HASH-2",) + tuple(extra_reqs), q=tuple(extra_q)),
               "verify": VY(F(flag, *vok), reqs=extra_reqs, q=tuple(extra_q), e=())}
        if read:
            ops["read"] = RD("accept", ("LB-COMPAT-1",), (CP_FWD,), e=(flag,))
        if hash_op:
            ops["hash"] = H(reqs=extra_reqs, q=tuple(extra_q), e=(flag,))
        case(cid, description, lines(events, ensure_ascii=line_ascii), ops)

    utf8 = (("LB-CANON-4",), (C_UTF8, H_DUMPS))
    pair("lightbox-non-ascii-value-rule-list", "The second event's input holds \"café\", "
         "written raw in UTF-8; the hash was computed with ensure_ascii=False (the rule list).",
         {"input": {"to": "user@example.com", "subject": "café"}}, "LB-E23", True, {},
         line_ascii=False, extra_reqs=utf8[0], extra_q=utf8[1])
    pair("lightbox-non-ascii-value-code-sample", "The second event's input holds \"café\"; the "
         "hash was computed with the code sample's default ASCII escaping.",
         {"input": {"to": "user@example.com", "subject": "café"}}, "LB-E23", False,
         {"ascii": True}, line_ascii=False, hash_op=False, extra_reqs=utf8[0], extra_q=utf8[1])
    pair("lightbox-astral-value-rule-list", "The second event's input holds an emoji (U+1F600) "
         "written raw; the hash was computed with ensure_ascii=False.",
         {"input": {"to": "user@example.com", "subject": "hi \U0001F600"}}, "LB-E23", True, {},
         line_ascii=False, extra_reqs=utf8[0], extra_q=utf8[1])
    pair("lightbox-astral-value-code-sample", "The second event's input holds an emoji "
         "(U+1F600); the hash was computed with ASCII escaping (a surrogate pair).",
         {"input": {"to": "user@example.com", "subject": "hi \U0001F600"}}, "LB-E23", False,
         {"ascii": True}, line_ascii=False, hash_op=False, extra_reqs=utf8[0], extra_q=utf8[1])
    pair("lightbox-non-ascii-key-rule-list", "The second event's input has a member named "
         "\"größe\"; the hash was computed with ensure_ascii=False.",
         {"input": {"größe": "XL"}}, "LB-E23", True, {}, line_ascii=False,
         extra_reqs=utf8[0], extra_q=utf8[1])
    pair("lightbox-escaped-line-rule-list", "The second event's input holds \"café\", written "
         "with the escape \\u00e9 as upstream writes lines; hashed with ensure_ascii=False.",
         {"input": {"to": "user@example.com", "subject": "café"}}, "LB-E23", True, {},
         line_ascii=True, extra_reqs=utf8[0] + ("LB-HASH-7",), extra_q=utf8[1], read=True)
    pair("lightbox-surrogate-pair", "The second event's input holds the escaped surrogate pair "
         "\\ud83d\\ude00: one character, U+1F600.",
         {"input": {"emoji": "\U0001F600"}}, "LB-E23", True, {}, line_ascii=True,
         extra_reqs=utf8[0] + ("LB-CANON-8",), extra_q=utf8[1] + (RFC_SURROGATE,))
    pair("lightbox-canon-del", "The second event's input holds a raw DEL (U+007F), which "
         "json.dumps writes as itself with ensure_ascii=False.",
         {"input": {"s": "a\x7fb"}}, "LB-E23", True, {}, line_ascii=False,
         extra_reqs=("LB-CANON-4", "LB-CANON-10"), extra_q=(C_UTF8, H_DUMPS))
    pair("lightbox-canon-line-separator", "The second event's input holds raw U+2028 and "
         "U+2029, which json.dumps writes as themselves with ensure_ascii=False.",
         {"input": {"s": "a\u2028b\u2029c"}}, "LB-E23", True, {}, line_ascii=False,
         extra_reqs=("LB-CANON-4", "LB-CANON-10"), extra_q=(C_UTF8, H_DUMPS))
    pair("lightbox-canon-unicode-nfc-nfd", "The second event's input holds \"é\" composed "
         "(U+00E9) in one member and decomposed (e, U+0301) in another; no normalization.",
         {"input": {"nfc": "caf\u00e9", "nfd": "cafe\u0301"}}, "LB-E23", True, {},
         line_ascii=False, extra_reqs=("LB-CANON-4", "LB-CANON-6"), extra_q=(C_STRINGS, C_UTF8))
    # Key order (LB-E24).
    astral = {"\uff61": "halfwidth ideographic full stop", "\U0001F600": "grinning face"}
    order_q = (C_KEYS, H_DUMPS)
    pair("lightbox-key-order-astral-code-point", "The second event's input has members named "
         "U+FF61 and U+1F600, hashed in code point order (U+FF61 first).", {"input": astral},
         "LB-E24", True, {}, line_ascii=False, extra_reqs=("LB-CANON-2", "LB-CANON-4"),
         extra_q=order_q)
    pair("lightbox-key-order-astral-utf16", "The second event's input has members named U+FF61 "
         "and U+1F600, hashed in UTF-16 order (U+1F600 first), as RFC 8785 sorts.",
         {"input": astral}, "LB-E24", False, {"order": "utf-16"}, line_ascii=False,
         hash_op=False, extra_reqs=("LB-CANON-2", "LB-CANON-4"), extra_q=order_q)
    pair("lightbox-key-order-astral-nested", "The same two names in an object inside an array "
         "inside output, hashed in code point order.",
         {"output": {"rows": [{"\U0001F600": 1, "\uff61": 2, "a": 3}]}}, "LB-E24", True, {},
         line_ascii=False, extra_reqs=("LB-CANON-2", "LB-CANON-4"), extra_q=order_q)

    def required_canon(cid, description, events, reqs, q, e=("LB-E29",)):
        case(cid, description, events,
             {"validate": V("valid", reqs=("LB-HASH-2",) + tuple(reqs), q=(O_CHAIN,) + tuple(q),
                            e=e),
              "verify": VY(reqs=reqs, q=q, e=e),
              "hash": H(reqs=reqs, q=q, e=e)})

    # Only the event's own "hash" is left out: one inside its input or output is tool data.
    required_canon("lightbox-nested-hash-member",
                   "The second event's input and output each hold a member named \"hash\" (and "
                   "its input one named \"prev_hash\"); the chain covers them.",
                   two(input={"path": "a.tar", "hash": sha("a.tar"), "prev_hash": None},
                       output={"hash": "0" * 64, "verified": True}),
                   ("LB-HASH-1",), (H_COMMENT, R["input"], R["output"]), e=())
    required_canon("lightbox-key-order-ascii-case",
                   "The second event's input has members \"a\", \"_\" and \"B\": code point "
                   "order puts \"B\" before \"_\" before \"a\".",
                   two(input={"a": 1, "_": 2, "B": 3}), ("LB-CANON-2",), (C_KEYS, H_DUMPS),
                   e=("LB-E24",))
    required_canon("lightbox-canon-control-keys",
                   "The second event's input has members named \"\\u0000\", \"\\u0001\", "
                   "\"\\u001f\", \" \" and \"A\" (NUL escapes in names and values): they sort "
                   "by code point.",
                   two(input={"A": "\x00", " ": "x", "\x1f": "\x1f", "\x01": 1, "\x00": None}),
                   ("LB-CANON-2", "LB-CANON-10"), (C_KEYS, H_DUMPS), e=("LB-E24", "LB-E29"))
    required_canon("lightbox-canon-control-characters",
                   "The second event's input holds every control character U+0000 to U+001F, "
                   "a quotation mark and a backslash, written as JSON escapes.",
                   two(input={"s": "".join(chr(i) for i in range(32)) + "\"\\"}),
                   ("LB-CANON-10",), (H_DUMPS, RFC_STRINGS))
    a, b = two(input={"path": Raw('"a\\/b\\/c"', "a/b/c")})
    required_canon("lightbox-canon-escaped-slash",
                   "The second event's input holds \"a\\/b\\/c\": the escaped solidus is \"/\".",
                   lines([a, b]), ("LB-CANON-10",), (H_DUMPS,))
    a, b = two(input={Raw('"\\u0074o"', "to"): Raw('"\\u0041\\u0042C"', "ABC")})
    required_canon("lightbox-canon-escaped-ascii",
                   "The second event's input member \"\\u0074o\" holds \"\\u0041\\u0042C\": the "
                   "same as \"to\" and \"ABC\".", lines([a, b]), ("LB-CANON-10",), (H_DUMPS,))
    required_canon("lightbox-canon-nested-sort",
                   "The second event's input and output nest objects in arrays in objects, "
                   "members unsorted at every level, with true, false and null.",
                   two(input={"z": {"y": [{"d": True, "c": False}, {"b": None, "a": [3, 2, 1]}],
                                    "x": {}}, "a": []},
                       output={"m": {"n": {"p": 1, "o": [{"r": "s", "q": "t"}]}}}),
                   ("LB-CANON-2", "LB-CANON-3", "LB-CANON-7"), (C_KEYS, C_WS, C_NULLS))
    required_canon("lightbox-canon-nulls-kept",
                   "A pending event (prev_hash, output and timestamp_end null) whose input "
                   "holds null members, then its resolution.",
                   chain([pending(1, input={"a": None, "b": [None]}), resolution(1)]),
                   ("LB-CANON-7",), (C_NULLS, A_PENDING))
    required_canon("lightbox-canon-empty-containers",
                   "The second event's input is {} and its output holds an empty array, object "
                   "and string.", two(input={}, output={"a": [], "b": {}, "c": ""}),
                   ("LB-CANON-3", "LB-CANON-10"), (C_WS, H_DUMPS))
    required_canon("lightbox-canon-integers",
                   "The second event's input holds integers 0, -1, 42 and 2^53, and "
                   "total_bytes 9007199254740992.",
                   two(input={"zero": 0, "neg": -1, "n": 42, "big": 2 ** 53},
                       total_bytes=2 ** 53), ("LB-CANON-10",), (H_DUMPS, C_FLOATS),
                   e=("LB-E25", "LB-E26", "LB-E29"))
    # Numbers (LB-E25): the file's hash is the by-value reading's.
    floats = [
        ("lightbox-number-one-point-zero", "input holds 1.0", {"input": {"n": Raw("1.0", 1)}}),
        ("lightbox-number-exponent", "input holds 1e2", {"input": {"n": Raw("1e2", 100)}}),
        ("lightbox-number-exponent-upper-plus", "input holds 1E+2",
         {"input": {"n": Raw("1E+2", 100)}}),
        ("lightbox-number-zero-point-zero", "input holds 0.0", {"input": {"n": Raw("0.0", 0)}}),
        ("lightbox-number-negative-zero-float", "input holds -0.0",
         {"input": {"n": Raw("-0.0", 0)}}),
        ("lightbox-number-huge-exponent", "input holds 1e400",
         {"input": {"n": Raw("1e400", 10 ** 400)}}),
        ("lightbox-number-one-point-zero-nested", "output holds 1.0 in an object in an array in "
         "an array", {"output": {"rows": [[0, {"v": Raw("1.0", 1)}]]}}),
        ("lightbox-chunk-count-three-point-zero", "chunk_count is 3.0",
         {"chunk_count": Raw("3.0", 3)}),
    ]
    for cid, what, fields in floats:
        reqs = ("LB-CANON-5",) + (("LB-OPT-5",) if "chunk_count" in fields else ())
        q = (C_FLOATS,) + ((R["chunk_count"],) if "chunk_count" in fields else ())
        case(cid, "The second event's %s, and its hash covers the integer of that value." % what,
             lines(two(**fields)),
             {"validate": V(F("LB-E25", "invalid", "valid", "invalid"), errors=["LB-CANON-5"],
                            reqs=reqs, q=q),
              "verify": VY(F("LB-E25", "failed", "verified", "failed"), reqs=("LB-CANON-5",),
                           q=(C_FLOATS,), e=()),
              "hash": H(F("LB-E25", "refused", "hashed", "refused"), reqs=("LB-CANON-5",),
                        q=(C_FLOATS,))})
    for cid, desc, fields in (
            ("lightbox-number-fraction", "The second event's input holds 1.5.",
             {"input": {"n": Raw("1.5", 0)}}),
            ("lightbox-number-fraction-nested", "The second event's output holds 0.25 in an "
             "object in an array in an array.", {"output": {"rows": [[1, {"v": Raw("0.25", 0)}]]}}),
            ("lightbox-number-small-exponent", "The second event's input holds 1e-3.",
             {"input": {"n": Raw("1e-3", 0)}})):
        case(cid, desc, lines(two(**fields)),
             {"validate": V("invalid", errors=["LB-CANON-5"], q=(C_FLOATS,), e=("LB-E25",)),
              "verify": VY("failed", reqs=("LB-CANON-5",), q=(C_FLOATS,), e=("LB-E25",)),
              "hash": H("refused", reqs=("LB-CANON-5",), q=(C_FLOATS,), e=("LB-E25",))})
    case("lightbox-number-negative-zero-as-0",
         "The second event's input holds -0, and its hash covers 0, as Python parses it.",
         lines(two(input={"n": Raw("-0", 0)})),
         {"validate": V(F("LB-E25", "valid", "valid", "invalid"), reqs=("LB-CANON-10",),
                        q=(C_FLOATS, H_DUMPS)),
          "verify": VY(F("LB-E25", "verified", "verified", "failed"), reqs=("LB-CANON-10",),
                       q=(H_DUMPS,), e=()),
          "hash": H(reqs=("LB-CANON-5",), q=(C_FLOATS,), e=("LB-E25",))})
    case("lightbox-number-negative-zero-as-written",
         "The second event's input holds -0, and its hash covers -0 as written.",
         lines(two(input={"n": Raw("-0", 0, canon="-0")})),
         {"validate": V(F("LB-E25", "invalid", "invalid", "valid"), errors=["LB-HASH-2"],
                        reqs=("LB-CANON-10",), q=(C_FLOATS, H_DUMPS)),
          "verify": VY(F("LB-E25", "failed", "failed", "verified"), reqs=("LB-CANON-10",),
                       q=(H_DUMPS,), e=())})
    # Huge integers (LB-E26).
    for cid, desc, fields in (
            ("lightbox-integer-2-53-plus-1", "input holds 2^53+1 (9007199254740993), which a "
             "double cannot hold.", {"input": {"n": 2 ** 53 + 1}}),
            ("lightbox-integer-2-64", "input holds 2^64 (18446744073709551616).",
             {"input": {"n": 2 ** 64}}),
            ("lightbox-integer-below-int64", "input holds -2^63-1 (-9223372036854775809).",
             {"input": {"n": -2 ** 63 - 1}}),
            ("lightbox-integer-4301-digits", "input holds an integer of 4301 digits (CPython's "
             "default limit is 4300).", {"input": {"n": int("7" * 4301)}}),
            ("lightbox-integer-10000-digits", "input holds an integer of 10000 digits.",
             {"input": {"n": int("1" + "0" * 9999)}}),
            ("lightbox-total-bytes-2-64", "total_bytes is 2^64.", {"total_bytes": 2 ** 64})):
        reqs = ("LB-CANON-10",) + (("LB-OPT-6", "LB-OPT-12") if "total_bytes" in fields else ())
        case(cid, "The second event's " + desc, lines(two(**fields)),
             {"validate": V(F("LB-E26", "valid", "invalid"), reqs=reqs + ("LB-LAYOUT-5",),
                            q=(C_FLOATS, H_DUMPS, RFC_LIMITS)),
              "verify": VY(F("LB-E26", "verified", "failed"), reqs=("LB-CANON-10", "LB-LAYOUT-5"),
                           q=(H_DUMPS,), e=()),
              "hash": H(F("LB-E26", "hashed", "refused"), reqs=("LB-LAYOUT-5",))})
    # Lone surrogates (LB-E27): the file's hash is the escape reading's.
    for cid, desc, text, value in (
            ("lightbox-surrogate-lone-high", "input holds \"\\ud800\" alone.", '"\\ud800"',
             "\ud800"),
            ("lightbox-surrogate-lone-low", "input holds \"\\udc00\" alone.", '"\\udc00"',
             "\udc00"),
            ("lightbox-surrogate-reversed-pair", "input holds \"\\ude00\\ud83d\", a low "
             "surrogate before a high one.", '"\\ude00\\ud83d"', "\ude00\ud83d"),
            ("lightbox-surrogate-high-at-end", "input holds \"abc\\ud83d\": a high surrogate "
             "at the end of the string.", '"abc\\ud83d"', "abc\ud83d")):
        a, b = chain([event(1), event(2, input={"s": Raw(text, value)})], surrogates="escape")
        surrogate_case(cid, "The second event's " + desc, lines([a, b]))
    a, b = chain([event(1), event(2, input={Raw('"k\\udc00"', "k\udc00"): 1})],
                 surrogates="escape")
    surrogate_case("lightbox-surrogate-in-member-name",
                   "The second event's input has a member named \"k\\udc00\" (a lone surrogate).",
                   lines([a, b]))
    # A hash over the text with U+FFFD in place of the lone surrogate is the hash of another
    # string (rule 5: "Stored as-is"): no reading of LB-E27 verifies it.
    a, b = chain([event(1), event(2, input={"s": Raw('"ab\\ud800c"', "ab\ufffdc")})])
    case("lightbox-surrogate-hashed-as-replacement",
         "The second event's input holds \"ab\\ud800c\" (a lone surrogate escape); its hash was "
         "computed over \"ab\ufffdc\", the text with U+FFFD in its place.", lines([a, b]),
         {"validate": V("invalid", errors=["LB-CANON-8", "LB-HASH-2"], q=(C_UTF8, C_STRINGS),
                        e=("LB-E27",)),
          "verify": VY("failed", reqs=("LB-CANON-8", "LB-HASH-2"), q=(C_UTF8, C_STRINGS),
                       e=("LB-E27",)),
          "hash": H(F("LB-E27", "refused", "hashed"), reqs=("LB-CANON-8",),
                    q=(C_STRINGS, RFC_SURROGATE))})
    # Repeated member names (LB-E28).
    dup_q = (C_KEYS, RFC_NAMES)

    def top_dup(first_tool, last_tool, name=None):
        pairs = list(event(2).items())
        i = [k for k, _ in pairs].index("tool")
        pairs[i] = ("tool", first_tool)
        pairs.insert(i + 1, (name or "tool", last_tool))
        return Dup(*pairs)

    last_l = ("invalid", "invalid", "valid", "invalid")
    last_v = ("verified", "failed", "verified", "failed")
    first_l = ("invalid", "invalid", "invalid", "valid")
    first_v = ("failed", "failed", "failed", "verified")
    dups = [
        ("lightbox-dup-tool-last", "The second event names tool twice (\"send_email\", then "
         "\"send_sms\"); its hash covers the last.",
         chain([event(1), top_dup("send_email", "send_sms")]), ["LB-CANON-9"], last_l, last_v),
        ("lightbox-dup-tool-first", "The second event names tool twice (\"send_email\", then "
         "\"send_sms\"); its hash covers the first.",
         chain([event(1), top_dup("send_email", "send_sms")], wins="first"),
         ["LB-CANON-9", "LB-HASH-2"], first_l, first_v),
        ("lightbox-dup-in-input", "The second event's input names \"to\" twice; its hash covers "
         "the last.",
         two(input=Dup(("to", "user@example.com"), ("subject", "Hello"),
                       ("to", "attacker@example.com"))), ["LB-CANON-9"], last_l, last_v),
        ("lightbox-dup-escaped-name", "The second event names \"tool\" and \"t\\u006fol\" (the "
         "same name, escaped); its hash covers the last.",
         chain([event(1), top_dup("send_email", "send_sms", Raw('"t\\u006fol"', "tool"))]),
         ["LB-CANON-9"], last_l, last_v),
    ]
    e1, e2 = two()
    e2 = Dup(*[(k, v) for k, v in e2.items() if k != "hash"], ("hash", sha("decoy")),
             ("hash", e2["hash"]))
    dups.append(("lightbox-dup-hash-member", "The second event names hash twice: a decoy digest, "
                 "then its right hash.", [e1, e2], ["LB-CANON-9"], last_l, last_v))
    for cid, desc, events, errors, validate, verify in dups:
        case(cid, desc, events,
             {"validate": V(F("LB-E28", *validate), errors=errors, q=dup_q),
              "verify": VY(F("LB-E28", *verify), q=(H_DUMPS,), e=()),
              "hash": H(F("LB-E28", "hashed", "refused", "hashed", "hashed"), q=(RFC_NAMES,))})
    required_canon("lightbox-names-differ-in-case",
                   "The second event's input has members \"to\" and \"To\": two names.",
                   two(input={"to": "user@example.com", "To": "other@example.com"}),
                   ("LB-CANON-2", "LB-CANON-9"), (C_KEYS, RFC_NAMES), e=("LB-E28",))
    # Unknown fields (LB-E30).
    for cid, desc, fields, arcs_file in (
            ("lightbox-unknown-field-hashed", "The second event has an unknown member x_trace, "
             "and its hash covers it.", {"x_trace": "abc123"}, True),
            ("lightbox-unknown-field-not-hashed", "The second event has an unknown member "
             "x_trace, and its hash was computed without it, as upstream does.",
             {"x_trace": "abc123"}, False),
            ("lightbox-unknown-object-field-hashed", "The second event has an unknown member "
             "labels holding an object, and its hash covers it.",
             {"labels": {"env": "ci", "attempt": 2}}, True)):
        events = two(**fields) if arcs_file else chain(
            [event(1), event(2, **fields)], leave_out=tuple(fields))
        case(cid, desc, events,
             {"validate": V(F("LB-E30", *(("valid", "invalid") if arcs_file
                                           else ("invalid", "valid"))),
                            errors=[] if arcs_file else ["LB-HASH-2"],
                            reqs=("LB-COMPAT-2", "LB-HASH-2"), q=(CP_NEW, H_COMMENT)),
              "read": RD("accept", ("LB-COMPAT-1",), (CP_FWD,), e=("LB-E30",)),
              "verify": VY(F("LB-E30", *(("verified", "failed") if arcs_file
                                         else ("failed", "verified"))), reqs=("LB-HASH-1",),
                           q=(H_COMMENT,), e=()),
              **({"hash": H(reqs=("LB-COMPAT-1",), q=(CP_FWD,), e=("LB-E30",))}
                 if arcs_file else {})})
    required_canon("lightbox-unknown-members-in-input",
                   "The second event's input and output hold members no table lists (tool "
                   "data).", two(input={"x_any": [1, {"deep": True}], "mode": "fast"},
                                 output={"extra": {"k": "v"}}),
                   ("LB-COMPAT-2",), (CP_NEW, R["input"]), e=("LB-E30",))


def surrogate_case(cid, description, data):
    case(cid, description, data,
         {"validate": V(F("LB-E27", "invalid", "valid"), errors=["LB-CANON-8"],
                        q=(C_UTF8, RFC_SURROGATE)),
          "verify": VY(F("LB-E27", "failed", "verified"), reqs=("LB-CANON-8",), q=(C_UTF8,),
                       e=()),
          "hash": H(F("LB-E27", "refused", "hashed"), reqs=("LB-CANON-8",), q=(RFC_SURROGATE,))})


# --- schema_version (LB-E34) --------------------------------------------------------------------

def versions():
    # A version 1 event says "1" ("Always "1" for this version"): another value is no version 1
    # event, whatever a reader then does with it (the policy). meta.json has no field table, so
    # its schema_version binds only under LB-E9's reading.
    def version_case(cid, description, events, m, errors, validate="invalid"):
        case(cid, description, events,
             {"validate": V(validate, errors=errors, reqs=("LB-COMPAT-7",),
                            q=(R["schema_version"], CP_SET), e=("LB-E34",)),
              "read": RD(P("reject", "accept"), ("LB-COMPAT-5", "LB-COMPAT-6"),
                         (CP_REFUSE, CP_WARN), e=("LB-E34",)),
              "verify": VY(P("failed", "verified"), reqs=("LB-COMPAT-5", "LB-COMPAT-6"),
                           q=(CP_REFUSE, CP_WARN), e=("LB-E34",))}, meta=m)

    for cid, desc, v in (
            ("lightbox-schema-version-2", "\"2\"", "2"),
            ("lightbox-schema-version-1-0", "\"1.0\"", "1.0"),
            ("lightbox-schema-version-v1", "\"v1\"", "v1"),
            ("lightbox-schema-version-empty", "\"\"", ""),
            ("lightbox-schema-version-0", "\"0\"", "0")):
        version_case(cid, "Both events and meta.json say schema_version %s; the chain is "
                     "intact by version 1 rules." % desc,
                     chain([event(1, schema_version=v), event(2, schema_version=v)]),
                     meta(schema_version=v), ["LB-EVENT-1", "LB-META-3"])
    version_case("lightbox-schema-version-mixed",
                 "The second event says schema_version \"2\"; the first and meta.json say \"1\".",
                 two(schema_version="2"), DEFAULT_META, ["LB-EVENT-1"])
    version_case("lightbox-meta-schema-version-2",
                 "meta.json says schema_version \"2\"; both events say \"1\".", two(),
                 meta(schema_version="2"), ["LB-META-3"], validate=F("LB-E9", "invalid", "valid"))
    version_case("lightbox-schema-version-number",
                 "Both events say schema_version 1, a number; meta.json says \"1\".",
                 chain([event(1, schema_version=1), event(2, schema_version=1)]), DEFAULT_META,
                 ["LB-EVENT-1"])


# --- Resource limits (LB-E41) -------------------------------------------------------------------

def limits():
    def nested(depth):
        """A value nested `depth` levels of arrays and objects."""
        v = "leaf"
        for i in range(depth):
            v = [v] if i % 2 else {"k": v}
        return v

    limit_q = (RFC_LIMITS, L_EVENTS)

    def within(cid, description, events, args):
        case(cid, description, events,
             {"validate": V("valid", reqs=("LB-LAYOUT-5", "LB-LAYOUT-1"), q=limit_q,
                            e=("LB-E41",)),
              "verify": VY(reqs=("LB-LAYOUT-5",), q=(RFC_LIMITS,), e=("LB-E41",)),
              "hash": H(reqs=("LB-LAYOUT-5",), q=(RFC_LIMITS,), e=("LB-E41",))},
             args={"limits": args})

    def over(cid, description, events, args):
        case(cid, description, events,
             {"validate": V("invalid", errors=["LB-LAYOUT-5"], q=limit_q, e=("LB-E41",)),
              "verify": VY("failed", reqs=("LB-LAYOUT-5",), q=(RFC_LIMITS,), e=("LB-E41",)),
              "hash": H("refused", reqs=("LB-LAYOUT-5",), q=(RFC_LIMITS,), e=("LB-E41",))},
             args={"limits": args})

    # The event object is level 1 and input level 2: the innermost container of nested(d) in
    # input is at level d + 2.
    at8 = lines(two(input={"v": nested(8)}))
    within("lightbox-limit-depth-at-limit", "The second event nests 10 levels deep, the limit "
           "max_json_depth=10.", at8, {"max_json_depth": 10})
    over("lightbox-limit-depth-over", "The second event nests 11 levels deep, over the limit "
         "max_json_depth=10.", lines(two(input={"v": nested(9)})), {"max_json_depth": 10})
    within("lightbox-depth-128", "The second event nests 128 levels deep, the limit "
           "max_json_depth=128.", lines(two(input={"v": nested(126)})), {"max_json_depth": 128})
    over("lightbox-depth-129", "The second event nests 129 levels deep, over the limit "
         "max_json_depth=128.", lines(two(input={"v": nested(127)})), {"max_json_depth": 128})
    e1, e2 = (render(e).encode() for e in two(input={"v": "[" * 50000 + "]" * 50000}))
    deep = e2.replace(b'"' + b"[" * 50000 + b"]" * 50000 + b'"', b"[" * 100000 + b"]" * 100000)
    over("lightbox-depth-100000", "The second event's input nests 100000 arrays, over the limit "
         "max_json_depth=128.", e1 + b"\n" + deep + b"\n", {"max_json_depth": 128})
    events = two(output={"text": "x" * 300})
    longest = max(len(render(e).encode()) for e in events)
    assert len(render(events[1]).encode()) == longest
    within("lightbox-limit-line-at-limit", "The second line is exactly max_line_bytes long.",
           events, {"max_line_bytes": longest})
    over("lightbox-limit-line-over", "The second (last) line is one byte longer than "
         "max_line_bytes.", events, {"max_line_bytes": longest - 1})
    # max_line_bytes counts a line's bytes without its \n or \r\n (vectors/README.md, to which
    # runner/PROTOCOL.md refers for the limits' meanings): found by `arcs fuzz`.
    case("lightbox-limit-line-at-limit-crlf", "The second line is exactly max_line_bytes long "
         "without its CRLF ending (both lines end with CRLF).", lines(events, ending="\r\n"),
         {"validate": V(F("LB-E6", "valid", "invalid"), reqs=("LB-LAYOUT-5", "LB-LAYOUT-1"),
                        q=limit_q + (RFC_TEXT,), e=("LB-E41",)),
          "verify": VY(reqs=("LB-LAYOUT-5",), q=(RFC_LIMITS,), e=("LB-E6", "LB-E41")),
          "hash": H(reqs=("LB-LAYOUT-5",), q=(RFC_LIMITS,), e=("LB-E41",))},
         args={"limits": {"max_line_bytes": longest}})
    within("lightbox-long-line-1mib", "The second event's output holds 1 MiB of text "
           "(max_line_bytes at its default, 64 MiB).",
           two(output={"text": "abcdefghijklmnop" * 65536}), {"max_line_bytes": 64 << 20})
    three = chain([event(1), event(2), event(3)])
    within("lightbox-limit-events-at-limit", "Three events, the limit max_events=3.", three,
           {"max_events": 3})
    over("lightbox-limit-events-over", "Three events, over the limit max_events=2.", three,
         {"max_events": 2})


# --- Writing a chain (LB-COMPAT-7, LB-COMPAT-8) -------------------------------------------------

def writes():
    def unchained(events):
        return lines(events)

    def write_case(cid, description, events, expect, reqs=(), q=(), e=()):
        case(cid, description, unchained(events),
             {"write": W(expect, reqs=reqs, q=q, e=e)}, meta=None)

    write_case("lightbox-write-plain", "Three events without prev_hash and hash, to be written "
               "as a chain.", [event(1), event(2), event(3)], "written",
               reqs=("LB-HASH-4", "LB-HASH-5", "LB-CANON-7"), q=(O_CHAIN, R["prev_hash"]))
    write_case("lightbox-write-schema-version-missing", "Two events without schema_version "
               "(nor prev_hash and hash): the writer sets \"schema_version\": \"1\".",
               [event(1, schema_version=DROP), event(2, schema_version=DROP)], "written",
               e=("LB-E31",))
    write_case("lightbox-write-async-pair", "An async call's pending event and its resolution, "
               "to be written as a chain.", [event(1), pending(2), resolution(2)], "written",
               reqs=("LB-ASYNC-4", "LB-CANON-7"), q=(A_BOTH, C_NULLS))
    write_case("lightbox-write-unsorted-nested", "Events whose members are unsorted at every "
               "level, with escapes and nested arrays, to be written as a chain.",
               [event(1, input={"z": [{"b": 1, "a": "\t\"\\"}], "a": None}),
                event(2, output={"y": {"d": [], "c": {}}})], "written",
               reqs=("LB-CANON-2", "LB-CANON-3", "LB-CANON-10"), q=(C_KEYS, C_WS))
    write_case("lightbox-write-fraction", "An event whose input holds 1.5: a float cannot be "
               "written into a chain.", [event(1, input={"n": Raw("1.5", 0)})], "refused",
               reqs=("LB-CANON-5",), q=(C_FLOATS,), e=("LB-E25",))
    write_case("lightbox-write-one-point-zero", "An event whose input holds 1.0.",
               [event(1, input={"n": Raw("1.0", 1)})],
               F("LB-E25", "refused", "written", "refused"), reqs=("LB-CANON-5",), q=(C_FLOATS,))
    write_case("lightbox-write-tool-missing", "Two events, the second without tool: what a "
               "writer makes of an event that breaks a field row is errata LB-E43's.",
               [event(1), event(2, tool=DROP)], F("LB-E43", "written", "refused", "refused"),
               reqs=("LB-EVENT-4",), q=(R["tool"],))
    write_case("lightbox-write-invocation-id-reused", "Two complete events with the same "
               "invocation_id: the events fit the tables, and break \"Unique per call\".",
               [event(1), event(1, input={"to": "other@example.com", "subject": "Hi"})],
               F("LB-E43", "written", "written", "refused"), reqs=("LB-EVENT-14",),
               q=(R["invocation_id"],))
    write_case("lightbox-write-lone-surrogate", "An event whose input holds \"\\ud800\".",
               [event(1, input={"s": Raw('"\\ud800"', "\ud800")})],
               F("LB-E27", "refused", "written"), reqs=("LB-CANON-8",), q=(C_UTF8,))


# ------------------------------------------------------------------------------------------------

def build():
    del CASE_LIST[:]
    examples()
    chains()
    bad_lines()
    layout()
    metas()
    fields()
    statuses()
    invocations()
    timestamps()
    redactions()
    canon()
    versions()
    limits()
    writes()
    files, ids = {}, set()
    for c, fs in CASE_LIST:
        assert c["id"] not in ids, c["id"]
        ids.add(c["id"])
        for name, data in fs.items():
            assert name not in files, name
            files[name] = data
    manifest = dict(manifest_lib.head("lightbox", "lightbox", "lightbox.md", "1"),
                    cases=[c for c, _ in CASE_LIST])
    return files, manifest_lib.cite(manifest, manifest_lib.load_requirements("lightbox"))


def main():
    check = "--check" in sys.argv[1:]
    files, manifest = build()
    spec = manifest_lib.read_spec("lightbox.md")
    missing = ["not in lightbox.md: " + q
               for q in (manifest_lib.quotes_not_in(spec, manifest["quotes"]) if spec else [])]
    for q in missing:
        print("problem: " + q)
    written = {os.path.join(CASES, name): data for name, data in files.items()}
    written[MANIFEST] = manifest_lib.dumps(manifest)
    differ = generated_files.sync(written, CASES, check, CASES)
    for name in differ:
        print("differs from generate.py: cases/" + name)
    if check:
        print("%d files and the manifest (%d cases) checked, %d differ" %
              (len(files), len(CASE_LIST), len(differ)))
    sys.exit(1 if differ or missing else 0)


if __name__ == "__main__":
    main()
