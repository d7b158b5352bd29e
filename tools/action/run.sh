#!/usr/bin/env bash
# The ARCS GitHub Action's one step (action.yml): its inputs come as ARCS_* variables, GitHub's
# own as GITHUB_*/RUNNER_*. It finds or builds arcs, then, as asked: `arcs run` of ARCS_IMPL with
# its reports rendered, `arcs fuzz` for ARCS_FUZZ_RUNS mutants, `arcs validate --sarif` of
# ARCS_VALIDATE; writes a Markdown job summary and the outputs `reports` and `certification`.
# Every step runs even when one before failed; the exit status is the worst of theirs (0 all
# passed, 1 a failure, 2 a usage or build error).
set -uo pipefail
action=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
out=${RUNNER_TEMP:-/tmp}/arcs-reports
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
outputs=${GITHUB_OUTPUT:-/dev/null}
mkdir -p "$out"
echo "reports=$out" >>"$outputs"
status=0
worst() { if [ "$1" -gt "$status" ]; then status=$1; fi; }

arcs=${ARCS_BINARY:-}
if [ -z "$arcs" ] && command -v arcs >/dev/null 2>&1; then arcs=$(command -v arcs); fi
if [ -z "$arcs" ]; then
  # The arcs binary alone: the tests and benchmarks are this repository's business, not the user's.
  echo "::group::build ARCS"
  {
    bash "$action/tools/setup.sh" &&
      cmake -S "$action" -B "$action/build" -DARCS_BENCHMARKS=OFF &&
      cmake --build "$action/build" -j "$(nproc)" --target arcs
  } >"$out/build.log" 2>&1 || { cat "$out/build.log"; echo "::error::ARCS did not build"; exit 2; }
  echo "::endgroup::"
  arcs=$action/build/arcs
fi
echo "arcs: $arcs ($("$arcs" --version))"

formats=()
for f in ${ARCS_FORMAT:-}; do formats+=(--format "$f"); done

if [ -n "${ARCS_IMPL:-}" ]; then
  known=()
  [ -n "${ARCS_KNOWN_FAILURES:-}" ] && known=(--known-failures "$ARCS_KNOWN_FAILURES")
  echo "::group::arcs run"
  # shellcheck disable=SC2086  # the input is a list of options
  "$arcs" run --impl "$ARCS_IMPL" "${formats[@]}" "${known[@]}" ${ARCS_RUN_ARGS:-} \
    --report "$out/arcs.json"
  run_status=$?
  echo "::endgroup::"
  worst "$run_status"
  if [ -s "$out/arcs.json" ]; then
    "$arcs" report "$out/arcs.json" --html --out "$out/arcs.html" || worst 2
    "$arcs" report "$out/arcs.json" --markdown --out "$out/arcs.md" || worst 2
    "$arcs" report "$out/arcs.json" --junit --out "$out/arcs.xml" || worst 2
    cat "$out/arcs.md" >>"$summary"
    /usr/bin/python3 - "$out/arcs.json" "$outputs" <<'PYTHON' || worst 2
import json, sys
report = json.load(open(sys.argv[1]))
lines = ["%s %s %s" % (i["name"], f["format"], f["certification"])
         for i in report["implementations"] for f in i["formats"]]
with open(sys.argv[2], "a") as out:
    out.write("certification<<ARCS_EOF\n" + "\n".join(lines) + "\nARCS_EOF\n")
PYTHON
  fi
fi

if [ -n "${ARCS_IMPL:-}" ] && [ "${ARCS_FUZZ_RUNS:-0}" != "0" ]; then
  fuzz_known=()
  [ -n "${ARCS_FUZZ_KNOWN_FAILURES:-}" ] && fuzz_known=(--known-failures "$ARCS_FUZZ_KNOWN_FAILURES")
  echo "::group::arcs fuzz"
  "$arcs" fuzz --impl "$ARCS_IMPL" "${formats[@]}" "${fuzz_known[@]}" --runs "$ARCS_FUZZ_RUNS" \
    --seed "${GITHUB_RUN_NUMBER:-1}" --summary "$out/fuzz.json" --report "$out/fuzz.html" \
    --report "$out/fuzz.md" --out "$out/fuzz-candidates"
  worst $?
  echo "::endgroup::"
  [ -s "$out/fuzz.md" ] && cat "$out/fuzz.md" >>"$summary"
fi

if [ -n "${ARCS_VALIDATE:-}" ]; then
  # shellcheck disable=SC2206  # the input is a list of paths, globs allowed
  paths=(${ARCS_VALIDATE})
  "$arcs" validate --sarif "${paths[@]}" >"$out/arcs.sarif"
  validate_status=$?
  worst "$validate_status"
  "$arcs" validate "${paths[@]}" >"$out/validate.txt" 2>&1
  {
    echo "## arcs validate"
    echo
    if [ "$validate_status" -eq 0 ]; then echo "Every file conforms."; else echo "Findings (also in arcs.sarif):"; fi
    echo
    echo '```'
    head -n 200 "$out/validate.txt"
    echo '```'
  } >>"$summary"
fi

exit "$status"
