# shellcheck shell=bash
# What the command-line tests of `arcs` share (sourced, not run): a scratch folder removed on exit
# ($tmp), a failure count, and ways to run a command and check its exit status.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_status WANT DESCRIPTION COMMAND...: runs COMMAND (stdout and stderr in $tmp/out), checks
# its status.
expect_status() {
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>&1
  local got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$what: exit $got, want $want"
    sed 's/^/    /' "$tmp/out" | head -n 30 >&2
  fi
}

# run_as WANT DESCRIPTION COMMAND...: as expect_status, with stdout in $tmp/out and stderr in
# $tmp/err apart.
run_as() {
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$what: exit $got, want $want"
    head -n 20 "$tmp/out" "$tmp/err" | sed 's/^/    /' >&2
  fi
}

# finish WHAT: the verdict of the whole script, as its exit status.
finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
  fi
  echo "all $1 checks passed"
}
