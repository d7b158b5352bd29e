"""Clean-room implementation of SpecStory SessionData 1.0 (session-data.md).

Two operations:

* ``validate(data, statement)`` judges one file (bytes) under the statement the
  caller chooses: ``"rules"`` (the Go types and ``SessionData.Validate()``),
  ``"schema"`` (the JSON Schema the spec ships) or ``"both"`` (valid only when
  valid under both).
* ``render(data)`` writes a Markdown (CommonMark) transcript of any JSON text
  holding an object.

Python 3.11, standard library only.  See README.md for every reading taken.
"""

from __future__ import annotations

import json
import os
import re

__all__ = [
    "MAX_DEPTH", "MAX_FINDINGS", "STATEMENTS", "ParseError", "Report",
    "parse", "validate", "render", "JNum",
]

# Read once at import.  Unset (or empty) means the frozen behaviour.
MUTANT = os.environ.get("ARCS_MUTANT", "")

#: Deepest nesting of arrays/objects accepted (the root object is depth 1).
MAX_DEPTH = 512
#: Findings kept per report (the verdict is computed on the whole file).
MAX_FINDINGS = 1000

STATEMENTS = ("rules", "schema", "both")

ROLES = ("user", "agent")
PART_TYPES = ("text", "thinking")
TOOL_TYPES = ("write", "read", "search", "shell", "task", "generic", "unknown")
PROVIDERS = {"claude": "Claude Code", "cursor": "Cursor CLI",
             "codex": "Codex CLI", "gemini": "Gemini CLI"}

# The JSON Schema of session-data.md ("JSON Schema"), verbatim.
SCHEMA_TEXT = r'''
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://specstory.ai/schemas/session-data-v1.json",
  "title": "Session Data",
  "type": "object",
  "additionalProperties": false,
  "required": ["schemaVersion", "provider", "sessionId", "createdAt", "workspaceRoot", "exchanges"],
  "properties": {
    "schemaVersion": { "type": "string", "const": "1.0" },
    "provider": {
      "type": "object",
      "additionalProperties": false,
      "required": ["id", "name", "version"],
      "properties": {
        "id": { "type": "string", "enum": ["claude", "cursor", "codex", "gemini"] },
        "name": { "type": "string" },
        "version": { "type": "string" }
      }
    },
    "sessionId": { "type": "string" },
    "createdAt": { "type": "string", "format": "date-time" },
    "updatedAt": { "type": "string", "format": "date-time" },
    "slug": { "type": "string" },
    "workspaceRoot": { "type": "string" },
    "exchanges": {
      "type": "array",
      "items": { "$ref": "#/$defs/exchange" }
    }
  },
  "$defs": {
    "exchange": {
      "type": "object",
      "additionalProperties": false,
      "required": ["exchangeId", "messages"],
      "properties": {
        "exchangeId": { "type": "string" },
        "startTime": { "type": "string", "format": "date-time" },
        "endTime": { "type": "string", "format": "date-time" },
        "messages": {
          "type": "array",
          "items": { "$ref": "#/$defs/message" }
        },
        "metadata": { "type": "object", "additionalProperties": true }
      }
    },
    "message": {
      "type": "object",
      "additionalProperties": true,
      "required": ["role"],
      "properties": {
        "id": { "type": "string" },
        "timestamp": { "type": "string", "format": "date-time" },
        "role": { "type": "string", "enum": ["user", "agent"] },
        "model": { "type": "string" },
        "content": {
          "type": "array",
          "items": { "$ref": "#/$defs/contentPart" }
        },
        "tool": { "$ref": "#/$defs/toolInfo" },
        "pathHints": {
          "type": "array",
          "items": { "type": "string" }
        },
        "metadata": { "type": "object", "additionalProperties": true }
      }
    },
    "contentPart": {
      "type": "object",
      "additionalProperties": false,
      "required": ["type", "text"],
      "properties": {
        "type": { "type": "string", "enum": ["text", "thinking"] },
        "text": { "type": "string" }
      }
    },
    "toolInfo": {
      "type": "object",
      "additionalProperties": true,
      "required": ["name", "type"],
      "properties": {
        "name": { "type": "string" },
        "type": { "type": "string", "enum": ["write", "read", "search", "shell", "task", "generic", "unknown"] },
        "useId": { "type": "string" },
        "input": { "type": "object", "additionalProperties": true },
        "output": { "type": "object", "additionalProperties": true },
        "summary": { "type": "string" },
        "formattedMarkdown": { "type": "string" }
      }
    }
  }
}
'''


