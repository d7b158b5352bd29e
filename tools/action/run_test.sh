#!/usr/bin/env bash
# The GitHub Action's script (tools/action/run.sh) run locally with the variables the Action sets:
# the reference certified and fuzzed with nothing found, a recording linted into empty SARIF; then
# the Python example adapter with its known-failures list (green) and an invalid recording (SARIF
# with the finding, exit 1); the job summary and the step outputs each time.
# usage: run_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$(cd "$2" && pwd)
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"

# action NAME: runs the script with the Action's variables (and the ARCS_* inputs already exported)
# in a runner temp of its own.
action() {
  mkdir -p "$tmp/$1"
  env GITHUB_ACTION_PATH="$src" RUNNER_TEMP="$tmp/$1" GITHUB_STEP_SUMMARY="$tmp/$1/summary.md" \
    GITHUB_OUTPUT="$tmp/$1/output" GITHUB_RUN_NUMBER=7 ARCS_BINARY="${ARCS_BINARY-$arcs}" \
    bash "$src/tools/action/run.sh" >"$tmp/$1/log" 2>&1
}

# action.yml is YAML (Debian's python3-yaml reads it), and each of its inputs reaches run.sh.
/usr/bin/python3 - "$src/action.yml" "$src/tools/action/run.sh" "$src/.github/workflows/cflite_pr.yml" <<'PYTHON' ||
import re, sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
yaml.safe_load(open(sys.argv[3]))
env = action["runs"]["steps"][0]["env"]
script = open(sys.argv[2]).read()
for name in action["inputs"]:
    if name == "upload-sarif":  # a step of action.yml's own
        continue
    passed = [k for k, v in env.items() if v == "${{ inputs.%s }}" % name]
    assert passed, "input %s is not passed to run.sh" % name
    assert re.search(r"\$\{?%s\b" % passed[0], script), "run.sh does not read " + passed[0]
PYTHON
  fail "action.yml's inputs and run.sh disagree"

export ARCS_IMPL="$arcs serve" ARCS_FORMAT="session-data" ARCS_FUZZ_RUNS=100 \
  ARCS_VALIDATE="$src/vectors/spool/cases/11.1-minimal.spool" ARCS_RUN_ARGS="--timeout-cpu 20"
action reference
status=$?
[ "$status" -eq 0 ] || fail "the reference: exit $status: $(tail -20 "$tmp/reference/log")"
reports=$tmp/reference/arcs-reports
grep -qx "reports=$reports" "$tmp/reference/output" || fail "no reports output"
grep -q "^arcs-reference session-data full$" "$tmp/reference/output" || fail "no certification output"
for f in arcs.json arcs.html arcs.md arcs.xml fuzz.json fuzz.html fuzz.md arcs.sarif; do
  [ -s "$reports/$f" ] || fail "no $f"
done
grep -q "^### Certification" "$tmp/reference/summary.md" || fail "the summary lacks the certification"
grep -q "^## arcs validate" "$tmp/reference/summary.md" && grep -q "^Every file conforms" \
  "$tmp/reference/summary.md" || fail "the summary lacks the validation"
/usr/bin/python3 - "$reports" <<'PYTHON' || fail "the reference's reports"
import json, sys
d = sys.argv[1]
sarif = json.load(open(d + "/arcs.sarif"))
assert sarif["version"] == "2.1.0" and sarif["runs"][0]["results"] == [], sarif["runs"][0]["results"]
fuzz = json.load(open(d + "/fuzz.json"))
assert fuzz["execs"] == 100 and fuzz["findings"] == [], fuzz["findings"]
PYTHON

export ARCS_IMPL="/usr/bin/python3 $src/runner/adapters/python/arcs_adapter.py" ARCS_FORMAT=spool \
  ARCS_KNOWN_FAILURES="$src/runner/adapters/python/known-failures.txt" ARCS_FUZZ_RUNS=0 \
  ARCS_RUN_ARGS="--no-resource-probes" ARCS_VALIDATE="$src/vectors/spool/cases/11.4.1-empty.spool"
action toy
status=$?
[ "$status" -eq 1 ] || fail "the toy with an invalid recording: exit $status, want 1: $(tail -20 "$tmp/toy/log")"
grep -q "^toy-spool-python spool partial" "$tmp/toy/output" || fail "the toy's certification: $(cat "$tmp/toy/output")"
[ ! -e "$tmp/toy/arcs-reports/fuzz.json" ] || fail "fuzzed with fuzz-runs 0"
/usr/bin/python3 - "$tmp/toy/arcs-reports" <<'PYTHON' || fail "the toy's reports"
import json, sys
d = sys.argv[1]
report = json.load(open(d + "/arcs.json"))
assert report["implementations"][0]["summary"]["known_failures"] > 0
results = json.load(open(d + "/arcs.sarif"))["runs"][0]["results"]
assert any(r["ruleId"] == "SP-4.3-1" for r in results), results
PYTHON
grep -q "^Findings (also in arcs.sarif)" "$tmp/toy/summary.md" || fail "the summary does not show the findings"

# No `arcs` input: an arcs on the PATH (the package's, say) is taken before any build.
mkdir -p "$tmp/bin" && ln -s "$(cd "$(dirname "$arcs")" && pwd)/$(basename "$arcs")" "$tmp/bin/arcs"
export ARCS_IMPL="" ARCS_VALIDATE="$src/vectors/spool/cases/11.1-minimal.spool" ARCS_BINARY=""
PATH="$tmp/bin:$PATH" action on-path
status=$?
[ "$status" -eq 0 ] || fail "arcs on the PATH: exit $status: $(tail -5 "$tmp/on-path/log")"
grep -q "^arcs: $tmp/bin/arcs (arcs " "$tmp/on-path/log" || fail "the arcs on the PATH was not taken"
! grep -q "build ARCS" "$tmp/on-path/log" || fail "built although arcs is on the PATH"

finish action
