"""Writes pairs of files for the hash-flooding benchmark (tools/bench_hash_flood.sh): for each
format whose validator indexes ids, one file with ordinary ids and one, the same size and shape,
whose ids were crafted against the unkeyed hashes ARCS used before issue #24, so that every id fell
into one bucket and validation went quadratic.

    python3 tools/hash_flood.py DIR [SCALE]

SCALE (default 1) multiplies the id counts of the issue's measurements: 80,000 Spool entries,
85,000 Lightbox events, 20,000 MCP requests waiting for their responses. Files written:

    DIR/spool-{ordinary,crafted}.spool
        entries with random UUIDs, or UUIDs whose halves a, b (little-endian) satisfy
        a = C ^ (b * 0x9E3779B97F4A7C15): the old UuidHash, fmix64(a ^ b * 0x9E37...15), was one
        value for all of them.
    DIR/lightbox-{ordinary,crafted}/events.jsonl
        a valid hash chain whose invocation ids are inv_00001, inv_00002, ... or 18-digit ids whose
        value v makes v * 31 + 18 a multiple of 85229 * 172933: the old InvocationKeyHash was that
        number, and std::unordered_map takes it modulo its bucket count, 85229 or 172933 (the
        primes libstdc++ grows through at 42,044 and 85,230 entries).
    DIR/mcp-{ordinary,crafted}.jsonl
        a recording of N requests, all answered only after the last was sent, whose ids are
        k.5 (k = 1..N), or 1.0000000000000000000000k7: one double for every crafted id, which
        was the bucket the pending-request table searched linearly.
"""

import hashlib
import json
import os
import random
import sys

GOLDEN = 0x9E3779B97F4A7C15
MASK = (1 << 64) - 1


def uuid_text(raw):
    h = raw.hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def spool(path, ids):
    session = {"id": "00000000-0000-4000-8000-000000000000", "ts": 0, "type": "session",
               "version": "1.0", "agent": "hash-flood", "recorded_at": "2025-01-01T00:00:00Z"}
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(session, separators=(",", ":")) + "\n")
        for ts, raw in enumerate(ids, 1):
            entry = {"id": uuid_text(raw), "ts": ts, "type": "prompt", "content": "hello"}
            out.write(json.dumps(entry, separators=(",", ":")) + "\n")


def spool_ids(count, crafted, rng):
    ids = []
    for n in range(count):
        if crafted:
            b = (n + 1) * 0x10001 & MASK
            a = 0x0123456789ABCDEF ^ (b * GOLDEN & MASK)
            ids.append(a.to_bytes(8, "little") + b.to_bytes(8, "little"))
        else:
            ids.append(rng.getrandbits(128).to_bytes(16, "little"))
    return ids


def lightbox(folder, invocation_ids):
    os.makedirs(folder, exist_ok=True)
    prev = None
    with open(os.path.join(folder, "events.jsonl"), "w", encoding="utf-8") as out:
        for invocation_id in invocation_ids:
            event = {"schema_version": "1", "session_id": "session_flood",
                     "invocation_id": invocation_id, "tool": "read_file",
                     "input": {"path": "/etc/hosts"}, "output": {"success": True},
                     "status": "complete",
                     "timestamp_start": "2025-01-15T10:23:01.123+00:00",
                     "timestamp_end": "2025-01-15T10:23:01.456+00:00", "prev_hash": prev}
            canonical = json.dumps(event, sort_keys=True, separators=(",", ":"),
                                   ensure_ascii=False)
            event["hash"] = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
            prev = event["hash"]
            out.write(json.dumps(event, ensure_ascii=False) + "\n")


def lightbox_ids(count, crafted):
    if not crafted:
        return [f"inv_{n:05d}" for n in range(1, count + 1)]
    modulus = 85229 * 172933
    # v * 31 + 18 = m * modulus needs m = 18 / modulus (mod 31); then v = (m * modulus - 18) / 31.
    m = 18 * pow(modulus, -1, 31) % 31
    ids = []
    while len(ids) < count:
        ids.append(f"inv_{(m * modulus - 18) // 31:018d}")
        m += 31
    return ids


def mcp(path, ids):
    lines = [{"type": "header", "version": "1.0", "name": "hash-flood",
              "recorded_at": "2025-02-04T10:00:00.000Z", "upstream": "none",
              "thoughtjack_version": "0.3.0"}]
    seq = 0

    def message(direction, msg):
        nonlocal seq
        seq += 1
        lines.append({"type": "message", "seq": seq, "ts": "2025-02-04T10:00:00.050Z",
                      "dir": direction, "msg": msg})

    for i in ids:
        message("c2s", {"jsonrpc": "2.0", "id": i, "method": "tools/list"})
    for i in reversed(ids):
        message("s2c", {"jsonrpc": "2.0", "id": i, "result": {"tools": []}})
    lines.append({"type": "footer", "total_messages": seq, "duration_ms": 5000,
                  "client_messages": len(ids), "server_messages": len(ids)})
    with open(path, "w", encoding="utf-8") as out:
        for line in lines:
            # An id "#N#" is the number N written exactly, past what a double holds.
            text = json.dumps(line, separators=(",", ":"))
            out.write(text.replace('"#', "").replace('#"', "") + "\n")


def mcp_ids(count, crafted):
    if crafted:
        return [f"#1.0000000000000000000000{k}7#" for k in range(1, count + 1)]
    return [f"#{k}.5#" for k in range(1, count + 1)]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    folder = sys.argv[1]
    scale = float(sys.argv[2]) if len(sys.argv) == 3 else 1.0
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(24)
    for kind in ("ordinary", "crafted"):
        crafted = kind == "crafted"
        spool(os.path.join(folder, f"spool-{kind}.spool"),
              spool_ids(int(80000 * scale), crafted, rng))
        lightbox(os.path.join(folder, f"lightbox-{kind}"),
                 lightbox_ids(int(85000 * scale), crafted))
        mcp(os.path.join(folder, f"mcp-{kind}.jsonl"), mcp_ids(int(20000 * scale), crafted))


if __name__ == "__main__":
    main()
