#!/usr/bin/python3
"""An implementation that is the reference except for one lie: runs `ARCS serve`, forwards the
protocol both ways (runner/PROTOCOL.md, whatever version `ARCS serve` speaks: requests pass
through unchanged), and flips the verdict of the answers to the request ids given. A verdict
flipped to invalid loses its outputs (a rejected round trip writes nothing); one flipped to valid
has none (the reference wrote nothing), so a flipped roundtrip also fails for its missing
output "file".

usage: lying_proxy.py ARCS LIE...
  LIE is REQUEST_ID (flip that answer's verdict), REQUEST_ID@OUTPUT (keep the verdict, but
  change the output OUTPUT: its last byte, or a decimal number plus one), REQUEST_ID!reverse
  (keep the verdict, report the findings in reverse order) or REQUEST_ID!drop (keep the
  verdict, leave out the first finding), REQUEST_ID^OUTPUT (keep the verdict, but strip every
  backslash from the output OUTPUT: a renderer that forgot to escape), or REQUEST_ID~OUTPUT (keep
  the verdict, but drop the last non-empty line of the output OUTPUT: a replayer that missed an
  answer, a converter that lost a value).

The runner's tests use it to inject a regression that `arcs diff` must catch: it reports the
reference's own name and version, so its report lines up case by case with the reference's.
"""
import base64
import sys

from serve_proxy import serve_proxy


def tampered(value):
    """The base64 output `value` changed: a decimal number plus one, else its last byte."""
    data = base64.b64decode(value)
    if data.isdigit():
        data = str(int(data) + 1).encode()
    elif data:
        data = data[:-1] + bytes([data[-1] ^ 1])
    else:
        data = b"x"
    return base64.b64encode(data).decode()


def main():
    arcs = sys.argv[1]
    lies = {lie for lie in sys.argv[2:] if not any(mark in lie for mark in "@!^~")}
    truncate_lies = dict(lie.split("~", 1) for lie in sys.argv[2:] if "~" in lie)
    unescape_lies = dict(lie.split("^", 1) for lie in sys.argv[2:] if "^" in lie)
    output_lies = dict(lie.split("@", 1) for lie in sys.argv[2:] if "@" in lie)
    finding_lies = dict(lie.split("!", 1) for lie in sys.argv[2:] if "!" in lie)

    def edit(_request, answer):
        if answer.get("id") in lies and answer.get("status") == "ok":
            answer["verdict"] = "invalid" if answer["verdict"] == "valid" else "valid"
            if answer["verdict"] == "invalid":
                answer.pop("outputs", None)
        findings = answer.get("findings", [])
        if finding_lies.get(answer.get("id")) == "reverse":
            findings.reverse()
        elif finding_lies.get(answer.get("id")) == "drop" and findings:
            findings.pop(0)
        name = output_lies.get(answer.get("id"))
        if name and name in answer.get("outputs", {}):
            answer["outputs"][name] = tampered(answer["outputs"][name])
        name = unescape_lies.get(answer.get("id"))
        if name and name in answer.get("outputs", {}):
            data = base64.b64decode(answer["outputs"][name]).replace(b"\\", b"")
            answer["outputs"][name] = base64.b64encode(data).decode()
        name = truncate_lies.get(answer.get("id"))
        if name and name in answer.get("outputs", {}):
            lines = base64.b64decode(answer["outputs"][name]).rstrip(b"\n").split(b"\n")
            data = b"\n".join(lines[:-1]) + b"\n" if len(lines) > 1 else b""
            answer["outputs"][name] = base64.b64encode(data).decode()

    serve_proxy(arcs, edit)


if __name__ == "__main__":
    main()
