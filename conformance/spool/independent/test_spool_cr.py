"""Unit tests for spool_cr, on spool.md's own examples and edge cases.

Expected values come from the spec text (section cited on each test), or,
where the text is silent, from the choice recorded in README.md.
Run: python3 -m unittest discover -s conformance/spool/independent -p 'test_*.py'
"""

import base64
import importlib.util
import json
import os
import subprocess
import sys
import unittest

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("spool_cr", os.path.join(_HERE, "spool_cr.py"))
spool_cr = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(spool_cr)

# --- spool.md section 11 ---------------------------------------------------
S11_1 = b'{"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01T00:00:00Z"}'
S11_2 = S11_1 + b"\n" + \
    b'{"id":"00000000-0000-0000-0000-000000000001","ts":100,"type":"x_future_type","data":"unknown"}\n' + \
    b'{"id":"00000000-0000-0000-0000-000000000002","ts":200,"type":"prompt","content":"Hello"}\n'
S11_3 = b'{"id":"00000000-0000-0000-0000-000000000000","ts":0,"type":"session","version":"1.0","agent":"test","recorded_at":"2025-01-01T00:00:00Z","x_custom_field":"value","x_nested":{"a":1}}\n'
S11_4_2 = b'{"id":"00000000-0000-0000-0000-000000000001","ts":100,"type":"prompt","content":"Hello"}\n'
S11_4_3 = S11_1 + b"\n{invalid json here}\n" + \
    b'{"id":"00000000-0000-0000-0000-000000000002","ts":200,"type":"prompt","content":"Hello"}\n'
S11_4_4 = S11_1 + b"\n" + \
    b'{"id":"00000000-0000-0000-0000-000000000001","ts":100,"type":"prompt","content":"First"}\n' + \
    b'{"id":"00000000-0000-0000-0000-000000000001","ts":200,"type":"prompt","content":"Duplicate ID"}\n'
S11_6 = S11_1 + b"\n" + \
    b'{"id":"00000000-0000-0000-0000-000000000001","ts":500,"type":"prompt","content":"First"}\n' + \
    b'{"id":"00000000-0000-0000-0000-000000000002","ts":200,"type":"thinking","content":"Out of order"}\n' + \
    b'{"id":"00000000-0000-0000-0000-000000000003","ts":800,"type":"response","content":"Response"}\n'

