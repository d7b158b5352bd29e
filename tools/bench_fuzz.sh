#!/usr/bin/env bash
# `make bench`, third part: how many mutants a second `arcs fuzz` tries against the reference
# behind the protocol (`arcs serve`), for small inputs (seeds up to 64 KiB): each format and all of
# them with one worker (the target, 2,000 per worker, applies to these), and all of them with two.
# Every run's summary splits the workers' time into mutating, the reference's answers (both in
# process) and asking the implementation; the first two alone bound the in-process ceiling, and
# the summary shows each run's rate as a share of it. The reference fuzzed against itself must
# find nothing: a finding fails the benchmark as a bug.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ARCS_BENCH_BUILD:-build-bench}
runs=${ARCS_BENCH_FUZZ_RUNS:-20000}

echo "== build ($build, Release)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DARCS_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target arcs >"$build/build-fuzz.log" 2>&1 || {
  grep -E "error" "$build/build-fuzz.log" | head -n 20 >&2
  exit 2
}

formats=$("$build/arcs" formats --json | python3 -c \
  'import json, sys; print(" ".join(f["name"] for f in json.load(sys.stdin)["formats"]))')
fuzz() {  # fuzz NAME JOBS [--format F]
  local name=$1 jobs=$2
  shift 2
  echo "== arcs fuzz: $name, -j $jobs, $runs runs"
  "$build/arcs" fuzz --impl "$build/arcs serve" "$@" --runs "$runs" --seed 1 -j "$jobs" \
    --max-input-bytes 65536 --summary "$build/bench-fuzz-$name-j$jobs.json" --quiet
}
for format in $formats; do fuzz "$format" 1 --format "$format"; done
fuzz all 1
fuzz all 2

summary=$(
  cat <<'PYTHON'
import json, sys

build, formats = sys.argv[1], sys.argv[2].split()
print("\n===================== fuzz benchmark summary =====================")
print("mutants per second against `arcs serve`, seeds <= 64 KiB; target >= 2000 per worker (-j 1)")
print("ceiling: execs / (mutating + reference seconds) per worker, the work done in process")
ok = True
rates = {}
for name, jobs in [(f, 1) for f in formats] + [("all", 1), ("all", 2)]:
    s = json.load(open("%s/bench-fuzz-%s-j%d.json" % (build, name, jobs)))
    rate = s["execs_per_second"]
    in_process = s["seconds_mutating"] + s["seconds_in_reference"]
    ceiling = s["execs"] / in_process * jobs if in_process > 0 else 0
    busy = in_process + s["seconds_in_implementation"]
    asking = s["seconds_in_implementation"] / busy if busy > 0 else 0
    rates[(name, jobs)] = rate
    print("  %-18s -j %d %8.0f/s %8.0f per worker   %5.1f%% of the ceiling (%.0f/s)   "
          "%2.0f%% of the time asking   %d findings"
          % (name, jobs, rate, rate / jobs, 100 * rate / ceiling if ceiling else 0, ceiling,
             100 * asking, len(s["findings"])))
    if s["findings"]:
        ok = False
        print("    the reference disagrees with itself:", [f["signature"] for f in s["findings"]])
    if jobs == 1 and rate < 2000:
        ok = False
print("  two workers / one: %.2f" % (rates[("all", 2)] / rates[("all", 1)]))
print("  requirement >= 2000 execs/s per worker, no finding: %s" % ("met" if ok else "NOT MET"))
print("==================================================================")
sys.exit(0 if ok else 1)
PYTHON
)
python3 -c "$summary" "$build" "$formats" | tee "$build/bench-fuzz-summary.txt"
