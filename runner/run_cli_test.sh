#!/usr/bin/env bash
# `arcs run`, end to end: the reference through the protocol, determinism across -j, known
# failures, an injected regression caught by `arcs diff`, hostile implementations classified in
# the report, usage errors, and the example adapters with their known-failures lists.
# usage: run_cli_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$2
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"
fake="/usr/bin/python3 $src/runner/supervisor/testing/fake_impl.py"

# case_field REPORT CASE_ID OPERATION FIELD: a field of one case of the first implementation.
case_field() {
  /usr/bin/python3 - "$@" <<'PYTHON'
import json, sys
report, case, op, field = sys.argv[1:]
for c in json.load(open(report))["implementations"][0]["cases"]:
    if c["id"] == case and c["operation"] == op:
        print(c[field])
        break
else:
    print("(no such case)")
PYTHON
}

# summary_field REPORT FIELD: a summary count of the first implementation.
summary_field() {
  /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["implementations"][0]["summary"][sys.argv[2]])' "$@"
}

one=spool-11.1-minimal
three="spool-11.[123]-*"

# 1. The reference, through `arcs serve`, passes every case; -j 2 gives the same report. A limit
# on CPU time, not on the wall clock, so that a busy machine cannot make a case time out. The
# resource probes, two thirds of a reference run, are left out here: reference_report runs them
# all (tools/run.sh) and holds every verdict to the committed report.
expect_status 0 "reference run" "$arcs" run --quiet --no-resource-probes --timeout-cpu 20 \
  --report "$tmp/ref.json"
[ "$(summary_field "$tmp/ref.json" failed)" = 0 ] || fail "the reference failed cases"
[ "$(summary_field "$tmp/ref.json" errored)" = 0 ] || fail "the reference errored cases"
expect_status 0 "reference run -j 2" "$arcs" run --quiet --no-resource-probes -j 2 --timeout-cpu 20 \
  --report "$tmp/ref2.json"
expect_status 0 "-j 1 and -j 2 agree" "$arcs" diff --fail-on-change "$tmp/ref.json" "$tmp/ref2.json"

# 1b. --format alone leaves out none of the format's cases: its level is "full", with no filter
# caveat; an operation filter does leave some out (issue #27 item 2).
expect_status 0 "one format" "$arcs" run --format session-data --timeout-cpu 20 --report "$tmp/sd.json"
grep -q "session-data: full" "$tmp/out" || fail "--format alone does not give the level full"
grep -q "^  green: every MUST case passed or is a listed known failure; certification: session-data full$" \
  "$tmp/out" || fail "no green line with the level"
