#!/usr/bin/env bash
# `arcs mcp show` and `arcs mcp verify` (issue #26, item 6) on the real thing: the official SDK
# client's session with server-everything (tools/node) recorded through `arcs mcp record`, then
# summarized, and verified against the same server, which must answer it unchanged (the session
# reads only static parts: mcp_client.mjs), and so must its --rich session, whose roots/list and
# sampling requests of the server's are answered from the recording. Then recordings edited where
# server-everything's answers are known from its source: a dynamic resource whose text holds the
# time (a change, not a breaking one; none with --ignore-path), tools/list with a tool the server
# does not have and another's description changed (breaking), a sampling request of the server
# answered from the recording (the tool's result quotes the answer), a server that cannot start,
# and a file that is no recording.
# usage: show_verify_test.sh ARCS REPO
set -uo pipefail
arcs=$1
repo=$2
node_modules=$repo/tools/node/node_modules
client=$repo/reference/mcp_record_replay/testing/mcp_client.mjs
server="node $node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib.sh"

# json_is FILE EXPRESSION: the Python expression, over j (FILE's JSON), is true.
json_is() {
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

# exits STATUS COMMAND...: COMMAND exits with STATUS (its output in $work/stdout, $work/stderr).
exits() {
  local want=$1
  shift
  "$@" >"$work/stdout" 2>"$work/stderr"
  local got=$?
  [[ $got == "$want" ]] || { echo "exit status $got, not $want"; cat "$work/stderr"; return 1; }
}

# edit IN OUT PYTHON: OUT is the recording IN with PYTHON run over `lines` (its lines as objects;
# the footer last), then every message's seq renumbered from 1.
edit() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
messages = lambda: [l for l in lines if l['type'] == 'message']
msg_of = lambda method: next(l for l in lines if l['type'] == 'message' and l['msg'].get('method') == method)
answer_of = lambda request: next(l for l in lines if l['type'] == 'message' and l['dir'] != request['dir']
                                 and 'method' not in l['msg'] and l['msg'].get('id') == request['msg']['id'])
def message(dir, msg):
    return {'type': 'message', 'seq': 0, 'ts': '2026-11-28T10:00:00.000Z', 'dir': dir, 'msg': msg}
exec(sys.argv[3])
for seq, l in enumerate(messages(), 1):
    l['seq'] = seq
with open(sys.argv[2], 'w') as out:
    for l in lines:
        out.write(json.dumps(l, ensure_ascii=False, separators=(',', ':')) + '\n')
PY
}

check "a session recorded through arcs mcp record" \
  node "$client" --server "$arcs mcp record --upstream '$server' -o '$work/rec.jsonl'" \
  --out "$work/recorded.json"

# What mcp_client.mjs's session holds: initialize, three lists, echo x3, get-sum x2,
# get-structured-content, get-tiny-image, two resources/read and three prompts/get, the last of
# an unknown prompt (the session's one error, -32602 in the SDK's McpServer).
check "show: exit 0" exits 0 "$arcs" mcp show "$work/rec.jsonl"
cp "$work/stdout" "$work/show.txt"
check "show --json: exit 0" exits 0 "$arcs" mcp show --json "$work/rec.jsonl"
cp "$work/stdout" "$work/show.json"
check "show: 16 client requests and their 16 answers, none unanswered" json_is "$work/show.json" \
  "j['messages']['c2s']['request'] == 16 and j['messages']['s2c']['response'] + j['messages']['s2c']['error'] == 16 and j['unanswered'] == []"
check "show: the tools called, none failed" json_is "$work/show.json" \
  "{t['name']: (t['calls'], t['failed']) for t in j['tools']} == {'echo': (3, 0), 'get-sum': (2, 0), 'get-structured-content': (1, 0), 'get-tiny-image': (1, 0)}"
check "show: the one error, of the unknown prompt" json_is "$work/show.json" \
  "[(e['method'], e['code']) for e in j['errors']] == [('prompts/get', -32602)]"
check "show: methods counted, each request's latency" json_is "$work/show.json" \
  "{(m['method'], m['requests']) for m in j['methods'] if m['dir'] == 'c2s' and m['requests']} == {('initialize', 1), ('tools/list', 1), ('resources/list', 1), ('prompts/list', 1), ('tools/call', 7), ('resources/read', 2), ('prompts/get', 3)} and all(m['latency_ms']['count'] == m['requests'] for m in j['methods'] if m['requests'])"
check "show: the footer, as arcs mcp record wrote it" json_is "$work/show.json" \
  "j['footer']['present'] and j['footer']['total_messages'] == j['messages']['total']"
check "show: the text has them too" \
  bash -c "grep -q '^  get-tiny-image  *1  *0$' '$work/show.txt' && grep -q '^errors: 1$' '$work/show.txt'"

check "verify against the same server: exit 0" \
  exits 0 "$arcs" mcp verify -r "$work/rec.jsonl" --upstream "$server"