# ---------------------------------------------------------------------------
# Findings and reports
# ---------------------------------------------------------------------------

class Report:
    """Outcome of one operation: ``ok`` plus findings (dicts of PROTOCOL.md's shape)."""

    def __init__(self) -> None:
        self.ok = True
        self.findings: list[dict] = []
        self.dropped = 0

    def add(self, rule: str, severity: str, message: str,
            pointer: str | None = None, line: int | None = None) -> None:
        if severity == "error":
            self.ok = False
        if len(self.findings) >= MAX_FINDINGS:
            self.dropped += 1
            return
        f = {"rule": rule, "severity": severity, "message": message}
        if pointer is not None:
            f["pointer"] = pointer
        if line is not None:
            f["line"] = line
        self.findings.append(f)

    def error(self, rule, message, pointer=None, line=None):
        self.add(rule, "error", message, pointer, line)

    def warning(self, rule, message, pointer=None, line=None):
        self.add(rule, "warning", message, pointer, line)

    def note(self, rule, message, pointer=None, line=None):
        self.add(rule, "note", message, pointer, line)

    @property
    def errors(self) -> list[dict]:
        return [f for f in self.findings if f["severity"] == "error"]

    def rules(self, severity: str = "error") -> set[str]:
        return {f["rule"] for f in self.findings if f["severity"] == severity}


def _ptr(base: str, token) -> str:
    t = str(token).replace("~", "~0").replace("/", "~1")
    return f"{base}/{t}"


# ---------------------------------------------------------------------------
# JSON parsing (RFC 8259)
# ---------------------------------------------------------------------------

class ParseError(Exception):
    """The input is not one JSON text (or exceeds a limit)."""

    def __init__(self, rule: str, message: str, line: int | None = None):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line


class JNum:
    """A JSON number, kept as its exact source text (no float rounding, no
    4,300-digit int limit).  Numbers never satisfy a string/object/array type."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other):
        return isinstance(other, JNum) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return f"JNum({self.text})"


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON value (RFC 8259 section 6)")


_BOM = b"\xef\xbb\xbf"


def parse(data: bytes, *, allow_bom: bool = False, max_depth: int = MAX_DEPTH,
          report: Report | None = None):
    """Parse ``data`` as exactly one JSON text in UTF-8.

    Raises ParseError.  Duplicate member names keep the last value and are
    reported as warnings on ``report``; a leading UTF-8 BOM is stripped (with a
    warning) only when ``allow_bom``.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("parse() takes bytes")
    data = bytes(data)
    if data.startswith(_BOM):
        if allow_bom:
            if report is not None:
                report.warning("json-bom", "byte order mark ignored (RFC 8259 section 8.1)", line=1)
            data = data[3:]
        else:
            raise ParseError("json-bom", "file starts with a byte order mark: "
                             "RFC 8259 section 8.1 says implementations MUST NOT add one", 1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise ParseError("json-utf8", f"invalid UTF-8 at byte {e.start}: {e.reason} "
                         "(RFC 8259 section 8.1: JSON text MUST be UTF-8)", line) from None

    dups: list[str] = []

    def pairs_hook(pairs):
        d = dict(pairs)
        if len(d) != len(pairs):
            seen = set()
            for k, _ in pairs:
                if k in seen:
                    dups.append(k)
                seen.add(k)
        return d

    kwargs = dict(object_pairs_hook=pairs_hook, parse_int=JNum, parse_float=JNum,
                  parse_constant=_reject_constant)
    if MUTANT == "accept-nan":
        kwargs.pop("parse_constant")
    try:
        value = json.loads(text, **kwargs)
    except json.JSONDecodeError as e:
        raise ParseError("json-syntax", f"not a JSON text: {e.msg} (line {e.lineno} column {e.colno})",
                         e.lineno) from None
    except ValueError as e:  # NaN / Infinity
        raise ParseError("json-syntax", f"not a JSON text: {e}") from None
    except RecursionError:
        raise ParseError("json-depth", f"nesting deeper than this implementation's limit "
                         f"({max_depth} levels)") from None

    depth = _depth(value, max_depth)
    if depth > max_depth:
        raise ParseError("json-depth", f"nesting deeper than this implementation's limit "
                         f"({max_depth} levels)")
    if dups and report is not None:
        shown = ", ".join(json.dumps(k, ensure_ascii=True) for k in dups[:5])
        report.warning("json-duplicate-member",
                       f"{len(dups)} duplicate member name(s) ({shown}); the last value is used "
                       "(RFC 8259 section 4: names SHOULD be unique)")
    return value


def _depth(value, limit: int) -> int:
    """Nesting depth of containers, iteratively; stops counting past ``limit``."""
    if not isinstance(value, (dict, list)):
        return 0
    best = 1
    stack = [(value, 1)]
    pop, push = stack.pop, stack.append
    while stack:
        v, d = pop()
        if d > best:
            best = d
            if best > limit:
                return best
        it = v.values() if isinstance(v, dict) else v
        for c in it:
            if isinstance(c, (dict, list)):
                push((c, d + 1))
    return best


# ---------------------------------------------------------------------------
# Timestamps
# ---------------------------------------------------------------------------

# RFC 3339 section 5.6 date-time (what JSON Schema's "date-time" names).
_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))\Z")
# ISO 8601 date-times, extended or basic format, time zone optional.
_ISO8601 = re.compile(
    r"(\d{4})-?(\d{2})-?(\d{2})(?:[Tt ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?)?"
    r"(?:[Zz]|[+-]\d{2}(?::?\d{2})?)?)?\Z")


