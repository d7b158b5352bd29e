# A fake MCP upstream for the signal tests (signals_test.sh): starts a child of its own that
# outlives nothing on its own accord (`sleep 1000`, in its process group), writes "PGID CHILD" to
# argv[1] once both run, then answers each request with {"echo": its method} until its input ends.
import json
import os
import subprocess
import sys

child = subprocess.Popen(["sleep", "1000"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(f"{os.getpgid(0)} {child.pid}\n")
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer = {"jsonrpc": "2.0", "id": msg["id"], "result": {"echo": msg["method"]}}
        print(json.dumps(answer), flush=True)
