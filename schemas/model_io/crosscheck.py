"""The Model IO part of the schema cross-check (schemas/crosscheck_test.py imports it).

  1. checks that schemas/model_io/model_io.schema.json is a valid draft 2020-12 schema, that
     format "date-time" is really asserted, that its patterns refuse a trailing newline as
     JavaScript's do (errata MIO-E21), and that the minimal and the full session of the vectors
     are schema-valid;
  2. for every case of vectors/model_io/manifest.json whose file Python can parse strictly as a
     JSON object (crosscheck_lib.parse_line: no BOM, no duplicate names, no lone surrogates, no
     NaN), compares the schema's verdict with ARCS's: the file is schema-valid exactly when the
     ARCS checker reports no error under a rule a schema can express, i.e. ignoring
     SCHEMA_INEXPRESSIBLE and the inexpressible part of PARTLY_EXPRESSIBLE. ARCS's errors are the
     case's `rules.errors` (the manifest), and, when an arcs binary is given that knows the
     format, also the reference's own findings (`arcs validate --json --format model-io`, with
     the case's limits). Files over a configured limit (MIO-JSON-5) are skipped: the reference
     does not read them;
  3. prints SCHEMA_INEXPRESSIBLE and PARTLY_EXPRESSIBLE, so what the schema does not cover is
     visible.

The verdicts here are ARCS's own readings (the "rules" of the manifest); the schema is held to the
same readings. Run alone (`python3 schemas/model_io/crosscheck.py` from the repository root), it
checks the schema against the manifest only.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from crosscheck_lib import (EntryValidator, NotJson, Tally, fmt_finding, load_json,  # noqa: E402
                            load_schemas, make_format_checker, parse_line,
                            prefetch_arcs, report_rule_tables, run_arcs, schema_errors)

SCHEMA = "schemas/model_io/model_io.schema.json"
MANIFEST = "vectors/model_io/manifest.json"
CATALOGUE = "conformance/model_io/requirements.json"
FORMAT = "model-io"

# Rule ids (conformance/model_io/requirements.json) whose ERROR findings a schema of the parsed
# file cannot express. Their findings are ignored in the comparison.
SCHEMA_INEXPRESSIBLE = {
    "MIO-JSON-1": "text: syntax, UTF-8, a BOM, a value that is not an object (such files are "
                  "skipped as not JSON)",
    "MIO-JSON-2": "text: repeated member names (lost once parsed; such files are skipped)",
    "MIO-JSON-3": "text: lone surrogate escapes (not Unicode; such files are skipped)",
    "MIO-JSON-4": "number text: a magnitude beyond the doubles (1e400); Python keeps the exact "
                  "value, a schema sees a number",
    "MIO-JSON-5": "limits: nesting depth (configurable; such files are skipped)",
    "MI5": "values against positions: each element's i equals its index",
    "MI8": "across elements: no two with the same prompt_hash and the same i",
    "MI9": "across elements: i ascending",
}


def _interactions(value):
    items = value.get("interactions") if isinstance(value, dict) else None
    return items if isinstance(items, list) else None


def _mi7_only_mismatch(value):
    """MI7: the form of response_hash and the type of response_content are in the schema; whether
    response_hash is the SHA-256 of response_content is not. True when every interaction has a
    string content and a well-formed response_hash, i.e. when an MI7 finding can only be the
    comparison."""
    import re
    form = re.compile(r"sha256:[a-f0-9]{64}")
    for x in _interactions(value) or []:
        if not isinstance(x, dict):
            continue
        h, c = x.get("response_hash"), x.get("response_content")
        if not isinstance(c, str) or not isinstance(h, str) or not form.fullmatch(h):
            return False
    return True


def _mi11_only_bytes(value):
    """MI11: the count of interactions (maxItems 10000) is in the schema; the UTF-8 bytes of a
    content and of the session are not. True when the count is within the limit."""
    items = _interactions(value)
    return items is None or len(items) <= 10000


# Rules a schema expresses only in part: the predicate gets the parsed file and says whether an
# error under the rule can only be the inexpressible part (then it is ignored).
PARTLY_EXPRESSIBLE = {
    "MI7": ("response_hash: its form is in the schema ($defs/content_hash), its equality with the "
            "SHA-256 of response_content is not", _mi7_only_mismatch),
    "MI11": ("interactions at most 10,000 is in the schema (maxItems); 1,000,000 UTF-8 bytes per "
             "content and 100,000,000 per session are not", _mi11_only_bytes),
}

# Rules the schema expresses (where), for the record, and so that an error under a rule in none of
# these tables is reported as unclassified rather than silently compared.
SCHEMA_EXPRESSED = {
    "MI1": "model_io_schema_version: required, string, pattern",
    "MI2": "adapter_id, model_id: required, string, minLength 1",
    "MI3": "mode: required, enum",
    "MI4": "interactions: required, array, maxItems 10000",
    "MI6": "prompt_hash: $defs/content_hash",
    "MIO-FIELDS-1": "required, type string", "MIO-FIELDS-2": "required, type string",
    "MIO-FIELDS-3": "required, type string", "MIO-FIELDS-4": "required, enum",
    "MIO-FIELDS-5": "required, type array", "MIO-FIELDS-6": "created_at_utc $defs/utc_timestamp",
    "MIO-FIELDS-7": "ended_at_utc $defs/utc_timestamp", "MIO-FIELDS-8": "stats type object",
    "MIO-FIELDS-9": "$defs/utc_timestamp: format date-time, pattern (Z or +00:00)",
    "MIO-INTERACTION-1": "interactions items type object",
    "MIO-INTERACTION-2": "i required, type number",
    "MIO-INTERACTION-3": "prompt_hash required, $defs/content_hash",
    "MIO-INTERACTION-4": "response_hash required, $defs/content_hash",
    "MIO-INTERACTION-5": "response_content required, type string",
    "MIO-INTERACTION-6": "tokens_input type number", "MIO-INTERACTION-7": "tokens_output type number",
    "MIO-INTERACTION-8": "latency_ms type number",
    "MIO-STATS-1": "stats required, type number", "MIO-STATS-2": "stats required, type number",
    "MIO-STATS-3": "stats required, type number", "MIO-STATS-4": "stats required, type number",
}

LIMIT_RULE = "MIO-JSON-5"


def _ignored(rule, value):
    if rule in SCHEMA_INEXPRESSIBLE:
        return "inexpressible"
    if rule in PARTLY_EXPRESSIBLE and PARTLY_EXPRESSIBLE[rule][1](value):
        return "inexpressible part of the rule"
    return None


def _compare(tally, where, value, validator, rules, source, detail_extra):
    errors = schema_errors(validator, value)
    counted = [r for r in rules if _ignored(r, value) is None]
    schema_valid, arcs_valid = not errors, not counted
    detail = None
    if schema_valid != arcs_valid:
        detail = [f"schema says {'valid' if schema_valid else 'invalid'}; {source} says "
                  f"{'valid' if arcs_valid else 'invalid'}"]
        detail += [f"schema: {e}" for e in errors] or ["schema: no errors"]
        detail += [f"{source}: {r}" + (f" [ignored: {_ignored(r, value)}]" if _ignored(r, value) else "")
                   for r in rules] or [f"{source}: no errors"]
        detail += detail_extra
    tally.check(schema_valid == arcs_valid, f"{where}: schema and {source} disagree", detail)
    return arcs_valid


def check(tally, arcs, cases, catalogue_ids):
    """cases: the manifest's cases (inputs relative to vectors/model_io/); arcs: the arcs binary,
    or None to compare with the manifest's rules only."""
    tables = report_rule_tables(tally, [
        ("rules a schema of model_io.json cannot express (findings ignored)", SCHEMA_INEXPRESSIBLE),
        ("rules it expresses only in part (the other part's findings ignored)", PARTLY_EXPRESSIBLE),
        ("", SCHEMA_EXPRESSED)])
    print("crosscheck: never cited by the checker (implementation and verifier rules, checked by "
          "the HASH/CANONICALIZE judges and the violation order): MI10, MI12, MIO-CORE-*, MIO-HASH-*")

    schemas = load_schemas(tally, (SCHEMA,))
    if schemas is None:
        return
    format_checker = make_format_checker()
    validator = EntryValidator(schemas[SCHEMA], format_checker=format_checker)

    if catalogue_ids:
        for name, table in (("SCHEMA_INEXPRESSIBLE", SCHEMA_INEXPRESSIBLE),
                            ("PARTLY_EXPRESSIBLE", PARTLY_EXPRESSIBLE),
                            ("SCHEMA_EXPRESSED", SCHEMA_EXPRESSED)):
            unknown = sorted(set(table) - catalogue_ids)
            tally.check(not unknown, f"{name} names rules missing from the catalogue", unknown)

    # 1. Sanity: formats are asserted, patterns refuse a trailing newline, the examples pass.
    base = "vectors/model_io"
    by_id = {c.get("id"): c for c in cases}
    for cid in ("model-io-minimal", "model-io-full"):
        c = by_id.get(cid)
        if not tally.check(c is not None, f"the manifest has no case {cid}"):
            continue
        with open(os.path.join(base, c["inputs"]["file"]), "rb") as f:
            value = parse_line(f.read())
        tally.check(validator.is_valid(value), f"{cid} is not schema-valid", schema_errors(validator, value))
        if cid == "model-io-full":
            bad_date = dict(value, created_at_utc="2026-02-30T12:00:00Z")
            tally.check(not validator.is_valid(bad_date), "format date-time is not asserted (2026-02-30 passes)")
            newline = dict(value, model_io_schema_version="1.0.0\n")
            tally.check(not validator.is_valid(newline), "the version pattern accepts a trailing newline")
            first = dict(value["interactions"][0], prompt_hash=value["interactions"][0]["prompt_hash"] + "\n")
            newline = dict(value, interactions=[first] + value["interactions"][1:])
            tally.check(not validator.is_valid(newline), "the content_hash pattern accepts a trailing newline")

    # 2. Every case.
    unclassified = set()
    stats = {"compared": 0, "invalid": 0, "not_json": 0, "limit": 0, "reference": 0}
    if arcs:
        prefetch_arcs(arcs, FORMAT,
                      [(os.path.join(base, str(c["inputs"]["file"])),
                        (c.get("args") or {}).get("limits"))
                       for c in cases if "file" in (c.get("inputs") or {})])
    for case in cases:
        cid = case.get("id")
        path = os.path.join(base, str((case.get("inputs") or {}).get("file", "")))
        validate = (case.get("operations") or {}).get("validate") or {}
        rules = list(((validate.get("rules") or {}).get("errors")) or [])
        for rule in rules:
            if not any(rule in t for t in tables) and rule not in unclassified:
                unclassified.add(rule)
                tally.check(False, f"case {cid}: error rule {rule}, which no table of this test "
                            "classifies (expressed / inexpressible / partly)")
        if LIMIT_RULE in rules:
            stats["limit"] += 1
            continue
        try:
            with open(path, "rb") as f:
                value = parse_line(f.read())
        except NotJson:
            stats["not_json"] += 1
            continue
        except OSError as e:
            tally.check(False, f"case {cid}: cannot read {path}", str(e))
            continue
        stats["compared"] += 1
        valid = _compare(tally, f"{path} (case {cid})", value, validator, rules, "the manifest's rules", [])
        stats["invalid"] += not valid
        if arcs:
            limits = (case.get("args") or {}).get("limits")
            report, err = run_arcs(arcs, FORMAT, path, limits)
            if not tally.check(report is not None, f"case {cid}: arcs validate failed", err):
                continue
            findings = [f for f in report["findings"] if f.get("severity") == "error"]
            stats["reference"] += 1
            _compare(tally, f"{path} (case {cid})", value, validator,
                     sorted({f.get("rule") for f in findings}), "the reference",
                     [f"reference: {fmt_finding(f, None)}" for f in findings])
    print(f"crosscheck: files compared {stats['compared']} (ARCS-invalid {stats['invalid']}; "
          f"with the reference {stats['reference']}); skipped: not JSON {stats['not_json']}, "
          f"over a limit {stats['limit']}")


def main():
    tally = Tally()
    manifest = load_json(MANIFEST)
    try:
        catalogue_ids = {r["id"] for r in load_json(CATALOGUE)["requirements"]}
    except (OSError, ValueError, KeyError) as e:
        tally.check(False, f"{CATALOGUE}: cannot read", str(e))
        catalogue_ids = None
    check(tally, None, manifest["cases"], catalogue_ids)
    print(f"crosscheck: {tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
