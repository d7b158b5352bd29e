#!/usr/bin/env bash
# `make fuzz`: builds the libFuzzer targets with clang (ASan + UBSan, coverage over the libraries
# too) in build-fuzz/ and runs each for FUZZ_SECONDS, at most FUZZ_JOBS at a time.
#
# Environment (all optional):
#   FUZZ_SECONDS  seconds per target (default 600)
#   FUZZ_JOBS     targets run at the same time (default 2)
#   FUZZ_TARGETS  space-separated subset of the targets (default: every target the build declares,
#                 listed with its dictionary in $FUZZ_BUILD/fuzz/targets.txt)
#   FUZZ_TIMEOUT  seconds one input may take before libFuzzer calls it a hang (default 10)
#   FUZZ_BUILD    build tree (default build-fuzz)
#
# Work corpora: build-fuzz/corpus/<target>/ (seeded from vectors/ and fuzz/regressions/<target>/,
# kept between runs, never committed). Crashes, hangs and leaks: fuzz/artifacts/<target>/
# (gitignored); see fuzz/README.md for turning one into a regression.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${FUZZ_BUILD:-build-fuzz}
seconds=${FUZZ_SECONDS:-600}
jobs=${FUZZ_JOBS:-2}
timeout=${FUZZ_TIMEOUT:-10}

# Sanitizers and coverage for the whole tree, so the libraries are instrumented like the targets.
# pointer-overflow stays off: RapidJSON 1.1.0's headers compute out-of-range pointers.
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=pointer-overflow"
flags+=" -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"

echo "fuzz: configuring $build (clang++, ARCS_FUZZ=ON)"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DARCS_FUZZ=ON -DARCS_BENCHMARKS=OFF "-DCMAKE_CXX_FLAGS=$flags" >/dev/null
# The targets and their dictionaries, as the build declares them (fuzz/CMakeLists.txt).
declared=$build/fuzz/targets.txt
read -r -a targets <<<"${FUZZ_TARGETS:-$(cut -d' ' -f1 "$declared" | tr '\n' ' ')}"
dict_for() { awk -v t="$1" '$1 == t {print $2}' "$declared"; }
echo "fuzz: building ${targets[*]}"
cmake --build "$build" -j "$jobs" --target "${targets[@]}" >"$build/fuzz-build.log" 2>&1 || {
  tail -50 "$build/fuzz-build.log"
  exit 1
}

mkdir -p "$build/logs" fuzz/artifacts
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus" "fuzz/artifacts/$t"
  # Seeds named by content, as libFuzzer names its own finds, so rerunning adds no duplicates.
  find vectors "fuzz/regressions/$t" -type f -print0 |
    while IFS= read -r -d '' f; do
      cp -f "$f" "$corpus/$(sha1sum "$f" | cut -c1-40)"
    done
done

run_one() {
  local t=$1
  local log="$build/logs/$t.log"
  local rc=0
  echo "fuzz: $t: running ${seconds}s (log: $log)"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "$build/fuzz/$t" -dict="$(dict_for "$t")" -max_len=65536 -max_total_time="$seconds" \
    -timeout="$timeout" -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" \
    "$build/corpus/$t" >"$log" 2>&1 || rc=$?
  echo "$rc" >"$build/logs/$t.rc"
}

# At most $jobs at a time.
running=0
for t in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || true
    running=$((running - 1))
  fi
  run_one "$t" &
  running=$((running + 1))
done
wait || true

# Summary: libFuzzer's final stats and last coverage line per target.
status=0
printf '\n%-24s %14s %9s %7s %7s %7s  %s\n' target execs exec/s cov ft corpus result
for t in "${targets[@]}"; do
  log="$build/logs/$t.log"
  rc=$(cat "$build/logs/$t.rc" 2>/dev/null || echo "?")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  result=ok
  if [ "$rc" != 0 ]; then
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    result="FOUND (exit $rc) ${artifact:-see $log}"
    status=1
  fi
  printf '%-24s %14s %9s %7s %7s %7s  %s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" \
    "${ft:--}" "${corp:--}" "$result"
done
exit $status
