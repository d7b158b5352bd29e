#!/usr/bin/python3
"""An implementation that is the reference except for one lie: runs `ARCS serve`, forwards the
protocol both ways (runner/PROTOCOL.md, whatever version `ARCS serve` speaks: requests pass
through unchanged), and flips the verdict of the answers to the request ids given. A verdict
flipped to invalid loses its outputs (a rejected round trip writes nothing); one flipped to valid
has none (the reference wrote nothing), so a flipped roundtrip also fails for its missing
output "file".

usage: lying_proxy.py ARCS REQUEST_ID...

The runner's tests use it to inject a regression that `arcs diff` must catch: it reports the
reference's own name and version, so its report lines up case by case with the reference's.
"""
import json
import subprocess
import sys


def main():
    arcs, lies = sys.argv[1], set(sys.argv[2:])
    server = subprocess.Popen([arcs, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for line in sys.stdin.buffer:
        server.stdin.write(line)
        server.stdin.flush()
        if json.loads(line).get("type") == "shutdown":
            break
        answer = json.loads(server.stdout.readline())
        if answer.get("id") in lies and answer.get("status") == "ok":
            answer["verdict"] = "invalid" if answer["verdict"] == "valid" else "valid"
            if answer["verdict"] == "invalid":
                answer.pop("outputs", None)
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
