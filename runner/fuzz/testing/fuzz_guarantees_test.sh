#!/usr/bin/env bash
# What `arcs fuzz` guarantees whatever the implementation, the paths and the corpus are (issue #24,
# item 3), as `arcs run` does: only the formats and operations the hello declares are sent; a run
# that compared nothing (every answer skipped) is not clean; the output paths are checked before
# the implementation starts; a second answer is the protocol error of the case it answers, never
# the next case's; a corpus holding a FIFO neither hangs the run nor is opened; a signal stops the
# run at any stage and the summary is still written; the corpus read is bounded in bytes.
# usage: fuzz_guarantees_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$(cd "$2" && pwd)
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"
fake="/usr/bin/python3 $src/runner/fuzz/testing/misbehaving.py"
# A run that should end in seconds gets minutes before it counts as a hang (a loaded machine).
hang=300

# 1. A hello declaring only Spool's validate gets only Spool's validate cases; what it never
# declared (it would answer "errored") is left out, and counted.
expect_status 0 "undeclared cases left out" timeout -s KILL $hang "$arcs" fuzz \
  --impl "$fake spool-validate-only $arcs" --runs 200 --seed 3 --summary "$tmp/declared.json"
/usr/bin/python3 - "$tmp/declared.json" <<'PYTHON' || fail "the undeclared cases were not left out"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["findings"] == [] and s["execs"] == 200 and s["compared"] == 200, s
assert s["undeclared"] > s["seeds"], (s["undeclared"], s["seeds"])  # most of the suite
PYTHON

# 2. Every answer skipped: nothing was compared, which is not a clean run.
expect_status 1 "every answer skipped" timeout -s KILL $hang "$arcs" fuzz \
  --impl "$fake skips $arcs" --format spool --operation validate --runs 30 \
  --summary "$tmp/skips.json"
grep -q "^arcs fuzz: nothing compared: the implementation skipped all 30 cases" "$tmp/out" ||
  fail "an all-skipped run is not explained"
/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["compared"] == 0 and s["skipped"] == 30, s' \
  "$tmp/skips.json" || fail "the summary of an all-skipped run"

# 3. Output paths are checked before the implementation starts.
mkdir "$tmp/a-directory.json"
: >"$tmp/a-file"
started="sh -c 'touch $tmp/started; exec $arcs serve'"
for bad in "--summary $tmp/no-such-dir/s.json" "--report $tmp/a-directory.json" \
  "--out $tmp/a-file/candidates" "--out $tmp/a-file" "--corpus $tmp/a-file"; do
  eval "set -- $bad"
  expect_status 2 "$bad" timeout -s KILL $hang "$arcs" fuzz --impl "$started" --format spool \
    --runs 5 "$@"
  grep -q "^arcs fuzz: $1 $tmp/" "$tmp/out" || fail "$bad: not named"
  [ ! -e "$tmp/started" ] || fail "$bad: the implementation started before the check"
  rm -f "$tmp/started"
done

# 4. A second answer is a protocol error of the case it answers (its inputs hold a multiple of 5
# bytes), never of the next one; nothing else is a finding.
expect_status 1 "second answers" timeout -s KILL $hang "$arcs" fuzz --impl "$fake twice $arcs" \
  --format spool --operation validate --runs 200 --seed 5 --summary "$tmp/twice.json"
/usr/bin/python3 - "$tmp/twice.json" <<'PYTHON' || fail "a second answer was blamed on another case"
import base64, json, sys
s = json.load(open(sys.argv[1]))
assert s["findings"], s
for f in s["findings"]:
    data = b"".join(base64.b64decode(v) for v in f["inputs_base64"].values())
    assert f["kind"] == "protocol" and f["detail"].startswith("answered twice"), f
    assert len(data) % 5 == 0, (len(data), f["detail"])
PYTHON

# The last case's second answer, which no next case shows, comes after the shutdown request.
expect_status 1 "a second answer after shutdown" timeout -s KILL $hang "$arcs" fuzz \
  --impl "$fake twice-always $arcs" --format spool --operation validate --runs 1 \
  --summary "$tmp/last.json"
/usr/bin/python3 - "$tmp/last.json" <<'PYTHON' || fail "the last case's second answer was missed"
import json, sys
s = json.load(open(sys.argv[1]))
[f] = s["findings"]
assert f["detail"].startswith("answered twice: a second answer came after the shutdown"), f
assert f["found_at"] == 0 and s["execs"] == 1, s
PYTHON

# 5. A FIFO in the corpus is named and left, never opened (opening it would block for good).
mkdir "$tmp/fifo-corpus" && mkfifo "$tmp/fifo-corpus/a.json"
expect_status 0 "a FIFO in the corpus" timeout -s KILL $hang "$arcs" fuzz --impl "$arcs serve" \
  --format spool --runs 20 --corpus "$tmp/fifo-corpus" --summary "$tmp/fifo.json"
grep -q "a.json: not a regular file" "$tmp/out" || fail "the FIFO is not named"

# 6. SIGTERM stops a run at any stage (here the handshake of an implementation that never says
# hello) promptly, and the summary is still written.
rm -f "$tmp/started"
"$arcs" fuzz --impl "sh -c 'touch $tmp/started; exec sleep 600'" --format spool --seconds 600 \
  --timeout 600 --summary "$tmp/stopped.json" >"$tmp/out" 2>&1 &
pid=$!
for _ in $(seq 1200); do [ -e "$tmp/started" ] && break; sleep 0.1; done
kill -TERM $pid
for _ in $(seq $((hang * 10))); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
  kill -KILL $pid
  fail "SIGTERM did not stop the run"
fi
wait $pid
status=$?
[ $status -eq 1 ] || fail "an interrupted run that compared nothing: exit $status, want 1"
/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["interrupted"] and s["execs"] == 0, s' \
  "$tmp/stopped.json" || fail "the summary of an interrupted run"

# 7. The corpus read is bounded: an entry over --max-input-bytes is left out unread, and entries
# past --max-corpus-bytes are left out, named and counted.
# (A folder named relative to the working directory, which does not exist yet, is writable.)
expect_status 0 "a corpus to copy" env -C "$tmp" "$arcs" fuzz --impl "$arcs serve" \
  --format spool --operation validate --runs 50 --corpus seed-corpus
/usr/bin/python3 - "$tmp/seed-corpus" "$tmp/big-corpus" <<'PYTHON' || fail "no corpus to copy"
import base64, glob, json, os, sys
origin = json.load(open(sorted(glob.glob(sys.argv[1] + "/*.json"))[0]))["origin"]
os.mkdir(sys.argv[2])
for name, size in [("a", 40000), ("b", 200000), ("c", 40000), ("d", 40000), ("e", 40000)]:
    entry = {"origin": origin, "inputs": {"file": base64.b64encode(b"{}\n" * (size // 3)).decode()}}
    json.dump(entry, open("%s/%s.json" % (sys.argv[2], name), "w"))
PYTHON
expect_status 0 "a bounded corpus" "$arcs" fuzz --impl "$arcs serve" --format spool \
  --operation validate --runs 20 --max-input-bytes 65536 --max-corpus-bytes 100000 \
  --corpus "$tmp/big-corpus" --summary "$tmp/big.json"
grep -q "b.json: larger than" "$tmp/out" || fail "the entry over --max-input-bytes is not named"
grep -q "d.json: past --max-corpus-bytes" "$tmp/out" || fail "an entry past the cap is not named"
/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["loaded"] == 2 and s["past_cap"] == 2, s' \
  "$tmp/big.json" || fail "the corpus read is not bounded"

finish "fuzz guarantee"
