#!/usr/bin/env bash
# `make run`: the whole suite against the reference implementation (`arcs run`), then every
# rendering of its report under reports/: JSON (the source of truth, committed), Markdown, HTML,
# JUnit XML and one SVG badge per format. The committed JSON is rewritten only when the run decided
# something differently (`arcs diff --fail-on-change`), and the renderings are made from it: a run
# whose only news is its timestamps and timings leaves the working tree clean. ARCS_REPORTS names
# another folder for them (tools/run_test.sh uses a copy).
set -uo pipefail
build=${1:-build}
cd "$(dirname "$0")/.." || exit 2
jobs=$(nproc 2>/dev/null || echo 2)
reports=${ARCS_REPORTS:-reports}
mkdir -p "$reports"
fresh=$(mktemp "${TMPDIR:-/tmp}/arcs-reference.XXXXXX.json")
trap 'rm -f "$fresh"' EXIT
# Per case, a limit on the reference's CPU time rather than the wall clock, so that a busy machine
# cannot turn a resource probe (the heaviest takes 2-3 s of CPU) into a timeout and rewrite the
# report; 20 s leaves room for a CPU several times slower, and the wall-clock backstop is 200 s.
"$build/arcs" run -j "$jobs" --timeout-cpu 20 --report "$fresh" | grep -v '^report: '
status=${PIPESTATUS[0]}
[ -s "$fresh" ] || exit "$status"
json=$reports/reference.json
if [ -f "$json" ] && "$build/arcs" diff --fail-on-change "$json" "$fresh" >/dev/null 2>&1; then
  echo "$json: unchanged (this run decided nothing differently)"
else
  cp "$fresh" "$json"
  echo "$json: rewritten: the run decided something differently (commit it with the change)"
fi
# The renderings follow the committed JSON: the same bytes unless a renderer changed.
"$build/arcs" report "$json" --markdown --out "$reports/reference.md" &&
  "$build/arcs" report "$json" --html --out "$reports/reference.html" &&
  "$build/arcs" report "$json" --junit --out "$reports/reference.junit.xml" &&
  "$build/arcs" report "$json" --badges "$reports/badges" || exit 2
cat <<NEXT

Next:
  open $reports/reference.html in a browser: the reference's results by format, requirement and case
  certify your implementation: wrap it in an adapter (runner/README.md; templates in
    runner/adapters/: Python, Node, shell), then
    $build/arcs check-adapter --impl 'python3 my_adapter.py'
    $build/arcs run --impl 'python3 my_adapter.py' --report my.json
    $build/arcs report my.json --html --out my.html
  check a file: $build/arcs validate FILE
NEXT
exit "$status"
