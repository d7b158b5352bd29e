#!/usr/bin/python3
"""Checks the runner protocol's JSON Schemas (schemas/protocol/) against the protocol's text and
against the two example adapters.

Run from the repository root (ctest `protocol_schemas` does):

    /usr/bin/python3 schemas/protocol/check_messages.py

It
  1. checks that the five schemas are valid draft 2020-12 schemas;
  2. extracts every example message of runner/PROTOCOL.md (the JSON in its ```json blocks, and
     the `>` / `<` lines of its transcript) and validates each against the schema of its kind;
     examples whose base64 member is a placeholder ("...", "<base64>") are listed as skipped;
  3. validates further hand-written messages that must be accepted, and negative ones that must
     be rejected (missing id, bad status, ok without a verdict, bad base64, repeated member name,
     ...);
  4. drives each example adapter (runner/adapters/python with python3, runner/adapters/node with
     node) with a small stdlib driver: the runner's hello, cases built from vectors/spool/cases,
     shutdown; then the same without shutdown (end of input); then many large answers at once
     (answers must not be lost when stdout is a full pipe). Every line the adapter prints must
     be one strict JSON object (UTF-8, no repeated member name, no NaN) valid against the schema
     of its kind, one answer per request, in order, ids echoed; the adapter must exit 0.

A missing `node` is a failure, not a skip (tools/setup.sh installs Debian's nodejs).

Exit status 0 when every check passed, 1 otherwise. The last line is
"check_messages: N passed, M failed, K skipped".
"""

import base64
import json
import os
import re
import shutil
import subprocess
import sys

import jsonschema

SCHEMA_DIR = "schemas/protocol"
PROTOCOL = "runner/PROTOCOL.md"
CASES = "vectors/spool/cases"
KINDS = ["runner-hello", "implementation-hello", "case", "result", "shutdown"]
PLACEHOLDER = re.compile(r"\.\.\.|<[a-z0-9]+>")


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL", what)
        return ok

    def skip(self, what):
        self.skipped += 1
        print("SKIP", what)


T = Tally()


def load_validators():
    validators = {}
    for kind in KINDS:
        path = os.path.join(SCHEMA_DIR, kind + ".schema.json")
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
            T.check(True, path)
        except jsonschema.SchemaError as error:
            T.check(False, "%s is not a valid draft 2020-12 schema: %s" % (path, error.message))
        validators[kind] = jsonschema.Draft202012Validator(schema)
    return validators


V = load_validators()


class BadMessage(ValueError):
    pass


def _pairs(pairs):
    names = [name for name, _ in pairs]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise BadMessage("repeated member name(s): %s" % ", ".join(repeated))
    return dict(pairs)


def _constant(name):
    raise BadMessage("%s is not JSON" % name)


def parse_message(text):
    """Strict: one JSON object, no repeated member name, no NaN/Infinity."""
    value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    if not isinstance(value, dict):
        raise BadMessage("not a JSON object")
    return value


def errors_of(kind, message):
    return ["%s: %s" % ("/".join(map(str, e.absolute_path)) or "(root)", e.message)
            for e in V[kind].iter_errors(message)]


def kind_of(message, direction=None):
    """The schema for a message: by type, and for hello by direction (or by its shape)."""
    kind = message.get("type")
    if kind == "hello":
        if direction is None:
            direction = "<" if "implementation" in message else ">"
        return "runner-hello" if direction == ">" else "implementation-hello"
    return kind if kind in ("case", "result", "shutdown") else None