def _days_in_month(y: int, m: int) -> int:
    if m == 2:
        return 29 if (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)) else 28
    return 30 if m in (4, 6, 9, 11) else 31


def is_rfc3339(s: str) -> bool:
    m = _RFC3339.match(s)
    if not m:
        return False
    y, mo, d, h, mi, se = (int(m.group(i)) for i in range(1, 7))
    if not (1 <= mo <= 12 and 1 <= d <= _days_in_month(y, mo)):
        return False
    if h > 23 or mi > 59 or se > 60:
        return False
    if m.group(7):
        if int(m.group(8)) > 23 or int(m.group(9)) > 59:
            return False
    return True


def is_iso8601(s: str) -> bool:
    m = _ISO8601.match(s)
    if not m:
        return False
    y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if not (1 <= mo <= 12 and 1 <= d <= _days_in_month(y, mo)):
        return False
    h, mi, se = m.group(4), m.group(5), m.group(6)
    if h is not None and int(h) > 24:
        return False
    if mi is not None and int(mi) > 59:
        return False
    if se is not None and int(se) > 60:
        return False
    return True


# ---------------------------------------------------------------------------
# Statement 1: the Go types and SessionData.Validate()
# ---------------------------------------------------------------------------

def _go_kind(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, str):
        return "string"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, JNum):
        return "number"
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    return type(v).__name__


class _Go:
    """Decodes a parsed JSON value the way the Go types would hold it:
    null (or absence) is the zero value, a value of the wrong JSON type is a
    decode error, unknown members are ignored.  Member names match exactly."""

    def __init__(self, report: Report):
        self.r = report

    def field(self, obj: dict, key: str, kind: str, base: str):
        """Return the member's value, or None for absent/null/wrong type."""
        if key not in obj:
            return None
        v = obj[key]
        if v is None:
            return None
        got = _go_kind(v)
        want = {"string": "string", "struct": "object", "map": "object", "array": "array"}[kind]
        if got != want:
            self.r.error("rules/go-type", f"{key}: a JSON {got} cannot be decoded into the Go "
                         f"type's {kind} field (json.Unmarshal fails)", _ptr(base, key))
            return None
        return v


def _check_timestamp(r: Report, v, ptr: str) -> None:
    if isinstance(v, str) and v != "" and not is_iso8601(v):
        r.warning("rules/timestamp-iso8601", f"{v!r} is not an ISO 8601 timestamp "
                  "(\"All timestamps must be ISO 8601 format\"; not among Validate()'s checks)", ptr)


