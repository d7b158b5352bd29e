#!/usr/bin/python3
"""The REPLAY vectors of the MCP record/replay format (TJ-SPEC-010), as data.

Imported by generate.py, which writes the files and the manifest. `CASES` is a list of dicts shaped
like manifest cases (id, description, inputs, args, operations) plus "files": {relative path:
bytes}. A case whose id the VALIDATE cases also define is merged by generate.py (inputs and
operations united; the same path must hold the same bytes).

A REPLAY case has two inputs: `recording` (the .jsonl recording) and `script` (the client script:
one JSON-RPC message per line, LF-terminated, the messages a client sends in order). Its args are
`match_mode`, `timing` and `on_unmatched`, only when the case sets them (absent: sequential,
instant, error, §5.2). The operation carries `expect` (loaded / refused, a policy or a flag) and,
when loaded, `expect_replay`: {"answers": [...], "end": "script-end" | "exit-non-zero"}, where
{"$unmatched": ID} stands for an unmatched error response with that live id (code and message not
judged), or a flag's readings of it.

Where the answers come from: the ARCS reading's answers are COMPUTED here by a small model of the
reference behaviour the errata decide (load(): the parse-only loader of MRR-E11 with the reference's
policies bom=ignore and blank_lines=ignore; replay(): the response-cursor sequential matcher of
MRR-E35, the by-request matcher with an RFC 8785 key of MRR-E29..E34, the leaf-Jaccard fuzzy matcher
of MRR-E36, error-then-exit of MRR-E41, responses-only of MRR-E39). Every other reading's answers
are written BY HAND in the case, so that the two are independent. A required case's hand-written
expectation, where a case gives one (`hand=`), must equal the computed one.

    python3 vectors/mcp_record_replay/replay_cases.py    checks: quotations against the spec,
                                                          ids against the catalogue and errata,
                                                          the model against the hand answers;
                                                          prints a summary
"""

import copy
import json
import math
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CATALOGUE = os.path.join(ROOT, "conformance", "mcp_record_replay", "requirements.json")
ERRATA = os.path.join(ROOT, "conformance", "mcp_record_replay", "errata.md")
SPEC_CANDIDATES = [os.path.join(ROOT, "..", "shared", "specs", "mcp-record-replay.md"),
                   os.path.join(ROOT, "..", "..", "shared", "specs", "mcp-record-replay.md")]
PREFIX = "mcp-record-replay-"
ABSENT = object()   # a member left out

# ----------------------------------------------------------------------------------------------
# Line builders.


def jdump(obj):
    """Compact JSON, raw UTF-8 (the recorder's form)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def req(id_, method, params=ABSENT):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not ABSENT:
        m["params"] = params
    return m


def notif(method, params=ABSENT):
    m = {"jsonrpc": "2.0", "method": method}
    if params is not ABSENT:
        m["params"] = params
    return m


def res(id_, result):
    return {"jsonrpc": "2.0", "id": id_, "result": result}


def err(id_, code, message):
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


RECORDED_AT = "2025-02-04T10:00:00.000Z"
UPSTREAM = "npx -y @anthropic/mcp-server-filesystem /tmp"


def header(**over):
    h = {"type": "header", "version": "1.0", "recorded_at": RECORDED_AT, "upstream": UPSTREAM,
         "thoughtjack_version": "0.3.0"}
    for k, v in over.items():
        if v is ABSENT:
            h.pop(k, None)
        else:
            h[k] = v
    return h


def ts_of(ms):
    """2025-02-04T10:00:00.000Z plus ms milliseconds."""
    s, milli = divmod(ms, 1000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return "2025-02-04T%02d:%02d:%02d.%03dZ" % (10 + h, m, s, milli)


class Raw:
    """A msg written as given JSON text (escapes, numbers a Python value cannot spell)."""

    def __init__(self, text):
        self.text = text
        self.value = json.loads(text)


def msg_text(m):
    return m.text if isinstance(m, Raw) else jdump(m)


def msg_value(m):
    return m.value if isinstance(m, Raw) else m


DEFAULT_LATENCY = 5
STEP = 10


def recording_lines(entries, *, footer=True, head=None, seq0=1):
    """The lines (without line ends) of a perfect recording: the header, one message line per
    entry, the footer with counts that agree. An entry is (dir, msg) or (dir, msg, latency_ms):
    latency None leaves it out; by default an s2c response paired with a request gets 5 ms.
    ts advance by 10 ms a line, and a response's ts is at least its request's ts plus its latency,
    so that every reading of MRR-E21 finds the file consistent; seq runs from 1."""
    out = [jdump(head if head is not None else header())]
    t = 0
    pending = []   # (dir, id, ts) of unanswered requests
    counts = {"c2s": 0, "s2c": 0}
    for i, e in enumerate(entries):
        d, m = e[0], e[1]
        v = msg_value(m)
        t += STEP
        k = kind(v)
        latency = None
        if k == "request":
            pending.append((d, v["id"], t))
        elif k == "response" and v.get("id") is not None:
            for j, (pd, pid, pt) in enumerate(pending):
                if pd != d and id_eq(pid, v["id"]):
                    del pending[j]
                    latency = e[2] if len(e) > 2 else (DEFAULT_LATENCY if d == "s2c" else None)
                    gap = e[3] if len(e) > 3 else latency
                    if gap is not None:
                        t = max(t, pt + gap)
                    break
        if len(e) > 2 and latency is None and e[2] is not None:
            raise ValueError("latency on an unpaired message")
        line = '{"type":"message","seq":%d,"ts":"%s","dir":"%s","msg":%s' % (
            seq0 + i, ts_of(t), d, msg_text(m))
        if latency is not None:
            line += ',"latency_ms":%d' % latency
        out.append(line + "}")
        counts[d] += 1
    if footer:
        out.append(jdump({"type": "footer", "total_messages": counts["c2s"] + counts["s2c"],
                          "duration_ms": t + STEP, "client_messages": counts["c2s"],
                          "server_messages": counts["s2c"]}))
    return out


def recording(entries, **kw):
    return "".join(line + "\n" for line in recording_lines(entries, **kw)).encode("utf-8")


def script(msgs):
    return "".join((m if isinstance(m, str) else msg_text(m)) + "\n" for m in msgs).encode("utf-8")


def script_values(msgs):
    return [json.loads(m, parse_int=_value_int) if isinstance(m, str) else msg_value(m)
            for m in msgs]


# ----------------------------------------------------------------------------------------------
# Fixtures: a small filesystem server session.

INIT_PARAMS = {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "ci-agent", "version": "1.0.0"}}
INIT_RESULT = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {"listChanged": True}},
               "serverInfo": {"name": "filesystem", "version": "0.6.2"}}
TOOL_READ = {"name": "read_file", "description": "Read complete contents of a file",
             "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
                             "required": ["path"]}}
TOOL_LS = {"name": "list_directory", "description": "List directory contents",
           "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}
LIST_RESULT = {"tools": [TOOL_READ, TOOL_LS]}


def call(name, **arguments):
    return {"name": name, "arguments": arguments}


def text(t):
    return {"content": [{"type": "text", "text": t}]}


def init_req(id_):
    return req(id_, "initialize", INIT_PARAMS)


def init_pair(id_=1):
    return [("c2s", init_req(id_)), ("s2c", res(id_, INIT_RESULT))]


INITIALIZED = notif("notifications/initialized")




# ----------------------------------------------------------------------------------------------
# The model: JSON values, kinds, pairing, the RFC 8785 key, the loader and the three matchers.

class Refused(Exception):
    pass


def is_num(v):
    return isinstance(v, (int, float, Decimal)) and not isinstance(v, bool)


def id_eq(a, b):
    """Ids compare as JSON values: numbers by value, 1 and "1" differ, null pairs with nothing."""
    if a is None or b is None:
        return False
    if is_num(a) and is_num(b):
        return Decimal(repr(a) if isinstance(a, float) else str(a)) == \
            Decimal(repr(b) if isinstance(b, float) else str(b))
    if type(a) is not type(b):
        return False
    return a == b


def kind(m):
    """MRR-E26: request, notification, response or other."""
    if not isinstance(m, dict):
        return "other"
    if isinstance(m.get("method"), str):
        return "request" if "id" in m else "notification"
    if "method" not in m and "id" in m and ("result" in m or "error" in m):
        return "response"
    return "other"


def pair(entries):
    """MRR-E28: {request index: response index}; a response pairs with the earliest earlier
    unanswered request of the other direction whose id equals its own (null pairs with nothing)."""
    pending = []
    pairs = {}
    for i, e in enumerate(entries):
        k = kind(e["msg"])
        if k == "request":
            pending.append(i)
        elif k == "response":
            rid = e["msg"]["id"]
            for j, qi in enumerate(pending):
                if entries[qi]["dir"] != e["dir"] and id_eq(entries[qi]["msg"]["id"], rid):
                    pairs[qi] = i
                    del pending[j]
                    break
    return pairs


def utf16_key(s):
    return s.encode("utf-16-be")


def jcs_number(v):
    """ECMAScript Number.prototype.toString of the double nearest v (RFC 8785 §3.2.2.3)."""
    x = float(v)          # OverflowError for integers beyond the doubles
    if math.isinf(x) or math.isnan(x):
        raise ValueError("not a finite double")
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    t = Decimal(repr(abs(x))).as_tuple()      # repr: the shortest round-trip digits
    digits = "".join(map(str, t.digits)).lstrip("0")
    e = t.exponent
    while digits.endswith("0"):
        digits = digits[:-1]
        e += 1
    k = len(digits)
    n = k + e             # value = 0.digits x 10^n
    if k <= n <= 21:
        s = digits + "0" * (n - k)
    elif 0 < n <= 21:
        s = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        s = "0." + "0" * (-n) + digits
    else:
        s = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if n > 0 else "-") \
            + str(abs(n - 1))
    return sign + s


def jcs_string(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if 0xD800 <= o <= 0xDFFF:
            raise ValueError("lone surrogate")
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20:
            out.append({8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r"}.get(o, "\\u%04x" % o))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def jcs(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if is_num(v):
        return jcs_number(v)
    if isinstance(v, str):
        return jcs_string(v)
    if isinstance(v, list):
        return "[" + ",".join(jcs(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(jcs_string(k) + ":" + jcs(v[k])
                              for k in sorted(v, key=utf16_key)) + "}"
    raise TypeError(type(v))


def key_params(m):
    """MRR-E30/E31: the params without the top-level _meta, absent or null as {}."""
    p = m.get("params", None)
    if p is None:
        return {}
    if isinstance(p, dict):
        return {k: v for k, v in p.items() if k != "_meta"}
    return p


def request_key(m):
    """MRR-E29: (method, RFC 8785 text of the params); None when RFC 8785 refuses them."""
    try:
        return (m["method"], jcs(key_params(m)))
    except (ValueError, OverflowError):
        return None


def leaves(v, ptr=""):
    """MRR-E36: the set of (JSON Pointer, RFC 8785 text) leaves of a value."""
    if isinstance(v, dict) and v:
        out = set()
        for k, x in v.items():
            out |= leaves(x, ptr + "/" + k.replace("~", "~0").replace("/", "~1"))
        return out
    if isinstance(v, list) and v:
        out = set()
        for i, x in enumerate(v):
            out |= leaves(x, ptr + "/" + str(i))
        return out
    return {(ptr, jcs(v))}


def similarity(a, b):
    la, lb = leaves(a), leaves(b)
    return Decimal(len(la & lb)) / Decimal(len(la | lb))


def target(p):
    """MRR-E36 `same-target`: what a call is of, params.name and params.uri (MCP's tool, prompt and
    resource identities), each as its RFC 8785 text or None when absent."""
    if not isinstance(p, dict):
        return (None, None)
    return tuple(jcs(p[k]) if k in p else None for k in ("name", "uri"))


def _check_strings(v):
    if isinstance(v, str):
        if any(0xD800 <= ord(c) <= 0xDFFF for c in v):
            raise Refused("lone surrogate (serde_json refuses it)")
    elif isinstance(v, list):
        for x in v:
            _check_strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            _check_strings(k)
            _check_strings(x)
    elif isinstance(v, float) and math.isinf(v):
        raise Refused("number out of range (serde_json refuses it)")


def _bad_constant(c):
    raise ValueError("not JSON: " + c)


def _exact_number(s):
    """A number token as a Python value of the same exact decimal value: a float when its repr
    has that value, an int when the value is integral, else a Decimal. Beyond the doubles:
    refused (serde_json's "number out of range")."""
    f = float(s)
    if math.isinf(f):
        raise Refused("number out of range: " + s)
    d = Decimal(s)
    if Decimal(repr(f)) == d:
        return f
    if d == d.to_integral_value():
        return int(d)
    return d


def _top_int(s):
    # serde_json reads -0 as the float -0.0, which a u64 refuses
    return Decimal("-0") if s == "-0" else int(s)


def _value_int(s):
    # serde_json::Value holds -0 as the float -0.0 (MRR-E32's sorted-keys-text writes "-0.0")
    return -0.0 if s == "-0" else int(s)


def parse_json_line(line):
    """One recording line as serde would read it: (the message-level value, with float tokens as
    Decimal so that a u64 field can refuse them, and msg as Python JSON values). The line's own
    members must not repeat (serde's derive refuses a duplicate field); msg keeps the last of a
    repeated member (serde_json::Value); NaN, lone surrogates and numbers beyond the doubles are
    refused."""
    top = json.loads(line, parse_constant=_bad_constant, parse_float=Decimal, parse_int=_top_int,
                     object_pairs_hook=lambda p: ("__obj__", p))
    if not (isinstance(top, tuple) and top[0] == "__obj__"):
        raise ValueError("the line is not a JSON object")
    names = [k for k, _ in top[1]]
    if len(names) != len(set(names)):
        raise Refused("a member of the line's object repeated (serde's derive refuses it)")
    strict = dict(top[1])
    value = json.loads(line, parse_constant=_bad_constant, parse_float=_exact_number,
                       parse_int=_value_int)
    _check_strings(value)
    return strict, value


def _u64(v):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2 ** 64


def depth(v):
    if isinstance(v, dict):
        return 1 + max([depth(x) for x in v.values()] or [0])
    if isinstance(v, list):
        return 1 + max([depth(x) for x in v] or [0])
    return 0


def load(data, *, bom="ignore", blank_lines="ignore", limits=None):
    """The reference loader (MRR-E11 `parse-only`, policies bom=ignore and blank_lines=ignore,
    MRR-E4 `line-reader`, MRR-E9 `ndjson-newline`, MRR-E10 `unterminated-only`, MRR-E13
    `single-session`, MRR-E14 `footer-last`, MRR-E17 `exact-version`): the message entries in file
    order, or Refused."""
    if data.startswith(b"\xef\xbb\xbf"):
        if bom != "ignore":
            raise Refused("BOM")
        data = data[3:]
    parts = data.split(b"\n")
    terminated = [True] * (len(parts) - 1) + [False]
    if parts[-1] == b"":
        parts, terminated = parts[:-1], terminated[:-1]
    lines = []
    for p, term in zip(parts, terminated):
        if p.endswith(b"\r"):
            p = p[:-1]
        if p.strip(b" \t\r") == b"":
            if blank_lines != "ignore":
                raise Refused("blank line")
            continue
        lines.append((p, term))
    limits = limits or {}
    values = []
    for i, (p, term) in enumerate(lines):
        if len(p) > limits.get("max_line_bytes", 64 << 20):
            raise Refused("max_line_bytes")
        try:
            v = parse_json_line(p.decode("utf-8"))
        except (ValueError, UnicodeDecodeError, Refused) as e:
            if not term and i == len(lines) - 1:
                continue            # EC-REC-002: a truncated final line is skipped
            raise Refused(str(e))
        if depth(v[1]) > limits.get("max_json_depth", 128):
            raise Refused("max_json_depth")
        values.append(v)
    if not values:
        raise Refused("no header")
    entries = []
    for i, (strict, v) in enumerate(values):
        t = v.get("type")
        if i == 0 and t != "header":
            raise Refused("first line is not a header")
        if t == "header":
            for f in ("version", "recorded_at", "upstream", "thoughtjack_version"):
                if not isinstance(v.get(f), str):
                    raise Refused("header." + f)
            if v.get("name") is not None and not isinstance(v["name"], str):
                raise Refused("header.name")
            if "tags" in v and not (isinstance(v["tags"], list)
                                    and all(isinstance(x, str) for x in v["tags"])):
                raise Refused("header.tags")
            if i == 0 and v["version"] != "1.0":
                raise Refused("version " + repr(v["version"]))
        elif t == "message":
            if not _u64(strict.get("seq")):
                raise Refused("message.seq")
            if not isinstance(v.get("ts"), str) or v.get("dir") not in ("c2s", "s2c") \
                    or "msg" not in v:
                raise Refused("message fields")
            lat = strict.get("latency_ms")
            if lat is not None and not _u64(lat):
                raise Refused("message.latency_ms")
            entries.append({"dir": v["dir"], "msg": v["msg"], "latency": v.get("latency_ms")})
        elif t == "footer":
            for f in ("total_messages", "duration_ms", "client_messages", "server_messages"):
                if not _u64(strict.get(f)):
                    raise Refused("footer." + f)
        else:
            raise Refused("type " + repr(t))
    return entries


# The flags whose readings the replay model plays (ARCS reading first). The loader's flags (MRR-E2,
# E4, E7, E9, E10, E13, E14, E17, E24, E26) and MRR-E42 are written by hand in the cases.
MODEL_FLAGS = {
    "MRR-E30": ["ignore-top-meta", "ignore-all-meta", "whole-params"],
    "MRR-E31": ["absent-is-empty", "absent-distinct"],
    "MRR-E32": ["jcs", "decimal-value", "sorted-keys-text"],
    "MRR-E33": ["exhausted-unmatched", "repeat-last"],
    "MRR-E34": ["request-order", "response-order"],
    "MRR-E35": ["request-cursor-ids", "response-cursor", "request-cursor"],
    "MRR-E36": ["leaf-jaccard", "best-of-method", "same-target"],
    "MRR-E37": ["exact-value", "double-value"],
    "MRR-E39": ["in-recorded-place", "responses-only", "with-server-messages"],
    "MRR-E41": ["error-then-exit", "exit-only"],
    "MRR-E50": ["client-identity-ignored", "params-as-sent"],
}
ARCS_READINGS = {f: r[0] for f, r in MODEL_FLAGS.items()}
_ABSENT_KEY = "<absent>"


def _strip_meta(v):
    if isinstance(v, dict):
        return {k: _strip_meta(x) for k, x in v.items() if k != "_meta"}
    if isinstance(v, list):
        return [_strip_meta(x) for x in v]
    return v


def _params(m, rd):
    """The params a key or a fuzzy comparison uses, under the readings of MRR-E30 and MRR-E31."""
    p = m.get("params", None)
    if p is None:
        return {} if rd["MRR-E31"] == "absent-is-empty" else _ABSENT_KEY
    if rd["MRR-E30"] == "ignore-all-meta":
        return _strip_meta(p)
    if isinstance(p, dict) and rd["MRR-E30"] == "ignore-top-meta":
        return {k: v for k, v in p.items() if k != "_meta"}
    return p


def _decimal_text(v):
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + _decimal_text(v[k]) for k in sorted(v)) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_decimal_text(x) for x in v) + "]"
    if is_num(v):
        d = Decimal(repr(v)) if isinstance(v, float) else Decimal(str(v))
        return "0" if d == 0 else str(d.normalize())
    return json.dumps(v, ensure_ascii=False)


