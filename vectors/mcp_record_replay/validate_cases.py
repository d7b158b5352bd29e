#!/usr/bin/python3
"""The VALIDATE cases of the MCP record/replay vectors (TJ-SPEC-010), and the model that checks them.

generate.py imports this module (and replay_cases.py, convert_cases.py when they exist) and merges
the cases. It exports

    CASES            a list of manifest-shaped cases (id, description, inputs, args, operations)
                     plus "files": {relative path: bytes} for the inputs they add;
    RECORDINGS       {case name: recording bytes}, for a sibling module that wants the same bytes
                     for a case id it shares (a case id defined twice merges, and one input path
                     must hold the same bytes in both);
    build_cases(overrides)
                     the cases again, with the recording of some shared case ids replaced by the
                     bytes another module gives them (the validate expectation is then recomputed
                     by the model, and the hand-written expectation must still hold).

Where each expectation comes from (vectors/README.md, conformance/mcp_record_replay/errata.md):

  - every case states BY HAND its ARCS outcome (valid / invalid), its flag (or none), the outcome
    under each reading of that flag (a string of V and I in the order of FLAG_READINGS, the ARCS
    reading first) and the exact ARCS rule ids (errors and warnings), each with the reason in the
    description;
  - evaluate() below is an independent model of the rules: the NDJSON lines; the Serde statement
    (the spec's RecordLine types as serde and serde_json decode them: u64 written with digits
    only, Option as absent or null, duplicate fields refused, lone surrogates and numbers beyond
    the doubles refused); the schema statement (the appendix's JSON Schema READ OUT of the spec,
    Python jsonschema, draft-07, format date-time asserted, patterns as ECMA 262); the file rules
    the errata decides (header first, one header, footer last, seq, version, footer counts,
    JSON-RPC warnings and pairing). Each errata flag's readings are switches of the model;
  - the generator fails when the hand-written expectation and the model disagree, when a case's
    outcome changes under the readings of a flag it does not carry, or when it is split by two.

Nothing here runs or reads the reference implementation.
"""

import datetime
import decimal
import json
import os
import re
import sys

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "schemas"))
from crosscheck_lib import is_rfc3339_date_time  # noqa: E402

CATALOGUE = os.path.join(ROOT, "conformance", "mcp_record_replay", "requirements.json")
SCHEMA_COPY = os.path.join(ROOT, "schemas", "mcp_record_replay", "recording.schema.json")
SPEC_CANDIDATES = [os.path.join(ROOT, "..", "shared", "specs", "mcp-record-replay.md"),
                   os.path.join(ROOT, "..", "..", "shared", "specs", "mcp-record-replay.md")]
PREFIX = "mcp-record-replay-"
BOM = b"\xef\xbb\xbf"


# ----------------------------------------------------------------------------------------------
# The spec, its schema block, its F-002 example.

def find_spec():
    for p in SPEC_CANDIDATES + [os.environ.get("ARCS_SPECS", "") + "/mcp-record-replay.md"]:
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                return f.read()
    return None


def schema_block(spec_text):
    """The text of the ```json block of §9 (between the fence and the closing fence)."""
    m = re.search(r"^## 9\. Appendix: Recording Format JSON Schema\n\n```json\n(.*?)^```",
                  spec_text, re.S | re.M)
    if not m:
        raise SystemExit("mcp-record-replay.md: no ```json block under §9")
    return m.group(1)


def f002_example_objects(spec_text):
    """The objects of F-002's annotated example, in order (member order kept): `//` comment lines
    dropped and `{ ... }` read as `{}` (errata MRR-E3)."""
    m = re.search(r"\*\*Recording Schema:\*\*\n\n```json\n(.*?)^```", spec_text, re.S | re.M)
    if not m:
        raise SystemExit("mcp-record-replay.md: no F-002 **Recording Schema:** block")
    text = "\n".join(l for l in m.group(1).split("\n") if not l.strip().startswith("//"))
    text = text.replace("{ ... }", "{}")
    dec = json.JSONDecoder(object_pairs_hook=dict)
    out, pos = [], 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos >= len(text):
            return out
        value, pos = dec.raw_decode(text, pos)
        out.append(value)


SPEC = find_spec()
if SPEC is not None:
    SCHEMA_TEXT = schema_block(SPEC)
else:
    with open(SCHEMA_COPY, encoding="utf-8") as _f:
        SCHEMA_TEXT = _f.read()
SCHEMA = json.loads(SCHEMA_TEXT)


# ----------------------------------------------------------------------------------------------
# The schema statement: draft-07, date-time asserted (by the reading's test), ECMA 262 patterns.

def ecma_regex(pattern):
    """An ECMA 262 pattern as a Python regex, for the constructs a draft-07 schema of this kind
    uses: \\d \\D \\w \\W are ASCII classes, and `$` (outside a class) matches only at the very end
    (Python's `$` also matches before a final newline; ECMA's without the m flag does not)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            e = pattern[i + 1]
            table = {"d": "0-9", "w": "A-Za-z0-9_"}
            if e in ("d", "w"):
                out.append(table[e] if in_class else "[" + table[e] + "]")
            elif e in ("D", "W") and not in_class:
                out.append("[^" + table[e.lower()] + "]")
            else:
                out.append(c + e)
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        elif c == "$" and not in_class:
            out.append(r"(?![\s\S])")
            i += 1
            continue
        out.append(c)
        i += 1
    return re.compile("".join(out))


def _ecma_pattern(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and not ecma_regex(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r} (ECMA 262)")


EcmaDraft7Validator = jsonschema.validators.extend(jsonschema.Draft7Validator,
                                                   validators={"pattern": _ecma_pattern})


_validators = {}


def schema_validator(date_time_ok):
    """A draft-07 validator of the spec's schema; date_time_ok is the reading's test (None: format
    is an annotation). One a test, kept: schema_ids_of_line remembers answers by validator."""
    if date_time_ok not in _validators:
        _validators[date_time_ok] = _new_schema_validator(date_time_ok)
    return _validators[date_time_ok]


def _new_schema_validator(date_time_ok):
    if date_time_ok is None:
        return EcmaDraft7Validator(SCHEMA)
    checker = jsonschema.FormatChecker(formats=())
    checker.checks("date-time")(lambda v: not isinstance(v, str) or date_time_ok(v))
    return EcmaDraft7Validator(SCHEMA, format_checker=checker)


def load_schema_ids():
    """(location, keyword) -> MRR-SCHEMA id, from the catalogue's "Location `p`, keyword `k`"."""
    with open(CATALOGUE, encoding="utf-8") as f:
        catalogue = json.load(f)
    table = {}
    for r in catalogue["requirements"]:
        m = re.match(r"Location `([^`]+)`, keyword `([^`]+)`", r.get("reason", ""))
        if m and r["id"].startswith("MRR-SCHEMA-"):
            table[(m.group(1), m.group(2))] = r["id"]
    return table


SCHEMA_IDS = load_schema_ids()
BRANCHES = [b["$ref"] for b in SCHEMA["oneOf"]]  # "#/definitions/header", ...


def schema_location(err):
    """(location, keyword) of an error inside the root oneOf: jsonschema's path steps through the
    branch's $ref without naming it (oneOf, i, ...)."""
    path = list(err.absolute_schema_path)
    if path[:1] == ["oneOf"] and len(path) >= 3:
        loc = BRANCHES[path[1]] + "".join("/" + str(p) for p in path[2:-1])
        return loc, path[-1]
    return "#" + "".join("/" + str(p) for p in path[:-1]), path[-1]


# schema_ids_of_line's answers by (validator, repr of the line, kind): every case is evaluated
# under each reading of every flag, and only MRR-E20's changes the validator, so each line was
# validated dozens of times (30 of the check's 35 s). The validators are kept (schema_validator),
# so an id names one for good; repr tells 1, 1.0 and True apart.
_schema_ids_seen = {}


def schema_ids_of_line(validator, value, kind):
    """The MRR-SCHEMA ids of one line under the schema statement (errata MRR-E2): a oneOf error is
    cited as the errors of the definition the line's `type` names, or as the oneOf itself when the
    type names none."""
    key = (id(validator), repr(value), kind)
    if key not in _schema_ids_seen:
        _schema_ids_seen[key] = frozenset(_schema_ids_of_line(validator, value, kind))
    return _schema_ids_seen[key]


def _schema_ids_of_line(validator, value, kind):
    ids = set()
    for err in validator.iter_errors(value):
        if err.validator == "oneOf" and list(err.absolute_schema_path) == ["oneOf"]:
            branch = ("#/definitions/" + kind) if kind else None
            cited = [c for c in err.context if branch and c.absolute_schema_path[1] ==
                     BRANCHES.index(branch)] if branch in BRANCHES else []
            if not cited:
                ids.add(SCHEMA_IDS[("#", "oneOf")])
            for c in cited:
                key = schema_location(c)
                if key not in SCHEMA_IDS:
                    raise SystemExit(f"no catalogue id for schema location {key}")
                ids.add(SCHEMA_IDS[key])
        else:
            key = schema_location(err)
            if key not in SCHEMA_IDS:
                raise SystemExit(f"no catalogue id for schema location {key}")
            ids.add(SCHEMA_IDS[key])
    return ids


# ----------------------------------------------------------------------------------------------
# Parsing. Objects are Obj (a list of (name, value) pairs: repeated names and their order kept),
# numbers Num (their text).

class Obj(list):
    pass


class Num(str):
    pass


class NotJson(Exception):
    pass


def _const(name):
    raise NotJson(name + " is not JSON")


def parse_tokens(text):
    """RFC 8259 (Python's json without NaN/Infinity): whitespace around the value allowed, raw
    control characters in strings refused, lone surrogate escapes kept."""
    try:
        return json.loads(text, object_pairs_hook=Obj, parse_constant=_const, parse_int=Num,
                          parse_float=Num)
    except NotJson:
        raise
    except RecursionError:
        raise NotJson("nested too deeply for Python's parser")
    except ValueError as e:
        raise NotJson(str(e))


def is_num(v):
    return isinstance(v, Num)


def is_str(v):
    return isinstance(v, str) and not isinstance(v, Num)


def depth(v):
    if isinstance(v, Obj):
        return 1 + max([depth(x) for _, x in v] or [0])
    if isinstance(v, list):
        return 1 + max([depth(x) for x in v] or [0])
    return 0


def walk(v):
    """Every value and member name of a tree."""
    stack = [v]
    while stack:
        x = stack.pop()
        yield x
        if isinstance(x, Obj):
            for k, y in x:
                yield k
                stack.append(y)
        elif isinstance(x, list):
            stack.extend(x)


def has_lone_surrogate(v):
    return any(isinstance(x, str) and not is_num(x) and any(0xD800 <= ord(c) <= 0xDFFF for c in x)
               for x in walk(v))


def beyond_doubles(v):
    """A number serde_json refuses ("number out of range"): its double is infinite."""
    return any(is_num(x) and float(x) in (float("inf"), float("-inf")) for x in walk(v))


def repeated_names(v):
    """How many objects of the tree repeat a member name (after unescaping)."""
    n = 0
    for x in walk(v):
        if isinstance(x, Obj):
            names = [k for k, _ in x]
            n += len(names) != len(set(names))
    return n


def resolve(v, dup):
    """Tokens to plain data with repeated names resolved ('last' as Python's json and
    serde_json::Value keep, or 'first'); numbers stay Num."""
    if isinstance(v, Obj):
        out = {}
        for k, x in v:
            if k in out and dup == "first":
                continue
            out[k] = resolve(x, dup)
        return out
    if isinstance(v, list):
        return [resolve(x, dup) for x in v]
    return v


def to_schema(v):
    """Tokens to the value Python's json gives (the schema statement): last of repeated names,
    integers as int, other numbers as float (1e400 is infinity)."""
    if isinstance(v, Obj):
        out = {}
        for k, x in v:
            out[k] = to_schema(x)
        return out
    if isinstance(v, list):
        return [to_schema(x) for x in v]
    if is_num(v):
        return json.loads(v)
    return v


def members(obj, name):
    return [x for k, x in obj if k == name]


U64_MAX = 2 ** 64 - 1


def u64(v, minus_zero=False):
    """serde's u64 from serde_json: an integer written with digits only (no sign, fraction or
    exponent: `-0`, `1.0`, `1e0` are floats to serde_json), at most 2^64-1. minus_zero: `-0` is the
    integer 0 (errata MRR-E48 `declared-types`)."""
    if minus_zero and v == "-0":
        return 0
    if not is_num(v) or not re.fullmatch(r"0|[1-9][0-9]*", v):
        return None
    n = int(v)
    return n if n <= U64_MAX else None


def dec(v):
    return decimal.Decimal(str(v))


def integral(v):
    """A number with no fractional part, by value."""
    try:
        d = dec(v)
    except decimal.InvalidOperation:
        return False
    return d.is_finite() and d == d.to_integral_value()


# ----------------------------------------------------------------------------------------------
# Timestamps (errata MRR-E20).

_CHRONO = re.compile(r"\s*([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]|\s+)([0-9]{1,2}):([0-9]{2}):"
                     r"([0-9]{2})(?:\.[0-9]+)?\s*(?:[Zz]|UTC|[+-][0-9]{2}:?[0-9]{2})\s*")


def chrono_relaxed(s):
    """What chrono's DateTime<Utc> deserializer reads (reading chrono-relaxed): an RFC 3339 form
    with a space or `t` for `T`, spaces between components, `UTC` as an offset, an offset without
    its colon, unpadded date fields; a real date, seconds required."""
    m = _CHRONO.fullmatch(s)
    if not m:
        return False
    y, mo, d, h, mi, se = (int(m.group(i)) for i in range(1, 7))
    try:
        datetime.date(y if y > 0 else 2000, mo, d)
    except ValueError:
        return False
    return h <= 23 and mi <= 59 and se <= 60


def utc_designator(s):
    return is_rfc3339_date_time(s) and s[-1] in "Zz"


DATE_TIME = {"rfc-3339": is_rfc3339_date_time, "chrono-relaxed": chrono_relaxed,
             "utc-designator": utc_designator}

_RFC = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
                  r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))")


def instant(s):
    """Seconds since 0001-01-01 (a Decimal) of an RFC 3339 date-time, or None."""
    if not is_str(s) or not is_rfc3339_date_time(s):
        return None
    m = _RFC.fullmatch(s)
    y, mo, d, h, mi, se = (int(m.group(i)) for i in range(1, 7))
    days = datetime.date(y if y > 0 else 2000, mo, d).toordinal()
    t = decimal.Decimal(days * 86400 + h * 3600 + mi * 60 + se)
    if m.group(7):
        t += decimal.Decimal("0" + m.group(7))
    if m.group(8):
        off = (int(m.group(9)) * 60 + int(m.group(10))) * 60
        t -= off if m.group(8) == "+" else -off
    return t


# ----------------------------------------------------------------------------------------------
# JSON-RPC 2.0 (errata MRR-E26, MRR-E28): kinds, departures, pairing.