check "verify: every request answered as recorded" \
  grep -qx "16 requests sent, 16 responses compared: no change" "$work/stdout"
check "verify --json: exit 0" \
  exits 0 "$arcs" mcp verify -r "$work/rec.jsonl" --upstream "$server" --json
check "verify --json: no change" json_is "$work/stdout" \
  "j['breaking'] is False and j['complete'] is True and j['changes'] == [] and j['requests_sent'] == 16 and j['compared'] == 16"

# A dynamic resource's text holds the time it was read (resources/templates.js): no recorded
# time can match it, and a changed result is no break.
edit "$work/rec.jsonl" "$work/dynamic.jsonl" "
uri = 'demo://resource/dynamic/text/1'
read = message('c2s', {'jsonrpc': '2.0', 'id': 900, 'method': 'resources/read', 'params': {'uri': uri}})
answer = message('s2c', {'jsonrpc': '2.0', 'id': 900, 'result': {'contents': [{'uri': uri,
    'mimeType': 'text/plain', 'text': 'Resource 1: This is a plaintext resource created at 25:61:61'}]}})
lines[-1:-1] = [read, answer]"
check "verify, a result that varies: exit 0" \
  exits 0 "$arcs" mcp verify -r "$work/dynamic.jsonl" --upstream "$server" --json
check "verify: the one change is that result, not breaking" json_is "$work/stdout" \
  "j['breaking'] is False and [(c['kind'], c['method'], c['breaking'], c['fields']) for c in j['changes']] == [('result_changed', 'resources/read', False, ['/contents/0/text'])] and j['changes'][0]['seq'] == [l['seq'] for l in map(json.loads, open('$work/dynamic.jsonl')) if l.get('msg', {}).get('id') == 900][0]"

check "verify, that result's text ignored: no change" \
  exits 0 "$arcs" mcp verify -r "$work/dynamic.jsonl" --upstream "$server" \
  --ignore-path '/contents/*/text' --json
check "verify: --ignore-path leaves the time out" json_is "$work/stdout" "j['changes'] == []"

# tools/list as recorded, with a tool the server never had and echo described otherwise.
edit "$work/rec.jsonl" "$work/tools.jsonl" "
tools = answer_of(msg_of('tools/list'))['msg']['result']['tools']
tools.append({'name': 'retired-tool', 'inputSchema': {'type': 'object'}})
next(t for t in tools if t['name'] == 'echo')['description'] = 'an older description'"
check "verify, a tool gone: exit 1" \
  exits 1 "$arcs" mcp verify -r "$work/tools.jsonl" --upstream "$server" --json
check "verify: tool removed (breaking), tool changed: description (not breaking)" \
  json_is "$work/stdout" \
  "j['breaking'] is True and sorted((c['kind'], c['tool'], c['fields'], c['breaking']) for c in j['changes']) == [('tool_changed', 'echo', ['description'], False), ('tool_removed', 'retired-tool', [], True)]"
check "verify, the text: grouped, one line each" \
  exits 1 "$arcs" mcp verify -r "$work/tools.jsonl" --upstream "$server"
check "verify: the text says so" bash -c "head -2 '$work/stdout' | tail -1 | grep -q 'tool removed: tools/list retired-tool' &&
  grep -qx 'other changes: 1' '$work/stdout'"

