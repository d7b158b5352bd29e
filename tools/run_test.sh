#!/usr/bin/env bash
# `make run`'s last step (tools/run.sh) on a copy of reports/: a fresh run of the reference decides
# what the committed report says (else the reference, a vector or a judge changed and the report
# must be committed with the change), the run leaves the copy byte for byte as committed (timings
# and timestamps alone rewrite nothing, and every committed rendering is what the renderers make of
# the committed JSON), and it ends saying what to open and do next.
# usage: run_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/reports" "$tmp/reports"
ARCS_REPORTS="$tmp/reports" bash "$src/tools/run.sh" "$build" >"$tmp/out" 2>&1
status=$?
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
[ "$status" -eq 0 ] || fail "tools/run.sh: exit $status"
if ! grep -q "reference.json: unchanged" "$tmp/out"; then
  fail "a fresh run decides differently from reports/reference.json: regenerate it (make run) and commit it"
  "$build/arcs" diff "$src/reports/reference.json" "$tmp/reports/reference.json" >&2
fi
diff -r "$src/reports" "$tmp/reports" >"$tmp/diff" ||
  fail "the run rewrote committed files (a stale rendering? make run, then commit reports/): $(head -c 2000 "$tmp/diff")"
grep -q "^Next:" "$tmp/out" || fail "the run does not end saying what to do next"
grep -q "open .*reference.html" "$tmp/out" || fail "the run does not say what to open"
grep -q "runner/README.md" "$tmp/out" || fail "the run does not point to certifying an implementation"
! grep -q "Entering directory" "$tmp/out" || fail "make's directory lines in the output"
if [ "$failures" -ne 0 ]; then
  sed 's/^/    /' "$tmp/out" | tail -n 20 >&2
  exit 1
fi
echo "make run: the committed reports are current, and the run rewrote none of them"
