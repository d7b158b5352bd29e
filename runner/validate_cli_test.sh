#!/usr/bin/env bash
# The command line contract of `arcs validate` (the gcc-style lines, severities and exit codes, the
# summary, colour, folders, --json, --sarif, --explain, the pretty-printed JSON hint, --help and
# usage errors, errata readings as warnings and --strict; as a linter: --select, --ignore,
# .arcs.toml, --max-warnings, --quiet, columns, --format DIR by content, helpUri), `arcs formats`
# and `arcs vectors`.
set -u
arcs=$(realpath "$1")
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
check() {  # check NAME EXPECTED ACTUAL
  checks=$((checks + 1))
  if [ "$2" != "$3" ]; then echo "FAIL $1: expected [$2], got [$3]"; failures=$((failures + 1)); fi
}
session='{"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01T00:00:00Z"}'

printf '%s\n' "$session" > "$tmp/ok.spool"
"$arcs" validate "$tmp/ok.spool" > "$tmp/out" 2> "$tmp/err"; check "valid exit" 0 $?
check "valid prints nothing" "" "$(cat "$tmp/out")"
check "valid summary" "1 file checked: 0 invalid, 0 errors, 0 warnings" "$(cat "$tmp/err")"

# Each finding is a line editors and CI problem matchers read (gcc's form): its severity decides
# the exit status, whatever the level of the requirement it cites. A file with warnings only is
# valid.
line_form='^[^:]+:[0-9]+:[0-9]+: (error|warning|note): .* \[[A-Z0-9.-]+(, reading [A-Z0-9-]+)?\]$'
printf '%s\r\n' "$session" > "$tmp/crlf.spool"
"$arcs" validate "$tmp/crlf.spool" > "$tmp/out" 2> "$tmp/err"; check "warning exit" 0 $?
check "warning line" "$tmp/crlf.spool:1:1: warning: 1 line(s) end with CRLF, the first here; writers SHOULD use LF [SP-3.5-1]" \
  "$(cat "$tmp/out")"
check "warning summary" "1 file checked: 0 invalid, 0 errors, 1 warning" "$(cat "$tmp/err")"

printf '%s\n{"id":"x"}\n' "$session" > "$tmp/bad.spool"
"$arcs" validate "$tmp/bad.spool" "$tmp/ok.spool" > "$tmp/out" 2> "$tmp/err"; check "invalid exit" 1 $?
# The column is where the pointer leads in the line: the member "id" at byte 2.
grep -q "^$tmp/bad.spool:2:2: error: \"x\" is not a lowercase hyphenated UUID (at /id) \[SP-5.1-2\]$" \
  "$tmp/out"; check "invalid line format" 0 $?
check "every line in the form" 0 "$(grep -cvE "$line_form" "$tmp/out")"
check "summary" "2 files checked: 1 invalid, 3 errors, 0 warnings" "$(cat "$tmp/err")"
# Every finding of every vector, in every format, is such a line.
"$arcs" validate "$root/vectors" > "$tmp/out" 2> /dev/null; check "vectors exit" 1 $?
check "every vector finding in the form" 0 "$(grep -cvE "$line_form" "$tmp/out")"

"$arcs" validate --json "$tmp/bad.spool" > "$tmp/out.json"; check "json exit" 1 $?
/usr/bin/python3 - "$tmp/out.json" <<'PY'; check "json shape" 0 $?
import json, sys
doc = json.load(open(sys.argv[1]))
f = doc["files"][0]
assert f["valid"] is False and f["errors"] >= 1 and f["format"] == "spool", f
assert all({"rule", "level", "severity", "line", "column", "pointer", "message"} <= set(x) for x in f["findings"])
assert {x["severity"] for x in f["findings"]} == {"error"}, f
assert doc["summary"] == {"checked": 1, "invalid": 1, "errors": 3, "warnings": 0, "ignored": 0,
                          "unchecked": 0}, doc
PY

printf '%s\n' "$session" > "$tmp/sniffed.jsonl"
"$arcs" validate "$tmp/sniffed.jsonl" > /dev/null 2> "$tmp/err"; check "content sniffing" 0 $?
grep -q "SP-3.1-1" "$tmp/err"; check "extension note" 0 $?
printf 'hello\n' > "$tmp/unknown.txt"
"$arcs" validate "$tmp/unknown.txt" > /dev/null 2>&1; check "unknown format" 2 $?
"$arcs" validate --format spool "$tmp/unknown.txt" > /dev/null; check "forced format" 1 $?
"$arcs" validate "$tmp/missing.spool" > /dev/null 2>&1; check "missing file" 2 $?
"$arcs" validate > /dev/null 2>&1; check "no file" 2 $?
"$arcs" validate --limit nope=1 "$tmp/ok.spool" > /dev/null 2>&1; check "bad limit" 2 $?
# Counts are parsed strictly: no spaces, signs, hex or overflow quietly turned into a number.
for bad in "max_line_bytes= -1" "max_line_bytes=-1" "max_line_bytes=0x10" \
  "max_line_bytes=18446744073709551616" "max_line_bytes=1e3" "max_line_bytes="; do
  "$arcs" validate --limit "$bad" "$tmp/ok.spool" > /dev/null 2>&1; check "limit '$bad'" 2 $?
done
"$arcs" validate --limit max_line_bytes=10 "$tmp/ok.spool" > "$tmp/out"; check "limit applies" 1 $?
grep -q "SP-10.1-2" "$tmp/out"; check "limit rule" 0 $?
"$arcs" validate --format spool - < "$tmp/ok.spool" > /dev/null; check "stdin" 0 $?
# Read once, from one descriptor: pipes, standard input and FIFOs are sniffed without losing
# the bytes read to sniff them.
"$arcs" validate - < "$tmp/ok.spool" > /dev/null 2>&1; check "stdin sniffed" 0 $?
{ cat "$tmp/ok.spool"; for i in $(seq 1 3000); do
    printf '{"id":"00000000-0000-0000-0000-%012d","ts":%d,"type":"x_e"}\n' "$i" "$i"; done
} > "$tmp/big.spool"
"$arcs" validate <(cat "$tmp/big.spool") > "$tmp/out" 2>/dev/null; check "pipe over 64 KiB" 0 $?
check "pipe over 64 KiB: no finding" "" "$(cat "$tmp/out")"
printf '%s\n' "$session" '{"id":"x"}' > "$tmp/bad-piped"
"$arcs" validate <(cat "$tmp/bad-piped") 2>/dev/null | grep -q ":2:1: error: .* \[SP-5.1-2\]$"
check "pipe findings keep their lines" 0 $?
mkfifo "$tmp/fifo"
cat "$tmp/ok.spool" > "$tmp/fifo" &
timeout 10 "$arcs" validate "$tmp/fifo" > /dev/null 2>&1; check "fifo" 0 $?
# Untrusted text never reaches the terminal raw (issue #8): a file name with a newline cannot
# forge a finding line, and content quoted in a message shows its controls as escapes.
evil_name="$tmp/$(printf 'x\nforged.spool:1:1: error: forged [SP-0]\033]0;title\007')"
printf '%s\n{"id":"x"}\n' "$session" > "$evil_name.spool"
"$arcs" validate "$evil_name.spool" > "$tmp/out" 2>&1; check "hostile name exit" 1 $?
check "hostile name: no forged line" 0 "$(grep -c '^forged' "$tmp/out")"
check "hostile name: no raw control" 0 "$(tr -d '\n' < "$tmp/out" | LC_ALL=C grep -c '[[:cntrl:]]')"
grep -q 'x\\u000aforged.spool:1:1: error: forged \[SP-0\]\\u001b\]0;title\\u0007.spool:2:2: error: .* \[SP-5.1-2\]$' "$tmp/out"
check "hostile name escaped" 0 $?
printf '%s\n{"id":"00000000-0000-0000-0000-000000000001","ts":1,"type":"tool_call","\\u001b[2J\\u202e":1}\n' \
  "$session" > "$tmp/hostile-member.spool"
