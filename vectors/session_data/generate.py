#!/usr/bin/python3
"""Writes the SessionData test vectors: every input under cases/ and manifest.json.

    python3 vectors/session_data/generate.py           (re)write cases/, manifest.json and
                                                        schemas/session_data/session.schema.json
    python3 vectors/session_data/generate.py --check   exit 1 if a file on disk differs
    python3 vectors/session_data/generate.py --flags   print the cases of each errata flag

The spec states the format twice (conformance/session_data/errata.md, SD-E1): the Go types with
Validate() (the `rules` statement) and a JSON Schema (the `schema` statement). Every case carries
the verdict of each statement; an implementation declares the statement it enforces (policy
`statement`: rules | schema | both).

Where each verdict comes from:
  - schema: computed here with Python jsonschema (Draft202012Validator, the RFC 3339 date-time
    checker of schemas/crosscheck_lib.py registered) from the schema READ OUT of the JSON Schema
    code block of ../shared/specs/session-data.md (never retyped). The block is also written, byte
    for byte, to schemas/session_data/session.schema.json. Without the spec, --check verifies the
    files but cannot recompute the schema verdicts (it says so);
  - rules: each case states by hand the ARCS rules verdict and why (one line). It is checked
    against go_decode() + go_validate() below, a literal model of what the spec's Go types do
    under encoding/json (case-insensitive keys, null leaves the zero value, type errors, numbers
    in interface{} as float64, ill-formed UTF-8 replaced) followed by the Validation list. A
    disagreement fails the run: re-read the spec;
  - readings: every errata flag (FLAGS) names its readings as switches of those two models; a
    case whose outcomes differ between the readings of a flag must carry that flag (and only one
    flag may split a case). The expectation is then an acceptable set whose readings are split by
    the statement choices (`<reading>-<choice>`, vectors/README.md "SessionData").

Checks run on every invocation (and fail --check): quotations in ../shared/specs/session-data.md
(when found), the ARCS outcome against rules.errors, the hand-written rules verdicts against the Go
model. Cited ids and errata entries are the loader's and the catalogue test's to check
(conformance/vectors.cc, conformance/catalogue_test.cc), on every committed manifest.
"""

import copy
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "schemas"))
sys.path.insert(0, os.path.dirname(HERE))  # vectors/: generated_files
import generated_files  # noqa: E402
import manifest_lib  # noqa: E402
from crosscheck_lib import is_rfc3339_date_time  # noqa: E402

import jsonschema  # noqa: E402

CATALOGUE = os.path.join(ROOT, "conformance", "session_data", "requirements.json")
SCHEMA_OUT = os.path.join(ROOT, "schemas", "session_data", "session.schema.json")
CASES = os.path.join(HERE, "cases")
MANIFEST = os.path.join(HERE, "manifest.json")
SPEC_CANDIDATES = [os.path.join(ROOT, "..", "shared", "specs", "session-data.md"),
                   os.path.join(ROOT, "..", "..", "shared", "specs", "session-data.md")]
CHOICES = ("rules", "schema", "both")


# ----------------------------------------------------------------------------------------------
# The spec and its schema block.

def find_spec():
    for p in SPEC_CANDIDATES + [os.environ.get("ARCS_SPECS", "") + "/session-data.md"]:
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                return f.read()
    return None


def schema_block(spec_text):
    """The text between the JSON Schema section's ```json fence and its closing fence."""
    m = re.search(r"^## JSON Schema\n\n```json\n(.*?)^```", spec_text, re.S | re.M)
    if not m:
        raise SystemExit("session-data.md: no ```json block under '## JSON Schema'")
    return m.group(1)


def example_blocks(spec_text):
    """{heading: json text} for every ```json block under '## Examples'."""
    part = spec_text.split("## Examples", 1)[1].split("## Provider Implementation Notes", 1)[0]
    return {m.group(1): m.group(2)
            for m in re.finditer(r"^### (.+?)\n\n```json\n(.*?)^```", part, re.S | re.M)}


def make_checker():
    checker = jsonschema.FormatChecker(formats=())
    checker.checks("date-time")(is_rfc3339_date_time)
    return checker


# ----------------------------------------------------------------------------------------------
# Parsing. Objects are kept as Obj (a list of (name, value) pairs, in order) so that repeated
# names and their order survive; numbers as Num (their text).

class Obj(list):
    pass


class Num(str):
    pass


class NotJson(Exception):
    pass


def _const(name):
    raise NotJson(name + " is not JSON")


def parse_pairs(text):
    """RFC 8259 grammar (Python's json without NaN/Infinity): the value with Obj and Num."""
    try:
        return json.loads(text, object_pairs_hook=Obj, parse_constant=_const,
                          parse_int=Num, parse_float=Num)
    except NotJson:
        raise
    except RecursionError:
        raise NotJson("nested too deeply for Python's parser")
    except ValueError as e:
        raise NotJson(str(e))


def decode_text(raw, utf8):
    """The JSON text of the bytes: 'strict' refuses ill-formed UTF-8, 'replace' substitutes U+FFFD
    (what encoding/json does). A leading BOM is kept (the parser then refuses it)."""
    try:
        return raw.decode("utf-8", errors="strict" if utf8 == "strict" else "replace")
    except UnicodeDecodeError as e:
        raise NotJson("ill-formed UTF-8: " + str(e))


def to_plain(v, dup):
    """Obj trees to dicts: dup 'last' keeps the last member of a repeated name (Python's json),
    'first' the first, 'refuse' raises NotJson."""
    if isinstance(v, Obj):
        out = {}
        for k, x in v:
            if k in out:
                if dup == "refuse":
                    raise NotJson("repeated member name " + repr(k))
                if dup == "first":
                    continue
            out[k] = to_plain(x, dup)
        return out
    if isinstance(v, list):
        return [to_plain(x, dup) for x in v]
    if isinstance(v, Num):
        return json.loads(v)  # int or float (1e400 is inf: a number to the schema)
    return v


def has_duplicates(v):
    if isinstance(v, Obj):
        names = [k for k, _ in v]
        if len(names) != len(set(names)):
            return True
        return any(has_duplicates(x) for _, x in v)
    if isinstance(v, list):
        return any(has_duplicates(x) for x in v)
    return False


def has_lone_surrogate(v):
    if isinstance(v, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in v)
    if isinstance(v, Obj):
        return any(has_lone_surrogate(k) or has_lone_surrogate(x) for k, x in v)
    if isinstance(v, list):
        return any(has_lone_surrogate(x) for x in v)
    return False


def depth(v):
    if isinstance(v, Obj):
        return 1 + max([depth(x) for _, x in v] or [0])
    if isinstance(v, list):
        return 1 + max([depth(x) for x in v] or [0])
    return 0


# ----------------------------------------------------------------------------------------------
# The rules statement: the spec's Go types under encoding/json, then Validate().

STR, PSTR, MAP = "string", "*string", "map"
TYPES = {
    "SessionData": [("schemaVersion", STR, "SD-TOP-1"), ("provider", ("struct", "ProviderInfo"), "SD-TOP-2"),
                    ("sessionId", STR, "SD-TOP-3"), ("createdAt", STR, "SD-TOP-4"),
                    ("updatedAt", STR, "SD-TOP-5"), ("slug", STR, "SD-TOP-6"),
                    ("workspaceRoot", STR, "SD-TOP-7"),
                    ("exchanges", ("slice", ("struct", "Exchange")), "SD-TOP-8")],
    "ProviderInfo": [("id", STR, "SD-PROVIDER-1"), ("name", STR, "SD-PROVIDER-2"),
                     ("version", STR, "SD-PROVIDER-3")],
    "Exchange": [("exchangeId", STR, "SD-EXCHANGE-1"), ("startTime", STR, "SD-EXCHANGE-2"),
                 ("endTime", STR, "SD-EXCHANGE-3"),
                 ("messages", ("slice", ("struct", "Message")), "SD-EXCHANGE-4"),
                 ("metadata", MAP, "SD-EXCHANGE-5")],
    "Message": [("id", STR, "SD-MESSAGE-1"), ("timestamp", STR, "SD-MESSAGE-2"),
                ("role", STR, "SD-MESSAGE-3"), ("model", STR, "SD-MESSAGE-4"),
                ("content", ("slice", ("struct", "ContentPart")), "SD-MESSAGE-5"),
                ("tool", ("ptr", "ToolInfo"), "SD-MESSAGE-6"),
                ("pathHints", ("slice", STR), "SD-MESSAGE-7"), ("metadata", MAP, "SD-MESSAGE-8")],
    "ContentPart": [("type", STR, "SD-CONTENT-1"), ("text", STR, "SD-CONTENT-2")],
    "ToolInfo": [("name", STR, "SD-TOOL-1"), ("type", STR, "SD-TOOL-2"), ("useId", STR, "SD-TOOL-3"),
                 ("input", MAP, "SD-TOOL-4"), ("output", MAP, "SD-TOOL-5"),
                 ("summary", PSTR, "SD-TOOL-6"), ("formattedMarkdown", PSTR, "SD-TOOL-7")],
}
TOOL_TYPES = ("write", "read", "search", "shell", "task", "generic", "unknown")
FLOAT64_MAX = 1.7976931348623157e308


def go_fold(name):
    """encoding/json's folded form of a name: ASCII upper case; other runes ToUpper(ToLower(r))
    (so U+017F LONG S folds to 'S' and U+212A KELVIN SIGN to 'K')."""
    out = []
    for c in name:
        if ord(c) < 128:
            out.append(c.upper())
        else:
            lo = c.lower() if len(c.lower()) == 1 else c
            up = lo.upper() if len(lo.upper()) == 1 else lo
            out.append(up)
    return "".join(out)


def zero(t):
    if t == STR:
        return ""
    if isinstance(t, tuple) and t[0] == "struct":
        return {"_present": set(), **{f: zero(ft) for f, ft, _ in TYPES[t[1]]}}
    return None


class GoDecoder:
    """modes: keys 'fold'|'exact'; null 'zero'|'wrong'; numbers 'float64'|'any'."""

    def __init__(self, modes):
        self.m = modes
        self.errors = set()

    def value(self, v, t, cur, rid):
        if v is None:
            if self.m["null"] == "wrong":
                self.errors.add(rid)
                return cur
            if t == STR or (isinstance(t, tuple) and t[0] == "struct"):
                return cur  # null has no effect on a string or a struct
            return None  # slice, map, pointer: nil
        if t == STR or t == PSTR:
            if isinstance(v, str) and not isinstance(v, Num):
                return str(v)
            self.errors.add(rid)
            return cur
        if t == MAP:
            if not isinstance(v, Obj):
                self.errors.add(rid)
                return cur
            out = dict(cur or {})
            for k, x in v:
                self.check_any(x, rid)
                out[k] = x
            return out
        kind = t[0]
        if kind == "slice":
            if not isinstance(v, list) or isinstance(v, Obj):
                self.errors.add(rid)
                return cur
            return [self.value(x, t[1], zero(t[1]), rid) for x in v]
        if kind in ("struct", "ptr"):
            if not isinstance(v, Obj):
                self.errors.add(rid)
                return cur
            base = cur if cur is not None else zero(("struct", t[1]))
            return self.struct(v, t[1], base)
        raise AssertionError(t)

    def check_any(self, x, rid):
        """interface{}: every JSON value, numbers as float64 (out of range: UnmarshalTypeError)."""
        if isinstance(x, Num):
            if self.m["numbers"] == "float64" and abs(float(x)) > FLOAT64_MAX:
                self.errors.add(rid)
        elif isinstance(x, Obj):
            for _, y in x:
                self.check_any(y, rid)
        elif isinstance(x, list):
            for y in x:
                self.check_any(y, rid)

    def struct(self, obj, tname, base):
        out = dict(base)
        out["_present"] = set(base.get("_present", set()))
        out["_keys"] = set(base.get("_keys", set()))
        fields = TYPES[tname]
        exact = {f[0]: f for f in fields}
        folded = {go_fold(f[0]): f for f in fields}
        for k, v in obj:
            f = exact.get(k)
            if f is None and self.m["keys"] == "fold":
                f = folded.get(go_fold(k))
            if f is None:
                continue  # unknown members are ignored
            name, t, rid = f
            out[name] = self.value(v, t, out.get(name, zero(t)), rid)
            if v is not None:
                out["_present"].add(name)
            out["_keys"].add(name)
        for name, t, _ in fields:
            out.setdefault(name, zero(t))
        return out