# The level is explained where it is shown, with its figures.
must=$(/usr/bin/python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["implementations"][0]["formats"][0]; print(sum(o["by_level"].get("MUST",{}).get("total",0) for o in f["operations"]))' "$tmp/sd.json")
grep -q "^    $must of $must MUST cases passed (a known failure does not pass); full needs every MUST case" \
  "$tmp/out" || fail "the level is not explained: $(sed -n 2,3p "$tmp/out")"
! grep -q "was filtered" "$tmp/out" || fail "--format alone says the run was filtered"
expect_status 0 "one operation" "$arcs" run --format session-data --operation render \
  --timeout-cpu 20 --report "$tmp/sd-render.json"
grep -q "the run was filtered" "$tmp/out" || fail "an operation filter does not say so"

# 1c. The MUST cases that did not pass are counted by how they ended, skipped apart from failed.
"$arcs" run --no-resource-probes --filter "$three" --impl "$fake skip --case $one/validate" \
  --report "$tmp/skip.json" >"$tmp/out" 2>&1
grep -q "partial [0-9]*%" "$tmp/out" || fail "a partial level without its share of MUST cases"
grep -q "MUST cases did not pass (1 skipped)" "$tmp/out" ||
  fail "a skipped MUST case is not told apart: $(grep 'did not pass' "$tmp/out")"

# 1c'. A case that passes only on its re-run in a fresh process is listed as such, never as a
# plain pass (issue #27 item 1): every process of this fake crashes on its third case.
"$arcs" run --no-resource-probes --filter "$three" --impl "$fake crash --after 2" >"$tmp/out" 2>&1
grep -q "passed (1 only when re-run)" "$tmp/out" || fail "the summary does not count the re-run pass"
grep -q "^  passed only when re-run (1): the first attempt failed" "$tmp/out" ||
  fail "the re-run pass is not listed: $(cat "$tmp/out")"
grep -q "re-run in a fresh process after crash: " "$tmp/out" || fail "the first attempt is not shown"

# 1d. A case accepted that should be rejected names the rule the file breaks (issue #27 item 5).
"$arcs" run --no-resource-probes --filter "spool-11.4.1-empty" --operation validate \
  --impl "$fake good" --report "$tmp/accepted.json" >"$tmp/out" 2>&1
grep -q "\[accepted, should reject: SP-4.3-1\]" "$tmp/out" ||
  fail "the broken rule is not named: $(grep 'should reject' "$tmp/out")"
# Its evidence names the case's own file and holds the reference's findings, for the HTML page to
# show beside the answer (issue #27 item 6).
/usr/bin/python3 - "$tmp/accepted.json" <<'PYTHON' || fail "no case files or reference findings"
import json, sys
e = json.load(open(sys.argv[1]))["implementations"][0]["cases"][0]["evidence"]
assert e["files"] == ["vectors/spool/cases/11.4.1-empty.spool"], e["files"]
assert e["reference_verdict"] == "invalid", e["reference_verdict"]
assert e["reference_findings_total"] == len(e["reference_findings"]) > 0, e
assert any(f["rule"] == "SP-4.3-1" for f in e["reference_findings"]), e["reference_findings"]
PYTHON

# 2. A regression (one verdict flipped) fails the run, and `arcs diff` names the case.
lie_tool="/usr/bin/python3 $src/runner/testing/lying_proxy.py $arcs"
lie="$lie_tool $one/validate"
expect_status 1 "lying implementation" "$arcs" run --quiet --no-resource-probes --impl "$lie" --report "$tmp/lie.json"
[ "$(case_field "$tmp/lie.json" $one validate outcome)" = failed ] || fail "the lie was not caught"
expect_status 1 "diff catches the regression" "$arcs" diff "$tmp/ref.json" "$tmp/lie.json"
grep -q "$one" "$tmp/out" || fail "diff does not name $one"
expect_status 0 "diff of equal reports" "$arcs" diff "$tmp/ref.json" "$tmp/ref2.json"

# 2b. Lightbox: a lie in an output is caught even when the verdict is right (the first broken
# event of a failed chain), as is a flipped verdict.
expect_status 1 "lightbox output lie" "$arcs" run --quiet --format lightbox --no-resource-probes \
  --impl "$lie_tool lightbox-content-edited/verify@first_broken lightbox-example-chain/validate" \
  --report "$tmp/lightbox-lie.json"
[ "$(case_field "$tmp/lightbox-lie.json" lightbox-content-edited verify outcome)" = failed ] ||
  fail "a wrong first_broken was not caught"
case_field "$tmp/lightbox-lie.json" lightbox-content-edited verify message |
  grep -q "first_broken is 2; the first broken event is 1" || fail "the first_broken lie is not explained"
[ "$(case_field "$tmp/lightbox-lie.json" lightbox-example-chain validate outcome)" = failed ] ||
  fail "a flipped lightbox verdict was not caught"

# 2c. Model IO: violations out of MI10's order, a violation left out, a wrong hash and wrong
# canonical bytes are each caught though the verdict is right; so is a wrong hash of a flagged
# case that claims another's hash (MI12).
expect_status 1 "model-io lies" "$arcs" run --quiet --format model-io --no-resource-probes \
  --impl "$lie_tool model-io-violations-several/validate!reverse model-io-mode-capitalized/validate!drop model-io-compact/hash@hash model-io-compact/canonicalize@canonical model-io-unknown-top-level/hash@hash" \
  --report "$tmp/model-io-lie.json"
for c in "model-io-violations-several validate" "model-io-mode-capitalized validate" \
  "model-io-compact hash" "model-io-compact canonicalize" "model-io-unknown-top-level hash"; do
  # shellcheck disable=SC2086
  [ "$(case_field "$tmp/model-io-lie.json" $c outcome)" = failed ] || fail "a model-io lie was not caught: $c"
done
case_field "$tmp/model-io-lie.json" model-io-violations-several validate message |
  grep -q "comes before the one above it" || fail "the order lie is not explained"
case_field "$tmp/model-io-lie.json" model-io-mode-capitalized validate message |
  grep -q "do not name MI3" || fail "the missing violation is not explained"

# 2d. SessionData: a verdict against the declared statement, and a renderer that forgot to escape
# (hostile text becomes a link, a heading, raw HTML), are caught.
expect_status 1 "session-data lies" "$arcs" run --quiet --format session-data --no-resource-probes \
  --impl "$lie_tool session-data-unknown-top-member/validate session-data-render-link/render^markdown session-data-render-raw-html/render^markdown" \
  --report "$tmp/session-data-lie.json"
for c in "session-data-unknown-top-member validate" "session-data-render-link render" \
  "session-data-render-raw-html render"; do
  # shellcheck disable=SC2086
  [ "$(case_field "$tmp/session-data-lie.json" $c outcome)" = failed ] || fail "a session-data lie was not caught: $c"
done
case_field "$tmp/session-data-lie.json" session-data-render-link render message |
  grep -q "SD-RENDER-7" || fail "the unescaped link is not explained"

# 2e. MCP record/replay: a validate verdict flipped, a replayer that missed its last answer and a
# converter that lost the last line of its YAML are caught.
expect_status 1 "mcp-record-replay lies" "$arcs" run --quiet --format mcp-record-replay \
  --no-resource-probes \
  --impl "$lie_tool mcp-record-replay-empty-file/validate mcp-record-replay-example-f002/replay~answers mcp-record-replay-convert-simple-example/convert~yaml" \
  --report "$tmp/mcp-lie.json"
for c in "mcp-record-replay-empty-file validate" "mcp-record-replay-example-f002 replay" \
  "mcp-record-replay-convert-simple-example convert"; do
  # shellcheck disable=SC2086
  [ "$(case_field "$tmp/mcp-lie.json" $c outcome)" = failed ] || fail "an mcp-record-replay lie was not caught: $c"
done
case_field "$tmp/mcp-lie.json" mcp-record-replay-example-f002 replay message |
  grep -q "is missing" || fail "the missing answer is not explained"

# 3. Known failures: a listed failure passes the run; a listed case that passes fails it.
printf '# the lie\n%s/validate\n' "$one" >"$tmp/known.txt"
expect_status 0 "listed known failure" "$arcs" run --quiet --no-resource-probes --impl "$lie" \
  --known-failures "$tmp/known.txt" --report "$tmp/known.json"
[ "$(case_field "$tmp/known.json" $one validate outcome)" = known_failure ] ||
  fail "a listed failure is not reported as known_failure"
expect_status 1 "a listed case that passes" "$arcs" run --quiet --filter "$one" \
  --known-failures "$tmp/known.txt" --report "$tmp/stale.json"
case_field "$tmp/stale.json" $one validate message | grep -q "remove it" ||
  fail "a stale known failure is not explained"
# An implementation named with 300 bytes gets its list all the same, under a name cut to 100
# bytes plus a hash of the whole (a 304-byte file name is more than a file system allows), and
# finds it again on the next run.
long=$(printf 'n%.0s' $(seq 300))
for attempt in first second; do
  expect_status 1 "a 300-byte name, $attempt run" "$arcs" run --quiet --filter "$one" \
    --impl "$fake garbage --name $long" --write-known-failures "$tmp/long-lists"
done
written=$(ls "$tmp/long-lists")
[ "$written" = "$(printf 'n%.0s' $(seq 100))-$(printf %s "$long" | sha256sum | cut -c 1-12).txt" ] ||
  fail "the list of a 300-byte name is not named by its cut name and hash: $written"
grep -qx "$long: $one/validate" "$tmp/long-lists/$written" ||
  fail "the list of a 300-byte name does not list its failure once: $(cat "$tmp/long-lists/$written")"
[ "$(grep -c "$one/validate" "$tmp/long-lists/$written")" = 1 ] ||
  fail "the second run did not find the list the first wrote"
# A folder given with its trailing slash: the path printed has one slash (issue #27 item 4).
expect_status 1 "a folder with a trailing slash" "$arcs" run --quiet --filter "$one" \
  --impl "$fake garbage --name slash" --write-known-failures "$tmp/slash-lists/"
grep -qx "known failures: $tmp/slash-lists/slash.txt" "$tmp/out" ||
  fail "the written list's path is not printed as one path: $(grep 'known failures' "$tmp/out")"
# A list that cannot be written fails the run, and says why.
printf 'not a folder\n' >"$tmp/a-file"
expect_status 2 "an unwritable list" "$arcs" run --quiet --filter "$one" --impl "$fake garbage" \
  --write-known-failures "$tmp/a-file"
grep -q "^arcs run: --write-known-failures: " "$tmp/out" || fail "an unwritable list is not explained"
printf 'not an entry\n' >"$tmp/bad-known.txt"
expect_status 2 "malformed known-failures file" "$arcs" run --quiet --known-failures "$tmp/bad-known.txt"

# 4. Hostile implementations are classified, and the run goes on.
expect_status 1 "crashing implementation" "$arcs" run --quiet --filter "$three" \
  --impl "$fake crash --case $one/validate" --report "$tmp/crash.json"
[ "$(case_field "$tmp/crash.json" $one validate error_kind)" = crash ] || fail "crash not classified"
[ "$(case_field "$tmp/crash.json" spool-11.2-unknown-entry-type validate outcome)" = passed ] ||
  fail "the run did not go on after a crash"
expect_status 1 "hanging implementation" "$arcs" run --quiet --filter "$one" --timeout 0.5 \
  --impl "$fake hang --case $one/validate" --report "$tmp/hang.json"
[ "$(case_field "$tmp/hang.json" $one validate error_kind)" = timeout ] || fail "hang not classified"
case_field "$tmp/hang.json" $one validate actual | grep -q "within 0.5 s of wall-clock time" ||
  fail "a hang does not say which limit it passed"
# Spinning the CPU passes the CPU time limit long before the wall-clock backstop, which defaults
# to 10 times the CPU limit and at least 60 s.
expect_status 1 "burning implementation" "$arcs" run --quiet --filter "$one" --timeout-cpu 0.5 \
  --impl "$fake burn --case $one/validate" --report "$tmp/burn.json"
[ "$(case_field "$tmp/burn.json" $one validate error_kind)" = timeout ] || fail "a CPU burner not classified"
case_field "$tmp/burn.json" $one validate actual | grep -q "within 0.5 s of CPU time" ||
  fail "a CPU burner does not say which limit it passed"
/usr/bin/python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["run"]["timeout_seconds"] == 60' \
  "$tmp/burn.json" || fail "the wall-clock backstop of --timeout-cpu 0.5 is not 60 s"
expect_status 1 "garbage" "$arcs" run --quiet --filter "$one" \
  --impl "$fake garbage --case $one/validate" --report "$tmp/garbage.json"
[ "$(case_field "$tmp/garbage.json" $one validate error_kind)" = protocol ] ||
  fail "garbage not classified"
expect_status 1 "answering twice" "$arcs" run --quiet --filter "$three" \
  --impl "$fake twice --case $one/validate" --report "$tmp/twice.json"
[ "$(case_field "$tmp/twice.json" $one validate error_kind)" = protocol ] ||
  fail "a second answer is not a protocol error of the case it answers"
[ "$(case_field "$tmp/twice.json" spool-11.2-unknown-entry-type validate outcome)" = passed ] ||
  fail "the case pending at the second answer is blamed for it"
expect_status 1 "no handshake" "$arcs" run --quiet --filter "$one" --timeout-handshake 0.5 \
  --impl "$fake no-hello" --report "$tmp/nohello.json"
[ "$(case_field "$tmp/nohello.json" $one validate error_kind)" = handshake ] ||
  fail "a missing handshake is not classified"
expect_status 1 "always crashing" "$arcs" run --quiet --filter "spool-11.*" \
  --max-consecutive-failures 2 --impl "$fake crash" --report "$tmp/abandon.json"
/usr/bin/python3 - "$tmp/abandon.json" <<'PYTHON' || fail "an always-crashing implementation is not abandoned"
import json, sys
impl = json.load(open(sys.argv[1]))["implementations"][0]
kinds = [c["error_kind"] for c in impl["cases"] if c["operation"] == "validate"]
assert impl["abandoned"], "not abandoned"
assert kinds.count("abandoned") >= len(kinds) - 3, kinds
PYTHON

# 5. Ctrl-C, and SIGHUP (a closed terminal or SSH session): the run stops promptly, writes what
#    finished, marks the report incomplete, exits 1, and leaves no implementation process behind.
for sig in SIGINT SIGHUP; do
/usr/bin/python3 - "$arcs" "$fake" "$tmp" "$sig" <<'PYTHON' || fail "a run interrupted by $sig is not handled cleanly"
import json, os, signal, subprocess, sys, time
arcs, fake, tmp, sig = sys.argv[1:]
pids = os.path.join(tmp, "int-%s.pids" % sig)
report_path = os.path.join(tmp, "int-%s.json" % sig)
out_path = os.path.join(tmp, "int-%s.out" % sig)
run = subprocess.Popen([arcs, "run", "--filter", "spool-11.*",
                        "--impl", "%s slow --delay 0.3 --pids %s" % (fake, pids),
                        "--report", report_path], stdout=open(out_path, "w"))
# Interrupt once the implementation has had time for a few cases, however slow its start.
deadline = time.monotonic() + 60
while not (os.path.exists(pids) and open(pids).read()) and time.monotonic() < deadline:
    time.sleep(0.05)
time.sleep(1.5)
run.send_signal(signal.Signals[sig])
# That it stopped early is in the report (cases "interrupted"), not in a time a busy machine could
# exceed: the wait only keeps a runner that ignores the signal from hanging the test.
status = run.wait(timeout=300)
assert status == 1, "exit %d" % status
# The summary names the cases not run once, each reason once ("not run (N): interrupted: ...").
summary = open(out_path).read()
assert "not run (" in summary and "interrupted: interrupted" not in summary, summary
report = json.load(open(report_path))
assert report["complete"] is False, "not marked incomplete"
kinds = [c["error_kind"] for c in report["implementations"][0]["cases"]]
outcomes = [c["outcome"] for c in report["implementations"][0]["cases"]]
assert "interrupted" in kinds and "passed" in outcomes, (kinds, outcomes)
# The runner SIGKILLs the group and reaps its own child; a grandchild's death is asynchronous
# (and this sandbox's init may leave it a zombie), so give it a moment.
def running(pid):
    try:
        os.kill(pid, 0)
        return open("/proc/%d/stat" % pid).read().split()[2] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False
for line in open(pids):
    pid = int(line.split()[-1])
    deadline = time.monotonic() + 60  # a grandchild dies asynchronously
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(pid), "pid %d still runs" % pid
PYTHON
done

# The runner's own limits are not the implementation's failures: with more jobs than open files
# allow, the cases it could not start are "runner" errors, never crashes; the run stops early,
# says what would help on stderr, marks the report incomplete and exits 2.
expect_status 2 "too many jobs for ulimit -n" bash -c 'ulimit -n 32 && exec "$@"' - "$arcs" run \
  --quiet -j 32 --filter "spool-11.*" --impl "$fake slow --delay 0.3" --report "$tmp/ulimit.json"
grep -q "Too many open files (EMFILE).*ulimit -n.*report is marked incomplete" "$tmp/out" ||
  fail "running out of descriptors is not explained on stderr"
/usr/bin/python3 - "$tmp/ulimit.json" <<'PYTHON' || fail "running out of descriptors is misreported"
import json, sys
report = json.load(open(sys.argv[1]))
kinds = [c["error_kind"] for c in report["implementations"][0]["cases"]]
assert report["complete"] is False, "not marked incomplete"
assert "runner" in kinds and "crash" not in kinds and "abandoned" not in kinds, kinds
PYTHON

# An implementation that passes nothing has shown nothing: the fake declares no roundtrip, so
# every selected case is skipped.
expect_status 1 "everything skipped" "$arcs" run --quiet --operation roundtrip --filter "$one" \
  --impl "$fake good"

# 6. Usage errors.
expect_status 2 "unknown option" "$arcs" run --no-such-option
expect_status 2 "unknown format" "$arcs" run --format nope
expect_status 2 "report into a missing folder" "$arcs" run --report "$tmp/no/such/dir/r.json"
grep -q "no/such/dir" "$tmp/out" || fail "the unwritable report path is not named"
for bad in "--timeout 1e-9" "--timeout 0x10" "--timeout inf" "--timeout-cpu 0" "--timeout-cpu nan" \
  "-j 0" "-j 257" "-j 2.0" "--max-consecutive-failures -1"; do
  # shellcheck disable=SC2086  # the option and its value are two words on purpose
  expect_status 2 "strict number: $bad" "$arcs" run $bad
done
expect_status 2 "a filter that matches nothing" "$arcs" run --filter "no-such-case-*"
expect_status 0 "help" "$arcs" run --help
# arcs rules: every rule id of the built-in catalogues (issue #27 item 1).
expect_status 0 "rules of a format" "$arcs" rules --format spool
grep -q "^  SP-4.3-1  MUST  " "$tmp/out" || fail "arcs rules does not list SP-4.3-1 with its level"
expect_status 0 "rules as JSON" "$arcs" rules --format spool --json
[ "$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rules"]))' "$tmp/out")" = \
  "$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["requirements"]))' \
    "$src/conformance/spool/requirements.json")" ] || fail "arcs rules --json does not list every rule"