def key_of(m, rd):
    """(method, canonical params) under the readings, or None when there is no key."""
    p = _params(m, rd)
    if m["method"] == "initialize" and isinstance(p, dict) and \
            rd["MRR-E50"] == "client-identity-ignored":
        p = {k: v for k, v in p.items() if k != "clientInfo"}
    if p == _ABSENT_KEY:
        return (m["method"], _ABSENT_KEY)
    try:
        if rd["MRR-E32"] == "jcs":
            return (m["method"], jcs(p))
        if rd["MRR-E32"] == "decimal-value":
            return (m["method"], _decimal_text(p))
        return (m["method"], json.dumps(p, sort_keys=True, ensure_ascii=False,
                                        separators=(",", ":"), default=str))
    except (ValueError, OverflowError):
        return None


def _as_double(v):
    if isinstance(v, dict):
        return {k: _as_double(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_as_double(x) for x in v]
    if is_num(v) and not isinstance(v, float):
        f = float(v)
        return f if Decimal(f) != Decimal(str(v)) else v
    return v


def stub_answer(table, live):
    """What `arcs mcp stub` answers to a forwarded request: the next answer of its method in the
    table (each {"method", "result" | "error"}), with the live id; none left: -32601."""
    for i, row in enumerate(table):
        if row["method"] == live["method"]:
            del table[i]
            body = {k: v for k, v in row.items() if k != "method"}
            return dict({"jsonrpc": "2.0", "id": live["id"]}, **copy.deepcopy(body))
    return {"jsonrpc": "2.0", "id": live["id"],
            "error": {"code": -32601, "message": "stub: no answer"}}


def replay(entries, script_msgs, match_mode="sequential", on_unmatched="error", readings=None,
           stub=None):
    """The answers and how the replay ends, under the ARCS readings of MODEL_FLAGS, or the
    readings given ({flag: reading}); `stub` is the upstream's table under passthrough."""
    rd = dict(ARCS_READINGS, **(readings or {}))
    stub = copy.deepcopy(stub or [])
    responses = [i for i, e in enumerate(entries)
                 if e["dir"] == "s2c" and kind(e["msg"]) == "response"]
    requests = [i for i, e in enumerate(entries)
                if e["dir"] == "c2s" and kind(e["msg"]) == "request"]
    pairs = pair(entries)
    request_of = {r: q for q, r in pairs.items()}
    cursor = 0
    queues, last = {}, {}
    order = sorted(pairs) if rd["MRR-E34"] == "request-order" else \
        sorted(pairs, key=lambda q: pairs[q])
    for qi in order:
        if entries[qi]["dir"] != "c2s":
            continue
        k = key_of(entries[qi]["msg"], rd)
        if k is not None:
            queues.setdefault(k, []).append(pairs[qi])
    served_requests = set()
    answers = []
    place = InPlace(entries, pairs, answers, rd)
    if rd["MRR-E39"] == "in-recorded-place":
        place.emit(None)
    for live in script_msgs:
        if kind(live) != "request":
            if rd["MRR-E39"] == "in-recorded-place":
                place.client_message(live)
            continue            # notifications and anything else: no answer (MRR-E38)
        hit = None
        if match_mode == "sequential" and rd["MRR-E35"] == "request-cursor-ids":
            chosen = place.sequential_by_id(live)
            hit = pairs.get(chosen) if chosen is not None else None
            if chosen is not None and hit is None and rd["MRR-E39"] == "in-recorded-place":
                place.emit(chosen)      # matched, never answered: passed all the same
        elif match_mode == "sequential" and rd["MRR-E35"] == "response-cursor":
            if cursor < len(responses):
                hit = responses[cursor]
                cursor += 1
        elif match_mode == "sequential":
            if cursor < len(requests) and entries[requests[cursor]]["msg"]["method"] == live["method"]:
                hit = pairs.get(requests[cursor])
                cursor += 1
        elif match_mode == "by-request":
            key = key_of(live, rd)
            q = queues.get(key) if key is not None else None
            if q:
                hit = q.pop(0)
                last[key] = hit
            elif key in last and rd["MRR-E33"] == "repeat-last":
                hit = last[key]
        elif match_mode == "fuzzy":
            lp = _params(live, rd)        # an absent marker is a string leaf of its own
            try:
                leaves(lp)
            except (ValueError, OverflowError):
                lp = None
            best, best_sim, again, again_sim = None, None, None, None
            for qi in sorted(pairs):
                e = entries[qi]
                if e["dir"] != "c2s" or e["msg"]["method"] != live["method"] or lp is None:
                    continue
                if rd["MRR-E36"] == "same-target" and \
                        target(_params(e["msg"], rd)) != target(lp):
                    continue
                s = similarity(_params(e["msg"], rd), lp)
                if qi in served_requests:
                    if again_sim is None or s >= again_sim:
                        again, again_sim = qi, s
                elif best_sim is None or s > best_sim:
                    best, best_sim = qi, s
            floor = Decimal(1) / 2 if rd["MRR-E36"] == "leaf-jaccard" else Decimal(0)
            if best is not None and best_sim >= floor:
                served_requests.add(best)
                hit = pairs[best]
            elif again is not None and again_sim >= floor and rd["MRR-E33"] == "repeat-last":
                hit = pairs[again]
        else:
            raise ValueError(match_mode)
        if hit is None:
            if on_unmatched == "passthrough":
                answers.append(stub_answer(stub, live))   # EC-REC-009: forwarded, answered
                continue
            if on_unmatched == "error":
                if rd["MRR-E41"] == "error-then-exit":
                    answers.append({"$unmatched": live["id"]})
                return {"answers": answers, "end": "exit-non-zero"}
            answers.append({"$unmatched": live["id"]})
            continue
        if rd["MRR-E39"] == "in-recorded-place" and hit in request_of:
            place.serve(request_of[hit], live["id"])
            continue
        if rd["MRR-E39"] == "with-server-messages" and hit in request_of:
            for j in range(request_of[hit] + 1, hit):
                e = entries[j]
                if e["dir"] == "s2c" and kind(e["msg"]) in ("request", "notification"):
                    answers.append(copy.deepcopy(e["msg"]))
        answers.append(place.served(hit, live["id"]))
    place.release_held()    # the client's end of input
    return {"answers": answers, "end": "script-end"}


class InPlace:
    """MRR-E39 in-recorded-place, and MRR-E35 request-cursor-ids: what the server recorded of its
    own accord goes out once the live session passes the line it follows (a client request
    matched, a response served, a client notification or answer passing the first recorded one of
    its method or id); a response recorded after a server request waits for the client's answer
    to it (the script's end releases it)."""

    WINDOW = 64

    def __init__(self, entries, pairs, answers, rd):
        self.entries, self.pairs, self.answers, self.rd = entries, pairs, answers, rd
        self.requests = [i for i, e in enumerate(entries)
                         if e["dir"] == "c2s" and kind(e["msg"]) == "request"]
        self.served_requests = set()
        self.used_client = set()    # recorded client notifications and answers passed
        self.awaited = []           # (id, index) of server requests sent, unanswered
        self.answered = set()
        self.held = []              # (request, response, live id)

    def sequential_by_id(self, live):
        rest = [q for q in self.requests if q not in self.served_requests]
        if not rest:
            return None
        until = self.pairs.get(rest[0], len(self.entries))
        chosen = None
        for q in [q for q in rest if q < until][:self.WINDOW]:
            m = self.entries[q]["msg"]
            if m["method"] == live["method"] and id_eq(m["id"], live["id"]):
                chosen = q
                break
        if chosen is None and self.entries[rest[0]]["msg"]["method"] == live["method"]:
            chosen = rest[0]
        if chosen is not None:
            self.served_requests.add(chosen)
        return chosen

    def emit(self, anchor):
        j = 0 if anchor is None else anchor + 1
        while j < len(self.entries):
            e = self.entries[j]
            k = kind(e["msg"])
            if k == "other":
                j += 1
                continue
            if e["dir"] != "s2c" or k not in ("request", "notification"):
                return
            self.answers.append(copy.deepcopy(e["msg"]))
            if k == "request":
                self.awaited.append((e["msg"]["id"], j))
            j += 1

    def waits(self, q, r):
        return any(self.entries[j]["dir"] == "s2c" and kind(self.entries[j]["msg"]) == "request"
                   and j not in self.answered for j in range(q + 1, r))

    def served(self, r, live_id):
        out = copy.deepcopy(self.entries[r]["msg"])
        out["id"] = live_id
        return _as_double(out) if self.rd["MRR-E37"] == "double-value" else out

    def send(self, r, live_id):
        self.answers.append(self.served(r, live_id))
        self.emit(r)

    def serve(self, q, live_id):
        self.emit(q)
        r = self.pairs[q]
        if self.waits(q, r):
            self.held.append((q, r, live_id))
        else:
            self.send(r, live_id)

    def pass_client(self, test):
        for j, e in enumerate(self.entries):
            if e["dir"] == "c2s" and j not in self.used_client and test(e["msg"]):
                self.used_client.add(j)
                self.emit(j)
                return

    def client_message(self, live):
        k = kind(live)
        if k == "notification":
            self.pass_client(lambda m: kind(m) == "notification" and m["method"] == live["method"])
            return
        if k != "response":
            return
        asked = next((a for a in self.awaited if id_eq(a[0], live["id"])), None)
        if asked is None:
            return
        self.awaited.remove(asked)
        self.answered.add(asked[1])
        self.pass_client(lambda m: kind(m) == "response" and id_eq(m["id"], live["id"]))
        for h in list(self.held):
            if not self.waits(h[0], h[1]):
                self.held.remove(h)
                self.send(h[1], h[2])

    def release_held(self):
        for q, r, live_id in self.held:
            self.send(r, live_id)
        self.held = []


def served(response, live_id):
    """A recorded response as served to a live request (hand-written expectations)."""
    out = copy.deepcopy(response)
    out["id"] = live_id
    return out


def U(live_id):
    return {"$unmatched": live_id}


def ok(*answers):
    return {"answers": list(answers), "end": "script-end"}


def exited(*answers):
    return {"answers": list(answers), "end": "exit-non-zero"}


# ----------------------------------------------------------------------------------------------
# Quotations (checked against the spec by check()).

Q = {
    "serves": '§2 F-003: "- Serves recorded responses to client requests"',
    "modes": '§2 F-003: "- Multiple matching strategies (sequential, by-request, fuzzy)"',
    "timing": '§2 F-003: "- Configurable timing (instant, realistic, scaled)"',
    "unmatched": '§2 F-003: "- Handles unmatched requests gracefully (error, warn, passthrough)"',
    "validates": '§2 F-003: "- Validates recording on load (fails fast on corrupt file)"',
    "sequential": '§2 F-003: "| `sequential` | Return responses in exact recorded order | '
                  'Deterministic CI, request order guaranteed |"',
    "by-request": '§2 F-003: "| `by-request` | Match by `method` + hash of `params` | '
                  'Agent may vary request order |"',
    "fuzzy": '§2 F-003: "| `fuzzy` | Match by `method` + similar `params` | '
             'Tolerate minor param changes (timestamps, IDs) |"',
    "instant": '§2 F-003: "| `instant` | Return immediately (default) | Fast CI |"',
    "realistic": '§2 F-003: "| `realistic` | Preserve original latencies | Realistic testing |"',
    "scaled": '§2 F-003: "| `scaled:N` | Multiply latencies by N | Speed up/slow down |"',
    "latency-code": '§2 F-003: "if let Some(latency) = result.recorded_latency_ms { ... '
                    'let scaled = (latency as f64 * factor) as u64;"',
    "error": '§2 F-003: "| `error` | Return JSON-RPC error, exit | CI: fail if recording incomplete |"',
    "warn": '§2 F-003: "| `warn` | Return JSON-RPC error, continue | Development: see what\'s missing |"',
    "passthrough": '§2 F-003: "| `passthrough` | Forward to real upstream | '
                   'Hybrid/incremental recording |"',
    "no-upstream": '§2 F-003: "let upstream = self.upstream.as_ref() '
                   '.ok_or(ReplayError::NoUpstreamConfigured)?;"',
    "error-code": '§2 F-003: "UnmatchedBehavior::Error => { error!(method = ?request.method(), '
                  '"No matching response in recording"); Err(ReplayError::UnmatchedRequest) }"',
    "handle-request": '§2 F-003: "None => self.handle_unmatched(&request).await,"',
    "by-request-cmd": '§2 F-003: "# Match by request content (order-independent)"',
    "default-match": '§5.2: "--match-mode <MODE> Request matching [default: sequential]"',
    "default-timing": '§5.2: "--timing <TIMING> Response timing [default: instant]"',
    "default-unmatched": '§5.2: "--on-unmatched <BEHAVIOR> Unmatched handling [default: error]"',
    "upstream-opt": '§5.2: "--upstream <CMD> Upstream for passthrough"',
    "ec1": '§3 EC-REC-001: "**Scenario:** Recording contains only header, no messages '
           '**Expected:** Replay returns error for any request; convert produces minimal config '
           'with no tools"',
    "ec2": '§3 EC-REC-002: "**Scenario:** Recording file truncated mid-line (crash during record) '
           '**Expected:** Load skips corrupt final line, logs warning, uses valid portion"',
    "ec3": '§3 EC-REC-003: "**Scenario:** Recording has two requests with same JSON-RPC ID '
           '(concurrent HTTP) **Expected:** By-request matcher handles correctly (separate queues '
           'per request signature)"',
    "ec4": '§3 EC-REC-004: "**Scenario:** Recording from HTTP transport has responses out of '
           'request order **Expected:** By-request matcher works; sequential matcher may return '
           'wrong response"',
    "ec5": '§3 EC-REC-005: "**Scenario:** Recording contains notification (no ID, no response '
           'expected) **Expected:** Replay doesn\'t wait for response, continues immediately"',
    "ec6": '§3 EC-REC-006: "**Scenario:** Tool response contains base64 image data **Expected:** '
           'Preserved exactly in recording, replayed exactly"',
    "ec8": '§3 EC-REC-008: "**Scenario:** Recording version "2.0", ThoughtJack only supports "1.0" '
           '**Expected:** Clear error message about version incompatibility"',
    "ec9": '§3 EC-REC-009: "**Scenario:** Replay with `--on-unmatched passthrough` encounters new '
           'request **Expected:** Forwards to upstream, returns response (does not modify '
           'recording)"',
    "ec11": '§3 EC-REC-011: "**Scenario:** Recording has no footer (unclean shutdown) '
            '**Expected:** Load succeeds, footer fields unavailable, log info message"',
    "ec12": '§3 EC-REC-012: "**Scenario:** Two recorded responses could match fuzzy criteria '
            'equally **Expected:** Return first match, log debug message about ambiguity"',
    "nfr3": '§4 NFR-003: "- Partial recordings usable after crash"',
    "ndjson": '§2 F-002: "- NDJSON (newline-delimited JSON) format"',
    "one-object": '§2 F-002: "- One JSON object per line"',
    "line1": '§2 F-002: "// Line 1: Metadata header"',
    "line2": '§2 F-002: "// Line 2+: Message entries"',
    "final-footer": '§2 F-002: "// Final line: Footer (written on clean shutdown)"',
    "version": '§2 F-002: ""version": "1.0","',
    "msg-value": '§2 F-002: "pub msg: serde_json::Value,"',
    "lossless": '§1.2: "| **Lossless Recording** | Capture everything needed for perfect replay |"',
    "merge": '§1.4: "# Merge recordings (strip headers, concatenate, fix sequence numbers) '
             'cat session1.jsonl session2.jsonl | jq -c \'.\' > merged.jsonl"',
    "nfr3-lines": '§4 NFR-003: "- Each line independently parseable (no multi-line JSON)"',
    "handle-request-sig": '§2 F-003: "pub async fn handle_request(&mut self, request: '
                          'JsonRpcMessage) -> Result<JsonRpcMessage> {"',
    "match-result": '§2 F-003: "pub struct MatchResult { pub response: JsonRpcMessage, pub '
                    'recorded_latency_ms: Option<u64>, }"',
    "ok-response": '§2 F-003: "Ok(result.response)"',
    "warn-code": '§2 F-003: "Ok(JsonRpcMessage::error(request.id(), -32000, "No matching response"))"',
    "matcher-trait": '§2 F-003: "pub trait RequestMatcher: Send + Sync { fn find_response( &self, '
                     'request: &JsonRpcMessage, state: &mut ReplayState, ) -> Option<MatchResult>; }"',
    "nfr2-fuzzy": '§4 NFR-002: "- Fuzzy matcher: O(n) worst case (scan all recorded)"',
    "nfr2-seq": '§4 NFR-002: "- Sequential matcher: O(1) per request"',
    "nfr2-byreq": '§4 NFR-002: "- By-request matcher: O(1) average (hash lookup)"',
    # quoted from the texts the spec relies on (not checked against the spec)
    "rpc-notification": 'JSON-RPC 2.0 §4.1: "The Server MUST NOT reply to a Notification, '
                        'including those that are within a batch request."',
    "rpc-reply": 'JSON-RPC 2.0 §5: "When a rpc call is made, the Server MUST reply with a '
                 'Response, except for in the case of Notifications."',
    "rpc-id": 'JSON-RPC 2.0 §5: "It MUST be the same as the value of the id member in the '
              'Request Object."',
    "rpc-error": 'JSON-RPC 2.0 §5.1: "When a rpc call encounters an error, the Response Object '
                 'MUST contain the error member with a value that is a Object with the following '
                 'members:"',
    "rpc-notif-def": 'JSON-RPC 2.0 §4.1: "A Notification is a Request object without an "id" '
                     'member."',
    "rfc-bom": 'RFC 8259 §8.1: "In the interests of interoperability, implementations that parse '
               'JSON texts MAY ignore the presence of a byte order mark rather than treating it as '
               'an error."',
    "ndjson-crlf": 'NDJSON §3.2: "The parser MUST accept newline as line delimiter \\n (0x0A) as '
                   'well as carriage return and newline \\r\\n (0x0D0A)."',
    "ndjson-blank": 'NDJSON §3.2: "However, the parser MAY silently ignore empty lines, e.g. '
                    '\\n\\n. This behavior MUST be documented and SHOULD be configurable by the '
                    'user of the parser."',
    "ndjson-error": 'NDJSON §3.2: "If the JSON text is not parseable, the parser SHOULD raise an '
                    'error."',
    "ndjson-newline": 'NDJSON §3.1: "Each JSON text MUST conform to the [RFC7159] standard and '
                      'MUST be written to the stream followed by the newline character \\n '
                      '(0x0A)."',
    "rfc-dup": 'RFC 8259 §4: "The names within an object SHOULD be unique."',
}


def quoted(q):
    """A quotation as the manifests write it: `label: "text"`, double quotes inside the text
    escaped as \\" (the Q entries hold them raw)."""
    m = re.match(r'^(.*?): "(.*)"$', q, re.S)
    return '%s: "%s"' % (m.group(1), m.group(2).replace('"', '\\"'))


def spec_text(quotes, errata):
    t = "; ".join(quoted(Q[q]) for q in quotes)
    if errata:
        es = sorted(set(errata), key=lambda e: int(e.split("E")[-1]))
        t += ("; " if t else "") + "errata " + ", ".join(es)
    return t


# ----------------------------------------------------------------------------------------------
# The cases.

CASES = []
CHECKS = []     # (id, what, computed, hand) for the report of check()
AUTO = object()  # in a flag's readings: the computed ARCS answers


def _inputs(name, rec_bytes, script_bytes, rec_name=None):
    rn = rec_name or name
    files = {"cases/%s/recording.jsonl" % rn: rec_bytes}
    inputs = {"recording": "cases/%s/recording.jsonl" % rn}
    if script_bytes is not None:
        files["cases/%s/script.jsonl" % name] = script_bytes
        inputs["script"] = "cases/%s/script.jsonl" % name
    return inputs, files


TOLERATED = []  # (case id, flag, reading): answers that change under a flag the case cannot carry


def add(name, description, rec, msgs, *, args=None, reqs, quotes, errata=(), expect=None,
        readings=None, flag=None, arcs=None, hand=None, rec_name=None, tolerate=(), stub=None):
    """One REPLAY case.

    rec: the recording's bytes. msgs: the client script (dicts, Raw, or raw JSON text lines).
    expect: the `expect` member (default {"outcome": "loaded"}). The ARCS answers are computed;
    `hand` (optional) is the same expectation written by hand and must agree. With `flag`, the
    answers differ between readings: `readings` maps each reading to its answers (AUTO for the
    computed ARCS reading, None for a refused reading) and `arcs` names the ARCS reading.
    stub: the passthrough upstream's table (input `upstream`, served by `arcs mcp stub`).
    """
    args = dict(args or {})
    cid = PREFIX + name
    expect = expect or {"outcome": "loaded"}
    mode = args.get("match_mode", "sequential")
    unmatched = args.get("on_unmatched", "error")
    sv = script_values(msgs)
    arcs_outcome = expect.get("outcome")
    if "flag" in expect:
        arcs_outcome = expect["readings"][expect["arcs"]]
    if "policy" in expect:
        arcs_outcome = expect["outcomes"]["ignore"]
    computed = None
    model_alts = {}
    try:
        if unmatched == "passthrough" and stub is None:
            raise Refused("passthrough without an upstream (MRR-E42 usage-error)")
        entries = load(rec, limits=args.get("limits"))
        got_outcome = "loaded"
        computed = replay(entries, sv, mode, unmatched, stub=stub)
        for f, rds in MODEL_FLAGS.items():
            for r in rds[1:]:
                alt = replay(entries, sv, mode, unmatched, {f: r}, stub=stub)
                if f == flag:
                    model_alts[r] = alt
                elif alt != computed and f in tolerate:
                    TOLERATED.append((cid, f, r))
                elif alt != computed:
                    raise AssertionError("%s: the answers change under %s %s: the case must carry "
                                         "that flag\n  arcs %s\n  %s %s"
                                         % (cid, f, r, computed, r, alt))
    except Refused as e:
        got_outcome = "refused"
        CHECKS.append((cid, "load", "refused: %s" % e, None))
    if got_outcome != arcs_outcome:
        raise AssertionError("%s: the model %s the recording, the case expects %s"
                             % (cid, got_outcome, arcs_outcome))
    op = {"requirements": sorted(set(reqs)), "spec_text": spec_text(quotes, errata),
          "expect": expect}
    if flag:
        rd = {}
        for r, v in readings.items():
            rd[r] = computed if v is AUTO else v
        if readings.get(arcs) is not AUTO:
            if rd[arcs] != computed:
                raise AssertionError("%s: the ARCS reading's hand answers differ from the model:\n"
                                     "  hand %s\n  model %s" % (cid, rd[arcs], computed))
        for r, alt in model_alts.items():
            if r not in rd:
                raise AssertionError("%s: reading %s missing" % (cid, r))
            if rd[r] != alt:
                raise AssertionError("%s: hand answers under %s differ from the model:\n  hand %s"
                                     "\n  model %s" % (cid, r, rd[r], alt))
        vals = [json.dumps(v, sort_keys=True, default=str) for v in rd.values()]
        if len(set(vals)) < 2:
            raise AssertionError("%s: the readings of %s all answer alike" % (cid, flag))
        op["expect_replay"] = {"flag": flag, "readings": rd, "arcs": arcs}
    elif computed is not None:
        if hand is not None and hand != computed:
            raise AssertionError("%s: hand answers differ from the model:\n  hand %s\n  model %s"
                                 % (cid, hand, computed))
        op["expect_replay"] = computed
        CHECKS.append((cid, "answers", computed, hand))
    inputs, files = _inputs(name, rec, script(msgs), rec_name)
    if stub is not None:
        files["cases/%s/upstream.jsonl" % name] = "".join(jdump(row) + "\n" for row in stub).encode()
        inputs["upstream"] = "cases/%s/upstream.jsonl" % name
    case = {"id": cid, "description": description, "inputs": inputs}
    if args:
        case["args"] = args
    case["operations"] = {"replay": op}
    case["files"] = files
    if any(c["id"] == cid for c in CASES):
        raise AssertionError("duplicate id " + cid)
    CASES.append(case)
    return case


# Requirement groups.
R_BASE = ["F-003", "MRR-REPLAY-1", "MRR-JSONRPC-11", "MRR-JSONRPC-13"]
R_SEQ = ["MRR-REPLAY-2", "MRR-MATCH-1"]
R_SEQ_DEFAULT = R_SEQ + ["MRR-CLI-6"]
R_BYREQ = ["MRR-REPLAY-2", "MRR-MATCH-2"]
R_FUZZY = ["MRR-REPLAY-2", "MRR-MATCH-3"]
R_WARN = ["MRR-REPLAY-4", "MRR-UNMATCHED-2", "MRR-JSONRPC-14"]
R_ERROR = ["MRR-REPLAY-4", "MRR-UNMATCHED-1", "MRR-UNMATCHED-5", "MRR-JSONRPC-14"]
R_NOTIF = ["EC-REC-005", "MRR-JSONRPC-10", "MRR-JSONRPC-12", "MRR-UNMATCHED-7"]
R_LOAD = ["MRR-REPLAY-6"]


# ---- a standard session used by many cases ---------------------------------------------------

A = "/tmp/a.txt"
B = "/tmp/b.txt"
RA = text("alpha\n")
RB = text("bravo\n")
RC = text("charlie\n")


def session_entries():
    """initialize, initialized, tools/list, two read_file calls: ids 1..4."""
    return (init_pair(1) + [("c2s", INITIALIZED),
                            ("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT)),
                            ("c2s", req(3, "tools/call", call("read_file", path=A))),
                            ("s2c", res(3, RA)),
                            ("c2s", req(4, "tools/call", call("read_file", path=B))),
                            ("s2c", res(4, RB))])


def session_script(ids=("c-1", "c-2", "c-3", "c-4")):
    return [init_req(ids[0]), INITIALIZED, req(ids[1], "tools/list"),
            req(ids[2], "tools/call", call("read_file", path=A)),
            req(ids[3], "tools/call", call("read_file", path=B))]


def session_answers(ids=("c-1", "c-2", "c-3", "c-4")):
    return ok(res(ids[0], INIT_RESULT), res(ids[1], LIST_RESULT), res(ids[2], RA), res(ids[3], RB))


# ---- EC-REC-005, MRR-E38: client notifications ----------------------------------------------

add("ec-rec-005-notification",
    "A recording with the client's notifications/initialized between initialize and tools/list, "
    "replayed to a client that sends the same: the notification gets no answer and the requests "
    "their responses.",
    recording(init_pair(1) + [("c2s", INITIALIZED), ("c2s", req(2, "tools/list")),
                              ("s2c", res(2, LIST_RESULT))]),
    [init_req("init"), INITIALIZED, req("list", "tools/list")],
    reqs=R_BASE + R_SEQ_DEFAULT + R_NOTIF,
    quotes=["ec5", "rpc-notification", "sequential", "default-match"], errata=["MRR-E38", "MRR-E35"],
    hand=ok(res("init", INIT_RESULT), res("list", LIST_RESULT)))

add("notification-under-error",
    "Under --on-unmatched error, the client sends notifications the recording never saw (before "
    "and after its one request): they are not unmatched requests, get no answer and do not end "
    "the replay.",
    recording(init_pair(1)),
    [notif("notifications/roots/list_changed"), init_req(10),
     notif("notifications/cancelled", {"requestId": 99, "reason": "user"}), INITIALIZED],
    args={"on_unmatched": "error"},
    reqs=R_BASE + R_SEQ_DEFAULT + R_NOTIF + ["MRR-REPLAY-4"],
    quotes=["ec5", "rpc-notification", "error", "handle-request"], errata=["MRR-E38"],
    hand=ok(res(10, INIT_RESULT)))

add("notification-between-requests",
    "Sequential replay of initialize, tools/list and a tools/call, the client sending "
    "notifications (progress, initialized) between its requests that are not in the recording: "
    "each request still gets the next recorded response.",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT)),
                              ("c2s", req(3, "tools/call", call("read_file", path=A))),
                              ("s2c", res(3, RA))]),
    [init_req("r1"), INITIALIZED, req("r2", "tools/list"),
     notif("notifications/progress", {"progressToken": "t", "progress": 1}),
     req("r3", "tools/call", call("read_file", path=A)), notif("notifications/initialized")],
    reqs=R_BASE + R_SEQ_DEFAULT + R_NOTIF,
    quotes=["ec5", "rpc-notification", "sequential"], errata=["MRR-E38", "MRR-E35"],
    hand=ok(res("r1", INIT_RESULT), res("r2", LIST_RESULT), res("r3", RA)))

