"""What the tests' doctored implementations share: the reference (`ARCS serve`) behind a proxy that
forwards each runner line to it (unchanged, or as a rewriter changes it) and hands each of its
answers, with the request it answers, to an editor before passing it on. Imported, not run."""
import json
import subprocess
import sys


def serve_proxy(arcs, edit, rewrite=None):
    """Runs the proxy over stdin and stdout until shutdown. edit(request, answer) changes the
    answer (a dict) in place; request is the runner's message it answers (the hello included).
    rewrite(request), when given, changes a request (a dict) in place before the reference sees it."""
    server = subprocess.Popen([arcs, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for line in sys.stdin.buffer:
        request = json.loads(line)
        if rewrite:
            rewrite(request)
            line = (json.dumps(request, separators=(",", ":")) + "\n").encode()
        server.stdin.write(line)
        server.stdin.flush()
        if request.get("type") == "shutdown":
            break
        answer = json.loads(server.stdout.readline())
        edit(request, answer)
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    server.stdin.close()
    server.wait()
