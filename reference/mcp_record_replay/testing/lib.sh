# What the MCP record/replay test scripts share; sourced once `work` names the script's temporary
# folder and `arcs` the arcs binary. `failed` becomes 1 when a check fails: the script's exit
# status.
failed=0

# same A B: the two files hold the same bytes; else how they differ (diff -u, its first 18 lines:
# check shows 20), so that a failure says what differed, not only where.
same() {
  cmp -s "$1" "$2" && return 0
  diff -u "$1" "$2" | head -n 18
  return 1
}

# check NAME COMMAND...: runs COMMAND, its output kept for the failure's report.
check() {
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

# valid FILE: `$arcs validate` finds nothing at all in FILE, not even a warning; what it found is
# printed, for the failure's report.
valid() {
  local out status
  out=$("$arcs" validate "$1")
  status=$?
  printf '%s\n' "$out"
  ((status == 0)) && test -z "$out"
}

# wait_until SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds or the time is up.
wait_until() {
  local end=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < end)) || return 1
    sleep 0.1
  done
}

# A TCP port of 127.0.0.1's that was free a moment ago.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# everything_http PORT LOG [MODE]: server-everything (tools/node) in its Streamable HTTP mode (or
# MODE: sse, the legacy HTTP+SSE transport) on 127.0.0.1:PORT in the background (its pid in
# everything_pid), once it listens (30 s at most). It listens on every interface by itself: a
# preload makes it listen on 127.0.0.1 only.
everything_http() {
  cat >"$work/loopback.cjs" <<'JS'
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') args.splice(1, 0, '127.0.0.1');
  return listen.apply(this, args);
};
JS
  PORT=$1 node -r "$work/loopback.cjs" \
    "$repo/tools/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js" \
    "${3:-streamableHttp}" >"$2" 2>&1 &
  everything_pid=$!
  wait_until 30 grep -q -i -e 'listening on port' -e 'running on port' "$2"
}

# listening_url LOG: the URL an `arcs mcp` command printed once listening (30 s at most).
listening_url() {
  wait_until 30 grep -q 'listening on http://' "$1" &&
    sed -n 's/^arcs mcp [a-z]*: listening on //p' "$1" | head -n 1
}