# ---- MRR-E35: sequential ----------------------------------------------------------------------

add("sequential-with-notifications",
    "Sequential replay of a session with recorded client notifications and the client repeating "
    "the session with its own notifications and string ids: the responses in recorded order.",
    recording(session_entries() + [("c2s", notif("notifications/cancelled",
                                                 {"requestId": 3, "reason": "late"}))]),
    session_script() + [notif("notifications/cancelled", {"requestId": "c-3", "reason": "late"})],
    reqs=R_BASE + R_SEQ_DEFAULT + R_NOTIF,
    quotes=["sequential", "default-match", "ec5", "rpc-notification"], errata=["MRR-E35", "MRR-E38"],
    hand=session_answers())

add("sequential-ids-differ",
    "Sequential replay where the live ids (7, \"x\", 0, -3) differ from the recorded ids (1..4) in "
    "value and type: each response is served with the live id.",
    recording(session_entries()),
    session_script(ids=(7, "x", 0, -3)),
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["sequential", "rpc-id", "ok-response"], errata=["MRR-E35", "MRR-E37"],
    hand=session_answers(ids=(7, "x", 0, -3)))

SP_END = recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))])
add("sequential-past-end",
    "Sequential replay, --on-unmatched warn, of a two-exchange recording to a client that sends "
    "a third request: the third is unmatched (the recorded order has nothing left).",
    SP_END,
    [init_req("a"), req("b", "tools/list"), req("c", "tools/list")],
    args={"on_unmatched": "warn"},
    reqs=R_BASE + R_SEQ_DEFAULT + R_WARN + ["MRR-MATCH-5"],
    quotes=["sequential", "warn", "matcher-trait"], errata=["MRR-E33", "MRR-E35", "MRR-E41"],
    hand=ok(res("a", INIT_RESULT), res("b", LIST_RESULT), U("c")))

SMD = recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT)),
                                ("c2s", req(3, "tools/call", call("read_file", path=A))),
                                ("s2c", res(3, RA))])
add("sequential-method-differs",
    "Sequential replay, --on-unmatched warn, where the client skips tools/list and calls the tool "
    "first: the response cursor serves whatever response is next; a request cursor refuses the "
    "method that differs and waits.",
    SMD,
    [init_req(101), req(102, "tools/call", call("read_file", path=A)), req(103, "tools/list"),
     req(104, "tools/call", call("read_file", path=A))],
    args={"on_unmatched": "warn"},
    reqs=R_BASE + R_SEQ_DEFAULT + R_WARN,
    quotes=["sequential", "ec4", "warn"], errata=["MRR-E35", "MRR-E41"],
    flag="MRR-E35", arcs="request-cursor-ids",
    readings={"request-cursor-ids": AUTO,
              "response-cursor": ok(res(101, INIT_RESULT), res(102, LIST_RESULT), res(103, RA), U(104)),
              "request-cursor": ok(res(101, INIT_RESULT), U(102), res(103, LIST_RESULT), res(104, RA))})

