#!/usr/bin/env bash
# An ARCS protocol adapter (runner/PROTOCOL.md, protocol 2) in bash + jq, for an implementation
# that is a command line: it validates a file given by name and says so by its exit status.
#
#     build/arcs run --impl 'bash runner/adapters/shell/arcs_adapter.sh' --format spool -j 2
#
# Needs bash, jq (1.6 or later) and coreutils (base64, cat, dirname, head, mktemp, rm). Reads one JSON request
# per line on stdin and writes one JSON answer per line on stdout; everything else (its own
# diagnostics, the wrapped command's stderr) goes to stderr, which the runner keeps for the report.
#
# To certify your own implementation, edit only the block marked EDIT HERE below: who you are,
# what you support, and run_case, which runs your command on one case's input files and returns
# its verdict as an exit status; FINDING says how a line your command prints becomes a finding.
# The shipped block wraps the toy Spool implementation of the Python example
# (../python/toy_spool.py) through toy_spool_cli.py, a small command line that prints findings as
# compilers do.
#
# Slow, by design: each case starts your command (here Python, most of the time) and head,
# base64, rm and often jq: a handful of processes per case. Measured over the full spool suite
# (872 cases, resource probes included) on a 2-CPU machine busy with other work: about 5 cases/s
# with -j 1 and 7 to 10 with -j 2, where the Python adapter (one process for the whole run) does
# about 40 with -j 1. `arcs run -j N` runs N copies of the adapter side by side, and helps up to
# the number of CPUs. An implementation that speaks the protocol itself is faster still. The toy
# takes 6 to 9 s of the 10 s timeout over the 1,000,000-entry resource probe: on a busy machine
# give it `--timeout-cpu 30`, or leave the probes out (`--no-resource-probes`).
#
# How it works: bash's `read` takes bytes one at a time from a pipe (a few MB/s), so a 96 MB
# request line (the resource probes have them) would time out. One jq process for the whole run
# (the "splitter") reads the requests instead and turns each one into a short header line for
# bash, followed by the base64 of its inputs, which `head -c LENGTH | base64 -d` copies into
# files at full speed. Input bytes (NUL, invalid UTF-8, ...) never pass through a shell variable.
set -uo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd) || exit 1

# ==== EDIT HERE ===================================================================================

# Your implementation's identity (name, version, language; homepage optional) for the hello.
IMPLEMENTATION='{"name":"toy-spool-shell","version":"0.1","language":"shell","homepage":"runner/adapters/shell"}'

# Per format: the operations you implement and the policies you declare (runner/README.md). Cases
# of other formats and operations are answered "skipped" by the runner without being sent.
FORMATS='{"spool":{"operations":["validate","roundtrip"],
  "policies":{"invalid_line":"reject","invalid_entry":"keep","major_version":"accept"}}}'

# The resource limits (a case's args.limits) your command can apply. run_case receives each one a
# case sets as `--limit NAME=VALUE`; a case setting another limit, or another arg, is "skipped".
LIMITS='["max_file_bytes","max_line_bytes","max_entries"]'

# run_case FORMAT OPERATION IN OUT [--limit NAME=VALUE]...
#   IN   a directory holding the case's inputs, one file per input, named after it (Spool: IN/file)
#   OUT  an empty directory: every file left there is an output (Spool roundtrip: OUT/file)
# Return 0 for the verdict "valid", 1 for "invalid", anything else when your command failed (the
# case is then "errored", with the last line of its stderr). Its stdout is read for findings.
run_case() {
  local format=$1 operation=$2 in=$3 out=$4
  shift 4
  case $format/$operation in
    spool/validate) python3 "$here/toy_spool_cli.py" validate "$@" "$in/file" ;;
    spool/roundtrip) python3 "$here/toy_spool_cli.py" roundtrip "$@" "$in/file" "$out/file" ;;
    *) echo "run_case: $format/$operation is declared in FORMATS but not run here" >&2; return 2 ;;
  esac
}

