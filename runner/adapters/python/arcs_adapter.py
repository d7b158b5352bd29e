#!/usr/bin/env python3
"""An ARCS protocol adapter (runner/PROTOCOL.md, protocol 2), Python 3 standard library only.

    build/arcs run --impl 'python3 runner/adapters/python/arcs_adapter.py'

Reads one JSON request per line on stdin, writes one JSON answer per line on stdout, logs to
stderr. To certify your own Spool library: copy this file, replace `toy_spool` below with your
library, adjust IMPLEMENTATION, FORMATS and the two handlers. The loop at the bottom stays.

A case carries named inputs (base64 on the wire; Spool has one, "file") and an optional args
object whose meaning is the format's (Spool: args.limits). A handler receives the inputs decoded
to bytes and the args, and returns the answer's members; outputs (Spool roundtrip: "file") are
returned as bytes and encoded by the loop.
"""

import base64
import json
import sys

import toy_spool  # <-- REPLACE: import your own library here.

IMPLEMENTATION = {  # <-- REPLACE: your implementation's identity.
    "name": "toy-spool-python",
    "version": "0.1",
    "language": "Python",
    "homepage": "runner/adapters/python",  # a URL for a real implementation
}
FORMATS = {"spool": {"operations": ["validate", "roundtrip"], "policies": toy_spool.POLICIES}}


class Skip(Exception):
    """Raised by a handler that does not do this case: answered as status "skipped"."""


def spool_limits(args):
    """Spool's args: only "limits" (name -> integer). Anything this toy cannot honour is a skip."""
    unknown = sorted(set(args) - {"limits"})
    if unknown:
        raise Skip("args not supported: " + ", ".join(unknown))
    limits = args.get("limits") or {}
    unsupported = sorted(set(limits) - toy_spool.LIMITS)
    if unsupported:
        raise Skip("limits not configurable: " + ", ".join(unsupported))
    return limits


# Handlers: (inputs {name: bytes}, args dict) -> the answer's members, with "outputs" as
# {name: bytes}. Raise Skip to skip; any other exception becomes status "errored" with its
# message.  <-- REPLACE the toy calls.
def spool_validate(inputs, args):
    limits = spool_limits(args)
    valid, findings = toy_spool.validate(inputs["file"], limits)
    return {"verdict": "valid" if valid else "invalid", "findings": findings}


def spool_roundtrip(inputs, args):
    limits = spool_limits(args)
    try:
        entries = toy_spool.read(inputs["file"], limits)
    except toy_spool.Rejected as rejected:
        finding = {"rule": rejected.rule, "message": str(rejected)}
        return {"verdict": "invalid", "findings": [finding]}
    return {"verdict": "valid", "outputs": {"file": toy_spool.write(entries)}}


HANDLERS = {("spool", "validate"): spool_validate, ("spool", "roundtrip"): spool_roundtrip}


# ---- the protocol loop: nothing below needs changing ------------------------------------------
PROTOCOL = 2  # the runner protocol version this loop speaks (runner/PROTOCOL.md)


def text(value):
    """Any exception text as valid UTF-8 (a lone surrogate would make the answer unreadable)."""
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")  # ASCII, one line
    sys.stdout.flush()


def answer(request):
    handler = HANDLERS.get((request.get("format"), request.get("operation")))
    if handler is None:
        return {"status": "skipped", "reason": "operation not supported"}
    try:
        inputs = {name: base64.b64decode(value, validate=True)
                  for name, value in request["inputs"].items()}
        members = handler(inputs, request.get("args") or {})
        if "outputs" in members:
            members["outputs"] = {name: base64.b64encode(data).decode("ascii")
                                  for name, data in members["outputs"].items()}
        return dict({"status": "ok"}, **members)
    except Skip as skip:
        return {"status": "skipped", "reason": text(skip)}
    except Exception as error:  # noqa: BLE001 - the runner must hear about every failure
        return {"status": "errored", "message": text("%s: %s" % (type(error).__name__, error))}


def main():
    for line in sys.stdin.buffer:  # bytes: the runner's lines are UTF-8 JSON
        request = json.loads(line)
        kind = request.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "implementation": IMPLEMENTATION,
                  "formats": FORMATS})
        elif kind == "case":
            send(dict({"type": "result", "id": request["id"]}, **answer(request)))
        elif kind == "shutdown":
            break
        else:
            print("arcs_adapter: ignoring a %r message" % kind, file=sys.stderr)
    return 0  # shutdown or end of input


if __name__ == "__main__":
    sys.exit(main())