NULL_ERR = err(None, -32700, "Parse error")
add("sequential-orphan-response-in-stream",
    "Sequential replay of a recording holding, between two exchanges, a server error response "
    "that answers no request (id null): the response cursor serves it to the next request; a "
    "request cursor skips it.",
    recording(init_pair(1) + [("s2c", NULL_ERR), ("c2s", req(2, "tools/list")),
                              ("s2c", res(2, LIST_RESULT))]),
    [init_req("a"), req("b", "tools/list"), req("c", "tools/list")],
    args={"on_unmatched": "warn"},
    reqs=R_BASE + R_SEQ_DEFAULT + R_WARN,
    quotes=["sequential", "ec4", "warn"], errata=["MRR-E28", "MRR-E35", "MRR-E41"],
    flag="MRR-E35", arcs="request-cursor-ids",
    readings={"request-cursor-ids": AUTO,
              "response-cursor": ok(res("a", INIT_RESULT), served(NULL_ERR, "b"),
                                    res("c", LIST_RESULT)),
              "request-cursor": ok(res("a", INIT_RESULT), res("b", LIST_RESULT), U("c"))})

CONC = init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                       ("c2s", req(3, "tools/call", call("read_file", path=B))),
                       ("s2c", res(3, RB)), ("s2c", res(2, RA))]
add("sequential-concurrent-ids",
    "Sequential replay of two concurrent read_file calls (ids 2 and 3, answered 3 first); the live "
    "client sends them with the recorded ids but in the other order: paired by id, each gets its "
    "own response; by position, the first live call gets the first recorded call's response "
    "(request cursor) or the first recorded response.",
    recording(CONC),
    [init_req(1), req(3, "tools/call", call("read_file", path=B)),
     req(2, "tools/call", call("read_file", path=A))],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["sequential", "ec4"], errata=["MRR-E35"],
    flag="MRR-E35", arcs="request-cursor-ids",
    readings={"request-cursor-ids": ok(res(1, INIT_RESULT), res(3, RB), res(2, RA)),
              "response-cursor": ok(res(1, INIT_RESULT), res(3, RB), res(2, RA)),
              "request-cursor": ok(res(1, INIT_RESULT), res(3, RA), res(2, RB))})

# ---- EC-REC-003, MRR-E29: by-request keys -----------------------------------------------------

BR3 = init_pair(1) + [
    ("c2s", req(2, "tools/call", call("read_file", path=A))), ("s2c", res(2, RA)),
    ("c2s", req(3, "tools/call", call("read_file", path=B))), ("s2c", res(3, RB)),
    ("c2s", req(4, "tools/call", call("list_directory", path="/tmp"))), ("s2c", res(4, RC))]

add("by-request-reordered-requests",
    "By-request replay where the client asks the three recorded tool calls in another order than "
    "recorded: each gets its own response.",
    recording(BR3),
    [req("l", "tools/call", call("list_directory", path="/tmp")),
     req("b", "tools/call", call("read_file", path=B)), init_req("i"),
     req("a", "tools/call", call("read_file", path=A))],
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ,
    quotes=["by-request", "by-request-cmd"], errata=["MRR-E29"],
    hand=ok(res("l", RC), res("b", RB), res("i", INIT_RESULT), res("a", RA)))

MO_PARAMS = {"name": "search_files", "arguments": {"path": "/tmp", "pattern": "*.txt",
                                                    "options": {"depth": 2, "hidden": False}}}
add("by-request-member-order",
    "By-request replay where the live params list their members in another order, at every "
    "depth, than the recorded ones: the same key, served.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", MO_PARAMS)), ("s2c", res(2, RA))]),
    [Raw('{"params":{"arguments":{"options":{"hidden":false,"depth":2},"pattern":"*.txt",'
         '"path":"/tmp"},"name":"search_files"},"method":"tools/call","id":"k","jsonrpc":"2.0"}')],
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ,
    quotes=["by-request"], errata=["MRR-E29"],
    hand=ok(res("k", RA)))

add("by-request-whitespace",
    "By-request replay where the live request is written with spaces, tabs and around every token "
    "while the recorded one is compact: the same key, served.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", res(2, RA))]),
    ['{ "jsonrpc" : "2.0" ,\t"id" : 5 , "method" : "tools/call" , "params" : { "name" : '
     '"read_file" , "arguments" : { "path" : "/tmp/a.txt" } } }'],
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ,
    quotes=["by-request"], errata=["MRR-E29"],
    hand=ok(res(5, RA)))

ESC_REC = Raw('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_\\u0066ile",'
              '"arguments":{"path":"\\/tmp\\/\\u0041 caf\\u00e9.txt"}}}')
add("by-request-escapes",
    "By-request replay where the recorded params spell characters with escapes (\\u0066, \\/, "
    "\\u0041, \\u00e9) and the live params write them plainly: strings compare after "
    "unescaping, served.",
    recording(init_pair(1) + [("c2s", ESC_REC), ("s2c", res(2, RA))]),
    [req("e", "tools/call", call("read_file", path="/tmp/A café.txt"))],
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ,
    quotes=["by-request"], errata=["MRR-E29"],
    hand=ok(res("e", RA)))

add("by-request-method-case",
    "By-request replay, --on-unmatched warn, where the client first asks Tools/list (another "
    "method: methods compare exactly) and then tools/list.",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))]),
    [req("x", "Tools/list"), req("y", "tools/list")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request", "warn"], errata=["MRR-E29", "MRR-E41"],
    hand=ok(U("x"), res("y", LIST_RESULT)))

ARR_CALL = {"name": "read_multiple_files", "arguments": {"paths": [A, B]}}
add("by-request-array-order",
    "By-request replay, --on-unmatched warn, where the live request lists the array elements in "
    "the other order (unmatched: arrays are ordered), then in the recorded order (served).",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", ARR_CALL)), ("s2c", res(2, RC))]),
    [req(1, "tools/call", {"name": "read_multiple_files", "arguments": {"paths": [B, A]}}),
     req(2, "tools/call", ARR_CALL)],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request", "warn"], errata=["MRR-E29", "MRR-E41"],
    hand=ok(U(1), res(2, RC)))

# ---- MRR-E30: _meta ---------------------------------------------------------------------------

META_REC = req(2, "tools/call", {"name": "read_file", "arguments": {"path": A},
                                 "_meta": {"progressToken": 1}})
add("by-request-meta-differs",
    "By-request replay, --on-unmatched warn, where the live params differ from the recorded ones "
    "only in params._meta (another progress token).",
    recording(init_pair(1) + [("c2s", META_REC), ("s2c", res(2, RA))]),
    [req("m", "tools/call", {"name": "read_file", "arguments": {"path": A},
                             "_meta": {"progressToken": "tok-77"}})],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request", "fuzzy"], errata=["MRR-E29", "MRR-E30"],
    flag="MRR-E30", arcs="ignore-top-meta",
    readings={"ignore-top-meta": ok(res("m", RA)), "ignore-all-meta": ok(res("m", RA)),
              "whole-params": ok(U("m"))})

NESTED_REC = req(2, "tools/call", {"name": "lookup", "arguments": {"key": "k1",
                                                                   "_meta": {"rev": 1}}})
add("by-request-nested-meta-differs",
    "By-request replay, --on-unmatched warn, where the live params differ only in a _meta member "
    "inside params.arguments (the tool's own data, not protocol metadata).",
    recording(init_pair(1) + [("c2s", NESTED_REC), ("s2c", res(2, RB))]),
    [req("n", "tools/call", {"name": "lookup", "arguments": {"key": "k1", "_meta": {"rev": 2}}})],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E30"],
    flag="MRR-E30", arcs="ignore-top-meta",
    readings={"ignore-top-meta": ok(U("n")), "ignore-all-meta": ok(res("n", RB)),
              "whole-params": ok(U("n"))})

add("by-request-meta-added",
    "By-request replay, --on-unmatched warn, where the live request adds params._meta to params "
    "recorded without one.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", res(2, RA))]),
    [req("p", "tools/call", {"_meta": {"progressToken": "p1"}, "name": "read_file",
                             "arguments": {"path": A}})],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E30"],
    flag="MRR-E30", arcs="ignore-top-meta",
    readings={"ignore-top-meta": ok(res("p", RA)), "ignore-all-meta": ok(res("p", RA)),
              "whole-params": ok(U("p"))})

# ---- MRR-E31: params absent, {} ---------------------------------------------------------------


def list_rec(params):
    return recording(init_pair(1) + [("c2s", req(2, "tools/list", params)),
                                     ("s2c", res(2, LIST_RESULT))])


add("by-request-params-absent-vs-empty",
    "By-request replay, --on-unmatched warn: tools/list recorded without params, asked with "
    "\"params\": {}.",
    list_rec(ABSENT), [req("q", "tools/list", {})],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E31"],
    flag="MRR-E31", arcs="absent-is-empty",
    readings={"absent-is-empty": ok(res("q", LIST_RESULT)), "absent-distinct": ok(U("q"))})

add("by-request-params-empty-vs-absent",
    "By-request replay, --on-unmatched warn: tools/list recorded with \"params\": {}, asked "
    "without params.",
    list_rec({}), [req("q", "tools/list")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E31"],
    flag="MRR-E31", arcs="absent-is-empty",
    readings={"absent-is-empty": ok(res("q", LIST_RESULT)), "absent-distinct": ok(U("q"))})

add("by-request-params-meta-only-vs-absent",
    "By-request replay, --on-unmatched warn: tools/list recorded with params holding only _meta "
    "(a progress token), asked without params.",
    list_rec({"_meta": {"progressToken": "t-1"}}), [req("q", "tools/list")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E30", "MRR-E31"],
    flag="MRR-E31", arcs="absent-is-empty", tolerate=["MRR-E30"],
    readings={"absent-is-empty": ok(res("q", LIST_RESULT)), "absent-distinct": ok(U("q"))})

add("by-request-params-absent-both",
    "By-request replay: tools/list recorded and asked without params.",
    list_rec(ABSENT), [req("q", "tools/list")],
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E31"],
    hand=ok(res("q", LIST_RESULT)))

add("by-request-params-empty-both",
    "By-request replay: tools/list recorded and asked with \"params\": {}.",
    list_rec({}), [req("q", "tools/list", {})],
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E31"],
    hand=ok(res("q", LIST_RESULT)))

# ---- MRR-E32: numbers in the key --------------------------------------------------------------


def page_rec(num_text, result=RA):
    return recording(init_pair(1) + [
        ("c2s", Raw('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_page",'
                    '"arguments":{"page":%s}}}' % num_text)),
        ("s2c", res(2, result))])


def page_req(id_, num_text):
    return ('{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"get_page",'
            '"arguments":{"page":%s}}}' % (json.dumps(id_), num_text))


add("by-request-int-vs-float",
    "By-request replay, --on-unmatched warn: arguments.page recorded as 1, asked as 1.0.",
    page_rec("1"), [page_req("n", "1.0")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E32"],
    flag="MRR-E32", arcs="jcs",
    readings={"jcs": ok(res("n", RA)), "decimal-value": ok(res("n", RA)),
              "sorted-keys-text": ok(U("n"))})

add("by-request-exponent-vs-int",
    "By-request replay, --on-unmatched warn: arguments.page recorded as 100, asked as 1e2.",
    page_rec("100"), [page_req("n", "1e2")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E32"],
    flag="MRR-E32", arcs="jcs",
    readings={"jcs": ok(res("n", RA)), "decimal-value": ok(res("n", RA)),
              "sorted-keys-text": ok(U("n"))})

add("by-request-beyond-2-pow-53",
    "By-request replay, --on-unmatched warn: arguments.page recorded as 9007199254740993 (2^53+1), "
    "asked as 9007199254740992 (the same double, another decimal).",
    page_rec("9007199254740993"), [page_req("n", "9007199254740992")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E32"],
    flag="MRR-E32", arcs="jcs",
    readings={"jcs": ok(res("n", RA)), "decimal-value": ok(U("n")),
              "sorted-keys-text": ok(U("n"))})

add("by-request-negative-zero",
    "By-request replay, --on-unmatched warn: arguments.page recorded as 0, asked as -0 (one value "
    "for RFC 8785 and by decimal value; the float -0.0 to serde_json, which writes it \"-0.0\").",
    page_rec("0"), [page_req("z", "-0")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E32"],
    flag="MRR-E32", arcs="jcs",
    readings={"jcs": ok(res("z", RA)), "decimal-value": ok(res("z", RA)),
              "sorted-keys-text": ok(U("z"))})

NFC = "caf\u00e9"
NFD = "cafe\u0301"
add("by-request-nfc-vs-nfd",
    "By-request replay, --on-unmatched warn: a path recorded in NFC (U+00E9), asked first in NFD "
    "(e + U+0301: another string, unmatched), then in NFC (served).",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path="/tmp/" + NFC))),
                              ("s2c", res(2, RB))]),
    [req("d", "tools/call", call("read_file", path="/tmp/" + NFD)),
     req("c", "tools/call", call("read_file", path="/tmp/" + NFC))],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request"], errata=["MRR-E29", "MRR-E32"],
    hand=ok(U("d"), res("c", RB)))

# ---- MRR-E33, MRR-E34: queues -----------------------------------------------------------------

ONCE = recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                                 ("s2c", res(2, RA))])
TWICE_SCRIPT = [req("t1", "tools/call", call("read_file", path=A)),
                req("t2", "tools/call", call("read_file", path=A))]
add("by-request-asked-twice-recorded-once",
    "By-request replay, --on-unmatched warn: one recorded read_file call, asked twice with the "
    "same params.",
    ONCE, TWICE_SCRIPT,
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN + ["MRR-MATCH-5"],
    quotes=["by-request", "matcher-trait", "warn"], errata=["MRR-E33"],
    flag="MRR-E33", arcs="exhausted-unmatched",
    readings={"exhausted-unmatched": ok(res("t1", RA), U("t2")),
              "repeat-last": ok(res("t1", RA), res("t2", RA))})

add("fuzzy-asked-twice-recorded-once",
    "Fuzzy replay, --on-unmatched warn: one recorded read_file call, asked twice with the same "
    "params.",
    ONCE, TWICE_SCRIPT,
    args={"match_mode": "fuzzy", "on_unmatched": "warn"},
    reqs=R_BASE + R_FUZZY + R_WARN + ["MRR-MATCH-5"],
    quotes=["fuzzy", "matcher-trait", "warn"], errata=["MRR-E33", "MRR-E36"],
    flag="MRR-E33", arcs="exhausted-unmatched",
    readings={"exhausted-unmatched": ok(res("t1", RA), U("t2")),
              "repeat-last": ok(res("t1", RA), res("t2", RA))},
    rec_name="by-request-asked-twice-recorded-once")

RA2 = text("alpha, second read\n")
add("by-request-asked-twice-recorded-twice",
    "By-request replay: the same read_file call recorded twice with different results, asked "
    "twice: the two responses in recorded order.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", res(2, RA)),
                              ("c2s", req(3, "tools/call", call("read_file", path=A))),
                              ("s2c", res(3, RA2))]),
    TWICE_SCRIPT,
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ + ["MRR-MATCH-5"],
    quotes=["by-request", "matcher-trait"], errata=["MRR-E33", "MRR-E34"],
    hand=ok(res("t1", RA), res("t2", RA2)))

add("by-request-same-key-out-of-order",
    "By-request replay: the same read_file call recorded twice, the second request's response "
    "recorded first; asked twice.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("c2s", req(3, "tools/call", call("read_file", path=A))),
                              ("s2c", res(3, RA2)),
                              ("s2c", res(2, RA))]),
    TWICE_SCRIPT,
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ + ["EC-REC-004"],
    quotes=["by-request", "ec4"], errata=["MRR-E28", "MRR-E34"],
    flag="MRR-E34", arcs="request-order",
    readings={"request-order": ok(res("t1", RA), res("t2", RA2)),
              "response-order": ok(res("t1", RA2), res("t2", RA))})

# ---- MRR-E36: fuzzy ---------------------------------------------------------------------------

add("fuzzy-identical",
    "Fuzzy replay of two different tool calls, the client asking the second with params identical "
    "to the recorded ones, then the first: each served its own.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", res(2, RA)),
                              ("c2s", req(3, "tools/call", call("list_directory", path="/tmp"))),
                              ("s2c", res(3, RC))]),
    [req("f2", "tools/call", call("list_directory", path="/tmp")),
     req("f1", "tools/call", call("read_file", path=A))],
    args={"match_mode": "fuzzy"},
    reqs=R_BASE + R_FUZZY,
    quotes=["fuzzy"], errata=["MRR-E36"],
    hand=ok(res("f2", RC), res("f1", RA)))

add("ec-rec-012-tie",
    "Fuzzy replay of the same read_file call recorded twice with different results (two equally "
    "good candidates), asked twice: the first recorded, then the second.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", res(2, RA)),
                              ("c2s", req(3, "tools/call", call("read_file", path=A))),
                              ("s2c", res(3, RA2))]),
    TWICE_SCRIPT,
    args={"match_mode": "fuzzy"},
    reqs=R_BASE + R_FUZZY + ["EC-REC-012"],
    quotes=["ec12", "fuzzy"], errata=["MRR-E36"],
    hand=ok(res("t1", RA), res("t2", RA2)))

