#!/usr/bin/env python3
"""A deliberately wrong Spool reader for arcs fuzz's test: the reference (`arcs serve`) behind a
proxy that rejects every Spool file holding a CRLF line ending, which §3.5 says readers MUST
accept. usage: crlf_bug.py ARCS"""

import base64
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../testing"))
from serve_proxy import serve_proxy  # noqa: E402


def holds_crlf(request):
    return request.get("format") == "spool" and any(
        b"\r\n" in base64.b64decode(v) for v in request.get("inputs", {}).values())


def main():
    def edit(request, answer):
        if answer.get("type") == "hello":
            answer["implementation"]["name"] = "planted-crlf-bug"
        elif answer.get("status") == "ok" and holds_crlf(request):
            answer["verdict"] = "invalid"
            answer["findings"] = [{"rule": "SP-3.5-2", "message": "CRLF line ending"}]

    serve_proxy(sys.argv[1], edit)


if __name__ == "__main__":
    main()