# --- spool.md section 12 ---------------------------------------------------
S12_1 = r'''{"id":"018d5f2c-0000-7000-8000-000000000000","ts":0,"type":"session","version":"1.0","agent":"claude-code","agent_version":"1.2.0","recorded_at":"2025-01-31T10:30:00Z","title":"Finding the auth bug","duration_ms":8500,"entry_count":6,"tools_used":["read_file"],"ended":"completed"}
{"id":"018d5f2c-0000-7000-8000-000000000001","ts":0,"type":"prompt","content":"There's a security bug in auth.py, can you find it?"}
{"id":"018d5f2c-0000-7000-8000-000000000002","ts":500,"type":"thinking","content":"I'll start by reading the authentication code to understand the current implementation.","collapsed":true}
{"id":"018d5f2c-0000-7000-8000-000000000003","ts":3000,"type":"tool_call","tool":"read_file","input":{"path":"src/auth.py"}}
{"id":"018d5f2c-0000-7000-8000-000000000004","ts":3200,"type":"tool_result","call_id":"018d5f2c-0000-7000-8000-000000000003","output":"def verify_token(t):\n    query = f\"SELECT * FROM users WHERE token={t}\"\n    return db.execute(query)"}
{"id":"018d5f2c-0000-7000-8000-000000000005","ts":8000,"type":"response","content":"Found it! Line 2 has a SQL injection vulnerability. The token is directly interpolated into the query string instead of using parameterized queries.\n\nThe fix is to use parameterized queries:\n```python\nquery = \"SELECT * FROM users WHERE token = ?\"\nreturn db.execute(query, (t,))\n```"}
'''.encode()
S12_2 = r'''{"id":"018d5f2c-1000-7000-8000-000000000000","ts":0,"type":"session","version":"1.0","agent":"claude-code","recorded_at":"2025-01-31T14:00:00Z","title":"API Integration","author":"alex","tags":["api","tutorial"]}
{"id":"018d5f2c-1000-7000-8000-000000000001","ts":0,"type":"prompt","content":"Help me set up the Stripe API"}
{"id":"018d5f2c-1000-7000-8000-000000000002","ts":2000,"type":"tool_call","tool":"read_file","input":{"path":"config.json"}}
{"id":"018d5f2c-1000-7000-8000-000000000003","ts":2100,"type":"tool_result","call_id":"018d5f2c-1000-7000-8000-000000000002","output":"{\n  \"stripe_key\": \"[REDACTED]\"\n}","_redacted":[{"reason":"api_key","count":1}]}
{"id":"018d5f2c-1000-7000-8000-000000000004","ts":2100,"type":"redaction_marker","target_id":"018d5f2c-1000-7000-8000-000000000003","reason":"api_key","count":1,"inline":true}
{"id":"018d5f2c-1000-7000-8000-000000000005","ts":5000,"type":"response","content":"I can see your Stripe configuration. Let me help you set up the integration..."}
{"id":"018d5f2c-1000-7000-8000-000000000006","ts":2100,"type":"annotation","target_id":"018d5f2c-1000-7000-8000-000000000003","content":"Note: API key was automatically redacted for security","author":"system","style":"warning","created_at":"2025-01-31T14:01:00Z"}
'''.encode()
S12_3 = r'''{"id":"018d5f2c-2000-7000-8000-000000000000","ts":0,"type":"session","version":"1.0","agent":"claude-code","recorded_at":"2025-01-31T16:00:00Z","title":"Code Review with Security Analysis"}
{"id":"018d5f2c-2000-7000-8000-000000000001","ts":0,"type":"prompt","content":"Review my authentication module for security issues"}
{"id":"018d5f2c-2000-7000-8000-000000000002","ts":1000,"type":"thinking","content":"This requires detailed security analysis. I'll delegate to a specialized security reviewer."}
{"id":"018d5f2c-2000-7000-8000-000000000003","ts":2000,"type":"subagent_start","agent":"security-reviewer","context":"Delegating OWASP Top 10 analysis"}
{"id":"018d5f2c-2000-7000-8000-000000000004","ts":2100,"type":"prompt","content":"Analyze the following code for OWASP Top 10 vulnerabilities","subagent_id":"018d5f2c-2000-7000-8000-000000000003"}
{"id":"018d5f2c-2000-7000-8000-000000000005","ts":2500,"type":"tool_call","tool":"read_file","input":{"path":"auth.py"},"subagent_id":"018d5f2c-2000-7000-8000-000000000003"}
{"id":"018d5f2c-2000-7000-8000-000000000006","ts":2600,"type":"tool_result","call_id":"018d5f2c-2000-7000-8000-000000000005","output":"...code...","subagent_id":"018d5f2c-2000-7000-8000-000000000003"}
{"id":"018d5f2c-2000-7000-8000-000000000007","ts":8000,"type":"response","content":"Security analysis complete. Found 2 issues:\n1. SQL Injection (A03:2021)\n2. Broken Authentication (A07:2021)","subagent_id":"018d5f2c-2000-7000-8000-000000000003"}
{"id":"018d5f2c-2000-7000-8000-000000000008","ts":8100,"type":"subagent_end","start_id":"018d5f2c-2000-7000-8000-000000000003","summary":"Found 2 OWASP Top 10 vulnerabilities","status":"completed"}
{"id":"018d5f2c-2000-7000-8000-000000000009","ts":10000,"type":"response","content":"The security analysis found two critical issues that need to be addressed..."}
'''.encode()
S12_4 = r'''{"id":"018d5f2c-3000-7000-8000-000000000000","ts":0,"type":"session","version":"1.0","agent":"claude-code","recorded_at":"2025-01-31T18:00:00Z","title":"Deployment Script","ended":"completed"}
{"id":"018d5f2c-3000-7000-8000-000000000001","ts":0,"type":"prompt","content":"Deploy the application to production"}
{"id":"018d5f2c-3000-7000-8000-000000000002","ts":1000,"type":"tool_call","tool":"bash","input":{"command":"./deploy.sh"}}
{"id":"018d5f2c-3000-7000-8000-000000000003","ts":5000,"type":"error","code":"rate_limit","message":"API rate limit exceeded","recoverable":true,"details":{"retry_after_ms":30000}}
{"id":"018d5f2c-3000-7000-8000-000000000004","ts":35000,"type":"tool_call","tool":"bash","input":{"command":"./deploy.sh"}}
{"id":"018d5f2c-3000-7000-8000-000000000005","ts":45000,"type":"tool_result","call_id":"018d5f2c-3000-7000-8000-000000000004","output":"Deployment successful!"}
{"id":"018d5f2c-3000-7000-8000-000000000006","ts":46000,"type":"response","content":"Deployment completed successfully after recovering from a rate limit."}
'''.encode()

