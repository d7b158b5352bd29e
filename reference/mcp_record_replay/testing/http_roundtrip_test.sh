#!/usr/bin/env bash
# Recording over MCP Streamable HTTP (issue #26, errata MRR-E53): the official TypeScript SDK's
# client (tools/node, StreamableHTTPClientTransport) talks to server-everything in its Streamable
# HTTP mode directly, then through `arcs mcp record --upstream-http URL --http 0`. The client's
# results must be identical (the proxy changed nothing it saw), and the recording must be valid,
# end with its footer after SIGTERM and hold the session's messages; the same for the rich session
# (roots, sampling, progress: the server's requests and notifications travel on event streams),
# which then replays identically over Streamable HTTP (in order and reversed) and on stdio; and
# the legacy HTTP+SSE transport recorded alike, its recording also replayed with the server's
# roots request moved before the long-running call. A client that resumes a stream, to which
# server-everything sends answers again, leaves a recording that holds each message once.
# Every wait is bounded, and every process started is ended on exit.
# usage: http_roundtrip_test.sh ARCS REPO
set -uo pipefail
arcs=$1
repo=$2
client=$repo/reference/mcp_record_replay/testing/mcp_client.mjs
everything=$repo/tools/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
source "$(dirname "$0")/lib.sh"

port=$(free_port)
upstream=http://127.0.0.1:$port/mcp
if ! everything_http "$port" "$work/server.log"; then
  echo "FAIL: server-everything did not start"
  cat "$work/server.log"
  exit 1
fi
pids+=("$everything_pid")

direct() {  # direct OUT [CLIENT FLAGS]
  timeout 120 node "$client" --url "$upstream" --out "$1" "${@:2}"
}

# proxied NAME COMMAND...: COMMAND (each "{url}" in it the proxy's URL) through `arcs mcp record`
# into $work/NAME.jsonl (its log $work/NAME.log), which then gets SIGTERM; fails unless both end
# well and in time.
proxied() {
  local name=$1
  shift
  "$arcs" mcp record --upstream-http "$upstream" --http 127.0.0.1:0 -o "$work/$name.jsonl" \
    --name "$name" 2>"$work/$name.log" &
  local pid=$!
  pids+=($pid)
  local url
  url=$(listening_url "$work/$name.log") || {
    cat "$work/$name.log"
    return 1
  }
  timeout 120 "${@//\{url\}/$url}" || return 1
  kill -TERM "$pid"
  wait_until 10 ended "$pid" || return 1
  wait "$pid"
}

# recorded NAME OUT [CLIENT FLAGS]: the client, proxied into $work/NAME.jsonl. It talks Streamable
# HTTP to the proxy, or what $transport says (--sse-url: the legacy transport).
transport=--url
recorded() {
  local name=$1 out=$2
  shift 2
  proxied "$name" node "$client" "$transport" {url} --out "$out" "$@"
}

ended() {  # ended PID: it has exited (a zombie still answers kill -0)
  local state
  state=$(ps -o stat= -p "$1") || return 0
  [[ $state == Z* ]]
}

check "a direct session over Streamable HTTP" direct "$work/direct.json"
check "the same session through arcs mcp record --upstream-http" \
  recorded rec "$work/recorded.json"
check "the proxy changed nothing the client saw" same "$work/direct.json" "$work/recorded.json"
check "the recording is valid, with no finding" valid "$work/rec.jsonl"
check "it holds the session's requests, notifications and responses, then the footer" \
  bash -c "grep -q '\"dir\":\"c2s\"' '$work/rec.jsonl' && grep -q '\"dir\":\"s2c\"' '$work/rec.jsonl' &&
           grep -q 'notifications/initialized' '$work/rec.jsonl' &&
           grep -q 'tools/call' '$work/rec.jsonl' && grep -q 'resources/read' '$work/rec.jsonl' &&
           grep -q 'latency_ms' '$work/rec.jsonl' &&
           tail -n 1 '$work/rec.jsonl' | grep -q '\"type\":\"footer\"'"
check "its header names the upstream URL" \
  grep -q "\"upstream\":\"$upstream\"" "$work/rec.jsonl"

check "a rich direct session over Streamable HTTP" direct "$work/rich-direct.json" --rich
check "the rich session through arcs mcp record --upstream-http" \
  recorded rich "$work/rich-recorded.json" --rich
check "the proxy changed nothing the rich client saw" \
  same "$work/rich-direct.json" "$work/rich-recorded.json"
check "the rich recording is valid, with no finding" valid "$work/rich.jsonl"
check "the rich recording holds what the server said and asked on its event streams" \
  bash -c "grep -q '\"method\":\"roots/list\"' '$work/rich.jsonl' &&
           grep -q '\"method\":\"sampling/createMessage\"' '$work/rich.jsonl' &&
           grep -q '\"method\":\"notifications/progress\"' '$work/rich.jsonl' &&
           grep -q '\"method\":\"notifications/message\"' '$work/rich.jsonl' &&
           tail -n 1 '$work/rich.jsonl' | grep -q '\"type\":\"footer\"'"
# A client that resumes a stream after initialize's answer (resume_client.mjs): server-everything
# sends it prompts/list's answer again, which the recording must hold once (MRR-E53, "Sent again").
check "a stream resumed with Last-Event-ID through arcs mcp record, answers sent again" \
  proxied resume node "$repo/reference/mcp_record_replay/testing/resume_client.mjs" {url}
