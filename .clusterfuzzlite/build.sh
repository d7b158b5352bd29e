#!/bin/bash -eu
# The OSS-Fuzz build contract for ARCS (ClusterFuzzLite runs it in .clusterfuzzlite/Dockerfile;
# tools/cflite_build_test.sh runs it on this machine): with $CC, $CXX, $CFLAGS, $CXXFLAGS,
# $LIB_FUZZING_ENGINE, $OUT and $WORK as the contract sets them, it builds every libFuzzer target
# the build declares (fuzz/CMakeLists.txt writes them to targets.txt) and puts into $OUT, for each:
# the target, <target>_seed_corpus.zip (the vectors and fuzz/regressions/<target>/, each at most
# 1 MiB, named by their SHA-1), <target>.dict and <target>.options (the dictionary, and the input
# length fuzz/run.sh uses).
root=${ARCS_ROOT:-$PWD}  # the Dockerfile's WORKDIR: the checkout
build=$WORK/arcs

# OSS-Fuzz compiles C++ against libc++ for MemorySanitizer's sake; the C++ libraries ARCS links
# from the distribution (yaml-cpp, re2) are built against libstdc++, and AddressSanitizer and
# UndefinedBehaviorSanitizer need no libc++.
CXXFLAGS=${CXXFLAGS//-stdlib=libc++/}

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$CC" \
  -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DCMAKE_CXX_FLAGS_RELEASE="" -DARCS_FUZZ=ON -DARCS_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DARCS_BENCHMARKS=OFF >/dev/null
read -r -a targets <<<"$(cut -d' ' -f1 "$build/fuzz/targets.txt" | tr '\n' ' ')"
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

for target in "${targets[@]}"; do
  cp "$build/fuzz/$target" "$OUT/"
  dict=$(awk -v t="$target" '$1 == t {print $2}' "$build/fuzz/targets.txt")
  cp "$root/$dict" "$OUT/$target.dict"
  printf '[libfuzzer]\ndict = %s.dict\nmax_len = 65536\n' "$target" >"$OUT/$target.options"
  python3 - "$root" "$target" "$OUT/${target}_seed_corpus.zip" <<'PYTHON'
import hashlib, os, sys, zipfile
root, target, out = sys.argv[1:]
names = set()
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for top in ("vectors", os.path.join("fuzz", "regressions", target)):
        for folder, _, files in sorted(os.walk(os.path.join(root, top))):
            for f in sorted(files):
                path = os.path.join(folder, f)
                if f.endswith((".py", ".mjs")) or os.path.getsize(path) > (1 << 20):
                    continue
                data = open(path, "rb").read()
                name = hashlib.sha1(data).hexdigest()
                if name not in names:
                    names.add(name)
                    z.writestr(name, data)
PYTHON
done