def check_rules(doc, r: Report) -> None:
    """The Go types plus the "Validation rules" list of session-data.md."""
    if not isinstance(doc, dict):
        r.error("rules/go-type", f"the JSON text holds a {_go_kind(doc)}, not the SessionData object", "")
        return
    go = _Go(r)
    sv = go.field(doc, "schemaVersion", "string", "")
    if MUTANT == "schema-version-prefix":
        sv_ok = isinstance(sv, str) and sv.startswith("1")
    else:
        sv_ok = sv == "1.0"
    if not sv_ok:
        r.error("rules/schemaVersion", f"schemaVersion must be \"1.0\" (found {sv!r})", "/schemaVersion")

    prov = go.field(doc, "provider", "struct", "")
    prov = prov if prov is not None else {}
    for k in ("id", "name", "version"):
        v = go.field(prov, k, "string", "/provider")
        if not v:
            if MUTANT == "provider-version-optional" and k == "version":
                continue  # mutant
            r.error("rules/provider", f"provider.{k} must be non-empty", f"/provider/{k}")
    pid = prov.get("id")
    if isinstance(pid, str) and pid and pid not in PROVIDERS:
        r.note("rules/provider-id", f"provider.id {pid!r} is not one of the ids the spec lists "
               "(claude, cursor, codex, gemini)", "/provider/id")

    for k in ("sessionId", "createdAt", "workspaceRoot"):
        v = go.field(doc, k, "string", "")
        if not v:
            r.error("rules/required", f"{k} must be non-empty", "/" + k)
    for k in ("updatedAt", "slug"):
        go.field(doc, k, "string", "")
    _check_timestamp(r, doc.get("createdAt"), "/createdAt")
    _check_timestamp(r, doc.get("updatedAt"), "/updatedAt")

    if "exchanges" not in doc or doc["exchanges"] is None:
        r.warning("rules/exchanges-absent", "exchanges is absent or null: the field table says "
                  "Required, but the Go type decodes it as an empty slice", "/exchanges")
    exchanges = go.field(doc, "exchanges", "array", "")
    if not exchanges:
        return
    seen_ids: dict[str, int] = {}
    for i, ex in enumerate(exchanges):
        base = f"/exchanges/{i}"
        if ex is None:
            ex = {}
        elif not isinstance(ex, dict):
            r.error("rules/go-type", f"exchange is a JSON {_go_kind(ex)}, not an object", base)
            continue
        eid = go.field(ex, "exchangeId", "string", base)
        if not eid:
            r.error("rules/exchangeId", "exchange must have a non-empty exchangeId", base + "/exchangeId")
        else:
            if eid in seen_ids:
                r.warning("rules/exchangeId-unique", f"exchangeId {eid!r} repeats exchange "
                          f"{seen_ids[eid]} (\"Must be unique within the session\"; not among "
                          "Validate()'s checks)", base + "/exchangeId")
            else:
                seen_ids[eid] = i
        for k in ("startTime", "endTime"):
            go.field(ex, k, "string", base)
            _check_timestamp(r, ex.get(k), f"{base}/{k}")
        go.field(ex, "metadata", "map", base)
        if "messages" not in ex or ex["messages"] is None:
            r.warning("rules/messages-absent", "messages is absent or null: the field table says "
                      "Required, but the Go type decodes it as an empty slice", base + "/messages")
        msgs = go.field(ex, "messages", "array", base)
        for j, m in enumerate(msgs or ()):
            _check_message(go, r, m, f"{base}/messages/{j}")


def _check_message(go: _Go, r: Report, m, base: str) -> None:
    if m is None:
        m = {}
    elif not isinstance(m, dict):
        r.error("rules/go-type", f"message is a JSON {_go_kind(m)}, not an object", base)
        return
    for k in ("id", "timestamp"):
        go.field(m, k, "string", base)
    _check_timestamp(r, m.get("timestamp"), base + "/timestamp")
    go.field(m, "metadata", "map", base)
    role = go.field(m, "role", "string", base)
    model = go.field(m, "model", "string", base)
    content = go.field(m, "content", "array", base)
    tool = go.field(m, "tool", "struct", base)
    hints = go.field(m, "pathHints", "array", base)

    for k, part in enumerate(content or ()):
        pbase = f"{base}/content/{k}"
        if part is None:
            part = {}
        elif not isinstance(part, dict):
            r.error("rules/go-type", f"content part is a JSON {_go_kind(part)}, not an object", pbase)
            continue
        ptype = go.field(part, "type", "string", pbase)
        go.field(part, "text", "string", pbase)
        if ptype not in PART_TYPES:
            r.error("rules/contentPart-type", f"contentPart.type must be \"text\" or \"thinking\" "
                    f"(found {ptype!r})", pbase + "/type")
    for k, h in enumerate(hints or ()):
        if h is not None and not isinstance(h, str):
            r.error("rules/go-type", f"pathHints entry is a JSON {_go_kind(h)}, not a string",
                    f"{base}/pathHints/{k}")

    if tool is not None:
        tbase = base + "/tool"
        name = go.field(tool, "name", "string", tbase)
        ttype = go.field(tool, "type", "string", tbase)
        for k in ("useId", "summary", "formattedMarkdown"):
            go.field(tool, k, "string", tbase)
        for k in ("input", "output"):
            go.field(tool, k, "map", tbase)
        if not name:
            r.error("rules/tool-name", "tool.name must be non-empty", tbase + "/name")
        valid_types = TOOL_TYPES
        if MUTANT == "tool-type-no-unknown":
            valid_types = TOOL_TYPES[:-1]
        if ttype not in valid_types:
            r.error("rules/tool-type", f"tool.type must be one of {', '.join(TOOL_TYPES)} "
                    f"(found {ttype!r})", tbase + "/type")

    # Go semantics (omitempty): an empty string/array or null is an absent field.
    has_content = bool(content)
    if MUTANT == "empty-content-counts":
        has_content = content is not None
    has_tool = tool is not None
    has_model = bool(model)
    has_hints = bool(hints)
    if role == "user":
        if not has_content:
            r.error("rules/user-content", "user messages must have non-empty content", base + "/content")
        if has_tool and MUTANT != "user-tool-allowed":
            r.error("rules/user-tool", "user messages cannot have a tool field", base + "/tool")
        if has_model:
            r.error("rules/user-model", "user messages cannot have a model field", base + "/model")
    elif role == "agent":
        if MUTANT == "agent-pathhints-ignored":
            has_hints = False
        if not (has_content or has_tool or has_hints):
            r.error("rules/agent-empty", "agent messages must have at least one of: content, tool, "
                    "or pathHints", base)
    else:
        r.error("rules/role", f"role must be \"user\" or \"agent\" (found {role!r})", base + "/role")


