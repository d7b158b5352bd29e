#!/usr/bin/env python3
"""Writes the Lightbox test-vector inputs. Every chain here is computed by CPython itself
(json.dumps with the canonical settings, hashlib.sha256), never by the code under test, and
written the way the upstream recorder writes lines (json.dumps defaults: ASCII escapes, ", " and
": " separators) unless a case says otherwise.

    python3 vectors/lightbox/generate.py           # (re)write the files below into cases/
    python3 vectors/lightbox/generate.py --check   # exit 1 if a file on disk differs

The manifest (manifest.json) is written by hand and names each file; this script never touches it.
"""

import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")

SESSION = "session_92c1"
META = {"session_id": SESSION, "schema_version": "1", "lightbox_version": "0.1.0",
        "created_at": "2025-01-15T10:00:00.000+00:00"}


def canonical(event):
    body = {k: v for k, v in event.items() if k != "hash"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain(events):
    """The events with prev_hash and hash set, as CPython computes them."""
    prev, out = None, []
    for e in events:
        e = dict(e, prev_hash=prev)
        e["hash"] = hashlib.sha256(canonical(e).encode("utf-8")).hexdigest()
        prev = e["hash"]
        out.append(e)
    return out


def lines(events):
    return "".join(json.dumps(e) + "\n" for e in events).encode("utf-8")


def event(n, **fields):
    e = {"schema_version": "1", "session_id": SESSION, "invocation_id": "inv_%05d" % n,
         "tool": "send_email", "input": {"to": "user@example.com", "subject": "Hello"},
         "output": {"success": True, "message_id": "msg_%d" % n}, "status": "complete",
         "timestamp_start": "2025-01-15T10:23:01.123+00:00",
         "timestamp_end": "2025-01-15T10:23:01.456+00:00"}
    e.update(fields)
    return e


def files():
    three = chain([event(1), event(2), event(3)])
    edited = [dict(e) for e in three]
    edited[1]["input"] = {"to": "attacker@example.com", "subject": "Hello"}
    return {
        "example-chain/events.jsonl": lines(three),
        "example-chain/meta.json": (json.dumps(META, indent=2) + "\n").encode("utf-8"),
        "content-edited/events.jsonl": lines(edited),
    }


def main():
    check = "--check" in sys.argv[1:]
    differ = []
    for name, data in sorted(files().items()):
        path = os.path.join(CASES, name)
        if check:
            try:
                with open(path, "rb") as f:
                    if f.read() != data:
                        differ.append(name)
            except FileNotFoundError:
                differ.append(name)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    for name in differ:
        print("differs from generate.py: cases/" + name)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
