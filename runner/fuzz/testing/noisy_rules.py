#!/usr/bin/env python3
"""An implementation for arcs fuzz's test that says too much: the reference (`arcs serve`) behind
a proxy that rejects every case with 100 findings, each under a new random rule id of 300 bytes.
Every answer is then a new signature, and each would be as large as the implementation likes if
the fuzzer kept what it says unbounded. usage: noisy_rules.py ARCS"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../testing"))
from serve_proxy import serve_proxy  # noqa: E402


def main():
    def edit(_request, answer):
        if answer.get("type") == "hello":
            answer["implementation"]["name"] = "noisy-rules"
        elif answer.get("status") == "ok":
            answer["verdict"] = "invalid"
            answer["findings"] = [
                {"rule": "R-" + "%x" % random.getrandbits(1190), "severity": "error",
                 "message": "noise"} for _ in range(100)]

    serve_proxy(sys.argv[1], edit)


if __name__ == "__main__":
    main()
