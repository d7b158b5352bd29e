#!/usr/bin/env python3
"""ARCS runner protocol version 2 adapter for the clean-room
mcp-record-replay implementation (mcp_record_replay_cr.py next to this file).

Reads one JSON message per line on stdin, answers one line per case on
stdout, logs on stderr.  Never crashes on a case: every case is answered.
"""

import base64
import binascii
import importlib.util
import json
import os
import re
import sys
import traceback

FORMAT = "mcp-record-replay"
POLICIES = {"bom": "ignore", "blank_lines": "ignore"}
OPERATIONS = ["validate", "convert", "replay"]
MAX_ANSWER_FINDINGS = 500

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "mcp_record_replay_cr", os.path.join(_here, "mcp_record_replay_cr.py"))
impl = importlib.util.module_from_spec(_spec)
sys.modules["mcp_record_replay_cr"] = impl
_spec.loader.exec_module(impl)






def log(*parts):
    try:
        sys.stderr.write(" ".join(str(p) for p in parts) + "\n")
        sys.stderr.flush()
    except Exception:
        pass


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_lone_surrogates(v):
    # A finding's message may quote a lone surrogate escape of the input; json.dumps would write it
    # as "\ud800", which is no Unicode text and which the runner refuses as a protocol line.
    if isinstance(v, str):
        return _LONE_SURROGATE.sub("\ufffd", v)
    if isinstance(v, list):
        return [_no_lone_surrogates(x) for x in v]
    if isinstance(v, dict):
        return {_no_lone_surrogates(k): _no_lone_surrogates(x) for k, x in v.items()}
    return v


def send(obj):
    line = json.dumps(_no_lone_surrogates(obj), ensure_ascii=True, separators=(",", ":"))
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


class Skip(Exception):
    pass


def decode_input(inputs, name, required=True):
    if not isinstance(inputs, dict):
        raise ValueError("case has no inputs object")
    if name not in inputs:
        if required:
            raise ValueError(f"case lacks the input {name!r}")
        return None
    v = inputs[name]
    if not isinstance(v, str):
        raise ValueError(f"input {name!r} is not a base64 string")
    try:
        return base64.b64decode(v, validate=True)
    except (binascii.Error, ValueError) as e:
        raise ValueError(f"input {name!r} is not valid base64: {e}")


def clip_findings(findings):
    out = [dict(f) for f in findings[:MAX_ANSWER_FINDINGS]]
    if len(findings) > MAX_ANSWER_FINDINGS:
        out.append({"rule": "CR-too-many-findings", "severity": "note",
                    "message": f"{len(findings) - MAX_ANSWER_FINDINGS} more findings not sent"})
    return out


def check_args(args):
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise Skip("args is not an object")
    limits = args.get("limits")
    if limits not in (None, {}):
        raise Skip("resource limits are not configurable (fixed: see README.md)")
    return args


def op_validate(case, args):
    data = decode_input(case.get("inputs"), "recording")
    report = impl.validate(data)
    return {"status": "ok", "verdict": "valid" if report.valid else "invalid",
            "findings": clip_findings(report.findings)}


def refused(e):
    findings = list(getattr(e, "findings", []))
    if not findings:
        findings = [{"rule": "CR-usage", "severity": "error", "message": str(e)}]
    return {"status": "ok", "verdict": "invalid", "findings": clip_findings(findings)}


def op_convert(case, args):
    data = decode_input(case.get("inputs"), "recording")
    style = args.get("style", "simple")
    phase_after = args.get("phase_after")
    try:
        # arguments first: a CLI rejects them before reading the file
        if style not in ("simple", "phased"):
            raise impl.UsageError(f"--style: invalid value {style!r}")
        rec = impl.load(data, bom=POLICIES["bom"], blank_lines=POLICIES["blank_lines"])
        text, warnings = impl.convert(rec, style=style, phase_after=phase_after)
    except (impl.RecordingRefused, impl.UsageError) as e:
        return refused(e)
    findings = list(rec.findings) + [
        {"rule": "EC-REC-010" if "EC-REC-010" in w else "CR-convert", "severity": "warning", "message": w}
        for w in warnings]
    return {"status": "ok", "verdict": "valid", "findings": clip_findings(findings),
            "outputs": {"yaml": b64(text.encode("utf-8"))}}


