"""A deliberately small Spool 1.0 implementation: the "library" the example adapter wraps.

=====================================================================================
  THIS IS THE PART YOU REPLACE. An implementer deletes this file and, in
  arcs_adapter.py, calls their own Spool library instead. It exists only so that the
  example adapter has something real to certify.
=====================================================================================

It is honest but incomplete, and ARCS says so: the cases it fails are listed in
known-failures.txt next to it. What it does:

validate(data, limits) -> (valid, findings)
    Every line decodes as UTF-8, is strict JSON (no NaN/Infinity, no repeated member name)
    and is an object; the first line is a session entry with ts 0 and a string version; every
    entry has a lowercase-UUID id, a non-negative integer ts and a string type. CRLF and a
    missing final newline are allowed; a BOM, blank lines and an empty file are not.
    Everything else in the spec (entry types, references, base64, ...) is not checked.

read(data, limits) -> entries, or raises Rejected
    A tolerant reader: skips a leading BOM and blank lines, accepts CRLF. Its policies
    (declared to the runner in the handshake, see POLICIES) are:
      invalid_line  = reject  a line that is not a JSON object rejects the file
      invalid_entry = keep    entries breaking entry rules are read as they are
      major_version = accept  the version is not looked at
    An empty file, or a first entry that is not a session, is rejected.

write(entries) -> bytes
    One compact JSON object per line, LF, UTF-8, member order kept. Python's json module loses
    repeated member names and cannot hold numbers it turns into floats exactly, so a few
    round trips fail: that is expected.

Limits: max_file_bytes, max_line_bytes and max_entries are honoured; others are not
configurable here (LIMITS), and the adapter answers "skipped" for cases that set them.
"""

import json
import re

POLICIES = {"invalid_line": "reject", "invalid_entry": "keep", "major_version": "accept"}
LIMITS = {"max_file_bytes", "max_line_bytes", "max_entries"}

BOM = b"\xef\xbb\xbf"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z")


class Rejected(Exception):
    """The reader refuses the file: .rule is the catalogue rule id, str() says why."""

    def __init__(self, rule, message):
        super().__init__(message)
        self.rule = rule


class BadLine(ValueError):
    """A line that is not one JSON object: .rule is the catalogue rule id."""

    def __init__(self, rule, message):
        super().__init__(message)
        self.rule = rule


def _no_duplicates(pairs):
    names = [name for name, _ in pairs]
    if len(names) != len(set(names)):
        raise BadLine("SP-10.1-7", "a member name is repeated")
    return dict(pairs)


def _no_constants(name):
    raise BadLine("SP-3.6-1", name + " is not JSON")


def parse_line(raw, strict):
    """Bytes of one line (no line ending) -> dict. strict: also refuse repeated names."""
    try:
        text = raw.decode("utf-8")
        hook = _no_duplicates if strict else None
        value = json.loads(text, object_pairs_hook=hook, parse_constant=_no_constants)
    except UnicodeDecodeError:
        raise BadLine("SP-3.4-1", "not UTF-8")
    except BadLine:
        raise
    except ValueError as error:  # json.JSONDecodeError, huge integers
        raise BadLine("SP-3.6-1", "not JSON: %s" % error)
    if not isinstance(value, dict):
        raise BadLine("SP-3.6-1", "not a JSON object")
    return value


def split_lines(data):
    """Bytes -> [(line number, bytes without \\n or \\r\\n)]. A final \\n ends the last line."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [(n, line[:-1] if line.endswith(b"\r") else line) for n, line in enumerate(lines, 1)]


def is_blank(line):
    return line.strip(b" \t\r") == b""


def _over_limits(size, lines, limits):
    """The rule id and message of the first limit the input exceeds, or None."""
    if size > limits.get("max_file_bytes", 16 << 30):
        return "SP-10.1-1", "file larger than max_file_bytes"
    max_line = limits.get("max_line_bytes", 64 << 20)
    if any(len(line) > max_line for _, line in lines):
        return "SP-10.1-2", "line longer than max_line_bytes"
    if sum(1 for _, line in lines if not is_blank(line)) > limits.get("max_entries", 100000000):
        return "SP-10.1-3", "more entries than max_entries"
    return None


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def validate(data, limits):
    findings = []

    def error(rule, line, message):
        findings.append({"rule": rule, "severity": "error", "line": line, "message": message})

    size = len(data)  # a BOM included
    if data.startswith(BOM):
        error("SP-3.4-1", 1, "the file starts with a byte order mark")
        data = data[len(BOM):]
    lines = split_lines(data)
    over = _over_limits(size, lines, limits)
    if over:
        error(over[0], None, over[1])
        lines = []
    elif not any(not is_blank(line) for _, line in lines):
        error("SP-4.3-1", None, "no entries")
    first = True
    for number, line in lines:
        if is_blank(line):
            error("SP-3.6-1", number, "blank line")
            continue
        try:
            entry = parse_line(line, strict=True)
        except BadLine as bad:
            error(bad.rule, number, str(bad))
            first = False
            continue
        if "id" not in entry:
            error("SP-5.1-1", number, "no id")
        elif not isinstance(entry["id"], str) or not UUID.match(entry["id"]):
            error("SP-5.1-2", number, "id is not a lowercase UUID")
        if not _is_int(entry.get("ts")):
            error("SP-5.2-1", number, "ts is missing or not an integer")
        elif entry["ts"] < 0:
            error("SP-5.2-2", number, "ts is negative")
        if not isinstance(entry.get("type"), str):
            error("SP-5.3-1", number, "type is missing or not a string")
        if first:
            if entry.get("type") != "session":
                error("SP-4.1-1", number, "the first entry is not a session entry")
            else:
                if entry.get("ts") != 0 or not _is_int(entry.get("ts")):
                    error("SP-6.1-3", number, "the session entry's ts is not 0")
                if not isinstance(entry.get("version"), str):
                    error("SP-6.1-2", number, "the session entry has no string version")
        first = False
    for finding in findings:  # no line number given: leave the member out
        if finding["line"] is None:
            del finding["line"]
    return not findings, findings


def read(data, limits):
    size = len(data)
    if data.startswith(BOM):
        data = data[len(BOM):]
    lines = split_lines(data)
    over = _over_limits(size, lines, limits)
    if over:
        raise Rejected(*over)
    entries = []
    for number, line in lines:
        if is_blank(line):
            continue
        try:
            entries.append(parse_line(line, strict=False))
        except BadLine as bad:  # policy invalid_line: reject
            raise Rejected(bad.rule, "line %d: %s" % (number, bad))
    if not entries:
        raise Rejected("SP-4.3-1", "no entries")
    if entries[0].get("type") != "session":
        raise Rejected("SP-4.1-1", "the first entry is not a session entry")
    return entries  # policy invalid_entry: keep; major_version: accept


def write(entries):
    out = [json.dumps(entry, separators=(",", ":"), ensure_ascii=False) + "\n" for entry in entries]
    return "".join(out).encode("utf-8")  # a lone surrogate raises UnicodeEncodeError: errored