def go_validate(s, modes):
    """The Validation list on the decoded SessionData; modes: zero 'absent'|'present', text
    'len'|'text', required 'validate'|'table'."""
    e = set()
    empty = (lambda x: not x) if modes["zero"] == "absent" else (lambda x: x is None)
    if s["schemaVersion"] != "1.0":
        e.add("SD-VALIDATE-1")
    p = s["provider"]
    if not (p["id"] and p["name"] and p["version"]):
        e.add("SD-VALIDATE-2")
    if not (s["sessionId"] and s["createdAt"] and s["workspaceRoot"]):
        e.add("SD-VALIDATE-3")
    if modes["required"] == "table" and "exchanges" not in s.get("_keys", ()):
        e.add("SD-TOP-16")
    for x in s["exchanges"] or []:
        if not x["exchangeId"]:
            e.add("SD-VALIDATE-4")
        if modes["required"] == "table" and "messages" not in x.get("_keys", ()):
            e.add("SD-EXCHANGE-7")
        for m in x["messages"] or []:
            role = m["role"]
            if role not in ("user", "agent"):
                e.add("SD-VALIDATE-5")
            content = m["content"]
            if role == "user":
                no_content = not content
                if modes["text"] == "text" and content and all(not c["text"] for c in content):
                    no_content = True
                has_model = m["model"] != "" if modes["zero"] == "absent" else "model" in m["_present"]
                if no_content or m["tool"] is not None or has_model:
                    e.add("SD-VALIDATE-6")
            if role == "agent" and empty(content) and m["tool"] is None and empty(m["pathHints"]):
                e.add("SD-VALIDATE-7")
            for c in content or []:
                if c["type"] not in ("text", "thinking"):
                    e.add("SD-VALIDATE-8")
                if modes["required"] == "table" and "text" not in c.get("_keys", ()):
                    e.add("SD-CONTENT-3")
            t = m["tool"]
            if t is not None:
                if not t["name"]:
                    e.add("SD-VALIDATE-9")
                if t["type"] not in TOOL_TYPES:
                    e.add("SD-VALIDATE-10")
    return e


def timestamps_go(s):
    out = [s["createdAt"], s["updatedAt"]]
    for x in s["exchanges"] or []:
        out += [x["startTime"], x["endTime"]]
        out += [m["timestamp"] for m in x["messages"] or []]
    return [t for t in out if t]


def timestamps_plain(d):
    out = []
    if isinstance(d, dict):
        for k in ("createdAt", "updatedAt"):
            if isinstance(d.get(k), str):
                out.append(d[k])
        for x in d.get("exchanges") or []:
            if isinstance(x, dict):
                out += [x[k] for k in ("startTime", "endTime") if isinstance(x.get(k), str)]
                for m in x.get("messages") or []:
                    if isinstance(m, dict) and isinstance(m.get("timestamp"), str):
                        out.append(m["timestamp"])
    return out


_ISO_EXT = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?"
                      r"(Z|[+-]\d{2}(?::?\d{2})?)?")
_ISO_BASIC = re.compile(r"(\d{4})(\d{2})(\d{2})T(\d{2})(?:(\d{2})(?:(\d{2})(?:[.,]\d+)?)?)?"
                        r"(Z|[+-]\d{2}(?:\d{2})?)?")


def is_iso8601_date_time(s):
    """ISO 8601 date and time of day, extended or basic format, reduced precision allowed, local
    time (no designator) allowed, hour 24 only as 24:00:00; uppercase T and Z (reading
    prose-iso-8601 of SD-E13)."""
    import datetime
    m = _ISO_EXT.fullmatch(s) or _ISO_BASIC.fullmatch(s)
    if not m:
        return False
    y, mo, d, h = (int(m.group(i)) for i in range(1, 5))
    mi = int(m.group(5) or 0)
    se = int(m.group(6) or 0)
    try:
        datetime.date(y if y > 0 else 2000, mo, d)
    except ValueError:
        return False
    if m.group(7) and m.group(7)[0] == "-" and not m.group(7).strip("-:0"):
        return False  # a zero offset is "+" (ISO 8601:2004 3.4.2); "-00:00" is RFC 3339's own
    if h == 24:
        return mi == 0 and se == 0
    return h <= 23 and mi <= 59 and se <= 60


def is_absolute(p):
    return p.startswith("/") or bool(re.match(r"[A-Za-z]:[\\/]", p)) or p.startswith("\\\\")


def slug_safe(s):
    return not (re.search(r'[/\\<>:"|?*\x00-\x1f\x7f]', s) or s in (".", ".."))


def rfc_instant(s):
    import datetime
    if not is_rfc3339_date_time(s):
        return None
    t = s.upper().replace("Z", "+00:00")
    t = re.sub(r":60", ":59", t)
    try:
        return datetime.datetime.fromisoformat(t)
    except ValueError:
        return None


def prose_findings(s):
    """What the prose says of a decoded session (Go values): {flag: rule id}."""
    out = {}
    ids = [x["exchangeId"] for x in s["exchanges"] or [] if x["exchangeId"]]
    if len(ids) != len(set(ids)):
        out["SD-E17"] = "SD-NOTES-8"
    if not is_absolute(s["workspaceRoot"]):
        out["SD-E18"] = "SD-TOP-15"
    if s["slug"] and not slug_safe(s["slug"]):
        out["SD-E19"] = "SD-TOP-14"
    for x in s["exchanges"] or []:
        for m in x["messages"] or []:
            if any(re.search(r"[*?\[]", h) for h in m["pathHints"] or [] if isinstance(h, str)):
                out["SD-E20"] = "SD-NOTES-4"
    pairs = [(s["createdAt"], s["updatedAt"])]
    pairs += [(x["startTime"], x["endTime"]) for x in s["exchanges"] or []]
    for a, b in pairs:
        ta, tb = rfc_instant(a or ""), rfc_instant(b or "")
        if ta and tb and tb < ta:
            out["SD-E21"] = "SD-NOTES-7"
    return out


# ----------------------------------------------------------------------------------------------
# Readings. ARCS is the reference's reading of every flag; each flag's readings override it.

ARCS = dict(bom="reject", utf8_rules="replace", utf8_schema="strict", surrogate="grammar",
            dup="as-decoded", keys="fold", null="zero", required="validate", numbers="float64",
            zero="absent", text="len", dt="assertion", E17="prose", E18="statements",
            E19="statements", E20="statements", E21="statements")

FLAGS = {
    "SD-E7": [("bom-not-json", {}), ("bom-ignored", {"bom": "ignore"})],
    "SD-E8": [("go-replaces", {}), ("utf-8-required", {"utf8_rules": "strict"}),
              ("replace-everywhere", {"utf8_schema": "replace"})],
    "SD-E10": [("go-folding", {}), ("exact-names", {"keys": "exact"})],
    "SD-E11": [("null-as-zero", {}), ("null-is-wrong-type", {"null": "wrong"})],
    "SD-E12": [("validate-list", {}), ("table-required", {"required": "table"})],
    "SD-E13": [("assertion", {}), ("annotation", {"dt": "annotation"}),
               ("prose-iso-8601", {"dt": "iso"}), ("prose-rfc-3339", {"dt": "rfc"})],
    "SD-E14": [("go-float64", {}), ("json-number", {"numbers": "any"})],
    "SD-E15": [("go-zero-absent", {}), ("present-member", {"zero": "present"})],
    "SD-E16": [("array-length", {}), ("text-nonempty", {"text": "text"})],
    "SD-E17": [("prose-binds", {}), ("statements-only", {"E17": "statements"})],
    "SD-E18": [("statements-only", {}), ("prose-binds", {"E18": "prose"})],
    "SD-E19": [("statements-only", {}), ("prose-binds", {"E19": "prose"})],
    "SD-E20": [("statements-only", {}), ("prose-binds", {"E20": "prose"})],
    "SD-E21": [("statements-only", {}), ("prose-binds", {"E21": "prose"})],
    "SD-E22": [("as-decoded", {}), ("first-wins", {"dup": "first"}), ("last-wins", {"dup": "last"}),
               ("refuse", {"dup": "refuse"})],
    "SD-E28": [("grammar", {}), ("unicode-text", {"surrogate": "refuse"})],
}


class Verdicts:
    """Both statements' verdicts on one input under one set of modes, with ARCS's rule ids."""

    def __init__(self, raw, modes, validator_assert, validator_annot, schema_ids, limits):
        self.rules_ids, self.schema_ids, self.prose_ids, self.warnings = set(), set(), set(), set()
        self.rules_ok = self.schema_ok = False
        m = modes
        data = raw
        # A BOM refused is a finding of its own; the text after it is judged all the same.
        if data.startswith(b"\xef\xbb\xbf"):
            if m["bom"] == "reject":
                self.rules_ids.add("SD-JSON-1")
                self.schema_ids.add("SD-JSON-1")
            data = data[3:]
        # Limits decide first: the implementation refuses the file (SD-JSON-3).
        try:
            tree = parse_pairs(decode_text(data, "replace"))
            if limits and depth(tree) > limits.get("max_json_depth", 1 << 62):
                self.rules_ids = self.schema_ids = {"SD-JSON-3"}
                return
        except NotJson:
            pass
        # Rules: Go's decoder, then Validate().
        decoded = None
        try:
            tree = parse_pairs(decode_text(data, m["utf8_rules"]))
            if m["surrogate"] == "refuse" and has_lone_surrogate(tree):
                raise NotJson("lone surrogate")
            if m["dup"] == "refuse" and has_duplicates(tree):
                raise NotJson("repeated name")
            if m["dup"] == "first":
                tree = first_wins(tree)
            if m["dup"] == "last":
                tree = last_wins(tree)
            if tree is None:
                decoded = zero(("struct", "SessionData"))  # null: no effect on the struct
            elif not isinstance(tree, Obj):
                self.rules_ids.add("SD-JSON-1")
            else:
                dec = GoDecoder(m)
                s = dec.struct(tree, "SessionData", {"_present": set()})
                if dec.errors:
                    self.rules_ids |= dec.errors
                else:
                    decoded = s
        except NotJson:
            self.rules_ids.add("SD-JSON-1")
        prose = {}
        if decoded is not None:
            self.rules_ids |= go_validate(decoded, m)
            ts = timestamps_go(decoded)
            if m["dt"] == "iso":
                if not all(is_iso8601_date_time(t) for t in ts):
                    self.rules_ids.add("SD-NOTES-5")
            if m["dt"] == "rfc":
                if not all(is_rfc3339_date_time(t) for t in ts):
                    self.rules_ids.add("SD-NOTES-5")
            prose = prose_findings(decoded)
        # Schema: Python's json, jsonschema.
        doc, parsed = None, False
        try:
            try:
                text = decode_text(data, m["utf8_schema"])
            except NotJson:
                # No JSON text for the schema; the value with bytes replaced is judged all the
                # same (what replace-everywhere refuses is refused under every reading).
                self.schema_ids.add("SD-JSON-1")
                text = decode_text(data, "replace")
            tree = parse_pairs(text)
            if m["surrogate"] == "refuse" and has_lone_surrogate(tree):
                raise NotJson("lone surrogate")
            if has_duplicates(tree) and m["dup"] == "as-decoded":
                self.warnings.add("SD-JSON-2")
            doc = to_plain(tree, {"as-decoded": "last", "first": "first", "last": "last",
                                  "refuse": "refuse"}[m["dup"]])
            parsed = True
        except NotJson:
            self.schema_ids.add("SD-JSON-1")
        if parsed:
            v = validator_annot if m["dt"] == "annotation" else validator_assert
            for err in v.iter_errors(doc):
                self.schema_ids.add(schema_ids(err))
            if m["dt"] == "iso" and not all(is_iso8601_date_time(t) for t in timestamps_plain(doc)):
                self.schema_ids.add("SD-NOTES-5")
        # Prose: ARCS's errors, or a flag's prose-binds reading, bind both statements.
        for flag, rid in prose.items():
            key = flag.replace("SD-", "")
            if flag in ("SD-E18", "SD-E19"):
                self.warnings.add(rid)
            if m[key] == "prose":
                self.prose_ids.add(rid)
        self.rules_ok = not (self.rules_ids or self.prose_ids)
        self.schema_ok = not (self.schema_ids or self.prose_ids)

    def outcomes(self):
        v = lambda ok: "valid" if ok else "invalid"  # noqa: E731
        return {"rules": v(self.rules_ok), "schema": v(self.schema_ok),
                "both": v(self.rules_ok and self.schema_ok)}


def first_wins(v):
    if isinstance(v, Obj):
        seen, out = set(), Obj()
        for k, x in v:
            if k in seen:
                continue
            seen.add(k)
            out.append((k, first_wins(x)))
        return out
    if isinstance(v, list):
        return [first_wins(x) for x in v]
    return v


