#!/usr/bin/env python3
"""ARCS runner protocol version 2 adapter for the clean-room Lightbox implementation.

Started as `python3 conformance/lightbox/independent/adapter.py` from the repository
root; works from any working directory.  One JSON object per line in, one per line
out; diagnostics go to stderr.
"""

import base64
import binascii
import importlib.util
import json
import os
import sys
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("lightbox_cr", os.path.join(_HERE, "lightbox_cr.py"))
lb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lb)

FORMAT = "lightbox"
OPERATIONS = ["validate", "verify", "hash", "read", "write"]
POLICY = lb.POLICY_REFUSE
MAX_FINDINGS = 1000


def log(msg):
    try:
        sys.stderr.write("lightbox-cr adapter: %s\n" % msg)
        sys.stderr.flush()
    except Exception:
        pass


def send(obj):
    line = json.dumps(obj, ensure_ascii=True, separators=(",", ":"))
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def b64(data):
    return base64.b64encode(data).decode("ascii")


def decode_input(value, name):
    if not isinstance(value, str):
        raise ValueError("input %r is not a base64 string" % name)
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError) as e:
        raise ValueError("input %r is not valid base64: %s" % (name, e))


def clean(s, limit=4000):
    """Text safe for any JSON reader: no lone surrogates (some decoders refuse them)."""
    s = str(s)[:limit]
    return s.encode("utf-8", "backslashreplace").decode("utf-8")


def findings_of(res):
    out = []
    for f in res.findings[:MAX_FINDINGS]:
        g = {"rule": f["rule"], "severity": f["severity"], "message": clean(f["message"])}
        if f.get("line") is not None:
            g["line"] = f["line"]
        if f.get("pointer") is not None:
            g["pointer"] = clean(f["pointer"])
        out.append(g)
    if res.dropped:
        out[-1] = {"rule": "LB-findings-cut", "severity": "note",
                   "message": "%d findings, the first %d shown"
                   % (len(res.findings) + res.dropped, len(out) - 1)}
    return out


def run_case(msg):
    cid = msg.get("id")
    op = msg.get("operation")
    if msg.get("format") != FORMAT or op not in OPERATIONS:
        return {"type": "result", "id": cid, "status": "skipped",
                "reason": "not supported: %s/%s" % (msg.get("format"), op)}
    inputs = msg.get("inputs")
    if not isinstance(inputs, dict):
        return {"type": "result", "id": cid, "status": "errored",
                "message": "case has no inputs object"}
    args = msg.get("args") or {}
    limits = None
    if isinstance(args, dict) and "limits" in args:
        limits = args["limits"]
        if not isinstance(limits, dict):
            return {"type": "result", "id": cid, "status": "skipped",
                    "reason": "args.limits is not an object"}
        # Lightbox names its event count max_events (vectors/README.md); PROTOCOL.md lists
        # only Spool's names, whose max_entries this implementation takes.
        if "max_events" in limits:
            limits = dict(limits)
            limits["max_entries"] = limits.pop("max_events")
        try:
            lb._limits(limits)
        except ValueError as e:
            return {"type": "result", "id": cid, "status": "skipped",
                    "reason": "cannot honour limits: %s" % e}
    try:
        events = decode_input(inputs.get("events", ""), "events")
        meta = None
        if "meta" in inputs and inputs["meta"] is not None and op != "hash" and op != "write":
            meta = decode_input(inputs["meta"], "meta")
    except ValueError as e:
        return {"type": "result", "id": cid, "status": "errored", "message": str(e)}
    if "events" not in inputs:
        log("case %r has no events input: treated as an empty events.jsonl" % cid)

    outputs = None
    if op == "validate":
        res = lb.validate(events, meta, limits)
    elif op == "verify":
        res = lb.verify(events, meta, limits, policy=POLICY)
        if not res.ok and res.first_broken is not None:
            outputs = {"first_broken": b64(str(res.first_broken).encode("ascii"))}
    elif op == "hash":
        res = lb.hash_events(events, limits)
        if res.ok:
            outputs = {"hashes": b64("".join(h + "\n" for h in res.hashes).encode("ascii"))}
    elif op == "read":
        res = lb.read(events, meta, limits, policy=POLICY)
    else:  # write
        res = lb.write(events, limits)
        if res.ok:
            outputs = {"events": b64(res.events_out)}
    answer = {"type": "result", "id": cid, "status": "ok",
              "verdict": "valid" if res.ok else "invalid"}
    f = findings_of(res)
    if f:
        answer["findings"] = f
    if outputs is not None:
        answer["outputs"] = outputs
    return answer


def hello():
    return {"type": "hello", "protocol": 2,
            "implementation": {"name": "lightbox-cleanroom-py", "version": "1.0.0",
                               "language": "Python"},
            "formats": {FORMAT: {"operations": OPERATIONS,
                                 "policies": {"unknown_schema_version": POLICY}}}}


def main():
    stdin = sys.stdin.buffer
    while True:
        try:
            raw = stdin.readline()
        except Exception as e:
            log("cannot read stdin: %s" % e)
            return 0
        if not raw:
            return 0
        if not raw.strip():
            continue
        try:
            msg = json.loads(raw)
        except Exception as e:  # includes RecursionError
            log("ignoring a line that is not JSON: %s" % str(e)[:200])
            continue
        del raw
        if not isinstance(msg, dict):
            log("ignoring a message that is not an object")
            continue
        t = msg.get("type")
        if t == "hello":
            send(hello())
        elif t == "shutdown":
            return 0
        elif t == "case":
            cid = msg.get("id")
            try:
                answer = run_case(msg)
            except RecursionError:
                answer = {"type": "result", "id": cid, "status": "ok", "verdict": "invalid",
                          "findings": [{"rule": "LB-limit-depth", "severity": "error",
                                        "message": "nesting deeper than this implementation "
                                                   "handles"}]}
            except MemoryError:
                answer = {"type": "result", "id": cid, "status": "errored",
                          "message": "internal error: out of memory"}
            except Exception as e:
                log(traceback.format_exc())
                answer = {"type": "result", "id": cid, "status": "errored",
                          "message": "internal error: %s: %s" % (type(e).__name__, str(e)[:1000])}
            msg = None
            send(answer)
        else:
            log("ignoring a message of type %r" % (t,))
    return 0


if __name__ == "__main__":
    try:
        code = main()
    except KeyboardInterrupt:
        code = 0
    sys.exit(code)