check "... the recording is valid, with no finding" valid "$work/resume.jsonl"
check "... it holds prompts/list's answer once" \
  bash -c "test \$(grep -c '\"prompts\":\\[' '$work/resume.jsonl') -eq 1"
check "... its log notes the resumption and the events not recorded again" \
  bash -c "grep -q 'resumes a stream after event' '$work/resume.log' &&
           grep -q 'the upstream sent [1-9][0-9]* event(s) again' '$work/resume.log'"
# replayed NAME OUT REPLAY_ARGS -- CLIENT FLAGS: the client against `arcs mcp replay --http` of
# $work/NAME.jsonl, which SIGTERM then ends (exit 0).
replayed() {
  local name=$1 out=$2 args=()
  shift 2
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  # A log of its own each time: a reused one is truncated by the job only once it runs.
  local log
  log=$(mktemp -p "$work" replay-XXXXXX.log)
  "$arcs" mcp replay -r "$work/$name.jsonl" "${args[@]}" --http 127.0.0.1:0 2>"$log" &
  local pid=$! url status
  pids+=($pid)
  url=$(listening_url "$log") &&
    timeout 120 node "$client" --url "${url}mcp" --out "$out" "$@"
  status=$?
  kill -TERM "$pid"
  wait "$pid" || status=1
  return $status
}
check "the rich HTTP recording replayed over Streamable HTTP (sequential)" \
  replayed rich "$work/rich-replayed.json" -- --rich
check "... the same results, what the server said and asked included" \
  same "$work/rich-recorded.json" "$work/rich-replayed.json"
check "the rich HTTP recording replayed over HTTP, calls reversed (by-request)" \
  replayed rich "$work/rich-replayed-reversed.json" --match-mode by-request -- --rich --shuffle
check "... the same results" same "$work/rich-recorded.json" "$work/rich-replayed-reversed.json"
check "the rich HTTP recording replayed on stdio" \
  timeout 120 node "$client" --server "$arcs mcp replay -r '$work/rich.jsonl'" \
  --out "$work/rich-replayed-stdio.json" --rich
check "... the same results" same "$work/rich-recorded.json" "$work/rich-replayed-stdio.json"

# The legacy HTTP+SSE transport (MCP 2024-11-05): server-everything in its sse mode, the SDK's
# SSEClientTransport; the proxy forwards the POSTs to the endpoint the stream names.
kill "$everything_pid"
port=$(free_port)
check "server-everything on the legacy HTTP+SSE transport" \
  everything_http "$port" "$work/sse-server.log" sse
pids+=("$everything_pid")
upstream=http://127.0.0.1:$port/sse
transport=--sse-url
check "a rich direct session over HTTP+SSE" \
  timeout 120 node "$client" --sse-url "$upstream" --out "$work/sse-direct.json" --rich
check "the same through arcs mcp record --upstream-http" \
  recorded sse "$work/sse-recorded.json" --rich
check "the proxy changed nothing the client saw" \
  same "$work/sse-direct.json" "$work/sse-recorded.json"
check "the HTTP+SSE recording is valid, with no finding" valid "$work/sse.jsonl"
check "... its footer last" bash -c "tail -n 1 '$work/sse.jsonl' | grep -q '\"type\":\"footer\"'"
check "the HTTP+SSE recording replayed over Streamable HTTP" \
  replayed sse "$work/sse-replayed.json" -- --rich
check "... the same results" same "$work/sse-recorded.json" "$work/sse-replayed.json"
# The order a slower run records (server-everything asks for the roots 350 ms after
# notifications/initialized, about when the long-running call starts): the roots request just
# before the call, the client's answer just after it, so that the call's progress follows the
# answer. The replayed call must still get its progress before its response, whichever of the call
# and the answer the client sends first.
roots_before_call() {  # roots_before_call IN OUT
  python3 - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
def find(dir, test):
    return next(i for i, d in enumerate(lines) if d.get("dir") == dir and test(d["msg"]))
roots = lines.pop(find("s2c", lambda m: m.get("method") == "roots/list"))
answer = lines.pop(find("c2s", lambda m: "result" in m and m.get("id") == roots["msg"]["id"]))
call = find("c2s", lambda m: m.get("method") == "tools/call" and
            m["params"]["name"] == "trigger-long-running-operation")
lines[call + 1:call + 1] = [answer]
lines[call:call] = [roots]
seq = 1
for d in lines:
    if d["type"] == "message":
        d["seq"], seq = seq, seq + 1
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for d in lines:
        out.write(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n")
PY
}
check "the HTTP+SSE recording with the roots request before the long call" \
  roots_before_call "$work/sse.jsonl" "$work/sse-roots.jsonl"
check "... replayed over Streamable HTTP" replayed sse-roots "$work/sse-roots-replayed.json" -- --rich
check "... the same results, the call's progress included" \
  same "$work/sse-recorded.json" "$work/sse-roots-replayed.json"

check "--upstream-http without --http is a usage error" \
  bash -c "'$arcs' mcp record --upstream-http '$upstream' -o '$work/x.jsonl' 2>&1; test \$? -eq 2"
check "--http without --upstream-http is a usage error" \
  bash -c "'$arcs' mcp record --upstream true --http 0 -o '$work/x.jsonl' 2>&1; test \$? -eq 2"
exit $failed
