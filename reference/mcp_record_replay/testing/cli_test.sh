#!/usr/bin/env bash
# `arcs mcp record` and `arcs mcp replay` as a user runs them (issue #24). Ended by SIGINT, SIGTERM
# and SIGHUP: the recording keeps every message received before the signal and gets its footer,
# and no process of the upstream's group survives (the fake upstream, group_upstream.py, starts a
# `sleep 1000` of its own). A realistic delay of 2^40 ms is cut to the documented cap and wakes on
# a signal and on the client closing its input. What reaches stderr from the upstream, the client
# and the recording holds no terminal control, bidi control or invalid UTF-8 raw. Every wait polls
# with limits of tens of seconds; none is a fixed sleep.
# usage: signals_test.sh ARCS
set -uo pipefail
arcs=$1
fake="/usr/bin/python3 $(cd "$(dirname "$0")" && pwd)/group_upstream.py"
work=$(mktemp -d)
# Ended by id at the exit: an arcs still running (a job of ours), and an upstream group whose check
# failed (one that survived). Never a pid we saw end: another process may have it by now.
survivors=()
cleanup() {
  local pid
  for pid in $(jobs -rp); do kill -KILL "$pid"; done
  for pid in "${survivors[@]}"; do kill -KILL -- "-$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
source "$(dirname "$0")/lib.sh"

running() { [[ -n $(jobs -rp) ]]; }  # the one arcs started in the background

group_gone() {  # no live process in process group $1
  ! ps -e -o pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ {found = 1} END {exit !found}'
}

lines_at_least() { [[ -f $1 && $(wc -l <"$1") -ge $2 ]]; }
has_line() { [[ -f $1 ]] && grep -q -- "$2" "$1"; }

# start DIR ARGS...: `arcs mcp ARGS` in DIR, its input a FIFO held open on fd 3, its output and
# stderr in DIR/out and DIR/err, every stop signal at its default action (as a foreground command
# gets them, whatever this script inherited); sets pid.
start() {
  local dir=$1
  shift
  mkdir -p "$dir"
  mkfifo "$dir/in"
  env --default-signal=HUP,INT,TERM "$arcs" mcp "$@" <"$dir/in" >"$dir/out" 2>"$dir/err" &
  pid=$!
  exec 3>"$dir/in"
}

# finish SECONDS: waits for arcs to end; sets status (999 when it did not end in time).
finish() {
  status=999
  if wait_until "$1" eval '! running'; then
    wait "$pid"
    status=$?
  fi
  exec 3>&-
}

upstream_group() {  # upstream_group FILE: sets pgid once the fake upstream wrote it
  pgid=
  wait_until 60 test -s "$1" || return 1
  read -r pgid _ <"$1"
}

group_ended() {  # group_ended NAME: checks that the upstream's group $pgid ends
  if [[ -n $pgid ]] && wait_until 30 group_gone "$pgid"; then
    echo "ok: $1"
  else
    echo "FAIL: $1"
    failed=1
    [[ -z $pgid ]] || survivors+=("$pgid")
  fi
}

signal() { running && kill "-$1" "$pid"; }

request() { printf '{"jsonrpc":"2.0","id":%s,"method":"%s"}\n' "$1" "$2" >&3; }

for sig in HUP INT TERM; do
  dir=$work/record-$sig
  # Flushed only at the end: no message may be lost for being unflushed when the signal comes.
  start "$dir" record --upstream "$fake $dir/group" -o "$dir/rec.jsonl" \
    --flush-interval 86400000
  for id in 1 2 3; do request "$id" "m$id"; done
  check "record SIG$sig: the upstream answered" wait_until 60 lines_at_least "$dir/out" 3
  upstream_group "$dir/group"
  signal "$sig"
  finish 60
  check "record SIG$sig: exit status 0 (got $status)" test "$status" = 0
  check "record SIG$sig: the footer counts all 6 messages" \
    bash -c "tail -n 1 '$dir/rec.jsonl' | grep -q '\"type\":\"footer\",\"total_messages\":6,'"
  check "record SIG$sig: all 6 messages recorded" \
    test "$(grep -c '"type":"message"' "$dir/rec.jsonl")" = 6
  group_ended "record SIG$sig: no process of the upstream's group is left"
done

recording() {  # recording FILE LATENCY_MS: one request and its response
  cat >"$1" <<JSONL
{"type":"header","version":"1.0","recorded_at":"2025-02-04T10:00:00Z","upstream":"u","thoughtjack_version":"0"}
{"type":"message","seq":1,"ts":"2025-02-04T10:00:01Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"recorded"}}
{"type":"message","seq":2,"ts":"2025-02-04T10:00:02Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":1,"result":"from the recording"},"latency_ms":$2}
JSONL
}

for sig in HUP INT TERM; do
  dir=$work/replay-$sig
  mkdir -p "$dir"
  recording "$dir/rec.jsonl" 5
  start "$dir" replay -r "$dir/rec.jsonl" --on-unmatched passthrough \
    --upstream "$fake $dir/group"
  request 1 recorded
  request 2 unrecorded
  check "replay SIG$sig: the upstream answered" wait_until 60 has_line "$dir/out" '"echo": "unrecorded"'
  upstream_group "$dir/group"
  signal "$sig"
  finish 60
  check "replay SIG$sig: exit status 0 (got $status)" test "$status" = 0
  group_ended "replay SIG$sig: no process of the upstream's group is left"
done

# 2^40 ms recorded: cut to the cap of 60 s, so an end within 30 s of the event is the wait waking.
dir=$work/timing-signal
mkdir -p "$dir"
recording "$dir/rec.jsonl" 1099511627776
start "$dir" replay -r "$dir/rec.jsonl" --timing realistic
request 7 recorded
check "realistic timing: a 2^40 ms delay is cut, with a note" \
  wait_until 60 has_line "$dir/err" 'delay of 1099511627776 ms is cut to 60000 ms'
signal TERM
finish 30
check "realistic timing: SIGTERM ends the delay and the replay (exit 0, got $status)" \
  test "$status" = 0

dir=$work/timing-close
mkdir -p "$dir"
recording "$dir/rec.jsonl" 1099511627776
start "$dir" replay -r "$dir/rec.jsonl" --timing realistic
request 7 recorded
check "realistic timing: the delay starts" wait_until 60 has_line "$dir/err" 'is cut to 60000 ms'
exec 3>&-  # the client closes its input: MCP's stdio shutdown
finish 30
check "realistic timing: the client closing its input ends the delay (exit 0, got $status)" \
  test "$status" = 0
check "realistic timing: the answer still owed is sent" \
  has_line "$dir/out" '"id":7,"result":"from the recording"'
# Raw: C0 (ESC, BEL), C1 (U+009B), a bidi override (U+202E) and a byte that is not UTF-8.
nasty='\033]0;title\007 \302\233 \342\200\256 \377'
no_raw_controls() {
  ! LC_ALL=C grep -qP '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80\xae|\xff' "$1"
}
dir=$work/stderr
mkdir -p "$dir"
# The same controls in a request's method, as JSON escapes, and raw in a line that is not JSON.
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"m \u001b]0;title\u0007 \u009b \u202e"}' \
  "not json $(printf "$nasty")" >"$dir/client"