def check_line(raw, expect_kind, what):
    """raw: bytes of one line without its \\n. Returns the message, or None (failure counted)."""
    try:
        message = parse_message(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        T.check(False, "%s: not a strict JSON object line (%s): %r" % (what, error, raw[:200]))
        return None
    kind = kind_of(message, "<")
    if not T.check(kind == expect_kind,
                   "%s: expected a %s, got %r" % (what, expect_kind, raw[:200])):
        return None
    errors = errors_of(kind, message)
    T.check(not errors, "%s: %s schema: %s" % (what, kind, "; ".join(errors)))
    return message


# ---- 2. the examples of PROTOCOL.md ------------------------------------------------------------
def protocol_examples():
    """[(where, direction or None, text)] of every JSON message in PROTOCOL.md's code blocks."""
    with open(PROTOCOL, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, block, lang, start = [], None, None, 0
    for number, line in enumerate(lines, 1):
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence and block is None:
            block, lang, start = [], fence.group(1), number + 1
            continue
        if fence or (line.startswith("```") and block is not None):
            if lang == "json":
                text, decoder, pos = "\n".join(block), json.JSONDecoder(), 0
                while True:
                    while pos < len(text) and text[pos].isspace():
                        pos += 1
                    if pos >= len(text):
                        break
                    _, end = decoder.raw_decode(text, pos)
                    found.append(("%s:%d" % (PROTOCOL, start + text.count("\n", 0, pos)), None,
                                  text[pos:end]))
                    pos = end
            else:
                for offset, code in enumerate(block):
                    if code[:2] in ("> ", "< "):
                        found.append(("%s:%d" % (PROTOCOL, start + offset), code[0], code[2:]))
            block = None
            continue
        if block is not None:
            block.append(line)
    return found


def check_protocol_examples():
    """Every example must pass its schema. A base64 member holding a placeholder ("...",
    "<base64>") is replaced by valid base64 (listed as skipped), and the rest is checked."""
    seen = set()
    examples = protocol_examples()
    for where, direction, text in examples:
        try:
            message = parse_message(text)
        except ValueError as error:
            T.check(False, "%s: example is not a strict JSON object: %s" % (where, error))
            continue
        kind = kind_of(message, direction)
        if not T.check(kind is not None, "%s: no schema for %r" % (where, text)):
            continue
        for name in ("input", "output"):
            value = message.get(name)
            if isinstance(value, str) and PLACEHOLDER.search(value):
                T.skip("%s: %s example: %s %r is a placeholder, not base64 (the rest is checked)"
                       % (where, kind, name, value[-20:]))
                message[name] = "AA=="
        errors = errors_of(kind, message)
        T.check(not errors, "%s: %s example rejected: %s" % (where, kind, "; ".join(errors)))
        seen.add(kind)
    missing = [kind for kind in KINDS if kind not in seen]
    T.check(not missing, "PROTOCOL.md has no example of: %s" % ", ".join(missing))
    print("PROTOCOL.md: %d example messages" % len(examples))


# ---- 3. hand-written positive and negative messages -------------------------------------------
HELLO = {"type": "hello", "protocol": 1, "implementation": {"name": "x", "version": "1",
         "language": "C"}, "formats": {"spool": {"operations": ["validate"]}}}


def with_(base, **changes):
    message = json.loads(json.dumps(base))
    for key, value in changes.items():
        if value is None:
            message.pop(key, None)
        else:
            message[key] = value
    return message


ACCEPT = [
    ("runner-hello", {"type": "hello", "protocol": 1, "formats": []}),
    ("runner-hello", {"type": "hello", "protocol": 1, "formats": ["spool"], "x_later": True}),
    ("implementation-hello", with_(HELLO, formats={})),
    ("implementation-hello", with_(HELLO, formats={"spool": {"operations": [], "policies": {
        "invalid_line": "skip", "invalid_entry": "keep", "major_version": "reject"}}})),
    ("implementation-hello", with_(HELLO, formats={"lightbox": {"operations": ["hash"],
                                                                "policies": {"any": "thing"}}})),
    ("case", {"type": "case", "id": "", "format": "spool", "operation": "validate", "input": ""}),
    ("case", {"type": "case", "id": "a/b", "format": "spool", "operation": "roundtrip",
              "input": "AA==", "args": {"limits": {"max_line_bytes": 0,
                                                   "max_file_bytes": 18446744073709551615}}}),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "x", "input": "AAA=",
              "args": {}}),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "invalid", "findings": [
        {"rule": "SP-3.4-1"},
        {"rule": "SP-3.5-1", "severity": "warning", "line": 3, "pointer": "/a~1b/0",
         "message": "m"},
        {"rule": "r", "severity": "note", "pointer": ""}]}),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "valid", "output": ""}),
    ("result", {"type": "result", "id": "a", "status": "skipped"}),
    ("result", {"type": "result", "id": "a", "status": "errored", "message": "boom",
                "x_extra": 1}),
    ("shutdown", {"type": "shutdown"}),
]

