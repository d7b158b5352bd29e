#!/usr/bin/env bash
# `arcs run` as a user meets it: the spellings people type (--impl=X, -j8), a usage error that
# prints the usage line only, one clear error for an implementation that cannot start, failures
# grouped by kind with errored ones never cut, no "see the report" without one, colour and a
# progress line on a terminal only (NO_COLOR respected), --trace, the slowest cases, and known
# failures per implementation (NAME=FILE, in --impl order, globs, a list refused for another
# implementation, --write-known-failures writing and pruning).
# usage: run_terminal_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$(cd "$2" && pwd)
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"
fake="/usr/bin/python3 $src/runner/supervisor/testing/fake_impl.py"
python_toy="/usr/bin/python3 $src/runner/adapters/python/arcs_adapter.py"
node_toy="node $src/runner/adapters/node/arcs_adapter.js"
has() { grep -q -- "$2" "$1" || fail "$3 (no \"$2\" in $(basename "$1"))"; }
hasnt() { ! grep -q -- "$2" "$1" || fail "$3 (\"$2\" in $(basename "$1"))"; }
one="spool-11.1-minimal"
spool=(--format spool --no-resource-probes)

# 1. The spellings people type.
run_as 0 "--impl=X -j8 --format=spool" "$arcs" run --quiet -j8 --format=spool \
  --filter="$one" "--impl=$fake good"
run_as 0 "--jobs=2" "$arcs" run --quiet --jobs=2 --filter "$one"

# 2. A usage error prints the usage line and where the help is, not the whole help.
run_as 2 "unknown option" "$arcs" run --no-such-option
has "$tmp/err" "^usage: arcs run " "no usage line"
has "$tmp/err" "arcs run --help" "no pointer to --help"
[ "$(wc -l <"$tmp/err")" -le 3 ] || fail "a usage error prints more than 3 lines"
run_as 0 "--help" "$arcs" run --help
has "$tmp/out" "--write-known-failures" "--help misses an option"

# 3. An implementation that cannot start is one clear error, not a case list.
run_as 1 "cannot start" "$arcs" run "${spool[@]}" --impl /no/such/program --report "$tmp/nostart.json"
[ "$(grep -c . "$tmp/err")" -eq 1 ] || fail "more than one line of error for a program that cannot start"
has "$tmp/err" "did not start: .*not found" "the error does not say why"
hasnt "$tmp/out" "errored" "the cases not run are listed"

# 4. Failures grouped by kind; "see the report" only when there is one; errored never cut.
run_as 1 "toy without its list" "$arcs" run -j 2 "${spool[@]}" --impl "$python_toy"
has "$tmp/out" "^  failed (1[0-9][0-9]):" "no failed group"
has "$tmp/out" "\[accepted, should reject: SP-[0-9.]*-[0-9]*" "no legend, naming the rule, for an accepted invalid file"
has "$tmp/out" "and [0-9]* more: write them all with --report FILE" "no way to see the rest"
hasnt "$tmp/out" "see the report" "a report is named that was not written"
has "$tmp/out" "^  slowest: " "the slowest cases are not listed"
run_as 1 "toy with a report" "$arcs" run -j 2 "${spool[@]}" --impl "$python_toy" \
  --report "$tmp/toy.json"
has "$tmp/out" "more: every one, with its evidence, in $tmp/toy.json" "the report is not named"
run_as 1 "crashes" "$arcs" run --filter "spool-[0-9a]*" --no-resource-probes \
  --max-consecutive-failures 1000 --impl "$fake crash"
crashed=$(grep -c "^    .*\[crash\]" "$tmp/out")
[ "$crashed" -gt 20 ] || fail "errored cases were cut ($crashed listed)"
has "$tmp/out" "^  errored ($crashed):" "the errored group does not count what it lists"
run_as 1 "abandoned" "$arcs" run --filter "spool-11.*" --no-resource-probes --impl "$fake crash" \
  --report "$tmp/abandoned.json"
