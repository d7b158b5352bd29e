#!/usr/bin/env python3
"""A deliberately wrong Spool reader for arcs fuzz's test: the reference (`arcs serve`) behind a
proxy that rejects every Spool file holding a CRLF line ending, which §3.5 says readers MUST
accept. usage: crlf_bug.py ARCS"""

import base64
import json
import subprocess
import sys


def main():
    server = subprocess.Popen([sys.argv[1], "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    crlf = {}  # case id -> whether its spool input holds "\r\n"
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message.get("type") == "case":
            inputs = message.get("inputs", {})
            crlf[message["id"]] = message.get("format") == "spool" and any(
                b"\r\n" in base64.b64decode(v) for v in inputs.values())
        server.stdin.write(line)
        server.stdin.flush()
        if message.get("type") == "shutdown":
            break
        answer = json.loads(server.stdout.readline())
        if answer.get("type") == "hello":
            answer["implementation"]["name"] = "planted-crlf-bug"
        if answer.get("type") == "result" and crlf.pop(answer["id"], False) and \
                answer.get("status") == "ok":
            answer["verdict"] = "invalid"
            answer["findings"] = [{"rule": "SP-3.5-2", "message": "CRLF line ending"}]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
