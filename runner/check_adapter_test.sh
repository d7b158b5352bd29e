#!/usr/bin/env bash
# `arcs check-adapter` end to end (issue #27 item 1): the reference passes every check; a fake
# that declares Spool validate only passes its one case and is told about its missing policy; a
# fake that stalls on the probe's long line is told the line's size and both ways out; one that
# never says hello is told what the hello is; usage errors.
# usage: check_adapter_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$2
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"
fake="/usr/bin/python3 $src/runner/supervisor/testing/fake_impl.py"
flood="/usr/bin/python3 $src/runner/testing/flood_fake.py"

# The reference: every format and operation it declares, one case each.
expect_status 0 "the reference" "$arcs" check-adapter --impl "$arcs serve" --no-resource-probes
grep -q "^  ok   handshake: arcs-reference .* declares .*spool (validate, roundtrip)" "$tmp/out" ||
  fail "the reference's handshake line"
for check in "spool validate" "spool roundtrip" "lightbox verify" "model-io hash" "mcp-record-replay replay"; do
  grep -q "^  ok   $check: " "$tmp/out" || fail "no passing check of $check"
done
! grep -q "FAIL\|warn" "$tmp/out" || fail "the reference failed a check"
grep -q "^every check passed; next: arcs run --impl" "$tmp/out" || fail "no next step"

# A fake answering "valid" to all: its smallest valid Spool case passes; it declares no policy.
expect_status 0 "a fake without policies" "$arcs" check-adapter --impl "$fake good" \
  --no-resource-probes
grep -q "^  ok   spool validate: spool-" "$tmp/out" || fail "the fake's one case"
grep -q "^  warn spool declares no choice for the policy .*policy not declared" "$tmp/out" ||
  fail "the missing policy is not named"

# Every Spool probe, once each: a fake that reads them and answers passes each, with its line's
# size and the fake's peak memory, and is warned of one that took more than half the timeout; one
# that stalls is told each line's size and the ways out, once (a probe is not re-run).
# (flood_fake answers "valid" to every case: its roundtrip case fails, so the exit status is 1.)
# The slow probe sleeps past half the timeout whatever the load; the others, under a second here
# (the fake decodes their lines but not their base64), keep 9 s of margin before they would be
# warned of too.
expect_status 1 "probes answered" "$arcs" check-adapter --impl "$flood --min-input 1 --slow-probe deep-nesting:10.5" \
  --timeout 20
for probe in long-line many-entries big-base64 deep-nesting; do
  grep -q "^  ok   spool validate (resource probe): spool-resource-$probe in .*, one line of .* MiB, peak " \
    "$tmp/out" || fail "the probe $probe: $(grep resource "$tmp/out")"
done
grep -q "spool-resource-long-line in .*, one line of 96.0 MiB" "$tmp/out" || fail "the long line's size"
[ "$(grep -c "warn.* it took more than half the 20.0 s timeout" "$tmp/out")" = 1 ] ||
  fail "the slow probe is not the one warned of: $(cat "$tmp/out")"
grep -A1 "spool-resource-deep-nesting" "$tmp/out" | grep -q "more than half" || fail "the warning is not the slow probe's"
expect_status 1 "probes stalled" "$arcs" check-adapter --impl "$flood --stall-probes 1" --timeout 1
[ "$(grep -c "^  FAIL spool validate (resource probe): spool-resource-" "$tmp/out")" = 4 ] ||
  fail "the stalled probes are not 4 failures"
grep -q "this probe's request is one line of 96.0 MiB: decode it as it is read.*--no-resource-probes" \
  "$tmp/out" || fail "the timeout does not say what to do"
grep -q "re-run" "$tmp/out" && fail "a probe was re-run"

# No hello: what a hello is, and where to look.
expect_status 1 "no hello" "$arcs" check-adapter --impl "$fake no-hello" --timeout-handshake 1
grep -q "^  FAIL handshake: timeout: no hello within 1 s of wall-clock time" "$tmp/out" || fail "the handshake failure"
grep -q "^       answer the first line, .*(runner/PROTOCOL.md §1)" "$tmp/out" || fail "no hint for the hello"

expect_status 2 "no --impl" "$arcs" check-adapter
expect_status 2 "a bad timeout" "$arcs" check-adapter --impl true --timeout soon
expect_status 0 "help" "$arcs" check-adapter --help
grep -q "^Exit status: 0 when every check passed" "$tmp/out" || fail "--help gives no exit status"

finish check-adapter
