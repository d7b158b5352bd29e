#!/usr/bin/env python3
"""The toy Spool implementation of the Python example (../python/toy_spool.py) as a command line:
the stand-in for YOUR validator that arcs_adapter.sh wraps. Replace it, not the adapter's loop.

usage: toy_spool_cli.py validate  [--limit NAME=VALUE]... FILE
       toy_spool_cli.py roundtrip [--limit NAME=VALUE]... FILE OUT

It prints one line per finding on stdout, as compilers do (gcc's form),

    FILE:LINE: error: message [RULE-ID]     (FILE: error: ... for the file as a whole)

and exits with status 0 when FILE is valid (roundtrip: read, and written back to OUT), 1 when it is
invalid (roundtrip: the reader rejected it, OUT is not written), 2 on a usage error or when the toy
itself fails (an exception; its traceback goes to stderr). Everything the toy finds is an error.
The limits it can configure are toy_spool.LIMITS (max_file_bytes, max_line_bytes, max_entries).
"""

import os
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import toy_spool  # noqa: E402  (found through the path above)

USAGE = "usage: toy_spool_cli.py validate|roundtrip [--limit NAME=VALUE]... FILE [OUT]"


class Usage(Exception):
    pass


def finding(path, line, rule, message):
    where = "%s:%d" % (path, line) if line else path
    print("%s: error: %s [%s]" % (where, message, rule))


def main(argv):
    if not argv or argv[0] not in ("validate", "roundtrip"):
        raise Usage("no command")
    command, rest, limits, paths = argv[0], iter(argv[1:]), {}, []
    for arg in rest:
        if arg == "--limit":
            name, _, value = next(rest, "").partition("=")
            if name not in toy_spool.LIMITS or not value.isdigit():
                raise Usage("--limit %s=%s: not a limit of this toy" % (name, value))
            limits[name] = int(value)
        else:
            paths.append(arg)
    if len(paths) != (1 if command == "validate" else 2):
        raise Usage("wrong number of files")
    with open(paths[0], "rb") as f:
        data = f.read()
    if command == "validate":
        valid, findings = toy_spool.validate(data, limits)
        for f in findings:
            finding(paths[0], f.get("line"), f["rule"], f["message"])
        return 0 if valid else 1
    try:
        entries = toy_spool.read(data, limits)
    except toy_spool.Rejected as rejected:
        finding(paths[0], None, rejected.rule, str(rejected))
        return 1
    written = toy_spool.write(entries)  # may raise (a lone surrogate): exit status 2
    with open(paths[1], "wb") as f:
        f.write(written)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Usage as usage:
        print("toy_spool_cli.py: %s\n%s" % (usage, USAGE), file=sys.stderr)
        sys.exit(2)
    except Exception:  # noqa: BLE001 - a failure of the toy, not a verdict
        traceback.print_exc()
        sys.exit(2)