REJECT = [
    ("runner-hello", {"type": "hello", "formats": ["spool"]}, "protocol missing"),
    ("runner-hello", {"type": "hello", "protocol": 2, "formats": ["spool"]}, "protocol 2"),
    ("runner-hello", {"type": "hello", "protocol": True, "formats": ["spool"]}, "protocol true"),
    ("runner-hello", {"type": "hello", "protocol": 1, "formats": "spool"}, "formats a string"),
    ("runner-hello", {"type": "hello", "protocol": 1}, "formats missing"),
    ("implementation-hello", with_(HELLO, protocol="1"), "protocol a string"),
    ("implementation-hello", with_(HELLO, implementation=None), "implementation missing"),
    ("implementation-hello", with_(HELLO, implementation={"name": "", "version": "1",
                                                          "language": "C"}), "empty name"),
    ("implementation-hello", with_(HELLO, implementation={"name": "x", "language": "C"}),
     "version missing"),
    ("implementation-hello", with_(HELLO, implementation={"name": "x", "version": "1"}),
     "language missing"),
    ("implementation-hello", with_(HELLO, implementation={"name": "x", "version": 1,
                                                          "language": "C"}), "version a number"),
    ("implementation-hello", with_(HELLO, formats=["spool"]), "formats an array"),
    ("implementation-hello", with_(HELLO, formats={"spool": {}}), "operations missing"),
    ("implementation-hello", with_(HELLO, formats={"spool": {"operations": "validate"}}),
     "operations a string"),
    ("implementation-hello", with_(HELLO, formats={"spool": {
        "operations": ["validate"], "policies": {"invalid_line": "ignore"}}}),
     "unknown invalid_line choice"),
    ("implementation-hello", with_(HELLO, formats={"spool": {
        "operations": ["validate"], "policies": {"invalid_entry": "accept"}}}),
     "unknown invalid_entry choice"),
    ("implementation-hello", with_(HELLO, formats={"x": {
        "operations": ["validate"], "policies": {"p": 1}}}), "policy choice not a string"),
    ("case", {"type": "case", "format": "spool", "operation": "validate", "input": ""},
     "id missing"),
    ("case", {"type": "case", "id": 7, "format": "spool", "operation": "validate", "input": ""},
     "id a number"),
    ("case", {"type": "case", "id": "a", "operation": "validate", "input": ""}, "format missing"),
    ("case", {"type": "case", "id": "a", "format": "spool", "input": ""}, "operation missing"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "validate"},
     "input missing"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "AA"},
     "base64 without padding"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "AAA=\n"},
     "base64 with a trailing newline"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "AA AA="},
     "base64 with a space"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "-_8="},
     "base64url alphabet"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "A==="},
     "too much padding"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "",
              "args": {"limits": {"max_line_bytes": -1}}}, "negative limit"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "",
              "args": {"limits": {"max_line_bytes": 1.5}}}, "fractional limit"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "",
              "args": {"limits": {"max_line_bytes": "10"}}}, "limit a string"),
    ("case", {"type": "case", "id": "a", "format": "spool", "operation": "v", "input": "",
              "args": {"limits": [1]}}, "limits an array"),
    ("result", {"type": "result", "status": "ok", "verdict": "valid"}, "id missing"),
    ("result", {"type": "result", "id": "a", "verdict": "valid"}, "status missing"),
    ("result", {"type": "result", "id": "a", "status": "passed", "verdict": "valid"},
     "bad status"),
    ("result", {"type": "result", "id": "a", "status": "ok"}, "ok without a verdict"),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "accept"},
     "bad verdict"),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "valid",
                "findings": [{"severity": "error"}]}, "finding without rule"),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "valid",
                "findings": [{"rule": "r", "severity": "fatal"}]}, "bad severity"),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "valid",
                "findings": [{"rule": "r", "line": 0}]}, "line 0"),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "valid",
                "findings": [{"rule": "r", "pointer": "a/b"}]}, "pointer without leading /"),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "valid",
                "findings": {"rule": "r"}}, "findings an object"),
    ("result", {"type": "result", "id": "a", "status": "ok", "verdict": "valid",
                "output": "not base64!"}, "output not base64"),
    ("result", {"type": "result", "id": "a", "status": "errored", "message": 3},
     "message a number"),
    ("result", {"type": "case", "id": "a", "status": "ok", "verdict": "valid"}, "wrong type"),
    ("shutdown", {"type": "shutdown!"}, "wrong type"),
    ("shutdown", {}, "type missing"),
]

