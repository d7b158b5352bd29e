#!/usr/bin/env bash
# The real MCP round trip (issue #12): the official TypeScript SDK's client (tools/node) talks to
# the reference server-everything through `arcs mcp record`, then to `arcs mcp replay` of that
# recording with no server running: in the recorded order (sequential), and with its calls in
# reverse order (by-request). The client's results must be identical every time, the proxy must
# change nothing (a direct session gives the same results), and the recording must be valid.
# Then the rich session (issue #26): a client with roots and sampling, to which the server talks
# on its own (roots/list and a log line after the handshake, list_changed, progress during a call,
# a sampling request during another): replayed in order and reversed, with no server running, it
# must get the same results, what the server said of its own accord included (errata MRR-E39),
# over stdio and over Streamable HTTP (`arcs mcp replay --http`, the SDK's
# StreamableHTTPClientTransport); and
# a recording without the sampling call, replayed with passthrough to a live server, must answer
# that call as the live server does (errata MRR-E42).
# usage: roundtrip_test.sh ARCS REPO
set -uo pipefail
arcs=$1
repo=$2
client=$repo/reference/mcp_record_replay/testing/mcp_client.mjs
server="node $repo/tools/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib.sh"

run_client() {  # run_client SERVER_COMMAND OUT [--shuffle]
  node "$client" --server "$1" --out "$2" "${@:3}"
}

# http_client OUT CLIENT_ARGS -- REPLAY_ARGS: the client over Streamable HTTP against `arcs mcp
# replay --http` on a free port, which SIGTERM then ends (exit 0).
http_client() {
  local out=$1 args=() url= pid status
  shift
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  # A log of its own: the background job truncates a reused one only once it runs, after which
  # listening_url could read the last replay's line, then nothing.
  local log
  log=$(mktemp -p "$work" http-XXXXXX.err)
  "$arcs" mcp replay "$@" --http 127.0.0.1:0 2>"$log" &
  pid=$!
  url=$(listening_url "$log") && node "$client" --url "${url}mcp" --out "$out" "${args[@]}"
  status=$?
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" || status=1
  return $status
}

check "a direct session" run_client "$server" "$work/direct.json"
check "the same session through arcs mcp record" \
  run_client "$arcs mcp record --upstream '$server' -o '$work/rec.jsonl'" "$work/recorded.json"
check "the proxy changed nothing the client saw" same "$work/direct.json" "$work/recorded.json"
check "the recording is valid, with no finding" valid "$work/rec.jsonl"
sha256sum "$work/rec.jsonl" >"$work/rec.sha256"
check "it holds the session's requests, notifications and responses" \
  bash -c "grep -c '\"dir\":\"c2s\"' '$work/rec.jsonl' | grep -qv '^0$' &&
           grep -q 'notifications/initialized' '$work/rec.jsonl' &&
           grep -q 'tools/call' '$work/rec.jsonl' && grep -q 'resources/read' '$work/rec.jsonl' &&
           grep -q 'prompts/get' '$work/rec.jsonl' && grep -q '\"type\":\"footer\"' '$work/rec.jsonl'"
check "replayed in order (sequential), no server running" \
  run_client "$arcs mcp replay -r '$work/rec.jsonl' --match-mode sequential" "$work/sequential.json"
check "sequential replay: the same results" same "$work/recorded.json" "$work/sequential.json"
check "replayed with the calls reversed (by-request)" \
  run_client "$arcs mcp replay -r '$work/rec.jsonl' --match-mode by-request" "$work/by-request.json" \
  --shuffle
check "by-request replay: the same results" same "$work/recorded.json" "$work/by-request.json"
check "reversed calls under sequential are answered wrongly (EC-REC-004)" \
  bash -c "! node '$client' --server \"$arcs mcp replay -r '$work/rec.jsonl' --on-unmatched warn\" \
             --shuffle --out '$work/wrong.json' || ! cmp -s '$work/recorded.json' '$work/wrong.json'"
check "replaying left the recording's bytes as they were" sha256sum --quiet -c "$work/rec.sha256"

check "a rich direct session" run_client "$server" "$work/rich-direct.json" --rich
check "the rich session through arcs mcp record" \
  run_client "$arcs mcp record --upstream '$server' -o '$work/rich.jsonl'" "$work/rich-recorded.json" \
  --rich
check "the proxy changed nothing the rich client saw" \
  same "$work/rich-direct.json" "$work/rich-recorded.json"
check "the rich recording holds what the server said and asked of its own accord" \
  bash -c "grep -q '\"method\":\"roots/list\"' '$work/rich.jsonl' &&
           grep -q '\"method\":\"sampling/createMessage\"' '$work/rich.jsonl' &&
           grep -q '\"method\":\"notifications/progress\"' '$work/rich.jsonl' &&
           grep -q '\"method\":\"notifications/message\"' '$work/rich.jsonl'"
check "the rich session replayed in order (sequential)" \
  run_client "$arcs mcp replay -r '$work/rich.jsonl'" "$work/rich-sequential.json" --rich
check "sequential rich replay: the same results, server messages included" \
  same "$work/rich-recorded.json" "$work/rich-sequential.json"
check "the rich session replayed reversed (by-request)" \
  run_client "$arcs mcp replay -r '$work/rich.jsonl' --match-mode by-request" \
  "$work/rich-by-request.json" --rich --shuffle
check "by-request rich replay: the same results, server messages included" \
  same "$work/rich-recorded.json" "$work/rich-by-request.json"
check "the rich session replayed over Streamable HTTP, in order (sequential)" \
  http_client "$work/rich-http-sequential.json" --rich -- -r "$work/rich.jsonl"
check "HTTP sequential rich replay: the same results, server messages included" \
  same "$work/rich-recorded.json" "$work/rich-http-sequential.json"
check "the rich session replayed over Streamable HTTP, reversed (by-request)" \
  http_client "$work/rich-http-by-request.json" --rich --shuffle -- -r "$work/rich.jsonl" \
  --match-mode by-request
check "HTTP by-request rich replay: the same results, server messages included" \
  same "$work/rich-recorded.json" "$work/rich-http-by-request.json"
check "a rich recording without the sampling call" \
  run_client "$arcs mcp record --upstream '$server' -o '$work/part.jsonl'" "$work/part.json" \
  --rich --skip sampling
check "the rich session with passthrough for the call the recording lacks" \
  run_client "$arcs mcp replay -r '$work/part.jsonl' --match-mode by-request \
              --on-unmatched passthrough --upstream '$server'" "$work/rich-passthrough.json" --rich
check "passthrough answered as the live server (its sampling request reached the client)" \
  same "$work/rich-direct.json" "$work/rich-passthrough.json"
check "the same passthrough over Streamable HTTP" \
  http_client "$work/rich-http-passthrough.json" --rich -- -r "$work/part.jsonl" \
  --match-mode by-request --on-unmatched passthrough --upstream "$server"
check "HTTP passthrough answered as the live server" \
  same "$work/rich-direct.json" "$work/rich-http-passthrough.json"
exit $failed