has "$tmp/out" "^  not run ([0-9]*): abandoned" "cases not run are not summed up in one line"

# The reports of runs that went wrong are valid reports too (every case's evidence, a policy case
# never answered still named by its policy).
(cd "$src" && /usr/bin/python3 schemas/report/check_report.py "$tmp/nostart.json" \
  "$tmp/abandoned.json" >"$tmp/check" 2>&1) || fail "a report of a failed run breaks its schema: $(tail -n 3 "$tmp/check")"

# 5. Per-case time in the report and in JUnit.
/usr/bin/python3 - "$tmp/toy.json" <<'PYTHON' || fail "per-case time missing from the report"
import json, sys
cases = json.load(open(sys.argv[1]))["implementations"][0]["cases"]
assert all(c["seconds"] >= 0 for c in cases) and any(c["seconds"] > 0 for c in cases)
PYTHON
"$arcs" report "$tmp/toy.json" --junit --out "$tmp/toy.xml"
grep -q '<testcase [^>]* time="[0-9]*\.[0-9]\{3\}">' "$tmp/toy.xml" || fail "no time= in JUnit"

# 6. Colour and the progress line on a terminal only; NO_COLOR respected.
esc=$'\033\['
run_as 1 "colour on request" "$arcs" run -j 2 "${spool[@]}" --impl "$python_toy" --color=always
has "$tmp/out" "$esc" "--color always does not colour"
run_as 1 "no colour into a pipe" "$arcs" run -j 2 "${spool[@]}" --impl "$python_toy"
hasnt "$tmp/out" "$esc" "colour into a pipe"
hasnt "$tmp/err" "ETA" "a progress line into a pipe"
on_tty() { env -u CI script -qec "$*" /dev/null >"$tmp/tty" 2>&1; }
on_tty "'$arcs' run -j 2 --format spool --no-resource-probes --impl '$python_toy'"
has "$tmp/tty" "$esc" "no colour on a terminal"
has "$tmp/tty" "toy-spool-python \[#*\.*\] [0-9]*/[0-9][0-9]* .*failing  ETA [0-9]*:[0-9][0-9]" \
  "no progress line with the implementation's name, failures and ETA on a terminal"
on_tty "NO_COLOR=1 '$arcs' run -j 2 --format spool --no-resource-probes --impl '$python_toy'"
hasnt "$tmp/tty" $'\033\[[0-9;]*m' "NO_COLOR is not respected"

# 7. --trace: the raw exchange of one case, then its result.
run_as 0 "trace" "$arcs" run --trace "$one/validate" --impl "$fake good"
has "$tmp/out" '^runner > {"type":"hello"' "the runner's hello is not traced"
has "$tmp/out" '^impl   < {"type": "hello"' "the implementation's hello is not traced"
has "$tmp/out" "^runner > {\"type\":\"case\",\"id\":\"$one/validate\"" "the case is not traced"
has "$tmp/out" '^impl   < {"type": "result"' "the answer is not traced"
has "$tmp/out" '^runner > {"type":"shutdown"}' "the shutdown is not traced"
has "$tmp/out" "^result: passed" "the result is not shown"
run_as 2 "trace of a case with two operations" "$arcs" run --trace "$one"
has "$tmp/err" "$one/roundtrip $one/validate" "the operations to choose from are not named"

