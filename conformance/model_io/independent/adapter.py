#!/usr/bin/env python3
"""ARCS runner protocol version 2 adapter for the clean-room Model IO implementation.

Started as `python3 conformance/model_io/independent/adapter.py`; works from any cwd.
Reads one JSON request per line on stdin, writes one JSON answer per case on stdout.
"""

import base64
import binascii
import importlib.util
import json
import os
import re
import sys
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_impl():
    path = os.path.join(_HERE, "model_io_cr.py")
    spec = importlib.util.spec_from_file_location("model_io_cr", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["model_io_cr"] = mod
    spec.loader.exec_module(mod)
    return mod


impl = _load_impl()

FORMAT = "model-io"
OPERATIONS = ["validate", "hash", "canonicalize"]
POLICIES = {"violation_order": "code-unit"}


def log(msg):
    try:
        sys.stderr.write(msg.rstrip("\n")[:4000] + "\n")
        sys.stderr.flush()
    except Exception:
        pass


# A Python str read from JSON may hold a lone surrogate (a \udXXX escape without its partner);
# json.dumps would write it back as that escape, which is not a Unicode scalar value and which the
# runner refuses as a protocol error. Answers carry U+FFFD in its place.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _scalars(v):
    if isinstance(v, str):
        return _LONE_SURROGATE.sub("\ufffd", v)
    if isinstance(v, dict):
        return {_scalars(k): _scalars(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_scalars(x) for x in v]
    return v


def send(obj):
    line = json.dumps(_scalars(obj), ensure_ascii=True, separators=(",", ":"))
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _findings(fs):
    return [f.as_dict() for f in fs]


def handle_case(req):
    cid = req.get("id")
    fmt = req.get("format")
    op = req.get("operation")
    if fmt != FORMAT or op not in OPERATIONS:
        return {"status": "skipped", "reason": f"not supported: {fmt}/{op}"}
    inputs = req.get("inputs")
    if not isinstance(inputs, dict) or not isinstance(inputs.get("file"), str):
        return {"status": "errored", "message": "the case has no input 'file'"}
    try:
        data = base64.b64decode(inputs["file"], validate=True)
    except (binascii.Error, ValueError) as e:
        return {"status": "errored", "message": f"input 'file' is not base64: {e}"}
    args = req.get("args") or {}
    limits = args.get("limits") if isinstance(args, dict) else None
    if not isinstance(args, dict) or set(args) - {"limits"} or (limits is not None and not isinstance(limits, dict)):
        return {"status": "skipped", "reason": f"cannot honour args {json.dumps(args)[:200]}"}
    limits = limits or {}
    # PROTOCOL.md: "An implementation that cannot honour an arg answers `skipped`". The nesting
    # depth is the one limit the implementation has (MAX_DEPTH, whose 512 CPython's recursive
    # parser can reach); it is set for this case only.
    depth = limits.get("max_json_depth", impl.MAX_DEPTH)
    if set(limits) - {"max_json_depth"} or type(depth) is not int or not 0 <= depth <= impl.MAX_DEPTH:
        return {"status": "skipped", "reason": f"cannot honour limits {json.dumps(limits)[:200]}"}
    saved_depth = impl.MAX_DEPTH
    impl.MAX_DEPTH = depth
    try:
        return _run(op, data)
    finally:
        impl.MAX_DEPTH = saved_depth


def _run(op, data):
    if op == "validate":
        ok, fs = impl.validate(data)
        return {"status": "ok", "verdict": "valid" if ok else "invalid", "findings": _findings(fs)}

    try:
        if op == "hash":
            h = impl.model_io_hash(data)
            return {"status": "ok", "verdict": "valid", "outputs": {"hash": _b64(h.encode("ascii"))}}
        canon = impl.canonical_core(data)
        return {"status": "ok", "verdict": "valid", "outputs": {"canonical": _b64(canon)}}
    except (impl.DocumentError, impl.NoCoreError) as e:
        return {"status": "ok", "verdict": "invalid", "findings": [e.finding().as_dict()]}


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
            req = json.loads(raw)
        except Exception as e:  # noqa: BLE001
            log(f"unreadable request line ({len(raw)} bytes): {e}")
            continue
        if not isinstance(req, dict):
            log("request is not a JSON object; ignored")
            continue
        kind = req.get("type")
        if kind == "hello":
            send({
                "type": "hello",
                "protocol": 2,
                "implementation": {"name": "model-io-cleanroom", "version": "1.0.0",
                                   "language": "Python"},
                "formats": {FORMAT: {"operations": OPERATIONS, "policies": POLICIES}},
            })
        elif kind == "shutdown":
            return 0
        elif kind == "case":
            cid = req.get("id")
            try:
                ans = handle_case(req)
            except RecursionError:
                ans = {"status": "ok", "verdict": "invalid",
                       "findings": [{"rule": "json-depth", "severity": "error", "pointer": "",
                                     "message": "nesting too deep"}]}
            except MemoryError:
                ans = {"status": "errored", "message": "internal error: out of memory"}
            except Exception as e:  # noqa: BLE001
                log(traceback.format_exc())
                ans = {"status": "errored", "message": f"internal error: {type(e).__name__}: {e}"[:4000]}
            out = {"type": "result", "id": cid}
            out.update(ans)
            try:
                send(out)
            except (BrokenPipeError, OSError):
                return 0
        else:
            log(f"ignoring message of unknown type {kind!r}")


if __name__ == "__main__":
    try:
        rc = main()
    except (BrokenPipeError, KeyboardInterrupt):
        rc = 0
    try:
        sys.stdout.flush()
    except Exception:
        pass
    sys.exit(rc or 0)