def op_replay(case, args):
    inputs = case.get("inputs")
    data = decode_input(inputs, "recording")
    script = decode_input(inputs, "script", required=False) or b""
    upstream = decode_input(inputs, "upstream", required=False)
    options = {
        "match_mode": args.get("match_mode", "sequential"),
        "timing": args.get("timing", "instant"),
        "on_unmatched": args.get("on_unmatched", "error"),
    }
    try:
        # usage errors are found before the recording is read, as a CLI would
        if options["match_mode"] not in impl.MATCH_MODES:
            raise impl.UsageError(f"--match-mode: invalid value {options['match_mode']!r}")
        if options["on_unmatched"] not in impl.UNMATCHED:
            raise impl.UsageError(f"--on-unmatched: invalid value {options['on_unmatched']!r}")
        impl.parse_timing(options["timing"])
        if options["on_unmatched"] == "passthrough" and upstream is None:
            raise impl.UsageError("--on-unmatched passthrough needs --upstream")
        rec = impl.load(data, bom=POLICIES["bom"], blank_lines=POLICIES["blank_lines"])
        answers, end = impl.replay(rec, script, upstream=upstream, **options)
    except (impl.RecordingRefused, impl.UsageError) as e:
        return refused(e)
    except impl.PassthroughNeeded as e:
        raise Skip(f"an unmatched request ({e}) would go to the upstream stub, "
                   "whose table format this implementation cannot read")
    body = "".join(impl.dumps(a) + "\n" for a in answers)
    return {"status": "ok", "verdict": "valid", "findings": clip_findings(rec.findings),
            "outputs": {"answers": b64(body.encode("utf-8")), "end": b64(end.encode("ascii"))}}


HANDLERS = {"validate": op_validate, "convert": op_convert, "replay": op_replay}


def handle_case(msg):
    cid = msg.get("id")
    try:
        if msg.get("format") != FORMAT:
            return {"status": "skipped", "reason": f"format {msg.get('format')!r} not supported"}
        op = msg.get("operation")
        if op not in HANDLERS:
            return {"status": "skipped", "reason": f"operation {op!r} not supported"}
        args = check_args(msg.get("args"))
        return HANDLERS[op](msg, args)
    except Skip as e:
        return {"status": "skipped", "reason": str(e)}
    except RecursionError:
        return {"status": "ok", "verdict": "invalid",
                "findings": [{"rule": "CR-depth", "severity": "error",
                              "message": "nesting too deep (resource limit)"}]}
    except MemoryError:
        return {"status": "errored", "message": "out of memory"}
    except Exception as e:  # a genuine internal failure
        log(f"case {cid!r}:", traceback.format_exc())
        return {"status": "errored", "message": f"internal error: {type(e).__name__}: {e}"}


def main():
    stdin = sys.stdin.buffer
    while True:
        try:
            raw = stdin.readline()
        except KeyboardInterrupt:
            return 0
        if not raw:
            return 0  # EOF means shutdown
        if not raw.strip():
            continue
        try:
            msg = json.loads(raw)
        except Exception as e:
            log("unreadable message ignored:", e)
            continue
        if not isinstance(msg, dict):
            log("message is not an object; ignored")
            continue
        t = msg.get("type")
        if t == "hello":
            send({"type": "hello", "protocol": 2,
                  "implementation": {"name": "mcp-record-replay-cleanroom", "version": "0.1.0",
                                     "language": "Python"},
                  "formats": {FORMAT: {"operations": OPERATIONS, "policies": POLICIES}}})
        elif t == "case":
            cid = msg.get("id")
            answer = handle_case(msg)
            result = {"type": "result", "id": cid}
            result.update(answer)
            try:
                send(result)
            except Exception as e:  # e.g. unserialisable finding: still answer
                log("answer could not be written:", e)
                send({"type": "result", "id": cid, "status": "errored",
                      "message": f"internal error writing the answer: {e}"})
        elif t == "shutdown":
            return 0
        else:
            log(f"unknown message type {t!r} ignored")


if __name__ == "__main__":
    try:
        code = main()
    except BrokenPipeError:
        code = 0
    sys.exit(code)
