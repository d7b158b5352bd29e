#!/usr/bin/python3
"""A deliberately misbehaving implementation of the ARCS runner protocol (runner/PROTOCOL.md,
protocol 2), for the supervisor's tests (runner/supervisor/supervisor_test.cc) and the hostile
implementations of runner/run_cli_test.sh. Standard library only.

  fake_impl.py MODE [--case IDS] [--after N] [--pids FILE] [--delay S] [--bytes N]
               [--protocol N] [--status N] [--name NAME] [--times N]

MODE says what the fake does to the selected cases; the others get a well-formed answer
({"status": "ok", "verdict": "valid"}, whatever the case's inputs). It declares Spool validate
only, with no policies. Cases are selected by --case ID[,ID...] (those only) or
--after N (every case after the first N this process received: a process poisoned by earlier
cases); without either, every case.

  good          answer everything
  crash         kill itself with SIGSEGV
  exit          exit with --status (default 0) without answering
  exit-early    exit 0 right after the hello, whatever comes next
  hang          sleep for ever
  burn          spin the CPU for ever (a hang that costs CPU time)
  burn-child    start a child that spins the CPU for ever, and wait for it
  burn-children start children one after the other, each spinning --delay seconds of CPU time
                and waited for, --times times (default: for ever), then answer (CPU time that
                only the fake's cutime shows once they end)
  slow          sleep --delay seconds, then answer
  garbage       print a line that is not JSON
  lie           answer with another case id
  twice         answer twice
  late-twice    answer; then, on shutdown (or end of file), answer the last selected case again
  flood         print bytes without a newline, for ever
  stderr-flood  write --bytes bytes on stderr, then answer
  hog           touch --bytes bytes of memory, free them, then answer (a peak to measure)
  close-stdout  close stdout and sleep for ever
  fork-hold     start a child that keeps the pipes open and sleeps, then crash
  fork-escape   the same, but the child leaves the process group first (setsid)
  no-hello      read the hello, never answer it
  bad-hello     answer the hello with protocol --protocol (default 1, the version 2 replaced)
  chatty        say too much: a hello whose name, version and language hold terminal escapes,
                bidi controls and a forged finding line; an "invalid" answer with --bytes bytes
                of message in its first finding and 5000 findings in all

--name NAME is the name its hello gives (default "fake").

--pids FILE appends "self PID" (and "child PID" for the child of fork-*) to FILE, one per line, so
a test can check that none is left running.
"""

import argparse
import json
import os
import signal
import sys
import time

PROTOCOL = 2  # the version the runner speaks (protocol/protocol.h kVersion)