add("fuzzy-unknown-method",
    "Fuzzy replay, --on-unmatched warn: the client asks prompts/list, a method the recording "
    "never saw (unmatched), then tools/list (served).",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))]),
    [req("p", "prompts/list"), req("t", "tools/list")],
    args={"match_mode": "fuzzy", "on_unmatched": "warn"},
    reqs=R_BASE + R_FUZZY + R_WARN,
    quotes=["fuzzy", "warn"], errata=["MRR-E36"],
    hand=ok(U("p"), res("t", LIST_RESULT)))

TS_REC = {"name": "read_file", "arguments": {"path": A, "ts": 1}}
add("fuzzy-one-leaf-changed",
    "Fuzzy replay, --on-unmatched warn: a read_file call recorded with arguments.ts 1, asked with "
    "ts 2 (2 of 4 leaves shared): served under both readings.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", TS_REC)), ("s2c", res(2, RA))]),
    [req("o", "tools/call", {"name": "read_file", "arguments": {"path": A, "ts": 2}})],
    args={"match_mode": "fuzzy", "on_unmatched": "warn"},
    reqs=R_BASE + R_FUZZY + R_WARN,
    quotes=["fuzzy"], errata=["MRR-E36"],
    hand=ok(res("o", RA)))

add("fuzzy-different-tool",
    "Fuzzy replay, --on-unmatched warn: a read_file call recorded, list_directory asked with the "
    "same path (1 of 3 leaves shared).",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", res(2, RA))]),
    [req("d", "tools/call", call("list_directory", path=A))],
    args={"match_mode": "fuzzy", "on_unmatched": "warn"},
    reqs=R_BASE + R_FUZZY + R_WARN,
    quotes=["fuzzy"], errata=["MRR-E36"],
    flag="MRR-E36", arcs="leaf-jaccard",
    readings={"leaf-jaccard": ok(U("d")), "best-of-method": ok(res("d", RA)),
              "same-target": ok(U("d"))})

add("fuzzy-nearest-of-two",
    "Fuzzy replay: two read_file calls recorded (paths /tmp/a.txt and /tmp/b.txt, ts 1), asked "
    "for /tmp/b.txt with ts 2: the second, nearer, is served, then the first.",
    recording(init_pair(1) + [
        ("c2s", req(2, "tools/call", {"name": "read_file", "arguments": {"path": A, "ts": 1}})),
        ("s2c", res(2, RA)),
        ("c2s", req(3, "tools/call", {"name": "read_file", "arguments": {"path": B, "ts": 1}})),
        ("s2c", res(3, RB))]),
    [req("n", "tools/call", {"name": "read_file", "arguments": {"path": B, "ts": 2}}),
     req("m", "tools/call", {"name": "read_file", "arguments": {"path": A, "ts": 2}})],
    args={"match_mode": "fuzzy", "on_unmatched": "warn"},
    reqs=R_BASE + R_FUZZY + R_WARN,
    quotes=["fuzzy", "nfr2-fuzzy"], errata=["MRR-E36"],
    hand=ok(res("n", RB), res("m", RA)))

TH_REC = {"name": "search", "arguments": {"query": "q", "limit": 10, "offset": 0, "ts": 1}}
add("fuzzy-threshold-below",
    "Fuzzy replay, --on-unmatched warn: a search call recorded, asked with two of its five leaves "
    "changed (3 of 7 shared, below one half).",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", TH_REC)), ("s2c", res(2, RC))]),
    [req("s", "tools/call", {"name": "search", "arguments": {"query": "q", "limit": 10,
                                                             "offset": 20, "ts": 2}})],
    args={"match_mode": "fuzzy", "on_unmatched": "warn"},
    reqs=R_BASE + R_FUZZY + R_WARN,
    quotes=["fuzzy"], errata=["MRR-E36"],
    flag="MRR-E36", arcs="leaf-jaccard",
    readings={"leaf-jaccard": ok(U("s")), "best-of-method": ok(res("s", RC)),
              "same-target": ok(res("s", RC))})

# ---- MRR-E37: the served response ------------------------------------------------------------

ESC_TEXT = ('{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":'
            '"quote \\" backslash \\\\ tab \\t nl \\n cr \\r ctl \\u0001 del \\u007f '
            'e-acute \\u00e9 raw é ls \\u2028 astral \\ud83d\\ude00 raw 😀 nul \\u0000"}],'
            '"x-unicode-key-\\u00fc":"ü","\\ud834\\udd1e":"clef"}}')
ESC_RESULT = json.loads(ESC_TEXT)["result"]
add("replay-escapes-and-astral",
    "Replay of a response whose strings hold escapes (quote, backslash, control characters, "
    "U+0000, U+2028), non-ASCII raw and escaped, and astral characters raw and as surrogate "
    "pairs (in a value and a member name): served as the same strings.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", Raw(ESC_TEXT))]),
    [init_req(1), req(2, "tools/call", call("read_file", path=A))],
    reqs=R_BASE + R_SEQ_DEFAULT + ["EC-REC-006"],
    quotes=["ec6", "lossless"], errata=["MRR-E37", "MRR-E5"],
    hand=ok(res(1, INIT_RESULT), res(2, ESC_RESULT)))

add("replay-id-string-live",
    "Replay of responses recorded with numeric ids 1 and 2 to a client whose ids are the strings "
    "\"1\" and \"2\": served with the string ids.",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))]),
    [init_req("1"), req("2", "tools/list")],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["rpc-id", "ok-response"], errata=["MRR-E37"],
    hand=ok(res("1", INIT_RESULT), res("2", LIST_RESULT)))

add("replay-id-number-live",
    "Replay of responses recorded with string ids to a client whose ids are numbers (0 and "
    "9007199254740991): served with the numeric ids.",
    recording([("c2s", init_req("init-1")), ("s2c", res("init-1", INIT_RESULT)),
               ("c2s", req("list-1", "tools/list")), ("s2c", res("list-1", LIST_RESULT))]),
    [init_req(0), req(9007199254740991, "tools/list")],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["rpc-id", "ok-response"], errata=["MRR-E37"],
    hand=ok(res(0, INIT_RESULT), res(9007199254740991, LIST_RESULT)))

ODD = {"jsonrpc": "2.0", "id": 2, "result": "plain text where an object was expected",
       "x-trace": {"span": "abc", "sampled": True}, "_note": None}
add("replay-malformed-response-served",
    "Replay of a recorded response whose result is a bare string and which carries members "
    "unknown to JSON-RPC: served as recorded, with the live id.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", ODD)]),
    [init_req("i"), req("odd", "tools/call", call("read_file", path=A))],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["lossless", "msg-value", "ok-response"], errata=["MRR-E26", "MRR-E37"],
    hand=ok(res("i", INIT_RESULT), served(ODD, "odd")))

BIG = Raw('{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":'
          '{"count":10000000000000000000001,"small":2.5}}}')
add("replay-big-integer",
    "Replay of a response holding the integer 10000000000000000000001 (10^22+1, no double holds "
    "it): served with its exact value, or as 10^22 by a reader of doubles.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("count", path="/"))),
                              ("s2c", BIG)]),
    [init_req("i"), req("big", "tools/call", call("count", path="/"))],
    reqs=R_BASE + R_SEQ_DEFAULT + ["EC-REC-006"],
    quotes=["ec6", "msg-value"], errata=["MRR-E37"],
    flag="MRR-E37", arcs="exact-value",
    readings={"exact-value": ok(res("i", INIT_RESULT),
                                res("big", {"content": [], "structuredContent":
                                            {"count": 10000000000000000000001, "small": 2.5}})),
              "double-value": ok(res("i", INIT_RESULT),
                                 res("big", {"content": [], "structuredContent":
                                             {"count": 10000000000000000000000, "small": 2.5}}))})

# A fraction Python's json cannot write into the manifest (0.50000000000000000001) would need a
# Decimal there; this token has a 19-digit fraction whose exact value is an integer, so that both
# readings' values are exact Python ints: 5.0000000000000000001e20 = 500000000000000000010, and the
# nearest double is 5e20 (exactly 500000000000000000000, which is also its shortest form).
LONG = Raw('{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":'
           '{"ratio":5.0000000000000000001e20}}}')
add("replay-long-fraction",
    "Replay of a response holding the number 5.0000000000000000001e20 (a 19-digit fraction, "
    "exactly 500000000000000000010; the nearest double is 5e20): served with its exact value, or "
    "as 5e20 by a reader of doubles.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("ratio", path="/"))),
                              ("s2c", LONG)]),
    [init_req("i"), req("frac", "tools/call", call("ratio", path="/"))],
    reqs=R_BASE + R_SEQ_DEFAULT + ["EC-REC-006"],
    quotes=["ec6", "msg-value"], errata=["MRR-E37"],
    flag="MRR-E37", arcs="exact-value",
    readings={"exact-value": ok(res("i", INIT_RESULT),
                                res("frac", {"content": [], "structuredContent":
                                             {"ratio": 500000000000000000010}})),
              "double-value": ok(res("i", INIT_RESULT),
                                 res("frac", {"content": [], "structuredContent":
                                              {"ratio": 500000000000000000000}}))})

NEWER_CLIENT = dict(INIT_PARAMS, clientInfo={"name": "ci-agent", "version": "1.0.1"})
add("by-request-initialize-client-version",
    "By-request replay, --on-unmatched warn, to a client whose initialize differs from the "
    "recorded one only in its clientInfo version: served as the recorded initialize when the "
    "client's identity is left out of the key, unmatched when params are keyed as sent.",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))]),
    [req("i", "initialize", NEWER_CLIENT), req("l", "tools/list")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["by-request", "warn"], errata=["MRR-E29", "MRR-E50"],
    flag="MRR-E50", arcs="client-identity-ignored",
    readings={"client-identity-ignored": ok(res("i", INIT_RESULT), res("l", LIST_RESULT)),
              "params-as-sent": ok(U("i"), res("l", LIST_RESULT))})

# ---- MRR-E39: server-initiated messages -------------------------------------------------------

PROG1 = notif("notifications/progress", {"progressToken": "pt-1", "progress": 1, "total": 2})
PROG2 = notif("notifications/progress", {"progressToken": "pt-1", "progress": 2, "total": 2})
PROG_CALL = {"name": "read_file", "arguments": {"path": A}, "_meta": {"progressToken": "pt-1"}}
add("replay-progress-notifications",
    "Replay of a tools/call during which the server sent two progress notifications before its "
    "response: only the response is sent, or the notifications first.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", PROG_CALL)), ("s2c", PROG1),
                              ("s2c", PROG2), ("s2c", res(2, RA))]),
    [init_req("i"), req("c", "tools/call", PROG_CALL)],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["serves", "handle-request-sig", "lossless"], errata=["MRR-E39"],
    flag="MRR-E39", arcs="in-recorded-place",
    readings={"in-recorded-place": AUTO,
              "responses-only": ok(res("i", INIT_RESULT), res("c", RA)),
              "with-server-messages": ok(res("i", INIT_RESULT), PROG1, PROG2, res("c", RA))})

LIST_CHANGED = notif("notifications/tools/list_changed")
add("replay-list-changed-before-response",
    "Replay of a tools/call during which the server sent notifications/tools/list_changed before "
    "its response (a rug pull): only the response is sent, or the notification first.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("read_file", path=A))),
                              ("s2c", LIST_CHANGED), ("s2c", res(2, RA)),
                              ("c2s", req(3, "tools/list")), ("s2c", res(3, LIST_RESULT))]),
    [init_req("i"), req("c", "tools/call", call("read_file", path=A)), req("l", "tools/list")],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["serves", "handle-request-sig", "lossless"], errata=["MRR-E39"],
    flag="MRR-E39", arcs="in-recorded-place",
    readings={"in-recorded-place": AUTO,
              "responses-only": ok(res("i", INIT_RESULT), res("c", RA), res("l", LIST_RESULT)),
              "with-server-messages": ok(res("i", INIT_RESULT), LIST_CHANGED, res("c", RA),
                                         res("l", LIST_RESULT))})

SAMPLING = req("srv-1", "sampling/createMessage",
               {"messages": [{"role": "user", "content": {"type": "text", "text": "Summarize"}}],
                "maxTokens": 100})
SAMPLING_REPLY = res("srv-1", {"role": "assistant", "content": {"type": "text", "text": "A summary"},
                               "model": "m-1", "stopReason": "endTurn"})
add("replay-sampling-request-during-call",
    "Replay of a tools/call during which the server sent a sampling/createMessage request and the "
    "client answered it before the tool's response; the client script repeats its answer: only "
    "the tool's response is sent, or the sampling request first; the client's answer gets none.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("summarize", path=A))),
                              ("s2c", SAMPLING), ("c2s", SAMPLING_REPLY),
                              ("s2c", res(2, RB))]),
    [init_req("i"), req("c", "tools/call", call("summarize", path=A)), SAMPLING_REPLY],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["serves", "handle-request-sig", "lossless"], errata=["MRR-E38", "MRR-E39"],
    flag="MRR-E39", arcs="in-recorded-place",
    readings={"in-recorded-place": AUTO,
              "responses-only": ok(res("i", INIT_RESULT), res("c", RB)),
              "with-server-messages": ok(res("i", INIT_RESULT), SAMPLING, res("c", RB))})

ROOTS = req("srv-r", "roots/list")
ROOTS_REPLY = res("srv-r", {"roots": [{"uri": "file:///tmp", "name": "tmp"}]})
add("replay-roots-request-after-initialized",
    "Replay of a session in which the server asked the client for its roots right after "
    "notifications/initialized, and the client answered: the roots request goes out after the "
    "live client's notifications/initialized in its recorded place, or never (it answers no "
    "request).",
    recording(init_pair(1) + [("c2s", INITIALIZED), ("s2c", ROOTS), ("c2s", ROOTS_REPLY),
                              ("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))]),
    [init_req("i"), INITIALIZED, ROOTS_REPLY, req("l", "tools/list")],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["serves", "handle-request-sig", "lossless"], errata=["MRR-E38", "MRR-E39"],
    flag="MRR-E39", arcs="in-recorded-place",
    readings={"in-recorded-place": ok(res("i", INIT_RESULT), ROOTS, res("l", LIST_RESULT)),
              "responses-only": ok(res("i", INIT_RESULT), res("l", LIST_RESULT)),
              "with-server-messages": ok(res("i", INIT_RESULT), res("l", LIST_RESULT))})

add("replay-response-awaits-sampling-answer",
    "By-request replay of a tools/call during which the server sent a sampling request; the live "
    "client sends a ping before it answers the sampling request: the tool's response waits for "
    "that answer (the ping's goes out first), or goes out at once after the sampling request, or "
    "is the only message sent.",
    recording(init_pair(1) + [("c2s", req(2, "tools/call", call("summarize", path=A))),
                              ("s2c", SAMPLING), ("c2s", SAMPLING_REPLY),
                              ("s2c", res(2, RB)),
                              ("c2s", req(3, "ping")), ("s2c", res(3, {}))]),
    [init_req("i"), req("c", "tools/call", call("summarize", path=A)), req("p", "ping"),
     SAMPLING_REPLY],
    args={"match_mode": "by-request"},
    reqs=R_BASE + R_BYREQ,
    quotes=["serves", "handle-request-sig", "lossless"], errata=["MRR-E38", "MRR-E39"],
    flag="MRR-E39", arcs="in-recorded-place",
    readings={"in-recorded-place": ok(res("i", INIT_RESULT), SAMPLING, res("p", {}),
                                      res("c", RB)),
              "responses-only": ok(res("i", INIT_RESULT), res("c", RB), res("p", {})),
              "with-server-messages": ok(res("i", INIT_RESULT), SAMPLING, res("c", RB),
                                         res("p", {}))})

LOG = notif("notifications/message", {"level": "info", "data": "session closing"})
add("replay-trailing-notification",
    "Replay of a recording whose last message is a server logging notification after the last "
    "response: sent after that response in its recorded place, or never.",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT)),
                              ("s2c", LOG)]),
    [init_req("i"), req("l", "tools/list")],
    reqs=R_BASE + R_SEQ_DEFAULT,
    quotes=["serves", "handle-request-sig", "lossless"], errata=["MRR-E39"],
    flag="MRR-E39", arcs="in-recorded-place",
    readings={"in-recorded-place": ok(res("i", INIT_RESULT), res("l", LIST_RESULT), LOG),
              "responses-only": ok(res("i", INIT_RESULT), res("l", LIST_RESULT)),
              "with-server-messages": ok(res("i", INIT_RESULT), res("l", LIST_RESULT))})

# ---- MRR-E40: timing --------------------------------------------------------------------------

TIMED = [("c2s", init_req(1)), ("s2c", res(1, INIT_RESULT), 40),
         ("c2s", req(2, "tools/call", call("read_file", path=A))), ("s2c", res(2, RA), 50)]