# --- section 6 examples, each after the 11.1 session line --------------------
SEC6 = {
    "6.1": b'{"id":"018d5f2c-8a3b-7def-9123-456789abcdef","ts":0,"type":"session","version":"1.0","agent":"claude-code","agent_version":"1.2.0","recorded_at":"2025-01-31T10:30:00Z","title":"Security review of auth.py","author":"alex","tags":["security","review"],"duration_ms":45000,"entry_count":12,"tools_used":["read_file","bash"],"ended":"completed"}',
    "6.2": b'{"id":"018d5f2c-8a3b-7def-0001-000000000001","ts":0,"type":"prompt","content":"Review this PR for security issues"}',
    "6.3": b'{"id":"018d5f2c-8a3b-7def-0001-000000000002","ts":1200,"type":"thinking","content":"Let me analyze the authentication flow...","collapsed":true}',
    "6.4": b'{"id":"018d5f2c-8a3b-7def-0001-000000000003","ts":5000,"type":"tool_call","tool":"read_file","input":{"path":"src/auth.py"}}',
    "6.5a": b'{"id":"018d5f2c-8a3b-7def-0001-000000000004","ts":5500,"type":"tool_result","call_id":"018d5f2c-8a3b-7def-0001-000000000003","output":"def verify_token(token):\\n    ...","truncated":true,"original_bytes":15420}',
    "6.5b": b'{"id":"018d5f2c-8a3b-7def-0001-000000000004","ts":5500,"type":"tool_result","call_id":"018d5f2c-8a3b-7def-0001-000000000003","error":"File not found: src/auth.py"}',
    "6.6": b'{"id":"018d5f2c-8a3b-7def-0001-000000000005","ts":8000,"type":"response","content":"I found a SQL injection vulnerability in auth.py on line 47..."}',
    "6.7": b'{"id":"018d5f2c-8a3b-7def-0001-000000000006","ts":10000,"type":"error","code":"rate_limit","message":"API rate limit exceeded, waiting 60 seconds","recoverable":true,"details":{"retry_after_ms":60000}}',
    "6.9": b'{"id":"018d5f2c-8a3b-7def-0003-000000000001","ts":3200,"type":"annotation","target_id":"018d5f2c-8a3b-7def-0001-000000000004","content":"SQL injection! Token is interpolated directly.","author":"alex","style":"highlight","created_at":"2025-01-31T11:45:00Z"}',
    "6.10": b'{"id":"018d5f2c-8a3b-7def-0004-000000000001","ts":5500,"type":"redaction_marker","target_id":"018d5f2c-8a3b-7def-0001-000000000004","reason":"api_key","count":1}',
}
S6_8_3 = b'''{"id":"018d5f2c-8a3b-7def-0002-000000000001","ts":9000,"type":"subagent_start","agent":"security-reviewer","context":"Delegating detailed security analysis"}
{"id":"018d5f2c-8a3b-7def-0002-000000000002","ts":9100,"type":"prompt","content":"Analyze auth.py for OWASP Top 10","subagent_id":"018d5f2c-8a3b-7def-0002-000000000001"}
{"id":"018d5f2c-8a3b-7def-0002-000000000003","ts":12000,"type":"response","content":"Found 3 issues...","subagent_id":"018d5f2c-8a3b-7def-0002-000000000001"}
{"id":"018d5f2c-8a3b-7def-0002-000000000004","ts":12100,"type":"subagent_end","start_id":"018d5f2c-8a3b-7def-0002-000000000001","summary":"Security analysis complete","status":"completed"}
'''


def uid(n):
    return "00000000-0000-0000-0000-%012x" % n


def entry(n, ts, type_, **fields):
    d = {"id": uid(n), "ts": ts, "type": type_}
    d.update(fields)
    return json.dumps(d, separators=(",", ":")).encode()


def with_session(*lines):
    return S11_1 + b"\n" + b"".join(l + b"\n" for l in lines)


def valid(data, **kw):
    return spool_cr.validate(data, **kw).valid


def rules(result):
    return {f["rule"] for f in result.findings}


def lines_of(out):
    return [json.loads(l) for l in out.decode("utf-8").split("\n")[:-1]]