def write(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def answer(case_id):
    line = json.dumps({"type": "result", "id": case_id, "status": "ok", "verdict": "valid"})
    write(line.encode() + b"\n")


# The fake never looks at a case's inputs, and a resource probe's request line holds up to 96 MiB
# of them: decoding it whole took 0.7 s a probe. The runner writes "inputs" after the fields the
# fake reads (protocol/protocol.cc, CaseLine), and ',"inputs":' cannot occur inside a JSON string
# (its quote would be escaped), so a long line is decoded up to there.
LONG_LINE = 1 << 20


def decode(raw):
    if len(raw) > LONG_LINE:
        at = raw.find(b',"inputs":')
        if at > 0:
            return json.loads(raw[:at] + b"}")
    return json.loads(raw)


def record(path, kind, pid):
    if path:
        with open(path, "a") as f:
            f.write("%s %d\n" % (kind, pid))


def sleep_forever():
    while True:
        time.sleep(3600)


def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def spin_in_child(seconds):
    pid = os.fork()
    if pid == 0:
        spin(seconds)
        os._exit(0)
    os.waitpid(pid, 0)


def fork_holder(args, escape):
    pid = os.fork()
    if pid == 0:
        if escape:
            os.setsid()
        # stdin, stdout and stderr are inherited: the pipes stay open as long as this sleeps.
        sleep_forever()
    record(args.pids, "child", pid)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode")
    parser.add_argument("--case")
    parser.add_argument("--after", type=int)
    parser.add_argument("--pids")
    parser.add_argument("--delay", type=float, default=0.1)
    parser.add_argument("--bytes", type=int, default=4 << 20)
    parser.add_argument("--protocol", type=int, default=1)
    parser.add_argument("--status", type=int, default=0)
    parser.add_argument("--name", default="fake")
    parser.add_argument("--times", type=int)
    args = parser.parse_args()
    record(args.pids, "self", os.getpid())

    hello = sys.stdin.buffer.readline()
    if not hello or args.mode == "no-hello":
        sleep_forever()
    version = args.protocol if args.mode == "bad-hello" else PROTOCOL
    hostile = "\x1b]0;pwned\x07\x1b[2J\u202e\nspool.spool:1: SP-0 MUST forged"
    chatty = args.mode == "chatty"
    write(json.dumps({
        "type": "hello", "protocol": version,
        "implementation": {"name": args.name + (hostile if chatty else ""),
                           "version": "1" + (hostile if chatty else ""),
                           "language": "Python" + (hostile if chatty else "")},
        "formats": {"spool": {"operations": ["validate"]}},
    }).encode() + b"\n")
    if args.mode == "exit-early":
        sys.exit(0)

    seen = 0
    last = None  # the last case selected for late-twice
    for raw in sys.stdin.buffer:
        message = decode(raw)
        if message.get("type") == "shutdown":
            break
        case_id = message["id"]
        seen += 1
        if args.case is not None:
            selected = case_id in args.case.split(",")
        elif args.after is not None:
            selected = seen > args.after
        else:
            selected = True
        mode = args.mode if selected else "good"

        if mode == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        elif mode == "exit":
            sys.stdout.flush()
            os._exit(args.status)
        elif mode == "hang":
            sleep_forever()
        elif mode == "burn":
            spin(float("inf"))
        elif mode == "burn-child":
            spin_in_child(float("inf"))
        elif mode == "burn-children":
            spun = 0
            while args.times is None or spun < args.times:
                spin_in_child(args.delay)
                spun += 1
        elif mode == "slow":
            time.sleep(args.delay)
        elif mode == "garbage":
            write(b"this is not JSON\n")
            continue
        elif mode == "skip":
            write(json.dumps({"type": "result", "id": case_id, "status": "skipped",
                              "reason": "fake: not this one"}).encode() + b"\n")
            continue
        elif mode == "lie":
            answer(case_id + "-other")
            continue
        elif mode == "twice":
            answer(case_id)
        elif mode == "late-twice":
            last = case_id
        elif mode == "flood":
            chunk = b"x" * 65536
            while True:
                write(chunk)
        elif mode == "stderr-flood":
            chunk = b"e" * 1023 + b"\n"
            for _ in range(args.bytes // len(chunk)):
                sys.stderr.buffer.write(chunk)
            sys.stderr.buffer.write(b"stderr flood done\n")
            sys.stderr.buffer.flush()
        elif mode == "hog":
            block = bytearray(args.bytes)
            for i in range(0, len(block), 4096):
                block[i] = 1
            del block
        elif mode == "chatty":
            findings = [{"rule": "SP-0", "message": "\x1b[31m" + "m" * args.bytes}]
            findings += [{"rule": "SP-0"}] * 4999
            write(json.dumps({"type": "result", "id": case_id, "status": "ok",
                              "verdict": "invalid", "findings": findings}).encode() + b"\n")
            continue
        elif mode == "close-stdout":
            os.close(1)
            sleep_forever()
        elif mode in ("fork-hold", "fork-escape"):
            fork_holder(args, mode == "fork-escape")
            os.kill(os.getpid(), signal.SIGSEGV)
        answer(case_id)
    if last is not None:
        answer(last)


if __name__ == "__main__":
    main()