def classify(msg):
    """(kind, id, warnings) of a msg object (plain data, numbers Num): kind is request,
    notification, response or None; warnings are catalogue ids."""
    w = set()
    v = msg.get("jsonrpc", None) if "jsonrpc" in msg else None
    if not ("jsonrpc" in msg and is_str(v) and v == "2.0"):
        w.add("MRR-JSONRPC-1")
    kind, rid = None, None
    if "method" in msg and not is_str(msg["method"]):
        w.add("MRR-JSONRPC-2")
    elif "method" in msg:
        kind = "request" if "id" in msg else "notification"
        if "params" in msg and not isinstance(msg["params"], (dict, list)):
            w.add("MRR-JSONRPC-5")
        if kind == "request":
            rid = msg["id"]
            if not (is_str(rid) or is_num(rid) or rid is None):
                w.add("MRR-JSONRPC-3")
            elif rid is None or (is_num(rid) and not integral(rid)):
                w.add("MRR-JSONRPC-4")
    elif "id" in msg and ("result" in msg or "error" in msg):
        kind, rid = "response", msg["id"]
        if not (is_str(rid) or is_num(rid) or rid is None):
            w.add("MRR-JSONRPC-3")
        if "result" in msg and "error" in msg:
            w.add("MRR-JSONRPC-6")
        if "error" in msg:
            e = msg["error"]
            if not isinstance(e, dict):
                w.add("MRR-JSONRPC-8")
            elif not ("code" in e and is_num(e["code"]) and integral(e["code"])):
                w.add("MRR-JSONRPC-8")
            elif not ("message" in e and is_str(e["message"])):
                w.add("MRR-JSONRPC-8")
    if kind is None:
        w.add("MRR-MESSAGE-9")
    return kind, rid, w


def same_id(a, b):
    if is_num(a) and is_num(b):
        return dec(a) == dec(b)
    if is_str(a) and is_str(b):
        return a == b
    return False


# ----------------------------------------------------------------------------------------------
# The model.

FLAG_READINGS = {
    "MRR-E2": ["both", "serde", "schema"],
    "MRR-E6": ["bom-not-json", "bom-ignored"],
    "MRR-E7": ["json-text-lines", "bare-object"],
    "MRR-E8": ["not-ndjson", "separator-allowed"],
    "MRR-E9": ["ndjson-newline", "final-newline-optional", "unterminated-is-truncated"],
    "MRR-E13": ["single-session", "concatenated-sessions"],
    "MRR-E15": ["counts-advisory", "counts-exact"],
    "MRR-E17": ["exact-version", "same-major"],
    "MRR-E18": ["any-start", "zero-or-one"],
    "MRR-E19": ["increasing", "contiguous", "unique", "types-only"],
    "MRR-E20": ["rfc-3339", "chrono-relaxed", "utc-designator"],
    "MRR-E21": ["observational", "consistent"],
    "MRR-E22": ["anywhere", "responses-only"],
    "MRR-E24": ["last-wins", "first-wins", "refuse"],
    "MRR-E26": ["recorded-as-sent", "json-rpc-required"],
    "MRR-E27": ["any-direction", "sketch-roles"],
    "MRR-E28": ["recorded-as-sent", "paired-required"],
    "MRR-E48": ["serde-json", "declared-types"],
    "MRR-E49": ["line-format", "load-tolerance"],
}
# The readings marked † in the errata's "Flags at a glance" whose flags carry REPLAY or CONVERT:
# split by MRR-E11 into <reading>-parse-only and <reading>-valid-only where a case of the flag
# carries REPLAY or CONVERT (generate.py decides, once the cases are merged).
DAGGER = {"MRR-E2": "both", "MRR-E7": "bare-object", "MRR-E9": "ndjson-newline",
          "MRR-E13": "single-session", "MRR-E26": "json-rpc-required"}
ARCS = {flag: readings[0] for flag, readings in FLAG_READINGS.items()}

HEADER_FIELDS = [("version", "string", True, "MRR-HEADER-4"),
                 ("name", "option-string", False, "MRR-HEADER-5"),
                 ("tags", "string-list", False, "MRR-HEADER-6"),
                 ("recorded_at", "date-time", True, "MRR-HEADER-7"),
                 ("upstream", "string", True, "MRR-HEADER-8"),
                 ("thoughtjack_version", "string", True, "MRR-HEADER-9")]
MESSAGE_FIELDS = [("seq", "u64", True, "MRR-MESSAGE-2"),
                  ("ts", "date-time", True, "MRR-MESSAGE-3"),
                  ("dir", "direction", True, "MRR-MESSAGE-4"),
                  ("msg", "any", True, "MRR-MESSAGE-5"),
                  ("latency_ms", "option-u64", False, "MRR-MESSAGE-6")]
FOOTER_FIELDS = [("total_messages", "u64", True, "MRR-FOOTER-4"),
                 ("duration_ms", "u64", True, "MRR-FOOTER-5"),
                 ("client_messages", "u64", True, "MRR-FOOTER-6"),
                 ("server_messages", "u64", True, "MRR-FOOTER-7")]
FIELDS = {"header": HEADER_FIELDS, "message": MESSAGE_FIELDS, "footer": FOOTER_FIELDS}


def serde_decodes(v, ftype, date_time_ok, minus_zero):
    if ftype == "any":
        return True
    if ftype in ("option-string", "option-u64") and v is None:
        return True
    if ftype in ("string", "option-string"):
        return is_str(v)
    if ftype == "string-list":
        return isinstance(v, list) and not isinstance(v, Obj) and all(is_str(x) for x in v)
    if ftype == "date-time":
        return is_str(v) and (date_time_ok is None or date_time_ok(v))
    if ftype in ("u64", "option-u64"):
        return u64(v, minus_zero) is not None
    if ftype == "direction":
        return is_str(v) and v in ("c2s", "s2c")
    raise AssertionError(ftype)


class Findings:
    def __init__(self, modes):
        self.modes = modes
        self.errors, self.warnings = set(), set()

    def error(self, rid, statement="file"):
        """statement: 'serde' or 'schema' (counted only when the MRR-E2 reading includes it) or
        'file' (the file rules, under every reading)."""
        e2 = self.modes["MRR-E2"]
        if statement == "file" or e2 == "both" or e2 == statement:
            self.errors.add(rid)

    def warning(self, rid):
        self.warnings.add(rid)


def evaluate(raw, modes=None, limits=None):
    """The findings on a recording under `modes` (a reading for every flag; ARCS by default) and
    `limits`: (errors, warnings). Ids that are not catalogue ids ("X-...") stand for what a
    non-ARCS reading refuses."""
    modes = dict(ARCS, **(modes or {}))
    limits = limits or {}
    max_line = limits.get("max_line_bytes", 64 << 20)
    max_depth = limits.get("max_json_depth", 128)
    F = Findings(modes)
    dt_ok = DATE_TIME[modes["MRR-E20"]]
    validator = schema_validator(dt_ok)
    e2 = modes["MRR-E2"]

    data = raw
    if data.startswith(BOM):
        data = data[len(BOM):]
        if modes["MRR-E6"] == "bom-not-json":
            F.error("MRR-JSON-3")
    parts = data.split(b"\n")
    terminated_last = parts[-1] == b""
    if terminated_last:
        parts.pop()

    state = dict(lines=0, header_seen=False, footer=False, messages=0, client=0, server=0, seqs=[],
                 recorded_at=None, ts=[], durations=[], latencies=[])
    pending = {"c2s": [], "s2c": []}  # requests waiting for their response: (id, ts)

    for i, part in enumerate(parts):
        terminated = i < len(parts) - 1 or terminated_last
        # A CR before the LF ends the line; one that ends an unterminated last line is the CR of
        # a CRLF cut before its LF, which leaves the missing LF as the question (MRR-E9).
        if part.endswith(b"\r"):
            part = part[:-1]
        if len(part) > max_line:
            F.error("MRR-JSON-5")
            return F.errors, F.warnings
        if part.strip(b" \t\r") == b"":
            if modes["MRR-E8"] == "not-ndjson":
                F.error("MRR-JSON-1")
            else:
                pass
            continue
        first = state["lines"] == 0
        state["lines"] += 1
        kind = None
        try:
            text = part.decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            text = None
        tree = None
        if text is not None:
            try:
                tree = parse_tokens(text)
            except NotJson:
                tree = None
        if tree is not None and depth(tree) > max_depth:
            F.error("MRR-JSON-5")
            return F.errors, F.warnings
        if tree is None and not terminated and state["header_seen"] and \
                modes["MRR-E49"] == "load-tolerance":
            # A last line a crash cut off, after a valid portion: the spec's own load validation
            # skips it with a warning and uses the rest (EC-REC-002, errata MRR-E49).
            F.warning("MRR-JSON-1")
            continue
        if tree is None:
            F.error("MRR-JSON-1")
        elif b"\r" in part:  # JSON whitespace, but NDJSON's JSON texts hold no CR
            F.error("MRR-JSON-2")
        if tree is None:
            pass
        else:
            serde_reads = modes["MRR-E48"] == "declared-types" or (
                not has_lone_surrogate(tree) and not beyond_doubles(tree))
            if not serde_reads:
                F.error("MRR-JSON-1", "serde")
            readable = serde_reads or e2 == "schema"
            if readable and not isinstance(tree, Obj):
                F.error("MRR-JSON-1")
            elif readable:
                if not terminated:
                    reading = modes["MRR-E9"]
                    if reading == "ndjson-newline":
                        F.error("MRR-JSON-2")
                    elif reading == "unterminated-is-truncated":
                        F.error("X-E9-truncated")
                if text != text.strip(" \t") and modes["MRR-E7"] == "bare-object":
                    F.error("X-E7-bare-object")
                kind = line(F, tree, first, state, pending, validator, dt_ok)
        if kind == "header":
            state["header_seen"] = True
        if first and kind != "header":
            F.error("MRR-HEADER-1")
    if state["lines"] == 0:
        F.error("MRR-HEADER-1")
    finish(F, state, pending)
    return F.errors, F.warnings


def line(F, tree, first, state, pending, validator, dt_ok):
    """One JSON object line under both statements and the file rules; returns its kind."""
    modes = F.modes
    minus_zero = modes["MRR-E48"] == "declared-types"
    if repeated_names(tree):
        F.warning("MRR-JSON-4")
        if modes["MRR-E24"] == "refuse":
            F.error("X-E24-refuse")
    # The Serde statement: the tag selects the variant; a repeated tag is a duplicate field.
    tags = members(tree, "type")
    if len(tags) > 1:
        F.error("MRR-FORMAT-8", "serde")
    kind = tags[0] if tags and is_str(tags[0]) and tags[0] in FIELDS else None
    if kind is None:
        F.error("MRR-FORMAT-8", "serde")
    # The schema statement (Python's json: the last of repeated names).
    plain = to_schema(tree)
    schema_kind = plain.get("type") if isinstance(plain.get("type"), str) else None
    for rid in schema_ids_of_line(validator, plain, schema_kind):
        F.error(rid, "schema")
    if kind is None:
        return None
    # Position (errata MRR-E12 to MRR-E14; "Final line: Footer" settles MRR-E14's VALIDATE).
    if state["footer"]:
        F.error("MRR-FOOTER-1")
    if not first and kind == "header" and modes["MRR-E13"] == "single-session":
        F.error("MRR-HEADER-2")
    # The Serde struct's fields.
    for name, ftype, required, rid in FIELDS[kind]:
        vals = members(tree, name)
        if not vals:
            if required:
                F.error(rid, "serde")
            continue
        if len(vals) > 1:
            F.error(rid, "serde")
        if not serde_decodes(vals[0], ftype, dt_ok, minus_zero):
            F.error(rid, "serde")
    view = resolve(tree, "last")
    if kind == "header":
        version = view.get("version")
        if is_str(version) and version != "1.0":
            if modes["MRR-E17"] == "exact-version":
                F.error("MRR-HEADER-3")
            elif not (re.fullmatch(r"[0-9]+\.[0-9]+", version) and int(version.split(".")[0]) == 1):
                F.error("MRR-HEADER-3")
        if state["recorded_at"] is None:
            state["recorded_at"] = instant(view.get("recorded_at"))
    elif kind == "message":
        message_line(F, tree, view, state, pending)
    else:
        state["footer"] = True
        counted = {"total_messages": state["messages"], "client_messages": state["client"],
                   "server_messages": state["server"]}
        for name, n in counted.items():
            value = u64(view.get(name), minus_zero) if name in view else None
            if value is None and F.modes["MRR-E2"] == "schema" and name in view:
                v = view[name]
                value = int(dec(v)) if is_num(v) and integral(v) and dec(v) >= 0 else None
            if value is not None and value != n:
                if modes["MRR-E15"] == "counts-advisory":
                    F.warning("MRR-FOOTER-3")
                else:
                    F.error("X-E15-counts-exact")
        d = u64(view.get("duration_ms"), minus_zero) if "duration_ms" in view else None
        if d is not None:
            state["durations"].append(d)
    return kind


def message_line(F, tree, view, state, pending):
    modes = F.modes
    minus_zero = modes["MRR-E48"] == "declared-types"
    seq = u64(view.get("seq"), minus_zero) if "seq" in view else None
    if seq is None and modes["MRR-E2"] == "schema" and "seq" in view:
        v = view["seq"]
        seq = int(dec(v)) if is_num(v) and integral(v) and dec(v) >= 0 else None
    if seq is not None:
        if state["seqs"] and seq <= state["seqs"][-1] and modes["MRR-E19"] == "increasing":
            F.error("MRR-MESSAGE-7")
        state["seqs"].append(seq)
    state["messages"] += 1
    direction = view.get("dir") if is_str(view.get("dir")) else None
    state["client"] += direction == "c2s"
    state["server"] += direction == "s2c"
    ts = instant(view.get("ts"))
    state["ts"].append(ts)
    # msg as serde_json::Value reads it (the last of repeated names), or under first-wins.
    msg_tokens = members(tree, "msg")
    msg = resolve(msg_tokens[-1], "first" if modes["MRR-E24"] == "first-wins" else "last") \
        if msg_tokens else None
    latency = view.get("latency_ms")
    kind = None
    if isinstance(msg, dict) and direction:
        kind, rid, warnings = classify(msg)
        for w in warnings:
            F.warning(w)
        if modes["MRR-E26"] == "json-rpc-required" and warnings - {"MRR-JSONRPC-4"}:
            F.error("X-E26-json-rpc-required")
        other = "s2c" if direction == "c2s" else "c2s"
        if kind == "request":
            pending[direction].append((rid, ts))
        if kind == "response" and rid is not None:
            match = next((p for p in pending[other] if same_id(p[0], rid)), None)
            if match is None:
                if modes["MRR-E28"] == "recorded-as-sent":
                    F.warning("MRR-JSONRPC-7")
                else:
                    F.error("X-E28-paired-required")
            else:
                pending[other].remove(match)
                lat = u64(latency, minus_zero) if latency is not None else None
                if lat is not None and match[1] is not None and ts is not None:
                    state["latencies"].append((lat, ts - match[1]))
        if modes["MRR-E27"] == "sketch-roles" and (
                (direction == "c2s" and kind == "response") or
                (direction == "s2c" and kind == "request")):
            F.error("X-E27-sketch-roles")
    if "latency_ms" in view and latency is not None and modes["MRR-E22"] == "responses-only":
        if not (direction == "s2c" and kind == "response"):
            F.error("X-E22-responses-only")


