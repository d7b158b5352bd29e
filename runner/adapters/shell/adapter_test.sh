#!/usr/bin/env bash
# The shell example adapter (arcs_adapter.sh), end to end: `arcs run` over the spool vectors with
# its known-failures list, then the adapter driven directly over the protocol (inputs holding NUL
# and invalid UTF-8, a large input, cases it skips, a failing command, odd ids, unknown messages),
# checking that stdout holds only protocol lines, one per case, in order, and that its temporary
# files are gone at the end. Needs jq (as the adapter does) and python3 (the toy it wraps).
# usage: adapter_test.sh ARCS_BINARY SOURCE_DIR
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 ARCS_BINARY SOURCE_DIR" >&2
  exit 2
fi
arcs=$1
src=$2
dir=$src/runner/adapters/shell
adapter=$dir/arcs_adapter.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
command -v jq >/dev/null || fail "jq is not installed (the adapter needs it)"

# 1. A fifth of the spool suite through `arcs run` (a process per case is slow: the whole suite
# takes a minute or more, too long for `make test`), with the shipped known-failures list. The
# resource probes are left out, as for the other examples: the toy is too slow for one.
status=0
"$arcs" run --quiet -j 2 --no-resource-probes --suite "$src" --format spool --filter 'spool-[0-9a-c]*' \
  --impl "bash '$adapter'" --known-failures "$dir/known-failures.txt" \
  --report "$tmp/shell.json" >"$tmp/run.out" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  sed 's/^/    /' "$tmp/run.out" | tail -n 40 >&2
  fail "arcs run with the shell adapter: exit $status, want 0"
fi
jq -e '.implementations | length == 1' "$tmp/shell.json" >/dev/null ||
  fail "the report does not hold exactly one implementation"
jq -e '.implementations[0] | .name == "toy-spool-shell" and .language == "shell"' \
  "$tmp/shell.json" >/dev/null ||
  fail "the report's implementation is not toy-spool-shell in shell: $(
    jq -c '.implementations[0] | {name, language}' "$tmp/shell.json")"
passed=$(jq '.implementations[0].summary.passed' "$tmp/shell.json")
[ "$passed" -ge 100 ] || fail "the shell adapter passed only $passed cases, want at least 100"
restarts=$(jq '.implementations[0].restarts' "$tmp/shell.json")
[ "$restarts" -eq 0 ] || fail "the adapter was restarted $restarts times (crash, timeout, protocol)"

# 2. The adapter driven directly. b64 FILE: the file's bytes in base64, on one line.
b64() { base64 -w0 <"$1"; }
session='{"id":"00000000-0000-4000-8000-000000000000","ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01T00:00:00Z"}'
printf '%s\n' "$session" >"$tmp/minimal.spool"
{ printf '%s\n' "$session"; printf '\0\377\376{}\n'; } >"$tmp/hostile.spool"  # NUL, invalid UTF-8
# A string with a lone surrogate: the toy reads it and fails to write it (its command exits 2).
{ printf '%s\n' "$session"
  printf '%s\n' '{"id":"00000000-0000-4000-8000-000000000001","ts":1,"type":"x_s","x_s":"\ud800"}'
} >"$tmp/surrogate.spool"
# 6 MiB in one line: bash's read would take seconds over it; the adapter must stay in step.
{ printf '%s\n' "$session"
  printf '{"id":"00000000-0000-4000-8000-000000000001","ts":1,"type":"x_probe","x_long":"'
  head -c $((6 << 20)) /dev/zero | tr '\0' a
  printf '"}\n'
} >"$tmp/big.spool"

odd_id='odd \"id\"\t\u00e9 /validate'  # as JSON text: a quote, a tab, a non-ASCII letter
case_line() {  # case_line ID FORMAT OPERATION FILE [ARGS_JSON]
  printf '{"type":"case","id":"%s","format":"%s","operation":"%s","inputs":{"file":"' "$1" "$2" "$3"
  b64 "$4"
  printf '"}%s}\n' "${5:+,\"args\":$5}"
}
{
  printf '%s\n' '{"type":"hello","protocol":2,"formats":["spool"]}'
  case_line hostile/validate spool validate "$tmp/hostile.spool"
  case_line hostile/roundtrip spool roundtrip "$tmp/hostile.spool"
  case_line minimal/roundtrip spool roundtrip "$tmp/minimal.spool"
  printf '%s\n' '{"type":"ping","note":"a type the adapter does not know: no answer"}'
  case_line unknown-op/frobnicate spool frobnicate "$tmp/minimal.spool"
  case_line unknown-format/validate lightbox validate "$tmp/minimal.spool"
  case_line depth/validate spool validate "$tmp/minimal.spool" '{"limits":{"max_json_depth":8}}'
  case_line unknown-arg/validate spool validate "$tmp/minimal.spool" '{"style":"x"}'
  case_line limit/validate spool validate "$tmp/minimal.spool" '{"limits":{"max_entries":0}}'
  case_line surrogate/roundtrip spool roundtrip "$tmp/surrogate.spool"
  case_line big/validate spool validate "$tmp/big.spool"
  case_line "$odd_id" spool validate "$tmp/minimal.spool"
  printf '%s\n' '{"type":"shutdown"}'
  printf '%s\n' '{"type":"case","note":"after shutdown: never read"}'
} >"$tmp/requests"

