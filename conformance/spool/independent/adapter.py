#!/usr/bin/env python3
"""ARCS runner protocol (version 2) adapter for the clean-room Spool implementation.

Usage (from anywhere):  python3 conformance/spool/independent/adapter.py
Reads one JSON request per line on stdin, writes one JSON answer per line on stdout.
"""

import base64
import binascii
import importlib.util
import json
import os
import sys
import threading
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("spool_cr", os.path.join(_HERE, "spool_cr.py"))
spool_cr = importlib.util.module_from_spec(_spec)
sys.modules["spool_cr"] = spool_cr
_spec.loader.exec_module(spool_cr)

PROTOCOL = 2
POLICIES = {"invalid_line": "skip", "invalid_entry": "skip", "major_version": "reject"}
OPERATIONS = ["validate", "roundtrip"]

HELLO = {
    "type": "hello",
    "protocol": PROTOCOL,
    "implementation": {"name": "spool-cleanroom-py", "version": "1.0.0", "language": "Python"},
    "formats": {"spool": {"operations": OPERATIONS, "policies": POLICIES}},
}


def _scalar_values(obj):
    """obj with every string made of Unicode scalar values: a message or pointer that quotes a
    lone surrogate escape from the input (a member name "\\ud800") gets U+FFFD in its place,
    since the runner refuses a JSON answer that escapes a lone surrogate."""
    if isinstance(obj, str):
        return obj.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(obj, dict):
        return {_scalar_values(k): _scalar_values(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_scalar_values(v) for v in obj]
    return obj


def _send(obj):
    line = json.dumps(_scalar_values(obj), ensure_ascii=True, separators=(",", ":"))
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _log(msg):
    try:
        sys.stderr.write("spool-cleanroom: %s\n" % msg)
        sys.stderr.flush()
    except Exception:
        pass


def handle_case(req):
    cid = req.get("id")
    fmt = req.get("format")
    op = req.get("operation")
    if fmt != "spool":
        return {"type": "result", "id": cid, "status": "skipped", "reason": "format %r not supported" % fmt}
    if op not in OPERATIONS:
        return {"type": "result", "id": cid, "status": "skipped", "reason": "operation %r not supported" % op}
    inputs = req.get("inputs")
    if not isinstance(inputs, dict) or not isinstance(inputs.get("file"), str):
        return {"type": "result", "id": cid, "status": "errored", "message": "case has no inputs.file"}
    try:
        data = binascii.a2b_base64(inputs["file"].encode("ascii"), strict_mode=True)
    except (binascii.Error, ValueError, UnicodeEncodeError) as e:
        return {"type": "result", "id": cid, "status": "errored", "message": "inputs.file is not base64: %s" % e}
    args = req.get("args") or {}
    limits = args.get("limits") if isinstance(args, dict) else None
    if limits is not None and not isinstance(limits, dict):
        return {"type": "result", "id": cid, "status": "skipped", "reason": "args.limits is not an object"}
    try:
        if op == "validate":
            v = spool_cr.validate(data, limits, major_version=POLICIES["major_version"])
            ans = {"type": "result", "id": cid, "status": "ok",
                   "verdict": "valid" if v.valid else "invalid"}
            if v.findings:
                ans["findings"] = v.findings
            return ans
        r, out = spool_cr.roundtrip(data, limits, POLICIES["invalid_line"],
                                    POLICIES["invalid_entry"], POLICIES["major_version"])
        ans = {"type": "result", "id": cid, "status": "ok",
               "verdict": "valid" if r.accepted else "invalid"}
        if r.accepted:
            ans["outputs"] = {"file": base64.b64encode(out).decode("ascii")}
        if r.findings:
            ans["findings"] = r.findings
        return ans
    except spool_cr.LimitUnsupported as e:
        return {"type": "result", "id": cid, "status": "skipped", "reason": "limit: %s" % e}
    except MemoryError:
        return {"type": "result", "id": cid, "status": "errored", "message": "out of memory"}


def main():
    stdin = sys.stdin.buffer
    for raw in stdin:
        raw = raw.strip()
        if not raw:
            continue
        try:
            req = json.loads(raw)
        except Exception as e:
            _log("unreadable message ignored: %s" % e)
            continue
        if not isinstance(req, dict):
            _log("non-object message ignored")
            continue
        mtype = req.get("type")
        if mtype == "hello":
            _send(HELLO)
        elif mtype == "shutdown":
            return
        elif mtype == "case":
            try:
                ans = handle_case(req)
            except BaseException as e:          # never crash on one case
                if isinstance(e, (KeyboardInterrupt, SystemExit)):
                    raise
                _log(traceback.format_exc())
                ans = {"type": "result", "id": req.get("id"), "status": "errored",
                       "message": "internal error: %s: %s" % (type(e).__name__, e)}
            try:
                _send(ans)
            except Exception as e:
                _log(traceback.format_exc())
                _send({"type": "result", "id": req.get("id"), "status": "errored",
                       "message": "internal error while answering: %s" % e})
        else:
            _log("unknown message type %r ignored" % (mtype,))


if __name__ == "__main__":
    # Run in a thread with a large stack so deep (limit-permitted) JSON parses safely.
    threading.stack_size(256 * 1024 * 1024)
    status = {"rc": 0}

    def run():
        try:
            main()
        except BrokenPipeError:
            pass
        except Exception:
            _log(traceback.format_exc())
            status["rc"] = 1

    t = threading.Thread(target=run, name="adapter")
    t.start()
    t.join()
    try:
        sys.stdout.flush()
    except Exception:
        pass
    os._exit(status["rc"])