def finish(F, state, pending):
    modes = F.modes
    seqs = state["seqs"]
    order = modes["MRR-E19"]
    if order == "contiguous" and any(b != a + 1 for a, b in zip(seqs, seqs[1:])):
        F.error("X-E19-contiguous")
    if order == "unique" and len(seqs) != len(set(seqs)):
        F.error("X-E19-unique")
    if modes["MRR-E18"] == "zero-or-one" and seqs and seqs[0] not in (0, 1):
        F.error("X-E18-zero-or-one")
    if modes["MRR-E21"] == "consistent":
        ts = [t for t in state["ts"] if t is not None]
        start = state["recorded_at"]
        bad = any(b < a for a, b in zip(ts, ts[1:]))
        bad |= start is not None and any(t < start for t in ts)
        if start is not None and ts:
            bad |= any(d < (ts[-1] - start) * 1000 for d in state["durations"])
        bad |= any(lat > gap * 1000 + 1 for lat, gap in state["latencies"])
        if bad:
            F.error("X-E21-consistent")


def verdict(errors):
    return "invalid" if errors else "valid"


# ----------------------------------------------------------------------------------------------
# Building recordings. Lines are objects (dicts, member order kept) written compact as `jq -c`
# writes them, or raw text. Numbers whose spelling matters are written through num().

_NUMS = {}


def num(text):
    """A number written exactly as `text` (1.0, -0, 1e400 ...)."""
    key = f"@@num{len(_NUMS)}@@"
    _NUMS[key] = text
    return key


def dumps(obj, ascii_only=False):
    out = json.dumps(obj, separators=(",", ":"), ensure_ascii=ascii_only)
    for key, text in _NUMS.items():
        out = out.replace(json.dumps(key), text)
    return out


def render(lines, eol="\n", final=True):
    """The bytes of a recording: each line an object (compacted) or text, `eol` after each, none
    after the last when final is False."""
    texts = [l if isinstance(l, str) else dumps(l) for l in lines]
    out = eol.join(texts) + (eol if final else "")
    return out.encode("utf-8", errors="surrogatepass")


def ts(ms, day="2025-02-04", hour=10):
    """A UTC timestamp `ms` milliseconds after day hour:00:00.000."""
    s, ms = divmod(ms, 1000)
    m, s = divmod(s, 60)
    return f"{day}T{hour:02d}:{m:02d}:{s:02d}.{ms:03d}Z"


def header(**over):
    h = {"type": "header", "version": "1.0", "name": "filesystem-test-001",
         "tags": ["regression", "filesystem"], "recorded_at": "2025-02-04T10:00:00.000Z",
         "upstream": "npx -y @anthropic/mcp-server-filesystem /tmp", "thoughtjack_version": "0.3.0"}
    return replace(h, over)


def replace(d, over):
    """d with members replaced in place, added at the end, or removed (value DROP)."""
    out = dict(d)
    for k, v in over.items():
        k = k.rstrip("_")
        if v is DROP:
            out.pop(k, None)
        else:
            out[k] = v
    return out


DROP = object()


def message(seq, at, direction, msg, latency=None, **over):
    m = {"type": "message", "seq": seq, "ts": ts(at) if isinstance(at, int) else at,
         "dir": direction, "msg": msg}
    if latency is not None:
        m["latency_ms"] = latency
    return replace(m, over)


def footer(total, client, server, duration=5000, **over):
    return replace({"type": "footer", "total_messages": total, "duration_ms": duration,
                    "client_messages": client, "server_messages": server}, over)


def rpc_request(rid, method, params=None):
    m = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        m["params"] = params
    return m


def rpc_notification(method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    return m


def rpc_result(rid, result):
    return {"jsonrpc": "2.0", "id": rid, "result": result}


INIT_PARAMS = {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "test-agent", "version": "1.0.0"}}
INIT_RESULT = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
               "serverInfo": {"name": "filesystem", "version": "1.0.0"}}
READ_PARAMS = {"name": "read_file", "arguments": {"path": "/etc/hosts"}}


def text_result(text):
    return {"content": [{"type": "text", "text": text}]}


def messages(start=1, text="127.0.0.1 localhost\n"):
    """The ARCS base session: initialize and its response, the initialized notification, a
    tools/call and its response (the last one's text is `text`)."""
    return [
        message(start, 50, "c2s", rpc_request(1, "initialize", INIT_PARAMS)),
        message(start + 1, 100, "s2c", rpc_result(1, INIT_RESULT), 50),
        message(start + 2, 150, "c2s", rpc_notification("notifications/initialized")),
        message(start + 3, 200, "c2s", rpc_request(2, "tools/call", READ_PARAMS)),
        message(start + 4, 260, "s2c", rpc_result(2, text_result(text)), 60),
    ]


def base(footer_line=True, **kw):
    """Header, the five base messages, and (by default) a footer whose counts agree. Lines 1-5
    are the messages (line 0 the header)."""
    out = [header()] + messages(**kw)
    return counted_footer(out) if footer_line else out


def edit(lines, i, **over):
    """Line i (0-based) of a list of line objects with members replaced."""
    out = list(lines)
    out[i] = replace(out[i], over)
    return out


def edit_msg(lines, i, **over):
    out = list(lines)
    out[i] = dict(out[i], msg=replace(out[i]["msg"], over))
    return out


def insert(lines, i, *new):
    return list(lines[:i]) + list(new) + list(lines[i:])


def counted_footer(lines, **over):
    """lines with a footer appended whose counts agree with its message lines."""
    ms = [m for m in lines if isinstance(m, dict) and m.get("type") == "message"]
    return list(lines) + [footer(len(ms), sum(m.get("dir") == "c2s" for m in ms),
                                 sum(m.get("dir") == "s2c" for m in ms), **over)]


def nest(n, leaf=None):
    v = leaf if leaf is not None else {}
    for _ in range(n):
        v = {"a": v}
    return v


def raw_line(obj_text_before, replacement_bytes, lines, index):
    """Bytes of a recording in which the text `obj_text_before` of line `index` is replaced by
    raw bytes (ill-formed UTF-8, raw control characters)."""
    data = render(lines)
    texts = data.split(b"\n")
    assert obj_text_before.encode() in texts[index], obj_text_before
    texts[index] = texts[index].replace(obj_text_before.encode(), replacement_bytes, 1)
    return b"\n".join(texts)


# ----------------------------------------------------------------------------------------------
# Quotations: the spec's (§ as the errata names its sections), and RFC 8259, NDJSON and JSON-RPC
# 2.0 as the catalogue quotes them.

def _q(section, text):
    return section + ': "' + text.replace('"', '\\"') + '"'


Q = {
    "ndjson": _q("§2 F-002", "- NDJSON (newline-delimited JSON) format"),
    "one": _q("§2 F-002", "- One JSON object per line"),
    "has_header": _q("§2 F-002", "- Includes metadata header"),
    "timing": _q("§2 F-002", "- Includes timing information"),
    "version_field": _q("§2 F-002", "- Version field for format evolution"),
    "line1": _q("§2 F-002", "// Line 1: Metadata header"),
    "line2": _q("§2 F-002", "// Line 2+: Message entries"),
    "final": _q("§2 F-002", "// Final line: Footer (written on clean shutdown)"),
    "notif": _q("§2 F-002", "// Notifications (no latency, no response expected)"),
    "ex_version": _q("§2 F-002", '"version": "1.0",'),
    "ex_seq": _q("§2 F-002", '"seq": 1,'),
    "ex_recorded": _q("§2 F-002", '"recorded_at": "2025-02-04T10:00:00.000Z",'),
    "ex_latency": _q("§2 F-002", '"latency_ms": 50'),
    "ex_footer": _q("§2 F-002", '"total_messages": 42, "duration_ms": 5000, "client_messages": 21, '
                                '"server_messages": 21'),
    "enum": _q("§2 F-002", '#[serde(tag = "type", rename_all = "snake_case")] pub enum RecordLine { '
                           'Header(RecordHeader), Message(RecordEntry), Footer(RecordFooter), }'),
    "h_version": _q("§2 F-002", "pub struct RecordHeader { pub version: String,"),
    "h_name": _q("§2 F-002", '#[serde(default, skip_serializing_if = "Option::is_none")] pub name: '
                             'Option<String>,'),
    "h_tags": _q("§2 F-002", '#[serde(default, skip_serializing_if = "Vec::is_empty")] pub tags: '
                             'Vec<String>,'),
    "h_recorded": _q("§2 F-002", "pub recorded_at: DateTime<Utc>,"),
    "h_upstream": _q("§2 F-002", "pub upstream: String,"),
    "h_tj": _q("§2 F-002", "pub thoughtjack_version: String,"),
    "m_seq": _q("§2 F-002", "pub struct RecordEntry { pub seq: u64,"),
    "m_ts": _q("§2 F-002", "pub ts: DateTime<Utc>,"),
    "m_dir": _q("§2 F-002", "pub dir: Direction,"),
    "direction": _q("§2 F-002", 'pub enum Direction { #[serde(rename = "c2s")] ClientToServer, '
                                '#[serde(rename = "s2c")] ServerToClient, }'),
    "m_msg": _q("§2 F-002", "pub msg: serde_json::Value,"),
    "m_latency": _q("§2 F-002", '#[serde(skip_serializing_if = "Option::is_none")] pub latency_ms: '
                                'Option<u64>,'),
    "f_total": _q("§2 F-002", "pub struct RecordFooter { pub total_messages: u64,"),
    "f_duration": _q("§2 F-002", "pub duration_ms: u64,"),
    "f_client": _q("§2 F-002", "pub client_messages: u64,"),
    "f_server": _q("§2 F-002", "pub server_messages: u64,"),
    "s_draft": _q("§9", '"$schema": "http://json-schema.org/draft-07/schema#",'),
    "s_desc": _q("§9", '"description": "NDJSON format - one object per line",'),
    "s_oneof": _q("§9", '"oneOf": [ { "$ref": "#/definitions/header" }, { "$ref": '
                        '"#/definitions/message" }, { "$ref": "#/definitions/footer" } ],'),
    "s_h_required": _q("§9", '"required": ["type", "version", "recorded_at", "upstream", '
                             '"thoughtjack_version"],'),
    "s_version": _q("§9", '"version": { "type": "string", "pattern": "^\\\\d+\\\\.\\\\d+$" },'),
    "s_name": _q("§9", '"name": { "type": "string" },'),
    "s_tags": _q("§9", '"tags": { "type": "array", "items": { "type": "string" } },'),
    "s_recorded": _q("§9", '"recorded_at": { "type": "string", "format": "date-time" },'),
    "s_upstream": _q("§9", '"upstream": { "type": "string" },'),
    "s_tj": _q("§9", '"thoughtjack_version": { "type": "string" }'),
    "s_m_required": _q("§9", '"required": ["type", "seq", "ts", "dir", "msg"],'),
    "s_seq": _q("§9", '"seq": { "type": "integer", "minimum": 0 },'),
    "s_ts": _q("§9", '"ts": { "type": "string", "format": "date-time" },'),
    "s_dir": _q("§9", '"dir": { "enum": ["c2s", "s2c"] },'),
    "s_msg": _q("§9", '"msg": { "type": "object", "description": "JSON-RPC message" },'),
    "s_latency": _q("§9", '"latency_ms": { "type": "integer", "minimum": 0 }'),
    "s_f_required": _q("§9", '"required": ["type", "total_messages", "duration_ms", '
                             '"client_messages", "server_messages"],'),
    "s_total": _q("§9", '"total_messages": { "type": "integer", "minimum": 0 },'),
    "s_duration": _q("§9", '"duration_ms": { "type": "integer", "minimum": 0 },'),
    "s_client": _q("§9", '"client_messages": { "type": "integer", "minimum": 0 },'),
    "s_server": _q("§9", '"server_messages": { "type": "integer", "minimum": 0 }'),
    "ec001": _q("§3 EC-REC-001", "**Scenario:** Recording contains only header, no messages"),
    "ec002": _q("§3 EC-REC-002", "**Scenario:** Recording file truncated mid-line (crash during "
                                 "record)"),
    "ec002_exp": _q("§3 EC-REC-002", "**Expected:** Load skips corrupt final line, logs warning, "
                                     "uses valid portion"),
    "ec003": _q("§3 EC-REC-003", "**Scenario:** Recording has two requests with same JSON-RPC ID "
                                 "(concurrent HTTP)"),
    "ec004": _q("§3 EC-REC-004", "**Scenario:** Recording from HTTP transport has responses out of "
                                 "request order"),
    "ec005": _q("§3 EC-REC-005", "**Scenario:** Recording contains notification (no ID, no "
                                 "response expected)"),
    "ec006": _q("§3 EC-REC-006", "**Scenario:** Tool response contains base64 image data"),
    "ec006_exp": _q("§3 EC-REC-006", "**Expected:** Preserved exactly in recording, replayed "
                                     "exactly"),
    "ec007": _q("§3 EC-REC-007", "**Scenario:** Recording is 1GB+ (long session)"),
    "ec008": _q("§3 EC-REC-008", '**Scenario:** Recording version "2.0", ThoughtJack only supports '
                                 '"1.0"'),
    "ec011": _q("§3 EC-REC-011", "**Scenario:** Recording has no footer (unclean shutdown)"),
    "nfr003": _q("§4 NFR-003", "- Each line independently parseable (no multi-line JSON)"),
    "nfr003_partial": _q("§4 NFR-003", "- Partial recordings usable after crash"),
    "redact": _q("§1.4", "# Redact passwords jq '.msg.params.arguments.password = \"[REDACTED]\"' "
                         "session.jsonl > redacted.jsonl"),
    "client_only": _q("§1.4", "# Filter to client messages only jq 'select(.dir == \"c2s\")' "
                              "session.jsonl > client-only.jsonl"),
    "merge": _q("§1.4", "# Merge recordings (strip headers, concatenate, fix sequence numbers) cat "
                        "session1.jsonl session2.jsonl | jq -c '.' > merged.jsonl"),
    "has_header_recipe": _q("§6", "head -1 session.jsonl | jq -e '.type == \"header\"' > /dev/null "
                                  "&& echo \"Has header\""),
    "seq_range": _q("§6", "# Sequence range (messages 5-15)"),
    "c2s": _q("§1.3", "| **c2s** | Client-to-server message direction |"),
    "s2c": _q("§1.3", "| **s2c** | Server-to-client message direction |"),
    "session": _q("§1.3", "| **Session** | One logical interaction (connect → disconnect) |"),
    "both_dirs": _q("§2 F-001", "- Records both directions: client→server and server→client"),
    "ordering": _q("§2 F-001", "- Preserves message ordering and timing"),
    "notifications": _q("§2 F-001", "- Handles notifications (no response expected)"),
    "concurrent": _q("§2 F-001", "- Handles concurrent requests (HTTP transport)"),
    "fetch_add": _q("§2 F-001", "let seq = self.sequence.fetch_add(1, Ordering::SeqCst);"),
    "utc_now": _q("§2 F-001", "ts: Utc::now(),"),
    "latency_none": _q("§2 F-001", "latency_ms: None,"),
    "latency_some": _q("§2 F-001", "latency_ms: Some(latency.as_millis() as u64),"),
    "validates": _q("§2 F-003", "- Validates recording on load (fails fast on corrupt file)"),
    "lossless": _q("§1.2", "| **Lossless Recording** | Capture everything needed for perfect "
                           "replay |"),
    "stable": _q("§8", "- [ ] Recording format stable (version 1.0)"),
    "rfc_utf8": 'RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed '
                'ecosystem MUST be encoded using UTF-8"',
    "rfc_bom": 'RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF) to the '
               'beginning of a networked-transmitted JSON text."',
    "rfc_bom_may": 'RFC 8259 §8.1: "In the interests of interoperability, implementations that '
                   'parse JSON texts MAY ignore the presence of a byte order mark rather than '
                   'treating it as an error."',
    "rfc_names": 'RFC 8259 §4: "The names within an object SHOULD be unique."',
    "rfc_limits": 'RFC 8259 §9: "An implementation may set limits on the size of texts that it '
                  'accepts. An implementation may set limits on the maximum depth of nesting."',
    "nd_text": 'NDJSON §3.1: "Each JSON text MUST conform to the [RFC7159] standard and MUST be '
               'written to the stream followed by the newline character \\n (0x0A). The newline '
               'charater MAY be preceeded by a carriage return \\r (0x0D). The JSON texts MUST NOT '
               'contain newlines or carriage returns."',
    "nd_crlf": 'NDJSON §3.2: "The parser MUST accept newline as line delimiter \\n (0x0A) as well as '
               'carriage return and newline \\r\\n (0x0D0A)."',
    "nd_empty": 'NDJSON §3.2: "However, the parser MAY silently ignore empty lines, e.g. \\n\\n. This '
                'behavior MUST be documented and SHOULD be configurable by the user of the parser."',
    "rpc_version": 'JSON-RPC 2.0 §4: "A String specifying the version of the JSON-RPC protocol. MUST '
                   'be exactly \\"2.0\\"."',
    "rpc_method": 'JSON-RPC 2.0 §4: "A String containing the name of the method to be invoked."',
    "rpc_id": 'JSON-RPC 2.0 §4: "An identifier established by the Client that MUST contain a String, '
              'Number, or NULL value if included."',
    "rpc_id_null": 'JSON-RPC 2.0 §4: "The value SHOULD normally not be Null [1] and Numbers SHOULD '
                   'NOT contain fractional parts [2]"',
    "rpc_params": 'JSON-RPC 2.0 §4.2: "If present, parameters for the rpc call MUST be provided as a '
                  'Structured value."',
    "rpc_both": 'JSON-RPC 2.0 §5: "Either the result member or error member MUST be included, but '
                'both members MUST NOT be included."',
    "rpc_same_id": 'JSON-RPC 2.0 §5: "This member is REQUIRED. It MUST be the same as the value of '
                   'the id member in the Request Object."',
    "rpc_code": 'JSON-RPC 2.0 §5.1: "A Number that indicates the error type that occurred. This MUST '
                'be an integer."',
    "rpc_error_obj": 'JSON-RPC 2.0 §5.1: "When a rpc call encounters an error, the Response Object '
                     'MUST contain the error member with a value that is a Object with the following '
                     'members:"',
    "rpc_batch": 'JSON-RPC 2.0 §6: "To send several Request objects at the same time, the Client MAY '
                 'send an Array filled with Request objects."',
}

