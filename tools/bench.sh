#!/usr/bin/env bash
# `make bench`: every format's benchmark (reference/<folder>/benchmark/bench.sh, for the formats
# `arcs formats --json` lists), then crafted ids against ordinary ones (tools/bench_hash_flood.sh),
# the runner's (tools/bench_runner.sh), its memory (tools/bench_run_memory.sh) and arcs fuzz's
# (tools/bench_fuzz.sh). Each prints its own summary; the exit status is 1 when any of them missed a target.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${ARCS_BENCH_BUILD:-build-bench}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCS_BENCHMARKS=ON >/dev/null || exit 2
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target arcs >/dev/null || exit 2
status=0
# The machine the figures come from (each benchmark also names its code paths): ratios taken on a
# CPU without AVX-512 or SHA extensions are not comparable with ones taken on a CPU with them.
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
flags=$(grep -m 1 -ow -E 'avx2|avx512bw|avx512vbmi2|sha_ni' /proc/cpuinfo 2>/dev/null | sort -u |
  tr '\n' ' ')
echo "==== machine: ${model:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores; has: ${flags:-none of avx2 avx512bw avx512vbmi2 sha_ni}"
for format in $("$build/arcs" formats --json | python3 -c \
  'import json, sys; print(" ".join(f["folder"] for f in json.load(sys.stdin)["formats"]))'); do
  script=reference/$format/benchmark/bench.sh
  if [ -f "$script" ]; then
    echo "==== $format: $script"
    bash "$script" || status=1
  else
    echo "==== $format: no benchmark ($script)"
  fi
done
echo "==== hash flooding: tools/bench_hash_flood.sh"
bash tools/bench_hash_flood.sh || status=1
echo "==== runner: tools/bench_runner.sh"
bash tools/bench_runner.sh || status=1
echo "==== runner memory: tools/bench_run_memory.sh"
bash tools/bench_run_memory.sh || status=1
echo "==== fuzz: tools/bench_fuzz.sh"
bash tools/bench_fuzz.sh || status=1
exit $status
