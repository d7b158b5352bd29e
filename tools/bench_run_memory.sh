#!/usr/bin/env bash
# `make bench`, memory of `arcs run`: the runner's own peak resident set (tools/peak_rss.py, its
# children's apart) over the whole suite against the reference with the resource probes, -j 2, and
# the same without the probes. Target (issue #25): no more than the largest single input the suite
# sends plus 200 MB. Exit 1 when the target is not met.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ARCS_BENCH_BUILD:-build-bench}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCS_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target arcs >/dev/null
report=$(mktemp "${TMPDIR:-/tmp}/arcs-memory.XXXXXX.json")
trap 'rm -f "$report"' EXIT
peak() {
  /usr/bin/python3 tools/peak_rss.py "$build/arcs" run -j 2 --timeout-cpu 60 --report "$report" "$@" \
    2>&1 >/dev/null | sed -n 's/^peak_rss_bytes //p'
}
with=$(peak)
without=$(peak --no-resource-probes)
# The largest input: MCP record/replay's long-session probe, 120 responses of 1,000,000 bytes
# (conformance/mcp_record_replay/module.cc), just over 120 MB with its framing.
largest=$((121 * 1000 * 1000))
target=$((largest + 200 * 1000 * 1000))
echo "arcs run peak RSS: $((with / 1000000)) MB with the resource probes, $((without / 1000000)) MB without"
echo "target: largest input $((largest / 1000000)) MB + 200 MB = $((target / 1000000)) MB: $([ "$with" -le "$target" ] && echo met || echo NOT MET)"
[ "$with" -le "$target" ]