# The catalogue ids every case of a flag cites besides its rule ids.
FLAG_REQS = {
    "MRR-E6": ["MRR-JSON-3", "MRR-JSON-8"], "MRR-E7": ["MRR-FORMAT-2", "MRR-JSON-1"],
    "MRR-E8": ["MRR-FORMAT-2", "MRR-JSON-1", "MRR-JSON-7"], "MRR-E9": ["MRR-FORMAT-1", "MRR-JSON-2"],
    "MRR-E13": ["MRR-HEADER-2"], "MRR-E15": ["MRR-FOOTER-3"],
    "MRR-E17": ["EC-REC-008", "MRR-FORMAT-7", "MRR-HEADER-3", "MRR-SCHEMA-7"],
    "MRR-E18": ["MRR-MESSAGE-7"], "MRR-E19": ["MRR-MESSAGE-7", "MRR-RECORD-5"],
    "MRR-E20": ["MRR-FORMAT-4"], "MRR-E21": ["MRR-FORMAT-4", "MRR-RECORD-5"],
    "MRR-E22": ["MRR-MESSAGE-6", "MRR-MESSAGE-8"], "MRR-E24": ["MRR-JSON-4"],
    "MRR-E26": ["MRR-MESSAGE-9"], "MRR-E27": ["MRR-MESSAGE-10", "MRR-RECORD-2"],
    "MRR-E28": ["MRR-JSONRPC-7"],
    "MRR-E49": ["EC-REC-002", "MRR-FORMAT-2", "MRR-JSON-1", "MRR-NFR-6", "NFR-003"],
}
ALWAYS_REQS = ["F-002", "MRR-SCHEMA-1"]
ALWAYS_QUOTES = ["s_draft"]
ALWAYS_ERRATA = ["MRR-E1", "MRR-E2"]

DEFS = []


def case(name, desc, data, outcome, errors="", warnings="", flag=None, readings=None, reqs=(),
         quotes=(), errata=(), limits=None, shared=False, also_split=()):
    """One validate case, written by hand: its ARCS outcome ("V" or "I"), the exact ARCS rule ids
    (without the MRR- prefix), and for a flagged case the outcome under each reading of the flag
    (FLAG_READINGS order). shared: the errata names a REPLAY or CONVERT operation for the same id
    (another module adds it). also_split: flags that also change the outcome, known and reported
    (the errata names the case under `flag` only)."""
    def ids(s):
        return sorted({x if x.startswith(("F-", "EC-REC-", "NFR-")) else "MRR-" + x
                       for x in s.split()})
    DEFS.append(dict(name=name, desc=desc, bytes=data, outcome={"V": "valid", "I": "invalid"}[outcome],
                     errors=ids(errors), warnings=ids(warnings), flag=flag, readings=readings,
                     reqs=list(reqs), quotes=list(quotes), errata=list(errata), limits=limits,
                     shared=shared, also_split=list(also_split)))


# ----------------------------------------------------------------------------------------------
# The cases.

PNG_1X1 = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5E"
           "rkJggg==")


def example_f002():
    """F-002's example lines, compacted, `{ ... }` as `{}`, the footer's counts made to agree
    (errata MRR-E3). From the spec when found, else the committed input."""
    if SPEC is None:
        with open(os.path.join(HERE, "cases", "example-f002", "recording.jsonl"), "rb") as f:
            return f.read()
    objs = f002_example_objects(SPEC)
    ms = [o for o in objs if o.get("type") == "message"]
    for o in objs:
        if o.get("type") == "footer":
            o.update(total_messages=len(ms), client_messages=sum(m["dir"] == "c2s" for m in ms),
                     server_messages=sum(m["dir"] == "s2c" for m in ms))
    return render(objs)


def jq_assign(obj, path, value):
    """jq's `.a.b.c = v` on one object: missing objects on the path are created (as new members,
    at the end), an existing member keeps its place."""
    out = json.loads(json.dumps(obj))
    cur = out
    for p in path[:-1]:
        if not isinstance(cur.get(p), dict):
            cur[p] = {}
        cur = cur[p]
    cur[path[-1]] = value
    return out


def jq_pretty(obj):
    """jq's default output for one value: 2-space indentation, `"name": value`."""
    return json.dumps(obj, indent=2, ensure_ascii=False)


def login_session():
    """A session whose tool call carries a password argument (for the redaction recipe)."""
    lines = base(footer_line=False)
    lines = edit_msg(lines, 4, params={"name": "login",
                                       "arguments": {"user": "alice", "password": "hunter2"}})
    lines = edit_msg(lines, 5, result=text_result("logged in"))
    return counted_footer(lines)


def session_two():
    """A second session of the same server, an hour later (for the merge recipe)."""
    h = header(name="filesystem-test-002", recorded_at="2025-02-04T11:00:00.000Z")
    ms = [dict(m, ts=m["ts"].replace("T10:", "T11:")) for m in messages()]
    return counted_footer([h] + ms)