mkdir "$tmp/adapter-tmp"
status=0
TMPDIR=$tmp/adapter-tmp bash "$adapter" <"$tmp/requests" >"$tmp/answers" 2>"$tmp/stderr" ||
  status=$?
[ "$status" -eq 0 ] || fail "the adapter exited $status after shutdown, want 0: $(cat "$tmp/stderr")"
[ -z "$(ls -A "$tmp/adapter-tmp")" ] || fail "the adapter left temporary files: $(ls -A "$tmp/adapter-tmp")"
grep -q 'ignoring a message of type "ping"' "$tmp/stderr" ||
  fail "the adapter did not log the unknown message on stderr"

# Every stdout line is one JSON object: the hello, then one result per case, in order.
want_ids=(hostile/validate hostile/roundtrip minimal/roundtrip unknown-op/frobnicate
  unknown-format/validate depth/validate unknown-arg/validate limit/validate surrogate/roundtrip
  big/validate "$(jq -rn "\"$odd_id\"")")
lines=$(wc -l <"$tmp/answers")
[ "$lines" -eq $((1 + ${#want_ids[@]})) ] ||
  fail "the adapter wrote $lines lines, want $((1 + ${#want_ids[@]})): $(cut -c1-200 "$tmp/answers")"
[ -z "$(tail -c 1 "$tmp/answers")" ] || fail "the last answer does not end in a newline"
n=0
while IFS= read -r line; do
  printf '%s' "$line" | jq -e 'type == "object"' >/dev/null 2>&1 ||
    fail "stdout line $((n + 1)) is not one JSON object: ${line:0:200}"
  if [ "$n" -eq 0 ]; then
    printf '%s' "$line" | jq -e '.type == "hello" and .protocol == 2
      and .implementation.name == "toy-spool-shell" and .implementation.language == "shell"
      and .formats.spool.operations == ["validate", "roundtrip"]' >/dev/null ||
      fail "the hello is not toy-spool-shell's: $line"
  else
    printf '%s' "$line" | jq -e --arg id "${want_ids[n - 1]}" '.type == "result" and .id == $id' \
      >/dev/null || fail "answer $n is not the result for ${want_ids[n - 1]}: ${line:0:200}"
    printf '%s\n' "$line" >"$tmp/answer.$n"
  fi
  n=$((n + 1))
done <"$tmp/answers"

# expect N JQ_CONDITION WHAT: answer N (1 = the first case) holds the condition.
expect() {
  jq -e "$2" "$tmp/answer.$1" >/dev/null || fail "$3: $(cut -c1-300 "$tmp/answer.$1")"
}
expect 1 '.status == "ok" and .verdict == "invalid"
  and any(.findings[]; .rule == "SP-3.4-1" and .line == 2)' \
  "NUL and invalid UTF-8 on line 2: want invalid with SP-3.4-1 on line 2"
expect 2 '.status == "ok" and .verdict == "invalid" and (.outputs == null)' \
  "the toy reader rejects invalid UTF-8: want invalid, no outputs"
jq -e --arg file "$(b64 "$tmp/minimal.spool")" \
  '.status == "ok" and .verdict == "valid" and .outputs == {file: $file}' "$tmp/answer.3" \
  >/dev/null || fail "the minimal round trip does not give the same bytes: $(cat "$tmp/answer.3")"
expect 4 '.status == "skipped"' "an unknown operation: want skipped"
expect 5 '.status == "skipped"' "a format the adapter does not declare: want skipped"
expect 6 '.status == "skipped" and (.reason | test("max_json_depth"))' \
  "a limit the toy cannot configure: want skipped, naming it"
expect 7 '.status == "skipped" and (.reason | test("style"))' \
  "an arg the adapter does not know: want skipped, naming it"
expect 8 '.status == "ok" and .verdict == "invalid" and any(.findings[]; .rule == "SP-10.1-3")' \
  "max_entries 0: want invalid with SP-10.1-3 (the limit reaches the command)"
expect 9 '.status == "errored" and (.message | test("exit status 2: UnicodeEncodeError"))' \
  "the command failing: want errored, with its exit status and last stderr line"
expect 10 '.status == "ok" and .verdict == "valid"' "a 6 MiB line: want valid"
expect 11 '.status == "ok" and .verdict == "valid"' "an odd id after a large input: want valid"

# 3. End of input without shutdown: also exit status 0, nothing on stdout but the hello.
status=0
head -n 1 "$tmp/requests" | bash "$adapter" >"$tmp/answers" 2>"$tmp/stderr" || status=$?
[ "$status" -eq 0 ] || fail "the adapter exited $status at end of input, want 0: $(cat "$tmp/stderr")"
[ "$(wc -l <"$tmp/answers")" -eq 1 ] || fail "at end of input: $(cat "$tmp/answers")"

echo "shell adapter: $passed cases passed; direct protocol checks passed"
