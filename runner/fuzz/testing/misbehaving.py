#!/usr/bin/env python3
"""Implementations that break arcs fuzz's guarantees, for its test: the reference (`arcs serve`)
behind a proxy that misbehaves as MODE says.
  spool-validate-only  declares only Spool's validate, and answers "errored" to anything else (a
                       case it never declared must never be sent)
  skips                answers "skipped" to every case (nothing compared is not a clean run)
  twice                answers twice every case whose inputs hold a multiple of 5 bytes (the
                       second answer is that case's protocol error, not the next case's)
  twice-always         answers twice every case (the last one's second answer comes after the
                       shutdown request)
usage: misbehaving.py MODE ARCS"""

import base64
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../testing"))
from serve_proxy import serve_proxy  # noqa: E402


def input_bytes(request):
    return sum(len(base64.b64decode(v)) for v in request.get("inputs", {}).values())


def spool_validate_only(request, answer):
    if answer.get("type") == "hello":
        answer["formats"] = {"spool": {"operations": ["validate"]}}
    elif (request.get("format"), request.get("operation")) != ("spool", "validate"):
        answer.clear()
        answer.update(type="result", id=request["id"], status="errored",
                      message="never declared: " + request["format"] + " " + request["operation"])


def skips(request, answer):
    if answer.get("type") != "hello":
        answer.clear()
        answer.update(type="result", id=request["id"], status="skipped", reason="no, thanks")


def twice(request, answer):
    if answer.get("type") != "hello" and input_bytes(request) % 5 == 0:
        twice_always(request, answer)


def twice_always(_request, answer):
    # The proxy writes the answer after this: written here too, it is the first of two.
    if answer.get("type") != "hello":
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")


def main():
    modes = {"spool-validate-only": spool_validate_only, "skips": skips, "twice": twice,
             "twice-always": twice_always}
    serve_proxy(sys.argv[2], modes[sys.argv[1]])


if __name__ == "__main__":
    main()