"$arcs" mcp record --upstream "printf 'log $nasty\\n' >&2; cat >/dev/null" -o "$dir/rec.jsonl" \
  <"$dir/client" >/dev/null 2>"$dir/record.err"
check "record: the upstream's stderr line, escaped" \
  grep -qF 'log \u001b]0;title\u0007 \u009b \u202e \xff' "$dir/record.err"
check "record: nothing raw on stderr" no_raw_controls "$dir/record.err"
recording "$dir/replay.jsonl" 5
# by-request: the request is unmatched, so the upstream has written its line when it answers.
"$arcs" mcp replay -r "$dir/replay.jsonl" --match-mode by-request --on-unmatched passthrough \
  --upstream "printf 'log $nasty\\n' >&2; /usr/bin/python3 -c 'import sys; sys.stdout.write(sys.stdin.readline().replace(\"method\", \"result\"))'" \
  <"$dir/client" >/dev/null 2>"$dir/replay.err"
check "replay: the upstream's stderr line, escaped" \
  grep -qF 'log \u001b]0;title\u0007 \u009b \u202e \xff' "$dir/replay.err"
# The method is quoted as JSON in the message (\u001b), and the message made Printable, which
# doubles its backslashes as it does every backslash, so that the bytes can be recovered.
check "replay: the unmatched method, escaped" \
  grep -qF 'for "m \\u001b]0;title\\u0007 \\u009b \\u202e": forwarded' "$dir/replay.err"
check "replay: nothing raw on stderr" no_raw_controls "$dir/replay.err"