def last_wins(v):
    """Each repeated name's last member, whole (no merging of objects as encoding/json does)."""
    if isinstance(v, Obj):
        last = {k: i for i, (k, _) in enumerate(v)}
        return Obj((k, last_wins(x)) for i, (k, x) in enumerate(v) if last[k] == i)
    if isinstance(v, list):
        return [last_wins(x) for x in v]
    return v


# ----------------------------------------------------------------------------------------------
# Building inputs.

def dumps(d):
    return (json.dumps(d, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def base():
    return {
        "schemaVersion": "1.0",
        "provider": {"id": "claude", "name": "Claude Code", "version": "1.0.0"},
        "sessionId": "sess-0001",
        "createdAt": "2025-01-01T00:00:00Z",
        "workspaceRoot": "/home/test/project",
        "exchanges": [{
            "exchangeId": "ex_0",
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Hello"}]},
                {"role": "agent", "content": [{"type": "text", "text": "Hi"}]},
            ],
        }],
    }


BASE_TEXT = dumps(base()).decode("utf-8")


def mut(fn):
    d = base()
    fn(d)
    return dumps(d)


def msg(d, i=0, j=0):
    return d["exchanges"][i]["messages"][j]


def raw(old, new, count=1):
    """The base text with one piece replaced (the piece must occur)."""
    assert old in BASE_TEXT, old
    return BASE_TEXT.replace(old, new, count).encode("utf-8")


def wrap_messages(msgs, exchange=None):
    d = base()
    d["exchanges"][0]["messages"] = msgs
    if exchange is not None:
        d["exchanges"] = [exchange]
    return d


# ----------------------------------------------------------------------------------------------
# Quotations (§<heading>: "...").

Q = {
    "go_top": '§SessionData (Top-Level): "type SessionData struct {"',
    "sv": '§Validation: "- `schemaVersion` must be `\\"1.0\\"`"',
    "prov": '§Validation: "- `provider.id`, `provider.name`, `provider.version` must be non-empty"',
    "nonempty": '§Validation: "- `sessionId`, `createdAt`, `workspaceRoot` must be non-empty"',
    "exid": '§Validation: "- Each exchange must have non-empty `exchangeId`"',
    "role": '§Validation: "- Each message must have valid `role` (`\\"user\\"` or `\\"agent\\"`)"',
    "user": '§Validation: "- User messages must have non-empty `content` and cannot have `tool` or `model`"',
    "agent": '§Validation: "- Agent messages must have at least one of: `content`, `tool`, or `pathHints`"',
    "ctype": '§Validation: "- `contentPart.type` must be `\\"text\\"` or `\\"thinking\\"`"',
    "tname": '§Validation: "- `tool.name` must be non-empty"',
    "ttype": '§Validation: "- `tool.type` must be one of the valid types"',
    "validate": '§Validation: "The `SessionData.Validate()` method checks all constraints and logs warnings via `slog`. It returns `true` if valid, `false` otherwise."',
    "conform": '§Go Types Reference: "All providers must produce data conforming to these types."',
    "s_top_ap": '§JSON Schema: "\\"title\\": \\"Session Data\\", \\"type\\": \\"object\\", \\"additionalProperties\\": false,"',
    "s_top_req": '§JSON Schema: "\\"required\\": [\\"schemaVersion\\", \\"provider\\", \\"sessionId\\", \\"createdAt\\", \\"workspaceRoot\\", \\"exchanges\\"],"',
    "s_prov_id": '§JSON Schema: "\\"id\\": { \\"type\\": \\"string\\", \\"enum\\": [\\"claude\\", \\"cursor\\", \\"codex\\", \\"gemini\\"] },"',
    "s_created": '§JSON Schema: "\\"createdAt\\": { \\"type\\": \\"string\\", \\"format\\": \\"date-time\\" },"',
    "s_ex_req": '§JSON Schema: "\\"required\\": [\\"exchangeId\\", \\"messages\\"],"',
    "s_cp_req": '§JSON Schema: "\\"required\\": [\\"type\\", \\"text\\"],"',
    "s_msg_ap": '§JSON Schema: "\\"message\\": { \\"type\\": \\"object\\", \\"additionalProperties\\": true,"',
    "s_tool_ap": '§JSON Schema: "\\"toolInfo\\": { \\"type\\": \\"object\\", \\"additionalProperties\\": true,"',
    "s_draft": '§JSON Schema: "\\"$schema\\": \\"https://json-schema.org/draft/2020-12/schema\\","',
    "iso_notes": '§Timestamps: "- All timestamps must be ISO 8601 format"',
    "iso_go": '§SessionData (Top-Level): "CreatedAt string `json:\\"createdAt\\"` // ISO 8601 timestamp (required)"',
    "unique": '§Exchange IDs: "- Must be unique within the session"',
    "abs": '§SessionData (Top-Level): "| `workspaceRoot` | Yes | Absolute path to the project directory |"',
    "slug": '§SessionData (Top-Level): "| `slug` | No | Human-readable, filename-safe name (e.g., `\\"fix-login-bug\\"`) |"',
    "glob": '§PathHints: "- Do not expand glob patterns into `pathHints` - keep patterns in `tool.input`"',
    "paths": '§PathHints: "- Paths can be absolute or relative to `workspaceRoot`"',
    "order_ts": '§Timestamps: "- Use `createdAt` for session start, `updatedAt` for last modification"',
    "user_c": '§Message Constraints: "- Must have non-empty `content` - Cannot have `tool` field - Cannot have `model` field"',
    "agent_c": '§Message Constraints: "- Must have at least one of: `content`, `tool`, or `pathHints`"',
    "exchanges_row": '§SessionData (Top-Level): "| `exchanges` | Yes | Array of conversational turns |"',
    "messages_row": '§Exchange: "| `messages` | Yes | Ordered array of messages |"',
    "versioning": '§Versioning: "- Backward-compatible additions allowed (new optional properties)"',
    "current": '§Versioning: "- Current version: `\\"1.0\\"`"',
    "prov_table": '§ProviderInfo: "| `claude` | Claude Code |"',
    "tool_types": '§Tool Types: "| `unknown` | Unrecognized tools | Any unrecognized tool name |"',
    "r1": '§Markdown Rendering: "1. Process messages in order (user → agent → agent ...)"',
    "r2": '§Markdown Rendering: "2. Render `content` parts as text (detect and format code blocks)"',
    "r3": '§Markdown Rendering: "3. Show tool uses with type/name and list any `pathHints`"',
    "r4": '§Markdown Rendering: "4. Use `thinking` content type for collapsible/styled reasoning sections"',
    "r5": '§Markdown Rendering: "5. If `formattedMarkdown` is present, use it; otherwise render from `input`/`output`"',
    "r0": '§Markdown Rendering: "A single renderer consumes `exchanges[].messages[]`:"',
    "rfc8259_utf8": 'RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"',
    "rfc8259_bom": 'RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text. In the interests of interoperability, implementations that parse JSON texts MAY ignore the presence of a byte order mark rather than treating it as an error."',
    "rfc8259_names": 'RFC 8259 §4: "The names within an object SHOULD be unique."',
    "rfc8259_limits": 'RFC 8259 §9: "An implementation may set limits on the maximum depth of nesting."',
    "rfc8259_text": 'RFC 8259 §2: "A JSON text is a serialized value."',
    "rfc8259_nan": 'RFC 8259 §6: "Numeric values that cannot be represented in the grammar below '
                   '(such as Infinity and NaN) are not permitted."',
}

# Which catalogue ids a flag's cases cite (besides the rule ids).
FLAG_REQS = {"SD-E7": ["SD-JSON-1"], "SD-E8": ["SD-JSON-1"], "SD-E10": ["SD-TOP-17"],
             "SD-E11": ["SD-TOP-17"], "SD-E12": ["SD-EXCHANGE-7", "SD-TOP-16", "SD-CONTENT-3"],
             "SD-E13": ["SD-NOTES-5", "SD-TOP-12", "SD-SCHEMA-1"], "SD-E14": ["SD-TOP-17"],
             "SD-E15": ["SD-MESSAGE-11", "SD-MESSAGE-12"], "SD-E16": ["SD-MESSAGE-9"],
             "SD-E17": ["SD-NOTES-8"], "SD-E18": ["SD-TOP-15"], "SD-E19": ["SD-TOP-14"],
             "SD-E20": ["SD-NOTES-4"], "SD-E21": ["SD-NOTES-7"], "SD-E22": ["SD-JSON-2"],
             "SD-E28": ["SD-JSON-1"]}

CASE_LIST = []


def case(cid, desc, data, rules, why, reqs=(), quotes=(), errata=(), flag=None, render=None,
         limits=None):
    CASE_LIST.append(dict(id="session-data-" + cid, name=cid, desc=desc, bytes=data, rules=rules,
                          why=why, reqs=list(reqs), quotes=list(quotes), errata=list(errata),
                          flag=flag, render=render, limits=limits))


# ----------------------------------------------------------------------------------------------
# The cases. rules: the ARCS verdict of the rules statement (Go's decoder and Validate(), the
# ARCS readings), written by hand with its reason; everything else is computed.

V, I = "valid", "invalid"


def cases(spec):
    ex = example_blocks(spec) if spec else None

    # -- The spec's examples, verbatim (from the spec when found; the committed bytes otherwise).
    def example(name, heading, wrap):
        if ex is None:
            with open(os.path.join(CASES, name, "session.json"), "rb") as f:
                return f.read()
        text = ex[heading]
        if wrap is None:
            return text.encode("utf-8")
        return wrap(text).encode("utf-8")

    def in_session(messages_text):
        head = BASE_TEXT.split('"messages": [')[0]
        return head + '"messages": [\n' + messages_text.rstrip("\n") + "\n      ]\n    }\n  ]\n}\n"

    def as_exchange(exchange_text):
        head = BASE_TEXT.split('"exchanges": [')[0]
        return head + '"exchanges": [\n' + exchange_text.rstrip("\n") + "\n  ]\n}\n"

    user_text = '{"role": "user", "content": [{"type": "text", "text": "Go on"}]},\n'
    case("example-minimal-session", "The spec's Minimal Session example, verbatim.",
         example("example-minimal-session", "Minimal Session", None), V,
         "every Validate() rule holds; exchanges is an empty slice.",
         ["SD-TOP-9", "SD-TOP-10", "SD-TOP-11", "SD-TOP-12", "SD-TOP-15", "SD-TOP-16"],
         [Q["go_top"]], ["SD-E29"], render=True)
    case("example-user-message", "The spec's User Message example, verbatim, as the only message of "
         "a minimal session's one exchange (the wrapping is ARCS's).",
         example("example-user-message", "User Message", in_session), V,
         "a user message with non-empty content.", ["SD-MESSAGE-9"], [Q["user_c"]], ["SD-E29"],
         render=True)
    case("example-agent-text", "The spec's Agent Text Response example, verbatim, after a user "
         "message in a minimal session (the wrapping is ARCS's).",
         example("example-agent-text", "Agent Text Response",
                 lambda t: in_session(user_text + t)), V,
         "an agent message with content and a model.", ["SD-MESSAGE-12", "SD-MESSAGE-13"],
         [Q["agent_c"]], ["SD-E29"], render=True)
    case("example-agent-thinking", "The spec's Agent Thinking example, verbatim, after a user "
         "message in a minimal session (the wrapping is ARCS's).",
         example("example-agent-thinking", "Agent Thinking", lambda t: in_session(user_text + t)),
         V, "a thinking part is valid content.", ["SD-CONTENT-3"], [Q["r4"]], ["SD-E29"],
         render=True)
    case("example-agent-tool-use", "The spec's Agent Tool Use example, verbatim, after a user "
         "message in a minimal session (the wrapping is ARCS's).",
         example("example-agent-tool-use", "Agent Tool Use", lambda t: in_session(user_text + t)),
         V, "an agent message with a tool and pathHints.", ["SD-TOOL-8", "SD-TOOL-9"],
         [Q["r3"]], ["SD-E29"], render=True)
    case("example-complete-exchange", "The spec's Complete Exchange example, verbatim, as the one "
         "exchange of a minimal session (the wrapping is ARCS's).",
         example("example-complete-exchange", "Complete Exchange", as_exchange), V,
         "user, agent text, agent tool: every rule holds.", ["SD-EXCHANGE-6"], [Q["r1"]],
         ["SD-E29"], render=True)
    case("example-full-session", "The spec's Full Session Example, verbatim.",
         example("example-full-session", "Full Session Example", None), V,
         "every rule holds; updatedAt and slug are set.", ["SD-TOP-13", "SD-TOP-14", "SD-NOTES-9"],
         [Q["go_top"]], ["SD-E29"], render=True)

    # -- Perfect files.
    case("base", "The ARCS base session: one exchange, a user and an agent text message.",
         dumps(base()), V, "every rule holds.", [], [Q["validate"]], render=True)
    for pid in ("cursor", "codex", "gemini"):
        case(f"provider-{pid}", f"provider.id \"{pid}\", a listed provider.",
             mut(lambda d, p=pid: d["provider"].update(id=p)), V, "any non-empty id.",
             ["SD-PROVIDER-4"], [Q["prov_table"]])
    case("provider-other-display-name", "provider.name \"My Claude\", not the table's display name.",
         mut(lambda d: d["provider"].update(name="My Claude")), V, "any non-empty name.",
         ["SD-PROVIDER-4"], [Q["prov_table"]])
    for tt in TOOL_TYPES:
        case(f"tool-type-{tt}", f"An agent tool use of type \"{tt}\".",
             mut(lambda d, t=tt: msg(d, 0, 1).update(tool={"name": "T1", "type": t})), V,
             "a valid tool type and a non-empty name.", ["SD-TOOL-8"], [Q["tool_types"]],
             render=True if tt in ("shell", "unknown") else None)
    case("tool-type-name-mismatch", "A tool named \"Write\" typed \"shell\".",
         mut(lambda d: msg(d, 0, 1).update(tool={"name": "Write", "type": "shell"})), V,
         "the type is one of the seven; no rule ties it to the name.", ["SD-TOOL-8"],
         [Q["tool_types"]], ["SD-E24"])
    case("tool-all-members", "A tool with useId, input, output, summary and formattedMarkdown.",
         mut(lambda d: msg(d, 0, 1).update(tool={
             "name": "Bash", "type": "shell", "useId": "u1", "input": {"command": "ls"},
             "output": {"stdout": "a\nb\n", "exit_code": 0}, "summary": "List files",
             "formattedMarkdown": "**ls** listed 2 files"})), V, "every member decodes.",
         ["SD-TOOL-10", "SD-TOOL-11", "SD-TOOL-12"], [Q["r5"]], render=True)
    case("tool-summary-empty", "tool.summary \"\" (a present, empty *string).",
         mut(lambda d: msg(d, 0, 1).update(tool={"name": "Read", "type": "read", "summary": ""})),
         V, "summary has no rule.", ["SD-TOOL-6"], [Q["r5"]])
    case("agent-tool-only", "An agent message with a tool and nothing else.",
         mut(lambda d: (msg(d, 0, 1).pop("content"),
                        msg(d, 0, 1).update(tool={"name": "Read", "type": "read"}))), V,
         "a tool is enough.", ["SD-MESSAGE-12"], [Q["agent_c"]], render=True)
    case("agent-pathhints-only", "An agent message with pathHints and nothing else.",
         mut(lambda d: msg(d, 0, 1).pop("content") and msg(d, 0, 1).update(pathHints=["src/a.go"])),
         V, "pathHints are enough.", ["SD-MESSAGE-12", "SD-NOTES-3"], [Q["agent_c"]])
    case("pathhints-absolute", "pathHints holding an absolute and a relative path.",
         mut(lambda d: msg(d, 0, 1).update(pathHints=["/home/test/project/a.go", "b/c.go"])), V,
         "any strings.", ["SD-NOTES-3"], [Q["paths"]])
    case("user-thinking-only", "A user message whose only part is of type thinking.",
         mut(lambda d: msg(d, 0, 0).update(content=[{"type": "thinking", "text": "hm"}])), V,
         "non-empty content of a valid type.", ["SD-CONTENT-3"], [Q["user"]])
    case("exchanges-empty", "exchanges [] (the Minimal Session's form).",
         mut(lambda d: d.update(exchanges=[])), V, "no exchange, no rule.", ["SD-TOP-16"],
         [Q["exchanges_row"]], render=True)
    case("messages-empty", "An exchange with messages [].",
         mut(lambda d: d["exchanges"][0].update(messages=[])), V,
         "Validate() has no rule on the number of messages.", ["SD-EXCHANGE-7"],
         [Q["messages_row"]])
    case("metadata-anything", "Exchange and message metadata with nested arrays, numbers, "
         "booleans and null.", mut(lambda d: (d["exchanges"][0].update(
             metadata={"a": [1, 2.5, True, None, {"b": "c"}], "n": -0.0}),
             msg(d).update(metadata={"x": {"y": {"z": []}}}))), V,
         "map[string]interface{} takes any JSON object.", ["SD-EXCHANGE-8", "SD-SCHEMA-32"],
         [Q["s_msg_ap"]])
    case("message-unknown-member", "A message with a member the spec does not define.",
         mut(lambda d: msg(d).update(extra="x")), V, "Go ignores unknown members.",
         ["SD-SCHEMA-35"], [Q["s_msg_ap"]])
    case("tool-unknown-member", "A tool with a member the spec does not define.",
         mut(lambda d: msg(d, 0, 1).update(tool={"name": "Read", "type": "read", "x": 1})), V,
         "Go ignores unknown members.", ["SD-SCHEMA-55"], [Q["s_tool_ap"]])
    case("two-exchanges", "Two exchanges with distinct ids.",
         mut(lambda d: d["exchanges"].append(dict(copy.deepcopy(d["exchanges"][0]),
                                                  exchangeId="ex_1"))), V, "every rule holds.",
         ["SD-EXCHANGE-6", "SD-NOTES-8"], [Q["unique"]], render=True)
    case("timestamps-all", "Every timestamp member set, RFC 3339 with offsets and fractions.",
         mut(lambda d: (d.update(updatedAt="2025-01-01T03:00:00.5+02:00"),
                        d["exchanges"][0].update(startTime="2025-01-01T00:00:00Z",
                                                 endTime="2025-01-01T00:00:10.123Z"),
                        msg(d).update(timestamp="2025-01-01T00:00:01Z"))), V,
         "timestamps are not checked by the rules.", ["SD-TOP-13"], [Q["iso_notes"]])
    case("whitespace-compact", "The base session with no whitespace between tokens.",
         json.dumps(base(), separators=(",", ":")).encode(), V, "JSON whitespace is free.")
    case("whitespace-crlf-tabs", "The base session with CRLF line ends and tab indentation.",
         BASE_TEXT.replace("  ", "\t").replace("\n", "\r\n").encode(), V,
         "JSON whitespace is free.")
    case("escaped-key", "sessionId written \"session\\u0049d\" (an escaped I).",
         raw('"sessionId"', '"session\\u0049d"'), V, "names are compared after unescaping.")
    case("string-escapes", "Text with every JSON escape, \\u0000 included.",
         mut(lambda d: msg(d)["content"][0].update(text="q\" b\\ s/ \b\f\n\r\t nul\u0000 é 😀")), V,
         "any string.", [], [Q["rfc8259_text"]])
    case("astral-text", "Content text and a metadata key outside the BMP, written raw.",
         mut(lambda d: (msg(d)["content"][0].update(text="𝄞 music 😀"),
                        msg(d).update(metadata={"𝒮": 1}))), V, "any string.")
    case("big-integer", "tool output with 2^64 and 1e-400 (rounds to 0 in float64).",
         with_number("18446744073709551616, \"tiny\": 1e-400"), V, "both parse as float64 without a range error.",
         ["SD-TOOL-5"], [], ["SD-E14"])
    # The limit is given: RFC 8259 §9 lets an implementation's own default be lower than 105.
    case("deep-metadata", "Message metadata nested 100 levels deep, with args.limits "
         "max_json_depth 128.", mut(lambda d: msg(d).update(metadata=nest(99))), V,
         "within the configured limit (and Go's 10,000).", ["SD-JSON-3"],
         [Q["rfc8259_limits"]], ["SD-E23"], limits={"max_json_depth": 128})

    # -- Not JSON, not an object.
    def notjson(name, desc, data, why="encoding/json refuses the text."):
        case("json-" + name, desc, data, I, why, ["SD-JSON-1"], [Q["rfc8259_text"]], ["SD-E9"],
             render="refused")
    notjson("empty", "An empty file.", b"")
    notjson("whitespace-only", "Only whitespace.", b" \n\t\n")
    notjson("truncated", "The base session cut in half.", BASE_TEXT[:80].encode())
    notjson("trailing-comma", "A trailing comma after the last member.",
            raw('"workspaceRoot": "/home/test/project",', '"workspaceRoot": "/home/test/project",')
            .replace(b"\n  ]\n}", b"\n  ],\n}"))
    notjson("two-values", "The base session written twice.", (BASE_TEXT + BASE_TEXT).encode())
    notjson("trailing-garbage", "The base session followed by x.", (BASE_TEXT + "x\n").encode())
    notjson("comment", "A // comment line.", ("// c\n" + BASE_TEXT).encode())
    notjson("nan", "A content part holding the member \"n\": NaN.",
            raw('"text": "Hello"', '"text": "Hello", "n": NaN'))
    # Where both statements take any JSON value, so that only the grammar refuses it.
    case("json-nan-in-metadata", "Message metadata holding NaN.",
         raw('"role": "user",', '"role": "user", "metadata": {"n": NaN},'), I,
         "encoding/json refuses the text.", ["SD-JSON-1"], [Q["rfc8259_nan"]], ["SD-E9"])
    notjson("single-quotes", "sessionId in single quotes.", raw('"sessionId": "sess-0001"',
                                                                "'sessionId': 'sess-0001'"))
    notjson("raw-newline-in-string", "A raw LF inside a string.", raw('"Hello"', '"Hel\nlo"'))
    notjson("raw-nul", "A raw NUL byte inside a string.", raw('"Hello"', '"Hel\x00lo"'))
    notjson("leading-zero", "A number with a leading zero in metadata.",
            raw('"text": "Hello"', '"text": "Hello", "n": 01'))
    notjson("utf16", "The base session in UTF-16LE with a BOM.",
            b"\xff\xfe" + BASE_TEXT.encode("utf-16-le"))
    notjson("array", "A JSON array holding the base session.", ("[" + BASE_TEXT + "]").encode(),
            "an array does not decode into the SessionData struct (UnmarshalTypeError).")
    notjson("string", "A JSON string.", b'"session"\n', "a string does not decode into a struct.")
    notjson("number", "A JSON number.", b"1\n", "a number does not decode into a struct.")
    case("json-null", "The JSON text null.", b"null\n", I,
         "null leaves the zero SessionData, which Validate() refuses (schemaVersion \"\").",
         ["SD-JSON-1", "SD-TOP-9"], [Q["sv"]], ["SD-E11"], render="refused")
    case("json-empty-object", "The JSON text {}.", b"{}\n", I,
         "every member is its zero value: schemaVersion, provider, sessionId, createdAt, "
         "workspaceRoot fail.", ["SD-TOP-9", "SD-TOP-10", "SD-TOP-11"], [Q["s_top_req"]],
         render=True)
    case("bom", "The base session after a UTF-8 byte order mark.",
         b"\xef\xbb\xbf" + BASE_TEXT.encode(), I, "encoding/json refuses the BOM byte.",
         ["SD-JSON-1"], [Q["rfc8259_bom"]], flag="SD-E7")
    case("invalid-utf8-text", "Content text holding the byte 0xFF.",
         BASE_TEXT.replace('"Hello"', '"HelXo"').encode().replace(b"HelXo", b"Hel\xffo"),
         V, "encoding/json replaces ill-formed bytes with U+FFFD.", ["SD-JSON-1"],
         [Q["rfc8259_utf8"]], flag="SD-E8")
    case("invalid-utf8-overlong", "Content text holding an overlong encoding of '/' (C0 AF).",
         BASE_TEXT.replace('"Hello"', '"HelXo"').encode().replace(b"HelXo", b"Hel\xc0\xafo"), V,
         "replaced with U+FFFD by encoding/json.", ["SD-JSON-1"], [Q["rfc8259_utf8"]], flag="SD-E8")
    case("invalid-utf8-surrogate", "Content text holding an encoded surrogate (ED A0 80).",
         BASE_TEXT.replace('"Hello"', '"HelXo"').encode().replace(b"HelXo", b"Hel\xed\xa0\x80o"), V,
         "replaced with U+FFFD by encoding/json.", ["SD-JSON-1"], [Q["rfc8259_utf8"]], flag="SD-E8")
    case("invalid-utf8-in-role", "role \"user\" followed by the byte 0xFF.",
         BASE_TEXT.replace('"role": "user"', '"role": "userX"').encode().replace(b"userX", b"user\xff"),
         I, "replaced, the role is \"user\\uFFFD\", not a valid role.", ["SD-JSON-1", "SD-VALIDATE-5"],
         [Q["role"]])
    case("lone-surrogate", "Content text holding the escape \\ud800 alone.",
         raw('"Hello"', '"Hel\\ud800lo"'), V, "grammatical JSON; Go decodes it as U+FFFD.",
         ["SD-JSON-1"], [Q["rfc8259_text"]], flag="SD-E28")
    case("lone-low-surrogate", "Content text holding the escape \\udc00 alone.",
         raw('"Hello"', '"Hel\\udc00lo"'), V, "grammatical JSON; Go decodes it as U+FFFD.",
         ["SD-JSON-1"], [Q["rfc8259_text"]], flag="SD-E28")
    case("surrogate-pair", "Content text holding the escaped pair \\ud83d\\ude00.",
         raw('"Hello"', '"Hel\\ud83d\\ude00lo"'), V, "a valid pair.", ["SD-JSON-1"])
    case("depth-limit-over", "Message metadata nested so that the file's depth is 15, with "
         "args.limits max_json_depth 8.", mut(lambda d: msg(d).update(metadata=nest(9))), I,
         "over the configured limit: refused (SD-JSON-3).", ["SD-JSON-3"], [Q["rfc8259_limits"]],
         ["SD-E23"], limits={"max_json_depth": 8})
    case("depth-limit-at", "Message metadata nested so that the file's depth is exactly 16, with "
         "args.limits max_json_depth 16.", mut(lambda d: msg(d).update(metadata=nest(10))), V,
         "at the configured limit.", ["SD-JSON-3"], [Q["rfc8259_limits"]], ["SD-E23"],
         limits={"max_json_depth": 16})

    # -- schemaVersion.
    for name, val in (("1", "1"), ("1-0-0", "1.0.0"), ("2-0", "2.0"), ("1-1", "1.1"), ("empty", ""),
                      ("space", "1.0 ")):
        case(f"schema-version-{name}", f"schemaVersion {json.dumps(val)}.",
             mut(lambda d, v=val: d.update(schemaVersion=v)), I, "not exactly \"1.0\".",
             ["SD-TOP-9", "SD-VERSION-1"], [Q["sv"], Q["current"]], ["SD-E25"])
    case("schema-version-number", "schemaVersion 1.0, a number.",
         raw('"schemaVersion": "1.0"', '"schemaVersion": 1.0'), I,
         "a number does not decode into a string (UnmarshalTypeError).", ["SD-TOP-9"], [Q["sv"]],
         ["SD-E9"])
    case("schema-version-missing", "No schemaVersion.", mut(lambda d: d.pop("schemaVersion")), I,
         "the zero value \"\" is not \"1.0\".", ["SD-TOP-9"], [Q["sv"], Q["s_top_req"]])

    # -- Unknown members (SD-E2).
    case("unknown-top-member", "A top-level member \"source\" the spec does not define.",
         mut(lambda d: d.update(source="cli")), V, "Go ignores unknown members.",
         ["SD-VERSION-2"], [Q["s_top_ap"], Q["versioning"]], ["SD-E2", "SD-E25"])
    case("unknown-top-astral", "A top-level member named with a character outside the BMP.",
         mut(lambda d: d.update({"𝒮essionId": "x"})), V,
         "the name folds to no field; ignored.", ["SD-VERSION-2"], [Q["s_top_ap"]], ["SD-E2"])
    case("unknown-provider-member", "provider with a member \"url\".",
         mut(lambda d: d["provider"].update(url="https://example.com")), V,
         "Go ignores unknown members.", [], [Q["s_top_ap"]], ["SD-E2"])
    case("unknown-exchange-member", "An exchange with a member \"title\".",
         mut(lambda d: d["exchanges"][0].update(title="t")), V, "Go ignores unknown members.",
         [], [Q["s_top_ap"]], ["SD-E2"])
    case("unknown-content-member", "A content part with a member \"lang\".",
         mut(lambda d: msg(d)["content"][0].update(lang="en")), V, "Go ignores unknown members.",
         [], [Q["s_top_ap"]], ["SD-E2"])

    # -- provider (SD-E3, SD-E4).
    for name, val in (("other", "aider"), ("uppercase", "Claude"), ("space", " claude")):
        case(f"provider-id-{name}", f"provider.id {json.dumps(val)}, not in the schema's enum.",
             mut(lambda d, v=val: d["provider"].update(id=v)), V, "any non-empty id.",
             ["SD-PROVIDER-4"], [Q["prov"], Q["s_prov_id"]], ["SD-E3"])
    case("provider-id-empty", "provider.id \"\".", mut(lambda d: d["provider"].update(id="")), I,
         "provider.id must be non-empty.", [], [Q["prov"], Q["s_prov_id"]], ["SD-E3"])
    for f in ("name", "version"):
        case(f"provider-{f}-empty", f"provider.{f} \"\".",
             mut(lambda d, f=f: d["provider"].update({f: ""})), I, f"provider.{f} must be non-empty.",
             [], [Q["prov"]], ["SD-E4"])
        case(f"provider-{f}-missing", f"provider without {f}.",
             mut(lambda d, f=f: d["provider"].pop(f)), I, f"the zero value \"\" of {f} is empty.",
             [], [Q["prov"]], ["SD-E4"])
        case(f"provider-{f}-whitespace", f"provider.{f} \" \" (a space).",
             mut(lambda d, f=f: d["provider"].update({f: " "})), V, "a space is non-empty.",
             [], [Q["prov"]], ["SD-E4"])
    case("provider-missing", "No provider member.", mut(lambda d: d.pop("provider")), I,
         "a zero ProviderInfo: every member empty.", ["SD-TOP-10"], [Q["prov"], Q["s_top_req"]])
    case("provider-string", "provider \"claude\", a string.",
         mut(lambda d: d.update(provider="claude")), I,
         "a string does not decode into ProviderInfo.", ["SD-TOP-10"], [Q["go_top"]], ["SD-E9"])
    case("provider-id-number", "provider.id 1.", mut(lambda d: d["provider"].update(id=1)), I,
         "a number does not decode into a string.", [], [Q["prov"]], ["SD-E9"])

    # -- Non-empty strings (SD-E4).
    for f in ("sessionId", "workspaceRoot"):
        case(f"{f.lower()}-empty", f"{f} \"\".", mut(lambda d, f=f: d.update({f: ""})), I,
             f"{f} must be non-empty.", ["SD-TOP-11"], [Q["nonempty"]], ["SD-E4"],
             flag="SD-E18" if f == "workspaceRoot" else None)
        case(f"{f.lower()}-missing", f"No {f}.", mut(lambda d, f=f: d.pop(f)), I,
             f"the zero value of {f} is \"\".", ["SD-TOP-11"], [Q["nonempty"], Q["s_top_req"]])
        case(f"{f.lower()}-number", f"{f} 7, a number.", mut(lambda d, f=f: d.update({f: 7})), I,
             "a number does not decode into a string.", [], [Q["go_top"]], ["SD-E9"])
    case("sessionid-whitespace", "sessionId \" \".", mut(lambda d: d.update(sessionId=" ")), V,
         "a space is non-empty.", ["SD-TOP-11"], [Q["nonempty"]], ["SD-E4"])
    case("createdat-empty", "createdAt \"\".", mut(lambda d: d.update(createdAt="")), I,
         "createdAt must be non-empty.", ["SD-TOP-12"], [Q["nonempty"], Q["s_created"]],
         ["SD-E4"], flag="SD-E13")
    case("createdat-missing", "No createdAt.", mut(lambda d: d.pop("createdAt")), I,
         "the zero value \"\" is empty.", ["SD-TOP-12"], [Q["nonempty"], Q["s_top_req"]])
    case("exchangeid-empty", "exchangeId \"\".",
         mut(lambda d: d["exchanges"][0].update(exchangeId="")), I,
         "each exchange must have a non-empty exchangeId.", ["SD-EXCHANGE-6"], [Q["exid"]], ["SD-E4"])
    case("exchangeid-missing", "An exchange without exchangeId.",
         mut(lambda d: d["exchanges"][0].pop("exchangeId")), I, "the zero value \"\" is empty.",
         ["SD-EXCHANGE-6"], [Q["exid"], Q["s_ex_req"]])
    case("exchangeid-number", "exchangeId 0, a number.",
         mut(lambda d: d["exchanges"][0].update(exchangeId=0)), I,
         "a number does not decode into a string.", [], [Q["exid"]], ["SD-E9"])
    case("tool-name-empty", "tool.name \"\".",
         mut(lambda d: msg(d, 0, 1).update(tool={"name": "", "type": "read"})), I,
         "tool.name must be non-empty.", ["SD-TOOL-9"], [Q["tname"]], ["SD-E4"])
    case("tool-name-missing", "A tool without name.",
         mut(lambda d: msg(d, 0, 1).update(tool={"type": "read"})), I,
         "the zero value \"\" is empty.", ["SD-TOOL-9"], [Q["tname"]])
    case("tool-empty-object", "tool {}.", mut(lambda d: msg(d, 0, 1).update(tool={})), I,
         "name \"\" and type \"\" both fail.", ["SD-TOOL-9"], [Q["tname"], Q["ttype"]])

    # -- Roles, content types, tool types.
    for name, val in (("system", "system"), ("assistant", "assistant"), ("capital", "User"),
                      ("empty", "")):
        case(f"role-{name}", f"A message with role {json.dumps(val)}.",
             mut(lambda d, v=val: msg(d, 0, 1).update(role=v)), I, "not \"user\" or \"agent\".",
             [], [Q["role"]])
    case("role-missing", "A message without role.", mut(lambda d: msg(d, 0, 1).pop("role")), I,
         "the zero value \"\" is no valid role.", [], [Q["role"]])
    case("role-number", "role 1.", mut(lambda d: msg(d, 0, 1).update(role=1)), I,
         "a number does not decode into a string.", [], [Q["role"]], ["SD-E9"])
    for name, val in (("image", "image"), ("capital", "Text"), ("empty", "")):
        case(f"content-type-{name}", f"A content part of type {json.dumps(val)}.",
             mut(lambda d, v=val: msg(d)["content"][0].update(type=v)), I,
             "not \"text\" or \"thinking\".", ["SD-CONTENT-3"], [Q["ctype"]])
    case("content-type-missing", "A content part without type.",
         mut(lambda d: msg(d)["content"][0].pop("type")), I, "the zero value \"\" is no type.",
         ["SD-CONTENT-3"], [Q["ctype"], Q["s_cp_req"]])
    case("content-text-number", "A content part whose text is 5.",
         mut(lambda d: msg(d)["content"][0].update(text=5)), I,
         "a number does not decode into a string.", [], [Q["ctype"]], ["SD-E9"])
    case("content-part-string", "content [\"Hello\"]: a string, not a part.",
         mut(lambda d: msg(d).update(content=["Hello"])), I,
         "a string does not decode into ContentPart.", [], [Q["user"]], ["SD-E9"])
    case("content-object", "content {\"type\": \"text\", \"text\": \"Hello\"}: not an array.",
         mut(lambda d: msg(d).update(content={"type": "text", "text": "Hello"})), I,
         "an object does not decode into a slice.", [], [Q["user"]], ["SD-E9"])
    for name, val in (("mcp", "mcp"), ("capital", "Write"), ("empty", "")):
        case(f"tool-type-bad-{name}", f"A tool of type {json.dumps(val)}.",
             mut(lambda d, v=val: msg(d, 0, 1).update(tool={"name": "T", "type": v})), I,
             "not one of the seven types.", ["SD-TOOL-8"], [Q["ttype"], Q["tool_types"]])
    case("tool-string", "tool \"Write\", a string.",
         mut(lambda d: msg(d, 0, 1).update(tool="Write")), I,
         "a string does not decode into ToolInfo.", [], [Q["ttype"]], ["SD-E9"])
    case("tool-input-array", "tool.input [], an array.",
         mut(lambda d: msg(d, 0, 1).update(tool={"name": "T", "type": "read", "input": []})), I,
         "an array does not decode into a map.", [], [Q["s_tool_ap"]], ["SD-E9"])
    case("tool-summary-number", "tool.summary 3.",
         mut(lambda d: msg(d, 0, 1).update(tool={"name": "T", "type": "read", "summary": 3})), I,
         "a number does not decode into *string.", [], [Q["s_tool_ap"]], ["SD-E9"])
    # Every other Go field given a value of another JSON type (errata SD-E9): a decode error for the
    # rules statement, a `type` error for the schema.
    def tool_with(d, **members):
        msg(d, 0, 1).update(tool=dict({"name": "T", "type": "read"}, **members))

    for name, what, fn in (
            ("created-at", "createdAt 20250101", lambda d: d.update(createdAt=20250101)),
            ("updated-at", "updatedAt 1", lambda d: d.update(updatedAt=1)),
            ("slug", "slug true", lambda d: d.update(slug=True)),
            ("provider-name", "provider.name 1", lambda d: d["provider"].update(name=1)),
            ("provider-version", "provider.version 1.0", lambda d: d["provider"].update(version=1.0)),
            ("exchange", "an exchange \"ex_1\", a string", lambda d: d["exchanges"].append("ex_1")),
            ("start-time", "an exchange's startTime 0", lambda d: d["exchanges"][0].update(startTime=0)),
            ("end-time", "an exchange's endTime 0", lambda d: d["exchanges"][0].update(endTime=0)),
            ("message-id", "a message id 1", lambda d: msg(d).update(id=1)),
            ("timestamp", "a message timestamp 0", lambda d: msg(d).update(timestamp=0)),
            ("model", "an agent's model false", lambda d: msg(d, 0, 1).update(model=False)),
            ("message-metadata", "a message's metadata \"x\"", lambda d: msg(d, 0, 1).update(metadata="x")),
            ("content-type", "a content part's type 1", lambda d: msg(d)["content"][0].update(type=1)),
            ("tool-name", "tool.name 1", lambda d: tool_with(d, name=1)),
            ("tool-type", "tool.type 1", lambda d: tool_with(d, type=1)),
            ("tool-use-id", "tool.useId 1", lambda d: tool_with(d, useId=1)),
            ("tool-output", "tool.output [], an array", lambda d: tool_with(d, output=[])),
            ("tool-formatted-markdown", "tool.formattedMarkdown 1",
             lambda d: tool_with(d, formattedMarkdown=1))):
        case(f"wrong-type-{name}", what[0].upper() + what[1:] + ".", mut(fn), I,
             "a value of another JSON type does not decode into the Go field.", [], [Q["go_top"]],
             ["SD-E9"])
    case("pathhints-number", "pathHints [1].",
         mut(lambda d: msg(d, 0, 1).update(pathHints=[1])), I,
         "a number does not decode into a string.", [], [Q["agent"]], ["SD-E9"])
    case("pathhints-string", "pathHints \"a.go\", a string.",
         mut(lambda d: msg(d, 0, 1).update(pathHints="a.go")), I,
         "a string does not decode into a slice.", [], [Q["agent"]], ["SD-E9"])
    case("metadata-array", "Exchange metadata [], an array.",
         mut(lambda d: d["exchanges"][0].update(metadata=[])), I,
         "an array does not decode into a map.", [], [Q["s_msg_ap"]], ["SD-E9"])
    case("exchanges-object", "exchanges {}, an object.", mut(lambda d: d.update(exchanges={})), I,
         "an object does not decode into a slice.", ["SD-TOP-16"], [Q["exchanges_row"]], ["SD-E9"])
    case("message-string", "messages [\"hi\"].",
         mut(lambda d: d["exchanges"][0].update(messages=["hi"])), I,
         "a string does not decode into Message.", [], [Q["messages_row"]], ["SD-E9"])

    # -- Message constraints (SD-E5, SD-E6).
    case("user-with-tool", "A user message with a tool.",
         mut(lambda d: msg(d).update(tool={"name": "Read", "type": "read"})), I,
         "user messages cannot have tool.", ["SD-MESSAGE-10"], [Q["user"], Q["user_c"]], ["SD-E5"])
    case("user-with-model", "A user message with model \"m\".",
         mut(lambda d: msg(d).update(model="m")), I, "user messages cannot have model.",
         ["SD-MESSAGE-11"], [Q["user"], Q["user_c"]], ["SD-E5"])
    case("user-no-content", "A user message without content.", mut(lambda d: msg(d).pop("content")),
         I, "user messages must have non-empty content.", ["SD-MESSAGE-9"], [Q["user"]], ["SD-E5"])
    case("user-empty-content", "A user message with content [].",
         mut(lambda d: msg(d).update(content=[])), I, "len(content) == 0.", ["SD-MESSAGE-9"],
         [Q["user"]], ["SD-E5", "SD-E15"])
    case("user-pathhints-only", "A user message with pathHints and no content.",
         mut(lambda d: msg(d).pop("content") and msg(d).update(pathHints=["a.go"])), I,
         "user messages must have content.", ["SD-MESSAGE-9"], [Q["user"]], ["SD-E5"])
    case("user-tool-empty-object", "A user message with tool {}.",
         mut(lambda d: msg(d).update(tool={})), I,
         "a non-nil tool on a user message; its name and type fail too.", ["SD-MESSAGE-10"],
         [Q["user"]], ["SD-E5"])
    case("agent-nothing", "An agent message with only a role.",
         mut(lambda d: msg(d, 0, 1).pop("content")), I,
         "no content, tool or pathHints.", ["SD-MESSAGE-12"], [Q["agent"]], ["SD-E6"])
    case("agent-model-only", "An agent message with only a model.",
         mut(lambda d: msg(d, 0, 1).pop("content") and msg(d, 0, 1).update(model="m")), I,
         "a model is not content.", ["SD-MESSAGE-12"], [Q["agent"]], ["SD-E6"])
    case("agent-metadata-only", "An agent message with only metadata.",
         mut(lambda d: msg(d, 0, 1).pop("content") and msg(d, 0, 1).update(metadata={"a": 1})), I,
         "metadata is not content.", ["SD-MESSAGE-12"], [Q["agent"]], ["SD-E6"])

    # -- Zero values read as absent (SD-E15), content text (SD-E16).
    case("agent-empty-content", "An agent message with content [] and nothing else.",
         mut(lambda d: msg(d, 0, 1).update(content=[])), I, "len(content) == 0 counts as absent.",
         ["SD-MESSAGE-12"], [Q["agent"]], flag="SD-E15")
    case("agent-empty-pathhints", "An agent message with pathHints [] and nothing else.",
         mut(lambda d: msg(d, 0, 1).pop("content") and msg(d, 0, 1).update(pathHints=[])), I,
         "len(pathHints) == 0 counts as absent.", ["SD-MESSAGE-12"], [Q["agent"]], flag="SD-E15")
    case("user-model-empty", "A user message with model \"\".",
         mut(lambda d: msg(d).update(model="")), V, "Go checks Model != \"\".", ["SD-MESSAGE-11"],
         [Q["user"]], flag="SD-E15")
    case("user-empty-text", "A user message whose one part has text \"\".",
         mut(lambda d: msg(d)["content"][0].update(text="")), V, "len(content) is 1.",
         ["SD-MESSAGE-9"], [Q["user"]], flag="SD-E16")
    case("agent-empty-text", "An agent message whose one part has text \"\".",
         mut(lambda d: msg(d, 0, 1)["content"][0].update(text="")), V,
         "len(content) is 1; no rule on text.", ["SD-MESSAGE-12"], [Q["agent"]])

    # -- Required members Validate() does not check (SD-E12).
    case("exchanges-missing", "No exchanges member.", mut(lambda d: d.pop("exchanges")), V,
         "exchanges stays nil; no Validate() rule.", [], [Q["exchanges_row"], Q["s_top_req"]],
         flag="SD-E12")
    case("messages-missing", "An exchange without messages.",
         mut(lambda d: d["exchanges"][0].pop("messages")), V, "messages stays nil; no rule.",
         [], [Q["messages_row"], Q["s_ex_req"]], flag="SD-E12")
    case("content-text-missing", "A content part without text.",
         mut(lambda d: msg(d, 0, 1)["content"][0].pop("text")), V,
         "text stays \"\"; no rule on text.", [], [Q["s_cp_req"]], flag="SD-E12")

    # -- null (SD-E11).
    for name, fn, verdict, why in (
            ("slug", lambda d: d.update(slug=None), V, "slug stays \"\"."),
            ("updatedat", lambda d: d.update(updatedAt=None), V, "updatedAt stays \"\"."),
            ("exchanges", lambda d: d.update(exchanges=None), V, "exchanges is nil; no rule."),
            ("messages", lambda d: d["exchanges"][0].update(messages=None), V, "messages is nil."),
            ("metadata", lambda d: d["exchanges"][0].update(metadata=None), V, "a nil map."),
            ("message-id", lambda d: msg(d).update(id=None), V, "id stays \"\"."),
            ("model", lambda d: msg(d, 0, 1).update(model=None), V, "model stays \"\"."),
            ("agent-tool", lambda d: msg(d, 0, 1).update(tool=None), V, "tool is nil; content is there."),
            ("user-tool", lambda d: msg(d).update(tool=None), V, "tool is nil: no tool on the user message."),
            ("pathhints", lambda d: msg(d, 0, 1).update(pathHints=None), V, "a nil slice."),
            ("summary", lambda d: msg(d, 0, 1).update(tool={"name": "T", "type": "read", "summary": None}), V,
             "a nil *string."),
            ("input", lambda d: msg(d, 0, 1).update(tool={"name": "T", "type": "read", "input": None}), V,
             "a nil map."),
            ("user-content", lambda d: msg(d).update(content=None), I,
             "content is nil: the user message has no content."),
            ("session-id", lambda d: d.update(sessionId=None), I, "sessionId stays \"\"."),
            ("role", lambda d: msg(d, 0, 1).update(role=None), I, "role stays \"\"."),
            ("provider", lambda d: d.update(provider=None), I, "a zero ProviderInfo.")):
        flagged = verdict == V
        case(f"null-{name}", f"The member {name} written null.", mut(fn), verdict,
             "null leaves the zero value: " + why, ["SD-TOP-17"], [Q["go_top"]], ["SD-E11"],
             flag="SD-E11" if flagged else None)
    case("null-then-value", "sessionId \"s1\" followed by \"SessionId\": null.",
         raw('"sessionId": "sess-0001",', '"sessionId": "sess-0001",\n  "SessionId": null,'), V,
         "the second member matches sessionId case-insensitively; null has no effect on a string.",
         [], [Q["go_top"]], ["SD-E10"], flag="SD-E11")

    # -- Keys in another case (SD-E10).
    for name, key in (("pascal", "SessionID"), ("upper", "SESSIONID"), ("long-s", "ſessionId")):
        case(f"key-case-{name}", f"sessionId written {json.dumps(key, ensure_ascii=False)}.",
             raw('"sessionId"', json.dumps(key, ensure_ascii=False)), V,
             "encoding/json matches the name case-insensitively (Unicode folding).", [],
             [Q["go_top"]], flag="SD-E10")
    case("key-case-role", "A message whose role is written \"Role\".",
         mut(lambda d: msg(d).update(Role=msg(d).pop("role"))), V,
         "matched case-insensitively.", [], [Q["role"]], flag="SD-E10")
    case("key-case-tool-name", "A tool whose name member is written \"NAME\".",
         mut(lambda d: msg(d, 0, 1).update(tool={"NAME": "Bash", "type": "shell"})), V,
         "NAME matches name case-insensitively.", [], [Q["tname"]], flag="SD-E10")
    case("key-case-overrides", "sessionId \"sess-0001\" followed by \"SESSIONID\": \"\".",
         raw('"sessionId": "sess-0001",', '"sessionId": "sess-0001",\n  "SESSIONID": "",'), I,
         "both match one field; the last value, \"\", wins.", [], [Q["nonempty"]], flag="SD-E10")
    # A message admits unknown members (additionalProperties: true), so here the schema accepts
    # either spelling and only the rules' matching of names decides.
    case("key-case-content-agent", "An agent message whose content is written \"Content\".",
         mut(lambda d: msg(d, 0, 1).update(Content=msg(d, 0, 1).pop("content"))), V,
         "Content matches content case-insensitively.", [], [Q["agent"]], flag="SD-E10")
    case("key-case-content-user", "A user message whose content is written \"CONTENT\".",
         mut(lambda d: msg(d).update(CONTENT=msg(d).pop("content"))), V,
         "CONTENT matches content case-insensitively.", [], [Q["user"]], flag="SD-E10")
    case("key-case-user-tool", "A user message with a member \"Tool\" holding a tool.",
         mut(lambda d: msg(d).update(Tool={"name": "Bash", "type": "shell"})), I,
         "Tool matches tool case-insensitively: a user message cannot have a tool.", [],
         [Q["user"]], flag="SD-E10")

    # -- Duplicate names (SD-E22).
    case("dup-session-id", "sessionId written twice: \"\" then \"s1\".",
         raw('"sessionId": "sess-0001",', '"sessionId": "",\n  "sessionId": "s1",'), V,
         "members are assigned in order: the last wins.", [], [Q["rfc8259_names"]], flag="SD-E22")
    case("dup-role", "role written twice: \"system\" then \"agent\".",
         raw('"role": "agent"', '"role": "system", "role": "agent"'), V,
         "the last wins.", [], [Q["rfc8259_names"]], flag="SD-E22")
    case("dup-provider-merge", "provider written twice: full, then {\"id\": \"codex\"}.",
         raw('"sessionId"', '"provider": {"id": "codex"},\n  "sessionId"'), V,
         "Go decodes the second object into the same struct: name and version stay.", [],
         [Q["rfc8259_names"]], flag="SD-E22")
    case("dup-schema-version-bad-last", "schemaVersion \"1.0\" then \"2.0\".",
         raw('"schemaVersion": "1.0",', '"schemaVersion": "1.0",\n  "schemaVersion": "2.0",'), I,
         "the last, \"2.0\", wins.", [], [Q["rfc8259_names"]], flag="SD-E22")
    case("dup-equal-values", "exchangeId written twice with the same value.",
         raw('"exchangeId": "ex_0",', '"exchangeId": "ex_0",\n      "exchangeId": "ex_0",'), V,
         "the same value either way.", [], [Q["rfc8259_names"]], flag="SD-E22")

    # -- Numbers beyond float64 (SD-E14).
    for name, num in (("1e400", "1e400"), ("neg", "-1e309"), ("digits", "1" + "0" * 400)):
        case(f"number-huge-{name}", f"tool.output holding the number {num[:12]}{'...' if len(num) > 12 else ''}.",
             with_number(num), I,
             "a number beyond float64 in interface{} is an UnmarshalTypeError.", ["SD-TOOL-5"],
             [Q["s_tool_ap"]], flag="SD-E14")
    case("number-huge-metadata", "Exchange metadata {\"n\": 2e308}.",
         raw('"exchangeId": "ex_0",', '"exchangeId": "ex_0",\n      "metadata": {"n": 2e308},'), I,
         "beyond float64.", ["SD-EXCHANGE-8"], [Q["s_msg_ap"]], flag="SD-E14")

    # -- Timestamps (SD-E13).
    stamps = [("no-offset", "2025-01-01T00:00:00"), ("space", "2025-01-01 00:00:00Z"),
              ("basic", "20250101T000000Z"), ("no-seconds", "2025-01-01T00:00Z"),
              ("date-only", "2025-01-01"), ("impossible", "2025-02-30T00:00:00Z"),
              ("hour-24", "2025-01-01T24:00:00Z"), ("lowercase", "2025-01-01t00:00:00z"),
              ("words", "yesterday"),
              ("comma-fraction", "2025-01-01T00:00:00,5Z"), ("offset-basic", "2025-01-01T00:00:00+0100")]
    for name, ts in stamps:
        case(f"created-at-{name}", f"createdAt {json.dumps(ts)}.",
             mut(lambda d, t=ts: d.update(createdAt=t)), V, "the rules check only non-empty.",
             ["SD-TOP-12"], [Q["s_created"], Q["iso_notes"], Q["iso_go"]], flag="SD-E13")
    for name, ts, where in (("updated", "2025-01-01T00:00", "updatedAt"),
                            ("start", "20250101T000000Z", "startTime"),
                            ("end", "2025-13-01T00:00:00Z", "endTime"),
                            ("message", "2025-01-01T00:00:00", "timestamp")):
        def f(d, t=ts, w=where):
            if w == "updatedAt":
                d["updatedAt"] = t
            elif w == "timestamp":
                msg(d)["timestamp"] = t
            else:
                d["exchanges"][0][w] = t
        case(f"timestamp-{name}", f"{where} {json.dumps(ts)}.", mut(f), V, "not checked by the rules.",
             ["SD-TOP-13"], [Q["iso_notes"]], flag="SD-E13")
    for name, ts in (("offset", "2025-01-01T05:30:00+05:30"), ("fraction", "2025-01-01T00:00:00.123456789Z"),
                     ("leap-second", "2016-12-31T23:59:60Z")):
        case(f"created-at-{name}", f"createdAt {json.dumps(ts)}, an RFC 3339 and ISO 8601 date-time.",
             mut(lambda d, t=ts: d.update(createdAt=t)), V, "non-empty.", ["SD-TOP-12"],
             [Q["s_created"], Q["iso_notes"]], ["SD-E13"])
    # RFC 3339 §4.3 gives "-00:00" a meaning; ISO 8601 writes a zero offset with "+" only.
    case("created-at-unknown-offset", "createdAt \"2025-01-01T00:00:00-00:00\", an RFC 3339 "
         "date-time whose offset ISO 8601 does not allow.",
         mut(lambda d: d.update(createdAt="2025-01-01T00:00:00-00:00")), V, "non-empty.",
         ["SD-TOP-12"], [Q["s_created"], Q["iso_notes"]], flag="SD-E13")

    # -- Prose (SD-E17..SD-E21).
    case("exchangeid-duplicate", "Two exchanges with the id \"ex_0\".",
         mut(lambda d: d["exchanges"].append(copy.deepcopy(d["exchanges"][0]))), V,
         "no Validate() rule on uniqueness.", ["SD-EXCHANGE-6"], [Q["unique"]], flag="SD-E17")
    case("exchangeid-case-differs", "Two exchanges \"ex_0\" and \"EX_0\".",
         mut(lambda d: d["exchanges"].append(dict(copy.deepcopy(d["exchanges"][0]), exchangeId="EX_0"))),
         V, "distinct strings.", ["SD-NOTES-8"], [Q["unique"]], ["SD-E17"])
    for name, path, verdict in (("relative", "project", V), ("dot", "./project", V),
                                ("tilde", "~/project", V)):
        case(f"workspace-root-{name}", f"workspaceRoot {json.dumps(path)}.",
             mut(lambda d, p=path: d.update(workspaceRoot=p)), verdict, "non-empty.",
             [], [Q["abs"]], flag="SD-E18")
    for name, path in (("windows", "C:\\Users\\alice\\project"), ("windows-slash", "C:/Users/alice/project"),
                       ("unc", "\\\\server\\share\\project")):
        case(f"workspace-root-{name}", f"workspaceRoot {json.dumps(path)}: absolute on Windows.",
             mut(lambda d, p=path: d.update(workspaceRoot=p)), V, "non-empty.", ["SD-TOP-15"],
             [Q["abs"]], ["SD-E18"])
    for name, slug in (("slash", "fix/login"), ("colon", "fix:login"), ("dotdot", ".."),
                       ("newline", "fix\nlogin"), ("star", "fix*")):
        case(f"slug-{name}", f"slug {json.dumps(slug)}.", mut(lambda d, s=slug: d.update(slug=s)), V,
             "slug has no rule.", [], [Q["slug"]], flag="SD-E19")
    case("slug-ok", "slug \"fix-login-bug\" (the spec's example).",
         mut(lambda d: d.update(slug="fix-login-bug")), V, "slug has no rule.", ["SD-TOP-14"],
         [Q["slug"]], ["SD-E19"])
    case("slug-unicode-space", "slug \"Fix login — ünïcode\".",
         mut(lambda d: d.update(slug="Fix login — ünïcode")), V, "slug has no rule.", ["SD-TOP-14"],
         [Q["slug"]], ["SD-E19"])
    for name, hint in (("star", "src/*.go"), ("question", "src/?.go"), ("bracket", "src/[ab].go"),
                       ("globstar", "**/*.ts")):
        case(f"pathhints-glob-{name}", f"pathHints [{json.dumps(hint)}].",
             mut(lambda d, h=hint: msg(d, 0, 1).update(pathHints=[h])), V, "any strings.", [],
             [Q["glob"]], flag="SD-E20")
    case("updated-before-created", "updatedAt an hour before createdAt.",
         mut(lambda d: d.update(createdAt="2025-01-01T01:00:00Z", updatedAt="2025-01-01T00:00:00Z")),
         V, "timestamps are not compared.", [], [Q["order_ts"]], flag="SD-E21")
    case("end-before-start", "An exchange whose endTime is before its startTime.",
         mut(lambda d: d["exchanges"][0].update(startTime="2025-01-01T00:00:10Z",
                                                endTime="2025-01-01T00:00:00Z")), V,
         "timestamps are not compared.", [], [Q["order_ts"]], flag="SD-E21")
    case("messages-out-of-time-order", "Two messages whose timestamps decrease.",
         mut(lambda d: (msg(d).update(timestamp="2025-01-01T00:00:10Z"),
                        msg(d, 0, 1).update(timestamp="2025-01-01T00:00:00Z"))), V,
         "timestamps are not compared.", [], [Q["r1"]], ["SD-E27"],
         render={"order_note": "array order"})

    # -- Rendering (hostile content). Sessions valid under both statements.
    def session_with(*messages, thinking=None):
        d = base()
        d["exchanges"][0]["messages"] = list(messages)
        return dumps(d)

    def user(text):
        return {"role": "user", "content": [{"type": "text", "text": text}]}

    def agent(text, kind="text", **kw):
        m = {"role": "agent", "content": [{"type": kind, "text": text}]}
        m.update(kw)
        return m

    def R(absent):
        return {"absent": absent}

    hostile = [
        ("backticks", "A fence of 3 backticks and a run of 5 inside the text, then a line-start heading.",
         session_with(user("Before\n```\ncode\n`````\n# escaped heading\n```\nafter"), agent("ok")),
         [("heading", "escaped heading")]),
        ("backtick-run-long", "Text holding a run of 12 backticks on its own line, then a heading line.",
         session_with(user("x\n" + "`" * 12 + "\n# after the run\n" + "`" * 12), agent("ok")),
         [("heading", "after the run")]),
        ("inline-backticks", "Inline code spans and a stray backtick.",
         session_with(user("use `a` and ``b`` and ` alone"), agent("ok")), []),
        ("details-close", "Thinking text holding </details> and then a heading line.",
         session_with(user("q"), agent("step 1 </details>\n# Injected after details\nstep 2", "thinking")),
         [("heading", "Injected after details"), ("html", "</details>\n# Injected")]),
        ("details-open", "Text holding <details><summary>x</summary>.",
         session_with(user("<details><summary>fake</summary>"), agent("ok")), [("html", "fake")]),
        ("raw-html", "Text holding a script element and an img with onerror.",
         session_with(user("<script>alert(1)</script> <img src=x onerror=alert(2)>"), agent("ok")),
         [("html", "<script"), ("html", "onerror")]),
        ("html-comment", "Text holding an unclosed HTML comment.",
         session_with(user("hide <!-- the rest"), agent("still visible")), [("html", "<!--")]),
        ("link", "Text holding Markdown link and image syntax and an autolink.",
         session_with(user("[click](https://evil.example/a) ![i](https://evil.example/b.png) "
                           "<https://evil.example/c>"), agent("ok")),
         [("link", "https://evil.example/a"), ("image", "https://evil.example/b.png"),
          ("link", "https://evil.example/c")]),
        ("reference-link", "Text holding a link reference definition and its use.",
         session_with(user("[x]: https://evil.example/ref\n\nsee [x]"), agent("ok")),
         [("link", "https://evil.example/ref")]),
        ("table-pipes", "Text holding table syntax with pipes.",
         session_with(user("| a | b |\n|---|---|\n| 1 | 2 |"), agent("x | y")), []),
        ("line-start-markers", "Text lines starting with #, -, *, 1., >, ---, ===.",
         session_with(user("# H1 line\n- dash item\n* star item\n1. numbered item\n> quoted line\n"
                           "---\ntitle line\n==="), agent("ok")),
         [("heading", "H1 line"), ("list", "dash item"), ("list", "star item"),
          ("list", "numbered item"), ("block_quote", "quoted line"), ("heading", "title line")]),
        ("emphasis", "Text with emphasis and escape characters: *a* _b_ \\* &amp; &lt;x&gt;.",
         session_with(user("*a* _b_ \\* &amp; &lt;x&gt;"), agent("ok")), []),
        ("crlf", "Text with CRLF and lone CR line ends.",
         session_with(user("one\r\ntwo\rthree\r\n# cr heading"), agent("ok")),
         [("heading", "cr heading")]),
        ("indented", "Text with four-space indentation and tabs.",
         session_with(user("    indented code?\n\tTabbed"), agent("ok")), []),
        ("nul", "Text holding U+0000 and U+FEFF.",
         session_with(user("a\u0000b \ufeffc"), agent("ok")), []),
        ("tool-hostile-name", "A tool whose name holds Markdown and HTML, with hostile pathHints.",
         session_with(user("go"), {"role": "agent", "tool": {"name": "Bash <b>x</b> [l](https://evil.example/t)",
                                                              "type": "shell", "input": {"command": "echo '```'\n# not heading"}},
                                   "pathHints": ["a_b_c.go", "<https://evil.example/p>"]}),
         [("link", "https://evil.example/t"), ("link", "https://evil.example/p"), ("html", "<b>"),
          ("heading", "not heading")]),
        ("tool-output-hostile", "A tool whose output holds </details>, fences and a heading.",
         session_with(user("go"), {"role": "agent", "tool": {"name": "Bash", "type": "shell",
                                                              "output": {"stdout": "</details>\n```\n# out heading\n<script>x</script>"}}}),
         [("heading", "out heading"), ("html", "<script")]),
        ("formatted-markdown", "A tool with formattedMarkdown holding a heading and a table (used verbatim).",
         session_with(user("go"), {"role": "agent", "tool": {"name": "Write", "type": "write",
                                                              "input": {"file_path": "a.go"},
                                                              "formattedMarkdown": "### Wrote a.go\n\n| line | text |\n|---|---|\n| 1 | package a |\n"},
                                   "pathHints": ["a.go"]}), []),
        ("thinking-and-text", "An agent message with a thinking part and a text part, and a code block.",
         session_with(user("write hello"), {"role": "agent", "content": [
             {"type": "thinking", "text": "plan: print hello"},
             {"type": "text", "text": "Here:\n```go\nfmt.Println(\"hello\")\n```\ndone"}]}), []),
        ("many-messages", "Two exchanges of four messages each, in array order.",
         None, []),
        ("long-line", "A text part of one 100,000-character line.",
         session_with(user("x" * 100000), agent("ok")), []),
    ]
    for name, desc, data, absent in hostile:
        if data is None:
            d = base()
            d["exchanges"] = [{"exchangeId": f"ex_{i}", "messages": [
                user(f"question {i}"), agent(f"thought {i}", "thinking"),
                agent(f"answer {i}"), {"role": "agent", "tool": {"name": f"Tool{i}", "type": "read"},
                                        "pathHints": [f"file{i}.txt"]}]} for i in range(2)]
            data = dumps(d)
        case(f"render-{name}", desc, data, V, "a valid session.", [], [Q["r2"]],
             render=R([{"node": k, "containing": c} if k not in ("link", "image") else
                       {"node": k, "destination": c} for k, c in absent]))


def with_number(num):
    """The base session with an agent tool whose output holds {"n": <num>} (the number's text
    written as is)."""
    d = base()
    msg(d, 0, 1)["tool"] = {"name": "Bash", "type": "shell", "output": {"n": "@NUM@"}}
    return dumps(d).replace(b'"@NUM@"', num.encode())


def nest(n):
    v = {}
    for _ in range(n):
        v = {"a": v}
    return v


# ----------------------------------------------------------------------------------------------
# The manifest.

def load_catalogue():
    with open(CATALOGUE, encoding="utf-8") as f:
        return json.load(f)


def schema_id_mapper(catalogue, schema):
    """(pointer, keyword) -> SD-SCHEMA id, from the catalogue's "Location `p`, keyword `k`"."""
    table = {}
    for r in catalogue["requirements"]:
        m = re.match(r"Location `([^`]+)`, keyword `([^`]+)`", r.get("reason", ""))
        if m and r["id"].startswith("SD-SCHEMA-"):
            table[(m.group(1), m.group(2))] = r["id"]

    def resolve(err):
        ptr, node = "#", schema
        path = list(err.absolute_schema_path)
        def follow(node, ptr):
            # jsonschema's paths step through a $ref without naming it.
            while isinstance(node, dict) and "$ref" in node:
                ptr = node["$ref"]
                node = schema
                for p in ptr[2:].split("/"):
                    node = node[p]
            return node, ptr
        for elem in path[:-1]:
            if elem == "$ref" or (isinstance(node, dict) and elem not in node):
                node, ptr = follow(node, ptr)
                if elem == "$ref":
                    continue
            ptr += "/" + str(elem)
            node = node[elem]
        if isinstance(node, dict) and path[-1] not in node:
            node, ptr = follow(node, ptr)
        key = (ptr, path[-1])
        if key not in table:
            raise SystemExit(f"no catalogue id for schema location {key}")
        return table[key]
    return resolve


def normalize(text):
    return " ".join(text.replace("\x00", "\ufffd").split())


FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def snippets(text):
    return [normalize(line) for line in re.split(r"\r\n|\r|\n", text)
            if normalize(line) and not FENCE.match(line)]


def expect_render(doc, extra):
    """The properties the render judge checks (vectors/README.md "SessionData")."""
    order, verbatim = [], []
    for x in doc.get("exchanges") or []:
        for m in x.get("messages") or []:
            for c in m.get("content") or []:
                sn = snippets(c["text"])
                if sn:
                    order.append({"kind": c["type"],
                                  "requirement": "SD-RENDER-4" if c["type"] == "thinking" else "SD-RENDER-2",
                                  "snippets": sn})
            t = m.get("tool")
            if t:
                order.append({"kind": "tool", "requirement": "SD-RENDER-3", "type": t["type"],
                              "name": normalize(t["name"]),
                              "path_hints": [normalize(h) for h in m.get("pathHints") or []]})
                if isinstance(t.get("formattedMarkdown"), str):
                    verbatim.append({"requirement": "SD-RENDER-5", "markdown": t["formattedMarkdown"]})
    out = {"order": order}
    if verbatim:
        out["verbatim"] = verbatim
    absent = [dict(a, requirement="SD-RENDER-7") for a in (extra or {}).get("absent", [])]
    if absent:
        out["absent"] = absent
    return out


def spec_text(quotes, errata):
    t = "; ".join(quotes) if quotes else ""
    if errata:
        t += ("; " if t else "") + "errata " + ", ".join(errata)
    return t


def errata_sort(ids):
    return sorted(set(ids), key=lambda e: int(e.split("E")[-1]))


def build(spec, catalogue):
    cases(spec)
    block = schema_block(spec) if spec else None
    if block is not None:
        schema = json.loads(block)
    else:
        with open(SCHEMA_OUT, encoding="utf-8") as f:
            schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    v_assert = jsonschema.Draft202012Validator(schema, format_checker=make_checker())
    v_annot = jsonschema.Draft202012Validator(schema)
    ids = schema_id_mapper(catalogue, schema)
    problems = []
    manifest_cases = []
    files = {}
    for c in CASE_LIST:
        limits = c["limits"]
        arcs = Verdicts(c["bytes"], ARCS, v_assert, v_annot, ids, limits)
        base_out = arcs.outcomes()
        split = {}
        for flag, readings in FLAGS.items():
            outs = {}
            for rname, over in readings:
                modes = dict(ARCS, **over)
                outs[rname] = Verdicts(c["bytes"], modes, v_assert, v_annot, ids, limits).outcomes()
            if any(o != base_out for o in outs.values()):
                split[flag] = outs
        if len(split) > 1:
            problems.append(f"{c['id']}: split by more than one flag: {sorted(split)}")
        if (c["flag"] or None) != (next(iter(split), None)):
            problems.append(f"{c['id']}: the case says flag {c['flag']}, the readings split it by "
                            f"{sorted(split) or 'none'}")
        # The hand-written rules verdict against the Go model (ARCS readings).
        go = "invalid" if arcs.rules_ids else "valid"
        if go != c["rules"]:
            problems.append(f"{c['id']}: rules verdict written {c['rules']}, the Go model gives "
                            f"{go} ({sorted(arcs.rules_ids)})")
        errors = sorted(arcs.rules_ids | arcs.schema_ids | arcs.prose_ids)
        warnings = sorted(arcs.warnings)
        if split:
            flag = next(iter(split))
            readings = {}
            for rname, outs in split[flag].items():
                for ch in CHOICES:
                    readings[f"{rname}-{ch}"] = outs[ch]
            expect = {"flag": flag, "policy": "statement", "readings": readings,
                      "arcs": f"{FLAGS[flag][0][0]}-both"}
        elif len(set(base_out.values())) == 1:
            expect = {"outcome": base_out["both"]}
        else:
            expect = {"policy": "statement", "outcomes": base_out}
        arcs_outcome = base_out["both"]
        if (arcs_outcome == "invalid") != bool(errors):
            problems.append(f"{c['id']}: ARCS outcome {arcs_outcome} but errors {errors}")
        reqs = set(c["reqs"]) | set(errors) | set(warnings) | {"SD-JSON-1", "SD-VALIDATE-11", "SD-SCHEMA-1"}
        if c["flag"]:
            reqs |= set(FLAG_REQS.get(c["flag"], []))
        if limits:
            reqs.add("SD-JSON-3")
        errata = errata_sort(c["errata"] + ([c["flag"]] if c["flag"] else []) + ["SD-E1"])
        quotes = list(dict.fromkeys(c["quotes"] + [Q["validate"], Q["s_draft"]]))
        desc = f"{c['desc']} Rules statement: {c['rules']}, {c['why']}"
        validate = {"requirements": sorted(reqs), "spec_text": spec_text(quotes, errata),
                    "expect": expect, "rules": {"errors": errors, "warnings": warnings}}
        ops = {"validate": validate}
        if c["render"] is not None:
            rq = ["SD-RENDER-6"]
            if c["render"] == "refused":
                ops["render"] = {"requirements": rq, "spec_text": spec_text([Q["r0"]], ["SD-E26"]),
                                 "expect": {"outcome": "refused"}}
            else:
                doc = json.loads(c["bytes"].decode("utf-8"))
                er = expect_render(doc, c["render"] if isinstance(c["render"], dict) else None)
                used = {i["requirement"] for i in er["order"]} | \
                       {i["requirement"] for i in er.get("verbatim", [])} | \
                       {i["requirement"] for i in er.get("absent", [])}
                rq = sorted(set(rq) | used | {"SD-RENDER-1", "SD-RENDER-2", "SD-RENDER-7"})
                qs = [Q["r0"], Q["r1"], Q["r2"]] + ([Q["r3"]] if "SD-RENDER-3" in used else []) + \
                     ([Q["r4"]] if "SD-RENDER-4" in used else []) + ([Q["r5"]] if "SD-RENDER-5" in used else [])
                if arcs_outcome != "valid" and c["id"] != "session-data-json-empty-object":
                    problems.append(f"{c['id']}: render case is not a valid session")
                ops["render"] = {"requirements": rq,
                                 "spec_text": spec_text(qs, ["SD-E26", "SD-E27"]),
                                 "expect": {"outcome": "rendered"}, "expect_render": er}
        mc = {"id": c["id"], "description": desc,
              "inputs": {"file": f"cases/{c['name']}/session.json"}, "operations": ops}
        if limits:
            mc["args"] = {"limits": limits}
        manifest_cases.append(mc)
        files[os.path.join(CASES, c["name"], "session.json")] = c["bytes"]
    manifest = manifest_lib.cite(
        dict(manifest_lib.head("session-data", "session_data", "session-data.md", "1.0"),
             cases=manifest_cases), catalogue["requirements"])
    ids_seen = [c["id"] for c in CASE_LIST]
    if len(ids_seen) != len(set(ids_seen)):
        problems.append("duplicate case ids")
    return manifest, files, block, problems


def check_quotes(manifest, spec):
    if spec is None:
        return []
    return ["not in session-data.md: " + q
            for q in manifest_lib.quotes_not_in(" ".join(spec.split()), manifest["quotes"])]


def main(argv):
    check = "--check" in argv
    spec = find_spec()
    catalogue = load_catalogue()
    manifest, files, block, problems = build(spec, catalogue)
    problems += check_quotes(manifest, spec)
    if "--flags" in argv:
        for flag in FLAGS:
            print(flag, " ".join(c["id"] for c in manifest["cases"]
                                 if c["operations"]["validate"]["expect"].get("flag") == flag))
        return 0
    notes = []
    if spec is None:
        notes.append("session-data.md not found: the schema verdicts were not recomputed from its "
                     "JSON Schema block (the committed schema was used), quotations not checked")
    files[MANIFEST] = manifest_lib.dumps(manifest)
    if block is not None:
        files[SCHEMA_OUT] = block.encode("utf-8")
    differ = generated_files.sync(files, CASES, check, ROOT)
    if check and block is None and not os.path.isfile(SCHEMA_OUT):
        differ.append("schemas/session_data/session.schema.json (missing)")
    for n in notes:
        print("note: " + n)
    for p in problems:
        print("problem: " + p)
    for d in differ:
        print("differs: " + d)
    print(f"session-data vectors: {len(manifest['cases'])} cases {'checked' if check else 'written'}, "
          f"{len(differ)} differ, {len(problems)} problems")
    return 1 if problems or differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
