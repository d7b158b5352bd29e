#!/usr/bin/env bash
# `arcs mcp record` and `arcs mcp replay` ended by SIGINT, SIGTERM and SIGHUP (issue #24): the
# recording keeps every message received before the signal and gets its footer, and no process of
# the upstream's group survives (the fake upstream, group_upstream.py, starts a `sleep 1000` of its
# own). A realistic delay of 2^40 ms is cut to the documented cap and wakes on a signal and on the
# client closing its input. Every wait polls with limits of tens of seconds; none is a fixed sleep.
# usage: signals_test.sh ARCS
set -uo pipefail
arcs=$1
fake="/usr/bin/python3 $(cd "$(dirname "$0")" && pwd)/group_upstream.py"
work=$(mktemp -d)
started=()  # every arcs we start, and the upstream groups, ended by id if a check left them
groups=()
cleanup() {
  local pid
  for pid in "${started[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  for pid in "${groups[@]}"; do kill -KILL -- "-$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
failed=0

check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then
    echo "ok: $name"
  else
    echo "FAIL: $name"
    failed=1
  fi
}

wait_until() {  # wait_until SECONDS COMMAND...: polls COMMAND every 0.1 s
  local end=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < end)) || return 1
    sleep 0.1
  done
}

dead() {  # gone, or a zombie nobody reaps
  [[ ! -e /proc/$1/stat ]] || [[ $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) == Z* ]]
}

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
  started+=("$pid")
  exec 3>"$dir/in"
}

# finish SECONDS: waits for arcs to end; sets status (999 when it did not end in time).
finish() {
  status=999
  if wait_until "$1" dead "$pid"; then
    wait "$pid"
    status=$?
  fi
  exec 3>&-
}

upstream_group() {  # upstream_group FILE: sets pgid once the fake upstream wrote it
  pgid=
  wait_until 60 test -s "$1" || return 1
  read -r pgid _ <"$1"
  groups+=("$pgid")
}

request() { printf '{"jsonrpc":"2.0","id":%s,"method":"%s"}\n' "$1" "$2" >&3; }

for sig in HUP INT TERM; do
  dir=$work/record-$sig
  # Flushed only at the end: no message may be lost for being unflushed when the signal comes.
  start "$dir" record --upstream "$fake $dir/group" -o "$dir/rec.jsonl" \
    --flush-interval 86400000
  for id in 1 2 3; do request "$id" "m$id"; done
  check "record SIG$sig: the upstream answered" wait_until 60 lines_at_least "$dir/out" 3
  upstream_group "$dir/group"
  kill "-$sig" "$pid"
  finish 60
  check "record SIG$sig: exit status 0 (got $status)" test "$status" = 0
  check "record SIG$sig: the footer counts all 6 messages" \
    bash -c "tail -n 1 '$dir/rec.jsonl' | grep -q '\"type\":\"footer\",\"total_messages\":6,'"
  check "record SIG$sig: all 6 messages recorded" \
    test "$(grep -c '"type":"message"' "$dir/rec.jsonl")" = 6
  check "record SIG$sig: no process of the upstream's group is left" \
    wait_until 30 group_gone "${pgid:-0}"
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
  kill "-$sig" "$pid"
  finish 60
  check "replay SIG$sig: exit status 0 (got $status)" test "$status" = 0
  check "replay SIG$sig: no process of the upstream's group is left" \
    wait_until 30 group_gone "${pgid:-0}"
done

# 2^40 ms recorded: cut to the cap of 60 s, so an end within 30 s of the event is the wait waking.
dir=$work/timing-signal
mkdir -p "$dir"
recording "$dir/rec.jsonl" 1099511627776
start "$dir" replay -r "$dir/rec.jsonl" --timing realistic
request 7 recorded
check "realistic timing: a 2^40 ms delay is cut, with a note" \
  wait_until 60 has_line "$dir/err" 'delay of 1099511627776 ms is cut to 60000 ms'
kill -TERM "$pid"
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
exit $failed