# ---------------------------------------------------------------------------
# Statement 2: the JSON Schema (a small draft 2020-12 validator)
# ---------------------------------------------------------------------------

_SCHEMA_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, JNum),
    "integer": lambda v: isinstance(v, JNum) and _is_integer_text(v.text),
}


def _is_integer_text(t: str) -> bool:
    # draft 2020-12: an integer is a number with a zero fractional part (1.0 is one).
    from decimal import Decimal, InvalidOperation
    try:
        d = Decimal(t)
    except InvalidOperation:
        return False
    return d == d.to_integral_value()


def _json_equal(a, b) -> bool:
    if isinstance(a, JNum) and isinstance(b, JNum):
        from decimal import Decimal
        return Decimal(a.text) == Decimal(b.text)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return a == b


def _to_schema_value(v):
    """The schema document's own literals (const/enum), in the parsed model."""
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)):
        return JNum(repr(v))
    if isinstance(v, list):
        return [_to_schema_value(x) for x in v]
    return {k: _to_schema_value(x) for k, x in v.items()}


class SchemaValidator:
    """Compiles the keywords the spec's schema uses: $ref (local), type, const,
    enum, required, properties, additionalProperties (boolean or schema),
    items (schema), format (annotation only: reported as a warning).  Other
    keywords are not used by the schema and are ignored."""

    def __init__(self, schema: dict):
        self.root = schema
        self._compiled: dict[int, object] = {}
        self.check = self._compile(schema)

    def _resolve(self, ref: str) -> dict:
        if not ref.startswith("#"):
            raise ValueError(f"non-local $ref {ref!r} is not supported")
        node = self.root
        frag = ref[1:]
        if frag:
            for tok in frag.lstrip("/").split("/"):
                tok = tok.replace("~1", "/").replace("~0", "~")
                node = node[int(tok)] if isinstance(node, list) else node[tok]
        return node

    def _compile(self, schema):
        if schema is True or schema == {}:
            return lambda v, p, r: None
        if schema is False:
            return lambda v, p, r: r.error("schema/false", "no value is allowed here", p)
        key = id(schema)
        if key in self._compiled:
            return self._compiled[key]
        checks = []

        def run(v, p, r):
            for c in checks:
                c(v, p, r)
        self._compiled[key] = run

        if "$ref" in schema:
            target = self._resolve(schema["$ref"])
            sub_holder = []

            def ref_check(v, p, r):
                if not sub_holder:
                    sub_holder.append(self._compile(target))
                sub_holder[0](v, p, r)
            checks.append(ref_check)

        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            preds = [_SCHEMA_TYPES[t] for t in types]
            tname = " or ".join(types)

            def type_check(v, p, r, preds=preds, tname=tname):
                if not any(pr(v) for pr in preds):
                    r.error("schema/type", f"must be of type {tname} (found {_go_kind(v)})", p)
            checks.append(type_check)

        if "const" in schema:
            cv = _to_schema_value(schema["const"])

            def const_check(v, p, r, cv=cv):
                if MUTANT == "schema-version-prefix" and isinstance(v, str) and v.startswith("1"):
                    return  # mutant
                if not _json_equal(v, cv):
                    r.error("schema/const", f"must be {json.dumps(schema['const'])}", p)
            checks.append(const_check)

        if "enum" in schema:
            ev = [_to_schema_value(x) for x in schema["enum"]]

            def enum_check(v, p, r, ev=ev):
                if MUTANT == "schema-enum-casefold" and isinstance(v, str):
                    if any(isinstance(x, str) and x.lower() == v.lower() for x in ev):
                        return
                if not any(_json_equal(v, x) for x in ev):
                    r.error("schema/enum", f"must be one of {json.dumps(schema['enum'])}", p)
            checks.append(enum_check)

        if "format" in schema:
            fmt = schema["format"]

            def format_check(v, p, r, fmt=fmt):
                if fmt == "date-time" and isinstance(v, str) and not is_rfc3339(v):
                    r.warning("schema/format", f"{v!r} is not an RFC 3339 date-time (format is an "
                              "annotation in draft 2020-12, not asserted)", p)
            checks.append(format_check)

        if "required" in schema:
            req = list(schema["required"])
            if MUTANT == "exchanges-optional":
                req = [k for k in req if k != "exchanges"]  # mutant

            def required_check(v, p, r, req=req):
                if isinstance(v, dict):
                    for k in req:
                        if k not in v:
                            r.error("schema/required", f"required member {k!r} is missing", _ptr(p, k))
            checks.append(required_check)

        props = {k: self._compile(s) for k, s in schema.get("properties", {}).items()}
        if "additionalProperties" in schema:
            ap = schema["additionalProperties"]
            ap_check = None if ap is True else self._compile(ap) if ap is not False else False
        else:
            ap_check = None
        if MUTANT == "schema-additional-ok":
            ap_check = None
        if props or ap_check is not None:
            def props_check(v, p, r, props=props, ap_check=ap_check):
                if not isinstance(v, dict):
                    return
                for k, x in v.items():
                    c = props.get(k)
                    if c is not None:
                        c(x, _ptr(p, k), r)
                    elif ap_check is False:
                        r.error("schema/additionalProperties", f"member {k!r} is not allowed here",
                                _ptr(p, k))
                    elif ap_check is not None:
                        ap_check(x, _ptr(p, k), r)
            checks.append(props_check)

        if "items" in schema:
            ic = self._compile(schema["items"])

            def items_check(v, p, r, ic=ic):
                if isinstance(v, list):
                    for i, x in enumerate(v):
                        ic(x, f"{p}/{i}", r)
            checks.append(items_check)
        return run


