#!/usr/bin/python3
"""A Spool implementation that says too much: the runner's tests use it to hold `arcs run` to
its bounds (runner/report/report.h: what a report keeps of a case; runner/run.cc: the resource
probes' inputs, made one batch at a time).

usage: flood_fake.py [--min-input BYTES] [--flood BYTES] [--stall-probes 1]
                     [--slow-probe NAME:SECONDS]
  --min-input BYTES  answer "errored" to a resource probe (a case id holding "-resource-") whose
                     inputs hold fewer bytes than this, else "valid": a probe sent without its
                     inputs fails
  --flood BYTES      answer every case "invalid" with about BYTES of findings (control
                     characters in their rule ids and messages), outputs with long names, a long
                     message, and write BYTES to stderr
  --stall-probes 1   never answer a resource probe (its request read whole, then nothing)
  --slow-probe NAME:SECONDS
                     sleep SECONDS before answering the resource probe whose id holds NAME
"""
import base64
import json
import sys
import time

NAME = {"name": "flood-fake", "version": "1", "language": "Python"}
FORMATS = {"spool": {"operations": ["validate", "roundtrip"], "policies": {}}}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def decoded_size(text):
    """The bytes base64 `text` decodes to, without decoding it: a resource probe's 96 MiB took
    1.5 s to decode, a load that brought the other probes near the slow probe's warning."""
    return len(text) // 4 * 3 - len(text[-2:]) + len(text[-2:].rstrip("="))


def flood_answer(size):
    """An answer of about `size` bytes whose every text is as costly to quote as can be."""
    text = "\x01\"\\" * (size // 3 // 200)
    findings = [{"rule": "SP-\x02" * 100, "severity": "error\x03" * 20, "line": i + 1,
                 "message": text[: 1000] * 4} for i in range(200)]
    outputs = {("out-%d-" % i) + "\x04" * 300: base64.b64encode(bytes(range(256)) * 64).decode()
               for i in range(20)}
    return {"status": "ok", "verdict": "invalid", "findings": findings, "outputs": outputs}


def main():
    min_input, flood, stall_probes, slow_probe = 0, 0, False, None
    args = sys.argv[1:]
    while args:
        option, value = args[0], args[1]
        args = args[2:]
        if option == "--slow-probe":
            name, seconds = value.rsplit(":", 1)
            slow_probe = (name, float(seconds))
            continue
        value = int(value)
        if option == "--min-input":
            min_input = value
        elif option == "--flood":
            flood = value
        elif option == "--stall-probes":
            stall_probes = bool(value)
    for line in sys.stdin.buffer:
        request = json.loads(line)
        kind = request.get("type")
        if kind == "hello":
            send({"type": "hello", "protocol": 2, "implementation": NAME, "formats": FORMATS})
        elif kind == "case":
            if stall_probes and "-resource-" in request["id"]:
                time.sleep(3600)
            if slow_probe and "-resource-" in request["id"] and slow_probe[0] in request["id"]:
                time.sleep(slow_probe[1])
            size = sum(decoded_size(v) for v in request["inputs"].values())
            answer = {"status": "ok", "verdict": "valid"}
            if flood:
                sys.stderr.write("\x05\xff" * (flood // 2))
                sys.stderr.flush()
                answer = flood_answer(flood)
            elif "-resource-" in request["id"] and size < min_input:
                answer = {"status": "errored", "message": "inputs of %d bytes" % size}
            send(dict({"type": "result", "id": request["id"]}, **answer))
        elif kind == "shutdown":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