expect_status 2 "rules of an unknown format" "$arcs" rules --format nope
# --version with any command (issue #27 item 9).
for cmd in "run" "validate" "mcp replay" "lightbox verify" "report"; do
  # shellcheck disable=SC2086  # the command's words
  expect_status 0 "$cmd --version" "$arcs" $cmd --version
  grep -qx "arcs [0-9][0-9.]*" "$tmp/out" || fail "arcs $cmd --version does not print the version"
done
# Every command's --help gives its exit statuses (issue #27 item 9).
for cmd in "" validate run check-adapter fuzz report diff serve vectors formats rules render "mcp record" \
  "mcp replay" "mcp convert" "mcp stub" "mcp show" "mcp verify" "lightbox verify" "lightbox hash" \
  "model-io hash" "session-data render" "mcp" "lightbox"; do
  # shellcheck disable=SC2086  # the command's words
  "$arcs" $cmd --help >"$tmp/out" 2>&1
  grep -qi "exit" "$tmp/out" || fail "arcs $cmd --help gives no exit status"
done
# A format's --help: each of its verbs with one line (issue #27 item 9), or that it has none.
expect_status 0 "mcp verbs" "$arcs" mcp --help
for verb in record replay convert stub show verify; do
  grep -q "^  $verb  *[a-z]" "$tmp/out" || fail "arcs mcp --help does not list $verb on a line"