class Section11(unittest.TestCase):
    def test_11_1_minimal_valid(self):
        # "A file containing only this line MUST be accepted as valid."
        self.assertTrue(valid(S11_1))
        self.assertTrue(valid(S11_1 + b"\n"))
        r, out = spool_cr.roundtrip(S11_1 + b"\n")
        self.assertTrue(r.accepted)
        self.assertEqual(out, S11_1 + b"\n")

    def test_11_2_unknown_type_preserved(self):
        # "Accept this file without error" / "Preserve the x_future_type entry"
        self.assertTrue(valid(S11_2))
        r, out = spool_cr.roundtrip(S11_2)
        self.assertTrue(r.accepted)
        types = [e["type"] for e in lines_of(out)]
        self.assertEqual(types, ["session", "x_future_type", "prompt"])
        self.assertEqual(lines_of(out)[1]["data"], "unknown")

    def test_11_3_unknown_fields_preserved(self):
        # "Readers MUST preserve x_custom_field and x_nested when round-tripping."
        self.assertTrue(valid(S11_3))
        _, out = spool_cr.roundtrip(S11_3)
        e = lines_of(out)[0]
        self.assertEqual(e["x_custom_field"], "value")
        self.assertEqual(e["x_nested"], {"a": 1})

    def test_11_4_1_empty_rejected(self):
        # "An empty file or file containing only whitespace MUST be rejected."
        for data in (b"", b"\n", b"   \n\t\r\n", b" "):
            self.assertFalse(valid(data), data)
            self.assertFalse(spool_cr.read(data).accepted, data)

    def test_11_4_2_missing_session_rejected(self):
        # "A file not starting with a session entry MUST be rejected."
        self.assertFalse(valid(S11_4_2))
        self.assertFalse(spool_cr.read(S11_4_2).accepted)

    def test_11_4_3_invalid_line(self):
        # "MUST either: Reject the entire file, OR Skip the invalid line" (policy)
        self.assertFalse(valid(S11_4_3))                     # not a conforming file
        r, out = spool_cr.roundtrip(S11_4_3, invalid_line="skip")
        self.assertTrue(r.accepted)
        self.assertEqual([e["type"] for e in lines_of(out)], ["session", "prompt"])
        self.assertFalse(spool_cr.read(S11_4_3, invalid_line="reject").accepted)

    def test_11_4_4_duplicate_ids(self):
        # Readers "SHOULD accept this file"; files: "IDs MUST be unique" (5.1)
        r, out = spool_cr.roundtrip(S11_4_4)
        self.assertTrue(r.accepted)
        self.assertEqual(len(lines_of(out)), 3)
        v = spool_cr.validate(S11_4_4)
        self.assertFalse(v.valid)
        self.assertIn("CR-5.1-unique", rules(v))

    def test_11_5_line_endings(self):
        # Unix, Windows, mixed, missing final line ending "MUST be accepted"
        lf = S11_2
        crlf = lf.replace(b"\n", b"\r\n")
        mixed = lf.replace(b"\n", b"\r\n", 1)
        nofinal = lf.rstrip(b"\n")
        for data in (lf, crlf, mixed, nofinal, crlf.rstrip(b"\r\n")):
            self.assertTrue(valid(data), data)
            r, out = spool_cr.roundtrip(data)
            self.assertTrue(r.accepted)
            self.assertEqual(out, lf)           # written with LF only (3.5 SHOULD)

    def test_11_6_out_of_order(self):
        # "Readers MUST accept this file."
        self.assertTrue(valid(S11_6))
        r, out = spool_cr.roundtrip(S11_6)
        self.assertTrue(r.accepted)
        self.assertEqual([e["ts"] for e in lines_of(out)], [0, 500, 200, 800])  # order kept


class Section12(unittest.TestCase):
    def test_complete_examples_valid_and_roundtrip(self):
        for name, data in (("12.1", S12_1), ("12.2", S12_2), ("12.3", S12_3), ("12.4", S12_4)):
            v = spool_cr.validate(data)
            self.assertTrue(v.valid, (name, v.findings))
            r, out = spool_cr.roundtrip(data)
            self.assertTrue(r.accepted, name)
            self.assertEqual(out, data, name)

    def test_section6_examples(self):
        for name, line in SEC6.items():
            data = line + b"\n" if name == "6.1" else with_session(line)
            v = spool_cr.validate(data)
            self.assertTrue(v.valid, (name, v.findings))
        self.assertTrue(valid(S11_1 + b"\n" + S6_8_3))


