"""The MCP record/replay part of the schema cross-check (schemas/crosscheck_test.py imports it).

TJ-SPEC-010 ships its own JSON Schema: the ```json block of §9 ("Appendix: Recording Format JSON
Schema"), draft-07, one instance per line of a recording. It is the `schema` statement of the line
format (conformance/mcp_record_replay/errata.md, MRR-E2; the Serde types of F-002 are the other).
This check

  1. reads the block out of ../shared/specs/mcp-record-replay.md at run time (never retyped) and
     checks that schemas/mcp_record_replay/recording.schema.json holds it byte for byte, that it is
     a valid draft-07 schema that says so, that format "date-time" is really asserted with the
     RFC 3339 checker of crosscheck_lib registered (errata MRR-E20), and that `pattern` is read as
     ECMA 262 (draft-07 says so; Python's `re` would let "1.0\\n" and "١.٠" through). Without the
     spec it says so and uses the committed copy;
  2. validates every line of every VALIDATE case of vectors/mcp_record_replay/manifest.json with
     Python jsonschema (Draft7Validator, the date-time checker registered, ECMA patterns) and
     compares with the manifest: the MRR-SCHEMA ids of the case's rules.errors must be exactly the
     ids of what jsonschema reports (a oneOf error cited as the errors of the definition the
     line's `type` names, or as the oneOf itself when it names none: errata MRR-E2); a case whose
     expectation is required `valid` must have every line accepted; a case flagged MRR-E2 must
     have its `schema` reading's outcome equal to jsonschema's verdict on its lines (those cases
     are otherwise perfect files); a case flagged MRR-E20 must have its `rfc-3339` reading equal
     to that verdict too (format asserted: the schema's date-time is RFC 3339's). The lines
     are read as the schema statement reads them under the ARCS readings: a leading BOM and blank
     lines left to the text rules (MRR-JSON-3, MRR-JSON-1), LF or CRLF ends, strict UTF-8,
     Python's json (NaN refused, lone surrogates kept, the last of repeated names). Cases with
     args.limits are skipped (the limit decides, MRR-JSON-5);
  3. compares with the reference (`arcs validate --json --format mcp-record-replay`) once the
     registry lists the format: the reference's MRR-SCHEMA ids are the manifest's;
  4. prints the rules a schema of one line cannot express, and those of the Serde statement that
     differ from the schema's.

Run alone from the repository root: python3 schemas/mcp_record_replay/crosscheck.py [--arcs ARCS]
"""

import json
import os
import re
import sys

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from crosscheck_lib import (compare_reference_schema_ids, crosscheck_main, load_json,  # noqa: E402
                            make_format_checker, report_rule_tables)

SCHEMA = "schemas/mcp_record_replay/recording.schema.json"
MANIFEST = "vectors/mcp_record_replay/manifest.json"
CATALOGUE = "conformance/mcp_record_replay/requirements.json"
CASES_BASE = "vectors/mcp_record_replay"
FORMAT = "mcp-record-replay"

# Rules a JSON Schema applied to one line cannot express (or that the spec's schema does not
# state), by catalogue id.
SCHEMA_INEXPRESSIBLE = {
    "MRR-JSON-1": "text: NDJSON lines, RFC 8259 syntax, UTF-8, one object per line, blank lines "
                  "(MRR-E4, MRR-E5, MRR-E8; such lines have no instance)",
    "MRR-JSON-2": "text: the LF after the last line (MRR-E9)",
    "MRR-JSON-3": "text: a leading byte order mark (MRR-E6)",
    "MRR-JSON-4": "text: repeated member names (lost once parsed; MRR-E24)",
    "MRR-JSON-5": "limits: line length and nesting depth (configurable; MRR-E25)",
    "MRR-HEADER-1": "across lines: the header is line 1 (MRR-E12)",
    "MRR-HEADER-2": "across lines: one header (MRR-E13)",
    "MRR-HEADER-3": "version exactly \"1.0\" (EC-REC-008; a const would do, the spec's schema "
                    "states a pattern that admits \"2.0\": MRR-E17)",
    "MRR-MESSAGE-7": "across lines: seq increases (MRR-E18, MRR-E19)",
    "MRR-FOOTER-1": "across lines: nothing after the footer (MRR-E14)",
    "MRR-FOOTER-3": "across lines: the footer's counts (warning, MRR-E15)",
    "MRR-JSONRPC-7": "across lines: a response pairs with a request (warning, MRR-E28)",
    "MRR-MESSAGE-9, MRR-JSONRPC-1..6, MRR-JSONRPC-8": "msg's JSON-RPC 2.0 shape (warnings, "
                                                       "MRR-E26); the schema only describes it",
}
SERDE_STATEMENT = {
    "MRR-FORMAT-8": "RecordLine's tag: a repeated `type` is a duplicate field (the schema reads the "
                    "last)",
    "MRR-HEADER-4..9, MRR-MESSAGE-2..6, MRR-FOOTER-4..7":
        "serde and serde_json: u64 written with digits only and at most 2^64-1 (the schema's "
        "integer admits 1.0, 1e0, -0, 2^64); Option<T> admits null (name, latency_ms); msg is any "
        "JSON value (a batch array, a string, null); a repeated field is refused; chrono's "
        "date-time (MRR-E2, MRR-E20)",
    "MRR-JSON-1 (serde)": "serde_json refuses lone surrogate escapes and numbers beyond the "
                          "doubles anywhere in a line; Python's json reads them (MRR-E2, MRR-E5)",
}


