#!/usr/bin/env bash
# `arcs run` against an implementation that answers every case with megabytes of findings,
# outputs and stderr, its text as costly to quote as can be (runner/testing/flood_fake.py): the
# report holds each case to its bound (runner/report/report.h, kMaxCaseJsonBytes), and `arcs
# report` and `arcs diff` read it. Before the bounds, its 40 cases took 26.9 MB.
# usage: bounded_report_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$2
# shellcheck source=runner/testing/cli_checks.sh
. "$src/runner/testing/cli_checks.sh"

fake="/usr/bin/python3 $src/runner/testing/flood_fake.py --flood 1000000"
report=$tmp/flood.json
run_as 1 "a run of the flood" "$arcs" run --suite "$src" --impl "$fake" --format spool \
  --no-resource-probes --filter 'spool-1*' --timeout 120 --quiet --report "$report"
cases=$(/usr/bin/python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(sum(len(i["cases"]) for i in r["implementations"]))' "$report")
[ "${cases:-0}" -ge 40 ] || fail "the flood's report holds ${cases:-no} cases, want 40 or more"
size=$(stat -c %s "$report")
# kMaxCaseJsonBytes a case, kMaxImplementationJsonBytes besides, and the requirements they cite.
bound=$((cases * 32768 + (1 << 20) + (1 << 20)))
[ "$size" -le "$bound" ] || fail "the flood's report takes $size bytes, over $bound for $cases cases"
grep -q '"findings_total": 200' "$report" || fail "the report lost the count of findings"
grep -q 'report cut: 12 of 20 outputs not kept' "$report" || fail "no note of the outputs cut"

run_as 0 "arcs report of the flood" "$arcs" report "$report" --markdown --out "$tmp/flood.md"
run_as 0 "arcs report --html of the flood" "$arcs" report "$report" --html --out "$tmp/flood.html"
run_as 0 "arcs diff of the flood" "$arcs" diff "$report" "$report"

finish "report bounds"
