#!/usr/bin/python3
"""Cross-checks every format's vectors and JSON Schemas against the reference.

Run from the repository root:

    /usr/bin/python3 schemas/crosscheck_test.py --arcs build/arcs

The formats are the registry's (`arcs formats --json`). For each one it
  1. validates vectors/<format>/manifest.json against schemas/vectors/manifest.schema.json and
     checks what a schema cannot: input files exist, case ids are unique, rule lists are sorted,
     every cited requirement exists in the catalogue, every flag names an entry of the errata,
     every policy is one the format defines with all its choices listed, every limit in args is
     one of the format's;
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
import re
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


def errata_ids(path):
    """The entry ids of an errata file: its "### ID — title" headings."""
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r"^### ([A-Z]+-E[0-9]+)\b", f.read(), re.M))


def check_operation(tally, fmt, cid, name, op, catalogue_ids, flags):
    where = f"case {cid}/{name}"
    rules = op.get("rules") or {}
    for key in ("errors", "warnings"):
        lst = rules.get(key)
        if isinstance(lst, list):
            tally.check(lst == sorted(set(lst)), f"{where}: rules.{key} is not sorted and unique",
                        lst)
    cited = set(op.get("requirements") or []) | set(rules.get("errors") or []) | \
        set(rules.get("warnings") or [])
    if catalogue_ids is not None:
        unknown = sorted(x for x in cited if x not in catalogue_ids)
        tally.check(not unknown, f"{where}: rule ids missing from the catalogue", unknown)
    expect = op.get("expect") or {}
    if "flag" in expect:
        tally.check(expect["flag"] in flags, f"{where}: flag {expect['flag']} is not an entry of "
                    f"{fmt['errata']}")
    if "policy" in expect and "flag" in expect:
        # An acceptable set split by a policy: every reading named <reading>-<choice>, once per
        # choice of the policy (vectors/README.md "SessionData").
        policy = next((p for p in fmt["policies"] if p["name"] == expect["policy"]), None)
        choices = set(policy["choices"]) if policy else set()
        names = set(expect.get("readings", {}))
        bases = {n.rsplit("-", 1)[0] for n in names}
        ok = policy is not None and names == {f"{b}-{c}" for b in bases for c in choices}
        tally.check(ok, f"{where}: readings are not split by every choice of policy "
                    f"{expect['policy']}", sorted(names))
    elif "policy" in expect:
        policy = next((p for p in fmt["policies"] if p["name"] == expect["policy"]), None)
        ok = policy is not None and set(expect.get("outcomes", {})) == set(policy["choices"])
        tally.check(ok, f"{where}: policy {expect['policy']} is not the format's or does not list "
                    "every choice", expect)


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
    tally.check(manifest.get("format") == fmt["name"], f"{manifest_path}: format is not {fmt['name']}")
    cases = [c for c in manifest.get("cases", []) if isinstance(c, dict)]
    ids = [c.get("id") for c in cases]
    dups = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    tally.check(not dups, f"{manifest_path}: duplicate case ids", [str(d) for d in dups])
    try:
        catalogue = load_json(fmt["catalogue"])
        catalogue_ids = {r["id"] for r in catalogue["requirements"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        tally.check(False, f"{fmt['catalogue']}: cannot read", str(e))
        catalogue_ids = None
    flags = errata_ids(fmt["errata"])
    limits = {l["name"] for l in fmt["limits"]}
    base = os.path.dirname(manifest_path)
    for case in cases:
        cid = case.get("id")
        inputs = case.get("inputs") or {}
        for name, rel in inputs.items():
            path = os.path.join(base, str(rel))
            tally.check(os.path.isfile(path), f"case {cid}: input {name}: {path} does not exist")
        # Formats with one input per case name it "file" by convention; the schema check reads it.
        case["_path"] = os.path.join(base, str(inputs.get("file", inputs.get("recording", next(iter(inputs.values()), "")))))
        unknown_limits = sorted(set(((case.get("args") or {}).get("limits") or {})) - limits)
        tally.check(not unknown_limits, f"case {cid}: limits the format does not have",
                    unknown_limits)
        for name, op in (case.get("operations") or {}).items():
            check_operation(tally, fmt, cid, name, op, catalogue_ids, flags)
    listed = {os.path.normpath(os.path.join(base, str(rel)))
              for c in cases for rel in (c.get("inputs") or {}).values()}
    for dirpath, _, files in os.walk(os.path.join(base, "cases")):
        for name in sorted(files):
            p = os.path.normpath(os.path.join(dirpath, name))
            if p not in listed:
                print(f"note: {p} is not named by any case")

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