# Lines that are not acceptable messages whatever the schema says.
REJECT_LINES = [
    (b'{"type":"result","id":"a","id":"b","status":"skipped"}', "repeated member name"),
    (b'{"type":"result","id":"a","status":"ok","verdict":"valid","findings":[{"rule":"a",'
     b'"rule":"b"}]}', "repeated member name in a finding"),
    (b'{"type":"result","id":"a","status":"ok","verdict":"valid","x":NaN}', "NaN"),
    (b'["result"]', "not an object"),
    (b'{"type":"result","id":"\xff","status":"skipped"}', "not UTF-8"),
]


def check_handwritten():
    for kind, message in ACCEPT:
        errors = errors_of(kind, message)
        T.check(not errors, "should accept %s %s: %s" % (kind, json.dumps(message), errors))
    for kind, message, why in REJECT:
        T.check(bool(errors_of(kind, message)), "should reject %s (%s): %s"
                % (kind, why, json.dumps(message)))
    for raw, why in REJECT_LINES:
        try:
            message = parse_message(raw.decode("utf-8"))
            ok = bool(errors_of("result", message))
        except (UnicodeDecodeError, ValueError):
            ok = True
        T.check(ok, "should reject the line (%s): %r" % (why, raw))


# ---- 4. the example adapters, live -------------------------------------------------------------
def b64_file(name):
    with open(os.path.join(CASES, name), "rb") as f:
        return base64.b64encode(f.read()).decode("ascii")


# (case file, operation, limits): every status and both verdicts, awkward bytes, a skip.
LIVE_CASES = [
    ("11.1-minimal.spool", "validate", None),
    ("11.1-minimal.spool", "roundtrip", None),
    ("11.4.1-empty.spool", "validate", None),
    ("11.4.1-empty.spool", "roundtrip", None),
    ("11.5-crlf-no-final-newline.spool", "roundtrip", None),
    ("bom-minimal.spool", "validate", None),
    ("bom-minimal.spool", "roundtrip", None),
    ("utf8-ff-byte.spool", "validate", None),
    ("raw-nul-in-string.spool", "roundtrip", None),
    ("surrogate-lone-high.spool", "roundtrip", None),
    ("dup-member-ts.spool", "validate", None),
    ("11.3-unknown-fields.spool", "roundtrip", None),
    ("line-300.spool", "validate", {"max_line_bytes": 299}),
    ("base64-600kib.spool", "validate", {"max_base64_bytes": 65536}),
    ("depth-100000-arrays.spool", "roundtrip", None),
    ("11.1-minimal.spool", "hash", None),
]


def adapters():
    node = shutil.which("node") or shutil.which("nodejs")
    found = [("python", ["/usr/bin/python3", "runner/adapters/python/arcs_adapter.py"])]
    if T.check(node is not None, "node is not installed: the Node example adapter cannot be "
               "checked. Install Debian's nodejs (tools/setup.sh does)."):
        found.append(("node", [node, "runner/adapters/node/arcs_adapter.js"]))
    return found