class FileRules(unittest.TestCase):
    def test_bom(self):
        # 3.4: files "MUST be encoded as UTF-8 without a byte order mark";
        # "Readers SHOULD ignore a leading BOM"; "Writers MUST NOT emit a BOM"
        data = b"\xef\xbb\xbf" + S11_2
        self.assertFalse(valid(data))
        r, out = spool_cr.roundtrip(data)
        self.assertTrue(r.accepted)
        self.assertEqual(out, S11_2)

    def test_invalid_utf8(self):
        data = with_session(b'{"id":"' + uid(1).encode() + b'","ts":1,"type":"prompt","content":"\xff"}')
        self.assertFalse(valid(data))
        r, out = spool_cr.roundtrip(data)         # skipped as an invalid line
        self.assertEqual(len(lines_of(out)), 1)

    def test_blank_lines_ignored_by_reader(self):
        # 3.6: "Blank lines ... MUST be ignored by readers."
        data = S11_1 + b"\n\n   \n\t\r\n" + entry(1, 5, "prompt", content="x") + b"\n\n"
        r, out = spool_cr.roundtrip(data)
        self.assertTrue(r.accepted)
        self.assertEqual(len(lines_of(out)), 2)
        self.assertTrue(valid(data))              # README: blank lines are a warning

    def test_surrounding_whitespace(self):
        # 3.6: "no leading or trailing whitespace outside the JSON structure"
        data = S11_1 + b"\n  " + entry(1, 5, "prompt", content="x") + b" \n"
        self.assertFalse(valid(data))
        r, out = spool_cr.roundtrip(data)
        self.assertTrue(r.accepted)
        self.assertEqual(out, S11_1 + b"\n" + entry(1, 5, "prompt", content="x") + b"\n")

    def test_not_an_object(self):
        # 3.6: "Each line MUST contain exactly one JSON object"
        for bad in (b"[1,2]", b'"text"', b"42", b"{}{}", b'{"a":1} {"b":2}'):
            self.assertFalse(valid(with_session(bad)), bad)

    def test_nan_rejected(self):
        # RFC 8259 has no NaN/Infinity; 10.1 "JSON is well-formed"
        for lit in (b"NaN", b"Infinity", b"-Infinity"):
            self.assertFalse(valid(with_session(b'{"id":"' + uid(1).encode() + b'","ts":1,"type":"x_a","v":' + lit + b"}")))

    def test_writer_output_shape(self):
        # 3.4/3.5: UTF-8, no BOM, LF line endings
        data = b"\xef\xbb\xbf" + S12_3.replace(b"\n", b"\r\n")
        _, out = spool_cr.roundtrip(data)
        self.assertFalse(out.startswith(b"\xef\xbb\xbf"))
        self.assertNotIn(b"\r", out)
        self.assertTrue(out.endswith(b"\n"))
        self.assertEqual(out, S12_3)

    def test_cr_inside_json_whitespace_removed(self):
        data = S11_1.replace(b',"ts"', b',\r"ts"') + b"\n"
        r, out = spool_cr.roundtrip(data)
        self.assertTrue(r.accepted)
        self.assertNotIn(b"\r", out)
        self.assertEqual(json.loads(out), json.loads(S11_1))

    def test_duplicate_names_survive_roundtrip(self):
        line = b'{"id":"' + uid(1).encode() + b'","ts":1,"type":"x_a","k":1,"k":2}'
        _, out = spool_cr.roundtrip(with_session(line))
        self.assertIn(line, out)

    def test_numbers_preserved_exactly(self):
        line = b'{"id":"' + uid(1).encode() + b'","ts":1,"type":"x_a","n":1.0000000000000000001,"m":1E400}'
        _, out = spool_cr.roundtrip(with_session(line))
        self.assertIn(line, out)