TIMED_REC = recording(TIMED)
TIMED_SCRIPT = [init_req("i"), req("c", "tools/call", call("read_file", path=A))]
TIMED_ANSWERS = ok(res("i", INIT_RESULT), res("c", RA))
R_TIMING = R_BASE + R_SEQ_DEFAULT + ["MRR-REPLAY-3", "MRR-TIMING-4"]
for tname, timing, treq, tq, desc in [
        ("timing-instant", "instant", ["MRR-TIMING-1"], ["instant", "timing"],
         "--timing instant: the recorded latencies (40 and 50 ms) are not waited"),
        ("timing-realistic", "realistic", ["MRR-TIMING-2"], ["realistic", "latency-code"],
         "--timing realistic: each response after its recorded latency_ms (40 and 50 ms)"),
        ("timing-scaled-half", "scaled:0.5", ["MRR-TIMING-3"], ["scaled", "latency-code"],
         "--timing scaled:0.5: each response after half its latency_ms (20 and 25 ms)"),
        ("timing-scaled-two", "scaled:2", ["MRR-TIMING-3"], ["scaled", "latency-code"],
         "--timing scaled:2: each response after twice its latency_ms (80 and 100 ms)"),
        ("timing-scaled-zero", "scaled:0", ["MRR-TIMING-3", "MRR-TIMING-1"],
         ["scaled", "latency-code"], "--timing scaled:0: no delay (0 x latency_ms)")]:
    add(tname, "Replay with %s; the answers are the recorded responses." % desc,
        TIMED_REC, TIMED_SCRIPT, args={"timing": timing},
        reqs=R_TIMING + treq, quotes=tq, errata=["MRR-E40"],
        hand=TIMED_ANSWERS, rec_name="timing-instant")

add("timing-default-is-instant",
    "Replay without --timing of responses recorded with latency_ms 40 and 50: instant, the "
    "default.",
    TIMED_REC, TIMED_SCRIPT,
    reqs=R_TIMING + ["MRR-TIMING-1", "MRR-CLI-7"],
    quotes=["instant", "default-timing"], errata=["MRR-E40", "MRR-E47"],
    hand=TIMED_ANSWERS, rec_name="timing-instant")

add("timing-unmatched-not-delayed",
    "Replay with --timing realistic and --on-unmatched warn: the matched response after its 40 ms, "
    "the unmatched request past the end answered with an error at once.",
    recording([("c2s", init_req(1)), ("s2c", res(1, INIT_RESULT), 40)]),
    [init_req("i"), req("x", "tools/list")],
    args={"timing": "realistic", "on_unmatched": "warn"},
    reqs=R_TIMING + ["MRR-TIMING-2"] + R_WARN,
    quotes=["realistic", "latency-code", "warn"], errata=["MRR-E40", "MRR-E41"],
    hand=ok(res("i", INIT_RESULT), U("x")))

add("timing-realistic-no-latency",
    "Replay with --timing realistic of a response recorded without latency_ms, 50 ms after its "
    "request by the timestamps: no delay (latency-field), or 50 ms (ts-difference); the answers "
    "are the same.",
    recording([("c2s", init_req(1)), ("s2c", res(1, INIT_RESULT), 40),
               ("c2s", req(2, "tools/call", call("read_file", path=A))),
               ("s2c", res(2, RA), None, 50)]),
    TIMED_SCRIPT, args={"timing": "realistic"},
    reqs=R_TIMING + ["MRR-TIMING-2"],
    quotes=["realistic", "latency-code"], errata=["MRR-E22", "MRR-E40"],
    hand=TIMED_ANSWERS)

# ---- MRR-E41: error and warn ------------------------------------------------------------------

UNM_REC = recording(init_pair(1))
UNM_SCRIPT = [init_req("i"), req("l", "tools/list"), req("c", "tools/call", call("read_file", path=A))]
add("unmatched-error",
    "Replay with --on-unmatched error of a recording holding only initialize; the client then "
    "asks tools/list and tools/call: the replay ends at tools/list, with an error response first "
    "or none, and tools/call is not answered.",
    UNM_REC, UNM_SCRIPT, args={"on_unmatched": "error"},
    reqs=R_BASE + R_SEQ_DEFAULT + R_ERROR,
    quotes=["error", "error-code", "rpc-reply"], errata=["MRR-E41"],
    flag="MRR-E41", arcs="error-then-exit",
    readings={"error-then-exit": exited(res("i", INIT_RESULT), U("l")),
              "exit-only": exited(res("i", INIT_RESULT))})

add("unmatched-error-default",
    "The same replay without --on-unmatched (error is the default): the replay ends at tools/list.",
    UNM_REC, UNM_SCRIPT,
    reqs=R_BASE + R_SEQ_DEFAULT + R_ERROR + ["MRR-CLI-8"],
    quotes=["error", "default-unmatched", "error-code"], errata=["MRR-E41", "MRR-E47"],
    flag="MRR-E41", arcs="error-then-exit",
    readings={"error-then-exit": exited(res("i", INIT_RESULT), U("l")),
              "exit-only": exited(res("i", INIT_RESULT))},
    rec_name="unmatched-error")

add("unmatched-warn",
    "Replay with --on-unmatched warn of a recording holding only initialize; the client asks "
    "initialize, tools/list and tools/call: the two past the end get error responses and the "
    "replay goes on to the end of the script.",
    UNM_REC, UNM_SCRIPT, args={"on_unmatched": "warn"},
    reqs=R_BASE + R_SEQ_DEFAULT + R_WARN,
    quotes=["warn", "warn-code", "rpc-error"], errata=["MRR-E41"],
    hand=ok(res("i", INIT_RESULT), U("l"), U("c")), rec_name="unmatched-error")

add("unmatched-warn-then-matched",
    "By-request replay with --on-unmatched warn: an unrecorded prompts/list gets an error "
    "response, and the next request, tools/list, is served.",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))]),
    [init_req("i"), req("p", "prompts/list"), req("t", "tools/list")],
    args={"match_mode": "by-request", "on_unmatched": "warn"},
    reqs=R_BASE + R_BYREQ + R_WARN,
    quotes=["warn", "warn-code"], errata=["MRR-E41"],
    hand=ok(res("i", INIT_RESULT), U("p"), res("t", LIST_RESULT)))

# ---- MRR-E42: passthrough without an upstream -------------------------------------------------

add("passthrough-without-upstream",
    "Replay with --on-unmatched passthrough and no upstream, every request of the script matched: "
    "refused at once (usage error), or started and the matched requests served.",
    recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))]),
    [init_req("i"), req("t", "tools/list")],
    args={"on_unmatched": "passthrough"},
    reqs=R_BASE + R_SEQ_DEFAULT + ["MRR-REPLAY-4", "MRR-UNMATCHED-3", "MRR-UNMATCHED-6", "MRR-CLI-9"],
    quotes=["passthrough", "no-upstream", "upstream-opt"], errata=["MRR-E42"],
    expect={"flag": "MRR-E42", "readings": {"usage-error": "refused",
                                            "error-when-unmatched": "loaded"},
            "arcs": "usage-error"},
    flag="MRR-E42", arcs="usage-error",
    readings={"usage-error": None,
              "error-when-unmatched": ok(res("i", INIT_RESULT), res("t", LIST_RESULT))})


# ---- EC-REC-009: passthrough to the case's stub upstream (`arcs mcp stub`) ----------------------

R_PASS = R_BASE + ["EC-REC-009", "MRR-REPLAY-4", "MRR-UNMATCHED-3", "MRR-UNMATCHED-6", "MRR-CLI-9"]
PASS_REC = recording(init_pair(1) + [("c2s", req(2, "tools/list")), ("s2c", res(2, LIST_RESULT))])
STUB_CALL = {"content": [{"type": "text", "text": "from the upstream"}]}

add("ec-rec-009-passthrough",
    "Replay (by-request) with --on-unmatched passthrough: a tools/call the recording never saw is "
    "forwarded to the stub upstream, whose result comes back with the live id.",
    PASS_REC,
    [init_req("i"), req("c", "tools/call", {"name": "read_file", "arguments": {"path": "/new"}})],
    args={"match_mode": "by-request", "on_unmatched": "passthrough"},
    stub=[{"method": "tools/call", "result": STUB_CALL}],
    reqs=R_PASS + R_BYREQ, quotes=["passthrough", "ec9", "upstream-opt"], errata=["MRR-E42"],
    hand=ok(res("i", INIT_RESULT), res("c", STUB_CALL)))

add("passthrough-error-from-upstream",
    "Replay (by-request) with --on-unmatched passthrough: the stub upstream answers the forwarded "
    "request with a JSON-RPC error, which comes back as it answered, with the live id.",
    PASS_REC,
    [init_req("i"), req("p", "prompts/get", {"name": "missing"})],
    args={"match_mode": "by-request", "on_unmatched": "passthrough"},
    stub=[{"method": "prompts/get", "error": {"code": -32602, "message": "Unknown prompt"}}],
    reqs=R_PASS + R_BYREQ, quotes=["passthrough", "ec9"], errata=["MRR-E42"],
    hand=ok(res("i", INIT_RESULT),
            {"jsonrpc": "2.0", "id": "p", "error": {"code": -32602, "message": "Unknown prompt"}}))

add("passthrough-matched-not-forwarded",
    "Replay (by-request) with --on-unmatched passthrough: the stub upstream would answer "
    "tools/list otherwise, but the recorded tools/list matches, so it is served from the "
    "recording and never forwarded; the unmatched resources/list is.",
    PASS_REC,
    [init_req("i"), req("t", "tools/list"), req("r", "resources/list")],
    args={"match_mode": "by-request", "on_unmatched": "passthrough"},
    stub=[{"method": "tools/list", "result": {"tools": []}},
          {"method": "resources/list", "result": {"resources": []}}],
    reqs=R_PASS + R_BYREQ, quotes=["passthrough", "ec9"], errata=["MRR-E42"],
    hand=ok(res("i", INIT_RESULT), res("t", LIST_RESULT), res("r", {"resources": []})))


# ----------------------------------------------------------------------------------------------
# Cases shared with VALIDATE. validate_cases.py writes their recordings (RECORDINGS); these cases
# add REPLAY (and convert_cases.py CONVERT) on the same bytes, read from that module, so that the
# merge adopts nothing. The ARCS answers are computed from those bytes; the other readings are
# written by hand from what the recordings hold (the ARCS base session: initialize, the
# initialized notification, one read_file call of /etc/hosts), below.

try:
    import validate_cases as _vc
    THEIRS = dict(_vc.RECORDINGS)
except Exception as _e:     # the sibling module missing or broken: the shared cases are left out
    THEIRS = {}
    print("replay_cases: validate_cases.py not usable (%s): shared cases left out" % _e,
          file=sys.stderr)
MISSING = []    # shared case names validate_cases.py does not define (left out)
SHARED = {}     # name -> the recording bytes the shared case uses (convert_cases.py reads it)
ADOPTED = []    # shared cases whose recording these modules change (generate.py adopts them)

V_INIT_PARAMS = {"protocolVersion": "2025-06-18", "capabilities": {},
                 "clientInfo": {"name": "test-agent", "version": "1.0.0"}}
V_INIT_RESULT = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                 "serverInfo": {"name": "filesystem", "version": "1.0.0"}}
V_READ = {"name": "read_file", "arguments": {"path": "/etc/hosts"}}
V_READ_PASSWD = {"name": "read_file", "arguments": {"path": "/etc/passwd"}}
V_LS = {"name": "list_directory", "arguments": {"path": "/tmp"}}
V_HOSTS = text("127.0.0.1 localhost\n")
V_PASSWD = text("root:x:0:0:root:/root:/bin/bash\n")
V_LISTING = text("file1.txt\nfile2.txt\nsubdir/")
V_INIT = req("s-1", "initialize", V_INIT_PARAMS)
BASE_SCRIPT = [V_INIT, INITIALIZED, req("s-2", "tools/call", V_READ)]
BASE_ANSWERS = ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS))


def recording_of(name):
    if name not in THEIRS:
        MISSING.append(name)
        return None
    SHARED[name] = THEIRS[name]
    return THEIRS[name]


def with_footer(name, total, client, server):
    """validate_cases.py's recording with a footer appended (counting the lines a reader can
    parse), so that its damaged line is not the last one (errata MRR-E10)."""
    data = THEIRS.get(name)
    if data is None:
        MISSING.append(name)
        return None
    assert data.endswith(b"\n") and b'"type":"footer"' not in data
    out = data + ('{"type":"footer","total_messages":%d,"duration_ms":5000,"client_messages":%d,'
                  '"server_messages":%d}\n' % (total, client, server)).encode()
    SHARED[name] = out
    ADOPTED.append(name)
    return out


def shared(name, description, msgs=None, *, override=None, **kw):
    rec = override if override is not None else recording_of(name)
    if rec is None:
        return None
    return add(name, description, rec, BASE_SCRIPT if msgs is None else msgs, **kw)


def split_expect(flag, outcomes, arcs):
    return {"flag": flag, "readings": outcomes, "arcs": arcs}


R_LOADED = ["F-003", "MRR-REPLAY-1", "MRR-REPLAY-6", "MRR-JSONRPC-11", "MRR-JSONRPC-13"]
R_REFUSED = ["F-003", "MRR-REPLAY-6"]
Q.update({
    "rfc-utf8": 'RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a '
                'closed ecosystem MUST be encoded using UTF-8"',
    "rfc-limits": 'RFC 8259 §9: "An implementation may set limits on the size of texts that it '
                  'accepts. An implementation may set limits on the maximum depth of nesting."',
    "rfc-bom-not": 'RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF) to the '
                   'beginning of a networked-transmitted JSON text."',
    "has-header": '§2 F-002: "- Includes metadata header"',
    "version-field": '§2 F-002: "- Version field for format evolution"',
    "serde-enum": '§2 F-002: "#[serde(tag = "type", rename_all = "snake_case")] pub enum '
                  'RecordLine { Header(RecordHeader), Message(RecordEntry), Footer(RecordFooter), }"',
    "schema-msg": '§9: ""msg": { "type": "object", "description": "JSON-RPC message" },"',
    "schema-seq": '§9: ""seq": { "type": "integer", "minimum": 0 },"',
    "serde-seq": '§2 F-002: "pub struct RecordEntry { pub seq: u64,"',
    "serde-name": '§2 F-002: "#[serde(default, skip_serializing_if = "Option::is_none")] pub name: '
                  'Option<String>,"',
    "schema-name": '§9: ""name": { "type": "string" },"',
    "serde-latency": '§2 F-002: "#[serde(skip_serializing_if = "Option::is_none")] pub latency_ms: '
                     'Option<u64>,"',
    "schema-latency": '§9: ""latency_ms": { "type": "integer", "minimum": 0 }"',
    "serde-upstream": '§2 F-002: "pub upstream: String,"',
    "schema-version": '§9: ""version": { "type": "string", "pattern": "^\\\\d+\\\\.\\\\d+$" },"',
    "stable": '§8: "- [ ] Recording format stable (version 1.0)"',
    "example": '§2 F-002: "**Recording Schema:**"',
    "f001-both": '§2 F-001: "- Records both directions: client→server and server→client"',
})

# ---- MRR-E3: the example and the recipes ------------------------------------------------------

shared("example-f002",
       "F-002's example recording (initialize, its response, the initialized notification), "
       "replayed to a client repeating it: the recorded result {}, no answer to the notification.",
       [req("s-1", "initialize", {}), INITIALIZED],
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-005", "MRR-JSONRPC-12"],
       quotes=["example", "line1", "line2", "sequential", "rpc-notification"],
       errata=["MRR-E3", "MRR-E35", "MRR-E38"],
       hand=ok(res("s-1", {})))

MERGED_SCRIPT = [req("s-1", "initialize", V_INIT_PARAMS), INITIALIZED,
                 req("s-2", "tools/call", V_READ), req("s-3", "initialize", V_INIT_PARAMS),
                 INITIALIZED, req("s-4", "tools/call", V_READ)]
MERGED_ANSWERS = ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS), res("s-3", V_INIT_RESULT),
                    res("s-4", V_HOSTS))
E13 = {"single-session-parse-only": "loaded", "single-session-valid-only": "refused",
       "concatenated-sessions": "loaded"}
shared("recipe-merged",
       "The merge recipe's output (two sessions, the second header on line 7), replayed to a "
       "client repeating both sessions: the messages of both parts in file order, or refused.",
       MERGED_SCRIPT,
       reqs=R_LOADED + R_SEQ_DEFAULT,
       quotes=["merge", "line1", "line2", "validates"], errata=["MRR-E3", "MRR-E11", "MRR-E13"],
       expect=split_expect("MRR-E13", E13, "single-session-parse-only"),
       flag="MRR-E13", arcs="single-session-parse-only",
       readings={"single-session-parse-only": MERGED_ANSWERS, "single-session-valid-only": None,
                 "concatenated-sessions": MERGED_ANSWERS})

shared("second-header",
       "A second header between the messages: passed over (the messages replayed in file order), "
       "refused, or read as the start of a second session.",
       reqs=R_LOADED + R_SEQ_DEFAULT,
       quotes=["line1", "line2", "validates"], errata=["MRR-E11", "MRR-E13"],
       expect=split_expect("MRR-E13", E13, "single-session-parse-only"),
       flag="MRR-E13", arcs="single-session-parse-only",
       readings={"single-session-parse-only": BASE_ANSWERS, "single-session-valid-only": None,
                 "concatenated-sessions": BASE_ANSWERS})

# ---- MRR-E12: no header first -----------------------------------------------------------------

