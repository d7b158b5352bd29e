#!/usr/bin/python3
"""Runs a command and prints the peak resident set size of that process alone, not of the
processes it starts (`time -v` reports the largest of the whole tree): its VmHWM, read from
/proc every 10 ms while it runs, so growth in its last 10 ms may be missed.

    tools/peak_rss.py CMD ARGS...   # the command's own output as usual, then on standard error:
                                    # "peak_rss_bytes N"; exit status: the command's
"""
import subprocess
import sys
import time


def vm_hwm_bytes(pid):
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    process = subprocess.Popen(sys.argv[1:])
    peak = 0
    while process.poll() is None:
        peak = max(peak, vm_hwm_bytes(process.pid))
        time.sleep(0.01)
    print(f"peak_rss_bytes {peak}", file=sys.stderr)
    return process.returncode


if __name__ == "__main__":
    sys.exit(main())