_SCHEMA = json.loads(SCHEMA_TEXT)
_SCHEMA_VALIDATOR = SchemaValidator(_SCHEMA)


def check_schema(doc, r: Report) -> None:
    _SCHEMA_VALIDATOR.check(doc, "", r)


# ---------------------------------------------------------------------------
# validate
# ---------------------------------------------------------------------------

def validate(data: bytes, statement: str = "both", *, max_depth: int = MAX_DEPTH) -> Report:
    """Judge ``data`` (the file's bytes) under ``statement``."""
    if statement not in STATEMENTS:
        raise ValueError(f"statement must be one of {STATEMENTS}")
    r = Report()
    try:
        doc = parse(data, allow_bom=False, max_depth=max_depth, report=r)
    except ParseError as e:
        r.error(e.rule, e.message, line=e.line)
        return r
    if statement in ("rules", "both"):
        check_rules(doc, r)
    if statement in ("schema", "both"):
        check_schema(doc, r)
    return r


# ---------------------------------------------------------------------------
# render
# ---------------------------------------------------------------------------

_MD_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")
_SURROGATE = re.compile("[\ud800-\udfff]")
_TRAILING_WS = re.compile(r"[ \t]+\Z")
# Lines that could close a backtick fence (CommonMark 0.31 section 4.5).
_CLOSING_BACKTICKS = re.compile(r"^ {0,3}(`{3,})[ \t]*$", re.M)


def md_inline(s) -> str:
    """Session text as literal inline CommonMark: every ASCII punctuation
    character backslash-escaped, line breaks and trailing blanks as numeric
    character references, so the text stays on one line and creates no node."""
    if not isinstance(s, str):
        s = _json_text(s)
    s = _MD_PUNCT.sub(r"\\\1", s)
    s = s.replace("\r", "&#13;").replace("\n", "&#10;")
    m = _TRAILING_WS.search(s)
    if m:
        tail = "".join("&#9;" if c == "\t" else "&#32;" for c in m.group(0))
        s = s[:m.start()] + tail
    if s[:1] in (" ", "\t"):
        s = ("&#9;" if s[0] == "\t" else "&#32;") + s[1:]
    return s


