#!/usr/bin/env python3
"""Writes the Spool vectors: manifest.json from the case table (cases_table.py: each quotation
once in QUOTES, each case citing them by id) and the inputs whose bytes are awkward to write by
hand.

Those inputs are the cases with a byte order mark, CR or CRLF line endings, no final newline,
blank or whitespace-padded lines, raw control bytes, invalid UTF-8, raw non-ASCII text, and the
large inputs (deep nesting, a 1 MiB line, 600 KiB of base64). Every other file in cases/ is plain
LF-terminated ASCII JSON and is edited by hand.

The output is committed; this script documents exactly how each file was made and can rebuild
it. Usage (Python 3, standard library only):

    python3 vectors/spool/generate.py           # (re)write manifest.json and the files below
    python3 vectors/spool/generate.py --check   # exit 1 if a file on disk differs from this
                                                # script or a quotation is not in spool.md (the
                                                # loader's tests hold the cites to QUOTES and the
                                                # errata: conformance/vectors_test.cc)
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
MANIFEST = os.path.join(HERE, "manifest.json")
sys.path.insert(0, os.path.dirname(HERE))

import manifest_lib  # noqa: E402  (vectors/)
from cases_table import CASES as CASE_TABLE, QUOTES  # noqa: E402

SID = "00000000-0000-4000-8000-000000000000"


def uid(n):
    return "00000000-0000-4000-8000-%012d" % n


# The session line of almost every case: the 11.1 line with a version-4-style id.
SESSION = ('{"id":"%s","ts":0,"type":"session","version":"1.0","agent":"test",'
           '"recorded_at":"2025-01-01T00:00:00Z"}' % SID).encode()


def prompt(n, ts, content_json='"Hello"'):
    """A prompt line; content_json is the raw JSON text (bytes or str) of the content value."""
    if isinstance(content_json, str):
        content_json = content_json.encode("utf-8")
    return (b'{"id":"' + uid(n).encode() + b'","ts":' + str(ts).encode() +
            b',"type":"prompt","content":' + content_json + b'}')


def tool_call(n, ts, input_json):
    if isinstance(input_json, str):
        input_json = input_json.encode("utf-8")
    return (b'{"id":"' + uid(n).encode() + b'","ts":' + str(ts).encode() +
            b',"type":"tool_call","tool":"bash","input":' + input_json + b'}')


P1 = prompt(1, 100)
R2 = b'{"id":"' + uid(2).encode() + b'","ts":200,"type":"response","content":"Hi"}'

# 11.4.3 / 11.5 use the spec's own lines.
S11 = (b'{"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0",'
       b'"agent":"test","recorded_at":"2025-01-01T00:00:00Z"}')
P11 = b'{"id":"00000000-0000-0000-0000-000000000002","ts":200,"type":"prompt","content":"Hello"}'


def lf(*lines):
    return b"".join(l + b"\n" for l in lines)


def in_string(raw):
    """A prompt line (id 1, ts 100) whose content string holds the raw bytes `raw` between 'a' and 'b'."""
    return lf(SESSION, prompt(1, 100, b'"a' + raw + b'b"'))


def nested_arrays(depth):
    return b"[" * depth + b"]" * depth


def nested_objects(depth):
    return b'{"a":' * depth + b"1" + b"}" * depth


def b64_of(n):
    """Canonical base64 of n bytes of a fixed pattern (standard alphabet, padded)."""
    import base64
    raw = bytes((i * 7 + 3) & 0xFF for i in range(n))
    return base64.b64encode(raw)


FILES = {
    # --- 11.4.1 empty files ------------------------------------------------------------------
    "11.4.1-empty.spool": b"",
    "11.4.1-whitespace-only.spool": b"  \t \n   \n",
    "11.4.1-newline-only.spool": b"\n",

    # --- 11.5 line endings -----------------------------------------------------------------
    "11.5-crlf.spool": S11 + b"\r\n" + P11 + b"\r\n",
    "11.5-mixed.spool": S11 + b"\r\n" + P1.replace(b'"Hello"', b'"Unix ending"') + b"\n" + P11 + b"\r\n",
    "11.5-no-final-newline.spool": S11 + b"\n" + P11,
    "11.5-crlf-no-final-newline.spool": S11 + b"\r\n" + P11,
    "11.5-single-line-no-final-newline.spool": S11,
    # CRLF endings around a string that holds an escaped CR LF: a writer writes LF endings
    # (§3.5's SHOULD) and keeps the escapes, whatever endings it read
    # a lone CR is neither of §3.5's line endings: between two members it is JSON whitespace
    # inside the object, so the prompt is one line (a reader that splits on it, as Python's
    # str.splitlines does, breaks the entry in two)
    "cr-between-members.spool": lf(SESSION, P1.replace(b',"type"', b',\r"type"')),
    "crlf-written-as-lf.spool": (SESSION + b"\r\n" + prompt(1, 100, b'"line one\\r\\nline two"') +
                                 b"\r\n" + R2 + b"\r\n"),

    # --- 3.4 byte order mark -----------------------------------------------------------------
    "bom-minimal.spool": b"\xef\xbb\xbf" + lf(SESSION),
    "bom-only.spool": b"\xef\xbb\xbf",
    "bom-twice.spool": b"\xef\xbb\xbf\xef\xbb\xbf" + lf(SESSION),
    "bom-second-line.spool": SESSION + b"\n\xef\xbb\xbf" + P1 + b"\n",

    # --- 3.6 blank lines and whitespace around the object ---------------------------------------
    "blank-line-empty.spool": lf(SESSION, b"", P1),
    "blank-line-spaces.spool": lf(SESSION, b"   ", P1),
    "blank-line-tab.spool": lf(SESSION, b"\t", P1),
    "blank-line-cr.spool": SESSION + b"\n\r\n" + P1 + b"\n",
    "blank-line-before-session.spool": lf(b"", SESSION, P1),
    "blank-line-at-end.spool": lf(SESSION, P1, b""),
    "blank-lines-many.spool": lf(b" ", SESSION, b"", b"\t \t", P1, b"", b"", R2, b"  "),
    "ws-leading-space.spool": lf(b" " + SESSION, P1),
    "ws-trailing-space.spool": lf(SESSION, P1 + b" "),
    "ws-leading-tab.spool": lf(SESSION, b"\t" + P1),
    "ws-trailing-tab.spool": lf(SESSION + b"\t", P1),
    # a line holding only U+00A0 (NO-BREAK SPACE, C2 A0): Unicode white space, not JSON whitespace
    "line-nbsp-only.spool": lf(SESSION, "\u00a0".encode("utf-8"), P1),

    # --- 3.4 / 9.1 invalid UTF-8 inside a string value (prompt content) -------------------------
    "utf8-bare-continuation.spool": in_string(b"\x80"),
    "utf8-truncated-2byte.spool": in_string(b"\xc3"),
    "utf8-truncated-3byte.spool": in_string(b"\xe2\x82"),
    "utf8-overlong-slash-2byte.spool": in_string(b"\xc0\xaf"),
    "utf8-overlong-slash-3byte.spool": in_string(b"\xe0\x80\xaf"),
    "utf8-encoded-surrogate.spool": in_string(b"\xed\xa0\x80"),
    "utf8-f5-lead-byte.spool": in_string(b"\xf5\x80\x80\x80"),
    "utf8-above-max-code-point.spool": in_string(b"\xf4\x90\x80\x80"),
    "utf8-ff-byte.spool": in_string(b"\xff"),
    "utf8-invalid-in-member-name.spool": lf(SESSION, P1[:-1] + b',"x_\xc3(":1}'),
    "utf8-invalid-in-x-field.spool": lf(SESSION, P1[:-1] + b',"x_note":"caf\xe9"}'),
    # Valid raw (unescaped) UTF-8: 2-, 3- and 4-byte forms, U+007F, U+0085, U+2028, U+FFFF.
    "utf8-valid-raw-multibyte.spool": in_string("é€😀".encode("utf-8")),
    "utf8-valid-raw-del-c1-ls.spool": in_string("\x7f\u0085\u2028".encode("utf-8")),
    "utf8-valid-raw-noncharacter.spool": in_string("\uffff\U0010ffff".encode("utf-8")),

    # --- 9.1 raw control characters -------------------------------------------------------------
    "raw-nul-in-string.spool": in_string(b"\x00"),
    "raw-tab-in-string.spool": in_string(b"\t"),
    "raw-unit-separator-in-string.spool": in_string(b"\x1f"),
    "raw-nul-after-object.spool": lf(SESSION, P1 + b"\x00"),
    "raw-nul-line.spool": lf(SESSION, b"\x00", P1),

    # --- large inputs -----------------------------------------------------------------------
    # tool input nested 100 arrays deep: 102 levels in all with the entry and "input" objects.
    "depth-100-arrays.spool": lf(SESSION, tool_call(1, 100, b'{"v":' + nested_arrays(100) + b"}")),
    # the JSON depth limit boundary (default 128; the line's object is level 1, "input" level 2)
    "depth-128-total.spool": lf(SESSION, tool_call(1, 100, b'{"v":' + nested_arrays(126) + b"}")),
    "depth-129-total.spool": lf(SESSION, tool_call(1, 100, b'{"v":' + nested_arrays(127) + b"}")),
    "depth-200-arrays.spool": lf(SESSION, tool_call(1, 100, b'{"v":' + nested_arrays(200) + b"}")),
    "depth-200-objects-x-field.spool": lf(SESSION, prompt(1, 100)[:-1] + b',"x_deep":' +
                                          nested_objects(200) + b"}"),
    "depth-100000-arrays.spool": lf(SESSION, tool_call(1, 100, b'{"v":' + nested_arrays(100000) + b"}")),
    "depth-20-arrays.spool": lf(SESSION, tool_call(1, 100, b'{"v":' + nested_arrays(20) + b"}")),
    # a prompt whose content is 1 MiB of text (the line is a little longer)
    "long-line-1mib.spool": lf(SESSION, prompt(1, 100, b'"' + b"abcdefghijklmnop" * 65536 + b'"')),
    # 600 KiB (614400 characters) of base64 in a binary tool output: 460800 decoded bytes
    "base64-600kib.spool": lf(
        SESSION,
        tool_call(1, 100, b'{"command":"cat image.png"}'),
        b'{"id":"' + uid(2).encode() + b'","ts":200,"type":"tool_result","call_id":"' +
        uid(1).encode() + b'","output":{"type":"binary","media_type":"image/png",'
        b'"encoding":"base64","data":"' + b64_of(460800) + b'","size_bytes":460800}}'),
}


def manifest():
    m = manifest_lib.head("spool", "spool", "spool.md", "1.0")
    m["quotes"] = dict(sorted(QUOTES.items()))
    m["cases"] = CASE_TABLE
    return m


def main(argv):
    check = "--check" in argv[1:]
    m = manifest()
    spec = manifest_lib.read_spec("spool.md")
    problems = ["not in spool.md: " + q for q in manifest_lib.quotes_not_in(spec, QUOTES)] if spec else []
    files = {os.path.join(CASES, name): data for name, data in FILES.items()}
    files[MANIFEST] = manifest_lib.dumps(m)
    bad = 0
    os.makedirs(CASES, exist_ok=True)
    for path, data in sorted(files.items()):
        if check:
            try:
                with open(path, "rb") as f:
                    same = f.read() == data
            except OSError:
                same = False
            if not same:
                print("differs: " + path)
                bad += 1
        else:
            with open(path, "wb") as f:
                f.write(data)
    for p in problems:
        print("problem: " + p)
    if check:
        print("%d generated files and the manifest (%d cases) checked, %d differ" %
              (len(FILES), len(CASE_TABLE), bad))
    return 1 if bad or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
