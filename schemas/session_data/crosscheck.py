"""The SessionData part of the schema cross-check (schemas/crosscheck_test.py imports it).

SessionData ships its own JSON Schema: the spec's "## JSON Schema" block is the `schema`
statement of the format (conformance/session_data/errata.md, SD-E1). This check

  1. reads the block out of ../shared/specs/session-data.md at run time (never retyped) and
     checks that schemas/session_data/session.schema.json holds it byte for byte, that it is a
     valid draft 2020-12 schema, and that format "date-time" is really asserted with the checker
     registered (RFC 3339, crosscheck_lib.make_format_checker; errata SD-E13). Without the spec it
     says so and uses the committed copy;
  2. validates every case of vectors/session_data/manifest.json with Python jsonschema
     (Draft202012Validator) and compares the verdict with the manifest's schema verdict: the
     `schema` outcome of a required or policy expectation, or the `<arcs reading>-schema` reading
     of a flagged one (`statements-only-schema` for the prose flags SD-E17..SD-E21) (and, for SD-E13, the `annotation-schema` reading against a validator
     without the format checker). The file is read as the schema statement reads it under the
     ARCS readings: strict UTF-8 (SD-E8), no BOM (SD-E7), Python's json (the last of repeated
     names wins, SD-E22; NaN refused; lone surrogates kept, SD-E28). Cases with args.limits are
     skipped (the limit decides, SD-E23). The SD-SCHEMA ids of the case's rules.errors must be
     exactly the catalogue ids of the keywords jsonschema reports;
  3. compares with the reference (`arcs validate --json --format session-data`) once it exists:
     the file is schema-valid exactly when the reference reports no SD-SCHEMA finding. When
     `arcs formats --json` does not list session-data, this part is skipped with a note;
  4. prints the rules a schema cannot express (the rules statement and the prose).

Run alone from the repository root: python3 schemas/session_data/crosscheck.py [--arcs build/arcs]
"""

import importlib.util
import json
import os
import re
import sys

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from crosscheck_lib import (compare_reference_schema_ids, crosscheck_main, load_json,  # noqa: E402
                            make_format_checker, report_rule_tables, schema_errors)

SCHEMA = "schemas/session_data/session.schema.json"
MANIFEST = "vectors/session_data/manifest.json"
CATALOGUE = "conformance/session_data/requirements.json"
GENERATOR = "vectors/session_data/generate.py"
FORMAT = "session-data"

# Rules a JSON Schema of the file cannot express, or that the spec's schema does not state.
SCHEMA_INEXPRESSIBLE = {
    "SD-JSON-1": "text: syntax, UTF-8, a BOM (such files have no instance)",
    "SD-JSON-2": "text: repeated member names (lost once parsed)",
    "SD-JSON-3": "limits: nesting depth (configurable)",
    "SD-NOTES-8": "across elements: exchangeId unique (prose, SD-E17)",
    "SD-TOP-14": "slug filename-safe (prose, SD-E19; expressible as a pattern, not stated)",
    "SD-TOP-15": "workspaceRoot absolute (prose, SD-E18; expressible as a pattern, not stated)",
}
RULES_STATEMENT = {
    "SD-VALIDATE-*": "Validate(): non-empty strings, user/agent constraints (SD-E4..SD-E6); "
                     "expressible with minLength and if/then, not stated by the spec's schema",
    "SD-TOP-1..8, SD-PROVIDER-1..3, SD-EXCHANGE-1..5, SD-MESSAGE-1..8, SD-CONTENT-1..2, "
    "SD-TOOL-1..7": "Go decoding: case-insensitive names, null as the zero value, float64 range "
                    "(SD-E9..SD-E11, SD-E14)",
}


# Flags whose readings add a prose sentence to every statement; the schema's own verdict is
# their statements-only reading.
PROSE_FLAGS = {"SD-E17", "SD-E18", "SD-E19", "SD-E20", "SD-E21"}


def _spec_block():
    for p in (os.path.join("..", "shared", "specs", "session-data.md"),
              os.path.join("..", "..", "shared", "specs", "session-data.md")):
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                text = f.read()
            m = re.search(r"^## JSON Schema\n\n```json\n(.*?)^```", text, re.S | re.M)
            return m.group(1) if m else ""
    return None


