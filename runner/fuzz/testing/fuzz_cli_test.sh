#!/usr/bin/env bash
# `arcs fuzz` end to end: the reference behind the protocol agrees with itself (no finding), a
# planted bug (a Spool reader that rejects CRLF line endings) is found within a fixed number of
# runs, minimized, deduplicated and written as a candidate vector whose expectation is left to a
# person, and shown in the HTML and Markdown reports; the same seed finds the same thing, and a
# finding's own command finds it again; small seeds only; a corpus kept between runs; usage errors;
# what a noisy implementation says kept bounded; copies that do not start; a second planted bug (a
# reader that takes NaN for a number) found within 20,000 runs, not filed as open.
# usage: fuzz_cli_test.sh ARCS SOURCE_DIR
set -uo pipefail
arcs=$1
src=$(cd "$2" && pwd)
# shellcheck source=runner/testing/cli_checks.sh
source "$src/runner/testing/cli_checks.sh"
planted="/usr/bin/python3 $src/runner/fuzz/testing/crlf_bug.py $arcs"

# 1. The reference against itself: many mutants, no finding.
expect_status 0 "the reference against itself" "$arcs" fuzz --impl "$arcs serve" --format spool \
  --runs 1500 --seed 7 --summary "$tmp/self.json"
/usr/bin/python3 - "$tmp/self.json" <<'PYTHON' || fail "the summary of a clean run is wrong"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["execs"] == 1500 and s["findings"] == [] and s["corpus"] > s["seeds"], s
PYTHON
# --max-input-bytes leaves the large seeds out, and says how many.
expect_status 0 "small seeds only" "$arcs" fuzz --impl "$arcs serve" --format spool --runs 10 \
  --max-input-bytes 65536 --summary "$tmp/small.json"
/usr/bin/python3 - "$tmp/self.json" "$tmp/small.json" <<'PYTHON' || fail "--max-input-bytes"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert b["too_large"] > a["too_large"] and b["seeds"] + b["too_large"] == a["seeds"] + a["too_large"]
PYTHON

# 2. The planted bug is found, minimized, written as a candidate vector.
expect_status 1 "the planted bug" "$arcs" fuzz --impl "$planted" --format spool \
  --operation validate --runs 3000 --seed 1 --summary "$tmp/bug.json" --out "$tmp/candidates" \
  --report "$tmp/bug.html" --report="$tmp/bug.md"
cp "$tmp/out" "$tmp/bug.out"
grep -q "^finding: validate verdict: invalid / valid" "$tmp/out" || fail "the CRLF bug was not found"
/usr/bin/python3 - "$tmp/bug.json" "$tmp/candidates" <<'PYTHON' || fail "the finding is not as expected"
import base64, glob, json, sys
s = json.load(open(sys.argv[1]))
findings = [f for f in s["findings"] if f["kind"] == "verdict"]
assert findings, s
signatures = [f["signature"] for f in s["findings"]]
assert len(signatures) == len(set(signatures)), "findings are not deduplicated"
for f in findings:
    data = b"".join(base64.b64decode(v) for v in f["inputs_base64"].values())
    assert b"\r\n" in data, data
    assert len(data) <= f["found_bytes"], "not minimized"
    assert f["implementation_outcome"] == "invalid" and f["reference_outcome"] == "valid"
candidates = glob.glob(sys.argv[2] + "/*/candidate.json")
assert len(candidates) == len(s["findings"]), candidates
entry = json.load(open(candidates[0]))
outcome = entry["operations"][next(iter(entry["operations"]))]["expect"]["outcome"]
assert outcome.startswith("TODO"), "the expectation was filled in from an answer"
assert entry["reproduce"].endswith("--seed 1 --runs %d" % (entry["found"]["found_at"] + 1)), entry["reproduce"]
PYTHON
/usr/bin/python3 - "$tmp/bug.json" "$tmp/bug.html" "$tmp/bug.md" <<'PYTHON' || fail "the reports do not show the finding"
import json, re, sys
s = json.load(open(sys.argv[1]))
page, markdown = (open(p, encoding="utf-8").read() for p in sys.argv[2:])
assert "<script" not in page.lower() and page.count("<style>") == 1, "a script, or not one style"
assert '<meta http-equiv="Content-Security-Policy"' in page, "no CSP"
escapes = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
unescaped = re.sub(r"\\(.)", r"\1", markdown)  # Markdown's backslash escapes
assert s["findings"]
for f in s["findings"]:
    signature = "".join(escapes.get(c, c) for c in f["signature"])
    assert "<code>" + signature + "</code>" in page, f["signature"]
    assert ". " + f["signature"] + "\n" in unescaped, f["signature"]
