#!/usr/bin/env python3
"""An implementation for arcs fuzz's test that says too much: the reference (`arcs serve`) behind
a proxy that rejects every case with 100 findings, each under a new random rule id of 300 bytes.
Every answer is then a new signature, and each would be as large as the implementation likes if
the fuzzer kept what it says unbounded. usage: noisy_rules.py ARCS"""

import json
import random
import subprocess
import sys


def main():
    server = subprocess.Popen([sys.argv[1], "serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    for line in sys.stdin.buffer:
        server.stdin.write(line)
        server.stdin.flush()
        if json.loads(line).get("type") == "shutdown":
            break
        answer = json.loads(server.stdout.readline())
        if answer.get("type") == "hello":
            answer["implementation"]["name"] = "noisy-rules"
        elif answer.get("status") == "ok":
            answer["verdict"] = "invalid"
            answer["findings"] = [
                {"rule": "R-" + "%x" % random.getrandbits(1190), "severity": "error",
                 "message": "noise"} for _ in range(100)]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
