#!/usr/bin/env bash
# `make bench`: SessionData's validate and render against RapidJSON's SAX reader with a null
# handler over the same 100 MB session, same run (issue #11 part 5). Builds Release into
# build-bench/ and runs arcs_session_data_benchmark (see its header for what is timed); prints
# the summary (also in build-bench/session-data-bench-summary.txt). Exit 1 when a target is
# missed, 2 when a step fails.
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${ARCS_BENCH_BUILD:-build-bench}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCS_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j "${ARCS_BENCH_JOBS:-1}" --target arcs_session_data_benchmark \
  >"$build/session-data-build.log" 2>&1 || { tail -n 20 "$build/session-data-build.log" >&2; exit 2; }
"$build/arcs_session_data_benchmark" --bytes "${ARCS_BENCH_SESSION_DATA_SIZE:-100M}" \
  --runs "${ARCS_BENCH_RUNS:-5}" | tee "$build/session-data-bench-summary.txt"