# ----------------------------------------------------------------------------------------------
# The schema statement.

def _spec_block():
    for p in (os.path.join("..", "shared", "specs", "mcp-record-replay.md"),
              os.path.join("..", "..", "shared", "specs", "mcp-record-replay.md")):
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                text = f.read()
            m = re.search(r"^## 9\. Appendix: Recording Format JSON Schema\n\n```json\n(.*?)^```",
                          text, re.S | re.M)
            return m.group(1) if m else ""
    return None


def ecma_regex(pattern):
    """An ECMA 262 regular expression as a Python one, for what draft-07 schemas of this kind use:
    \\d \\w (and their negations) are ASCII classes; `$` outside a class matches only at the end."""
    out, i, in_class = [], 0, False
    ascii_class = {"d": "0-9", "w": "A-Za-z0-9_"}
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            e = pattern[i + 1]
            if e in ascii_class:
                out.append(ascii_class[e] if in_class else "[" + ascii_class[e] + "]")
            elif e.lower() in ascii_class and not in_class:
                out.append("[^" + ascii_class[e.lower()] + "]")
            else:
                out.append(c + e)
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "$" and not in_class:
            c = r"(?![\s\S])"
        out.append(c)
        i += 1
    return re.compile("".join(out))


def _ecma_pattern(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and not ecma_regex(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r} (ECMA 262)")


RecordingValidator = jsonschema.validators.extend(jsonschema.Draft7Validator,
                                                  validators={"pattern": _ecma_pattern})


def schema_ids(catalogue):
    table = {}
    for r in catalogue["requirements"]:
        m = re.match(r"Location `([^`]+)`, keyword `([^`]+)`", r.get("reason", ""))
        if m and r["id"].startswith("MRR-SCHEMA-"):
            table[(m.group(1), m.group(2))] = r["id"]
    return table


def cite(validator, schema, table, value):
    """The catalogue ids of what jsonschema reports for one line (errata MRR-E2's citation)."""
    branches = [b["$ref"] for b in schema["oneOf"]]
    kind = value.get("type") if isinstance(value.get("type"), str) else None
    selected = branches.index("#/definitions/" + kind) if kind and \
        "#/definitions/" + kind in branches else None
    ids = set()
    for err in validator.iter_errors(value):
        errs = [err]
        if list(err.absolute_schema_path) == ["oneOf"]:
            errs = [c for c in err.context if selected is not None and
                    c.absolute_schema_path[1] == selected] or [err]
        for e in errs:
            path = list(e.absolute_schema_path)
            if path[:1] == ["oneOf"] and len(path) >= 3:
                loc = branches[path[1]] + "".join("/" + str(p) for p in path[2:-1])
            else:
                loc = "#" + "".join("/" + str(p) for p in path[:-1])
            ids.add(table.get((loc, path[-1]), f"(no id: {loc} {path[-1]})"))
    return ids


def instances(raw):
    """The values of the lines the schema statement reads: a leading BOM removed, blank lines and
    lines that are not one JSON object in UTF-8 left out."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    parts = raw.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()
    out = []
    for part in parts:
        if part.endswith(b"\r"):
            part = part[:-1]
        if part.strip(b" \t\r") == b"":
            continue
        try:
            value = json.loads(part.decode("utf-8"), parse_constant=_refuse)
        except (UnicodeDecodeError, ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def _refuse(name):
    raise ValueError(name)


def _reading(expect, base):
    """The outcome of reading `base` (or its MRR-E11 halves, which agree in validate)."""
    r = expect["readings"]
    return r.get(base, r.get(base + "-parse-only"))


def check(tally, arcs, cases, catalogue_ids):
    """cases: the manifest's cases (inputs relative to vectors/mcp_record_replay/); arcs: the arcs
    binary, or None to check the manifest only."""
    report_rule_tables(tally, [
        ("rules a schema of one line cannot express (text, across lines, msg's JSON-RPC shape)",
         SCHEMA_INEXPRESSIBLE),
        ("the Serde statement, where it differs from the schema's", SERDE_STATEMENT)])
    if catalogue_ids:
        named = set()
        for key in list(SCHEMA_INEXPRESSIBLE) + list(SERDE_STATEMENT):
            named |= set(re.findall(r"MRR-[A-Z]+-[0-9]+", key))
        unknown = sorted(named - catalogue_ids)
        tally.check(not unknown, "the rule tables name ids missing from the catalogue", unknown)

    # 1. The schema is the spec's block, a valid draft-07 schema, format and pattern asserted.
    with open(SCHEMA, "rb") as f:
        committed = f.read()
    block = _spec_block()
    if block is None:
        print("crosscheck: mcp-record-replay.md not found: the schema was not compared with the "
              "spec's block (the committed copy is used)")
    else:
        tally.check(committed == block.encode("utf-8"),
                    f"{SCHEMA} is not byte for byte the JSON Schema block of §9 of "
                    "mcp-record-replay.md")
    try:
        schema = json.loads(committed.decode("utf-8"))
        jsonschema.Draft7Validator.check_schema(schema)
    except (ValueError, jsonschema.SchemaError) as e:
        tally.check(False, f"{SCHEMA}: not a valid draft-07 schema", str(e).split("\n")[0])
        return
    tally.check(schema.get("$schema") == "http://json-schema.org/draft-07/schema#",
                f"{SCHEMA}: $schema is not draft-07")
    asserted = RecordingValidator(schema, format_checker=make_format_checker())
    header = {"type": "header", "version": "1.0", "recorded_at": "2025-02-04T10:00:00.000Z",
              "upstream": "u", "thoughtjack_version": "0.3.0"}
    tally.check(asserted.is_valid(header), "the schema refuses a plain header")
    tally.check(not asserted.is_valid(dict(header, recorded_at="2025-02-30T10:00:00Z")),
                "format date-time is not asserted (2025-02-30 passes)")
    for v in ("1.0\n", "\u0661.\u0660"):
        tally.check(not asserted.is_valid(dict(header, version=v)),
                    f"pattern is not read as ECMA 262 ({v!r} passes)")
    catalogue = load_json(CATALOGUE)
    table = schema_ids(catalogue)

    # 2. Every validate case, line by line.
    compared = 0
    for c in cases:
        op = (c.get("operations") or {}).get("validate")
        if not op or (c.get("args") or {}).get("limits"):
            continue
        path = os.path.join(CASES_BASE, c["inputs"]["recording"])
        with open(path, "rb") as f:
            raw = f.read()
        values = instances(raw)
        got_ids = set()
        for v in values:
            got_ids |= cite(asserted, schema, table, v)
        got = "invalid" if got_ids else "valid"
        listed = sorted(r for r in op["rules"]["errors"] if r.startswith("MRR-SCHEMA-"))
        compared += 1
        tally.check(listed == sorted(got_ids), f"case {c['id']}: rules.errors lists the schema ids "
                    f"{listed}, jsonschema reports {sorted(got_ids)}")
        e = op["expect"]
        if e.get("outcome") == "valid":
            tally.check(got == "valid", f"case {c['id']}: required valid, jsonschema refuses a "
                        f"line ({sorted(got_ids)})")
        if e.get("flag") == "MRR-E2":
            want = _reading(e, "schema")
            tally.check(got == want, f"case {c['id']}: the schema reading is {want}, jsonschema "
                        f"says {got}")
        if e.get("flag") == "MRR-E20":
            want = _reading(e, "rfc-3339")
            tally.check(got == want, f"case {c['id']}: the rfc-3339 reading is {want}, jsonschema "
                        f"says {got}")
    print(f"crosscheck: {FORMAT}: {compared} validate cases checked line by line against the "
          "spec's schema")

    # 3. The reference, once it lists the format.
    compare_reference_schema_ids(tally, arcs, FORMAT, cases, lambda c: os.path.join(CASES_BASE, c["inputs"]["recording"]), "MRR-SCHEMA-")

def main():
    return crosscheck_main(__doc__.split("\n\n")[0], MANIFEST, CATALOGUE, check)

if __name__ == "__main__":
    sys.exit(main())