assert "- the ARCS reference says: valid" in markdown and " 0d 0a" in markdown, markdown
PYTHON

# 3. Deterministic with a seed.
expect_status 1 "the planted bug again" "$arcs" fuzz --impl "$planted" --format spool \
  --operation validate --runs 3000 --seed 1 --summary "$tmp/bug2.json"
/usr/bin/python3 - "$tmp/bug.json" "$tmp/bug2.json" <<'PYTHON' || fail "the same seed found something else"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
key = lambda s: [(f["signature"], f["found_at"], f["inputs_base64"]) for f in s["findings"]]
assert key(a) == key(b) and a["corpus"] == b["corpus"], (key(a), key(b))
PYTHON

# The command a finding prints finds it again, in fewer runs and with two jobs.
again=$(sed -n 's/^  again: arcs fuzz //p' "$tmp/bug.out" | head -n 1)
[ -n "$again" ] || fail "no command to find the finding again"
eval "set -- $again"
expect_status 1 "a finding's command" "$arcs" fuzz "$@" -j 2 --summary "$tmp/again.json"
/usr/bin/python3 - "$tmp/bug.json" "$tmp/again.json" <<'PYTHON' || fail "the command found something else"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert b["findings"] and b["execs"] == b["findings"][-1]["found_at"] + 1, b["execs"]
assert b["findings"] == a["findings"][: len(b["findings"])], "not the same findings"
PYTHON

# --known-failures: the same run with its findings listed finds nothing new, and says how many
# disagreements each line matched; '*' stands for any text, '[' is no pattern.
/usr/bin/python3 - "$tmp/bug.json" "$tmp/known.txt" <<'PYTHON' || fail "cannot write the known list"
import json, sys
signatures = [f["signature"] for f in json.load(open(sys.argv[1]))["findings"]]
assert any("[" in s for s in signatures), signatures
with open(sys.argv[2], "w") as out:
    out.write("# known: the CRLF bug\n\n")
    out.write(signatures[0][:12] + "*" + signatures[0][-3:] + "\n")
    out.writelines("  %s  \n" % s for s in signatures[1:])
    out.write("roundtrip crash: * / *\n")
PYTHON
expect_status 0 "known findings left out" "$arcs" fuzz --impl "$planted" --format spool \
  --operation validate --runs 3000 --seed 1 --summary "$tmp/known.json" \
  --known-failures "$tmp/known.txt"
! grep -q "^finding:" "$tmp/out" || fail "a listed finding was reported"
grep -q "^known failures: [1-9][0-9]* disagreements matched [1-9][0-9]* of [0-9]* listed signatures" \
  "$tmp/out" || fail "the known failures are not counted"
grep -qF "  not met in this run: roundtrip crash: * / *" "$tmp/out" || fail "an unmet line is not named"
/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["findings"] == [] and s["known"] > 0, s' \
  "$tmp/known.json" || fail "the summary of a run with known failures"
expect_status 2 "a known list that cannot be read" "$arcs" fuzz --impl "$planted" --runs 1 \
  --known-failures "$tmp/no-such-list.txt"
grep -q "known-failures .*no-such-list.txt" "$tmp/out" || fail "the unreadable list is not named"

# On a terminal (script(1) gives it one), a progress line; through a pipe, none.
script -qec "'$arcs' fuzz --impl '$arcs serve' --format spool --runs 300 --seed 3" /dev/null \
  >"$tmp/tty.out" 2>&1 </dev/null
grep -aq "arcs fuzz: [0-9]* execs ([0-9]*/s), 0 findings, 0 known, corpus [0-9]*, [0-9]* runs left" \
  "$tmp/tty.out" || fail "no progress line on a terminal: $(head -c 600 "$tmp/tty.out")"
! grep -aq "runs left" "$tmp/bug.out" || fail "a progress line through a pipe"

# 4. --corpus keeps what a run kept for the next one; what is not an entry is counted and left.
expect_status 0 "a corpus written" "$arcs" fuzz --impl "$arcs serve" --format spool --runs 300 \
  --seed 2 --corpus "$tmp/corpus" --summary "$tmp/c1.json"
