#!/usr/bin/python3
"""The CPython oracle for canonical::PythonSortedJson (reference/core/canonical.h): generates
awkward JSON values (astral and control-character keys, repeated names, escapes of every kind,
U+2028, DEL, NUL, surrogate pairs, integers of up to 4,300 digits, -0, deep nesting, floats),
hands their text to the C++ tool one per line, and requires, line by line, exactly the bytes of
json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False) encoded
as UTF-8, or an error where CPython's value holds a float.

usage: python_canonical_oracle.py TOOL [COUNT] [PATH...]
PATH: JSONL files, or folders whose *.jsonl and *.json files, whose every line is also checked (a
format's vectors). A line CPython cannot canonicalize (not strict JSON: NaN, Infinity, invalid
UTF-8; a lone surrogate it cannot encode) must be refused by the tool too.
"""
import json
import os
import random
import subprocess
import sys

ALPHABET = ["a", "b", "z", "A", "_", "~", " ", "0", "é", "e\u0301", "\u00ff", "\u0100", "\u2028",
            "\u2029", "\x7f", "\x00", "\x01", "\x1f", "\"", "\\", "/", "\b", "\f", "\n", "\r",
            "\t", "\ufeff", "\uffff", "\ufffd", "\U00010000", "\U0001f600", "\U0010ffff", "\u202e",
            "中", "\ud7ff", "\ue000"]


def random_string(rng, max_len=6):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, max_len)))


def quote(rng, s):
    """JSON text for s, spelled in one of several legal ways."""
    style = rng.randint(0, 3)
    if style == 0:
        return json.dumps(s, ensure_ascii=True)  # what the upstream recorder writes
    if style == 1:
        return json.dumps(s, ensure_ascii=False)
    out = ['"']
    for ch in s:  # every character as an escape, surrogate pairs for astral ones
        if style == 2 and ch not in "\"\\" and ord(ch) >= 0x20:
            out.append(ch)
            continue
        if ch == "/" and rng.random() < 0.5:
            out.append("\\/")
            continue
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            out.append("\\u%04x\\u%04X" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            out.append(("\\u%04x" if rng.random() < 0.5 else "\\u%04X") % code)
    out.append('"')
    return "".join(out)


def random_integer(rng):
    kind = rng.randint(0, 5)
    if kind == 0:
        return "-0"
    if kind == 1:
        return str(rng.randint(-2**63, 2**64))
    if kind == 2:
        digits = rng.randint(1, 4300)
        return rng.choice(["", "-"]) + str(rng.randint(1, 9)) + "".join(
            rng.choice("0123456789") for _ in range(digits - 1))
    return str(rng.randint(-1000, 1000))


def random_value(rng, depth=0, floats=False):
    kind = rng.randint(0, 9 if depth < 6 else 5)
    if kind == 0:
        return "null"
    if kind == 1:
        return rng.choice(["true", "false"])
    if kind == 2:
        if floats and rng.random() < 0.3:
            return rng.choice(["1.0", "1e2", "-0.0", "0E0", "1.5e-7", "12345678901234567890.5"])
        return random_integer(rng)
    if kind <= 5:
        return quote(rng, random_string(rng))
    if kind <= 7:
        items = [random_value(rng, depth + 1, floats) for _ in range(rng.randint(0, 4))]
        return "[" + rng.choice([",", ", "]).join(items) + "]"
    members = []
    names = [random_string(rng, 3) for _ in range(rng.randint(0, 5))]
    if names and rng.random() < 0.2:
        names.append(rng.choice(names))  # a repeated name: CPython keeps the last value
    for name in names:
        members.append(quote(rng, name) + ":" + random_value(rng, depth + 1, floats))
    return "{" + ",".join(members) + "}"


class Refused(Exception):
    """CPython has no canonical form for the line (or strict JSON refuses what it would read)."""


def expected(text):
    """The canonical bytes, None for a value holding a float, Refused when there are none."""
    holds_float = []

    def on_float(s):
        holds_float.append(s)
        return float(s)

    def on_constant(name):
        raise Refused(name)  # NaN, Infinity: CPython reads them, RFC 8259 does not

    try:
        value = json.loads(text, parse_float=on_float, parse_constant=on_constant)
        if holds_float:
            return None
        return json.dumps(value, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError, RecursionError) as e:
        raise Refused(str(e)) from e


def vector_lines(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            for folder, _, names in sorted(os.walk(path)):
                files += [os.path.join(folder, n) for n in sorted(names)
                          if n.endswith((".jsonl", ".json"))]
        else:
            files.append(path)
    lines = []
    for path in files:
        with open(path, "rb") as f:
            for raw in f.read().split(b"\n"):
                raw = raw.rstrip(b"\r")
                if raw.strip() and len(raw) < (1 << 20):
                    lines.append(raw)
    return lines


def main():
    sys.set_int_max_str_digits(0)  # exact integers of any length (errata LB-E26, the reference's reading)
    tool = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
    rng = random.Random(8785)
    lines = [random_value(rng, floats=(i % 10 == 0)) for i in range(count)]
    lines.append("[" * 900 + "]" * 900)
    lines.append('{"\U0001f600":1,"\uffff":2,"\ue000":3}')  # code point order, not UTF-16
    lines = [line.encode("utf-8") for line in lines] + vector_lines(sys.argv[3:])
    text = b"".join(line + b"\n" for line in lines)
    out = subprocess.run([tool, "python"], input=text, stdout=subprocess.PIPE, check=True).stdout
    got = out.split(b"\n")[:-1]
    if len(got) != len(lines):
        sys.exit("oracle: %d lines in, %d out" % (len(lines), len(got)))
    failures = 0
    for line, ours in zip(lines, got):
        try:
            want = expected(line.decode("utf-8"))
            ok = ours == b"ERROR refused" if want is None else ours == want
        except (Refused, UnicodeDecodeError):
            want, ok = "(refused)", ours.startswith(b"ERROR")
        if not ok:
            failures += 1
            if failures <= 5:
                print("MISMATCH for %r\n  CPython: %r\n  ours:    %r" % (line[:200], want, ours[:300]))
    print("oracle: %d values, %d mismatches" % (len(lines), failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
