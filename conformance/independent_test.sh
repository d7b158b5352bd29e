#!/usr/bin/env bash
# A clean-room implementation of one format (conformance/<folder>/independent/, written from the
# spec, NOTES.md and runner/PROTOCOL.md alone: ../shared/CLEAN_ROOM.md) held to the suite: its own
# unit tests pass, and `arcs run` scores it with exactly its known failures, each listed in
# known-failures.txt with the quoted text that makes it the implementation's own bug and triaged
# in TRIAGE.md. A failure that is not listed, or a listed case that passes, fails the test: the
# suite changed what it expects of an implementation that never saw it.
# usage: independent_test.sh ARCS SOURCE_DIR FOLDER
set -euo pipefail
arcs=$1
src=$(cd "$2" && pwd)
folder=$3
format=${folder//_/-}
dir=$src/conformance/$folder/independent

/usr/bin/python3 -m unittest discover -s "$dir" -p 'test_*.py' 2>&1 | tail -n 3

# Every known failure is triaged: its case stands in TRIAGE.md.
/usr/bin/python3 - "$dir/known-failures.txt" "$dir/TRIAGE.md" <<'PYTHON'
import sys
listed = [line.split("#")[0].strip() for line in open(sys.argv[1], encoding="utf-8")]
listed = [entry.split(":", 1)[-1].strip() for entry in listed if entry]
triage = open(sys.argv[2], encoding="utf-8").read()
# An entry is CASE_ID/OPERATION; the triage names the case (a table of one operation may not
# repeat it).
untriaged = [entry for entry in listed if entry.rsplit("/", 1)[0] not in triage]
if untriaged:
    sys.exit("known failures missing from TRIAGE.md: " + ", ".join(untriaged))
print(f"{len(listed)} known failures, each in TRIAGE.md")
PYTHON

# The suite's resource probes are left out: they take a Python implementation tens of seconds.
# The per-case timeout is generous so that a loaded machine cannot turn a slow answer to one of the
# larger vectors (Model IO's 2 MB sessions) into a failure: the test judges answers, not speed.
"$arcs" run --impl "/usr/bin/python3 $dir/adapter.py" --format "$format" --suite "$src" \
  --no-resource-probes --timeout 120 --known-failures "$dir/known-failures.txt" --quiet \
  --color=never
echo "$format: the clean-room implementation fails only where it is listed"