# A jq filter from one line of run_case's stdout (a string) to a finding {rule, severity, line,
# pointer, message} (only rule is required), or to nothing for a line that is not a finding. This
# one reads compiler-style lines (gcc's), the rule id in brackets at the end, a pointer optional:
#   FILE:LINE:COLUMN: error|warning|note: message (at /json/pointer) [RULE-ID]
# shellcheck disable=SC2016  # $-names here are jq's, not the shell's
FINDING='capture("^.*?(:(?<line>[0-9]+)(:[0-9]+)?)?: (?<severity>error|warning|note): "
                 + "(?<message>.*?)( \\(at (?<pointer>/[^)]*)\\))? \\[(?<rule>[^\\]]+)\\]$")
  | {rule, severity, line: (if .line then .line | tonumber else null end), pointer, message}
  | with_entries(select(.value != null))'

# ==== END OF EDIT HERE: nothing below needs changing =============================================

PROTOCOL=2  # the runner protocol version this loop speaks (runner/PROTOCOL.md)

# The splitter: one request in, one header line out, then for a case to run the base64 text of each
# input, back to back. Header fields are separated by \u001f, which JSON text never holds raw:
#   KIND ID TEXT FORMAT OPERATION INPUTS FLAGS
# KIND is hello, shutdown, ignore, skip, errored or case; ID and TEXT (a reason or message) are JSON
# strings; INPUTS is "NAME=BYTES ..." (names limited to [A-Za-z0-9_-], others ignored) and FLAGS
# "--limit NAME=VALUE ...".
# shellcheck disable=SC2016  # $-names here are jq's, not the shell's
SPLITTER='
def header: map(tostring) | join("\u001f") + "\n";
def skip($r; $why): ["skip", ($r.id | tojson), ($why | tojson)] | header;
. as $r
| if .type == "hello" then ["hello"] | header
  elif .type == "shutdown" then ["shutdown"] | header
  elif .type != "case" then ["ignore", "", (.type | tojson)] | header
  else try (
    (.args // {}) as $args
    | ($args.limits // {}) as $lim
    | ($args | keys - ["limits"]) as $unknown_args
    | ($lim | keys - $limits) as $unknown_limits
    | [$lim | to_entries[] | select(.value | type != "number" or . < 0 or . != floor
                                             or . > 9007199254740992) | .key] as $bad_values
    | if any($formats[$r.format | tostring].operations[]?; . == $r.operation) | not
      then skip($r; "not supported: \($r.format)/\($r.operation)")
      elif $unknown_args != [] then skip($r; "args not supported: " + ($unknown_args | join(", ")))
      elif $unknown_limits != [] then
        skip($r; "limits not configurable: " + ($unknown_limits | join(", ")))
      elif $bad_values != [] then skip($r; "limit values out of range: " + ($bad_values | join(", ")))
      else
        [.inputs | to_entries[] | select(.key | test("^[A-Za-z0-9_-]+$"))] as $in
        | (["case", (.id | tojson), "", .format, .operation,
            ($in | map("\(.key)=\(.value | utf8bytelength)") | join(" ")),
            ($lim | to_entries | map("--limit \(.key)=\(.value)") | join(" "))] | header),
          $in[].value
      end
    ) catch (["errored", ($r.id | tojson), ("bad request: \(.)" | tojson)] | header)
  end'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arcs-shell-adapter.XXXXXX") || exit 1
splitter_pid=
# shellcheck disable=SC2317  # run by the trap
cleanup() {
  [ -n "$splitter_pid" ] && kill "$splitter_pid" 2>/dev/null
  rm -rf -- "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP  # so that the EXIT trap runs
mkdir -- "$tmp/in" "$tmp/out" || exit 1

# Where a case's files go: the inputs, the outputs, and run_case's stdout and stderr.
in_dir=$tmp/in out_dir=$tmp/out case_stdout=$tmp/stdout case_stderr=$tmp/stderr

log() { printf 'arcs_adapter.sh: %s\n' "$*" >&2; }

# answer ID STATUS [JSON_MEMBERS]: one answer line (ID is a JSON string; members start with ",").
answer() { printf '{"type":"result","id":%s,"status":"%s"%s}\n' "$1" "$2" "${3:-}"; }

# run_one ID FORMAT OPERATION INPUTS FLAGS: copies the inputs from the splitter into $in_dir, runs
# run_case and answers. Every input must be read off the splitter, whatever happens.
run_one() {
  local id=$1 format=$2 operation=$3 inputs=() flags=() pair name status verdict findings f sep=
  read -r -a inputs <<<"$4"
  read -r -a flags <<<"$5"
  for pair in "${inputs[@]}"; do
    name=${pair%%=*}
    # A decoding error must still consume the whole input, or the next header is read mid-input.
    if ! head -c "${pair#*=}" <&3 | { base64 -d >"$in_dir/$name" || { cat >/dev/null; false; }; }; then
      answer "$id" errored ",\"message\":\"input $name: not base64\""
      return
    fi
  done

  run_case "$format" "$operation" "$in_dir" "$out_dir" "${flags[@]}" \
    </dev/null >"$case_stdout" 2>"$case_stderr" 3<&-
  status=$?
  [ -s "$case_stderr" ] && cat -- "$case_stderr" >&2  # for the report's stderr tail

  if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
    answer "$id" errored ",\"message\":$(jq -Rsc --arg s "$status" '"exit status \($s)" +
      (split("\n") | map(select(length > 0)) | if length > 0 then ": " + last else "" end)' \
      <"$case_stderr")"
    return
  fi
  findings=
  if [ -s "$case_stdout" ]; then
    findings=$(jq -Rnc "[inputs | $FINDING]" <"$case_stdout") ||
      { log "FINDING failed over the command's stdout: no findings sent"; findings=; }
  fi
  # The answer, written in pieces so that an output of any size streams through base64.
  verdict=valid
  [ "$status" -eq 1 ] && verdict=invalid
  printf '{"type":"result","id":%s,"status":"ok","verdict":"%s"' "$id" "$verdict"
  [ -n "$findings" ] && [ "$findings" != "[]" ] && printf ',"findings":%s' "$findings"
  for f in "$out_dir"/*; do
    [ -f "$f" ] || continue
    name=${f##*/}
    if [[ ! $name =~ ^[A-Za-z0-9_.-]+$ ]]; then
      log "output file $name: not a plain name, left out"
      continue
    fi
    [ -z "$sep" ] && printf ',"outputs":{'
    printf '%s"%s":"' "$sep" "$name"
    base64 -w0 <"$f"
    printf '"'
    sep=,
  done
  [ -n "$sep" ] && printf '}'
  printf '}\n'
}

exec 3< <(jq -j --unbuffered --argjson formats "$FORMATS" --argjson limits "$LIMITS" "$SPLITTER")
splitter_pid=$!

while IFS=$'\x1f' read -r -u 3 kind id text format operation inputs flags; do
  case $kind in
    hello)
      jq -nc --argjson impl "$IMPLEMENTATION" --argjson formats "$FORMATS" --argjson p "$PROTOCOL" \
        '{type: "hello", protocol: $p, implementation: $impl, formats: $formats}' || exit 1
      ;;
    shutdown) exit 0 ;;
    case)
      run_one "$id" "$format" "$operation" "$inputs" "$flags"
      rm -rf -- "${in_dir:?}"/* "${out_dir:?}"/*
      ;;
    skip) answer "$id" skipped ",\"reason\":$text" ;;
    errored) answer "$id" errored ",\"message\":$text" ;;
    *) log "ignoring a message of type $text" ;;
  esac
done
# End of input means shutdown; the splitter's status tells it from a request jq could not parse.
wait "$splitter_pid"
status=$?
splitter_pid=
exit "$status"