class EntryRules(unittest.TestCase):
    def test_uuid_format(self):
        # 5.1: "lowercase UUID strings with hyphens"
        for bad in ("00000000-0000-0000-0000-00000000000A", "000000000000000000000000000000001",
                    "{00000000-0000-0000-0000-000000000001}", "", "00000000-0000-0000-0000-00000000001"):
            self.assertFalse(valid(with_session(entry(0, 1, "prompt", content="x").replace(
                uid(0).encode(), bad.encode()))), bad)

    def test_uuid_references_format(self):
        data = with_session(entry(1, 1, "tool_result", call_id="ABC", output="x"))
        self.assertFalse(valid(data))

    def test_required_fields(self):
        self.assertFalse(valid(with_session(b'{"ts":1,"type":"prompt","content":"x"}')))
        self.assertFalse(valid(with_session(b'{"id":"' + uid(1).encode() + b'","type":"prompt","content":"x"}')))
        self.assertFalse(valid(with_session(b'{"id":"' + uid(1).encode() + b'","ts":1,"content":"x"}')))
        self.assertFalse(valid(with_session(entry(1, 1, "prompt"))))
        self.assertFalse(valid(with_session(entry(1, 1, "tool_call", tool="t"))))
        self.assertFalse(valid(with_session(entry(1, 1, "error", code="x"))))
        self.assertFalse(valid(with_session(entry(1, 1, "subagent_end"))))
        self.assertFalse(valid(with_session(entry(1, 1, "annotation", target_id=uid(0)))))
        self.assertFalse(valid(with_session(entry(1, 1, "redaction_marker"))))

    def test_session_required_fields(self):
        for f in ("version", "agent", "recorded_at", "id"):
            d = json.loads(S11_1)
            del d[f]
            self.assertFalse(valid(json.dumps(d).encode()), f)

    def test_session_ts_zero(self):
        # 6.1: ts "MUST be 0"
        self.assertFalse(valid(S11_1.replace(b'"ts":0', b'"ts":5')))
        self.assertFalse(spool_cr.read(S11_1.replace(b'"ts":0', b'"ts":5')).accepted)

    def test_ts_range(self):
        # 5.2: "MUST be >= 0", "representable as a 64-bit signed integer"
        self.assertFalse(valid(with_session(entry(1, -1, "prompt", content="x"))))
        self.assertTrue(valid(with_session(entry(1, 2 ** 63 - 1, "prompt", content="x"))))
        self.assertFalse(valid(with_session(entry(1, 2 ** 63, "prompt", content="x"))))
        self.assertFalse(valid(with_session(entry(1, 1.5, "prompt", content="x"))))
        self.assertFalse(valid(with_session(entry(1, "1", "prompt", content="x"))))
        self.assertFalse(valid(with_session(entry(1, True, "prompt", content="x"))))

    def test_integral_numbers_written_with_fraction(self):
        # 8.1 lists "1.0 vs 1" as the same value; 8.3 "Represent integers without
        # decimal points" is only RECOMMENDED -> 1.0 is an integer (note)
        line = entry(1, 7, "prompt", content="x").replace(b'"ts":7', b'"ts":7.0')
        self.assertTrue(valid(with_session(line)))
        self.assertTrue(valid(with_session(line.replace(b"7.0", b"7e0"))))
        self.assertFalse(valid(with_session(line.replace(b"7.0", b"1e400"))))

    def test_tool_result_exactly_one(self):
        # 6.5: "exactly one of output or error MUST be present"
        self.assertFalse(valid(with_session(entry(1, 1, "tool_result", call_id=uid(0), output="a", error="b"))))
        self.assertFalse(valid(with_session(entry(1, 1, "tool_result", call_id=uid(0)))))
        self.assertTrue(valid(with_session(entry(1, 1, "tool_result", call_id=uid(0), error="b"))))

    def test_field_types(self):
        self.assertFalse(valid(with_session(entry(1, 1, "thinking", content="x", collapsed="yes"))))
        self.assertFalse(valid(with_session(entry(1, 1, "tool_call", tool="t", input=[1]))))
        self.assertFalse(valid(with_session(entry(1, 1, "prompt", content=5))))
        self.assertFalse(valid(with_session(entry(1, 1, "response", content="x", original_bytes="5"))))
        self.assertFalse(valid(with_session(entry(1, 1, "subagent_end", start_id=uid(0), status="done"))))
        self.assertFalse(valid(S11_1.replace(b'"version":"1.0"', b'"version":1.0')))
        self.assertFalse(valid(S11_1.replace(b'"2025-01-01T00:00:00Z"', b'"yesterday"')))
        self.assertFalse(valid(S11_1.replace(b'"2025-01-01T00:00:00Z"', b'"2025-02-30T00:00:00Z"')))
        self.assertFalse(valid(S11_1.replace(b'}', b',"tags":["a",1]}')))
        self.assertFalse(valid(S11_1.replace(b'}', b',"ended":"finished"}')))

    def test_binary_output(self):
        # 9.2: type MUST be "binary", encoding MUST be "base64"
        good = {"type": "binary", "media_type": "image/png", "encoding": "base64", "data": "iVBORw0KGgo=", "size_bytes": 8}
        self.assertTrue(valid(with_session(entry(1, 1, "tool_result", call_id=uid(0), output=good))))
        for k, v in (("type", "blob"), ("encoding", "hex"), ("data", "not base64!")):
            bad = dict(good, **{k: v})
            self.assertFalse(valid(with_session(entry(1, 1, "tool_result", call_id=uid(0), output=bad))), k)
        self.assertTrue(valid(with_session(entry(1, 1, "prompt", content="x", attachments=[good]))))
        self.assertFalse(valid(with_session(entry(1, 1, "prompt", content="x", attachments=[{"a": 1}]))))

    def test_lone_surrogate(self):
        # 9.1: "All string fields MUST contain valid UTF-8 text."
        line = b'{"id":"' + uid(1).encode() + b'","ts":1,"type":"prompt","content":"\\ud800"}'
        self.assertFalse(valid(with_session(line)))
        pair = line.replace(b"\\ud800", b"\\ud83d\\ude00")
        self.assertTrue(valid(with_session(pair)))

    def test_unknown_fields_and_types_tolerated(self):
        # 7.1 / 7.3: MUST NOT cause parsing to fail
        self.assertTrue(valid(with_session(entry(1, 1, "x_metric", v=1))))
        v = spool_cr.validate(with_session(entry(1, 1, "future", v=1)))
        self.assertTrue(v.valid)
        self.assertIn("CR-7.2-x-prefix", rules(v))
        self.assertTrue(valid(with_session(entry(1, 1, "prompt", content="x", extra=1))))

    def test_version_handling(self):
        # 7.5: "SHOULD accept 1.x"; "MAY reject files with major version > 1" (policy)
        self.assertTrue(valid(S11_1.replace(b'"1.0"', b'"1.7"')))
        v2 = S11_1.replace(b'"1.0"', b'"2.0"')
        self.assertFalse(valid(v2))
        self.assertTrue(valid(v2, major_version="accept"))
        self.assertFalse(spool_cr.read(v2).accepted)
        self.assertTrue(spool_cr.read(v2, major_version="accept").accepted)

    def test_orphaned_marker_preserved(self):
        # 6.10.3: "MUST ignore the marker" ... "MUST be preserved if round-tripping"
        data = with_session(entry(1, 1, "redaction_marker", target_id=uid(99)))
        v = spool_cr.validate(data)
        self.assertTrue(v.valid)
        self.assertIn("CR-6.10.3-orphan", rules(v))
        _, out = spool_cr.roundtrip(data)
        self.assertEqual(out, data)

    def test_invalid_entry_policies(self):
        data = with_session(entry(1, -5, "prompt", content="x"), entry(2, 1, "prompt", content="y"))
        _, out = spool_cr.roundtrip(data, invalid_entry="skip")
        self.assertEqual([e["id"] for e in lines_of(out)], [uid(0), uid(2)])
        _, out = spool_cr.roundtrip(data, invalid_entry="keep")
        self.assertEqual(len(lines_of(out)), 3)
        r, out = spool_cr.roundtrip(data, invalid_entry="reject")
        self.assertFalse(r.accepted)
        self.assertIsNone(out)

    def test_nested_subagent_needs_parent(self):
        # 6.8.3: "The nested subagent_start entry MUST include parent_subagent_id"
        a = entry(1, 1, "subagent_start", agent="a")
        b = entry(2, 2, "subagent_start", agent="b", subagent_id=uid(1))
        self.assertFalse(valid(with_session(a, b)))
        b2 = entry(2, 2, "subagent_start", agent="b", subagent_id=uid(1), parent_subagent_id=uid(1))
        self.assertTrue(valid(with_session(a, b2)))