# Lines that are no message (errata MRR-E51): forwarded as they were, and recorded in their place
# as arcs/unrecorded, whose base64 Python decodes back to each line; the recording stays valid.
dir=$work/unrecorded
mkdir -p "$dir"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"ping"}' >"$dir/client"
printf 'not json\n\377\376\n[1,2]\n{"jsonrpc":"2.0","method":"cut' >"$dir/server"
"$arcs" mcp record --upstream "cat '$dir/server'; cat >/dev/null" -o "$dir/rec.jsonl" \
  <"$dir/client" >"$dir/out" 2>"$dir/err"
check "record: the server's lines reach the client as they were" cmp -s "$dir/server" "$dir/out"
check "record: the recording with arcs/unrecorded lines is valid" \
  "$arcs" validate --format mcp-record-replay "$dir/rec.jsonl"
unrecorded_as_sent() {
  /usr/bin/python3 - "$dir/rec.jsonl" <<'PY'
import base64, json, sys
got = []
for text in open(sys.argv[1], 'rb'):
    line = json.loads(text)
    msg = line.get('msg') or {}
    if msg.get('method') == 'arcs/unrecorded':
        p = msg['params']
        data = base64.b64decode(p['base64'], validate=True)
        assert p['bytes'] == len(data) and 'truncated' not in p, p
        got.append((line['dir'], p['reason'], data))
want = [('s2c', 'not-json', b'not json'), ('s2c', 'not-utf8', b'\xff\xfe'),
        ('s2c', 'not-an-object', b'[1,2]'),
        ('s2c', 'unterminated', b'{"jsonrpc":"2.0","method":"cut')]
sys.exit(0 if got == want else f'{got} != {want}')
PY
}
check "record: each line recorded as arcs/unrecorded, in order, its bytes in base64" \
  unrecorded_as_sent
"$arcs" mcp replay -r "$dir/rec.jsonl" --on-unmatched warn <"$dir/client" >"$dir/replayed" \
  2>/dev/null
check "replay: the server's lines go out as they were recorded, each with its line end" \
  bash -c "head -c \$(( \$(wc -c <'$dir/server') + 1 )) '$dir/replayed' |
           cmp -s - <(cat '$dir/server'; printf '\n')"

# Redaction (errata MRR-E52): the recording leaves the secrets out, the forwarded bytes keep them.
dir=$work/redact
mkdir -p "$dir"
secret='hunter2-Secret'
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"password":"hunter2-\u0053ecret","key":"sk-abc123"}}}' \
  >"$dir/client"
ARCS_TEST_SECRET=$secret "$arcs" mcp record --upstream cat -o "$dir/rec.jsonl" \
  --redact-env ARCS_TEST_SECRET --redact 'sk-[a-z0-9]+' <"$dir/client" >"$dir/out" 2>"$dir/err"
check "redact: the client's bytes reach the server and back unchanged" cmp -s "$dir/client" "$dir/out"
check "redact: the recording holds no secret" \
  bash -c "! grep -qF -e '$secret' -e sk-abc123 '$dir/rec.jsonl'"
check "redact: both messages redacted" \
  test "$(grep -c '"password":"\[REDACTED:ARCS_TEST_SECRET\]","key":"\[REDACTED\]"' "$dir/rec.jsonl")" = 2
check "redact: the header states the rules" has_line "$dir/rec.jsonl" \
  '"redaction":{"env":\["ARCS_TEST_SECRET"\],"patterns":\["sk-\[a-z0-9\]+"\]}'
check "redact: the recording is valid" "$arcs" validate --format mcp-record-replay "$dir/rec.jsonl"
env -u ARCS_TEST_UNSET "$arcs" mcp record --upstream cat -o "$dir/unset.jsonl" \
  --redact-env ARCS_TEST_UNSET </dev/null >/dev/null 2>"$dir/unset.err"
status=$?
check "redact: an unset variable is a usage error (exit 2, got $status)" test "$status" = 2
check "redact: ... which says so, before any file is written" \
  bash -c "grep -q 'no such environment variable' '$dir/unset.err' && ! test -e '$dir/unset.jsonl'"
"$arcs" mcp record --upstream cat -o "$dir/bad.jsonl" --redact 'a(b' </dev/null >/dev/null \
  2>"$dir/bad.err"
status=$?
check "redact: an invalid pattern is a usage error (exit 2, got $status)" test "$status" = 2
check "redact: ... naming RE2's complaint" grep -q 'missing )' "$dir/bad.err"
exit $failed