for _name, _desc in [
        ("recipe-client-only", "The client-only recipe's output (c2s messages, no header)"),
        ("message-before-header", "A message on line 1, the header on line 2"),
        ("footer-first", "A footer and nothing else"),
        ("empty-file", "An empty file"),
        ("no-header", "The base recording without its header"),
        ("header-missing-upstream", "A header without upstream (a required RecordHeader field)")]:
    shared(_name, _desc + ": refused, nothing served.",
           expect={"outcome": "refused"}, reqs=R_REFUSED,
           quotes=["validates"] + (["serde-upstream"] if "upstream" in _name else
                                   ["line1", "has-header"]),
           errata=["MRR-E11"] + ([] if "upstream" in _name else ["MRR-E12"]))

# ---- MRR-E14, MRR-E16: footers, header only ---------------------------------------------------

shared("no-footer",
       "The base recording without a footer (EC-REC-011), replayed: served as with a footer.",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-011", "MRR-NFR-6"],
       quotes=["ec11", "final-footer", "nfr3"], errata=["MRR-E14"],
       hand=BASE_ANSWERS)

# VALIDATE is required invalid ("Final line: Footer"); what a loader does with the file is
# MRR-E11's question, split under MRR-E14's one reading.
E14 = {"footer-last-parse-only": "loaded", "footer-last-valid-only": "refused"}
shared("message-after-footer",
       "The tools/call response recorded after the footer, replayed to a client asking initialize "
       "and the call: that message answers the call, or the recording is refused.",
       [V_INIT, req("s-2", "tools/call", V_READ)],
       reqs=R_LOADED + R_SEQ_DEFAULT,
       quotes=["final-footer", "validates"], errata=["MRR-E11", "MRR-E14"],
       expect=split_expect("MRR-E14", E14, "footer-last-parse-only"),
       flag="MRR-E14", arcs="footer-last-parse-only",
       readings={"footer-last-parse-only": BASE_ANSWERS, "footer-last-valid-only": None})

shared("two-footers",
       "The base recording with its footer written twice: served as with one, or refused.",
       reqs=R_LOADED + R_SEQ_DEFAULT,
       quotes=["final-footer", "validates"], errata=["MRR-E11", "MRR-E14"],
       expect=split_expect("MRR-E14", E14, "footer-last-parse-only"),
       flag="MRR-E14", arcs="footer-last-parse-only",
       readings={"footer-last-parse-only": BASE_ANSWERS, "footer-last-valid-only": None})

HO_SCRIPT = [V_INIT, INITIALIZED, req("s-2", "tools/list")]
shared("header-only",
       "A header alone (EC-REC-001), replayed under the default --on-unmatched error: the first "
       "request is unmatched and ends the replay, with an error response first or none.",
       HO_SCRIPT,
       reqs=R_LOADED + R_SEQ_DEFAULT + R_ERROR + ["EC-REC-001", "MRR-CLI-8"],
       quotes=["ec1", "error", "default-unmatched"], errata=["MRR-E16", "MRR-E41"],
       flag="MRR-E41", arcs="error-then-exit",
       readings={"error-then-exit": exited(U("s-1")), "exit-only": exited()})

if "header-only" in THEIRS:
    add("header-only-warn",
        "A header alone (EC-REC-001, the bytes of mcp-record-replay-header-only), replayed with "
        "--on-unmatched warn: every request gets an error response, the notification none.",
        THEIRS["header-only"], HO_SCRIPT, args={"on_unmatched": "warn"},
        reqs=R_LOADED + R_SEQ_DEFAULT + R_WARN + ["EC-REC-001", "MRR-JSONRPC-12"],
        quotes=["ec1", "warn"], errata=["MRR-E16", "MRR-E41"],
        hand=ok(U("s-1"), U("s-2")))

shared("header-footer-only",
       "A header and a footer counting zeros, replayed with --on-unmatched warn: every request "
       "unmatched.",
       HO_SCRIPT, args={"on_unmatched": "warn"},
       reqs=R_LOADED + R_SEQ_DEFAULT + R_WARN + ["EC-REC-001"],
       quotes=["ec1", "warn"], errata=["MRR-E14", "MRR-E16", "MRR-E41"],
       hand=ok(U("s-1"), U("s-2")))

# ---- MRR-E17: versions (EC-REC-008) -----------------------------------------------------------

for _v in ["1-1", "1-10", "1-00", "01-0"]:
    shared("version-" + _v,
           "A recording of version \"%s\": refused (only 1.0 is supported), or read by the 1.0 "
           "rules (same major version) and served." % _v.replace("-", "."),
           reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-008"],
           quotes=["ec8", "version", "version-field", "schema-version"], errata=["MRR-E17"],
           expect=split_expect("MRR-E17", {"exact-version": "refused", "same-major": "loaded"},
                               "exact-version"),
           flag="MRR-E17", arcs="exact-version",
           readings={"exact-version": None, "same-major": BASE_ANSWERS})

for _v, _shown in [("2-0", "2.0"), ("1-0-0", "1.0.0"), ("1", "1"), ("empty", ""),
                   ("v-prefix", "v1.0"), ("leading-space", " 1.0"), ("trailing-newline", "1.0\\n"),
                   ("arabic-indic-digits", "\u0661.\u0660")]:
    shared("version-" + _v,
           "A recording of version \"%s\": not a supported version, refused with nothing served "
           "(EC-REC-008)." % _shown,
           expect={"outcome": "refused"}, reqs=R_REFUSED + ["EC-REC-008"],
           quotes=["ec8", "version", "schema-version", "stable"], errata=["MRR-E17"])

# ---- MRR-E4, MRR-E10: lines that are not one JSON object; truncation --------------------------

E4 = {"line-reader": "refused", "json-stream": "loaded"}
shared("pretty-printed",
       "The base recording pretty-printed over many lines: refused (a line is not a JSON object), "
       "or read as a stream of JSON values and served as its compact twin.",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["MRR-JSON-9"],
       quotes=["one-object", "nfr3-lines", "validates"], errata=["MRR-E4"],
       expect=split_expect("MRR-E4", E4, "line-reader"),
       flag="MRR-E4", arcs="line-reader",
       readings={"line-reader": None, "json-stream": BASE_ANSWERS})

shared("two-objects-one-line",
       "The initialize response and the notification on one line: refused, or read as two JSON "
       "values and served.",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["MRR-JSON-9"],
       quotes=["one-object", "nfr3-lines", "validates"], errata=["MRR-E4"],
       expect=split_expect("MRR-E4", E4, "line-reader"),
       flag="MRR-E4", arcs="line-reader",
       readings={"line-reader": None, "json-stream": BASE_ANSWERS})

for _name, _what in [("line-syntax-error", "a line with a syntax error"),
                     ("line-array", "a line holding an array"),
                     ("line-string", "a line holding a string"),
                     ("line-null", "a line holding null"),
                     ("line-nan", "a line holding NaN"),
                     ("line-comment", "a // comment line"),
                     ("line-trailing-garbage", "a line with text after its object"),
                     ("corrupt-middle-line", "a line cut off mid-object but ended with LF"),
                     ("bom-second-line", "a U+FEFF at the start of a later line")]:
    shared(_name, "A recording with %s before other lines: corrupt, refused (not the truncated "
           "final line of EC-REC-002)." % _what,
           expect={"outcome": "refused"}, reqs=R_REFUSED + ["MRR-JSON-9"],
           quotes=["one-object", "validates", "ndjson-error"], errata=["MRR-E4", "MRR-E10"])

shared("line-raw-tab-in-string",
       "A recording whose tools/call response holds a raw tab inside a string, followed by a "
       "footer: corrupt, refused.",
       override=with_footer("line-raw-tab-in-string", 4, 3, 1),
       expect={"outcome": "refused"}, reqs=R_REFUSED + ["MRR-JSON-9"],
       quotes=["one-object", "validates", "ndjson-error"], errata=["MRR-E4", "MRR-E10"])

shared("truncated-mid-message",
       "The base recording without footer, then a request cut off mid-line with no LF (a crash, "
       "EC-REC-002): the cut line is skipped and the rest served.",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-002", "MRR-NFR-6"],
       quotes=["ec2", "nfr3"], errata=["MRR-E10"],
       hand=BASE_ANSWERS)

shared("truncated-mid-footer",
       "The base recording whose footer is cut off with no LF: the footer is skipped, the "
       "messages served.",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-002", "MRR-NFR-6"],
       quotes=["ec2", "nfr3"], errata=["MRR-E10"],
       hand=BASE_ANSWERS)

shared("truncated-header-only",
       "A header cut off mid-line and nothing else: no valid portion, refused.",
       expect={"outcome": "refused"}, reqs=R_REFUSED + ["EC-REC-002"],
       quotes=["ec2", "line1"], errata=["MRR-E10", "MRR-E12"])

shared("corrupt-final-line-with-lf",
       "The base recording without footer, then a line cut off mid-object but ended with LF: "
       "corrupt (refused), or the corrupt final line of EC-REC-002 (skipped, the rest served).",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-002", "MRR-JSON-9"],
       quotes=["ec2", "validates"], errata=["MRR-E10"],
       expect=split_expect("MRR-E10", {"unterminated-only": "refused", "last-line": "loaded"},
                           "unterminated-only"),
       flag="MRR-E10", arcs="unterminated-only",
       readings={"unterminated-only": None, "last-line": BASE_ANSWERS})

# ---- MRR-E9: the final newline ----------------------------------------------------------------

E9 = {"ndjson-newline-parse-only": "loaded", "ndjson-newline-valid-only": "refused",
      "final-newline-optional": "loaded", "unterminated-is-truncated": "loaded"}
shared("no-final-newline-response",
       "The base recording without footer whose last line, the tools/call response, has no LF, "
       "replayed with --on-unmatched warn: the call is answered with it, or unmatched (the line "
       "skipped as truncated), or the recording refused.",
       args={"on_unmatched": "warn"},
       reqs=R_LOADED + R_SEQ_DEFAULT + R_WARN + ["EC-REC-002"],
       quotes=["ndjson-newline", "ec2", "validates"], errata=["MRR-E9", "MRR-E11"],
       expect=split_expect("MRR-E9", E9, "ndjson-newline-parse-only"),
       flag="MRR-E9", arcs="ndjson-newline-parse-only",
       readings={"ndjson-newline-parse-only": BASE_ANSWERS, "ndjson-newline-valid-only": None,
                 "final-newline-optional": BASE_ANSWERS,
                 "unterminated-is-truncated": ok(res("s-1", V_INIT_RESULT), U("s-2"))})

shared("no-final-newline-footer",
       "The base recording whose footer has no LF: served alike under every reading that loads "
       "it.",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-002"],
       quotes=["ndjson-newline", "ec2", "validates"], errata=["MRR-E9", "MRR-E11"],
       expect=split_expect("MRR-E9", E9, "ndjson-newline-parse-only"),
       flag="MRR-E9", arcs="ndjson-newline-parse-only",
       readings={"ndjson-newline-parse-only": BASE_ANSWERS, "ndjson-newline-valid-only": None,
                 "final-newline-optional": BASE_ANSWERS,
                 "unterminated-is-truncated": BASE_ANSWERS})

# ---- MRR-E6, MRR-E7, MRR-E8: BOM, line ends, blank lines --------------------------------------

shared("bom",
       "The base recording after a UTF-8 byte order mark: loaded as without it (bom: ignore) or "
       "refused (bom: refuse).",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["MRR-JSON-8"],
       quotes=["rfc-bom", "rfc-bom-not"], errata=["MRR-E6"],
       expect={"policy": "bom", "outcomes": {"ignore": "loaded", "refuse": "refused"}},
       hand=BASE_ANSWERS)

for _name, _desc in [("crlf", "CRLF line ends"), ("mixed-line-endings", "LF and CRLF line ends")]:
    shared(_name, "The base recording with %s: served as its LF twin." % _desc,
           reqs=R_LOADED + R_SEQ_DEFAULT + ["MRR-JSON-6"],
           quotes=["ndjson-crlf"], errata=["MRR-E7"], hand=BASE_ANSWERS)

E7 = {"json-text-lines": "loaded", "bare-object-parse-only": "loaded",
      "bare-object-valid-only": "refused"}
for _name, _desc in [("space-before-object", "two spaces before a line's object"),
                     ("tab-after-object", "a tab after a line's object")]:
    shared(_name, "The base recording with %s: served, or refused by a loader that finds the "
           "recording invalid." % _desc,
           reqs=R_LOADED + R_SEQ_DEFAULT,
           quotes=["one-object", "validates"], errata=["MRR-E7", "MRR-E11"],
           expect=split_expect("MRR-E7", E7, "json-text-lines"),
           flag="MRR-E7", arcs="json-text-lines",
           readings={"json-text-lines": BASE_ANSWERS, "bare-object-parse-only": BASE_ANSWERS,
                     "bare-object-valid-only": None})

for _name, _desc in [("blank-line-between", "an empty line between two messages"),
                     ("blank-line-at-end", "an empty line at the end"),
                     ("blank-line-before-header", "an empty line before the header"),
                     ("spaces-only-line", "a line of spaces and a tab between two messages")]:
    shared(_name, "The base recording with %s: loaded as without it (blank_lines: ignore) or "
           "refused (blank_lines: refuse)." % _desc,
           reqs=R_LOADED + R_SEQ_DEFAULT + ["MRR-JSON-7"],
           quotes=["ndjson-blank", "one-object"], errata=["MRR-E8", "MRR-E12"],
           expect={"policy": "blank_lines", "outcomes": {"ignore": "loaded", "refuse": "refused"}},
           hand=BASE_ANSWERS)

# ---- MRR-E5: encodings ------------------------------------------------------------------------

for _name, _what in [("invalid-utf8-stray", "a stray continuation byte"),
                     ("invalid-utf8-overlong", "an overlong encoding"),
                     ("invalid-utf8-encoded-surrogate", "a UTF-8-encoded surrogate")]:
    shared(_name, "A recording whose tools/call response holds %s, followed by a footer: "
           "ill-formed UTF-8, refused." % _what,
           override=with_footer(_name, 4, 3, 1),
           expect={"outcome": "refused"}, reqs=R_REFUSED + ["MRR-JSON-9"],
           quotes=["rfc-utf8", "validates"], errata=["MRR-E5", "MRR-E10"])

shared("invalid-utf8-utf16",
       "The base recording encoded as UTF-16LE: refused.",
       expect={"outcome": "refused"}, reqs=R_REFUSED + ["MRR-JSON-9"],
       quotes=["rfc-utf8", "validates"], errata=["MRR-E5"])

for _name, _desc in [("non-ascii-raw", "non-ASCII text written raw (German, Japanese, an emoji, "
                                       "a Cyrillic member name)"),
                     ("non-ascii-escaped", "the same text written with \\u escapes"),
                     ("astral-pair", "an astral member name written raw and an astral value as a "
                                     "pair of escapes")]:
    shared(_name, "A tools/call response holding %s: served as the same strings." % _desc,
           reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-006"],
           quotes=["rfc-utf8", "ec6"], errata=["MRR-E5", "MRR-E37"])

# ---- MRR-E25: limits --------------------------------------------------------------------------

shared("depth-over-limit",
       "A response nested to depth 17, replayed with max_json_depth 16: refused.",
       args={"limits": {"max_json_depth": 16}},
       expect={"outcome": "refused"}, reqs=R_REFUSED + ["MRR-JSON-5"],
       quotes=["rfc-limits"], errata=["MRR-E25"])

shared("depth-at-limit",
       "A response nested to depth 16, replayed with max_json_depth 16: served.",
       args={"limits": {"max_json_depth": 16}},
       reqs=R_LOADED + R_SEQ_DEFAULT + ["MRR-JSON-5"],
       quotes=["rfc-limits"], errata=["MRR-E25"])

shared("deep-msg-100",
       "A response nested to depth 100, no limit given: served.",
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-006"],
       quotes=["rfc-limits", "ec6"], errata=["MRR-E25"])

shared("line-over-limit",
       "A response line of 4,097 bytes, replayed with max_line_bytes 4096: refused.",
       args={"limits": {"max_line_bytes": 4096}},
       expect={"outcome": "refused"}, reqs=R_REFUSED + ["MRR-JSON-5"],
       quotes=["rfc-limits"], errata=["MRR-E25"])

# ---- MRR-E23: members the format does not define ---------------------------------------------

shared("unknown-message-member",
       "A message line with a member the format does not define: ignored, the recording served.",
       reqs=R_LOADED + R_SEQ_DEFAULT,
       quotes=["serves"], errata=["MRR-E23"], hand=BASE_ANSWERS)

# ---- MRR-E2: the two statements ---------------------------------------------------------------

E2_SERDE_READS = {"both-parse-only": "loaded", "both-valid-only": "refused", "serde": "loaded",
                  "schema": "refused"}
E2_SCHEMA_READS = {"both-parse-only": "refused", "both-valid-only": "refused", "serde": "refused",
                   "schema": "loaded"}
