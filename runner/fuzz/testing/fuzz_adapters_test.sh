#!/usr/bin/env bash
# `arcs fuzz` on real code: the two example adapters (runner/adapters/python and node), whose toy
# Spool libraries check only part of the spec by design (their known-failures lists). Within a
# fixed budget of 1,000 runs the fuzzer finds files each toy accepts and the spec rejects; each
# such finding is checked apart from the fuzzer, by calling the toy library itself and `arcs
# validate` on the minimized file; the same seed finds the same things with one job or two.
# usage: fuzz_adapters_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$(cd "$2" && pwd)
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"

# check_findings NAME SUMMARY TOY_VALIDATE: the summary holds accepted-but-invalid findings, each
# minimized; TOY_VALIDATE FILE prints the toy's own verdict ("True"/"true" when it accepts).
check_findings() {
  local name=$1 summary=$2 toy=$3
  /usr/bin/python3 - "$summary" "$tmp/$name" <<'PYTHON' || fail "$name: the findings are not as expected"
import base64, json, os, sys
s = json.load(open(sys.argv[1]))
assert s["execs"] == 1000, s["execs"]
accepted = [f for f in s["findings"] if f["kind"] == "verdict" and f["operation"] == "validate"
            and f["implementation_outcome"] == "valid" and f["reference_outcome"] == "invalid"]
assert accepted, [f["signature"] for f in s["findings"]]
os.makedirs(sys.argv[2], exist_ok=True)
for i, f in enumerate(accepted):
    data = base64.b64decode(f["inputs_base64"]["file"])
    assert len(data) <= f["found_bytes"], "not minimized"
    assert f["rules"], "a rejection without a rule"
    open(os.path.join(sys.argv[2], "%d.spool" % i), "wb").write(data)
PYTHON
  local file verdict
  for file in "$tmp/$name"/*.spool; do
    [ -e "$file" ] || continue
    verdict=$($toy "$file") || fail "$name: the toy failed on $file"
    case $verdict in True | true) ;; *) fail "$name: the toy itself rejects $file ($verdict)" ;; esac
    expect_status 1 "$name: arcs validate $(basename "$file")" "$arcs" validate "$file"
  done
}

fuzz_twice() {
  local name=$1 impl=$2
  expect_status 1 "$name fuzzed" "$arcs" fuzz --impl "$impl" --format spool --runs 1000 --seed 1 \
    --summary "$tmp/$name.json" --quiet
  expect_status 1 "$name fuzzed with two jobs" "$arcs" fuzz --impl "$impl" --format spool \
    --runs 1000 --seed 1 -j 2 --summary "$tmp/$name-j2.json" --quiet
  /usr/bin/python3 - "$tmp/$name.json" "$tmp/$name-j2.json" <<'PYTHON' ||
import json, sys
def run(path):
    s = json.load(open(path))
    return {k: v for k, v in s.items()
            if k not in ("execs_per_second", "growth", "workers") and not k.startswith("seconds")}
assert run(sys.argv[1]) == run(sys.argv[2])
PYTHON
    fail "$name: two jobs found otherwise than one"
}

python_toy_validate() {
  /usr/bin/python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import toy_spool
print(toy_spool.validate(open(sys.argv[2], "rb").read(), {})[0])' "$src/runner/adapters/python" "$1"
}
fuzz_twice python "/usr/bin/python3 $src/runner/adapters/python/arcs_adapter.py"
check_findings python "$tmp/python.json" python_toy_validate

node_toy_validate() {
  node -e '
const toy = require(process.argv[1]);
console.log(toy.validate(require("fs").readFileSync(process.argv[2]), {}).valid);' \
    "$src/runner/adapters/node/toy_spool.js" "$1"
}
if command -v node >/dev/null; then
  fuzz_twice node "node $src/runner/adapters/node/arcs_adapter.js"
  check_findings node "$tmp/node.json" node_toy_validate
else
  fail "node is not installed (tools/setup.sh installs nodejs)"
fi

finish "fuzz_adapters"
