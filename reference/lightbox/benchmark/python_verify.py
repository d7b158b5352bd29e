#!/usr/bin/python3
"""The spec's own verification loop (lightbox.md, "Hash Computation"), in CPython, timed: the
reference point of the Lightbox benchmark's "Verify at least 20 times the Python loop" target
(reference/lightbox/benchmark/bench.sh).

    python3 python_verify.py FILE

The file is read into memory and split into lines first; then, timed with time.perf_counter
(wall) and time.process_time (CPU), for each line: json.loads, pop "hash", json.dumps(event,
sort_keys=True, separators=(",", ":"), ensure_ascii=False), hashlib.sha256 of its UTF-8 encoding,
compared with the stored hash, and prev_hash compared with the previous event's hash. A blank line
is skipped, as the reference does. Prints the verdict and the rates in bytes/s of the whole file:

    file: FILE
    bytes: N
    events: N
    verdict: intact                    (or "broken at event K: why")
    seconds: S                         (perf_counter)
    cpu_seconds: S                     (process_time)
    bytes_per_second: X                (bytes / seconds)
    cpu_bytes_per_second: X            (bytes / cpu_seconds)

Exit status 0 when the chain is intact, 1 when it breaks, 2 on usage errors. Being CPython's own
json and hashlib, it is also an independent check of the reference's canonical form.
"""

import hashlib
import json
import sys
import time


def verify(lines):
    """Returns (events, None) when the chain holds, else (events, why) at the first break."""
    prev = None
    events = 0
    broken = None
    for line in lines:
        if not line.strip(b" \t\r"):
            continue
        event = json.loads(line)
        stored = event.pop("hash")
        canonical = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        computed = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        if broken is None:
            if computed != stored:
                broken = "broken at event %d: its stored hash is not %s" % (events, computed)
            elif event.get("prev_hash") != prev:
                broken = "broken at event %d: its prev_hash is not the previous hash" % events
        prev = stored
        events += 1
    return events, broken


def main():
    if len(sys.argv) != 2:
        print("usage: python3 python_verify.py FILE", file=sys.stderr)
        return 2
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    wall, cpu = time.perf_counter(), time.process_time()
    events, broken = verify(lines)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print("file: %s" % path)
    print("bytes: %d" % len(data))
    print("events: %d" % events)
    print("verdict: %s" % (broken or "intact"))
    print("seconds: %.6f" % wall)
    print("cpu_seconds: %.6f" % cpu)
    print("bytes_per_second: %.1f" % (len(data) / wall if wall > 0 else 0.0))
    print("cpu_bytes_per_second: %.1f" % (len(data) / cpu if cpu > 0 else 0.0))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
