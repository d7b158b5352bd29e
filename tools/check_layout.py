#!/usr/bin/python3
"""Holds the folders to the registry: every format `arcs formats --json` lists has its folder in
each part (reference/, conformance/, vectors/, schemas/, fuzz/; the folder is the name with '_'
for '-') and a clean-room implementation with its triage (conformance/<folder>/independent/), and
no part has a folder for a format the registry does not list (a format half added, or half
removed); and that every C++ #include points down the layers (LAYERS below). Run from the
repository root: /usr/bin/python3 tools/check_layout.py --arcs build/arcs
"""

import argparse
import json
import os
import re
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

# The layers, lowest first: a file may include its own layer and the ones below it, never one
# above. A format's folders are their own layer inside reference/ and conformance/: only the
# format itself and the registry (conformance/registry.cc) see them, the runner never does.
#   reference/core  strict JSON, JSONL, canonical forms, SHA-256, diagnostics
#   protocol        the runner protocol (runner/PROTOCOL.md)
#   reference/<f>   a format's reference implementation
#   conformance     the module interface, catalogue, vectors; conformance/<f>: a format's module
#   runner          the arcs command, supervisor, reports
# Fuzz targets (fuzz/) and benchmarks (*/benchmark/) sit on top: they may include anything and
# nothing includes them.
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCES = (".h", ".cc")


def layer_of(path, formats):
    """The layer of a repository path: (name, format folder or None)."""
    parts = path.split("/")
    if parts[0] == "fuzz" or "benchmark" in parts[:-1]:
        return ("top", None)
    if parts[0] in ("reference", "conformance") and len(parts) > 2 and parts[1] in formats:
        return (parts[0], parts[1])
    if parts[:2] == ["reference", "core"]:
        return ("core", None)
    return (parts[0], None)


ALLOWED = {"core": {"core"}, "protocol": {"core", "protocol"},
           "reference": {"core", "reference"},
           "conformance": {"core", "protocol", "reference", "conformance"},
           "runner": {"core", "protocol", "conformance", "runner"}}


def include_problem(source, included, formats):
    """Why `source` may not include `included` (both repository paths), or None."""
    src, src_format = layer_of(source, formats)
    dst, dst_format = layer_of(included, formats)
    if src == "top":
        return None
    if dst == "top":
        return "nothing below fuzz/ and benchmarks includes them"
    if dst not in ALLOWED.get(src, set()):
        return f"{src} may not include {dst} (an upward include)"
    if dst_format and dst_format != src_format and source != "conformance/registry.cc":
        return f"only {dst_format}'s own folders and conformance/registry.cc see its headers"
    return None


def check_includes(formats):
    """(passed, failed): one per source file that includes nothing it may not."""
    passed = failed = 0
    for top in ("reference", "protocol", "conformance", "runner", "fuzz"):
        for root, _, files in os.walk(top):
            if "independent" in root.split(os.sep):
                continue  # clean-room implementations are not C++ of ours
            for name in sorted(f for f in files if f.endswith(SOURCES)):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    includes = INCLUDE.findall(f.read())
                problems = [(inc, include_problem(path, inc, formats)) for inc in includes
                            if os.path.exists(inc)]
                problems = [(inc, why) for inc, why in problems if why]
                for inc, why in problems:
                    print(f"FAIL: {path} includes {inc}: {why}")
                passed, failed = passed + (not problems), failed + bool(problems)
    return passed, failed


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
    include_passed, include_failed = check_includes(set(formats))
    passed, failed = passed + include_passed, failed + include_failed
    print(f"layout: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