def _fence_for(text: str, minimum: int = 3) -> str:
    n = minimum - 1
    if "```" not in text:
        return "`" * minimum
    for m in _CLOSING_BACKTICKS.finditer(text):
        if len(m.group(1)) > n:
            n = len(m.group(1))
    if MUTANT == "render-fixed-fence":
        return "```"
    return "`" * max(minimum, n + 1)


def _code_block(text: str, info: str = "text") -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    fence = _fence_for(text)
    if text and not text.endswith("\n"):
        text += "\n"
    return f"{fence}{info}\n{text}{fence}\n"


def _json_text(v, indent: int | None = None) -> str:
    return _dump(v, indent, 0)


def _dump(v, indent, level) -> str:
    if isinstance(v, JNum):
        return v.text
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        if not v:
            return "{}"
        if indent is None:
            return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _dump(x, None, 0)
                                  for k, x in v.items()) + "}"
        pad = " " * (indent * (level + 1))
        items = [pad + json.dumps(k, ensure_ascii=False) + ": " + _dump(x, indent, level + 1)
                 for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * (indent * level) + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        if indent is None:
            return "[" + ",".join(_dump(x, None, 0) for x in v) + "]"
        pad = " " * (indent * (level + 1))
        items = [pad + _dump(x, indent, level + 1) for x in v]
        return "[\n" + ",\n".join(items) + "\n" + " " * (indent * level) + "]"
    return json.dumps(str(v))


_HTML_BLOCK_STARTS = [
    (re.compile(r"^ {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|$)", re.I), re.compile(r"</(?:script|pre|style|textarea)>", re.I), "</pre>"),
    (re.compile(r"^ {0,3}<!--"), re.compile(r"-->"), "-->"),
    (re.compile(r"^ {0,3}<\?"), re.compile(r"\?>"), "?>"),
    (re.compile(r"^ {0,3}<![A-Za-z]"), re.compile(r">"), ">"),
    (re.compile(r"^ {0,3}<!\[CDATA\["), re.compile(r"\]\]>"), "]]>"),
]
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})")


def _closer_for(markdown: str) -> str:
    """What to append after provider Markdown so that a fenced code block or a
    raw HTML block (CommonMark types 1-5) it leaves open ends before our own
    content.  Top-level constructs only (a container's blocks end with it)."""
    fence = None  # (char, length)
    html_end = None
    closer = ""
    for line in markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if fence is not None:
            m = re.match(r"^ {0,3}(" + re.escape(fence[0]) + "{%d,})[ \t]*$" % fence[1], line)
            if m:
                fence = None
            continue
        if html_end is not None:
            if html_end[0].search(line):
                html_end = None
            continue
        m = _FENCE_OPEN.match(line)
        if m:
            fence = (m.group(1)[0], len(m.group(1)))
            continue
        for start, end, close in _HTML_BLOCK_STARTS:
            sm = start.match(line)
            if sm:
                # the end condition may be met on the start line itself
                if not end.search(line, sm.end()):
                    html_end = (end, close)
                break
    if fence is not None:
        closer = fence[0] * fence[1] + "\n"
    elif html_end is not None:
        closer = html_end[1] + "\n"
    return closer


def _label(name: str, value) -> str:
    return f"{name}: {md_inline(value)}"


def render(data: bytes, *, max_depth: int = MAX_DEPTH):
    """Return (report, markdown or None).  Refused only when the input is not
    one JSON text holding an object (or exceeds the depth limit)."""
    r = Report()
    try:
        doc = parse(data, allow_bom=True, max_depth=max_depth, report=r)
    except ParseError as e:
        r.error(e.rule, e.message, line=e.line)
        return r, None
    if not isinstance(doc, dict):
        r.error("render/not-object", f"the JSON text holds a {_go_kind(doc)}, not an object")
        return r, None
    out: list[str] = []
    w = out.append
    w("# Session transcript\n\n")

    prov = doc.get("provider")
    if isinstance(prov, dict):
        bits = []
        for k in ("name", "id", "version"):
            if k in prov and prov[k] is not None and prov[k] != "":
                bits.append(f"{k} {md_inline(prov[k])}")
        if bits:
            w("Provider: " + ", ".join(bits) + "\n\n")
    for key, label in (("slug", "Slug"), ("sessionId", "Session"), ("workspaceRoot", "Workspace"),
                       ("createdAt", "Created"), ("updatedAt", "Updated")):
        if key in doc and doc[key] is not None and doc[key] != "":
            w(_label(label, doc[key]) + "\n\n")

    exchanges = doc.get("exchanges")
    if not isinstance(exchanges, list) or not exchanges:
        w("No exchanges.\n")
        return r, _finish(out)
    for i, ex in enumerate(exchanges):
        w("---\n\n")
        w(f"## Exchange {i + 1}\n\n")
        if not isinstance(ex, dict):
            w(_label("Exchange", ex) + "\n\n")
            continue
        bits = []
        if ex.get("exchangeId") not in (None, ""):
            bits.append(_label("ID", ex["exchangeId"]))
        if ex.get("startTime") not in (None, ""):
            bits.append(_label("Start", ex["startTime"]))
        if ex.get("endTime") not in (None, ""):
            bits.append(_label("End", ex["endTime"]))
        if bits:
            w(" · ".join(bits) + "\n\n")
        msgs = ex.get("messages")
        if not isinstance(msgs, list):
            continue
        if MUTANT == "render-sort-by-timestamp":
            msgs = sorted(msgs, key=lambda m: str(m.get("timestamp", "")) if isinstance(m, dict) else "")
        for m in msgs:
            _render_message(m, w)
    return r, _finish(out)


