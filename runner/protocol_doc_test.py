#!/usr/bin/env python3
"""PROTOCOL.md's tables of policies and limits against `arcs formats --json` (issue #27 item 4):
every policy of every format has its row, naming each of its choices in backticks, and no row
names a policy no format has; every limit's row names the formats that have it.

    protocol_doc_test.py ARCS SOURCE_DIR
"""
import json
import re
import subprocess
import sys


def rows(text, header):
    """The cells of each row of the table whose header row starts with `header`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    out = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        out.append([cell.strip() for cell in line.strip("|").split("|")])
    return out


def main():
    arcs, source = sys.argv[1], sys.argv[2]
    formats = json.loads(subprocess.run([arcs, "formats", "--json"], check=True,
                                        capture_output=True, text=True).stdout)["formats"]
    text = open(source + "/runner/PROTOCOL.md", encoding="utf-8").read()
    problems = []

    documented = {}
    for cells in rows(text, "| format | policy |"):
        documented[(cells[0], cells[1].strip("`"))] = cells[2]
    declared = {(f["name"], p["name"]): p["choices"] for f in formats for p in f["policies"]}
    for key, choices in declared.items():
        if key not in documented:
            problems.append("no row for the policy %s %s" % key)
            continue
        named = set(re.findall(r"`([^`]+)`", documented[key]))
        for choice in choices:
            if choice not in named:
                problems.append("the row of %s %s does not name the choice %s" % (*key, choice))
    for key in documented.keys() - declared.keys():
        problems.append("a row for %s %s, a policy no format has" % key)

    everyone = {f["name"] for f in formats}
    for cells in rows(text, "| name | formats |"):
        name = cells[0].strip("`")
        having = {f["name"] for f in formats if any(lim["name"] == name for lim in f["limits"])}
        said = everyone if cells[1] == "all" else {x.strip() for x in cells[1].split(",")}
        if said != having:
            problems.append("the limit %s: PROTOCOL.md says %s, the formats have %s"
                            % (name, sorted(said), sorted(having)))
    limits = {lim["name"] for f in formats for lim in f["limits"]}
    listed = {cells[0].strip("`") for cells in rows(text, "| name | formats |")}
    for name in sorted(limits - listed):
        problems.append("no row for the limit %s" % name)

    for p in problems:
        print("FAIL:", p)
    print("%d policies, %d limits checked" % (len(declared), len(limits)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