def converse(name, command, requests, what, expected_answers, timeout=120):
    """Send every request line at once (plus EOF); check every output line. -> [messages]"""
    for request in requests:
        errors = errors_of(kind_of(request, ">"), request)  # the driver's own lines, too
        T.check(not errors, "%s: driver sent an invalid %s: %s" % (name, request["type"], errors))
    data = "".join(json.dumps(request) + "\n" for request in requests).encode("utf-8")
    try:
        done = subprocess.run(command, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        T.check(False, "%s %s: no exit within %d s" % (name, what, timeout))
        return []
    T.check(done.returncode == 0, "%s %s: exit status %d, stderr: %s"
            % (name, what, done.returncode, done.stderr[-2000:].decode("utf-8", "replace")))
    out = done.stdout
    if not T.check(out.endswith(b"\n") or not out, "%s %s: output does not end with a newline"
                   % (name, what)):
        out += b"\n"
    lines = out.split(b"\n")[:-1]
    T.check(len(lines) == expected_answers, "%s %s: %d lines on stdout, expected %d"
            % (name, what, len(lines), expected_answers))
    messages = []
    answerable = [r for r in requests if r["type"] in ("hello", "case")]
    for number, (raw, request) in enumerate(zip(lines, answerable), 1):
        expect = "implementation-hello" if request["type"] == "hello" else "result"
        message = check_line(raw, expect, "%s %s line %d" % (name, what, number))
        if message is not None and request["type"] == "case":
            T.check(message.get("id") == request["id"], "%s %s line %d: id %r, expected %r"
                    % (name, what, number, message.get("id"), request["id"]))
        messages.append(message)
    return messages


def check_adapter(name, command):
    hello = {"type": "hello", "protocol": 1, "formats": ["spool"]}
    cases = []
    for number, (file, operation, limits) in enumerate(LIVE_CASES, 1):
        case = {"type": "case", "id": "live-%d/%s" % (number, operation), "format": "spool",
                "operation": operation, "input": b64_file(file)}
        if limits:
            case["args"] = {"limits": limits}
        cases.append(case)
    messages = converse(name, command, [hello] + cases + [{"type": "shutdown"}], "conversation",
                        1 + len(cases))
    statuses = sorted({m.get("status") for m in messages[1:] if m})
    verdicts = sorted({m.get("verdict") for m in messages[1:] if m and m.get("verdict")})
    T.check({"ok", "skipped"} <= set(statuses) and verdicts == ["invalid", "valid"],
            "%s: the live cases should give ok (valid and invalid) and skipped, got %s %s"
            % (name, statuses, verdicts))
    print("%s adapter: statuses %s, verdicts %s" % (name, statuses, verdicts))
    # End of input without shutdown: answers everything, exits 0.
    converse(name, command, [hello] + cases[:2], "without shutdown", 3)
    # Many large answers at once, shutdown right behind them: none may be lost.
    big = {"type": "case", "format": "spool", "operation": "roundtrip",
           "input": b64_file("long-line-1mib.spool")}
    flood = [dict(big, id="flood-%d" % n) for n in range(12)]
    answers = converse(name, command, [hello] + flood + [{"type": "shutdown"}],
                       "with 12 answers of 1.4 MB", 13)
    T.check(all(a and a.get("status") == "ok" and len(a.get("output", "")) > 1000000
                for a in answers[1:]), "%s: the large answers are incomplete" % name)


def main():
    if not os.path.isfile(PROTOCOL):
        print("run from the repository root")
        return 2
    check_protocol_examples()
    check_handwritten()
    for name, command in adapters():
        check_adapter(name, command)
    print("check_messages: %d passed, %d failed, %d skipped" % (T.passed, T.failed, T.skipped))
    return 1 if T.failed else 0


if __name__ == "__main__":
    sys.exit(main())