def cases():
    B = base()
    NF = base(footer_line=False)
    V, I = "V", "I"

    # -- The spec's example and recipes (errata MRR-E3).
    case("example-f002", "F-002's example recording, each of its five objects compacted to one "
         "line, `{ ... }` read as `{}` and the footer's counts made to agree (3 messages: 2 c2s, 1 "
         "s2c): the header, the initialize request and its response (latency_ms 50), the "
         "initialized notification, the footer.", example_f002(), V,
         reqs=["MRR-FORMAT-1", "MRR-FORMAT-2", "MRR-FORMAT-3", "MRR-FORMAT-4", "MRR-FORMAT-7",
               "MRR-FORMAT-8", "MRR-HEADER-1", "MRR-HEADER-4", "MRR-HEADER-5", "MRR-HEADER-6",
               "MRR-HEADER-7", "MRR-HEADER-8", "MRR-HEADER-9", "MRR-MESSAGE-1", "MRR-MESSAGE-2",
               "MRR-MESSAGE-3", "MRR-MESSAGE-4", "MRR-MESSAGE-5", "MRR-MESSAGE-6", "MRR-FOOTER-4",
               "MRR-FOOTER-5", "MRR-FOOTER-6", "MRR-FOOTER-7"],
         quotes=["line1", "line2", "final", "ex_version", "ex_seq", "ex_latency", "ex_footer"],
         errata=["MRR-E3", "MRR-E15", "MRR-E18", "MRR-E20"], shared=True)
    src = login_session()
    redacted = [jq_assign(o, ["msg", "params", "arguments", "password"], "[REDACTED]") for o in src]
    case("recipe-redacted-compact", "§1.4's redaction recipe run with `jq -c` on a recording whose "
         "tools/call sends a password: every line gains .msg.params.arguments.password (the header "
         "and footer a msg member, the responses and the notification a params member); members "
         "the format does not define are ignored.", render(redacted), V,
         reqs=["MRR-FORMAT-9"], quotes=["redact", "one"], errata=["MRR-E3", "MRR-E23"])
    case("recipe-redacted-pretty", "§1.4's redaction recipe as printed (without -c): jq "
         "pretty-prints each object over several lines, so no line is a JSON object and the first "
         "line is not a header.",
         "".join(jq_pretty(o) + "\n" for o in redacted).encode("utf-8"), I, "HEADER-1 JSON-1",
         reqs=["NFR-003", "MRR-FORMAT-2"], quotes=["redact", "one", "nfr003"],
         errata=["MRR-E3", "MRR-E4", "MRR-E12"])
    case("recipe-client-only", "§1.4's client filter (`select(.dir == \"c2s\")`, compacted as "
         "`jq -c` writes it) on the base recording: the three c2s messages, without the header "
         "(and the footer).", render([o for o in B if o.get("dir") == "c2s"]), I, "HEADER-1",
         reqs=["MRR-FORMAT-3"], quotes=["client_only", "line1", "has_header"],
         errata=["MRR-E3", "MRR-E12"])
    merged = [o for o in base() if o["type"] != "footer"]
    merged += [dict(o, seq=o["seq"] + 5) if o["type"] == "message" else o for o in session_two()]
    case("recipe-merged", "§1.4's merge recipe (`cat session1.jsonl session2.jsonl | jq -c '.'`) "
         "on two recordings of the same server, with the first part's footer removed and the "
         "second part's seq continuing the first's (errata MRR-E13): a second header on line 7; "
         "the second part's footer counts its own 5 messages (a warning).", render(merged), I,
         "HEADER-2", "FOOTER-3", flag="MRR-E13", readings="IV", reqs=["MRR-FOOTER-3"],
         quotes=["merge", "line1", "line2", "session"], errata=["MRR-E3", "MRR-E15"], shared=True)

    # -- Structure: header first, footer last (errata MRR-E12 to MRR-E16).
    case("header-only", "A header and nothing else (EC-REC-001).", render([header()]), V,
         reqs=["EC-REC-001", "MRR-FOOTER-2", "MRR-HEADER-1"], quotes=["ec001", "final"],
         errata=["MRR-E14", "MRR-E16"], shared=True)
    case("header-footer-only", "A header and a footer counting no message (duration_ms 0).",
         render([header(), footer(0, 0, 0, 0)]), V,
         reqs=["EC-REC-001", "MRR-HEADER-1", "MRR-FOOTER-4", "MRR-FOOTER-5", "MRR-FOOTER-6",
               "MRR-FOOTER-7"], quotes=["ec001", "final"], errata=["MRR-E14", "MRR-E16"])
    case("no-footer", "The base recording without its footer (EC-REC-011: unclean shutdown).",
         render(NF), V, reqs=["EC-REC-011", "MRR-FOOTER-2", "MRR-NFR-6"],
         quotes=["ec011", "final", "nfr003_partial"], errata=["MRR-E14"], shared=True)
    fcm = [header()] + messages()
    fcm = insert(fcm, 6, message(6, 300, "s2c", rpc_notification(
        "notifications/message", {"level": "info", "data": "done"})),
        message(7, 320, "c2s", rpc_request(3, "tools/list")),
        message(8, 350, "s2c", rpc_result(3, {"tools": []}), 30))
    case("footer-counts-match", "Eight messages (4 c2s, 4 s2c: requests, responses, notifications "
         "both ways) and a footer whose total_messages, client_messages and server_messages are "
         "those counts.", render(counted_footer(fcm)), V,
         reqs=["MRR-FOOTER-3", "MRR-FOOTER-4", "MRR-FOOTER-6", "MRR-FOOTER-7"],
         quotes=["final", "ex_footer"], errata=["MRR-E15"])
    case("message-before-header", "The first message on line 1, the header on line 2.",
         render([B[1], B[0]] + B[2:]), I, "HEADER-1 HEADER-2",
         reqs=["MRR-FORMAT-3", "MRR-MESSAGE-1"], quotes=["line1", "has_header_recipe"],
         errata=["MRR-E12", "MRR-E13"], shared=True)
    case("footer-first", "A footer (counting nothing) and nothing else: no header.",
         render([footer(0, 0, 0, 0)]), I, "HEADER-1", reqs=["MRR-FORMAT-3"],
         quotes=["line1", "final"], errata=["MRR-E12"], shared=True)
    case("empty-file", "An empty file (0 bytes): no header.", b"", I, "HEADER-1",
         reqs=["MRR-FORMAT-3"], quotes=["line1", "has_header"], errata=["MRR-E12", "MRR-E16"],
         shared=True)
    case("no-header", "The base recording without its header.", render(B[1:]), I, "HEADER-1",
         reqs=["MRR-FORMAT-3"], quotes=["line1", "has_header"], errata=["MRR-E12"], shared=True)
    sh = insert(B, 3, header(name="filesystem-test-001b", recorded_at="2025-02-04T10:00:00.120Z"))
    case("second-header", "A second header (line 4) between the messages; no footer before it, "
         "seq increasing across it.", render(sh), I, "HEADER-2", flag="MRR-E13", readings="IV",
         quotes=["line1", "line2", "session"], shared=True)
    maf = [header(), B[1], B[2], dict(B[4], seq=3), footer(3, 2, 1), dict(B[5], seq=4)]
    case("message-after-footer", "A footer after three messages (counting them), then the response "
         "to the last request after the footer.", render(maf), I, "FOOTER-1",
         reqs=["MRR-MESSAGE-1"], quotes=["final", "line2"], errata=["MRR-E14"], shared=True)
    # The footer counts every message of the file, the one after it too, so that only the place
    # of the footer is wrong under either way of counting (MRR-E15's counts compare with the
    # messages before the footer: warnings).
    case("message-after-footer-counted", "A footer counting four messages, three before it and "
         "the response to the last request after it.",
         render(maf[:4] + [footer(4, 2, 2), maf[5]]), I, "FOOTER-1", "FOOTER-3",
         reqs=["MRR-MESSAGE-1"], quotes=["final", "line2"], errata=["MRR-E14", "MRR-E15"])
    case("two-footers", "The base recording with its footer written twice.", render(B + [B[-1]]),
         I, "FOOTER-1", quotes=["final"], errata=["MRR-E14"], shared=True)

    # -- JSON-RPC traffic that is valid (errata MRR-E26 to MRR-E28).
    dup = [header()] + messages()[:3] + [
        message(4, 200, "c2s", rpc_request(7, "tools/call", READ_PARAMS)),
        message(5, 210, "c2s", rpc_request(7, "tools/call", {"name": "read_file",
                                                             "arguments": {"path": "/etc/passwd"}})),
        message(6, 300, "s2c", rpc_result(7, text_result("127.0.0.1 localhost\n")), 100),
        message(7, 320, "s2c", rpc_result(7, text_result("root:x:0:0:root:/root:/bin/bash\n")),
                110)]
    case("ec-rec-003-duplicate-ids", "Two concurrent tools/call requests with the same id 7 "
         "(different params), answered in order (EC-REC-003).", render(counted_footer(dup)), V,
         reqs=["EC-REC-003", "MRR-JSONRPC-7", "MRR-RECORD-7"], quotes=["ec003", "concurrent"],
         errata=["MRR-E28"], shared=True)
    ooo = [header()] + messages()[:3] + [
        message(4, 200, "c2s", rpc_request(3, "tools/call", READ_PARAMS)),
        message(5, 210, "c2s", rpc_request(4, "tools/call", {"name": "list_directory",
                                                             "arguments": {"path": "/tmp"}})),
        message(6, 300, "s2c", rpc_result(4, text_result("file1.txt\nfile2.txt\nsubdir/")), 90),
        message(7, 320, "s2c", rpc_result(3, text_result("127.0.0.1 localhost\n")), 120)]
    case("ec-rec-004-out-of-order", "Two requests (ids 3 and 4) whose responses come in the other "
         "order (EC-REC-004).", render(counted_footer(ooo)), V,
         reqs=["EC-REC-004", "MRR-JSONRPC-7", "MRR-RECORD-7"], quotes=["ec004", "concurrent"],
         errata=["MRR-E28"], shared=True)
    case("unanswered-request", "The base recording without the last response: the tools/call "
         "request has no response.", render(counted_footer(NF[:5])), V,
         reqs=["MRR-JSONRPC-7", "MRR-NFR-6"], quotes=["nfr003_partial"], errata=["MRR-E28"])
    nid = insert(NF, 6, message(6, 400, "s2c", {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32700, "message": "Parse error"}}))
    case("null-id-error-response", "A server error response whose id is null (JSON-RPC's answer to "
         "a request it could not read): it pairs with no request and is no orphan.",
         render(counted_footer(nid)), V, reqs=["MRR-JSONRPC-7", "MRR-JSONRPC-8"],
         quotes=["rpc_same_id"], errata=["MRR-E28"])
    img = edit_msg(NF, 4, params={"name": "screenshot", "arguments": {"display": 0}})
    img = edit_msg(img, 5, result={"content": [{"type": "image", "data": PNG_1X1,
                                                "mimeType": "image/png"}]})
    case("ec-rec-006-base64-image", "A tools/call response holding a base64 PNG image "
         "(EC-REC-006).", render(counted_footer(img)), V, reqs=["EC-REC-006", "MRR-MESSAGE-5"],
         quotes=["ec006", "ec006_exp", "m_msg"], errata=["MRR-E37"], shared=True)
    prog = [header()] + messages()[:3] + [
        message(4, 200, "c2s", rpc_request(2, "tools/call", dict(READ_PARAMS, _meta={
            "progressToken": "p1"}))),
        message(5, 230, "s2c", rpc_notification("notifications/progress", {
            "progressToken": "p1", "progress": 50, "total": 100})),
        message(6, 260, "s2c", rpc_result(2, text_result("127.0.0.1 localhost\n")), 60)]
    case("s2c-notification-progress", "A progress notification from the server during a tools/call "
         "(before its response).", render(counted_footer(prog)), V,
         reqs=["MRR-MESSAGE-10", "MRR-RECORD-2"], quotes=["s2c", "both_dirs"], errata=["MRR-E27"])
    lc = insert(NF, 6, message(6, 400, "s2c", rpc_notification(
        "notifications/tools/list_changed")))
    case("s2c-notification-list-changed", "A notifications/tools/list_changed from the server after "
         "the last response.", render(counted_footer(lc)), V,
         reqs=["MRR-MESSAGE-10", "MRR-RECORD-2"], quotes=["s2c", "both_dirs"], errata=["MRR-E27"])
    case("response-without-latency", "The base recording whose tools/call response has no "
         "latency_ms.", render(edit(B, 5, latency_ms=DROP)), V,
         reqs=["MRR-MESSAGE-6", "MRR-MESSAGE-8"], quotes=["m_latency", "notif"],
         errata=["MRR-E22"])

    # -- Directions and pairing (flags MRR-E27, MRR-E28).
    samp = [header()] + messages()[:4] + [
        message(5, 210, "s2c", rpc_request("s1", "sampling/createMessage", {
            "messages": [{"role": "user", "content": {"type": "text", "text": "Summarize"}}],
            "maxTokens": 100})),
        message(6, 240, "c2s", rpc_result("s1", {"role": "assistant", "content": {
            "type": "text", "text": "A hosts file."}, "model": "test-model"})),
        message(7, 260, "s2c", rpc_result(2, text_result("127.0.0.1 localhost\n")), 60)]
    case("s2c-request-sampling", "A sampling/createMessage request from the server during a "
         "tools/call, and the client's c2s response to it.", render(counted_footer(samp)), V,
         flag="MRR-E27", readings="VI", quotes=["both_dirs", "c2s", "s2c"])
    c2sr = insert(NF, 6, message(6, 400, "c2s", {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32700, "message": "Parse error"}}))
    case("c2s-response", "A c2s error response with id null (the client could not parse what "
         "the server sent): a response from the client.", render(counted_footer(c2sr)), V,
         flag="MRR-E27", readings="VI", quotes=["both_dirs", "c2s"])
    orph = insert(NF, 6, message(6, 400, "s2c", rpc_result(99, text_result("late"))))
    case("orphan-response", "An s2c response with id 99, which no request in the file has.",
         render(counted_footer(orph)), V, warnings="JSONRPC-7", flag="MRR-E28", readings="VI",
         quotes=["rpc_same_id"])
    orphc = insert(NF, 6, message(6, 400, "c2s", rpc_result("x1", {})))
    case("orphan-client-response", "A c2s response with id \"x1\", which no server request in the "
         "file has.", render(counted_footer(orphc)), V, warnings="JSONRPC-7", flag="MRR-E28",
         readings="VI", quotes=["rpc_same_id", "c2s"], also_split=["MRR-E27"])

    # -- msg as JSON-RPC (flag MRR-E26): one departure each, warnings under ARCS.
    def rpc_case(name, desc, lines, warnings, quotes):
        case(name, desc, render(lines), V, warnings=warnings, flag="MRR-E26", readings="VI",
             quotes=["s_msg"] + quotes, errata=["MRR-E28"], shared=True)
    rpc_case("msg-no-jsonrpc", "The initialized notification without its jsonrpc member.",
             edit_msg(B, 3, jsonrpc=DROP), "JSONRPC-1", ["rpc_version"])
    rpc_case("msg-jsonrpc-1-0", "The initialized notification with \"jsonrpc\": \"1.0\".",
             edit_msg(B, 3, jsonrpc="1.0"), "JSONRPC-1", ["rpc_version"])
    rpc_case("msg-method-number", "The initialized notification with \"method\": 5 (neither a "
             "request, a notification nor a response).", edit_msg(B, 3, method=5),
             "JSONRPC-2 MESSAGE-9", ["rpc_method"])
    rpc_case("msg-params-null", "The tools/call request with \"params\": null.",
             edit_msg(B, 4, params=None), "JSONRPC-5", ["rpc_params"])
    rpc_case("msg-params-string", "The tools/call request with \"params\": \"read_file\".",
             edit_msg(B, 4, params="read_file"), "JSONRPC-5", ["rpc_params"])
    rpc_case("msg-result-and-error", "The tools/call response with both result and a well-formed "
             "error.", edit_msg(B, 5, error={"code": -32000, "message": "failed"}), "JSONRPC-6",
             ["rpc_both"])
    err = edit_msg(B, 5, result=DROP)
    rpc_case("msg-error-code-string", "The tools/call response as an error whose code is the "
             "string \"-32000\".", edit_msg(err, 5, error={"code": "-32000", "message": "failed"}),
             "JSONRPC-8", ["rpc_code"])
    rpc_case("msg-error-code-fraction", "The tools/call response as an error whose code is "
             "-32000.5.", edit_msg(err, 5, error={"code": num("-32000.5"), "message": "failed"}),
             "JSONRPC-8", ["rpc_code"])
    rpc_case("msg-error-not-object", "The tools/call response as an error whose error member is "
             "the string \"failed\".", edit_msg(err, 5, error="failed"), "JSONRPC-8",
             ["rpc_error_obj"])
    rpc_case("msg-id-object", "An extra tools/list request whose id is an object, left "
             "unanswered.", counted_footer(insert(NF, 6, message(6, 400, "c2s", rpc_request(
                 {"n": 3}, "tools/list")))), "JSONRPC-3", ["rpc_id"])
    case("msg-request-id-null", "An extra tools/list request whose id is null, left unanswered: "
         "JSON-RPC allows it and discourages it (a warning).", render(counted_footer(insert(
             NF, 6, message(6, 400, "c2s", rpc_request(None, "tools/list"))))), V,
         warnings="JSONRPC-4", quotes=["s_msg", "rpc_id_null"], errata=["MRR-E26", "MRR-E28"])
    rpc_case("msg-unclassifiable", "An extra c2s msg {\"jsonrpc\": \"2.0\", \"id\": 5} with neither "
             "method nor result nor error.", counted_footer(insert(NF, 6, message(
                 6, 400, "c2s", {"jsonrpc": "2.0", "id": 5}))), "MESSAGE-9", ["rpc_method"])

    # -- latency_ms (flags MRR-E22, MRR-E21).
    case("latency-on-request", "The tools/call request with \"latency_ms\": 5.",
         render(edit(B, 4, latency_ms=5)), V, flag="MRR-E22", readings="VI",
         quotes=["notif", "latency_none", "m_latency"])
    case("latency-on-notification", "The initialized notification with \"latency_ms\": 3.",
         render(edit(B, 3, latency_ms=3)), V, flag="MRR-E22", readings="VI",
         quotes=["notif", "m_latency"])
    case("latency-on-client-response", "A client's c2s response to a server's sampling request, "
         "with \"latency_ms\": 30.", render(counted_footer(edit(samp, 6, latency_ms=30))), V,
         flag="MRR-E22", readings="VI", quotes=["notif", "m_latency"], also_split=["MRR-E27"])
    case("ts-decreasing", "The tools/call request's ts (…00.140Z) before the notification's "
         "(…00.150Z).", render(edit(B, 4, ts=ts(140))), V, flag="MRR-E21", readings="VI",
         quotes=["ordering", "utc_now"])
    case("ts-before-recorded-at", "The first message's ts (09:59:59.950Z) before the header's "
         "recorded_at (10:00:00.000Z).", render(edit(B, 1, ts="2025-02-04T09:59:59.950Z")), V,
         flag="MRR-E21", readings="VI", quotes=["ordering", "utc_now"])
    case("duration-too-short", "A footer whose duration_ms (100) is shorter than the 260 ms from "
         "recorded_at to the last ts.", render(edit(B, 6, duration_ms=100)), V, flag="MRR-E21",
         readings="VI", quotes=["ordering", "f_duration"])
    case("latency-longer-than-ts-gap", "The tools/call response's latency_ms (500) longer than the "
         "60 ms between its request's ts and its own.", render(edit(B, 5, latency_ms=500)), V,
         flag="MRR-E21", readings="VI", quotes=["ordering", "latency_some"])

    # -- Timestamps (flag MRR-E20; readings rfc-3339, chrono-relaxed, utc-designator). A string
    #    that no reading takes for a date-time is invalid, required: both statements say date-time.
    def ts_case(name, desc, value, outcome, errors, readings=None, line=2, quotes=()):
        lines = edit(B, line, **({"ts": value} if line else {"recorded_at": value}))
        case(name, desc, render(lines), outcome, errors, flag="MRR-E20" if readings else None,
             readings=readings, reqs=["MRR-FORMAT-4"],
             quotes=(["m_ts", "s_ts"] if line else ["h_recorded", "s_recorded"]) + list(quotes),
             errata=[] if readings else ["MRR-E20"])
    ts_case("ts-offset", "The initialize response's ts with a +01:00 offset "
            "(2025-02-04T11:00:00.100+01:00, the same instant).", "2025-02-04T11:00:00.100+01:00",
            V, "", "VVI")
    ts_case("ts-space-separator", "The initialize response's ts with a space for T.",
            "2025-02-04 10:00:00.100Z", I, "MESSAGE-3 SCHEMA-21", "IVI")
    ts_case("ts-utc-suffix", "The initialize response's ts ending in \" UTC\" instead of Z.",
            "2025-02-04T10:00:00.100 UTC", I, "MESSAGE-3 SCHEMA-21", "IVI")
    ts_case("ts-no-offset", "The initialize response's ts without an offset.",
            "2025-02-04T10:00:00.100", I, "MESSAGE-3 SCHEMA-21")
    ts_case("ts-impossible-date", "The initialize response's ts on February 30.",
            "2025-02-30T10:00:00.100Z", I, "MESSAGE-3 SCHEMA-21")
    ts_case("recorded-at-offset", "recorded_at with a +01:00 offset (the same instant).",
            "2025-02-04T11:00:00.000+01:00", V, "", "VVI", line=0)
    ts_case("recorded-at-date-only", "recorded_at \"2025-02-04\", a date without a time.",
            "2025-02-04", I, "HEADER-7 SCHEMA-12", line=0)
    ts_case("ts-fraction-9", "The initialize response's ts with nine fraction digits.",
            "2025-02-04T10:00:00.123456789Z", V, "", quotes=["ex_recorded"])
    secs = [header(recorded_at="2025-02-04T10:00:00Z")] + [
        dict(m, ts=f"2025-02-04T10:00:0{i + 1}Z") for i, m in enumerate(messages())]
    case("ts-no-fraction", "Every timestamp without a fraction (whole seconds, Z).",
         render(counted_footer(secs)), V, reqs=["MRR-FORMAT-4", "MRR-HEADER-7", "MRR-MESSAGE-3"],
         quotes=["m_ts", "s_ts", "h_recorded"], errata=["MRR-E20"])
    leap_ts = ["2016-12-31T23:59:59.500Z", "2016-12-31T23:59:60.000Z", "2016-12-31T23:59:60.500Z",
               "2017-01-01T00:00:01.200Z", "2017-01-01T00:00:01.260Z"]
    leap = [header(recorded_at="2016-12-31T23:59:59.000Z")] + [
        dict(m, ts=t) for m, t in zip(messages(), leap_ts)]
    case("ts-leap-second", "A recording across the leap second of 2016-12-31: two messages at "
         "23:59:60Z.", render(counted_footer(leap)), V,
         reqs=["MRR-FORMAT-4", "MRR-MESSAGE-3"], quotes=["m_ts", "s_ts"], errata=["MRR-E20"])
    case("ts-number", "The initialize response's ts as a number of milliseconds.",
         render(edit(B, 2, ts=1738663200100)), I, "MESSAGE-3 SCHEMA-20",
         quotes=["m_ts", "s_ts"], errata=["MRR-E20"])
    case("ts-missing", "The initialize response without ts.", render(edit(B, 2, ts=DROP)), I,
         "MESSAGE-3 SCHEMA-16", quotes=["m_ts", "s_m_required", "timing"], errata=["MRR-E20"])

    # -- The header's fields.
    H = "header line"
    for field, q, sq, errs in (("version", "h_version", "s_h_required", "HEADER-4 SCHEMA-4"),
                               ("recorded_at", "h_recorded", "s_h_required", "HEADER-7 SCHEMA-4"),
                               ("upstream", "h_upstream", "s_h_required", "HEADER-8 SCHEMA-4"),
                               ("thoughtjack_version", "h_tj", "s_h_required", "HEADER-9 SCHEMA-4")):
        case(f"header-missing-{field.replace('_', '-')}", f"The {H} without {field}.",
             render(edit(B, 0, **{field: DROP})), I, errs, quotes=[q, sq],
             reqs=["MRR-FORMAT-7"] if field == "version" else [], shared=True)
    for field, value, what, q, sq, errs in (
            ("version", num("1.0"), "the number 1.0", "h_version", "s_version", "HEADER-4 SCHEMA-6"),
            ("name", 42, "the number 42", "h_name", "s_name", "HEADER-5 SCHEMA-8"),
            ("tags", "regression,filesystem", "the string \"regression,filesystem\"", "h_tags",
             "s_tags", "HEADER-6 SCHEMA-9"),
            ("recorded_at", 1738663200000, "the number 1738663200000", "h_recorded", "s_recorded",
             "HEADER-7 SCHEMA-11"),
            ("upstream", ["npx", "server"], "an array of strings", "h_upstream", "s_upstream",
             "HEADER-8 SCHEMA-13"),
            ("thoughtjack_version", num("0.3"), "the number 0.3", "h_tj", "s_tj",
             "HEADER-9 SCHEMA-14")):
        case(f"wrong-type-header-{field.replace('_', '-')}", f"The {H}'s {field} is {what}.",
             render(edit(B, 0, **{field: value})), I, errs, quotes=[q, sq])
    case("version-2-0", "version \"2.0\" (EC-REC-008): the pattern admits it; the format defines "
         "only \"1.0\".", render(edit(B, 0, version="2.0")), I, "HEADER-3",
         reqs=["EC-REC-008", "MRR-FORMAT-7"], quotes=["ec008", "ex_version", "s_version"],
         errata=["MRR-E17"], shared=True)
    for name, value, what in (("1-0-0", "1.0.0", "\"1.0.0\""), ("1", "1", "\"1\""),
                              ("empty", "", "\"\""), ("v-prefix", "v1.0", "\"v1.0\""),
                              ("leading-space", " 1.0", "\" 1.0\""),
                              ("trailing-newline", "1.0\n", "\"1.0\\n\" (an escaped LF; ECMA 262's "
                               "$ does not match before it)"),
                              ("arabic-indic-digits", "١.٠", "\"١.٠\" (U+0661 U+002E U+0660, not "
                               "ASCII digits; ECMA 262's \\d is [0-9])")):
        case(f"version-{name}", f"version {what}: refused by the schema's pattern, and not \"1.0\".",
             render(edit(B, 0, version=value)), I, "HEADER-3 SCHEMA-7",
             reqs=["EC-REC-008", "MRR-FORMAT-7"], quotes=["ec008", "ex_version", "s_version"],
             errata=["MRR-E17"], shared=True)
    for name, value in (("1-1", "1.1"), ("1-10", "1.10"), ("1-00", "1.00"), ("01-0", "01.0")):
        case(f"version-{name}", f"version \"{value}\": the pattern admits it, major version 1.",
             render(edit(B, 0, version=value)), I, "HEADER-3", flag="MRR-E17", readings="IV",
             quotes=["ec008", "version_field", "s_version", "stable"], shared=True)
    case("name-absent", "A header without name.", render(edit(B, 0, name=DROP)), V,
         reqs=["MRR-HEADER-5"], quotes=["h_name", "s_h_required"], errata=["MRR-E23"])
    case("name-empty", "A header with \"name\": \"\".", render(edit(B, 0, name="")), V,
         reqs=["MRR-HEADER-5"], quotes=["h_name", "s_name"], errata=["MRR-E23"])
    case("tags-absent", "A header without tags.", render(edit(B, 0, tags=DROP)), V,
         reqs=["MRR-HEADER-6"], quotes=["h_tags"], errata=["MRR-E23"])
    case("tags-empty", "A header with \"tags\": [].", render(edit(B, 0, tags=[])), V,
         reqs=["MRR-HEADER-6"], quotes=["h_tags", "s_tags"], errata=["MRR-E23"])
    case("tags-null", "A header with \"tags\": null (serde refuses null for a Vec).",
         render(edit(B, 0, tags=None)), I, "HEADER-6 SCHEMA-9", quotes=["h_tags", "s_tags"],
         errata=["MRR-E23"])
    case("tags-number-element", "A header with \"tags\": [\"regression\", 7].",
         render(edit(B, 0, tags=["regression", 7])), I, "HEADER-6 SCHEMA-10",
         quotes=["h_tags", "s_tags"])
    case("unknown-header-member", "A header with a member the format does not define "
         "(\"x_recorder\": \"ci\").", render(edit(B, 0, x_recorder="ci")), V,
         reqs=["MRR-FORMAT-9"], quotes=["version_field", "h_version"], errata=["MRR-E23"],
         shared=True)
    case("header-with-msg", "A header carrying the msg member §1.4's redaction recipe adds to "
         "every line.", render(edit(B, 0, msg={"params": {"arguments": {
             "password": "[REDACTED]"}}})), V, reqs=["MRR-FORMAT-9"], quotes=["redact"],
         errata=["MRR-E3", "MRR-E23"])

    # -- type (the RecordLine tag).
    case("type-missing", "The initialized notification's line without its type member (no "
         "footer).", render(edit(NF, 3, type=DROP)), I, "FORMAT-8 SCHEMA-2",
         quotes=["enum", "s_oneof"], reqs=["MRR-SCHEMA-5", "MRR-SCHEMA-17", "MRR-SCHEMA-28"])
    case("type-unknown", "An extra line {\"type\": \"comment\", ...} between the messages.",
         render(insert(B, 4, {"type": "comment", "text": "checkpoint"})), I, "FORMAT-8 SCHEMA-2",
         quotes=["enum", "s_oneof"], reqs=["MRR-SCHEMA-5", "MRR-SCHEMA-17", "MRR-SCHEMA-28"])
    case("key-case-seq", "The initialize response with \"Seq\" instead of \"seq\": an unknown "
         "member, and seq missing.", render([dict(("Seq", v) if k == "seq" else (k, v)
                                                  for k, v in o.items()) if i == 2 else o
                                             for i, o in enumerate(B)]), I,
         "MESSAGE-2 SCHEMA-16", reqs=["MRR-FORMAT-9"], quotes=["m_seq", "s_m_required"],
         errata=["MRR-E23"])
    case("escaped-member-name", "The initialize response's seq member written \"s\\u0065q\": "
         "names are compared after unescaping.",
         render(B).replace(b'"seq":2,', b'"s\\u0065q":2,'), V, reqs=["MRR-MESSAGE-2"],
         quotes=["m_seq", "rfc_names"], errata=["MRR-E24"])

    # -- The message's fields.
    for field, q, sq, errs, lines, what in (
            ("seq", "m_seq", "s_m_required", "MESSAGE-2 SCHEMA-16", B, "the initialize response"),
            ("dir", "m_dir", "s_m_required", "MESSAGE-4 SCHEMA-16", NF,
             "the initialized notification (no footer)"),
            ("msg", "m_msg", "s_m_required", "MESSAGE-5 SCHEMA-16", B,
             "the initialized notification")):
        i = 2 if field == "seq" else 3
        case(f"message-missing-{field}", f"{what[0].upper() + what[1:]} without {field}.",
             render(edit(lines, i, **{field: DROP})), I, errs, quotes=[q, sq])
    case("seq-string", "The initialize response's seq as the string \"2\".",
         render(edit(B, 2, seq="2")), I, "MESSAGE-2 SCHEMA-18", quotes=["m_seq", "s_seq"])
    case("seq-negative", "The initialize response's seq -1.", render(edit(B, 2, seq=-1)), I,
         "MESSAGE-2 SCHEMA-19", quotes=["m_seq", "s_seq"])
    case("seq-fraction", "The initialize response's seq 2.5.", render(edit(B, 2, seq=num("2.5"))),
         I, "MESSAGE-2 SCHEMA-18", quotes=["m_seq", "s_seq"])
    for name, value, i, what in (("one-point-zero", "2.0", 2, "the initialize response's seq 2.0"),
                                 ("exponent", "2e0", 2, "the initialize response's seq 2e0"),
                                 ("above-u64", "18446744073709551616", 5,
                                  "the last message's seq 2^64 (one above u64)")):
        case(f"seq-{name}", f"{what[0].upper() + what[1:]}: an integer for draft-07, not a u64 "
             "for serde_json.", render(edit(B, i, seq=num(value))), I, "MESSAGE-2",
             flag="MRR-E2", readings="IIV", quotes=["m_seq", "s_seq"], shared=True)
    case("seq-negative-zero", "The first message's seq -0 (the others 1 to 4): an integer for "
         "draft-07, the integer 0 to a reader of the u64 declared, a float to serde_json.",
         render(edit(base(start=0), 1, seq=num("-0"))), I, "MESSAGE-2", flag="MRR-E48",
         readings="IV", quotes=["m_seq", "s_seq"], also_split=["MRR-E2"])
    case("seq-from-0", "Messages numbered 0 to 4 (the code sketch's counter).",
         render(base(start=0)), V, reqs=["MRR-MESSAGE-2", "MRR-MESSAGE-7"],
         quotes=["fetch_add", "s_seq"], errata=["MRR-E18", "MRR-E19"])
    case("seq-from-1", "Messages numbered 1 to 5 (the F-002 example's numbering).", render(B), V,
         reqs=["MRR-MESSAGE-2", "MRR-MESSAGE-7"], quotes=["ex_seq", "s_seq"],
         errata=["MRR-E18", "MRR-E19"])
    case("seq-starts-at-5", "Messages numbered 5 to 9.", render(base(start=5)), V,
         flag="MRR-E18", readings="VI", quotes=["ex_seq", "fetch_add", "s_seq", "seq_range"])
    case("seq-starts-at-large", "Messages numbered 2^64-5 to 2^64-1 (the last is u64's maximum).",
         render(base(start=U64_MAX - 4)), V, reqs=["MRR-MESSAGE-2"], flag="MRR-E18",
         readings="VI", quotes=["ex_seq", "fetch_add", "s_seq"])
    for name, seqs, readings, errs, what in (
            ("gap", [1, 2, 4, 5, 6], "VIVV", "", "1, 2, 4, 5, 6 (a gap)"),
            ("repeat", [1, 2, 2, 3, 4], "IIIV", "MESSAGE-7", "1, 2, 2, 3, 4 (a repeat)"),
            ("decrease", [1, 3, 2, 4, 5], "IIVV", "MESSAGE-7", "1, 3, 2, 4, 5 (a decrease)"),
            ("merged-restart", [1, 2, 3, 1, 2], "IIIV", "MESSAGE-7",
             "1, 2, 3, 1, 2 (two runs each from 1)")):
        lines = [header()] + [dict(m, seq=s) for m, s in zip(messages(), seqs)]
        case(f"seq-{name}", f"Messages numbered {what}.", render(counted_footer(lines)),
             "I" if errs else "V", errs, flag="MRR-E19", readings=readings,
             quotes=["fetch_add", "ordering", "seq_range"])
    case("dir-uppercase", "The initialized notification's dir \"C2S\" (no footer).",
         render(edit(NF, 3, dir="C2S")), I, "MESSAGE-4 SCHEMA-22", quotes=["direction", "s_dir"])
    case("wrong-type-message-dir", "The initialized notification's dir 0 (no footer).",
         render(edit(NF, 3, dir=0)), I, "MESSAGE-4 SCHEMA-22", quotes=["direction", "s_dir"])
    case("msg-string", "The initialized notification's msg as a string.",
         render(edit(B, 3, msg="notifications/initialized")), I, "SCHEMA-23", flag="MRR-E2",
         readings="IVI", reqs=["MRR-MESSAGE-5"], quotes=["m_msg", "s_msg"], shared=True)
    case("msg-null", "The initialized notification's msg null.", render(edit(B, 3, msg=None)), I,
         "SCHEMA-23", flag="MRR-E2", readings="IVI", reqs=["MRR-MESSAGE-5"],
         quotes=["m_msg", "s_msg"], shared=True)
    batch = NF[:4] + [
        message(4, 200, "c2s", [rpc_request(2, "tools/call", READ_PARAMS),
                                rpc_request(3, "tools/list")]),
        message(5, 260, "s2c", [rpc_result(2, text_result("127.0.0.1 localhost\n")),
                                rpc_result(3, {"tools": []})])]
    case("msg-array-batch", "A c2s JSON-RPC batch (an array of two requests) and the s2c batch of "
         "their responses, each a message's msg.", render(counted_footer(batch)), I, "SCHEMA-23",
         flag="MRR-E2", readings="IVI", reqs=["MRR-JSONRPC-9", "MRR-MESSAGE-5"],
         quotes=["m_msg", "s_msg", "rpc_batch"], shared=True)
    case("msg-extra-members", "A request and a response with members JSON-RPC does not define "
         "(\"x_trace\", \"_meta\").",
         render(edit_msg(edit_msg(B, 4, x_trace="abc"), 5, _meta={"cached": True})), V,
         reqs=["MRR-FORMAT-9", "MRR-MESSAGE-5"], quotes=["m_msg", "lossless"],
         errata=["MRR-E23", "MRR-E26"])
    case("latency-negative", "The tools/call response's latency_ms -1.",
         render(edit(B, 5, latency_ms=-1)), I, "MESSAGE-6 SCHEMA-25",
         quotes=["m_latency", "s_latency"])
    case("wrong-type-message-latency-ms", "The tools/call response's latency_ms as the string "
         "\"60\".", render(edit(B, 5, latency_ms="60")), I, "MESSAGE-6 SCHEMA-24",
         quotes=["m_latency", "s_latency"])
    case("latency-null", "The tools/call response's latency_ms null (serde reads None).",
         render(edit(B, 5, latency_ms=None)), I, "SCHEMA-24", flag="MRR-E2", readings="IVI",
         reqs=["MRR-MESSAGE-6"], quotes=["m_latency", "s_latency"], shared=True)
    case("latency-one-point-zero", "The tools/call response's latency_ms 60.0.",
         render(edit(B, 5, latency_ms=num("60.0"))), I, "MESSAGE-6", flag="MRR-E2",
         readings="IIV", quotes=["m_latency", "s_latency"], shared=True)
    case("unknown-message-member", "The tools/call request's line with a member the format does "
         "not define (\"x_note\": \"retry\").", render(edit(B, 4, x_note="retry")), V,
         reqs=["MRR-FORMAT-9"], quotes=["m_seq"], errata=["MRR-E23"], shared=True)
    case("name-null", "A header with \"name\": null (serde reads None).",
         render(edit(B, 0, name=None)), I, "SCHEMA-8", flag="MRR-E2", readings="IVI",
         reqs=["MRR-HEADER-5"], quotes=["h_name", "s_name"], shared=True)

    # -- The footer's fields.
    for field, sq, rid, sid in (("total_messages", "s_total", "FOOTER-4", "SCHEMA-29"),
                                ("duration_ms", "s_duration", "FOOTER-5", "SCHEMA-31"),
                                ("client_messages", "s_client", "FOOTER-6", "SCHEMA-33"),
                                ("server_messages", "s_server", "FOOTER-7", "SCHEMA-35")):
        q = {"total_messages": "f_total", "duration_ms": "f_duration",
             "client_messages": "f_client", "server_messages": "f_server"}[field]
        slug = field.replace("_", "-")
        case(f"footer-missing-{slug}", f"A footer without {field}.",
             render(edit(B, 6, **{field: DROP})), I, f"{rid} SCHEMA-27", quotes=[q, "s_f_required"])
        value = str(B[6][field])
        case(f"wrong-type-footer-{slug}", f"A footer whose {field} is the string \"{value}\".",
             render(edit(B, 6, **{field: value})), I, f"{rid} {sid}", quotes=[q, sq])
    case("footer-duration-negative", "A footer whose duration_ms is -1.",
         render(edit(B, 6, duration_ms=-1)), I, "FOOTER-5 SCHEMA-32",
         quotes=["f_duration", "s_duration"])
    # A boolean is neither a JSON Schema integer nor a u64, though a Python bool is an int;
    # duration_ms, which nothing else checks, shows a validator that takes it for one.
    case("footer-duration-true", "A footer whose duration_ms is true.",
         render(edit(B, 6, duration_ms=True)), I, "FOOTER-5 SCHEMA-31",
         quotes=["f_duration", "s_duration"])
    case("footer-counts-negative", "A footer whose total_messages, client_messages and "
         "server_messages are -1.", render(edit(B, 6, total_messages=-1, client_messages=-1,
                                               server_messages=-1)), I,
         "FOOTER-4 FOOTER-6 FOOTER-7 SCHEMA-30 SCHEMA-34 SCHEMA-36",
         quotes=["f_total", "f_client", "f_server", "s_total", "s_client", "s_server"])
    case("footer-count-one-point-zero", "A footer whose total_messages is written 5.0.",
         render(edit(B, 6, total_messages=num("5.0"))), I, "FOOTER-4", flag="MRR-E2",
         readings="IIV", quotes=["f_total", "s_total"], shared=True)
    case("unknown-footer-member", "A footer with a member the format does not define "
         "(\"x_exit\": \"clean\").", render(edit(B, 6, x_exit="clean")), V, reqs=["MRR-FORMAT-9"],
         quotes=["final"], errata=["MRR-E23"], shared=True)
    for name, counts, what in (("total-wrong", (6, 3, 2), "total_messages 6 (the file holds 5)"),
                               ("client-count-wrong", (5, 4, 2), "client_messages 4 (3 c2s)"),
                               ("server-count-wrong", (5, 3, 1), "server_messages 1 (2 s2c)"),
                               ("counts-sum-wrong", (5, 2, 1), "client_messages 2 and "
                                "server_messages 1, whose sum is not total_messages 5 (which "
                                "matches the file)")):
        case(f"footer-{name}", f"A footer with {what}.", render(edit(
            B, 6, total_messages=counts[0], client_messages=counts[1], server_messages=counts[2])),
            V, warnings="FOOTER-3", flag="MRR-E15", readings="VI", quotes=["final", "ex_footer"])

    # -- Repeated member names (flags MRR-E2, MRR-E24).
    def dup(text, old, new):
        assert old in text
        return text.replace(old, new, 1)
    bt = render(B).decode("utf-8")
    case("dup-seq", "The initialize response's line with \"seq\": 2 written twice (serde's derive "
         "refuses a duplicate field; Python's json keeps the last).",
         dup(bt, '"seq":2,', '"seq":2,"seq":2,').encode(), I, "MESSAGE-2", "JSON-4",
         flag="MRR-E2", readings="IIV", quotes=["m_seq", "rfc_names"], errata=["MRR-E24"],
         shared=True)
    case("dup-type", "The initialize response's line with \"type\": \"message\" written twice (a "
         "duplicate tag for serde).", dup(bt, '"type":"message","seq":2,',
                                          '"type":"message","type":"message","seq":2,').encode(),
         I, "FORMAT-8", "JSON-4", flag="MRR-E2", readings="IIV", quotes=["enum", "rfc_names"],
         errata=["MRR-E24"], shared=True)
    case("dup-version", "The header with \"version\": \"1.0\" written twice.",
         dup(bt, '"version":"1.0",', '"version":"1.0","version":"1.0",').encode(), I,
         "HEADER-4", "JSON-4", flag="MRR-E2", readings="IIV", quotes=["h_version", "rfc_names"],
         errata=["MRR-E24"], shared=True)
    case("dup-in-result", "The tools/call response's result with \"isError\" written twice "
         "(false, then true).", dup(bt, '"text":"127.0.0.1 localhost\\n"}]}',
                                    '"text":"127.0.0.1 localhost\\n"}],"isError":false,'
                                    '"isError":true}').encode(), V, warnings="JSON-4",
         flag="MRR-E24", readings="VVI", quotes=["rfc_names", "m_msg"], shared=True)
    two = NF[:4] + [
        message(4, 200, "c2s", rpc_request(2, "tools/call", READ_PARAMS)),
        message(5, 210, "c2s", rpc_request(3, "tools/call", {"name": "read_file",
                                                             "arguments": {"path": "/etc/passwd"}})),
        message(6, 300, "s2c", rpc_result(3, text_result("root:x:0:0:root:/root:/bin/bash\n")),
                90),
        message(7, 320, "s2c", rpc_result(2, text_result("127.0.0.1 localhost\n")), 120)]
    tt = render(counted_footer(two)).decode("utf-8")
    case("dup-id-in-response", "Requests with ids 2 and 3, then a response whose id is written "
         "twice (2, then 3) answering the second request, then the response with id 2: with the "
         "last id both responses pair; with the first, the last response is an orphan.",
         dup(tt, '"msg":{"jsonrpc":"2.0","id":3,"result"',
             '"msg":{"jsonrpc":"2.0","id":2,"id":3,"result"').encode(), V, warnings="JSON-4",
         flag="MRR-E24", readings="VVI", quotes=["rfc_names", "rpc_same_id"], shared=True)
    case("dup-escaped-name", "The tools/call request's params with \"name\" written twice, the "
         "second time escaped (\"\\u006eame\": \"write_file\").",
         dup(bt, '"params":{"name":"read_file","arguments":{"path":"/etc/hosts"}}',
             '"params":{"name":"read_file","arguments":{"path":"/etc/hosts"},'
             '"\\u006eame":"write_file"}').encode(), V, warnings="JSON-4", flag="MRR-E24",
         readings="VVI", quotes=["rfc_names"], shared=True)

    # -- The text: BOM, line ends, blank lines, final newline (MRR-E6 to MRR-E10).
    case("bom", "The base recording after a UTF-8 byte order mark.", BOM + render(B), I,
         "JSON-3", flag="MRR-E6", readings="IV", quotes=["rfc_bom", "rfc_bom_may", "ndjson"],
         shared=True)
    case("bom-second-line", "A U+FEFF (EF BB BF) at the start of line 4, the notification (no "
         "footer): not JSON whitespace.", render(NF).replace(b'\n{"type":"message","seq":3',
                                                            b'\n\xef\xbb\xbf{"type":"message","seq":3'),
         I, "JSON-1", reqs=["MRR-JSON-3"], quotes=["rfc_bom", "ndjson"], errata=["MRR-E6"],
         shared=True)
    case("crlf", "The base recording with CRLF line ends.", render(B, eol="\r\n"), V,
         reqs=["MRR-JSON-6", "MRR-FORMAT-1"], quotes=["nd_text", "nd_crlf"], errata=["MRR-E7"],
         shared=True)
    mixed = b"".join(l + (b"\r\n" if i % 2 else b"\n")
                     for i, l in enumerate(render(B).split(b"\n")[:-1]))
    case("mixed-line-endings", "The base recording with LF and CRLF line ends alternating.",
         mixed, V, reqs=["MRR-JSON-6", "MRR-FORMAT-1"], quotes=["nd_text", "nd_crlf"],
         errata=["MRR-E7"], shared=True)
    lines = render(B).split(b"\n")
    case("space-before-object", "Two spaces before the notification's object.",
         b"\n".join(lines[:3] + [b"  " + lines[3]] + lines[4:]), V, flag="MRR-E7", readings="VI",
         quotes=["one", "nd_text"], shared=True)
    case("tab-after-object", "A tab after the notification's object.",
         b"\n".join(lines[:3] + [lines[3] + b"\t"] + lines[4:]), V, flag="MRR-E7", readings="VI",
         quotes=["one", "nd_text"], shared=True)
    case("cr-inside-line", "A carriage return between two members of the notification's object: "
         "JSON whitespace, which NDJSON's JSON texts may not hold.",
         b"\n".join(lines[:3] + [lines[3].replace(b',"seq"', b',\r"seq"', 1)] + lines[4:]), I,
         "JSON-2", reqs=["MRR-JSON-2"], quotes=["nd_text"], errata=["MRR-E7"])
    nfl = render(NF).split(b"\n")
    case("blank-line-between", "An empty line between the initialize response and the "
         "notification.", b"\n".join(lines[:3] + [b""] + lines[3:]), I, "JSON-1", flag="MRR-E8",
         readings="IV", quotes=["one", "nd_empty"], shared=True)
    case("blank-line-at-end", "The recording without footer, followed by an empty line (LF LF at "
         "the end).", render(NF) + b"\n", I, "JSON-1", flag="MRR-E8", readings="IV",
         quotes=["one", "nd_empty"], shared=True)
    case("blank-line-before-header", "An empty line before the header.", b"\n" + render(B), I,
         "JSON-1", flag="MRR-E8", readings="IV", quotes=["one", "nd_empty", "line1"], shared=True)
    case("spaces-only-line", "A line of spaces and a tab between the initialize response and the "
         "notification.", b"\n".join(lines[:3] + [b"   \t"] + lines[3:]), I, "JSON-1",
         flag="MRR-E8", readings="IV", quotes=["one", "nd_empty"], shared=True)
    case("no-final-newline-response", "The recording without footer whose last line, the "
         "tools/call response, has no LF after it.", render(NF, final=False), I, "JSON-2",
         flag="MRR-E9", readings="IVI", quotes=["nd_text", "ec002"], shared=True)
    case("no-final-newline-footer", "The base recording whose footer has no LF after it.",
         render(B, final=False), I, "JSON-2", flag="MRR-E9", readings="IVI",
         quotes=["nd_text", "ec002"], shared=True)
    cut = dumps(message(6, 300, "c2s", rpc_request(3, "tools/call", READ_PARAMS)))
    cut = cut[:cut.index('"method"') + 5]
    case("truncated-mid-message", "The recording without footer followed by a sixth message cut "
         "off mid-line, with no LF (a crash while recording: EC-REC-002).",
         render(NF) + cut.encode(), I, "JSON-1", flag="MRR-E49", readings="IV",
         reqs=["EC-REC-002", "MRR-FORMAT-2", "MRR-NFR-6", "NFR-003"],
         quotes=["one", "nfr003", "ec002", "ec002_exp", "validates", "nfr003_partial"],
         errata=["MRR-E10"], shared=True)
    fl = render(B).split(b"\n")
    case("truncated-mid-footer", "The base recording whose footer is cut off after "
         "\"total_messages\":5, (no LF).",
         b"\n".join(fl[:6]) + b"\n" + fl[6][:fl[6].index(b'"duration_ms"')], I, "JSON-1",
         flag="MRR-E49", readings="IV", reqs=["EC-REC-002", "MRR-FORMAT-2", "NFR-003"],
         quotes=["one", "nfr003", "ec002", "ec002_exp", "validates", "nfr003_partial"],
         errata=["MRR-E10"], shared=True)
    case("truncated-header-only", "A header cut off mid-line, with no LF, and nothing else.",
         fl[0][:60], I, "HEADER-1 JSON-1", reqs=["EC-REC-002", "MRR-FORMAT-3"],
         quotes=["ec002", "line1"], errata=["MRR-E10", "MRR-E12", "MRR-E49"], shared=True)
    case("corrupt-middle-line", "The notification's line cut off mid-object but ended with LF, "
         "the other lines whole (no footer).",
         b"\n".join(nfl[:3] + [nfl[3][:70]] + nfl[4:]), I, "JSON-1",
         reqs=["MRR-JSON-9"], quotes=["ec002", "validates"], errata=["MRR-E10"], shared=True)
    case("corrupt-final-line-with-lf", "The recording without footer followed by a sixth message "
         "cut off mid-line and then an LF.", render(NF) + cut.encode() + b"\n", I, "JSON-1",
         reqs=["EC-REC-002", "MRR-FORMAT-2", "NFR-003"], quotes=["one", "nfr003", "ec002", "ec002_exp"],
         errata=["MRR-E10"], shared=True)

    # -- JSON text (MRR-E4, MRR-E5).
    def line_case(name, desc, new_line, reqs=()):
        case(name, desc + " inserted after the initialize response.",
             b"\n".join(lines[:3] + [new_line] + lines[3:]), I, "JSON-1",
             reqs=["MRR-FORMAT-2"] + list(reqs), quotes=["one", "nd_text"], errata=["MRR-E4"],
             shared=True)
    not_object = ["MRR-SCHEMA-3", "MRR-SCHEMA-15", "MRR-SCHEMA-26"]
    line_case("line-syntax-error", "A line {\"type\":\"message\",\"seq\":} (a syntax error)",
              b'{"type":"message","seq":}')
    line_case("line-array", "A line holding a JSON array", b'["not","an","object"]', not_object)
    line_case("line-string", "A line holding a JSON string", b'"header"', not_object)
    line_case("line-null", "A line holding null", b"null", not_object)
    line_case("line-nan", "A line {\"type\":\"comment\",\"value\":NaN}",
              b'{"type":"comment","value":NaN}')
    line_case("line-comment", "A line // recorded by hand", b"// recorded by hand")
    case("line-raw-tab-in-string", "The tools/call response's text holding a raw tab (0x09) "
         "(no footer).", raw_line("localhost", b"local\thost", NF, 5), I, "JSON-1",
         reqs=["MRR-FORMAT-2"], quotes=["one", "nd_text"], errata=["MRR-E4"], shared=True)
    case("line-trailing-garbage", "The notification's line followed by \" x\" (no footer).",
         b"\n".join(nfl[:3] + [nfl[3] + b" x"] + nfl[4:]), I, "JSON-1",
         reqs=["MRR-FORMAT-2"], quotes=["one", "nd_text"], errata=["MRR-E4"], shared=True)
    case("pretty-printed", "The base recording with each object pretty-printed over several "
         "lines, as `jq .` writes it.", "".join(jq_pretty(o) + "\n" for o in B).encode(), I,
         "HEADER-1 JSON-1", reqs=["NFR-003", "MRR-FORMAT-2"], quotes=["one", "nfr003"],
         errata=["MRR-E4"], shared=True)
    case("two-objects-one-line", "The initialize response and the notification on one line (no "
         "footer).", b"\n".join(nfl[:2] + [nfl[2] + nfl[3]] + nfl[4:]), I, "JSON-1",
         reqs=["MRR-FORMAT-2", "NFR-003"], quotes=["one", "nfr003"], errata=["MRR-E4"],
         shared=True)
    for name, bad, what in (("stray", b"\x80", "a stray continuation byte (80)"),
                            ("overlong", b"\xc0\xaf", "an overlong encoding of '/' (C0 AF)"),
                            ("encoded-surrogate", b"\xed\xa0\x80",
                             "a UTF-8-encoded surrogate (ED A0 80, a raw lone surrogate)")):
        case(f"invalid-utf8-{name}", f"The tools/call response's text holding {what} (no "
             "footer).", raw_line("localhost", b"local" + bad + b"host", NF, 5), I, "JSON-1",
             reqs=["MRR-JSON-1"], quotes=["rfc_utf8", "ndjson"], errata=["MRR-E5"], shared=True)
    case("invalid-utf8-utf16", "The base recording encoded as UTF-16LE with a byte order mark.",
         b"\xff\xfe" + render(B).decode("utf-8").encode("utf-16-le"), I, "HEADER-1 JSON-1",
         quotes=["rfc_utf8", "ndjson"], errata=["MRR-E5"], shared=True)
    case("non-ascii-raw", "Non-ASCII text written raw in UTF-8: a Cyrillic member name and text "
         "in German, Japanese and an emoji.",
         render(edit_msg(NF, 5, result={"content": [{"type": "text", "text": "Grüße, 東京 🎉"}],
                                        "ключ": "значение"})), V,
         reqs=["MRR-JSON-1", "EC-REC-006"], quotes=["rfc_utf8", "ec006_exp"], errata=["MRR-E5"],
         shared=True)
    case("non-ascii-escaped", "The same text written with \\u escapes (an astral character as a "
         "surrogate pair of escapes).", render(NF[:5]) + (dumps(NF[5], ascii_only=False).replace(
             "127.0.0.1 localhost\\n", "Gr\\u00fc\\u00dfe, \\u6771\\u4eac \\ud83c\\udf89") +
             "\n").encode(), V, reqs=["MRR-JSON-1", "EC-REC-006"],
         quotes=["rfc_utf8", "ec006_exp"], errata=["MRR-E5"], shared=True)
    case("astral-pair", "A member name outside the BMP written raw (\"𝒳\") whose value is an "
         "astral character as a pair of escapes (\\ud834\\udd1e).",
         render(NF[:5]) + (dumps(edit_msg(NF, 5, result={"content": [], "𝒳": "@@astral@@"})[5])
                           .replace("@@astral@@", "\\ud834\\udd1e") + "\n").encode(), V,
         reqs=["MRR-JSON-1"], quotes=["rfc_utf8"], errata=["MRR-E5"], shared=True)
    case("nul-escaped", "The tools/call response's text holding an escaped NUL (\\u0000).",
         render(edit_msg(B, 5, result=text_result("a\u0000b"))), V, reqs=["MRR-JSON-1"],
         quotes=["ndjson", "ec006_exp"], errata=["MRR-E5"])
    case("nul-raw", "The tools/call response's text holding a raw NUL byte (no footer).",
         raw_line("localhost", b"local\x00host", NF, 5), I, "JSON-1", reqs=["MRR-FORMAT-2"],
         quotes=["ndjson", "nd_text"], errata=["MRR-E4", "MRR-E5"])
    case("lone-surrogate-in-msg", "The tools/call response's text holding the escape \\ud800 "
         "alone (no footer): grammatical JSON, refused by serde_json.",
         render(NF).replace(b"localhost\\n", b"localhost\\ud800"), I, "JSON-1", flag="MRR-E48",
         readings="IV", reqs=["MRR-MESSAGE-5"], quotes=["m_msg", "rfc_utf8"],
         errata=["MRR-E5"], shared=True, also_split=["MRR-E2"])
    case("lone-surrogate-in-upstream", "The header's upstream ending in the escape \\udc00 alone: "
         "serde_json cannot read the header line.",
         render(B).replace(b"/tmp\",", b"/tmp\\udc00\","), I, "HEADER-1 JSON-1", flag="MRR-E48",
         readings="IV", reqs=["MRR-HEADER-8"], quotes=["h_upstream", "rfc_utf8"],
         errata=["MRR-E5"], shared=True, also_split=["MRR-E2"])
    case("number-1e400-in-msg", "The tools/call response's result holding the number 1e400 (no "
         "footer): beyond the doubles, serde_json's \"number out of range\".",
         render(edit_msg(NF, 5, result={"content": [], "score": num("1e400")})), I, "JSON-1",
         flag="MRR-E48", readings="IV", reqs=["MRR-MESSAGE-5"], quotes=["m_msg"],
         errata=["MRR-E5"], shared=True, also_split=["MRR-E2"])
    case("numbers-odd-in-msg", "The tools/call response's result holding 2^64, -0, 1e-400 and "
         "1.0000000000000001: numbers serde_json::Value reads (as doubles).",
         render(edit_msg(B, 5, result={"content": [], "big": num("18446744073709551616"),
                                       "negzero": num("-0"), "tiny": num("1e-400"),
                                       "long": num("1.0000000000000001")})), V,
         reqs=["MRR-MESSAGE-5"], quotes=["m_msg"], errata=["MRR-E2", "MRR-E37"])

    # -- Limits (MRR-E25). The line's object is depth 1, msg 2, result 3.
    def deep(d):
        """The base recording without footer whose last line nests to depth d."""
        return render(edit_msg(NF, 5, result=nest(d - 3)))
    case("depth-over-limit", "The last line nested to depth 17, with max_json_depth 16.",
         deep(17), I, "JSON-5", reqs=["MRR-JSON-5"], quotes=["rfc_limits"], errata=["MRR-E25"],
         limits={"max_json_depth": 16}, shared=True)
    case("depth-at-limit", "The last line nested to depth 16, with max_json_depth 16.", deep(16),
         V, reqs=["MRR-JSON-5"], quotes=["rfc_limits"], errata=["MRR-E25"],
         limits={"max_json_depth": 16}, shared=True)
    case("deep-msg-100", "The last line nested to depth 100 (no limit given).", deep(100), V,
         reqs=["MRR-JSON-5"], quotes=["rfc_limits"], errata=["MRR-E25"], shared=True)
    case("depth-128-at-limit-128", "The last line nested to depth 128, with max_json_depth 128 "
         "(ARCS's default).", deep(128), V, reqs=["MRR-JSON-5"], quotes=["rfc_limits"],
         errata=["MRR-E25"], limits={"max_json_depth": 128})
    case("depth-129-over-limit-128", "The last line nested to depth 129, with max_json_depth 128 "
         "(ARCS's default).", deep(129), I, "JSON-5", reqs=["MRR-JSON-5"], quotes=["rfc_limits"],
         errata=["MRR-E25"], limits={"max_json_depth": 128})
    last = dumps(NF[5])
    pad = 4097 - len(last.encode())
    case("line-over-limit", "The last line 4,097 bytes long (a long text), with max_line_bytes "
         "4096.", render(NF[:5]) + last.replace("localhost", "localhost" + "x" * pad).encode()
         + b"\n", I, "JSON-5", reqs=["MRR-JSON-5"], quotes=["rfc_limits"], errata=["MRR-E25"],
         limits={"max_line_bytes": 4096}, shared=True)


