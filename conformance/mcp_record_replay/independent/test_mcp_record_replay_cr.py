"""Unit tests of the clean-room mcp-record-replay implementation.

Expected values come from the spec text (TJ-SPEC-010), quoted per test.
Run: python3 -m unittest discover -s conformance/mcp_record_replay/independent -p 'test_*.py'
"""

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mcp_record_replay_cr as m  # noqa: E402


def line(obj):
    return json.dumps(obj, separators=(",", ":")).encode() + b"\n"


# §F-002 "Recording Schema" example, lines as written there (params filled in)
HEADER = {"type": "header", "version": "1.0", "name": "filesystem-test-001",
          "tags": ["regression", "filesystem"], "recorded_at": "2025-02-04T10:00:00.000Z",
          "upstream": "npx -y @anthropic/mcp-server-filesystem /tmp", "thoughtjack_version": "0.3.0"}
INIT = {"type": "message", "seq": 1, "ts": "2025-02-04T10:00:00.050Z", "dir": "c2s",
        "msg": {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}}
INIT_R = {"type": "message", "seq": 2, "ts": "2025-02-04T10:00:00.100Z", "dir": "s2c",
          "msg": {"jsonrpc": "2.0", "id": 1, "result": {}}, "latency_ms": 50}
NOTIF = {"type": "message", "seq": 3, "ts": "2025-02-04T10:00:00.150Z", "dir": "c2s",
         "msg": {"jsonrpc": "2.0", "method": "notifications/initialized"}}


def msg(seq, d, body, **extra):
    e = {"type": "message", "seq": seq, "ts": "2025-02-04T10:00:01Z", "dir": d, "msg": body}
    e.update(extra)
    return e


def footer(total, client, server):
    return {"type": "footer", "total_messages": total, "duration_ms": 5000,
            "client_messages": client, "server_messages": server}


def rec(*entries):
    return b"".join(line(e) for e in entries)


SPEC_EXAMPLE = rec(HEADER, INIT, INIT_R, NOTIF, footer(3, 2, 1))

READ_FILE = {"name": "read_file", "description": "Read complete contents of a file",
             "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
                             "required": ["path"]}}
LIST_DIR = {"name": "list_directory", "description": "List directory contents",
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}},
                            "required": ["path"]}}


def text_result(t):
    return {"content": [{"type": "text", "text": t}]}


