#!/usr/bin/env bash
# `make bench`, second part: how many cases per second `arcs run` scores against the reference,
# per worker (the target is 5,000), and what bounds it.
#
# Builds Release into build-bench/ and runs arcs_runner_benchmark (runner/benchmark/) twice: over
# the whole suite repeated 10 times, and without the inputs over 64 KiB (three vectors that carry
# 95% of the suite's bytes). Each run reports, as medians of ARCS_BENCH_REPETITIONS runs:
#   InProcess       runner + reference work with no process in between (the ceiling)
#   ReferenceOnly   the reference's own share
#   ArcsRun/jobs:N/pin:P  arcs run's engine against `arcs serve`, N workers (wall time), with
#                   workers held to one CPU each (pin:1, the default, which the target applies to)
#                   or not (pin:0)
# Prints a summary (also in build-bench/bench-runner-summary.txt); exit 1 when a figure is below
# the target.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ARCS_BENCH_BUILD:-build-bench}
repetitions=${ARCS_BENCH_REPETITIONS:-5}

echo "== build ($build, Release)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCS_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target arcs arcs_runner_benchmark \
  >"$build/build-runner.log" 2>&1 || {
  grep -E "error" "$build/build-runner.log" | head -n 20 >&2
  exit 2
}

for variant in all small; do
  extra=()
  if [ "$variant" = small ]; then extra=(--max-input-bytes=65536); fi
  echo "== arcs_runner_benchmark ($variant inputs)"
  "$build/arcs_runner_benchmark" --repeat=10 "${extra[@]}" \
    --benchmark_repetitions="$repetitions" --benchmark_report_aggregates_only=true \
    --benchmark_out="$build/bench-runner-$variant.json" --benchmark_out_format=json \
    --benchmark_color=false
done

summary=$(
  cat <<'PYTHON'
import json, sys

build = sys.argv[1]
print("\n==================== runner benchmark summary ====================")
print("cases per second (medians); per worker = total / workers; target >= 5000 per worker")
ok = True
for variant, label in (("all", "the whole suite"), ("small", "inputs <= 64 KiB only")):
    results = json.load(open("%s/bench-runner-%s.json" % (build, variant)))["benchmarks"]
    med = {r["run_name"]: r for r in results if r.get("aggregate_name") == "median"}
    print("  %s:" % label)
    for name, r in med.items():
        rate = r.get("items_per_second", 0)
        line = "    %-28s %9.0f cases/s" % (name, rate)
        if "per_worker" in r:
            line += "   %7.0f per worker" % r["per_worker"]
            if "pin:1" in name:  # the default; pin:0 is shown for the comparison
                ok = ok and r["per_worker"] >= 5000
        print(line)
print("  requirement >= 5000 cases/s per worker: %s" % ("met" if ok else "NOT MET"))
print("==================================================================")
sys.exit(0 if ok else 1)
PYTHON
)
python3 -c "$summary" "$build" | tee "$build/bench-runner-summary.txt"
