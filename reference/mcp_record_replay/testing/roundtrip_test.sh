#!/usr/bin/env bash
# The real MCP round trip (issue #12): the official TypeScript SDK's client (tools/node) talks to
# the reference server-everything through `arcs mcp record`, then to `arcs mcp replay` of that
# recording with no server running: in the recorded order (sequential), and with its calls in
# reverse order (by-request). The client's results must be identical every time, the proxy must
# change nothing (a direct session gives the same results), and the recording must be valid.
# usage: roundtrip_test.sh ARCS REPO
set -uo pipefail
arcs=$1
repo=$2
client=$repo/reference/mcp_record_replay/testing/mcp_client.mjs
server="node $repo/tools/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@" >"$work/out" 2>&1; then
    echo "ok: $name"
  else
    echo "FAIL: $name"
    sed 's/^/    /' "$work/out" | tail -20
    failed=1
  fi
}

run_client() {  # run_client SERVER_COMMAND OUT [--shuffle]
  node "$client" --server "$1" --out "$2" "${@:3}"
}

check "a direct session" run_client "$server" "$work/direct.json"
check "the same session through arcs mcp record" \
  run_client "$arcs mcp record --upstream '$server' -o '$work/rec.jsonl'" "$work/recorded.json"
check "the proxy changed nothing the client saw" cmp "$work/direct.json" "$work/recorded.json"
check "the recording is valid, with no finding" \
  bash -c "out=\$('$arcs' validate '$work/rec.jsonl') && test -z \"\$out\""
sha256sum "$work/rec.jsonl" >"$work/rec.sha256"
check "it holds the session's requests, notifications and responses" \
  bash -c "grep -c '\"dir\":\"c2s\"' '$work/rec.jsonl' | grep -qv '^0$' &&
           grep -q 'notifications/initialized' '$work/rec.jsonl' &&
           grep -q 'tools/call' '$work/rec.jsonl' && grep -q 'resources/read' '$work/rec.jsonl' &&
           grep -q 'prompts/get' '$work/rec.jsonl' && grep -q '\"type\":\"footer\"' '$work/rec.jsonl'"
check "replayed in order (sequential), no server running" \
  run_client "$arcs mcp replay -r '$work/rec.jsonl' --match-mode sequential" "$work/sequential.json"
check "sequential replay: the same results" cmp "$work/recorded.json" "$work/sequential.json"
check "replayed with the calls reversed (by-request)" \
  run_client "$arcs mcp replay -r '$work/rec.jsonl' --match-mode by-request" "$work/by-request.json" \
  --shuffle
check "by-request replay: the same results" cmp "$work/recorded.json" "$work/by-request.json"
check "reversed calls under sequential are answered wrongly (EC-REC-004)" \
  bash -c "! node '$client' --server \"$arcs mcp replay -r '$work/rec.jsonl' --on-unmatched warn\" \
             --shuffle --out '$work/wrong.json' || ! cmp -s '$work/recorded.json' '$work/wrong.json'"
check "replaying left the recording's bytes as they were" sha256sum --quiet -c "$work/rec.sha256"
exit $failed