def call(seq, id_, name, path):
    return msg(seq, "c2s", {"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                            "params": {"name": name, "arguments": {"path": path}}})


def answer(seq, id_, result):
    return msg(seq, "s2c", {"jsonrpc": "2.0", "id": id_, "result": result}, latency_ms=5)


# the session behind §F-004's "Generated Config Example (Simple)"
FS_SESSION = rec(
    HEADER,
    msg(1, "c2s", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    answer(2, 1, {"tools": [READ_FILE, LIST_DIR]}),
    call(3, 2, "read_file", "/etc/hosts"),
    answer(4, 2, text_result("127.0.0.1 localhost\n::1 localhost\n")),
    call(5, 3, "read_file", "/etc/passwd"),
    answer(6, 3, text_result("root:x:0:0:root:/root:/bin/bash\n...")),
    call(7, 4, "list_directory", "/tmp"),
    answer(8, 4, text_result("file1.txt\nfile2.txt\nsubdir/")),
)


def rules(report, severity="error"):
    return report.rules(severity)


class ValidateTest(unittest.TestCase):
    def test_spec_example_is_valid(self):
        # §F-002 Recording Schema: header, messages, footer
        self.assertTrue(m.validate(SPEC_EXAMPLE).valid, m.validate(SPEC_EXAMPLE).findings)

    def test_header_only_is_valid(self):
        # EC-REC-001 "Recording contains only header, no messages" is a scenario the
        # tool must load; EC-REC-011 a missing footer "Load succeeds"
        self.assertTrue(m.validate(rec(HEADER)).valid)

    def test_missing_footer_is_valid(self):
        # EC-REC-011 Missing Footer: "Load succeeds, footer fields unavailable"
        r = m.validate(rec(HEADER, INIT, INIT_R))
        self.assertTrue(r.valid)
        self.assertIn("EC-REC-011", r.rules(None))

    def test_header_must_be_first(self):
        # "Line 1: Metadata header"
        self.assertFalse(m.validate(rec(INIT, HEADER)).valid)
        self.assertFalse(m.validate(rec(INIT, INIT_R)).valid)
        self.assertFalse(m.validate(b"").valid)

    def test_footer_must_be_last(self):
        # "Final line: Footer (written on clean shutdown)"
        self.assertFalse(m.validate(rec(HEADER, footer(1, 1, 0), INIT)).valid)
        self.assertTrue(m.validate(rec(HEADER, INIT, footer(1, 1, 0))).valid)

    def test_header_required_fields(self):
        # schema: required ["type", "version", "recorded_at", "upstream", "thoughtjack_version"]
        for field in ("version", "recorded_at", "upstream", "thoughtjack_version"):
            h = dict(HEADER)
            del h[field]
            self.assertFalse(m.validate(rec(h)).valid, field)
        h = dict(HEADER)
        del h["name"], h["tags"]  # optional
        self.assertTrue(m.validate(rec(h)).valid)

    def test_header_types(self):
        for field, value in (("name", 3), ("tags", "a,b"), ("tags", ["a", 1]), ("upstream", None)):
            h = dict(HEADER, **{field: value})
            self.assertFalse(m.validate(rec(h)).valid, (field, value))

    def test_version(self):
        # EC-REC-008: version "2.0" -> "Clear error message about version incompatibility"
        r = m.validate(rec(dict(HEADER, version="2.0")))
        self.assertFalse(r.valid)
        self.assertIn("EC-REC-008", rules(r))
        # schema pattern ^\d+\.\d+$
        for v in ("1", "1.0.0", "v1.0", "1.0\n", "١.٠"):
            self.assertFalse(m.validate(rec(dict(HEADER, version=v))).valid, v)

    def test_message_required_fields(self):
        # schema: required ["type", "seq", "ts", "dir", "msg"]
        for field in ("seq", "ts", "dir", "msg"):
            e = dict(INIT)
            del e[field]
            self.assertFalse(m.validate(rec(HEADER, e)).valid, field)

    def test_message_field_values(self):
        bad = [("seq", -1), ("seq", "1"), ("seq", True), ("seq", 1.5), ("dir", "C2S"),
               ("dir", "both"), ("msg", [1]), ("msg", "x"), ("latency_ms", -5),
               ("latency_ms", None), ("ts", "2025-02-04 10:00:00Z"), ("ts", "2025-02-30T10:00:00Z"),
               ("ts", "2025-02-04T10:00:00"), ("ts", "yesterday")]
        for field, value in bad:
            self.assertFalse(m.validate(rec(HEADER, dict(INIT, **{field: value}))).valid, (field, value))
        good = [("seq", 0), ("ts", "2025-02-04T10:00:00+02:00"), ("ts", "2024-02-29t10:00:00.5z"),
                ("latency_ms", 0)]
        for field, value in good:
            self.assertTrue(m.validate(rec(HEADER, dict(INIT, **{field: value}))).valid, (field, value))

    def test_unknown_type(self):
        # the schema's oneOf of header / message / footer
        self.assertFalse(m.validate(rec(HEADER, {"type": "comment"})).valid)
        self.assertFalse(m.validate(rec(HEADER, {"seq": 1})).valid)

    def test_footer_fields(self):
        f = footer(0, 0, 0)
        del f["duration_ms"]
        self.assertFalse(m.validate(rec(HEADER, f)).valid)
        self.assertFalse(m.validate(rec(HEADER, dict(footer(0, 0, 0), duration_ms=-1))).valid)

    def test_footer_counts(self):
        # example: "total_messages": 42 = "client_messages": 21 + "server_messages": 21
        self.assertFalse(m.validate(rec(HEADER, INIT, INIT_R, footer(3, 1, 1))).valid)

    def test_one_object_per_line(self):
        # "One JSON object per line"; NFR-003 "no multi-line JSON"
        pretty = json.dumps(HEADER, indent=2).encode() + b"\n"
        self.assertFalse(m.validate(pretty).valid)
        self.assertFalse(m.validate(rec(HEADER) + b"[1]\n").valid)
        self.assertFalse(m.validate(rec(HEADER) + line(INIT)[:-1] + line(NOTIF)).valid)
        self.assertFalse(m.validate(rec(HEADER) + b"\n" + rec(INIT)).valid)  # empty line

    def test_not_json(self):
        self.assertFalse(m.validate(rec(HEADER) + b'{"type":"message","seq":NaN}\n').valid)
        self.assertFalse(m.validate(rec(HEADER) + b'{"a":1}{"b":2}\n').valid)
        self.assertFalse(m.validate(rec(HEADER) + b'{"type":"footer"\x00}\n').valid)
        self.assertFalse(m.validate(rec(HEADER) + b'\xff\n').valid)

    def test_crlf_accepted(self):
        # NDJSON: "The newline character MAY be preceded by a carriage return"
        self.assertTrue(m.validate(SPEC_EXAMPLE.replace(b"\n", b"\r\n")).valid)

    def test_bom_is_not_part_of_a_file(self):
        # RFC 8259 §8.1 "Implementations MUST NOT add a byte order mark"
        self.assertFalse(m.validate(b"\xef\xbb\xbf" + SPEC_EXAMPLE).valid)

    def test_truncated_final_line(self):
        # EC-REC-002: a truncated recording is not a complete one
        r = m.validate(SPEC_EXAMPLE[:-10])
        self.assertFalse(r.valid)
        self.assertIn("EC-REC-002", rules(r))

    def test_deep_nesting_is_refused_not_crashing(self):
        deep = b'{"type":"message","msg":' + b"[" * 100000 + b"]" * 100000 + b"}\n"
        self.assertFalse(m.validate(rec(HEADER) + deep).valid)
        self.assertFalse(m.validate(b"[" * 100000).valid)

    def test_exact_integers(self):
        # u64: seq up to 2^64-1
        self.assertTrue(m.validate(rec(HEADER, dict(INIT, seq=2 ** 64 - 1))).valid)
        self.assertFalse(m.validate(rec(HEADER, dict(INIT, seq=2 ** 64))).valid)


class LoadTest(unittest.TestCase):
    def test_truncated_final_line_is_skipped(self):
        # EC-REC-002 "Load skips corrupt final line, logs warning, uses valid portion"
        data = rec(HEADER, INIT, INIT_R) + line(NOTIF)[:30]
        r = m.load(data)
        self.assertEqual(len(r.messages), 2)
        self.assertIn("EC-REC-002", {f["rule"] for f in r.findings if f["severity"] == "warning"})

    def test_corrupt_middle_line_is_refused(self):
        # F-003 "Validates recording on load (fails fast on corrupt file)"
        with self.assertRaises(m.RecordingRefused):
            m.load(rec(HEADER) + b"{oops\n" + rec(INIT))

    def test_version_mismatch_refused(self):
        # EC-REC-008
        with self.assertRaises(m.RecordingRefused) as cm:
            m.load(rec(dict(HEADER, version="2.0")))
        self.assertIn("version", str(cm.exception))

    def test_missing_footer_loads(self):
        # EC-REC-011 "Load succeeds, footer fields unavailable"
        r = m.load(rec(HEADER, INIT, INIT_R))
        self.assertIsNone(r.footer)

    def test_policies(self):
        # declared policies: bom ignore, blank_lines ignore
        r = m.load(b"\xef\xbb\xbf" + rec(HEADER) + b"\n\n" + rec(INIT))
        self.assertEqual(len(r.messages), 1)
        with self.assertRaises(m.RecordingRefused):
            m.load(b"\xef\xbb\xbf" + rec(HEADER), bom="refuse")
        with self.assertRaises(m.RecordingRefused):
            m.load(rec(HEADER) + b"\n", blank_lines="refuse")


def script(*msgs):
    return b"".join(line(x) for x in msgs)


def req(id_, method, params=None):
    d = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        d["params"] = params
    return d


class ReplayTest(unittest.TestCase):
    def setUp(self):
        self.rec = m.load(FS_SESSION)

    def test_sequential_returns_recorded_order(self):
        # sequential: "Return responses in exact recorded order"
        answers, end = m.replay(self.rec, script(req(1, "tools/list"), req(2, "anything")))
        self.assertEqual(end, "script-end")
        self.assertEqual(answers[0]["result"], {"tools": [READ_FILE, LIST_DIR]})
        self.assertEqual(answers[1]["result"], text_result("127.0.0.1 localhost\n::1 localhost\n"))
        self.assertEqual([a["id"] for a in answers], [1, 2])

    def test_by_request_is_order_independent(self):
        # by-request: "Match by method + hash of params" / "Agent may vary request order"
        s = script(req(7, "tools/call", {"name": "list_directory", "arguments": {"path": "/tmp"}}),
                   req(8, "tools/list"))
        answers, end = m.replay(self.rec, s, match_mode="by-request")
        self.assertEqual(answers[0]["result"], text_result("file1.txt\nfile2.txt\nsubdir/"))
        self.assertEqual(answers[1]["result"], {"tools": [READ_FILE, LIST_DIR]})
        self.assertEqual(end, "script-end")

    def test_unmatched_error_exits(self):
        # error: "Return JSON-RPC error, exit"
        s = script(req(1, "prompts/list"), req(2, "tools/list"))
        answers, end = m.replay(self.rec, s, match_mode="by-request", on_unmatched="error")
        self.assertEqual(end, "exit-non-zero")
        self.assertEqual(len(answers), 1)
        self.assertIn("error", answers[0])
        self.assertEqual(answers[0]["id"], 1)

    def test_unmatched_warn_continues(self):
        # warn: "Return JSON-RPC error, continue"; sketch: error(request.id(), -32000, ...)
        s = script(req(1, "prompts/list"), req(2, "tools/list"))
        answers, end = m.replay(self.rec, s, match_mode="by-request", on_unmatched="warn")
        self.assertEqual(end, "script-end")
        self.assertEqual(answers[0]["error"]["code"], -32000)
        self.assertEqual(answers[1]["result"], {"tools": [READ_FILE, LIST_DIR]})

    def test_notification_gets_no_answer(self):
        # EC-REC-005 "Replay doesn't wait for response, continues immediately"
        s = script({"jsonrpc": "2.0", "method": "notifications/initialized"}, req(1, "tools/list"))
        answers, _ = m.replay(self.rec, s)
        self.assertEqual(len(answers), 1)
        self.assertEqual(answers[0]["id"], 1)

    def test_empty_recording_errors(self):
        # EC-REC-001 "Replay returns error for any request"
        r = m.load(rec(HEADER))
        for mode in m.MATCH_MODES:
            answers, end = m.replay(r, script(req(1, "tools/list")), match_mode=mode, on_unmatched="warn")
            self.assertIn("error", answers[0], mode)

    def test_duplicate_ids(self):
        # EC-REC-003 "separate queues per request signature"
        data = rec(HEADER,
                   call(1, 5, "read_file", "/a"), call(2, 5, "read_file", "/b"),
                   answer(3, 5, text_result("A")), answer(4, 5, text_result("B")))
        r = m.load(data)
        s = script(req(1, "tools/call", {"name": "read_file", "arguments": {"path": "/b"}}),
                   req(2, "tools/call", {"name": "read_file", "arguments": {"path": "/a"}}))
        answers, _ = m.replay(r, s, match_mode="by-request")
        self.assertEqual([a["result"] for a in answers], [text_result("B"), text_result("A")])

    def test_binary_content_exact(self):
        # EC-REC-006 "Preserved exactly in recording, replayed exactly"
        img = {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}],
               "n": 1.0000000000000001}
        data = rec(HEADER, call(1, 1, "shot", "/"), answer(2, 1, img))
        data = data.replace(b'"n":1.0', b'"n":1.0000000000000001')
        answers, _ = m.replay(m.load(data), script(req(1, "tools/call", {"name": "shot", "arguments": {"path": "/"}})))
        text = m.dumps(answers[0])
        self.assertIn('"data":"iVBORw0KGgo="', text)
        self.assertIn("1.0000000000000001", text)

    def test_fuzzy_first_of_equals(self):
        # fuzzy: "Tolerate minor param changes"; EC-REC-012 "Return first match"
        data = rec(HEADER, call(1, 1, "read_file", "/a"), answer(2, 1, text_result("A")),
                   call(3, 2, "read_file", "/b"), answer(4, 2, text_result("B")))
        s = script(req(9, "tools/call", {"name": "read_file", "arguments": {"path": "/c"}}))
        answers, _ = m.replay(m.load(data), s, match_mode="fuzzy")
        self.assertEqual(answers[0]["result"], text_result("A"))

    def test_usage_errors(self):
        with self.assertRaises(m.UsageError):
            m.Replayer(self.rec, on_unmatched="passthrough")
        with self.assertRaises(m.UsageError):
            m.Replayer(self.rec, match_mode="exact")
        with self.assertRaises(m.UsageError):
            m.Replayer(self.rec, timing="scaled:-1")
        m.Replayer(self.rec, timing="scaled:0.5")
        m.Replayer(self.rec, timing="realistic")


class YamlLiteTest(unittest.TestCase):
    """Checks on the YAML text without a YAML library (stdlib only)."""

    def test_simple_config(self):
        # F-004 Generated Config Example (Simple)
        y, warnings = m.convert(m.load(FS_SESSION))
        self.assertIn('server:\n  name: "replay-session"\n  version: "1.0.0"\n', y)
        self.assertLess(y.index('name: "read_file"'), y.index('name: "list_directory"'))
        # read_file called twice -> sequence with on_exhausted: last
        self.assertEqual(y.count("sequence:"), 1)
        self.assertIn('on_exhausted: "last"', y)
        self.assertEqual(warnings, [])

    def test_empty_recording(self):
        # EC-REC-001 "convert produces minimal config with no tools"
        y, _ = m.convert(m.load(rec(HEADER)))
        self.assertIn("\ntools: []\n", y)

    def test_no_tools_list(self):
        # EC-REC-010 "infers tools from tools/call requests, warns about missing schemas"
        data = rec(HEADER, call(1, 1, "read_file", "/a"), answer(2, 1, text_result("A")))
        y, warnings = m.convert(m.load(data))
        self.assertIn('name: "read_file"', y)
        self.assertTrue(any("EC-REC-010" in w for w in warnings))

    def test_phased(self):
        # F-004 phased example: advance on tools/call, count N; "Responses from calls 1-3"
        y, _ = m.convert(m.load(FS_SESSION), style="phased", phase_after=2)
        self.assertIn('advance:\n      "on": "tools/call"\n      count: 2\n', y)
        self.assertIn("baseline:\n  tools:\n", y)
        base = y[y.index("baseline:"):y.index("phases:")]
        self.assertNotIn("file1.txt", base)   # third call is after the switch
        self.assertIn("root:x:0:0", base)      # second call is before it
        y3, _ = m.convert(m.load(FS_SESSION), style="phased")
        self.assertIn("count: 3", y3)         # --phase-after default: 3

    def test_comment_injection(self):
        h = dict(HEADER, upstream="x\nevil: true")
        y, _ = m.convert(m.load(rec(h)))
        self.assertNotIn("\nevil: true", y)


try:
    import yaml  # not stdlib: used only when present
except ImportError:  # pragma: no cover
    yaml = None


@unittest.skipIf(yaml is None, "PyYAML not installed")
class YamlParseTest(unittest.TestCase):
    def test_simple_parses(self):
        y, _ = m.convert(m.load(FS_SESSION))
        d = yaml.safe_load(y)
        self.assertEqual(d["tools"][0]["tool"], READ_FILE)
        self.assertEqual(d["tools"][0]["response"]["sequence"][1],
                         text_result("root:x:0:0:root:/root:/bin/bash\n..."))
        self.assertEqual(d["tools"][1]["response"], text_result("file1.txt\nfile2.txt\nsubdir/"))

    def test_phased_parses(self):
        y, _ = m.convert(m.load(FS_SESSION), style="phased", phase_after=1)
        d = yaml.safe_load(y)
        self.assertEqual(d["phases"][0]["advance"], {"on": "tools/call", "count": 1})
        self.assertEqual(d["baseline"]["tools"][0]["response"],
                         text_result("127.0.0.1 localhost\n::1 localhost\n"))
        self.assertNotIn("response", d["baseline"]["tools"][1])

    def test_awkward_strings(self):
        data = rec(HEADER, call(1, 1, "t", "/"),
                   answer(2, 1, {"content": [{"type": "text", "text": "a: b\n- c\x7f\u2028 #x"}],
                                 "on": "yes", "null": None}))
        y, _ = m.convert(m.load(data))
        d = yaml.safe_load(y)
        self.assertEqual(d["tools"][0]["response"]["content"][0]["text"], "a: b\n- c\x7f\u2028 #x")
        self.assertEqual(d["tools"][0]["response"]["on"], "yes")


if __name__ == "__main__":
    unittest.main()
