#!/usr/bin/env bash
# `make bench`: Model IO's validate + hash against the spec's own code in Node (issue #10 part 5).
#
#  1. Builds Release into build-bench/ (ARCS_BENCHMARKS=ON).
#  2. Generates a valid model_io.json of ARCS_BENCH_MODEL_IO_SIZE (default 100M: about the largest
#     MI11 allows) under build-bench/data/ (deterministic; reused when made by the same generator).
#  3. Runs, alternately, ARCS_BENCH_RUNS times each (default 5), each run after a warm-up run:
#     - arcs model-io hash FILE: read, parse, validate (MI1-MI11, I-JSON: an invalid file has no
#       hash), ModelIOHash; wall time, and peak RSS by /usr/bin/time (of the warm-up run);
#     - node node_model_io_hash.mjs FILE: readFileSync, JSON.parse, the spec's computeModelIOHash
#       with the npm canonicalize and node:crypto; the time it reports (Node's start excluded).
#     Both must print the same hash.
#  4. Targets: median Node time / median ARCS time >= 3 (issue #29: >= 12); ARCS's peak RSS <= 2 x
#     the file size.
#  5. arcs_model_io_benchmark over the same file: the validator against RapidJSON's SAX reader with
#     a null handler and simdjson On Demand's count of values (issue #29: >= 1.5 x and >= 0.5 x).
# Prints a summary (also in build-bench/model-io-bench-summary.txt); exit 1 when a target is
# missed, 2 when a step fails.
set -euo pipefail
cd "$(dirname "$0")/../../.."

build=${ARCS_BENCH_BUILD:-build-bench}
size=${ARCS_BENCH_MODEL_IO_SIZE:-100M}
runs=${ARCS_BENCH_RUNS:-5}
data=$build/data
file=$data/model_io-$size.json

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCS_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j "${ARCS_BENCH_JOBS:-1}" --target arcs_generate_model_io arcs_model_io_benchmark \
  arcs \
  >"$build/model-io-build.log" 2>&1 || { tail -n 20 "$build/model-io-build.log" >&2; exit 2; }
mkdir -p "$data"
recipe="$(cksum <"$build/arcs_generate_model_io" | cut -d' ' -f1) $size"
if [ ! -f "$file" ] || [ "$(cat "$file.args" 2>/dev/null)" != "$recipe" ]; then
  "$build/arcs_generate_model_io" --out "$file" --bytes "$size" || exit 2
  echo "$recipe" >"$file.args"
fi
bytes=$(stat -c %s "$file")

median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# Each measured run follows a warm-up run of the same program (as hyperfine's --warmup). On this
# kind of VM (Firecracker, free page reporting: page_reporting.page_reporting_order=11 on the
# kernel's command line) memory a process frees goes back to the host, and the next process to
# touch fresh memory takes it back: while ARCS asked for transparent huge pages, ARCS right after
# Node took 172-366 ms, in a row 162-185 ms (Node 1,900-2,300 ms either way). In 4 KiB pages
# (pages_faulted_ahead.h says why) the warm-up changes little (right after Node a median 204 ms,
# the run after it 207), and it is kept for runs that do not depend on what ran before. The warm-up
# run is the one /usr/bin/time watches for the peak RSS; the measured run is timed to the
# microsecond (%e truncates to 10 ms).
now_us() { echo $(($(date +%s%N) / 1000)); }
arcs_ms=() node_ms=() rss_kb=()
for ((run = 1; run <= runs; run++)); do
  /usr/bin/time -f "%M" -o "$build/model-io-time.txt" \
    "$build/arcs" model-io hash "$file" >"$build/model-io-arcs.txt"
  rss_kb+=("$(cat "$build/model-io-time.txt")")
  start=$(now_us)
  "$build/arcs" model-io hash "$file" >"$build/model-io-arcs.txt"
  arcs_ms+=("$(awk -v us="$(($(now_us) - start))" 'BEGIN {print us / 1000}')")
  node reference/model_io/benchmark/node_model_io_hash.mjs "$file" >/dev/null
  node reference/model_io/benchmark/node_model_io_hash.mjs "$file" >"$build/model-io-node.txt"
  read -r node_hash ms <"$build/model-io-node.txt"
  node_ms+=("$ms")
  if [ "$node_hash" != "$(cat "$build/model-io-arcs.txt")" ]; then
    echo "bench: the hashes differ: node $node_hash, arcs $(cat "$build/model-io-arcs.txt")" >&2
    exit 2
  fi
done
arcs_median=$(printf '%s\n' "${arcs_ms[@]}" | median)
node_median=$(printf '%s\n' "${node_ms[@]}" | median)
peak_kb=$(printf '%s\n' "${rss_kb[@]}" | sort -g | tail -n 1)
summary=$(awk -v a="$arcs_median" -v n="$node_median" -v kb="$peak_kb" -v b="$bytes" -v runs="$runs" '
  BEGIN {
    ratio = n / a; memory = kb * 1024 / b
    printf "Model IO validate + hash, %d bytes (%.1f MB), median of %d runs each (each after a warm-up run):\n", b, b / 1e6, runs
    printf "  arcs model-io hash       %8.0f ms  %7.1f MB/s\n", a, b / 1e3 / a
    printf "  Node, the spec'"'"'s code   %8.0f ms  %7.1f MB/s\n", n, b / 1e3 / n
    printf "  target Node / ARCS >= 3: %.2f, %s\n", ratio, (ratio >= 3 ? "PASS" : "FAIL")
    printf "  target (#29) Node / ARCS >= 12: %.2f, %s\n", ratio, (ratio >= 12 ? "PASS" : "FAIL")
    printf "  peak RSS %.1f MiB = %.2f x the file; target <= 2: %s\n", kb / 1024, memory,
           memory <= 2 ? "PASS" : "FAIL"
  }')
summary+=$'\n'$("$build/arcs_model_io_benchmark" --file "$file" --runs "$runs" --no-targets) || exit 2
echo "$summary" | tee "$build/model-io-bench-summary.txt"
! grep -q FAIL <<<"$summary"
