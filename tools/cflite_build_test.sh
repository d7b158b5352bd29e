#!/usr/bin/env bash
# .clusterfuzzlite/build.sh under the OSS-Fuzz build contract, on this machine (issue #28 item 3):
# the variables set as ClusterFuzzLite sets them for an AddressSanitizer build with libFuzzer
# (clang, -stdlib=libc++ included, which build.sh takes out), then every declared target, its seed
# zip, dictionary and options must be in $OUT, and each target must run its whole seed corpus once
# without a finding. Building every target with ASan takes most of an hour of CPU, so this is
# `make cflite` and not part of `make test`.
# usage: cflite_build_test.sh [WORK_DIR]   (default build-cflite/, kept between runs)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=runner/testing/cli_checks.sh
source "$root/runner/testing/cli_checks.sh"
work=${1:-$root/build-cflite}
mkdir -p "$work" "$tmp/out"

export CC=clang CXX=clang++ SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export CXXFLAGS="$CFLAGS -stdlib=libc++"
export LIB_FUZZING_ENGINE=-fsanitize=fuzzer SRC=$root/.. OUT=$tmp/out WORK=$work
(cd "$root" && bash .clusterfuzzlite/build.sh) >"$tmp/build.log" 2>&1 ||
  { fail "build.sh: $(tail -20 "$tmp/build.log")"; finish cflite; }

targets=$(cut -d' ' -f1 "$work/arcs/fuzz/targets.txt")
[ "$(echo "$targets" | wc -l)" -ge 17 ] || fail "fewer targets than the 17 declared: $targets"
for t in $targets; do
  [ -x "$OUT/$t" ] || { fail "$t: not in \$OUT"; continue; }
  for f in "${t}_seed_corpus.zip" "$t.dict" "$t.options"; do [ -s "$OUT/$f" ] || fail "$t: no $f"; done
  mkdir -p "$tmp/seeds/$t"
  unzip -q "$OUT/${t}_seed_corpus.zip" -d "$tmp/seeds/$t" || fail "$t: the seed zip does not unzip"
  [ "$(ls "$tmp/seeds/$t" | wc -l)" -gt 100 ] || fail "$t: fewer than 100 seeds"
  # -runs=0: each input of the corpus once, then stop.
  (cd "$OUT" && ASAN_OPTIONS=detect_leaks=1 "./$t" -runs=0 -max_len=65536 "$tmp/seeds/$t") \
    >"$tmp/$t.log" 2>&1 || fail "$t: its seed corpus: $(tail -5 "$tmp/$t.log")"
  grep -Eq "^INFO: +[0-9]{3,} files found" "$tmp/$t.log" && grep -q "^Done [0-9]* runs" "$tmp/$t.log" ||
    fail "$t: did not run its seed corpus: $(grep INFO "$tmp/$t.log" | tail -3)"
done
grep -q "^max_len = 65536$" "$OUT/json_fuzzer.options" || fail "the options file"

finish cflite
