#!/usr/bin/env bash
# `make bench`: the MCP record/replay format's speed (issue #12 part 7), each target a ratio
# against a baseline measured in the same run: loading a 100 MB recording against RapidJSON's
# SAX reader with a null handler over the same bytes (>= 0.5), the record proxy's added latency
# per round trip against a direct connection to the same server (p50 and p99 < 1 ms, NFR-001),
# by-request lookup time from 1,000 to 1,000,000 recorded requests (largest / smallest <= 3),
# fuzzy matching over 40,000 requests of one tool in a 100 MB recording (p99 < 1 ms a request).
# Builds Release into build-bench/ (the benchmark, and `arcs`, whose `mcp record` is the proxy
# measured) and runs arcs_mcp_record_replay_benchmark (see its header for what is timed); prints
# the summary (also in build-bench/mcp-record-replay-bench-summary.txt). Exit 1 when a target is
# missed, 2 when a step fails.
#
# Environment: ARCS_BENCH_MCP_RECORD_REPLAY_SIZE=100M  the recording loaded
#              ARCS_BENCH_MCP_RECORD_REPLAY_MESSAGES=20000  round trips each way, direct and proxy
#              ARCS_BENCH_RUNS=5                       runs of the load and lookup timings
#              ARCS_BENCH_JOBS=1                       build jobs
#              ARCS_BENCH_BUILD=build-bench            build directory
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${ARCS_BENCH_BUILD:-build-bench}
mkdir -p "$build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCS_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j "${ARCS_BENCH_JOBS:-1}" --target arcs_mcp_record_replay_benchmark arcs \
  >"$build/mcp-record-replay-build.log" 2>&1 ||
  { tail -n 20 "$build/mcp-record-replay-build.log" >&2; exit 2; }
# The proxy's recording goes to the build directory: on the disk, fsync'd, as a user's would.
"$build/arcs_mcp_record_replay_benchmark" --bytes "${ARCS_BENCH_MCP_RECORD_REPLAY_SIZE:-100M}" \
  --runs "${ARCS_BENCH_RUNS:-5}" --messages "${ARCS_BENCH_MCP_RECORD_REPLAY_MESSAGES:-20000}" \
  --arcs "$build/arcs" --record-dir "$build" |
  tee "$build/mcp-record-replay-bench-summary.txt"
