#!/usr/bin/env bash
# `make deb`'s package (issue #28 item 1), installed by dpkg -i into a root of its own (no change to
# the machine) and used from another folder with no source tree in sight: the version, a run of the
# suite, validate (SARIF's links into the specs it holds), the man pages and the dependencies dpkg found.
# usage: package_test.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"
unset ARCS_SOURCE_DIR

(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.out" 2>&1) || fail "cpack: $(tail -5 "$tmp/cpack.out")"
deb=$(ls "$tmp"/pkg/arcs_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { fail "no package made"; finish package; }
version=$(sed -n 's/.*kArcsVersion = "\([0-9.]*\)".*/\1/p' "$src/reference/core/version.h")
dpkg-deb -f "$deb" Version | grep -qx "$version" || fail "the package's version is not $version"
dpkg-deb -f "$deb" Depends | grep -q "libssl3" || fail "no dependency on libssl3: $(dpkg-deb -f "$deb" Depends)"

root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkg --root="$root" --force-not-root --force-depends --log=/dev/null -i "$deb" >"$tmp/dpkg.out" 2>&1 ||
  fail "dpkg -i: $(tail -5 "$tmp/dpkg.out")"
arcs=$root/usr/bin/arcs
cd "$tmp" || exit 1

expect_status 0 "version" "$arcs" --version
grep -qx "arcs $version" "$tmp/out" || fail "arcs --version: $(cat "$tmp/out")"
expect_status 0 "a run from another folder" "$arcs" run --format session-data --timeout-cpu 20 \
  --report "$tmp/sd.json"
grep -q "session-data: full" "$tmp/out" || fail "the installed suite is not the whole suite"
/usr/bin/python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["implementations"][0]["summary"]["total"] > 300' \
  "$tmp/sd.json" || fail "the installed run is short of cases"
# Every format's vectors are there: the reference, in process, holds to each of them.
expect_status 0 "every installed vector" "$arcs" vectors
grep -q "spool" "$tmp/out" && grep -q "mcp-record-replay" "$tmp/out" ||
  fail "arcs vectors did not go through every format: $(tail -3 "$tmp/out")"
valid=$root/usr/share/arcs/vectors/spool/cases/11.1-minimal.spool
expect_status 0 "validate an installed vector" "$arcs" validate "$valid"
if [ -f "$src/../shared/specs/spool.md" ]; then
  # SARIF's helpUri points into the specs the package holds.
  "$arcs" validate --sarif "$root/usr/share/arcs/vectors/spool/cases/11.4.1-empty.spool" >"$tmp/sarif"
  grep -q "\"helpUri\": *\"file://$root/usr/share/arcs/specs/spool.md#" "$tmp/sarif" ||
    fail "helpUri does not point into the installed specs: $(grep -o '"helpUri":[^,]*' "$tmp/sarif" | head -2)"
fi
for page in arcs arcs-run arcs-validate arcs-check-adapter; do
  [ -s "$root/usr/share/man/man1/$page.1" ] || fail "no man page $page(1)"
done
man -l "$root/usr/share/man/man1/arcs-run.1" 2>/dev/null | grep -q -- "--known-failures" ||
  fail "arcs-run(1) does not hold run's options"
[ -s "$root/usr/share/doc/arcs/LICENSE" ] && [ -s "$root/usr/share/doc/arcs/PROTOCOL.md" ] ||
  fail "no LICENSE or PROTOCOL.md in the package's docs"

finish package