def _generator():
    spec = importlib.util.spec_from_file_location("session_data_generate", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _instance(raw, gen):
    """The value the schema statement validates (ARCS readings) and whether the file is a JSON
    text: a BOM (SD-E7) and ill-formed UTF-8 (SD-E8) are findings of their own, and the value
    after the mark, bytes replaced, is judged all the same. Raises gen.NotJson without a value."""
    is_text = not raw.startswith(b"\xef\xbb\xbf")
    raw = raw if is_text else raw[3:]
    try:
        gen.decode_text(raw, "strict")
    except gen.NotJson:
        is_text = False
    return gen.to_plain(gen.parse_pairs(gen.decode_text(raw, "replace")), "last"), is_text


def _expected(expect, reading_suffix="schema"):
    """The manifest's schema verdict for the ARCS reading (and the annotation reading of SD-E13)."""
    if "outcome" in expect:
        return expect["outcome"], None
    if "outcomes" in expect:
        return expect["outcomes"]["schema"], None
    base = expect["arcs"].rsplit("-", 1)[0]
    if expect["flag"] in PROSE_FLAGS:
        base = "statements-only"  # the schema alone, without the prose sentence
    annot = expect["readings"].get("annotation-schema") if expect["flag"] == "SD-E13" else None
    return expect["readings"][f"{base}-{reading_suffix}"], annot


def check(tally, arcs, cases, catalogue_ids):
    """cases: the manifest's cases (inputs relative to vectors/session_data/); arcs: the arcs
    binary, or None to check the manifest only."""
    report_rule_tables(tally, [
        ("rules the spec's schema does not express (prose and text)", SCHEMA_INEXPRESSIBLE),
        ("the rules statement (Go types and Validate()), not the schema's", RULES_STATEMENT)])
    if catalogue_ids:
        unknown = sorted(set(SCHEMA_INEXPRESSIBLE) - catalogue_ids)
        tally.check(not unknown, "SCHEMA_INEXPRESSIBLE names rules missing from the catalogue",
                    unknown)

    # 1. The schema is the spec's block, a valid draft 2020-12 schema, with date-time asserted.
    with open(SCHEMA, "rb") as f:
        committed = f.read()
    block = _spec_block()
    if block is None:
        print("crosscheck: session-data.md not found: the schema was not compared with the spec's "
              "block (the committed copy is used)")
    else:
        tally.check(committed == block.encode("utf-8"),
                    f"{SCHEMA} is not byte for byte the JSON Schema block of session-data.md")
    try:
        schema = json.loads(committed.decode("utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
    except (ValueError, jsonschema.SchemaError) as e:
        tally.check(False, f"{SCHEMA}: not a valid draft 2020-12 schema", str(e).split("\n")[0])
        return
    tally.check(schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema",
                f"{SCHEMA}: $schema is not draft 2020-12")
    asserted = jsonschema.Draft202012Validator(schema, format_checker=make_format_checker())
    annotation = jsonschema.Draft202012Validator(schema)
    gen = _generator()
    catalogue = load_json(CATALOGUE)
    ids = gen.schema_id_mapper(catalogue, schema)
    probe = {"schemaVersion": "1.0", "provider": {"id": "claude", "name": "n", "version": "v"},
             "sessionId": "s", "createdAt": "2025-02-30T00:00:00Z", "workspaceRoot": "/",
             "exchanges": []}
    tally.check(not asserted.is_valid(probe), "format date-time is not asserted (2025-02-30 passes)")

    # 2. Every case against the manifest's schema verdict.
    base = "vectors/session_data"
    compared = 0
    for c in cases:
        op = (c.get("operations") or {}).get("validate")
        if not op or (c.get("args") or {}).get("limits"):
            continue
        with open(os.path.join(base, c["inputs"]["file"]), "rb") as f:
            raw = f.read()
        try:
            value, is_text = _instance(raw, gen)
            errs = list(asserted.iter_errors(value))
            got = "invalid" if errs or not is_text else "valid"
            got_annot = "valid" if is_text and annotation.is_valid(value) else "invalid"
            got_ids = sorted({ids(e) for e in errs})
        except gen.NotJson:
            got = got_annot = "invalid"
            got_ids = []
        want, want_annot = _expected(op["expect"])
        compared += 1
        tally.check(got == want, f"case {c['id']}: jsonschema says {got}, the manifest's schema "
                    f"verdict is {want}", schema_errors(asserted, value) if got == "invalid" and
                    got_ids else None)
        if want_annot is not None:
            tally.check(got_annot == want_annot, f"case {c['id']}: without the format checker "
                        f"jsonschema says {got_annot}, the annotation-schema reading is {want_annot}")
        listed = sorted(r for r in op["rules"]["errors"] if r.startswith("SD-SCHEMA-"))
        tally.check(listed == got_ids, f"case {c['id']}: rules.errors lists the schema ids "
                    f"{listed}, jsonschema reports {got_ids}")
    print(f"crosscheck: session-data: {compared} cases validated with the spec's schema")

    # 3. The reference, once it lists the format.
    compare_reference_schema_ids(tally, arcs, FORMAT, cases, lambda c: c["_path"] if "_path" in c else os.path.join(base, c["inputs"]["file"]), "SD-SCHEMA-")

def main():
    return crosscheck_main(__doc__.split("\n\n")[0], MANIFEST, CATALOGUE, check)

if __name__ == "__main__":
    sys.exit(main())