# 8. Known failures per implementation.
python_list=$src/runner/adapters/python/known-failures.txt
node_list=$src/runner/adapters/node/known-failures.txt
if command -v node >/dev/null; then
  run_as 0 "lists in --impl order" "$arcs" run --quiet -j 2 "${spool[@]}" \
    --impl "$python_toy" --impl "$node_toy" --known-failures "$python_list" \
    --known-failures "$node_list"
  run_as 0 "lists by name" "$arcs" run --quiet -j 2 "${spool[@]}" --impl "$node_toy" \
    --impl "$python_toy" --known-failures "toy-spool-python=$python_list" \
    --known-failures "toy-spool-node=$node_list"
  run_as 2 "a list given for another implementation" "$arcs" run --quiet -j 2 "${spool[@]}" \
    --impl "$python_toy" --impl "$node_toy" --known-failures "$node_list" \
    --known-failures "$python_list"
  has "$tmp/err" "lists the failures of toy-spool-node, but was given for toy-spool-python" \
    "the wrong list is not explained"
  run_as 2 "one implementation, another's list" "$arcs" run --quiet -j 2 "${spool[@]}" \
    --impl "$node_toy" --known-failures "$python_list"
  has "$tmp/err" "lists the failures of toy-spool-python, but was given for toy-spool-node" \
    "the wrong list of a single implementation is not explained"
fi
run_as 2 "three lists for two implementations" "$arcs" run --quiet --impl a --impl b \
  --known-failures "$python_list" --known-failures "$python_list" --known-failures "$python_list"
echo "$one/validate" >"$tmp/plain.txt"
run_as 2 "a name no implementation has" "$arcs" run --quiet "${spool[@]}" --filter "$one" \
  --impl "$fake good" --known-failures "nobody=$tmp/plain.txt"
has "$tmp/err" "no implementation of this run is named nobody" "the unknown name is not explained"
run_as 2 "a named list with another's entries" "$arcs" run --quiet "${spool[@]}" --filter "$one" \
  --impl "$fake good" --known-failures "fake=$python_list"
has "$tmp/err" "an entry for toy-spool-python in the list given for fake" "the mix-up is not explained"
# Globs: one entry covers every failing number round trip.
grep -v 'spool-number-.*/roundtrip' "$python_list" >"$tmp/globbed.txt"
echo 'toy-spool-python: spool-number-*/roundtrip' >>"$tmp/globbed.txt"
run_as 0 "a glob entry" "$arcs" run --quiet -j 2 "${spool[@]}" --impl "$python_toy" \
  --known-failures "$tmp/globbed.txt"
# --write-known-failures writes the list a run implies; the next run passes with it. Unfiltered
# (the fake skips every operation but spool validate), so that an entry naming no case shows as
# stale; the fake answers "valid" to everything, so every invalid file fails. With the resource
# probes too: a run without them counts as filtered, and judges no glob stale.
run_as 1 "write the list" "$arcs" run --quiet -j 2 --impl "$fake good" \
  --write-known-failures "$tmp/lists"
written="$tmp/lists/fake.txt"
[ -s "$written" ] || fail "--write-known-failures wrote nothing"
grep -q '^fake: spool-' "$written" || fail "the written list does not name its implementation"
# A stale exact entry and a stale glob fail the run, and writing again prunes them.
printf 'fake: %s/validate\nfake: spool-no-such-*/validate\n' "$one" >>"$written"
run_as 1 "stale entries" "$arcs" run -j 2 --impl "$fake good" --known-failures "$written" \
  --write-known-failures "$tmp/lists"
has "$tmp/out" "listed but passed (1)" "the passing listed case is not shown"
has "$tmp/out" "spool-no-such-\*/validate names no case" "the stale glob is not shown"
hasnt "$written" "$one/validate" "the stale entry was not pruned"
hasnt "$written" "spool-no-such" "the stale glob was not pruned"
run_as 0 "the pruned list" "$arcs" run --quiet -j 2 --impl "$fake good" --known-failures "$written"
# The first time, the list given for the implementation is what gets pruned, comments and all.
{ echo "# kept"; grep -v '^#' "$written"; echo "fake: $one/validate"; } >"$tmp/given.txt"
run_as 1 "prune the given list" "$arcs" run --quiet -j 2 --impl "$fake good" \
  --known-failures "$tmp/given.txt" --write-known-failures "$tmp/fresh"
grep -q "^# kept$" "$tmp/fresh/fake.txt" || fail "the given list's comment was not kept"
hasnt "$tmp/fresh/fake.txt" "$one/validate" "the given list was not pruned"

finish terminal
