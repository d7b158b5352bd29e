#!/usr/bin/env python3
"""ARCS runner protocol version 2 adapter for the clean-room SessionData
implementation (session_data_cr.py, beside this file).

Format `session-data`; operations `validate` and `render`; policy
`statement` = `both` (override with SESSION_DATA_CR_STATEMENT=rules|schema|both
for experiments; the hello always declares what is really enforced).
"""

import base64
import binascii
import importlib.util
import json
import os
import sys
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_impl():
    spec = importlib.util.spec_from_file_location(
        "session_data_cr", os.path.join(_HERE, "session_data_cr.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules["session_data_cr"] = mod
    spec.loader.exec_module(mod)
    return mod


impl = _load_impl()

FORMAT = "session-data"
STATEMENT = os.environ.get("SESSION_DATA_CR_STATEMENT", "both")
if STATEMENT not in impl.STATEMENTS:
    STATEMENT = "both"
OPERATIONS = ["validate", "render"]
# Limits a case may set in args.limits; any other limit makes the case skipped.
KNOWN_LIMITS = {"max_json_depth", "max_file_bytes"}


def _scrub(v):
    """Lone surrogates (from \\ud800 escapes in the input, copied into finding messages) as
    U+FFFD: json.dumps would write them as escapes that name no character, which is not a valid
    protocol line."""
    if isinstance(v, str):
        return v.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(v, dict):
        return {_scrub(k): _scrub(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_scrub(x) for x in v]
    return v


def send(obj) -> None:
    line = json.dumps(_scrub(obj), ensure_ascii=True, separators=(",", ":"))
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log(msg: str) -> None:
    try:
        sys.stderr.write(msg.rstrip("\n") + "\n")
        sys.stderr.flush()
    except Exception:
        pass


def hello_answer():
    return {
        "type": "hello",
        "protocol": 2,
        "implementation": {
            "name": "session-data-cleanroom",
            "version": "1.0.0",
            "language": "Python",
        },
        "formats": {
            FORMAT: {"operations": OPERATIONS, "policies": {"statement": STATEMENT}},
        },
    }


def _findings(report):
    out = list(report.findings)
    if report.dropped:
        out.append({"rule": "findings-capped", "severity": "note",
                    "message": f"{report.dropped} further finding(s) not listed"})
    return out


def run_case(msg):
    cid = msg.get("id")
    if msg.get("format") != FORMAT:
        return {"type": "result", "id": cid, "status": "skipped",
                "reason": f"format {msg.get('format')!r} is not supported"}
    op = msg.get("operation")
    if op not in OPERATIONS:
        return {"type": "result", "id": cid, "status": "skipped",
                "reason": f"operation {op!r} is not supported"}
    inputs = msg.get("inputs")
    if not isinstance(inputs, dict) or not isinstance(inputs.get("file"), str):
        return {"type": "result", "id": cid, "status": "errored",
                "message": "case has no base64 input 'file'"}
    try:
        data = base64.b64decode(inputs["file"], validate=True)
    except (binascii.Error, ValueError) as e:
        return {"type": "result", "id": cid, "status": "errored",
                "message": f"input 'file' is not base64: {e}"}

    max_depth = impl.MAX_DEPTH
    max_file = None
    args = msg.get("args")
    if isinstance(args, dict) and isinstance(args.get("limits"), dict):
        limits = args["limits"]
        unknown = sorted(set(limits) - KNOWN_LIMITS)
        if unknown:
            return {"type": "result", "id": cid, "status": "skipped",
                    "reason": f"limits not configurable: {', '.join(unknown)}"}
        if isinstance(limits.get("max_json_depth"), int):
            max_depth = limits["max_json_depth"]
        if isinstance(limits.get("max_file_bytes"), int):
            max_file = limits["max_file_bytes"]

    if max_file is not None and len(data) > max_file:
        return {"type": "result", "id": cid, "status": "ok", "verdict": "invalid",
                "findings": [{"rule": "limit-file-bytes", "severity": "error",
                              "message": f"file is {len(data)} bytes, limit {max_file}"}]}

    if op == "validate":
        report = impl.validate(data, STATEMENT, max_depth=max_depth)
        return {"type": "result", "id": cid, "status": "ok",
                "verdict": "valid" if report.ok else "invalid",
                "findings": _findings(report)}
    # render
    report, markdown = impl.render(data, max_depth=max_depth)
    ans = {"type": "result", "id": cid, "status": "ok",
           "verdict": "valid" if markdown is not None else "invalid",
           "findings": _findings(report)}
    if markdown is not None:
        ans["outputs"] = {"markdown": base64.b64encode(
            markdown.encode("utf-8", "replace")).decode("ascii")}
    return ans


def main() -> int:
    # Nested tool input/output is rendered recursively (at most MAX_DEPTH
    # levels deep, a few frames each): leave room above that.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * impl.MAX_DEPTH + 200))
    stdin = sys.stdin.buffer
    while True:
        try:
            raw = stdin.readline()
        except KeyboardInterrupt:
            return 0
        if not raw:
            return 0  # end of file means shutdown
        if not raw.strip():
            continue
        try:
            msg = json.loads(raw)
        except Exception as e:  # noqa: BLE001
            log(f"ignoring a line that is not JSON: {e}")
            continue
        if not isinstance(msg, dict):
            log("ignoring a message that is not an object")
            continue
        mtype = msg.get("type")
        if mtype == "hello":
            send(hello_answer())
        elif mtype == "shutdown":
            return 0
        elif mtype == "case":
            cid = msg.get("id")
            try:
                ans = run_case(msg)
            except RecursionError:
                ans = {"type": "result", "id": cid, "status": "ok", "verdict": "invalid",
                       "findings": [{"rule": "json-depth", "severity": "error",
                                     "message": "nesting too deep for this implementation"}]}
            except MemoryError:
                ans = {"type": "result", "id": cid, "status": "errored",
                       "message": "internal error: out of memory"}
            except Exception as e:  # noqa: BLE001
                log(traceback.format_exc())
                ans = {"type": "result", "id": cid, "status": "errored",
                       "message": f"internal error: {type(e).__name__}: {e}"}
            try:
                send(ans)
            except Exception as e:  # noqa: BLE001
                log(traceback.format_exc())
                send({"type": "result", "id": cid, "status": "errored",
                      "message": f"internal error while answering: {type(e).__name__}"})
        else:
            log(f"ignoring a message of unknown type {mtype!r}")


if __name__ == "__main__":
    try:
        code = main()
    except BrokenPipeError:
        code = 0
    sys.exit(code)