done
[ "$(wc -l <"$tmp/out")" -lt 20 ] || fail "arcs mcp --help prints more than its verbs' lines"
expect_status 0 "spool verbs" "$arcs" spool --help
grep -q "has no verbs of its own" "$tmp/out" || fail "arcs spool --help does not say it has none"
expect_status 2 "no verb" "$arcs" lightbox

# 6b. An implementation that says too much (issue #8): what it names itself reaches the summary
# escaped (no escape sequence, no forged line), and 3 answers of 8 MiB and 5000 findings each
# leave a small report that says what was cut.
"$arcs" run --filter "$three" --no-resource-probes --impl "$fake chatty --bytes 8388608" \
  --report "$tmp/chatty.json" >"$tmp/chatty.out" 2>&1
[ $? -eq 1 ] || fail "chatty implementation: exit status"
! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$tmp/chatty.out" ||
  fail "a control character from the implementation reached the summary"
! grep -q '^spool.spool:1' "$tmp/chatty.out" || fail "the implementation forged a line"
grep -q 'fake\\u001b\]0;pwned\\u0007' "$tmp/chatty.out" || fail "the name is not shown escaped"
[ "$(wc -c <"$tmp/chatty.json")" -lt 200000 ] || fail "the report kept what the answers flooded"
case_field "$tmp/chatty.json" $one validate message | grep -q "findings: the first 1000 of 5000 kept" ||
  fail "the report does not say the findings were cut"