echo '{"origin": "no-such-case/validate", "inputs": {}}' >"$tmp/corpus/0-stray.json"
expect_status 0 "a corpus read" "$arcs" fuzz --impl "$arcs serve" --format spool --runs 300 \
  --seed 2 --corpus "$tmp/corpus" --summary "$tmp/c2.json"
/usr/bin/python3 - "$tmp/c1.json" "$tmp/c2.json" <<'PYTHON' || fail "the corpus was not kept"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
kept = a["corpus"] - a["seeds"]
assert kept > 0 and a["loaded"] == 0, a
assert b["loaded"] == kept and b["unreadable"] == 1 and b["seeds"] == a["seeds"] + kept, (a, b)
PYTHON

# 5. Usage errors, and an implementation that does not start.
expect_status 2 "no --impl" "$arcs" fuzz --runs 1
grep -q "^usage: arcs fuzz" "$tmp/out" || fail "no usage line"
expect_status 2 "unknown format" "$arcs" fuzz --impl x --format nope --runs 1
expect_status 2 "a report of no known kind" "$arcs" fuzz --impl x --runs 1 --report "$tmp/x.txt"
grep -q "^arcs fuzz: --report wants a file ending in .html" "$tmp/out" || fail "--report x.txt"
[ ! -e "$tmp/x.txt" ] || fail "--report x.txt wrote a file"
expect_status 2 "cannot start" "$arcs" fuzz --impl /no/such/program --runs 1
grep -q "did not start" "$tmp/out" || fail "the start failure is not explained"
expect_status 0 "help" "$arcs" fuzz --help

# 6. What an implementation says is kept bounded: 100 random 300-byte rule ids an answer.
expect_status 1 "noisy rules" "$arcs" fuzz --format spool --operation validate --runs 1000 \
  --impl "/usr/bin/python3 $src/runner/fuzz/testing/noisy_rules.py $arcs" --summary "$tmp/noisy.json"
/usr/bin/python3 - "$tmp/noisy.json" <<'PYTHON' || fail "what the implementation said was kept unbounded"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["findings"], s["execs"]
for f in s["findings"]:
    assert len(f["rules"]) == 33 and f["rules"][-1] == "+68 more", f["rules"]
    assert all(len(r.encode()) <= 67 for r in f["rules"]), f["rules"]  # 64 bytes and an ellipsis
PYTHON

# 7. A reader that takes NaN and Infinity for numbers: RFC 8259 §6 settles it, so the reference's
# error rests on no errata reading and the disagreement is a finding, never open. Measured with
# the vectors of issue #23: in 20,000 runs seeds 1-10 all find it, first at runs 46 to 12,482
# (seed 1: 12,482), none open. New seeds (vectors) change where a seed finds it: measured again on
# 2026-11-29, seeds 2-9 find it within 3,000 runs (seed 4 first at run 46, seed 5 at 2,777), seed
# 10 not. Seed 4's 2,000 runs leave it a wide margin and take a tenth of seed 1's 20,000.
expect_status 1 "the NaN bug" "$arcs" fuzz --impl "/usr/bin/python3 $src/runner/fuzz/testing/nan_bug.py $arcs" \
  --format spool --operation validate --runs 2000 --seed 4 --max-input-bytes 65536 \
  --summary "$tmp/nan.json"
/usr/bin/python3 - "$tmp/nan.json" <<'PYTHON' || fail "the NaN bug was not found as it should be"
import base64, json, re, sys
s = json.load(open(sys.argv[1]))
found = [f for f in s["findings"] if f["kind"] == "verdict" and f["implementation_outcome"] == "valid"]
assert found, s["findings"]
for f in found:
    data = b"".join(base64.b64decode(v) for v in f["inputs_base64"].values())
    assert re.search(rb"NaN|Infinity", data), data
assert not any("NaN" in o["signature"] for o in s["open"]), s["open"]
PYTHON

# 8. With -j 3, copies that do not start leave their share to the one that did.
cat >"$tmp/first-only.sh" <<EOF
mkdir "$tmp/started" 2>/dev/null && exec "$arcs" serve
exit 3
EOF
expect_status 0 "one copy of three" "$arcs" fuzz --impl "sh $tmp/first-only.sh" --format spool \
  --runs 200 -j 3 --summary "$tmp/one.json"
grep -q "^only 1 of 3 copies of the implementation started" "$tmp/out" || fail "not said"
/usr/bin/python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["workers"] == 1 and s["execs"] == 200, s' \
  "$tmp/one.json" || fail "one copy of three: the summary"

finish fuzz