# A client that declares sampling, so that server-everything registers trigger-sampling-request
# (tools/trigger-sampling-request.js), whose result quotes the client's answer to the server's
# sampling/createMessage as the SDK parses it (CreateMessageResultSchema), written by
# JSON.stringify(result, null, 2). The recorded answer must reach the server for the result to
# be the same.
sampled='{"role":"assistant","content":{"type":"text","text":"sampled by arcs"},"model":"arcs-test","stopReason":"endTurn"}'
expected=$(node --input-type=module -e "
const { CreateMessageResultSchema } = await import('$node_modules/@modelcontextprotocol/sdk/dist/esm/types.js');
const result = CreateMessageResultSchema.parse(JSON.parse(process.argv[1]));
process.stdout.write(JSON.stringify('LLM sampling result: \n' + JSON.stringify(result, null, 2)));
" "$sampled")
edit "$work/rec.jsonl" "$work/sampling.jsonl" "
init, init_answer, initialized = msg_of('initialize'), answer_of(msg_of('initialize')), msg_of('notifications/initialized')
init['msg']['params']['capabilities'] = {'sampling': {}}
call = message('c2s', {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',
    'params': {'name': 'trigger-sampling-request', 'arguments': {'prompt': 'hi', 'maxTokens': 10}}})
ask = message('s2c', {'jsonrpc': '2.0', 'id': 41, 'method': 'sampling/createMessage', 'params': {}})
answer = message('c2s', {'jsonrpc': '2.0', 'id': 41, 'result': json.loads(r'''$sampled''')})
result = message('s2c', {'jsonrpc': '2.0', 'id': 1,
    'result': {'content': [{'type': 'text', 'text': json.loads(r'''$expected''')}]}})
lines[1:-1] = [init, init_answer, initialized, call, ask, answer, result]"
check "verify, a server request answered from the recording: exit 0" \
  exits 0 "$arcs" mcp verify -r "$work/sampling.jsonl" --upstream "$server" --json
check "verify: the sampling answer reached the server as recorded" json_is "$work/stdout" \
  "j['changes'] == [] and j['server_requests'] == {'answered': 1, 'refused': 0} and j['compared'] == 2"

# The client's --rich session: server-everything asks for its roots 350 ms after
# notifications/initialized, and for a sampling during trigger-sampling-request; both answers
# recorded, both must reach it again for every result to be the same.
check "a --rich session recorded" \
  node "$client" --rich --server "$arcs mcp record --upstream '$server' -o '$work/rich.jsonl'" \
  --out "$work/rich.json"
check "verify, the --rich session: exit 0" \
  exits 0 "$arcs" mcp verify -r "$work/rich.jsonl" --upstream "$server" --json
check "verify: roots/list and sampling answered from the recording, no change" \
  json_is "$work/stdout" "j['changes'] == [] and j['server_requests'] == {'answered': 2, 'refused': 0}"

# The same over Streamable HTTP: server-everything in its HTTP mode, then `arcs mcp replay --http`
# of the recording itself (which must answer it unchanged).
port=$(free_port)
check "server-everything on Streamable HTTP" everything_http "$port" "$work/http-server.log"
check "verify --upstream-http, the --rich session: exit 0" \
  exits 0 "$arcs" mcp verify -r "$work/rich.jsonl" --upstream-http "http://127.0.0.1:$port/mcp" \
  --json
check "verify --upstream-http: roots/list and sampling answered from the recording, no change" \
  json_is "$work/stdout" "j['changes'] == [] and j['server_requests'] == {'answered': 2, 'refused': 0}"
kill "$everything_pid" 2>/dev/null
wait "$everything_pid" 2>/dev/null
"$arcs" mcp replay -r "$work/rich.jsonl" --match-mode by-request --http 127.0.0.1:0 \
  2>"$work/http-replay.log" &
replay_pid=$!
check "verify against arcs mcp replay --http of the recording itself: exit 0, no change" \
  exits 0 "$arcs" mcp verify -r "$work/rich.jsonl" --upstream-http \
  "$(listening_url "$work/http-replay.log")"
kill -TERM "$replay_pid" 2>/dev/null
wait "$replay_pid" 2>/dev/null

check "verify, a server that cannot start: exit 2" \
  exits 2 "$arcs" mcp verify -r "$work/rec.jsonl" --upstream "exec $work/no-such-server"
check "verify: it says the upstream ended before initialize" \
  grep -q "ended before it answered initialize" "$work/stderr"
# SIGTERM ends a verification at once, even while a response is awaited: exit 2, the report so
# far, and the server's process group ended.
stopped_by_sigterm() {
  printf '%s\n' '{"type":"header","version":"1.0","recorded_at":"2026-11-28T10:00:00Z","upstream":"u","thoughtjack_version":"t"}' \
    '{"type":"message","seq":1,"ts":"2026-11-28T10:00:00Z","dir":"c2s","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"}}' \
    '{"type":"message","seq":2,"ts":"2026-11-28T10:00:00Z","dir":"s2c","msg":{"jsonrpc":"2.0","id":0,"result":{}}}' \
    >"$work/silent.jsonl"
  "$arcs" mcp verify -r "$work/silent.jsonl" --upstream 'exec sleep 299.5' --timeout 60000 \
    >"$work/stdout" 2>"$work/stderr" &
  local pid=$! start=$SECONDS
  # Once the server runs, arcs has its handlers (installed before it starts the server).
  for _ in $(seq 100); do pgrep -f "sleep 299.5" >/dev/null && break; sleep 0.1; done
  sleep 0.2
  kill -TERM "$pid"
  wait "$pid"
  local status=$?
  [[ $status == 2 ]] || { echo "exit status $status"; return 1; }
  ((SECONDS - start < 20)) || { echo "it took $((SECONDS - start)) s"; return 1; }
  grep -q "SIGTERM: the verification stopped before its end" "$work/stderr" &&
    grep -q "stopped by a signal, incomplete" "$work/stdout" && ! pgrep -f "sleep 299.5"
}
check "verify, SIGTERM while a response is awaited: exit 2 at once" stopped_by_sigterm

echo '{"not": "a recording"}' >"$work/not.jsonl"
check "show, a file that is no recording: exit 1" exits 1 "$arcs" mcp show "$work/not.jsonl"
check "verify, a file that is no recording: exit 1" \
  exits 1 "$arcs" mcp verify -r "$work/not.jsonl" --upstream "$server"
check "show, no such file: exit 2" exits 2 "$arcs" mcp show "$work/missing.jsonl"
check "verify, no --upstream: exit 2" exits 2 "$arcs" mcp verify -r "$work/rec.jsonl"
exit $failed
