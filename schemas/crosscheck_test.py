#!/usr/bin/python3
"""Cross-checks every format's vectors and JSON Schemas against the reference.

Run from the repository root:

    /usr/bin/python3 schemas/crosscheck_test.py --arcs build/arcs

The formats are the registry's (`arcs formats --json`). For each one it
  1. validates vectors/<format>/manifest.json against schemas/vectors/manifest.schema.json. What a
     schema cannot express is checked once, in C++: by the loader (conformance/vectors.cc, the
     code `arcs run` trusts: ids unique, sets sorted, cites resolved, policies and readings, limits)
     and its CheckManifestReferences (input files, errata entries), and by
     conformance/catalogue_test.cc (cited ids in the catalogue);
  2. runs the format's own schema check, schemas/<format>/crosscheck.py (a `check(tally, arcs,
     cases, catalogue_ids)` function), which compares the format's JSON Schema with the
     reference line by line and lists the rules a schema cannot express.

Exit status 0 when every check passed, 1 otherwise. The last line is
"crosscheck: N passed, M failed".

Uses Debian's python3-jsonschema, draft 2020-12, with the additions in crosscheck_lib.py (a strict
RFC 3339 date-time checker; exact numbers).
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys

import jsonschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from crosscheck_lib import Tally, load_json, make_format_checker, schema_errors  # noqa: E402

MANIFEST_SCHEMA = "schemas/vectors/manifest.schema.json"


def registry(arcs):
    proc = subprocess.run([arcs, "formats", "--json"], stdout=subprocess.PIPE, check=True,
                          timeout=60)
    return json.loads(proc.stdout.decode("utf-8"))["formats"]


def check_format(tally, arcs, fmt, manifest_validator):
    manifest_path = fmt["manifest"]
    try:
        manifest = load_json(manifest_path)
    except (OSError, ValueError) as e:
        tally.check(False, f"{manifest_path}: cannot read", str(e))
        return
    tally.check(manifest_validator.is_valid(manifest),
                f"{manifest_path}: does not match {MANIFEST_SCHEMA}",
                schema_errors(manifest_validator, manifest))
    cases = [c for c in manifest.get("cases", []) if isinstance(c, dict)]
    try:
        catalogue = load_json(fmt["catalogue"])
        catalogue_ids = {r["id"] for r in catalogue["requirements"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        tally.check(False, f"{fmt['catalogue']}: cannot read", str(e))
        catalogue_ids = None
    base = os.path.dirname(manifest_path)
    for case in cases:
        inputs = case.get("inputs") or {}
        # Formats with one input per case name it "file" by convention; the schema check reads it.
        case["_path"] = os.path.join(base, str(inputs.get("file", inputs.get("recording", next(iter(inputs.values()), "")))))
    module_path = os.path.join("schemas", fmt["folder"], "crosscheck.py")
    if not os.path.isfile(module_path):
        print(f"crosscheck: {fmt['name']}: no schemas/{fmt['folder']}/crosscheck.py")
        return
    spec = importlib.util.spec_from_file_location(f"crosscheck_{fmt['folder']}", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.check(tally, arcs, cases, catalogue_ids)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arcs", required=True, help="path of the arcs binary (e.g. build/arcs)")
    ap.add_argument("--root", default=".", help="repository root (default: current directory)")
    args = ap.parse_args()
    tally = Tally()
    arcs = os.path.abspath(args.arcs)
    try:
        os.chdir(args.root)
    except OSError as e:
        tally.check(False, f"--root {args.root}: {e}")
        return finish(tally)
    if not tally.check(os.path.isfile(arcs) and os.access(arcs, os.X_OK),
                       f"{args.arcs}: no such executable (build it first: make build)"):
        return finish(tally)
    try:
        schema = load_json(MANIFEST_SCHEMA)
        jsonschema.Draft202012Validator.check_schema(schema)
        tally.check(schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema",
                    f"{MANIFEST_SCHEMA}: $schema is not draft 2020-12")
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        tally.check(False, f"{MANIFEST_SCHEMA}: not a valid draft 2020-12 schema",
                    str(e).split("\n")[0])
        return finish(tally)
    validator = jsonschema.Draft202012Validator(schema, format_checker=make_format_checker())
    for fmt in registry(arcs):
        print(f"crosscheck: {fmt['name']} ({fmt['title']})")
        check_format(tally, arcs, fmt, validator)
    return finish(tally)


def finish(tally):
    print(f"crosscheck: {tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
