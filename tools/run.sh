#!/usr/bin/env bash
# `make run`: the reference implementation against every Spool vector, with reports.
# (The runner of issue #3 turns this into the full suite over any implementation.)
set -uo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
mkdir -p reports/spool
"$build/arcs" vectors --manifest vectors/spool/manifest.json \
  --report reports/spool/reference-vectors.json --markdown reports/spool/reference-vectors.md
status=$?
echo "reports: reports/spool/reference-vectors.json, reports/spool/reference-vectors.md"
exit $status
