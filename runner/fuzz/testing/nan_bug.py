#!/usr/bin/env python3
"""A deliberately wrong Spool reader for arcs fuzz's test: the reference (`arcs serve`) behind a
proxy that reads NaN, Infinity and -Infinity outside strings as numbers (it shows the reference
the file with 0 in their place), although RFC 8259 §6, which spool.md §3.6 builds on, says "Numeric
values that cannot be represented in the grammar below (such as Infinity and NaN) are not
permitted". usage: nan_bug.py ARCS"""

import base64
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../testing"))
from serve_proxy import serve_proxy  # noqa: E402

# A JSON string (skipped as it is), or a non-finite number token outside one.
TOKEN = re.compile(rb'"(?:[^"\\\n]|\\.)*"|-?Infinity|NaN')


def as_numbers(data):
    return TOKEN.sub(lambda m: m.group(0) if m.group(0).startswith(b'"') else b"0", data)


def main():
    def rewrite(request):
        if request.get("type") == "case" and request.get("format") == "spool":
            inputs = request.get("inputs", {})
            for name, value in inputs.items():
                inputs[name] = base64.b64encode(as_numbers(base64.b64decode(value))).decode()

    def edit(request, answer):
        if answer.get("type") == "hello":
            answer["implementation"]["name"] = "planted-nan-bug"

    serve_proxy(sys.argv[1], edit, rewrite)


if __name__ == "__main__":
    main()
