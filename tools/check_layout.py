#!/usr/bin/python3
"""Holds the folders to the registry: every format `arcs formats --json` lists has its folder in
each part (reference/, conformance/, vectors/, schemas/, fuzz/; the folder is the name with '_'
for '-') and a clean-room implementation with its triage (conformance/<folder>/independent/), and
no part has a folder for a format the registry does not list (a format half added, or half
removed). Run from the
repository root: /usr/bin/python3 tools/check_layout.py --arcs build/arcs
"""

import argparse
import json
import os
import subprocess
import sys

PARTS = ("reference", "conformance", "vectors", "schemas", "fuzz")
# What each format's clean-room implementation holds (../shared/CLEAN_ROOM.md).
INDEPENDENT = ("adapter.py", "README.md", "TRIAGE.md", "known-failures.txt")
# Folders of a part that belong to no format.
SHARED = {"reference": {"core"}, "schemas": {"protocol", "report", "vectors"},
          "fuzz": {"regressions", "artifacts"}, "conformance": set(), "vectors": set()}
# A format whose data has landed before its module (folder -> why): its folders may exist
# unregistered, and the run says so. Remove the entry when the format is registered.
PENDING = {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arcs", required=True)
    args = ap.parse_args()
    out = subprocess.run([args.arcs, "formats", "--json"], stdout=subprocess.PIPE, check=True)
    formats = [f["folder"] for f in json.loads(out.stdout)["formats"]]
    passed = failed = 0
    for part in PARTS:
        folders = {d for d in os.listdir(part) if os.path.isdir(os.path.join(part, d))}
        for name in formats:
            ok = name in folders
            passed, failed = passed + ok, failed + (not ok)
            if not ok:
                print(f"FAIL: {part}/{name}/ is missing for registered format {name}")
        for extra in sorted(folders - set(formats) - SHARED[part]):
            if extra in PENDING:
                print(f"pending: {part}/{extra}/: {PENDING[extra]}")
                continue
            failed += 1
            print(f"FAIL: {part}/{extra}/ is not a registered format (conformance/registry.cc)")
    for name in formats:
        for item in INDEPENDENT:
            ok = os.path.isfile(os.path.join("conformance", name, "independent", item))
            passed, failed = passed + ok, failed + (not ok)
            if not ok:
                print(f"FAIL: conformance/{name}/independent/{item} is missing (CLEAN_ROOM.md)")
    for folder in sorted(set(PENDING) & set(formats)):
        failed += 1
        print(f"FAIL: {folder} is registered: remove it from PENDING in tools/check_layout.py")
    print(f"layout: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
