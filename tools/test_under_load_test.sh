#!/usr/bin/env bash
# tools/test_under_load.sh with a stand-in for ctest: it gets the build folder, two jobs a core and
# the arguments given after BUILD; a busy loop a core runs beside it; its exit status is the
# script's; and no loop outlives the script, whether ctest passes or fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() {
  echo "FAIL: $*"
  failed=1
}

mkdir "$work/bin"
# The stand-in notes its arguments and the busy loops its parent (the script) runs, then exits
# with $FAKE_STATUS.
cat >"$work/bin/ctest" <<'SH'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$WORK/args"
pgrep -P "$PPID" -f 'while :; do :; done' >"$WORK/loops"
exit "$FAKE_STATUS"
SH
chmod +x "$work/bin/ctest"
cores=$(nproc 2>/dev/null || echo 2)

for status in 0 3; do
  WORK=$work FAKE_STATUS=$status PATH="$work/bin:$PATH" \
    bash "$here/test_under_load.sh" my-build -R some_test --repeat until-fail:2 >"$work/out"
  got=$?
  ((got == status)) || fail "ctest ended $status, the script $got"
  expected=$(printf '%s\n' --test-dir my-build --output-on-failure -j $((2 * cores)) -R some_test \
    --repeat until-fail:2)
  [[ $(cat "$work/args") == "$expected" ]] || fail "ctest's arguments: $(tr '\n' ' ' <"$work/args")"
  [[ $(wc -l <"$work/loops") -eq $cores ]] ||
    fail "$(wc -l <"$work/loops") busy loops beside ctest, not $cores"
  while read -r pid; do
    ! kill -0 "$pid" 2>/dev/null || fail "busy loop $pid outlived the script (ctest ended $status)"
  done <"$work/loops"
  grep -q "^test_under_load: $cores busy loops beside ctest -j $((2 * cores))$" "$work/out" ||
    fail "the script did not say what it runs: $(cat "$work/out")"
done
exit $failed
