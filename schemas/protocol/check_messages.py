#!/usr/bin/python3
"""Checks the runner protocol's JSON Schemas (schemas/protocol/) against the protocol's text and
against the two example adapters.

Run from the repository root (ctest `protocol_schemas` does):

    /usr/bin/python3 schemas/protocol/check_messages.py

It
  1. checks that the five schemas are valid draft 2020-12 schemas;
  2. extracts every example message of runner/PROTOCOL.md (the JSON in its ```json blocks, and
     the `>` / `<` lines of its transcript) and validates each against the schema of its kind;
     examples whose base64 value (in inputs or outputs) is a placeholder ("...", "<base64>") are
     listed as skipped; the transcript of §5 must be a real exchange: every input and output in
     it is the bytes of vectors/spool/cases/11.1-minimal.spool (the §11.1 file, read and written
     back as is);
  3. validates further hand-written messages that must be accepted, and negative ones that must
     be rejected (missing id, bad status, ok without a verdict, protocol 1, version 1's "input"
     and "output", inputs not an object, a non-base64 input, repeated member name, ...);
  4. drives each example adapter (runner/adapters/python with python3, runner/adapters/node with
     node) with a small stdlib driver: the runner's hello, cases built from vectors/spool/cases,
     shutdown; then the same without shutdown (end of input); then many large answers at once
     (answers must not be lost when stdout is a full pipe). Every line the adapter prints must
     be one strict JSON object (UTF-8, no repeated member name, no NaN) valid against the schema
     of its kind, one answer per request, in order, ids echoed; the adapter must exit 0. Beyond
     the schemas: the expected statuses and verdicts of a few cases, outputs {"file": ...} on
     every valid roundtrip and no outputs elsewhere, an input the operation does not read
     ignored, and an args member the adapter cannot honour answered "skipped".

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


def check_transcript_bytes(where, member, name, value):
    """§5 is a complete exchange: its base64 is real, and its input is the §11.1 vector."""
    try:
        data = base64.b64decode(value, validate=True)
    except (ValueError, TypeError) as error:
        T.check(False, "%s: %s.%s is not base64: %s" % (where, member, name, error))
        return
    with open(os.path.join(CASES, "11.1-minimal.spool"), "rb") as f:
        minimal = f.read()
    T.check(data == minimal, "%s: %s.%s is not the bytes of %s/11.1-minimal.spool"
            % (where, member, name, CASES))


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
        for member in ("inputs", "outputs"):
            named = message.get(member)
            if not isinstance(named, dict):
                continue
            for name, value in named.items():
                if isinstance(value, str) and PLACEHOLDER.search(value):
                    T.skip("%s: %s example: %s.%s %r is a placeholder, not base64 (the rest is "
                           "checked)" % (where, kind, member, name, value[-20:]))
                    named[name] = "AA=="
                elif direction is not None:  # the transcript: real bytes
                    check_transcript_bytes(where, member, name, value)
        errors = errors_of(kind, message)
        T.check(not errors, "%s: %s example rejected: %s" % (where, kind, "; ".join(errors)))
        seen.add(kind)
    missing = [kind for kind in KINDS if kind not in seen]
    T.check(not missing, "PROTOCOL.md has no example of: %s" % ", ".join(missing))
    print("PROTOCOL.md: %d example messages" % len(examples))


# ---- 3. hand-written positive and negative messages -------------------------------------------
HELLO = {"type": "hello", "protocol": 2, "implementation": {"name": "x", "version": "1",
         "language": "C"}, "formats": {"spool": {"operations": ["validate"]}}}


def with_(base, **changes):
    message = json.loads(json.dumps(base))
    for key, value in changes.items():
        if value is None:
            message.pop(key, None)
        else:
            message[key] = value
    return message


CASE = {"type": "case", "id": "a", "format": "spool", "operation": "validate",
        "inputs": {"file": "AA=="}}
OK = {"type": "result", "id": "a", "status": "ok", "verdict": "valid"}

ACCEPT = [
    ("runner-hello", {"type": "hello", "protocol": 2, "formats": []}),
    ("runner-hello", {"type": "hello", "protocol": 2, "formats": ["spool"], "x_later": True}),
    ("implementation-hello", HELLO),
    ("implementation-hello", with_(HELLO, formats={})),
    ("implementation-hello", with_(HELLO, formats={"spool": {"operations": [], "policies": {
        "invalid_line": "skip", "invalid_entry": "keep", "major_version": "reject"}}})),
    ("implementation-hello", with_(HELLO, formats={"lightbox": {"operations": ["hash"],
                                                                "policies": {"any": "thing"}}})),
    ("case", {"type": "case", "id": "", "format": "spool", "operation": "validate",
              "inputs": {"file": ""}}),
    ("case", with_(CASE, inputs={})),
    ("case", with_(CASE, operation="roundtrip", inputs={"file": "AA=="},
                   args={"limits": {"max_line_bytes": 0, "max_file_bytes": 9223372036854775807}})),
    ("case", with_(CASE, operation="x", inputs={"file": "AAA="}, args={})),
    ("case", with_(CASE, format="lightbox", operation="replay",
                   inputs={"events.jsonl": "AAAA", "meta.json": "e30="},
                   args={"mode": "strict", "options": {"n": [1, 2]}})),
    ("case", with_(CASE, x_later={"input": 1})),
    ("result", with_(OK, verdict="invalid", findings=[
        {"rule": "SP-3.4-1"},
        {"rule": "SP-3.5-1", "severity": "warning", "line": 3, "pointer": "/a~1b/0",
         "message": "m"},
        {"rule": "r", "severity": "note", "pointer": ""}])),
    ("result", with_(OK, outputs={"file": ""})),
    ("result", with_(OK, outputs={"file": "eA==", "meta.json": "e30="})),
    ("result", with_(OK, outputs={})),
    ("result", {"type": "result", "id": "a", "status": "skipped"}),
    ("result", {"type": "result", "id": "a", "status": "skipped", "reason": "limits"}),
    ("result", {"type": "result", "id": "a", "status": "errored", "message": "boom",
                "x_extra": 1}),
    ("shutdown", {"type": "shutdown"}),
]

REJECT = [
    ("runner-hello", {"type": "hello", "formats": ["spool"]}, "protocol missing"),
    ("runner-hello", {"type": "hello", "protocol": 1, "formats": ["spool"]}, "protocol 1"),
    ("runner-hello", {"type": "hello", "protocol": 3, "formats": ["spool"]}, "protocol 3"),
    ("runner-hello", {"type": "hello", "protocol": True, "formats": ["spool"]}, "protocol true"),
    ("runner-hello", {"type": "hello", "protocol": 2, "formats": "spool"}, "formats a string"),
    ("runner-hello", {"type": "hello", "protocol": 2}, "formats missing"),
    ("implementation-hello", with_(HELLO, protocol=1), "protocol 1 (version 1 is dropped)"),
    ("implementation-hello", with_(HELLO, protocol="2"), "protocol a string"),
    ("implementation-hello", with_(HELLO, protocol=2.5), "protocol a fraction"),
    ("implementation-hello", with_(HELLO, protocol=None), "protocol missing"),
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
    ("case", with_(CASE, id=None), "id missing"),
    ("case", with_(CASE, id=7), "id a number"),
    ("case", with_(CASE, format=None), "format missing"),
    ("case", with_(CASE, operation=None), "operation missing"),
    ("case", with_(CASE, inputs=None), "inputs missing"),
    ("case", with_(CASE, inputs=None, input="AA=="), "version 1's input instead of inputs"),
    ("case", with_(CASE, inputs="AA=="), "inputs a string (not an object)"),
    ("case", with_(CASE, inputs=["AA=="]), "inputs an array"),
    ("case", with_(CASE, inputs={"file": 0}), "an input a number"),
    ("case", with_(CASE, inputs={"file": None}), "an input null"),
    ("case", with_(CASE, inputs={"file": {"base64": "AA=="}}), "an input an object"),
    ("case", with_(CASE, inputs={"file": "not base64!"}), "an input not base64"),
    ("case", with_(CASE, inputs={"file": "AA"}), "base64 without padding"),
    ("case", with_(CASE, inputs={"file": "AAA=\n"}), "base64 with a trailing newline"),
    ("case", with_(CASE, inputs={"file": "AA AA="}), "base64 with a space"),
    ("case", with_(CASE, inputs={"file": "-_8="}), "base64url alphabet"),
    ("case", with_(CASE, inputs={"file": "A==="}), "too much padding"),
    ("case", with_(CASE, inputs={"file": "AB=="}), "non-zero pad bits (==)"),
    ("case", with_(CASE, inputs={"file": "AAB="}), "non-zero pad bits (=)"),
    ("case", with_(CASE, inputs={"file": "AA==", "meta.json": "x"}), "a second input not base64"),
    ("case", with_(CASE, args=[]), "args an array"),
    ("case", with_(CASE, args="limits"), "args a string"),
    ("case", with_(CASE, args={"limits": {"max_line_bytes": -1}}), "negative limit"),
    ("case", with_(CASE, args={"limits": {"max_line_bytes": 1.5}}), "fractional limit"),
    ("case", with_(CASE, args={"limits": {"max_line_bytes": "10"}}), "limit a string"),
    ("case", with_(CASE, args={"limits": {"max_file_bytes": 9223372036854775808}}),
     "limit above 2^63-1"),
    ("case", with_(CASE, args={"limits": [1]}), "limits an array"),
    ("result", {"type": "result", "status": "ok", "verdict": "valid"}, "id missing"),
    ("result", {"type": "result", "id": "a", "verdict": "valid"}, "status missing"),
    ("result", with_(OK, status="passed"), "bad status"),
    ("result", with_(OK, verdict=None), "ok without a verdict"),
    ("result", with_(OK, verdict="accept"), "bad verdict"),
    ("result", with_(OK, findings=[{"severity": "error"}]), "finding without rule"),
    ("result", with_(OK, findings=[{"rule": "r", "severity": "fatal"}]), "bad severity"),
    ("result", with_(OK, findings=[{"rule": "r", "line": 0}]), "line 0"),
    ("result", with_(OK, findings=[{"rule": "r", "pointer": "a/b"}]),
     "pointer without leading /"),
    ("result", with_(OK, findings={"rule": "r"}), "findings an object"),
    ("result", with_(OK, output="AA=="), "version 1's output instead of outputs"),
    ("result", with_(OK, outputs="AA=="), "outputs a string (not an object)"),
    ("result", with_(OK, outputs=["AA=="]), "outputs an array"),
    ("result", with_(OK, outputs={"file": "not base64!"}), "an output not base64"),
    ("result", with_(OK, outputs={"file": 1}), "an output a number"),
    ("result", with_(OK, outputs={"file": "AB=="}), "an output with non-zero pad bits"),
    ("result", {"type": "result", "id": "a", "status": "errored", "message": 3},
     "message a number"),
    ("result", with_(OK, type="case"), "wrong type"),
    ("shutdown", {"type": "shutdown!"}, "wrong type"),
    ("shutdown", {}, "type missing"),
]

# Lines that are not acceptable messages whatever the schema says.
REJECT_LINES = [
    (b'{"type":"result","id":"a","id":"b","status":"skipped"}', "repeated member name"),
    (b'{"type":"result","id":"a","status":"ok","verdict":"valid","findings":[{"rule":"a",'
     b'"rule":"b"}]}', "repeated member name in a finding"),
    (b'{"type":"result","id":"a","status":"ok","verdict":"valid","outputs":{"file":"",'
     b'"file":"AA=="}}', "repeated output name"),
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


# (case file, operation, args, what the answer must be): every status and both verdicts, awkward
# bytes, skips. "ok" means status ok with any verdict; None means any answer.
LIVE_CASES = [
    ("11.1-minimal.spool", "validate", None, "valid"),
    ("11.1-minimal.spool", "roundtrip", None, "valid"),
    ("11.4.1-empty.spool", "validate", None, "invalid"),
    ("11.4.1-empty.spool", "roundtrip", None, "invalid"),
    ("11.5-crlf-no-final-newline.spool", "roundtrip", None, "ok"),
    ("bom-minimal.spool", "validate", None, "ok"),
    ("bom-minimal.spool", "roundtrip", None, "ok"),
    ("utf8-ff-byte.spool", "validate", None, "invalid"),
    ("raw-nul-in-string.spool", "roundtrip", None, None),
    ("surrogate-lone-high.spool", "roundtrip", None, None),
    ("dup-member-ts.spool", "validate", None, None),
    ("11.3-unknown-fields.spool", "roundtrip", None, "ok"),
    ("line-300.spool", "validate", {"limits": {"max_line_bytes": 299}}, "invalid"),
    ("line-300.spool", "roundtrip", {"limits": {"max_line_bytes": 300}}, "valid"),
    ("base64-600kib.spool", "validate", {"limits": {"max_base64_bytes": 65536}}, "skipped"),
    ("11.1-minimal.spool", "validate", {"x_not_an_arg": True}, "skipped"),
    ("depth-100000-arrays.spool", "roundtrip", None, None),
    ("11.1-minimal.spool", "hash", None, "skipped"),
]


def live_cases():
    cases = []
    for number, (file, operation, args, want) in enumerate(LIVE_CASES, 1):
        case = {"type": "case", "id": "live-%d/%s" % (number, operation), "format": "spool",
                "operation": operation, "inputs": {"file": b64_file(file)}}
        if number == 2:  # an input the operation does not read is ignored
            case["inputs"]["x_other"] = "AA=="
        if args is not None:
            case["args"] = args
        cases.append((case, want))
    return cases


def check_answer(name, case, answer, want):
    """What a version 2 answer to `case` must hold beyond its schema."""
    if answer is None:
        return
    what = "%s %s" % (name, case["id"])
    status, verdict = answer.get("status"), answer.get("verdict")
    if want in ("valid", "invalid"):
        T.check(status == "ok" and verdict == want, "%s: expected ok %s, got %s %s (%s)"
                % (what, want, status, verdict, answer.get("message") or answer.get("reason")))
    elif want in ("ok", "skipped"):
        T.check(status == want, "%s: expected status %s, got %s (%s)"
                % (what, want, status, answer.get("message") or answer.get("reason")))
    T.check("output" not in answer, "%s: version 1's \"output\" in the answer" % what)
    outputs = answer.get("outputs")
    writes = status == "ok" and verdict == "valid" and case["operation"] == "roundtrip"
    if not writes:
        T.check(not outputs, "%s: outputs in an answer that writes nothing: %s"
                % (what, sorted(outputs or {})))
        return
    if not T.check(isinstance(outputs, dict) and sorted(outputs) == ["file"],
                   "%s: a valid roundtrip must answer outputs {\"file\": ...}, got %r"
                   % (what, sorted(outputs) if isinstance(outputs, dict) else outputs)):
        return
    written = base64.b64decode(outputs["file"], validate=True)
    T.check(written.endswith(b"\n") and b"\r" not in written,
            "%s: the written file is not LF-ended lines: %r" % (what, written[-40:]))
    if case["id"].startswith("live-2/"):  # 11.1-minimal: compact already, written back as is
        T.check(written == base64.b64decode(case["inputs"]["file"]),
                "%s: the §11.1 line is not written back byte for byte: %r" % (what, written))


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
    hello = {"type": "hello", "protocol": 2, "formats": ["spool"]}
    cases = live_cases()
    requests = [case for case, _ in cases]
    messages = converse(name, command, [hello] + requests + [{"type": "shutdown"}],
                        "conversation", 1 + len(cases))
    for (case, want), answer in zip(cases, messages[1:]):
        check_answer(name, case, answer, want)
    statuses = sorted({m.get("status") for m in messages[1:] if m})
    verdicts = sorted({m.get("verdict") for m in messages[1:] if m and m.get("verdict")})
    T.check({"ok", "skipped"} <= set(statuses) and verdicts == ["invalid", "valid"],
            "%s: the live cases should give ok (valid and invalid) and skipped, got %s %s"
            % (name, statuses, verdicts))
    print("%s adapter: statuses %s, verdicts %s" % (name, statuses, verdicts))
    # End of input without shutdown: answers everything, exits 0.
    converse(name, command, [hello] + requests[:2], "without shutdown", 3)
    # Many large answers at once, shutdown right behind them: none may be lost.
    big = {"type": "case", "format": "spool", "operation": "roundtrip",
           "inputs": {"file": b64_file("long-line-1mib.spool")}}
    flood = [dict(big, id="flood-%d" % n) for n in range(12)]
    answers = converse(name, command, [hello] + flood + [{"type": "shutdown"}],
                       "with 12 answers of 1.4 MB", 13)
    T.check(all(a and a.get("status") == "ok"
                and len((a.get("outputs") or {}).get("file", "")) > 1000000
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