class Limits(unittest.TestCase):
    def chain(self, n):
        out = [entry(1, 1, "subagent_start", agent="a")]
        for i in range(2, n + 1):
            out.append(entry(i, i, "subagent_start", agent="a", parent_subagent_id=uid(i - 1)))
        return with_session(*out)

    def test_subagent_depth(self):
        self.assertTrue(valid(self.chain(10)))                      # default 10 (6.8.3 "e.g., 10 levels")
        self.assertFalse(valid(self.chain(11)))
        self.assertTrue(valid(self.chain(11), limits={"max_subagent_depth": 11}))
        self.assertFalse(spool_cr.read(self.chain(3), limits={"max_subagent_depth": 2}).accepted)

    def test_subagent_cycle(self):
        a = entry(1, 1, "subagent_start", agent="a", parent_subagent_id=uid(2))
        b = entry(2, 2, "subagent_start", agent="b", parent_subagent_id=uid(1))
        self.assertFalse(valid(with_session(a, b), limits={"max_subagent_depth": 1000}))

    def test_size_limits(self):
        self.assertFalse(valid(S11_2, limits={"max_file_bytes": len(S11_2) - 1}))
        self.assertTrue(valid(S11_2, limits={"max_file_bytes": len(S11_2)}))
        self.assertFalse(valid(S11_2, limits={"max_line_bytes": len(S11_1) - 1}))
        self.assertTrue(valid(S11_2, limits={"max_line_bytes": len(S11_1)}))
        self.assertFalse(valid(S11_2, limits={"max_entries": 2}))
        self.assertTrue(valid(S11_2, limits={"max_entries": 3}))

    def test_json_depth(self):
        line = b'{"id":"' + uid(1).encode() + b'","ts":1,"type":"x_a","v":' + b"[" * 9 + b"]" * 9 + b"}"
        self.assertTrue(valid(with_session(line), limits={"max_json_depth": 10}))
        self.assertFalse(valid(with_session(line), limits={"max_json_depth": 9}))
        deep = line.replace(b"[" * 9 + b"]" * 9, b"[" * 200000 + b"]" * 200000)
        v = spool_cr.validate(with_session(deep))                 # no crash, no hang
        self.assertFalse(v.valid)
        bracket_string = line.replace(b"[" * 9 + b"]" * 9, b'"' + b"[" * 500 + b'"')
        self.assertTrue(valid(with_session(bracket_string)))     # brackets in strings don't count

    def test_deep_but_permitted(self):
        line = b'{"id":"' + uid(1).encode() + b'","ts":1,"type":"x_a","v":' + b"[" * 5000 + b"]" * 5000 + b"}"
        self.assertTrue(valid(with_session(line), limits={"max_json_depth": 6000}))

    def test_base64_limit(self):
        b = {"type": "binary", "media_type": "a/b", "encoding": "base64", "data": "QUJDRA=="}
        data = with_session(entry(1, 1, "tool_result", call_id=uid(0), output=b))
        self.assertTrue(valid(data, limits={"max_base64_bytes": 4}))
        self.assertFalse(valid(data, limits={"max_base64_bytes": 3}))

    def test_unknown_limit(self):
        with self.assertRaises(spool_cr.LimitUnsupported):
            spool_cr.validate(S11_1, limits={"max_widgets": 3})