# 7. The example adapters, with their known-failures lists.
expect_status 0 "python adapter" "$arcs" run --quiet -j 2 --no-resource-probes \
  --impl "/usr/bin/python3 $src/runner/adapters/python/arcs_adapter.py" \
  --known-failures "$src/runner/adapters/python/known-failures.txt" --report "$tmp/python.json"
if command -v node >/dev/null; then
  expect_status 0 "node adapter" "$arcs" run --quiet -j 2 --no-resource-probes \
    --impl "node $src/runner/adapters/node/arcs_adapter.js" \
    --known-failures "$src/runner/adapters/node/known-failures.txt" --report "$tmp/node.json"
else
  fail "node is not installed (tools/setup.sh installs nodejs)"
fi

# 8. Every rendering of a real report.
for form in --html --markdown --junit; do
  expect_status 0 "report $form" "$arcs" report "$tmp/ref.json" "$form" --out "$tmp/r$form"
  [ -s "$tmp/r$form" ] || fail "report $form wrote nothing"
done
expect_status 0 "report --badges" "$arcs" report "$tmp/ref.json" --badges "$tmp/badges"
# Whole-file reads are bounded and name what is wrong (issue #8): no std::bad_alloc, no "not JSON"
# for a directory.
expect_status 2 "report /dev/zero" "$arcs" report /dev/zero --html
grep -q "/dev/zero: larger than [0-9]* bytes" "$tmp/out" || fail "report /dev/zero: no clear error"
# One report holds what its readers can read: 32 implementations and 32,768 cases at most.
many=()
for i in $(seq 11); do many+=(--impl true); done
"$arcs" run "${many[@]}" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "one report holds at most 32 implementations and 32768 cases" "$tmp/err" \
  || fail "11 implementations x the whole suite: not refused before the run"
expect_status 2 "diff /dev/zero" "$arcs" diff "$tmp/ref.json" /dev/zero
expect_status 2 "report DIR" "$arcs" report "$tmp" --html
grep -q "is a directory" "$tmp/out" || fail "report DIR does not say it is a directory"
expect_status 2 "known failures /dev/zero" "$arcs" run --quiet --known-failures /dev/zero
grep -q "/dev/zero: larger than" "$tmp/out" || fail "--known-failures /dev/zero: no clear error"
ls "$tmp/badges"/*.svg >/dev/null 2>&1 || fail "no badge written"

finish run