cases()


# ----------------------------------------------------------------------------------------------
# From the hand-written cases to manifest cases, checked against the model.

def outcomes_by_flag(raw, limits):
    """{flag: {reading: outcome}} for every flag, each reading applied alone (the others ARCS)."""
    out = {}
    for flag, readings in FLAG_READINGS.items():
        out[flag] = {r: verdict(evaluate(raw, {flag: r}, limits)[0]) for r in readings}
    return out


def spec_text(quotes, errata):
    text = "; ".join(dict.fromkeys(Q[k] for k in quotes))
    ids = sorted(set(errata), key=lambda e: int(e.split("E")[-1]))
    return text + ("; " if text else "") + "errata " + ", ".join(ids)


def build_case(d, raw=None):
    """The manifest case of a hand-written case (raw: other bytes for its recording), and the
    problems found checking it against the model."""
    raw = d["bytes"] if raw is None else raw
    problems = []
    cid = PREFIX + d["name"]
    errors, warnings = evaluate(raw, {}, d["limits"])
    errors, warnings = sorted(errors), sorted(warnings)
    if verdict(errors) != d["outcome"]:
        problems.append(f"{cid}: written {d['outcome']}, the model gives {verdict(errors)} "
                        f"({errors})")
    if errors != d["errors"] or warnings != d["warnings"]:
        problems.append(f"{cid}: written errors {d['errors']} warnings {d['warnings']}, the model "
                        f"gives errors {errors} warnings {warnings}")
    by_flag = outcomes_by_flag(raw, d["limits"])
    split = sorted(f for f, outs in by_flag.items() if len(set(outs.values())) > 1)
    expected_split = sorted(([d["flag"]] if d["flag"] else []) + d["also_split"])
    if split != expected_split:
        problems.append(f"{cid}: the case says flag {d['flag']} (also {d['also_split']}), the "
                        f"readings split it by {split or 'none'}")
    if d["flag"]:
        written = dict(zip(FLAG_READINGS[d["flag"]],
                           ({"V": "valid", "I": "invalid"}[c] for c in d["readings"])))
        if written != by_flag[d["flag"]]:
            problems.append(f"{cid}: readings of {d['flag']} written {written}, the model gives "
                            f"{by_flag[d['flag']]}")
        expect = {"flag": d["flag"], "readings": written, "arcs": ARCS[d["flag"]]}
    else:
        expect = {"outcome": d["outcome"]}
    reqs = set(d["reqs"]) | set(errors) | set(warnings) | set(ALWAYS_REQS)
    if d["flag"]:
        reqs |= set(FLAG_REQS.get(d["flag"], []))
    if d["limits"]:
        reqs.add("MRR-JSON-5")
    errata = list(ALWAYS_ERRATA) + d["errata"] + ([d["flag"]] if d["flag"] else [])
    validate = {"requirements": sorted(reqs),
                "spec_text": spec_text(d["quotes"] + ALWAYS_QUOTES, errata),
                "expect": expect,
                "rules": {"errors": errors, "warnings": warnings}}
    path = f"cases/{d['name']}/recording.jsonl"
    c = {"id": cid, "description": d["desc"], "inputs": {"recording": path}}
    if d["limits"]:
        c["args"] = {"limits": dict(d["limits"])}
    c["operations"] = {"validate": validate}
    c["files"] = {path: raw}
    return c, problems


def build_cases(overrides=None):
    """(cases, problems). overrides: {case id: recording bytes} another module supplies for an id
    it shares; the validate expectation is then checked against those bytes."""
    overrides = overrides or {}
    out, problems = [], []
    names = [d["name"] for d in DEFS]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        problems.append(f"case names used twice: {dups}")
    for d in DEFS:
        c, p = build_case(d, overrides.get(PREFIX + d["name"]))
        out.append(c)
        problems += p
    return out, problems


RECORDINGS = {d["name"]: d["bytes"] for d in DEFS}
SHARED = sorted(PREFIX + d["name"] for d in DEFS if d["shared"])


def __getattr__(name):
    # CASES is built on first use (the model runs every reading of every case).
    if name == "CASES":
        cases_, _ = build_cases()
        globals()["CASES"] = cases_
        return cases_
    raise AttributeError(name)


if __name__ == "__main__":
    built, found = build_cases()
    for p in found:
        print("problem: " + p)
    print(f"{len(built)} validate cases, {len(found)} problems")
    sys.exit(1 if found else 0)