for _name, _desc, _q in [("name-null", "a header with \"name\": null", ["serde-name", "schema-name"]),
                         ("latency-null", "a response with \"latency_ms\": null",
                          ["serde-latency", "schema-latency"])]:
    shared(_name, "A recording with %s (the Serde types read None, the schema refuses it): "
           "loaded and served, or refused." % _desc,
           reqs=R_LOADED + R_SEQ_DEFAULT, quotes=_q + ["validates"],
           errata=["MRR-E2", "MRR-E11"],
           expect=split_expect("MRR-E2", E2_SERDE_READS, "both-parse-only"),
           flag="MRR-E2", arcs="both-parse-only",
           readings={"both-parse-only": BASE_ANSWERS, "both-valid-only": None,
                     "serde": BASE_ANSWERS, "schema": None})

BATCH_SCRIPT = BASE_SCRIPT[:2] + [req("s-2", "tools/call", V_READ)]
shared("msg-array-batch",
       "A recorded batch (a c2s array of two requests, an s2c array of their responses) replayed "
       "with --on-unmatched warn to a client that sends the batch's first request alone: a batch "
       "is no response, so it is unmatched; or the recording is refused (the schema refuses a "
       "msg that is not an object).",
       BATCH_SCRIPT, args={"on_unmatched": "warn"},
       reqs=R_LOADED + R_SEQ_DEFAULT + R_WARN + ["MRR-JSONRPC-10"],
       quotes=["msg-value", "schema-msg", "validates"], errata=["MRR-E2", "MRR-E11", "MRR-E26"],
       expect=split_expect("MRR-E2", E2_SERDE_READS, "both-parse-only"),
       flag="MRR-E2", arcs="both-parse-only",
       readings={"both-parse-only": ok(res("s-1", V_INIT_RESULT), U("s-2")),
                 "both-valid-only": None,
                 "serde": ok(res("s-1", V_INIT_RESULT), U("s-2")), "schema": None})

for _name, _desc, _q in [("seq-one-point-zero", "a seq written 2.0", ["serde-seq", "schema-seq"]),
                         ("dup-seq", "a line with seq written twice", ["serde-seq", "rfc-dup"])]:
    shared(_name, "A recording with %s (the Serde types refuse the line, the schema statement "
           "reads it): refused, or loaded and served by a schema reader." % _desc,
           reqs=R_LOADED + R_SEQ_DEFAULT, quotes=_q + ["validates"],
           errata=["MRR-E2", "MRR-E11"],
           expect=split_expect("MRR-E2", E2_SCHEMA_READS, "both-parse-only"),
           flag="MRR-E2", arcs="both-parse-only",
           readings={"both-parse-only": None, "both-valid-only": None, "serde": None,
                     "schema": BASE_ANSWERS})

shared("lone-surrogate-in-upstream",
       "A recording with a header whose upstream holds a lone surrogate escape (serde_json refuses "
       "the line; the String declared, and the schema statement, read it): refused, or loaded and "
       "served.",
       reqs=R_LOADED + R_SEQ_DEFAULT, quotes=["serde-upstream", "msg-value", "validates"],
       errata=["MRR-E2", "MRR-E11", "MRR-E48"],
       expect=split_expect("MRR-E48", {"serde-json": "refused", "declared-types": "loaded"},
                           "serde-json"),
       flag="MRR-E48", arcs="serde-json",
       readings={"serde-json": None, "declared-types": BASE_ANSWERS})

# ---- MRR-E24: repeated member names inside msg ------------------------------------------------

E24 = {"last-wins": "loaded", "first-wins": "loaded", "refuse": "refused"}
_dup_result = lambda flag: res("s-2", {"content": V_HOSTS["content"], "isError": flag})  # noqa: E731
shared("dup-in-result",
       "A tools/call response whose result repeats \"isError\" (false, then true): served with "
       "the last value, the first, or refused.",
       reqs=R_LOADED + R_SEQ_DEFAULT,
       quotes=["rfc-dup", "msg-value", "validates"], errata=["MRR-E24"],
       expect=split_expect("MRR-E24", E24, "last-wins"),
       flag="MRR-E24", arcs="last-wins",
       readings={"last-wins": ok(res("s-1", V_INIT_RESULT), _dup_result(True)),
                 "first-wins": ok(res("s-1", V_INIT_RESULT), _dup_result(False)),
                 "refuse": None})

shared("dup-id-in-response",
       "Two read_file calls (ids 2 and 3) and a response whose id is written twice (2, then 3) "
       "holding /etc/passwd, then the response with id 2; by-request replay with --on-unmatched "
       "warn: each call gets its own file (the last id), or the /etc/hosts call gets /etc/passwd "
       "and the other is unmatched (the first id), or refused.",
       [V_INIT, INITIALIZED, req("s-2", "tools/call", V_READ),
        req("s-3", "tools/call", V_READ_PASSWD)],
       args={"match_mode": "by-request", "on_unmatched": "warn"},
       reqs=R_LOADED + R_BYREQ + R_WARN,
       quotes=["rfc-dup", "rpc-id", "by-request", "validates"], errata=["MRR-E24", "MRR-E28"],
       expect=split_expect("MRR-E24", E24, "last-wins"),
       flag="MRR-E24", arcs="last-wins",
       readings={"last-wins": ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS),
                                 res("s-3", V_PASSWD)),
                 "first-wins": ok(res("s-1", V_INIT_RESULT), res("s-2", V_PASSWD), U("s-3")),
                 "refuse": None})

shared("dup-escaped-name",
       "A read_file request whose params repeat name, the second time escaped (\\u006eame: "
       "write_file); by-request replay with --on-unmatched warn of a read_file call: unmatched "
       "(the recorded request names write_file), served (it names read_file), or refused.",
       [V_INIT, INITIALIZED, req("s-2", "tools/call", V_READ)],
       args={"match_mode": "by-request", "on_unmatched": "warn"},
       reqs=R_LOADED + R_BYREQ + R_WARN,
       quotes=["rfc-dup", "by-request", "validates"], errata=["MRR-E24", "MRR-E29"],
       expect=split_expect("MRR-E24", E24, "last-wins"),
       flag="MRR-E24", arcs="last-wins",
       readings={"last-wins": ok(res("s-1", V_INIT_RESULT), U("s-2")),
                 "first-wins": BASE_ANSWERS, "refuse": None})

# ---- MRR-E26: msg that is not JSON-RPC --------------------------------------------------------

E26 = {"recorded-as-sent": "loaded", "json-rpc-required-parse-only": "loaded",
       "json-rpc-required-valid-only": "refused"}
_e2_resp = lambda extra: ok(res("s-1", V_INIT_RESULT), dict({"jsonrpc": "2.0", "id": "s-2"}, **extra))  # noqa: E731,E501
for _name, _desc, _answers, _args, _msgs in [
        ("msg-no-jsonrpc", "the initialized notification without jsonrpc", BASE_ANSWERS, None, None),
        ("msg-jsonrpc-1-0", "the initialized notification with jsonrpc \"1.0\"", BASE_ANSWERS,
         None, None),
        ("msg-method-number", "a c2s message whose method is 5", BASE_ANSWERS, None, None),
        ("msg-params-null", "the tools/call request with params null", BASE_ANSWERS, None, None),
        ("msg-params-string", "the tools/call request with params \"read_file\"", BASE_ANSWERS,
         None, None),
        ("msg-result-and-error", "the tools/call response with both result and error",
         _e2_resp({"result": V_HOSTS, "error": {"code": -32000, "message": "failed"}}), None, None),
        ("msg-error-code-string", "the tools/call response as an error whose code is a string",
         _e2_resp({"error": {"code": "-32000", "message": "failed"}}), None, None),
        ("msg-error-code-fraction", "the tools/call response as an error whose code is "
         "-32000.5", _e2_resp({"error": {"code": -32000.5, "message": "failed"}}), None, None),
        ("msg-error-not-object", "the tools/call response as an error whose error is a string",
         _e2_resp({"error": "failed"}), None, None),
        ("msg-id-object", "an unanswered tools/list request whose id is an object (the client "
         "repeats it, with --on-unmatched warn)",
         ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS), U("s-3")), {"on_unmatched": "warn"},
         BASE_SCRIPT + [req("s-3", "tools/list")]),
        ("msg-unclassifiable", "a c2s msg with an id and neither method, result nor error",
         BASE_ANSWERS, None, None)]:
    shared(_name, "A recording with %s: replayed as recorded (the kinds as MRR-E26 tells them), "
           "or refused by a loader that requires JSON-RPC." % _desc,
           _msgs, args=_args,
           reqs=R_LOADED + R_SEQ_DEFAULT + ["MRR-JSONRPC-10"] + (R_WARN if _args else []),
           quotes=["schema-msg", "msg-value", "lossless", "validates"], errata=["MRR-E11", "MRR-E26"],
           expect=split_expect("MRR-E26", E26, "recorded-as-sent"),
           flag="MRR-E26", arcs="recorded-as-sent",
           readings={"recorded-as-sent": _answers, "json-rpc-required-parse-only": _answers,
                     "json-rpc-required-valid-only": None})

# ---- MRR-E28: a request without response, a null-id error response ---------------------------

shared("unanswered-request",
       "The base recording without the tools/call response, replayed with --on-unmatched warn to "
       "a client repeating the session: the call is unmatched (no recorded response).",
       args={"on_unmatched": "warn"},
       reqs=R_LOADED + R_SEQ_DEFAULT + R_WARN + ["MRR-NFR-6"],
       quotes=["nfr3", "sequential", "warn"], errata=["MRR-E28", "MRR-E33", "MRR-E35"],
       hand=ok(res("s-1", V_INIT_RESULT), U("s-2")))

NULL_ID_ERROR = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
shared("null-id-error-response",
       "The base recording followed by a server error response with id null, replayed with "
       "--on-unmatched warn to a client that asks one request more: the response cursor serves "
       "that error to it; a request cursor has nothing left.",
       BASE_SCRIPT + [req("s-3", "tools/list")], args={"on_unmatched": "warn"},
       reqs=R_LOADED + R_SEQ_DEFAULT + R_WARN,
       quotes=["sequential", "warn"], errata=["MRR-E28", "MRR-E35"],
       flag="MRR-E35", arcs="request-cursor-ids",
       readings={"request-cursor-ids": AUTO,
                 "response-cursor": ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS),
                                       served(NULL_ID_ERROR, "s-3")),
                 "request-cursor": ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS), U("s-3"))})

# ---- EC-REC-003, EC-REC-004, EC-REC-006 (MRR-E28, MRR-E29, MRR-E35, MRR-E37) ------------------

shared("ec-rec-003-duplicate-ids",
       "By-request replay of two concurrent read_file calls recorded with the same id 7 (different "
       "params), asked in the other order: each gets the response of its own request.",
       [V_INIT, INITIALIZED, req("s-2", "tools/call", V_READ_PASSWD),
        req("s-3", "tools/call", V_READ)],
       args={"match_mode": "by-request"},
       reqs=R_LOADED + R_BYREQ + ["EC-REC-003"],
       quotes=["ec3", "by-request"], errata=["MRR-E28", "MRR-E29"],
       hand=ok(res("s-1", V_INIT_RESULT), res("s-2", V_PASSWD), res("s-3", V_HOSTS)))

EC4_SCRIPT = [V_INIT, INITIALIZED, req("s-2", "tools/call", V_READ), req("s-3", "tools/call", V_LS)]
shared("ec-rec-004-out-of-order",
       "By-request replay of two calls whose responses are recorded out of request order: each "
       "live request gets the response paired with its recorded request by id.",
       EC4_SCRIPT, args={"match_mode": "by-request"},
       reqs=R_LOADED + R_BYREQ + ["EC-REC-004"],
       quotes=["ec4", "by-request"], errata=["MRR-E28", "MRR-E29"],
       hand=ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS), res("s-3", V_LISTING)))

if "ec-rec-004-out-of-order" in THEIRS:
    add("ec-rec-004-out-of-order-sequential",
        "Sequential replay of the EC-REC-004 recording (the bytes of "
        "mcp-record-replay-ec-rec-004-out-of-order): the response cursor serves the responses in "
        "file order, so the read_file call gets the listing; a request cursor serves each its own.",
        THEIRS["ec-rec-004-out-of-order"], EC4_SCRIPT,
        reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-004", "MRR-MATCH-4"],
        quotes=["ec4", "sequential", "default-match"], errata=["MRR-E35"],
        flag="MRR-E35", arcs="request-cursor-ids",
        readings={"request-cursor-ids": AUTO,
                  "response-cursor": ok(res("s-1", V_INIT_RESULT), res("s-2", V_LISTING),
                                        res("s-3", V_HOSTS)),
                  "request-cursor": ok(res("s-1", V_INIT_RESULT), res("s-2", V_HOSTS),
                                       res("s-3", V_LISTING))},
        rec_name="ec-rec-004-out-of-order")

shared("ec-rec-006-base64-image",
       "Replay of a tools/call whose recorded result holds base64 PNG data: served exactly.",
       [V_INIT, INITIALIZED, req("s-2", "tools/call", {"name": "screenshot",
                                                       "arguments": {"display": 0}})],
       reqs=R_LOADED + R_SEQ_DEFAULT + ["EC-REC-006"],
       quotes=["ec6", "lossless", "ok-response"], errata=["MRR-E37"],
       hand=ok(res("s-1", V_INIT_RESULT), res("s-2", {"content": [
           {"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
                                     "+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
            "mimeType": "image/png"}]})))


# ----------------------------------------------------------------------------------------------
# Checks.

def find_spec():
    for p in SPEC_CANDIDATES + [os.environ.get("ARCS_SPECS", "") + "/mcp-record-replay.md"]:
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                return f.read()
    return None


def check(cases, spec=None):
    """Problems with the cases' citations: quotations not in the spec, ids not in the catalogue,
    errata entries that do not exist, flags whose readings are not the errata's."""
    problems = []
    spec = spec if spec is not None else find_spec()
    with open(CATALOGUE, encoding="utf-8") as f:
        catalogue = {r["id"]: r for r in json.load(f)["requirements"]}
    with open(ERRATA, encoding="utf-8") as f:
        errata_text = f.read()
    entries = set(re.findall(r"^### (MRR-E[0-9]+)\b", errata_text, re.M))
    glance = {}
    for m in re.finditer(r"^\| (MRR-E[0-9]+) \| (.*?) \| (.*?) \|$", errata_text, re.M):
        glance[m.group(1)] = [r.strip("`† ") for r in re.findall(r"`[^`]+`†?", m.group(2))]
    flat = " ".join(spec.split()) if spec else None
    for c in cases:
        for name, op in c["operations"].items():
            where = "%s/%s" % (c["id"], name)
            if op["requirements"] != sorted(set(op["requirements"])):
                problems.append(where + ": requirements not sorted and unique")
            for rid in op["requirements"]:
                if rid not in catalogue:
                    problems.append("%s: %s is not in the catalogue" % (where, rid))
                elif catalogue[rid]["coverage"] == "unchecked":
                    problems.append("%s: %s is unchecked in the catalogue" % (where, rid))
            for e in re.findall(r"MRR-E[0-9]+", op["spec_text"]):
                if e not in entries:
                    problems.append("%s: %s is not an entry of the errata" % (where, e))
            for key in ("expect", "expect_replay", "expect_convert"):
                x = op.get(key)
                if isinstance(x, dict) and "flag" in x:
                    if x["flag"] not in op["spec_text"]:
                        problems.append("%s: %s flag %s not cited in spec_text" % (where, key, x["flag"]))
                    names = set(x["readings"])
                    want = glance.get(x["flag"])
                    if want is not None:
                        split = set()
                        for r in want:
                            split |= {r} if r in names else {r + "-parse-only", r + "-valid-only"}
                        if names != split:
                            problems.append("%s: %s readings %s, errata %s"
                                            % (where, key, sorted(names), sorted(split)))
                    if x["arcs"] not in names:
                        problems.append("%s: %s arcs reading not listed" % (where, key))
            if flat is not None:
                for m in re.finditer(r'(?:^|; )§[^:"]+: "(.*?)"(?=; |$)', op["spec_text"]):
                    for part in m.group(1).replace('\\"', '"').split("..."):
                        p = " ".join(part.split()).strip(" ,")
                        if p and p not in flat:
                            problems.append("%s: not in the spec: %s" % (where, p))
    return sorted(set(problems))


def summary(cases):
    from collections import Counter
    ops = Counter()
    flags = {}
    for c in cases:
        for name, op in c["operations"].items():
            ops[name] += 1
            for key in ("expect", "expect_replay", "expect_convert"):
                x = op.get(key)
                if isinstance(x, dict) and "flag" in x:
                    flags.setdefault(x["flag"], set()).update(x["readings"])
                if isinstance(x, dict) and "policy" in x:
                    flags.setdefault("policy " + x["policy"], set()).update(x["outcomes"])
    return ops, flags


if __name__ == "__main__":
    problems = check(CASES)
    for p in problems:
        print("problem:", p)
    for m in MISSING:
        print("missing: validate_cases.py has no case %s (left out)" % m)
    for a in ADOPTED:
        print("adopted: %s (a footer appended to validate_cases.py's bytes)" % a)
    ops, flags = summary(CASES)
    for t in TOLERATED:
        print("tolerated: %s answers otherwise under %s %s" % t)
    print("%d cases; operations %s" % (len(CASES), dict(ops)))
    for f in sorted(flags):
        print("  %s: %s" % (f, ", ".join(sorted(flags[f]))))
    sys.exit(1 if problems else 0)