"$arcs" validate "$tmp/hostile-member.spool" > "$tmp/out" 2>&1
check "hostile member: no raw control" 0 "$(tr -d '\n' < "$tmp/out" | LC_ALL=C grep -c $'[\x01-\x1f\x7f]')"
grep -q '\\u001b\[2J\\u202e' "$tmp/out"; check "hostile member escaped" 0 $?
# --json stays JSON for a name that is not UTF-8, and keeps the exact bytes in file_base64.
cp "$tmp/bad.spool" "$tmp/$(printf 'bad-\xff\xfe.spool')"
"$arcs" validate --json "$tmp/$(printf 'bad-\xff\xfe.spool')" > "$tmp/out.json"
check "non-UTF-8 name exit" 1 $?
/usr/bin/python3 - "$tmp/out.json" "$tmp" <<'PY'; check "non-UTF-8 name json" 0 $?
import base64, json, os, sys
f = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))["files"][0]
assert f["file"].endswith("bad-\ufffd\ufffd.spool"), f["file"]
assert base64.b64decode(f["file_base64"]) == os.fsencode(sys.argv[2]) + b"/bad-\xff\xfe.spool"
PY
# A full disk is an error, not a silent success.
"$arcs" validate --json "$tmp/bad.spool" > /dev/full 2> "$tmp/err"; check "/dev/full exit" 2 $?
grep -q "cannot write the output: No space left on device" "$tmp/err"; check "/dev/full message" 0 $?
"$arcs" validate "$tmp/bad.spool" > /dev/full 2> /dev/null; check "/dev/full text exit" 2 $?
# A quoted string is an excerpt: a member name of 4 MiB on 50 lines gives kilobytes of output.
# (Written by Python: bash took 6 s over a 4 MiB variable.)
{ printf '%s\n' "$session"; /usr/bin/python3 -c '
import sys
name = "n" * 4194304
for i in range(1, 51):
    sys.stdout.write("{\"id\":\"00000000-0000-0000-0000-%012d\",\"ts\":%d,\"type\":\"tool_call\",\"%s\":1}\n" % (i, i, name))
'; } > "$tmp/long-names.spool"
"$arcs" validate "$tmp/long-names.spool" > "$tmp/out" 2>&1
check "long names: findings" 1 "$(grep -q 'unknown field "nnnn' "$tmp/out" && echo 1)"
check "long names: output under 200 KiB" 1 "$(( $(wc -c < "$tmp/out") < 204800 ))"
# Each file's findings are written as soon as it is done: the first file's line is out while
# the second (a FIFO nobody writes yet) is still being read.
mkfifo "$tmp/slow"
"$arcs" validate "$tmp/bad.spool" "$tmp/slow" > "$tmp/streamed" 2>&1 &
validate_pid=$!
for _ in $(seq 1 100); do [ -s "$tmp/streamed" ] && break; sleep 0.1; done
check "streamed before the next file" 1 "$(grep -c 'bad.spool:2:2: error: .*\[SP-5.1-2\]' "$tmp/streamed")"
cat "$tmp/ok.spool" > "$tmp/slow"
wait "$validate_pid"; check "streamed exit" 1 $?
# Colour as gcc colours it, only on a terminal or when asked; NO_COLOR (set and not empty) turns
# the automatic colour off, --color=always wins over it; a pipe gets none.
esc=$(printf '\033')
"$arcs" validate --color=always "$tmp/bad.spool" "$tmp/crlf.spool" > "$tmp/out" 2> /dev/null
grep -qF "${esc}[1;31merror:${esc}[0m" "$tmp/out"; check "colour: error red" 0 $?
grep -qF "${esc}[1;35mwarning:${esc}[0m" "$tmp/out"; check "colour: warning magenta" 0 $?
grep -qF "${esc}[1m$tmp/bad.spool:2:1:${esc}[0m" "$tmp/out"; check "colour: location bold" 0 $?
NO_COLOR=1 "$arcs" validate --color=always "$tmp/bad.spool" | grep -qF "$esc"
check "colour: --color=always wins over NO_COLOR" 0 $?
"$arcs" validate --color "$tmp/bad.spool" 2> /dev/null | grep -qF "$esc"; check "colour: --color" 0 $?
for how in "" "--color=auto" "--color=never"; do
  "$arcs" validate $how "$tmp/bad.spool" 2> /dev/null | grep -qF "$esc"
  check "no colour in a pipe ($how)" 1 $?
done
tty_run() {  # tty_run ENV... -- the command on a terminal (script), its output in $tmp/tty
  script -qec "env $* '$arcs' validate '$tmp/bad.spool'" /dev/null < /dev/null > "$tmp/tty" 2>&1
}
tty_run TERM=xterm; grep -qF "${esc}[1;31merror:" "$tmp/tty"; check "colour on a terminal" 0 $?
tty_run TERM=xterm NO_COLOR=1; grep -qF "$esc" "$tmp/tty"; check "NO_COLOR on a terminal" 1 $?
tty_run TERM=xterm NO_COLOR=; grep -qF "${esc}[1;31merror:" "$tmp/tty"
check "an empty NO_COLOR does not count" 0 $?
tty_run TERM=dumb; grep -qF "$esc" "$tmp/tty"; check "TERM=dumb on a terminal" 1 $?
"$arcs" validate --color=sometimes "$tmp/bad.spool" > /dev/null 2>&1; check "bad --color" 2 $?

# A folder is searched at any depth for the files a format claims, by name or by content, in
# sorted path order; hidden entries are skipped, links followed, each folder walked once (a link
# loop ends), and a file its name claims but that cannot be read is an error line and exit 2.
tree="$tmp/tree"
mkdir -p "$tree/b/sub" "$tree/.hidden" "$tree/sess" "$tree/empty"
cp "$tmp/bad.spool" "$tree/z.spool"; cp "$tmp/crlf.spool" "$tree/b.spool"
cp "$tmp/bad.spool" "$tree/b/sub/a.spool"; cp "$tmp/bad.spool" "$tree/.hidden/h.spool"
cp "$root/vectors/lightbox/cases/example-chain/"* "$tree/sess/"
cp "$root/vectors/session_data/cases/unknown-top-member/session.json" "$tree/b/s.json"
echo 'not a recording' > "$tree/b/notes.txt"
ln -s .. "$tree/b/up"
timeout 20 "$arcs" validate "$tree" > "$tmp/out" 2> "$tmp/err"; check "folder exit" 1 $?
check "folder: files in sorted order, each once" \
  "$tree/b.spool $tree/b/s.json $tree/b/sub/a.spool $tree/z.spool" \
  "$(cut -d: -f1 "$tmp/out" | uniq | tr '\n' ' ' | sed 's/ $//')"
check "folder summary" "5 files checked: 3 invalid, 7 errors, 1 warning" "$(cat "$tmp/err")"
"$arcs" validate --format=spool "$tree" > "$tmp/out" 2> "$tmp/err"; check "folder --format=spool" 1 $?
check "folder --format=spool: only .spool" "$tree/b.spool $tree/b/sub/a.spool $tree/z.spool" \
  "$(cut -d: -f1 "$tmp/out" | uniq | tr '\n' ' ' | sed 's/ $//')"
check "folder --format=spool summary" "3 files checked: 2 invalid, 6 errors, 1 warning" \
  "$(cat "$tmp/err")"
"$arcs" validate --format lightbox "$tree" > "$tmp/out" 2> "$tmp/err"; check "folder --format lightbox" 0 $?
check "folder --format lightbox summary" "1 file checked: 0 invalid, 0 errors, 0 warnings" \
  "$(cat "$tmp/err")"
"$arcs" validate "$tree/empty" > /dev/null 2> "$tmp/err"; check "folder with nothing to check" 2 $?
grep -q "empty: no file to check below it" "$tmp/err"; check "folder with nothing says so" 0 $?
ln -s nowhere "$tree/b/dangling.spool"
"$arcs" validate "$tree" > "$tmp/out" 2> "$tmp/err"; check "folder with an unreadable file" 2 $?
grep -q "^arcs validate: $tree/b/dangling.spool: No such file or directory$" "$tmp/err"
check "the unreadable file is named" 0 $?
check "the others are still checked" "5 files checked: 3 invalid, 7 errors, 1 warning; 1 could not be checked" \
  "$(tail -n 1 "$tmp/err")"
rm "$tree/b/dangling.spool"
# Nor is any other entry the walk cannot read passed over (a run that checked less than asked
# must not say "0 invalid"): a dangling link and a link loop, whatever their names, and (unless
# root, whom permission bits do not stop) a file that only its content could claim.
ln -s nowhere "$tree/b/dangling-notes"; ln -s loop-b "$tree/b/loop-a"; ln -s loop-a "$tree/b/loop-b"
"$arcs" validate "$tree" > /dev/null 2> "$tmp/err"; check "folder with unreadable entries" 2 $?
check "each unreadable entry is named, in order" \
  "arcs validate: $tree/b/dangling-notes: No such file or directory
arcs validate: $tree/b/loop-a: Too many levels of symbolic links
arcs validate: $tree/b/loop-b: Too many levels of symbolic links" "$(grep '^arcs validate: ' "$tmp/err")"
check "the others are still checked, the unreadable counted" \
  "5 files checked: 3 invalid, 7 errors, 1 warning; 3 could not be checked" "$(tail -n 1 "$tmp/err")"
rm "$tree/b/dangling-notes" "$tree/b/loop-a" "$tree/b/loop-b"
if [ "$(id -u)" != 0 ]; then
  echo '{}' > "$tree/b/private.json" && chmod 000 "$tree/b/private.json"
  "$arcs" validate "$tree" > /dev/null 2> "$tmp/err"; check "folder with a file it cannot read" 2 $?
  grep -q "^arcs validate: $tree/b/private.json: Permission denied$" "$tmp/err"
  check "the file it cannot read is named" 0 $?
  rm -f "$tree/b/private.json"
fi
cp "$tmp/bad.spool" "$tree/$(printf 'evil\n:1:1: error: x [Y]\033[2J.spool')"
"$arcs" validate "$tree" > "$tmp/out" 2> /dev/null
check "folder: a hostile name forges no line" 0 "$(grep -cvE "$line_form" "$tmp/out")"
grep -q 'evil\\u000a:1:1: error: x \[Y\]\\u001b\[2J.spool:2:1: error: ' "$tmp/out"
check "folder: a hostile name is escaped" 0 $?

# --sarif: one SARIF 2.1.0 log (checked here for what GitHub code scanning reads; it validates
# against the OASIS schema).
(cd "$tree" && "$arcs" validate --sarif . "$tmp/ok.spool" - < "$tmp/crlf.spool") > "$tmp/out.sarif"
check "sarif exit" 1 $?
/usr/bin/python3 - "$tmp/out.sarif" "$tmp" <<'PY'; check "sarif shape" 0 $?
import json, sys
log = json.load(open(sys.argv[1], encoding="utf-8"))
assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-schema-2.1.0.json"), log
[run] = log["runs"]
driver = run["tool"]["driver"]
assert driver["name"] == "arcs" and driver["version"], driver
rules = [r["id"] for r in driver["rules"]]
assert len(rules) == len(set(rules)), rules
for r in driver["rules"]:
    assert r["shortDescription"]["text"] and r["properties"]["section"], r
uris = []
for res in run["results"]:
    assert res["level"] in ("error", "warning", "note"), res
    assert rules[res["ruleIndex"]] == res["ruleId"], res
    assert res["message"]["text"], res
    [loc] = res["locations"]
    phys = loc["physicalLocation"]
    uris.append(phys["artifactLocation"].get("uri", "(stdin)"))
    region = phys.get("region", {"startLine": 1})
    assert region["startLine"] >= 1 and region.get("startColumn", 1) >= 1, res
assert "./b.spool" in uris and "./b/sub/a.spool" in uris and "(stdin)" in uris, uris
assert "./evil%0A%3A1%3A1%3A%20error%3A%20x%20%5BY%5D%1B%5B2J.spool" in uris, uris
assert {"SP-3.5-1", "SP-5.1-2", "SD-SCHEMA-4"} <= set(rules), rules
levels = {res["ruleId"]: res["level"] for res in run["results"]}
assert levels["SP-3.5-1"] == "warning" and levels["SP-5.1-2"] == "error", levels
assert run["invocations"] == [{"executionSuccessful": True}], run["invocations"]
PY
"$arcs" validate --sarif "$tmp/missing.spool" "$tmp/ok.spool" > "$tmp/out.sarif" 2> /dev/null
check "sarif with a missing file" 2 $?
/usr/bin/python3 - "$tmp/out.sarif" <<'PY'; check "sarif: the missing file is a notification" 0 $?
import json, sys
[inv] = json.load(open(sys.argv[1]))["runs"][0]["invocations"]
assert inv["executionSuccessful"] is False, inv
[note] = inv["toolExecutionNotifications"]
assert note["level"] == "error" and "No such file" in note["message"]["text"], note
PY
"$arcs" validate --sarif --json "$tmp/ok.spool" > /dev/null 2>&1; check "--sarif with --json" 2 $?

# --explain: what a rule id asks; an unknown one is an error that suggests ids.
"$arcs" validate --explain SP-3.5-1 > "$tmp/out"; check "explain exit" 0 $?
check "explain says the requirement" \
  "SP-3.5-1 (SHOULD): Spool 1.0, spool.md section 3.5|text: Writers SHOULD use Unix-style line endings (\`\\n\`, U+000A).|catalogue: conformance/spool/requirements.json" \
  "$(grep -E '^(SP-|text:|catalogue:)' "$tmp/out" | tr '\n' '|' | sed 's/|$//')"
"$arcs" validate --explain=sd-schema-4 | grep -q "^statement: schema$"; check "explain, any case, =" 0 $?
"$arcs" validate --explain SP-99 > "$tmp/out" 2> "$tmp/err"; check "explain unknown exit" 2 $?
grep -q "^arcs validate: unknown rule id 'SP-99'" "$tmp/err"; check "explain unknown says so" 0 $?
"$arcs" validate --explain SP-3.5-1 "$tmp/ok.spool" > /dev/null 2>&1; check "explain and a FILE" 2 $?

# A pretty-printed JSON file given to a JSON Lines format: one finding that says so, exit 1.
/usr/bin/python3 -m json.tool "$tmp/ok.spool" > "$tmp/pretty.spool"
"$arcs" validate "$tmp/pretty.spool" > "$tmp/out" 2> /dev/null; check "pretty exit" 1 $?
check "pretty: one finding" \
  "$tmp/pretty.spool:1:1: error: the file is one JSON document spread over 8 lines; Spool 1.0 wants one JSON object per line (try: jq -c . $tmp/pretty.spool) [SP-3.6-1]" \
  "$(cat "$tmp/out")"
/usr/bin/python3 -m json.tool "$root/vectors/lightbox/cases/example-chain/events.jsonl" \
  > /dev/null 2>&1; check "(python cannot read JSON Lines as one document)" 1 $?
mkdir -p "$tmp/pretty-session"
head -n 1 "$root/vectors/lightbox/cases/example-chain/events.jsonl" |
  /usr/bin/python3 -m json.tool > "$tmp/pretty-session/events.jsonl"
"$arcs" validate --json "$tmp/pretty-session" > "$tmp/out.json"; check "pretty lightbox exit" 1 $?
/usr/bin/python3 - "$tmp/out.json" <<'PY'; check "pretty lightbox: one finding" 0 $?
import json, sys
[f] = json.load(open(sys.argv[1]))["files"]
[finding] = f["findings"]
assert finding["rule"] == "LB-LAYOUT-1" and finding["severity"] == "error", finding
assert "one JSON document spread over" in finding["message"], finding
PY

# Usage errors: the usage line and where to find more, not the whole help; --help has it all.
for bad in "--bogus $tmp/ok.spool" "--format=nope $tmp/ok.spool" "--json=1 $tmp/ok.spool" \
  "--limit" "--explain" "--format"; do
  "$arcs" validate $bad > /dev/null 2> "$tmp/err"; check "usage error $bad" 2 $?
  grep -q "^usage: arcs validate " "$tmp/err" && grep -q "arcs validate --help" "$tmp/err" &&
    ! grep -q "Exit status" "$tmp/err"
  check "usage error $bad: usage and a hint" 0 $?
done
"$arcs" validate --help > "$tmp/out"; check "help exit" 0 $?
for word in "FILE:LINE:COLUMN: SEVERITY: message" "--sarif" "--explain RULE-ID" "--color" \
  "NO_COLOR" "max_line_bytes=" "Exit status" "--select RULE" "--ignore RULE" "--config FILE" \
  "--no-config" "--max-warnings N" "--quiet" ".arcs.toml" "[per-file-ignores]" "helpUri"; do
  grep -qF -- "$word" "$tmp/out"; check "help names $word" 0 $?
done
"$arcs" validate --format=spool "$tmp/unknown.txt" > /dev/null 2>&1; check "--format=F" 1 $?
"$arcs" validate --limit=max_line_bytes=10 "$tmp/ok.spool" > /dev/null 2>&1; check "--limit=N=V" 1 $?
cp "$tmp/ok.spool" "$tmp/-dash.spool"
"$arcs" validate -- "$tmp/-dash.spool" > /dev/null 2>&1; check "-- ends the options" 0 $?

# A linter users configure (issue #27 item 7). --select and --ignore choose rules by prefix of
# their ids; an ignored finding counts for nothing, and the summary says how many were ignored.
"$arcs" validate --ignore SP-5 "$tmp/bad.spool" > "$tmp/out" 2> "$tmp/err"; check "--ignore exit" 0 $?
check "--ignore prints nothing" "" "$(cat "$tmp/out")"
check "--ignore summary" "1 file checked: 0 invalid, 0 errors, 0 warnings (3 ignored)" "$(cat "$tmp/err")"
"$arcs" validate --select SP-5.1 "$tmp/bad.spool" > "$tmp/out" 2> /dev/null; check "--select exit" 1 $?
check "--select keeps only its rules" "SP-5.1-2" "$(grep -o '\[[A-Z0-9.-]*\]$' "$tmp/out" | tr -d '[]')"
"$arcs" validate --select=SP-5.2 --select SP-5.3 "$tmp/bad.spool" > "$tmp/out" 2> /dev/null
check "--select repeated" "SP-5.2-1 SP-5.3-1" "$(grep -o '\[[A-Z0-9.-]*\]$' "$tmp/out" | tr -d '[]' | tr '\n' ' ' | sed 's/ $//')"
"$arcs" validate --select SP-5 --ignore SP-5.1 --ignore SP-5.3 "$tmp/bad.spool" > "$tmp/out" 2> /dev/null
check "--ignore wins over --select" "SP-5.2-1" "$(grep -o '\[[A-Z0-9.-]*\]$' "$tmp/out" | tr -d '[]')"
"$arcs" validate --ignore SP-99 --select nope "$tmp/bad.spool" > /dev/null 2> "$tmp/err"
check "unknown prefixes: exit as before" 0 $?
grep -q "^arcs validate: warning: --ignore 'SP-99' matches no rule of any format" "$tmp/err"
check "unknown --ignore prefix warned" 0 $?
grep -q "^arcs validate: warning: --select 'nope' matches no rule of any format" "$tmp/err"
check "unknown --select prefix warned" 0 $?
for bad in "--ignore=" "--select" "--max-warnings -1" "--max-warnings x" "--quiet=1" "--no-config=1" \
    "--config" "--config $tmp/x --no-config"; do
  "$arcs" validate $bad "$tmp/ok.spool" > /dev/null 2>&1; check "usage error $bad" 2 $?
done

# .arcs.toml, from each file's folder up: the nearest wins; --config FILE replaces it, --no-config
# reads none; per-file-ignores by glob; a malformed one is an error naming FILE:LINE, exit 2.
cfg="$tmp/cfg"
mkdir -p "$cfg/sub/deeper" "$cfg/legacy/old" "$cfg/new"
printf 'ignore = ["SP-5.2"]\n\n[per-file-ignores]\n"legacy/*" = ["SP-5.1"]\n"c.spool" = ["SP-5.3"]\n' > "$cfg/.arcs.toml"
printf '# the nearest config wins whole\nselect = ["SP-5.1"]\n' > "$cfg/sub/.arcs.toml"
for f in a.spool sub/b.spool sub/deeper/c.spool legacy/old/d.spool new/c.spool; do cp "$tmp/bad.spool" "$cfg/$f"; done
rules_of() {  # rules_of FILE: the rule ids of FILE's lines in $tmp/out, on one line
  grep "^$1:" "$tmp/out" | grep -o '\[[A-Z0-9.-]*\]$' | tr -d '[]' | tr '\n' ' ' | sed 's/ $//'
}
"$arcs" validate "$cfg" > "$tmp/out" 2> "$tmp/err"; check "config exit" 1 $?
check "config: its ignore" "SP-5.3-1 SP-5.1-2" "$(rules_of "$cfg/a.spool")"
check "config: per-file glob with a /" "SP-5.3-1" "$(rules_of "$cfg/legacy/old/d.spool")"
check "config: per-file glob on the name" "SP-5.1-2" "$(rules_of "$cfg/new/c.spool")"
check "config: the nearest wins" "SP-5.1-2" "$(rules_of "$cfg/sub/b.spool")"
check "config: found from a deeper folder" "SP-5.1-2" "$(rules_of "$cfg/sub/deeper/c.spool")"
check "config: summary" "5 files checked: 5 invalid, 6 errors, 0 warnings (9 ignored)" "$(cat "$tmp/err")"
(cd "$cfg/sub" && "$arcs" validate - < "$tmp/bad.spool") > "$tmp/out" 2> /dev/null
check "config: standard input from the working folder" "SP-5.1-2" "$(rules_of -)"
"$arcs" validate --no-config "$cfg/sub/b.spool" > "$tmp/out" 2> /dev/null
check "--no-config" "SP-5.2-1 SP-5.3-1 SP-5.1-2" "$(rules_of "$cfg/sub/b.spool")"
printf 'ignore = ["SP-5"]\n' > "$tmp/all.toml"
"$arcs" validate --config "$tmp/all.toml" "$cfg/sub/b.spool" > "$tmp/out" 2> /dev/null
check "--config replaces the nearest" 0 $?
"$arcs" validate --config "$tmp/all.toml" --select SP-5.1 --ignore SP-9 "$cfg/a.spool" > "$tmp/out" 2> /dev/null
check "--select replaces the config's select, --ignore adds" 0 $?
"$arcs" validate --config "$cfg/sub/.arcs.toml" --select SP-5.2 "$cfg/a.spool" > "$tmp/out" 2> /dev/null
check "--select over a config's select" "SP-5.2-1" "$(rules_of "$cfg/a.spool")"
printf 'ignore = [\n  "SP-5",\n  "SP-99",\n]\n' > "$cfg/new/.arcs.toml"
"$arcs" validate "$cfg/new" > /dev/null 2> "$tmp/err"; check "config with an unknown prefix: exit" 0 $?
check "config with an unknown prefix: warned once, at its line" \
  "arcs validate: $cfg/new/.arcs.toml:3: warning: ignore 'SP-99' matches no rule of any format (arcs rules lists them)" \
  "$(grep "warning:" "$tmp/err")"
mkdir -p "$tmp/broken/more"
cp "$tmp/bad.spool" "$tmp/broken/a.spool"; cp "$tmp/bad.spool" "$tmp/broken/more/b.spool"
printf 'select = ["SP-5"]\nignroe = ["SP-5.1"]\n' > "$tmp/broken/.arcs.toml"
"$arcs" validate "$tmp/broken" > "$tmp/out" 2> "$tmp/err"; check "malformed config exit" 2 $?
check "malformed config: FILE:LINE: what, once" \
  "arcs validate: $tmp/broken/.arcs.toml:2: unknown key 'ignroe' (known: select, ignore, max-warnings, per-file-ignores)
0 files checked: 0 invalid, 0 errors, 0 warnings; 2 could not be checked" "$(cat "$tmp/err")"
printf 'select = ["SP-5"\nignore = 1\n' > "$tmp/broken/.arcs.toml"
"$arcs" validate "$tmp/broken/a.spool" > /dev/null 2> "$tmp/err"; check "TOML syntax error exit" 2 $?
grep -q "^arcs validate: $tmp/broken/.arcs.toml:2: " "$tmp/err"; check "TOML syntax error: FILE:LINE" 0 $?
"$arcs" validate --config "$tmp/broken/.arcs.toml" "$tmp/ok.spool" > /dev/null 2> "$tmp/err"
check "malformed --config exit" 2 $?
grep -q "^arcs validate: $tmp/broken/.arcs.toml:2: " "$tmp/err"; check "malformed --config says where" 0 $?
"$arcs" validate --config "$tmp/none.toml" "$tmp/ok.spool" > /dev/null 2> "$tmp/err"
check "missing --config exit" 2 $?
grep -q "none.toml: No such file" "$tmp/err"; check "missing --config says so" 0 $?
printf '\x00\xff\n[[[' > "$tmp/broken/.arcs.toml"
"$arcs" validate "$tmp/broken/a.spool" > /dev/null 2> "$tmp/err"; check "binary config exit" 2 $?
check "binary config: no raw control" 0 "$(tr -d '\n' < "$tmp/err" | LC_ALL=C grep -c '[[:cntrl:]]')"

# --max-warnings N: more warnings than N is exit 1 (as eslint); from a config file it bounds the
# files that config governs. --quiet prints errors only; the summary still counts every finding.
"$arcs" validate --max-warnings 1 "$tmp/crlf.spool" > /dev/null 2>&1; check "--max-warnings at the bound" 0 $?
"$arcs" validate --max-warnings=0 "$tmp/crlf.spool" > /dev/null 2> "$tmp/err"; check "--max-warnings over" 1 $?
grep -q "^arcs validate: 1 warning, more than --max-warnings 0 allows$" "$tmp/err"
check "--max-warnings says so" 0 $?
mkdir -p "$tmp/warned" && cp "$tmp/crlf.spool" "$tmp/warned/a.spool" && cp "$tmp/crlf.spool" "$tmp/warned/b.spool"
printf 'max-warnings = 1\n' > "$tmp/warned/.arcs.toml"
"$arcs" validate "$tmp/warned" > /dev/null 2> "$tmp/err"; check "config max-warnings over" 1 $?
grep -q "^arcs validate: 2 warnings in the files $tmp/warned/.arcs.toml governs, more than its max-warnings = 1 allows$" \
  "$tmp/err"; check "config max-warnings says so" 0 $?
"$arcs" validate --max-warnings 2 "$tmp/warned" > /dev/null 2>&1; check "--max-warnings replaces the config's" 0 $?
"$arcs" validate --quiet "$tmp/bad.spool" "$tmp/crlf.spool" > "$tmp/out" 2> "$tmp/err"; check "--quiet exit" 1 $?
check "--quiet: errors only" "3 0" "$(grep -c ': error: ' "$tmp/out") $(grep -vc ': error: ' "$tmp/out")"
check "--quiet: the summary counts all" "2 files checked: 1 invalid, 3 errors, 1 warning" "$(cat "$tmp/err")"
"$arcs" validate --quiet --json "$tmp/crlf.spool" | /usr/bin/python3 -c '
import json, sys; f = json.load(sys.stdin)["files"][0]; assert f["findings"] == [] and f["warnings"] == 1, f'
check "--quiet --json" 0 $?

# Columns: where the finding's pointer leads in its line (or document), the same in the text, the
# JSON and SARIF, over every vector of every format.
"$arcs" validate "$root/vectors" > "$tmp/out.txt" 2> /dev/null
"$arcs" validate --json "$root/vectors" > "$tmp/out.json" 2> /dev/null
"$arcs" validate --sarif "$root/vectors" > "$tmp/out.sarif" 2> /dev/null
/usr/bin/python3 - "$tmp/out.txt" "$tmp/out.json" "$tmp/out.sarif" <<'PY'; check "columns agree in every output" 0 $?
import json, re, sys
text = [tuple(map(int, m.groups())) for m in
        (re.match(r"^.*?:(\d+):(\d+): (?:error|warning|note): ", l) for l in open(sys.argv[1], encoding="utf-8"))]
doc = json.load(open(sys.argv[2], encoding="utf-8"))
js = [(x["line"], x["column"]) for f in doc["files"] for x in f["findings"]]
sarif = json.load(open(sys.argv[3], encoding="utf-8"))["runs"][0]["results"]
sa = [(r["locations"][0]["physicalLocation"]["region"]["startLine"],
       r["locations"][0]["physicalLocation"]["region"]["startColumn"]) for r in sarif]
assert len(text) == len(js) == len(sa) > 1000, (len(text), len(js), len(sa))
assert text == js == sa
# Every finding with a pointer into its line stands where the pointer leads: at its member's name.
placed = [x for f in doc["files"] for x in f["findings"]
          if x["pointer"].startswith("/") and x["pointer"].count("/") == 1 and x["column"] > 1]
assert len(placed) > 300, len(placed)
PY
printf '%s\n{"id":"00000000-0000-0000-0000-000000000001",  "ts":"soon","type":"x_e"}\n' "$session" > "$tmp/col.spool"
"$arcs" validate "$tmp/col.spool" 2> /dev/null | grep -q "^$tmp/col.spool:2:48: error: .* (at /ts) \[SP-5.2-1\]$"
check "the column of a member" 0 $?
"$arcs" validate - < "$tmp/col.spool" 2> /dev/null | grep -q "^-:2:48: error: .* (at /ts)"
check "the column on standard input from a file" 0 $?
cat "$tmp/col.spool" | "$arcs" validate --format spool - 2> /dev/null | grep -q "^-:2:1: error: .* (at /ts)"
check "a pipe is read once: its line's column 1" 0 $?
/usr/bin/python3 -m json.tool "$root/vectors/model_io/cases/mode-capitalized/model_io.json" > "$tmp/model_io.json"
"$arcs" validate "$tmp/model_io.json" 2> /dev/null > "$tmp/out"
line=$(grep -n '"mode"' "$tmp/model_io.json" | head -n 1 | cut -d: -f1)
grep -q "^$tmp/model_io.json:$line:5: error: .* (at /mode) \[MI3\]$" "$tmp/out"
check "a document's pointer gets its line and column" 0 $?

# --format F DIR takes F's files by name and by content: a renamed events.jsonl is found; without
# --format, only formats whose files have no name are told by content, as before.
mkdir -p "$tmp/renamed/s1"
cp "$root/vectors/lightbox/cases/example-chain/events.jsonl" "$tmp/renamed/s1/session-1.jsonl"
cp "$root/vectors/lightbox/cases/example-chain/meta.json" "$tmp/renamed/s1/"
cp "$tmp/ok.spool" "$tmp/renamed/s1/other.spool"
"$arcs" validate --format lightbox "$tmp/renamed" > /dev/null 2> "$tmp/err"; check "--format DIR by content" 0 $?
check "--format DIR by content: the renamed file" "1 file checked: 0 invalid, 0 errors, 0 warnings" \
  "$(cat "$tmp/err")"
"$arcs" validate --format lightbox --json "$tmp/renamed" | /usr/bin/python3 -c '
import json, sys; [f] = json.load(sys.stdin)["files"]; assert f["file"].endswith("/s1/session-1.jsonl"), f'
check "--format DIR by content: its name" 0 $?
"$arcs" validate --format mcp-record-replay "$tmp/renamed" > /dev/null 2> "$tmp/err"
check "--format DIR: other formats' files are not taken" 2 $?
grep -q "no file to check below it (none told by their content as mcp-record-replay)" "$tmp/err"
check "--format DIR: says what it looked for" 0 $?
"$arcs" validate "$tmp/renamed" > /dev/null 2> "$tmp/err"
check "without --format: by name only for named formats" "1 file checked: 0 invalid, 0 errors, 0 warnings" \
  "$(cat "$tmp/err")"

# SARIF rules link to their documentation: the spec's Markdown at the rule's heading (when the specs
# are beside the tree; a clone without them has no helpUri to check).
"$arcs" validate --sarif "$tmp/crlf.spool" "$root/vectors/model_io/cases/mode-capitalized" > "$tmp/out.sarif"
if [ -f "$root/../shared/specs/spool.md" ]; then
  /usr/bin/python3 - "$tmp/out.sarif" <<'PY'
import json, os, sys, urllib.parse
run = json.load(open(sys.argv[1]))["runs"][0]
uris = {r["id"]: r["helpUri"] for r in run["tool"]["driver"]["rules"]}
assert uris["SP-3.5-1"].endswith("/shared/specs/spool.md#35-line-endings"), uris
assert uris["MI3"].endswith("/shared/specs/model-io.md#mi3-mode-valid"), uris
for uri in uris.values():
    parsed = urllib.parse.urlparse(uri)
    assert parsed.scheme == "file" and os.path.isfile(urllib.parse.unquote(parsed.path)), uri
    anchor = parsed.fragment
    if anchor:  # the heading is in the spec, as GitHub makes anchors
        text = open(urllib.parse.unquote(parsed.path), encoding="utf-8").read()
        assert any(l.startswith("#") for l in text.splitlines()), uri
PY
  check "sarif helpUri" 0 $?
fi

# A format's own verbs (arcs lightbox verify/hash): the chain CPython computed verifies, and every
# hash arcs prints is the one CPython stored.
chain="$root/vectors/lightbox/cases/example-chain"
"$arcs" lightbox verify "$chain" > "$tmp/out"; check "lightbox verify exit" 0 $?
check "lightbox verify says" "intact: 3 events" "$(cat "$tmp/out")"
"$arcs" lightbox verify "$root/vectors/lightbox/cases/content-edited/events.jsonl" > "$tmp/out"
check "lightbox verify broken exit" 1 $?
grep -q "^broken: event 1: its stored hash is not the hash of its content" "$tmp/out"
check "lightbox verify names the event" 0 $?
"$arcs" lightbox hash "$chain" | cut -d' ' -f2 > "$tmp/ours"
/usr/bin/python3 -c 'import json, sys; [print(json.loads(l)["hash"]) for l in open(sys.argv[1])]' \
  "$chain/events.jsonl" > "$tmp/cpython"
check "lightbox hash is CPython's" "$(cat "$tmp/cpython")" "$(cat "$tmp/ours")"
# A companion that is there but cannot be read is an I/O error, never silently left out.
mkdir -p "$tmp/session" && cp "$chain/events.jsonl" "$tmp/session/" && mkdir "$tmp/session/meta.json"
"$arcs" validate "$tmp/session" > /dev/null 2> "$tmp/err"; check "unreadable meta.json exit" 2 $?
grep -q "meta.json: is a directory" "$tmp/err"; check "unreadable meta.json says so" 0 $?
# A meta.json that is a FIFO is refused at once: opening it to read would wait for a writer.
rmdir "$tmp/session/meta.json" && mkfifo "$tmp/session/meta.json"
timeout 60 "$arcs" validate "$tmp/session" > /dev/null 2> "$tmp/err"; check "FIFO meta.json exit" 2 $?
grep -q "^arcs validate: $tmp/session/meta.json: is a FIFO, not a regular file; not read$" \
  "$tmp/err"; check "FIFO meta.json says so" 0 $?
# arcs lightbox verify on a FIFO refuses it too, instead of waiting for a writer.
timeout 60 "$arcs" lightbox verify "$tmp/session/meta.json" > /dev/null 2> "$tmp/err"
check "lightbox verify FIFO exit" 2 $?
grep -q "is a FIFO" "$tmp/err"; check "lightbox verify FIFO says so" 0 $?
"$arcs" lightbox nope > /dev/null 2>&1; check "unknown verb" 2 $?
"$arcs" lightbox verify "$tmp/missing" > /dev/null 2>&1; check "verify missing" 2 $?
"$arcs" lightbox --help | grep -q "^  verify  "; check "lightbox help" 0 $?
"$arcs" lightbox verify --help | grep -q "arcs lightbox verify \[-j N\] SESSION"
check "lightbox verify help" 0 $?
# -j N: the same verdict with N threads (reference/lightbox's test compares them event by event).
lb=$root/vectors/lightbox/cases
for j in "-j 1" "-j 3" "-j2"; do
  # shellcheck disable=SC2086 # two words on purpose
  "$arcs" lightbox verify $j "$lb/chain-valid" > "$tmp/out"; check "verify $j intact exit" 0 $?
  check "verify $j intact" "$("$arcs" lightbox verify "$lb/chain-valid")" "$(cat "$tmp/out")"
done
for j in "-j 0" "-j x" "-j"; do
  # shellcheck disable=SC2086
  "$arcs" lightbox verify $j "$lb/chain-valid" > /dev/null 2> "$tmp/err"; check "verify $j" 2 $?
  grep -q "^arcs lightbox verify: -j takes a thread count" "$tmp/err"; check "verify $j says why" 0 $?
done
# arcs model-io hash: Node's hash of a valid session (the spec's code, tools/node); an invalid one
# has none, and its violations are printed; `arcs validate` knows the file by its name and by its
# content.
session="$root/vectors/model_io/cases/compact/model_io.json"
"$arcs" model-io hash "$session" > "$tmp/ours"; check "model-io hash exit" 0 $?
node "$root/vectors/model_io/generate.mjs" --hash "$session" > "$tmp/node"
check "model-io hash is Node's" "$(cat "$tmp/node")" "$(cat "$tmp/ours")"
"$arcs" model-io hash "$root/vectors/model_io/cases/mode-capitalized/model_io.json" > "$tmp/out"
check "model-io hash of an invalid session" 1 $?
grep -q '^MI3 /mode mode is "Record"' "$tmp/out"; check "model-io hash names the violation" 0 $?
"$arcs" model-io hash > /dev/null 2>&1; check "model-io hash usage" 2 $?
"$arcs" model-io hash "$tmp/missing" > /dev/null 2>&1; check "model-io hash missing" 2 $?
"$arcs" model-io --help | grep -q "^  hash  "; check "model-io help" 0 $?
"$arcs" model-io hash --help | grep -q "arcs model-io hash FILE"; check "model-io hash help" 0 $?
"$arcs" validate "$root/vectors/model_io/cases/mode-capitalized/model_io.json" > "$tmp/out"
check "validate model_io.json" 1 $?
grep -q "MI3" "$tmp/out"; check "validate model_io.json cites MI3" 0 $?
cp "$session" "$tmp/renamed.json"
"$arcs" validate "$tmp/renamed.json" > /dev/null; check "validate recognizes Model IO content" 0 $?
# SessionData: findings labelled with their statement; arcs render writes the transcript's bytes to
# a file or pipe (the same with the format's verb); exit 1 for no object, 2 for usage errors.
sd=$root/vectors/session_data/cases
"$arcs" validate "$sd/unknown-top-member/session.json" > "$tmp/out"
check "validate a session invalid under the schema" 1 $?
grep -q ": error: schema: .* \[SD-SCHEMA-4\]$" "$tmp/out"; check "the finding names its statement" 0 $?
"$arcs" validate "$sd/example-full-session/session.json" > /dev/null
check "validate the spec's full session" 0 $?
"$arcs" render "$sd/render-link/session.json" > "$tmp/render.md"; check "render exit" 0 $?
"$arcs" session-data render "$sd/render-link/session.json" > "$tmp/render-verb.md"
cmp -s "$tmp/render.md" "$tmp/render-verb.md"; check "render and the verb agree" 0 $?
grep -q "^### User" "$tmp/render.md"; check "render writes Markdown" 0 $?
"$arcs" render "$sd/json-array/session.json" > /dev/null 2>&1; check "render of no object" 1 $?
"$arcs" render "$tmp/missing" > /dev/null 2>&1; check "render missing" 2 $?
"$arcs" render > /dev/null 2>&1; check "render usage" 2 $?
"$arcs" render --help | grep -q "session-data"; check "render help" 0 $?
# -o OUT and - for standard input (issue #27 item 9): the same bytes.
"$arcs" render "$sd/render-link/session.json" -o "$tmp/render-o.md"; check "render -o exit" 0 $?
cmp -s "$tmp/render.md" "$tmp/render-o.md"; check "render -o writes the transcript" 0 $?
"$arcs" session-data render - < "$sd/render-link/session.json" > "$tmp/render-stdin.md"
check "render - exit" 0 $?
cmp -s "$tmp/render.md" "$tmp/render-stdin.md"; check "render - reads standard input" 0 $?
"$arcs" session-data render "$sd/render-link/session.json" -o > /dev/null 2>&1
check "render -o without OUT" 2 $?
# MCP record/replay: a recording told by its header line; the mcp verbs' usage errors, refusals and
# exit statuses (replay and convert of a recording that cannot be loaded: 1).
mrr=$root/vectors/mcp_record_replay/cases
cp "$mrr/example-f002/recording.jsonl" "$tmp/session.jsonl"
"$arcs" validate "$tmp/session.jsonl" > "$tmp/out"; check "validate an MCP recording" 0 $?
"$arcs" validate --strict "$mrr/seq-decrease/recording.jsonl" > "$tmp/out"
check "validate a recording whose seq goes back" 1 $?
grep -q "MRR-MESSAGE-7" "$tmp/out"; check "the seq finding cites MRR-MESSAGE-7" 0 $?
printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":"live","method":"initialize","params":{}}' |
  "$arcs" mcp replay -r "$tmp/session.jsonl" > "$tmp/out" 2> /dev/null
check "mcp replay exit" 0 $?
grep -q '"id":"live"' "$tmp/out"; check "mcp replay answers with the live id" 0 $?
printf '%s\n' '{"jsonrpc":"2.0","id":9,"method":"nothing/recorded"}' |
  "$arcs" mcp replay -r "$mrr/header-only/recording.jsonl" > "$tmp/out" 2> /dev/null
check "mcp replay ends on an unmatched request" 3 $?
grep -q '"id":9' "$tmp/out"; check "mcp replay answers the unmatched request first" 0 $?
"$arcs" mcp replay -r "$mrr/empty-file/recording.jsonl" < /dev/null > /dev/null 2>&1
check "mcp replay of a recording it cannot load" 1 $?
"$arcs" mcp replay -r "$tmp/session.jsonl" --on-unmatched passthrough < /dev/null > /dev/null 2>&1
check "mcp replay passthrough without --upstream" 2 $?
"$arcs" mcp replay -r "$tmp/session.jsonl" --match-mode nearest < /dev/null > /dev/null 2>&1
check "mcp replay unknown match mode" 2 $?
pass=$mrr/ec-rec-009-passthrough
"$arcs" mcp replay -r "$pass/recording.jsonl" --match-mode by-request --on-unmatched passthrough \
  --upstream "'$arcs' mcp stub '$pass/upstream.jsonl'" < "$pass/script.jsonl" > "$tmp/out" 2> /dev/null
check "mcp replay passthrough to arcs mcp stub" 0 $?
grep -q '"id":"c","result":{"content":\[{"type":"text","text":"from the upstream"}\]}' "$tmp/out"
check "the stub's answer comes back with the live id" 0 $?
"$arcs" mcp stub > /dev/null 2>&1; check "mcp stub usage" 2 $?
"$arcs" mcp stub "$tmp/no-such-table" 2> "$tmp/err"; check "mcp stub missing table" 2 $?
check "mcp stub names the table once" 1 "$(grep -o "no-such-table" "$tmp/err" | wc -l)"
"$arcs" mcp replay < /dev/null > /dev/null 2>&1; check "mcp replay usage" 2 $?
"$arcs" mcp convert -r "$tmp/session.jsonl" -o "$tmp/attack.yaml"; check "mcp convert exit" 0 $?
grep -q "^# Auto-generated from session.jsonl" "$tmp/attack.yaml"; check "mcp convert writes YAML" 0 $?
"$arcs" mcp convert -r "$mrr/empty-file/recording.jsonl" -o - > /dev/null 2>&1
check "mcp convert of a recording it cannot load" 1 $?
"$arcs" mcp convert -r "$tmp/session.jsonl" -o - --style rugpull > /dev/null 2>&1
check "mcp convert unknown style" 2 $?
"$arcs" mcp record -o "$tmp/rec.jsonl" > /dev/null 2>&1; check "mcp record usage" 2 $?
"$arcs" mcp record --upstream true -o "$tmp/no/such/dir/rec.jsonl" < /dev/null > /dev/null 2>&1
check "mcp record to a path it cannot create" 2 $?
"$arcs" mcp --help | grep -q "^  replay  "; check "mcp help" 0 $?
"$arcs" mcp replay --help | grep -q "arcs mcp replay -r FILE"; check "mcp replay usage" 0 $?
"$arcs" mcp-record-replay replay --help | grep -q "match-mode"; check "mcp replay help" 0 $?
"$arcs" validate --help | grep -q "max_line_bytes="; check "validate help" 0 $?
"$arcs" --help | grep -q "validate"; check "help" 0 $?
"$arcs" frobnicate > /dev/null 2>&1; check "unknown command" 2 $?

# A finding that rests only on an errata reading is a warning naming the erratum; --strict (the
# ARCS strict profile) makes it an error. lightbox.md leaves open whether an error event may hold a
# null output (errata LB-E17): the reference's own reading says no.
null_output=$root/vectors/lightbox/cases/error-output-null
"$arcs" validate "$null_output" > "$tmp/out" 2>&1; check "reading: exit" 0 $?
grep -q ": warning: .* \[LB-EVENT-17, reading LB-E17\]$" "$tmp/out"; check "reading: warning" 0 $?
"$arcs" validate --strict "$null_output" > "$tmp/out" 2>&1; check "reading --strict: exit" 1 $?
grep -q ": error: .* \[LB-EVENT-17, reading LB-E17\]$" "$tmp/out"; check "reading --strict: error" 0 $?
"$arcs" validate --strict=yes "$null_output" > /dev/null 2>&1; check "--strict takes no value" 2 $?
"$arcs" validate --json "$null_output" > "$tmp/out.json"; check "reading --json: exit" 0 $?
"$arcs" validate --sarif --strict "$null_output" > "$tmp/out.sarif"; check "reading --sarif: exit" 1 $?
/usr/bin/python3 - "$tmp/out.json" "$tmp/out.sarif" <<'PY'; check "reading in --json and --sarif" 0 $?
import json, sys
findings = json.load(open(sys.argv[1]))["files"][0]["findings"]
finding = next(f for f in findings if f.get("reading") == "LB-E17")
assert finding["severity"] == "warning" and finding["rule"] == "LB-EVENT-17", finding
results = json.load(open(sys.argv[2]))["runs"][0]["results"]
result = next(r for r in results if r.get("properties", {}).get("reading") == "LB-E17")
assert result["level"] == "error" and result["ruleId"] == "LB-EVENT-17", result
PY

# arcs formats: the registry, for people and scripts.
"$arcs" formats > "$tmp/out"; check "formats exit" 0 $?
grep -q "^spool: Spool 1.0 (spool.md)" "$tmp/out"; check "formats lists spool" 0 $?
"$arcs" formats --json > "$tmp/formats.json"; check "formats --json exit" 0 $?
/usr/bin/python3 - "$tmp/formats.json" <<'PY'; check "formats --json shape" 0 $?
import json, sys
spool = {f["name"]: f for f in json.load(open(sys.argv[1]))["formats"]}["spool"]
assert spool["manifest"] == "vectors/spool/manifest.json", spool
assert {l["name"] for l in spool["limits"]} >= {"max_line_bytes", "max_entries"}, spool
assert {p["name"]: p["reference"] for p in spool["policies"]}["invalid_line"] == "reject", spool
assert [(o["name"], o["inputs"]) for o in spool["operations"]] == \
    [("validate", ["file"]), ("roundtrip", ["file"])], spool
PY
"$arcs" formats --bogus > /dev/null 2>&1; check "formats usage" 2 $?
"$arcs" vectors --format nope > /dev/null 2>&1; check "vectors unknown format" 2 $?
"$arcs" vectors --help | grep -q "strict profile"; check "vectors help" 0 $?

# An argument is untrusted text too: echoed in an error message, its controls show as escapes
# (an OSC 8 hyperlink ended by BEL, a CSI as ESC [ and as C1 U+009B and as a bare byte, a
# right-to-left override), never as raw bytes that drive the terminal.
hostile=$(printf '\033]8;;http://x\007\342\200\256\302\233\033[2J\233')
raw_controls() {  # how many raw C0 (but newline), DEL, C1, bidi controls or stray bytes in $1
  /usr/bin/python3 -c '
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
print(len(re.findall("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e"
                     "\u2060-\u2064\u2066-\u2069\ufeff\udc80-\udcff]", text)))' "$1"
}
mkdir -p "$tmp/hostile-suite$hostile"
for args in "$hostile" "validate --$hostile" "validate --format $hostile x" \
    "validate --color=$hostile x" "validate --limit $hostile x" "validate --explain $hostile" \
    "validate $tmp/$hostile.spool" "formats $hostile" \
    "vectors $hostile" "vectors --suite $tmp/hostile-suite$hostile" "spool $hostile" \
    "render $tmp/$hostile"; do
  IFS=' ' read -r -a argv <<< "$args"
  "$arcs" "${argv[@]}" > /dev/null 2> "$tmp/err"
  check "hostile argument: arcs ${argv[0]} exit" 2 $?
  check "hostile argument: arcs ${argv[*]:0:2} no raw control" 0 "$(raw_controls "$tmp/err")"
  grep -q '\\u202e' "$tmp/err"; check "hostile argument: arcs ${argv[0]} shown escaped" 0 $?
done

echo "cli: $((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