class Adapter(unittest.TestCase):
    def test_protocol_exchange(self):
        def case(i, op, data, args=None):
            c = {"type": "case", "id": i, "format": "spool", "operation": op,
                 "inputs": {"file": base64.b64encode(data).decode()}}
            if args:
                c["args"] = args
            return json.dumps(c)
        msgs = [json.dumps({"type": "hello", "protocol": 2, "formats": ["spool"]}),
                case("a", "validate", S11_1 + b"\n"),
                case("b", "roundtrip", b"\xef\xbb\xbf" + S11_2.replace(b"\n", b"\r\n")),
                case("c", "validate", b""),
                case("d", "roundtrip", S11_4_2),
                case("e", "validate", S11_1, {"limits": {"max_entries": 0}}),
                json.dumps({"type": "mystery"}),
                json.dumps({"type": "shutdown"})]
        p = subprocess.run([sys.executable, os.path.join(_HERE, "adapter.py")],
                           input="\n".join(msgs) + "\n", capture_output=True, text=True,
                           timeout=30, cwd="/")
        self.assertEqual(p.returncode, 0, p.stderr)
        out = [json.loads(l) for l in p.stdout.splitlines()]
        self.assertEqual(out[0]["type"], "hello")
        self.assertEqual(out[0]["protocol"], 2)
        self.assertEqual([a["id"] for a in out[1:]], ["a", "b", "c", "d", "e"])
        self.assertEqual([a["verdict"] for a in out[1:]], ["valid", "valid", "invalid", "invalid", "invalid"])
        self.assertEqual(base64.b64decode(out[2]["outputs"]["file"]), S11_2)


if __name__ == "__main__":
    unittest.main()