def _finish(out: list[str]) -> str:
    md = "".join(out)
    if not md.endswith("\n"):
        md += "\n"
    # Lone surrogates (from \ud800-style escapes) cannot be written as UTF-8.
    try:
        md.encode("utf-8")
    except UnicodeEncodeError:
        md = _SURROGATE.sub("\ufffd", md)
    return md


def _render_message(m, w) -> None:
    if not isinstance(m, dict):
        w("### Message\n\n")
        w(_label("Value", m) + "\n\n")
        return
    role = m.get("role")
    if role == "user":
        w("### User\n\n")
    elif role == "agent":
        w("### Agent\n\n")
    else:
        w("### Message\n\n")
        w(_label("Role", role) + "\n\n")
    bits = []
    for key, label in (("model", "Model"), ("timestamp", "Time"), ("id", "ID")):
        if m.get(key) not in (None, ""):
            bits.append(_label(label, m[key]))
    if bits:
        w(" · ".join(bits) + "\n\n")

    content = m.get("content")
    if isinstance(content, list):
        for part in content:
            if isinstance(part, dict):
                ptype, text = part.get("type"), part.get("text")
            else:
                ptype, text = None, part
            if text is None:
                text = ""
            if not isinstance(text, str):
                text = _json_text(text)
            if ptype == "thinking" and MUTANT != "thinking-as-text":
                w("<details>\n<summary>Thinking</summary>\n\n")
                w(_code_block(text))
                w("\n</details>\n\n")
            else:
                w(_code_block(text))
                w("\n")
    elif content is not None:
        w(_code_block(_json_text(content)))
        w("\n")

    tool = m.get("tool")
    hints = m.get("pathHints")
    hint_list = hints if isinstance(hints, list) else ([] if hints is None else [hints])
    if isinstance(tool, dict):
        ttype = tool.get("type")
        name = tool.get("name")
        line = "**Tool use** · " + _label("type", ttype if ttype is not None else "") + \
               " · " + _label("name", name if name is not None else "")
        if MUTANT == "render-name-before-type":
            line = "**Tool use** · " + _label("name", name if name is not None else "") + \
                   " · " + _label("type", ttype if ttype is not None else "")
        if tool.get("useId") not in (None, ""):
            line += " · " + _label("id", tool["useId"])
        w(line + "\n\n")
        if hint_list and MUTANT != "render-drop-pathhints":
            w("Paths: " + ", ".join(md_inline(h) for h in hint_list) + "\n\n")
        if tool.get("summary") is not None:
            w(_label("Summary", tool["summary"]) + "\n\n")
        fm = tool.get("formattedMarkdown")
        if MUTANT == "render-fm-ignored":
            fm = None  # mutant
        if isinstance(fm, str):
            # Provider Markdown, byte for byte, at top level; then close any
            # fence or raw HTML block it leaves open.
            w(fm)
            if not fm.endswith(("\n", "\r")):
                w("\n")
            w(_closer_for(fm))
            w("\n")
        else:
            for key, label in (("input", "Input"), ("output", "Output")):
                if key in tool and tool[key] is not None:
                    w(f"{label}:\n\n")
                    w(_code_block(_json_text(tool[key], indent=2), "json"))
                    w("\n")
    elif tool is not None:
        w("**Tool use**\n\n")
        w(_code_block(_json_text(tool), "json"))
        w("\n")
        if hint_list:
            w("Paths: " + ", ".join(md_inline(h) for h in hint_list) + "\n\n")
    elif hint_list:
        w("Paths: " + ", ".join(md_inline(h) for h in hint_list) + "\n\n")
