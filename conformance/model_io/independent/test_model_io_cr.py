"""Unit tests for the clean-room Model IO implementation.

Expected values come from the spec texts (model-io.md, NOTES.md, RFC 8785),
never from the implementation's own output.  SHA-256 digests are computed here
with hashlib, following the spec's definitions (section 4.4, 4.5).
"""

import base64
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import unittest

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("model_io_cr", os.path.join(_HERE, "model_io_cr.py"))
m = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("model_io_cr", m)
_spec.loader.exec_module(m)


def sha(s: str) -> str:
    return "sha256:" + hashlib.sha256(s.encode("utf-8")).hexdigest()


def interaction(i, prompt="p", content="r", **extra):
    d = {"i": i, "prompt_hash": sha(prompt + str(i)), "response_hash": sha(content),
         "response_content": content}
    d.update(extra)
    return d


def session(**over):
    s = {
        "model_io_schema_version": "1.0.0",
        "adapter_id": "adapter-1",
        "model_id": "model-x",
        "mode": "record",
        "interactions": [interaction(0, content="hello"), interaction(1, content="world")],
    }
    for k, v in over.items():
        if v is DELETE:
            s.pop(k, None)
        else:
            s[k] = v
    return s


DELETE = object()


def enc(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def rules(data):
    ok, fs = m.validate(data if isinstance(data, bytes) else enc(data))
    return ok, [f.rule for f in fs if f.severity == "error"], fs


class TestValid(unittest.TestCase):
    def test_minimal_valid(self):
        ok, r, _ = rules(session())
        self.assertTrue(ok)
        self.assertEqual(r, [])

    def test_empty_interactions_valid(self):
        # MI4: interactions.length >= 0
        ok, r, _ = rules(session(interactions=[]))
        self.assertTrue(ok, r)

    def test_optional_fields_valid(self):
        s = session(created_at_utc="2026-01-05T00:00:00Z", ended_at_utc="2026-01-05T00:01:00.123Z",
                    stats={"total_interactions": 2, "total_tokens_input": 10,
                           "total_tokens_output": 20, "total_latency_ms": 30})
        s["interactions"][0].update(tokens_input=5, tokens_output=10, latency_ms=12.5)
        ok, r, fs = rules(s)
        self.assertTrue(ok, fs)
        self.assertEqual(fs, [])

    def test_replay_mode(self):
        self.assertTrue(rules(session(mode="replay"))[0])

    def test_same_prompt_at_different_indices(self):
        # MI8 note: duplicate prompt hashes are allowed at different indices.
        s = session()
        s["interactions"][1]["prompt_hash"] = s["interactions"][0]["prompt_hash"]
        self.assertTrue(rules(s)[0])

    def test_unicode_content_hash(self):
        # 4.5: sha256 over the UTF-8 encoded string
        s = session(interactions=[interaction(0, content="h\u00e9llo \U0001f600")])
        self.assertTrue(rules(s)[0])

    def test_exactly_10000_interactions(self):
        s = session(interactions=[interaction(n, content="") for n in range(10000)])
        ok, r, _ = rules(s)
        self.assertTrue(ok, r[:3])

    def test_index_written_as_float(self):
        # JSON numbers are numbers: 1.0 === 1 (MI5 uses ===)
        data = enc(session()).replace(b'"i": 1,', b'"i": 1.0,')
        self.assertIn(b'"i": 1.0', data)
        self.assertTrue(rules(data)[0])


class TestInvariants(unittest.TestCase):
    def test_mi1(self):
        for v in (DELETE, "", "1.0", "v1.0.0", "1.0.0-beta", "01.0.0", 1, "1.0.0\n"):
            ok, r, _ = rules(session(model_io_schema_version=v))
            self.assertFalse(ok, v)
            self.assertEqual(r, ["MI1"], v)
        self.assertTrue(rules(session(model_io_schema_version="2.10.3"))[0])

    def test_mi2(self):
        for field in ("adapter_id", "model_id"):
            for v in (DELETE, "", 5, None):
                ok, r, _ = rules(session(**{field: v}))
                self.assertFalse(ok)
                self.assertEqual(r, ["MI2"], (field, v))

    def test_mi3(self):
        for v in (DELETE, "Record", "RECORD", "live", "", None):
            ok, r, _ = rules(session(mode=v))
            self.assertFalse(ok)
            self.assertEqual(r, ["MI3"], v)

    def test_mi4(self):
        for v in (DELETE, {}, "[]", None):
            ok, r, _ = rules(session(interactions=v))
            self.assertFalse(ok)
            self.assertEqual(r, ["MI4"], v)

    def test_mi4_mi11_too_many(self):
        s = session(interactions=[interaction(n, content="") for n in range(10001)])
        ok, r, _ = rules(s)
        self.assertFalse(ok)
        self.assertEqual(sorted(r), ["MI11", "MI4"])

    def test_mi5_start_at_zero(self):
        s = session(interactions=[interaction(1)])
        ok, r, fs = rules(s)
        self.assertFalse(ok)
        self.assertEqual(r, ["MI5"])
        self.assertEqual(fs[0].pointer, "/interactions/0/i")

    def test_mi5_gap(self):
        s = session(interactions=[interaction(0), interaction(2)])
        self.assertEqual(rules(s)[1], ["MI5"])

    def test_mi5_non_number(self):
        s = session(interactions=[interaction("0")])
        self.assertEqual(rules(s)[1], ["MI5"])

    def test_mi5_mi9_unsorted(self):
        s = session(interactions=[interaction(1), interaction(0)])
        ok, r, fs = rules(s)
        self.assertFalse(ok)
        self.assertEqual(sorted(set(r)), ["MI5", "MI9"])
        self.assertEqual([f.pointer for f in fs if f.rule == "MI9"], ["/interactions/1/i"])

    def test_mi6(self):
        for v in ("sha256:" + "A" * 64, "sha256:" + "a" * 63, "SHA256:" + "a" * 64,
                  "a" * 64, "sha256:" + "a" * 64 + "\n", "sha256:" + "g" * 64, 7, DELETE):
            s = session()
            if v is DELETE:
                del s["interactions"][0]["prompt_hash"]
            else:
                s["interactions"][0]["prompt_hash"] = v
            ok, r, fs = rules(s)
            self.assertFalse(ok, v)
            self.assertEqual(r, ["MI6"], v)
            self.assertEqual(fs[0].pointer, "/interactions/0/prompt_hash")

    def test_mi7_integrity(self):
        s = session()
        s["interactions"][0]["response_hash"] = sha("something else")
        ok, r, fs = rules(s)
        self.assertFalse(ok)
        self.assertEqual(r, ["MI7"])
        self.assertEqual(fs[0].pointer, "/interactions/0/response_hash")

    def test_mi7_format(self):
        s = session()
        s["interactions"][0]["response_hash"] = s["interactions"][0]["response_hash"].upper()
        self.assertEqual(rules(s)[1], ["MI7"])
        s["interactions"][0]["response_hash"] = sha("hello") + "\n"
        self.assertEqual(rules(s)[1], ["MI7"])

    def test_mi8(self):
        s = session(interactions=[interaction(0), interaction(0)])
        s["interactions"][1]["prompt_hash"] = s["interactions"][0]["prompt_hash"]
        ok, r, fs = rules(s)
        self.assertFalse(ok)
        self.assertIn("MI8", r)
        self.assertEqual([f.pointer for f in fs if f.rule == "MI8"], ["/interactions/1"])

    def test_mi11_bytes_not_chars(self):
        # 1_000_000 bytes per interaction; "é" is two UTF-8 bytes.
        content = "\u00e9" * 500_001  # 500,001 characters, 1,000,002 bytes
        s = session(interactions=[interaction(0, content=content)])
        ok, r, _ = rules(s)
        self.assertFalse(ok)
        self.assertEqual(r, ["MI11"])
        content = "\u00e9" * 500_000  # exactly 1,000,000 bytes
        self.assertTrue(rules(session(interactions=[interaction(0, content=content)]))[0])

    def test_mi10_order_code_unit(self):
        # Sorted by (rule_id, path, message); rule ids compared as strings.
        s = session(adapter_id="", mode="x",
                    interactions=[interaction(n, content="") for n in range(12)])
        s["interactions"][10]["i"] = 99
        s["interactions"][2]["i"] = 98
        ok, r, fs = rules(s)
        keys = [(f.rule, f.pointer, f.message) for f in fs]
        self.assertEqual(keys, sorted(keys))
        self.assertEqual(r[:2], ["MI2", "MI3"])
        mi5 = [f.pointer for f in fs if f.rule == "MI5"]
        self.assertEqual(mi5, ["/interactions/10/i", "/interactions/2/i"])
        # code-unit order: "MI10" < "MI2"
        self.assertEqual(m.sort_findings([m.Finding("MI2", "", ""), m.Finding("MI10", "", "")])[0].rule,
                         "MI10")


class TestFieldTables(unittest.TestCase):
    def test_root_not_object(self):
        for doc in (b"[]", b"1", b'"x"', b"null"):
            self.assertFalse(m.validate(doc)[0], doc)

    def test_interaction_not_object(self):
        self.assertFalse(rules(session(interactions=[1]))[0])

    def test_response_content_required(self):
        s = session()
        del s["interactions"][0]["response_content"]
        ok, r, _ = rules(s)
        self.assertFalse(ok)
        self.assertNotIn("MI7", r)

    def test_optional_types(self):
        s = session()
        s["interactions"][0]["tokens_input"] = "12"
        self.assertFalse(rules(s)[0])
        self.assertFalse(rules(session(created_at_utc=0))[0])
        self.assertFalse(rules(session(stats=[]))[0])
        self.assertFalse(rules(session(stats={"total_interactions": 2}))[0])

    def test_timestamp_format_is_a_warning(self):
        ok, r, fs = rules(session(created_at_utc="yesterday"))
        self.assertTrue(ok)
        self.assertEqual([f.severity for f in fs], ["warning"])

    def test_unknown_members_allowed(self):
        s = session(extra={"a": [1, 2]})
        s["interactions"][0]["note"] = "x"
        self.assertTrue(rules(s)[0])


class TestParsing(unittest.TestCase):
    def bad(self, data, rule):
        ok, fs = m.validate(data)
        self.assertFalse(ok)
        self.assertEqual([f.rule for f in fs], [rule])
        with self.assertRaises(m.DocumentError):
            m.canonical_core(data)

    def test_bom(self):
        self.bad(b"\xef\xbb\xbf" + enc(session()), "json-bom")

    def test_invalid_utf8(self):
        self.bad(enc(session()).replace(b"hello", b"h\xffllo"), "json-utf8")

    def test_syntax(self):
        self.bad(b"", "json-syntax")
        self.bad(enc(session())[:-1], "json-syntax")
        self.bad(enc(session()) + b"{}", "json-syntax")
        self.bad(b"{'a': 1}", "json-syntax")

    def test_nan_infinity(self):
        for tok in (b"NaN", b"Infinity", b"-Infinity"):
            self.bad(enc(session()).replace(b'"i": 0', b'"i": ' + tok), "json-syntax")

    def test_number_out_of_range(self):
        self.bad(enc(session()).replace(b'"i": 0', b'"i": 1e400'), "json-number-range")

    def test_duplicate_member(self):
        data = enc(session()).replace(b'{"model_io', b'{"mode": "record", "model_io')
        self.bad(data, "json-duplicate-member")

    def test_lone_surrogate(self):
        data = enc(session()).replace(b'"hello"', b'"\\ud800"')
        self.bad(data, "json-lone-surrogate")

    def test_escaped_pair_is_fine(self):
        s = session(interactions=[interaction(0, content="\U0001f600")])
        data = json.dumps(s, ensure_ascii=True).encode()
        self.assertIn(b"\\ud83d\\ude00", data)
        self.assertTrue(m.validate(data)[0])

    def test_depth(self):
        self.bad(b"[" * 600 + b"]" * 600, "json-depth")
        self.bad(b"[" * 100000 + b"]" * 100000, "json-depth")
        self.assertTrue(rules(session(extra=json.loads("[" * 100 + "]" * 100)))[0])

    def test_json_whitespace_ok(self):
        data = b" \r\n\t" + json.dumps(session(), indent=2).encode() + b"\n"
        self.assertTrue(m.validate(data)[0])


class TestJCS(unittest.TestCase):
    def test_rfc8785_sample(self):
        # RFC 8785 section 3.2.3 (sample input and output)
        src = ('{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],'
               ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",'
               ' "literals": [null, true, false]}')
        value = m.parse_document(src.encode())
        expected = ('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
                    '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}')
        self.assertEqual(m.canonicalize(value), expected)

    def test_rfc8785_sorting(self):
        # RFC 8785 section 3.2.3: sorting by UTF-16 code units
        src = ('{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",'
               ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",'
               ' "\\u00f6": "Latin Small Letter O With Diaeresis"}')
        value = m.parse_document(src.encode())
        out = m.canonicalize(value)
        order = [k for k in json.loads(out)]
        self.assertEqual(order, ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"])

    def test_numbers(self):
        # ECMAScript Number::toString, RFC 8785 section 3.2.2.3 and appendix B
        cases = [
            (0.0, "0"), (-0.0, "0"), (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (9007199254740992.0, "9007199254740992"),
            (295147905179352830000.0, "295147905179352830000"),
            (1e21, "1e+21"), (1e20, "100000000000000000000"), (1e23, "1e+23"),
            (9.999999999999997e22, "9.999999999999997e+22"),
            (999999999999999700000.0, "999999999999999700000"),
            (0.000001, "0.000001"), (1e-7, "1e-7"), (4.35, "4.35"), (0.002, "0.002"),
            (-1.5, "-1.5"), (123.0, "123"), (1.5e-7, "1.5e-7"), (12345678901234567890.0, "12345678901234567000"),
        ]
        for x, s in cases:
            self.assertEqual(m.canonicalize(x), s, x)

    def test_string_escapes(self):
        # RFC 8785 3.2.2.2: short escapes, \u00xx lowercase, everything else literal
        s = "\x00\x08\t\n\x0b\x0c\r\x1f\"\\/\x7f\u2028\U0001f600"
        expected = '"\\u0000\\b\\t\\n\\u000b\\f\\r\\u001f\\"\\\\/\x7f\u2028\U0001f600"'
        self.assertEqual(m.canonicalize(s), expected)
        self.assertEqual(m._jcs_string_py(s), expected)

    def test_no_whitespace_and_literals(self):
        self.assertEqual(m.canonicalize({"b": [1.0, None, True], "a": {}}), '{"a":{},"b":[1,null,true]}')


class TestCoreAndHash(unittest.TestCase):
    def expected_canonical(self, s):
        # Built by hand from 4.3: core fields only, interactions sorted by i,
        # keys in UTF-16 order, no whitespace (ASCII-only test data).
        parts = []
        for it in sorted(s["interactions"], key=lambda x: x["i"]):
            parts.append('{"i":%d,"prompt_hash":"%s","response_content":%s,"response_hash":"%s"}'
                         % (it["i"], it["prompt_hash"], json.dumps(it["response_content"]), it["response_hash"]))
        return ('{"adapter_id":"%s","interactions":[%s],"mode":"%s","model_id":"%s","model_io_schema_version":"%s"}'
                % (s["adapter_id"], ",".join(parts), s["mode"], s["model_id"], s["model_io_schema_version"])).encode()

    def test_core_excludes_ephemeral(self):
        s = session(created_at_utc="2026-01-05T00:00:00Z", ended_at_utc="2026-01-05T00:00:01Z",
                    stats={"total_interactions": 2, "total_tokens_input": 1,
                           "total_tokens_output": 1, "total_latency_ms": 1})
        s["interactions"][0].update(tokens_input=1, tokens_output=2, latency_ms=3)
        plain = session()
        self.assertEqual(m.canonical_core(enc(s)), self.expected_canonical(plain))
        self.assertEqual(m.model_io_hash(enc(s)), m.model_io_hash(enc(plain)))

    def test_hash_definition(self):
        s = session()
        canon = self.expected_canonical(s)
        self.assertEqual(m.model_io_hash(enc(s)), "sha256:" + hashlib.sha256(canon).hexdigest())
        # no trailing newline
        self.assertNotEqual(m.model_io_hash(enc(s)), "sha256:" + hashlib.sha256(canon + b"\n").hexdigest())

    def test_core_sorted_by_i(self):
        s = session(interactions=[interaction(1, content="b"), interaction(0, content="a")])
        self.assertEqual(m.canonical_core(enc(s)), self.expected_canonical(s))
        self.assertLess(m.canonical_core(enc(s)).index(b'"i":0'), m.canonical_core(enc(s)).index(b'"i":1'))

    def test_float_index_canonical(self):
        data = enc(session()).replace(b'"i": 1,', b'"i": 1.0,')
        self.assertEqual(m.canonical_core(data), self.expected_canonical(session()))

    def test_non_ascii_content_utf8(self):
        s = session(interactions=[interaction(0, content="\u00e9\n")])
        out = m.canonical_core(enc(s))
        self.assertIn('"response_content":"\u00e9\\n"'.encode("utf-8"), out)

    def test_no_core(self):
        for over in ({"mode": DELETE}, {"interactions": DELETE}, {"adapter_id": 3},
                     {"interactions": [{"i": 0}]}, {"interactions": [5]}):
            with self.assertRaises(m.NoCoreError, msg=over):
                m.canonical_core(enc(session(**over)))
        with self.assertRaises(m.NoCoreError):
            m.canonical_core(b"[]")

    def test_invariant_violation_still_hashed(self):
        s = session(mode="other")
        s["interactions"][0]["response_hash"] = sha("nope")
        self.assertTrue(m.model_io_hash(enc(s)).startswith("sha256:"))

    def test_limits_refused(self):
        s = session(interactions=[interaction(n, content="") for n in range(10001)])
        with self.assertRaises(m.LimitError):
            m.model_io_hash(enc(s))


class TestAdapter(unittest.TestCase):
    def test_exchange(self):
        good = base64.b64encode(enc(session())).decode()
        reqs = [
            {"type": "hello", "protocol": 2, "formats": ["model-io"]},
            {"type": "case", "id": "a", "format": "model-io", "operation": "validate", "inputs": {"file": good}},
            {"type": "case", "id": "b", "format": "model-io", "operation": "hash", "inputs": {"file": good}},
            {"type": "case", "id": "c", "format": "model-io", "operation": "canonicalize",
             "inputs": {"file": base64.b64encode(b"\xff").decode()}},
            {"type": "case", "id": "d", "format": "model-io", "operation": "validate", "inputs": {"file": ""}},
            {"type": "shutdown"},
        ]
        stdin = "".join(json.dumps(r) + "\n" for r in reqs)
        env = dict(os.environ)
        env.pop("ARCS_MUTANT", None)
        p = subprocess.run([sys.executable, os.path.join(_HERE, "adapter.py")], input=stdin.encode(),
                           capture_output=True, timeout=30, cwd="/", env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [json.loads(x) for x in p.stdout.decode().splitlines()]
        self.assertEqual(len(lines), 5)
        hello = lines[0]
        self.assertEqual(hello["protocol"], 2)
        self.assertEqual(hello["formats"]["model-io"]["policies"], {"violation_order": "code-unit"})
        self.assertEqual([x["id"] for x in lines[1:]], ["a", "b", "c", "d"])
        self.assertEqual(lines[1]["verdict"], "valid")
        h = base64.b64decode(lines[2]["outputs"]["hash"]).decode()
        self.assertEqual(h, "sha256:" + hashlib.sha256(TestCoreAndHash.expected_canonical(None, session())).hexdigest())
        self.assertEqual(lines[3]["verdict"], "invalid")
        self.assertEqual(lines[4]["verdict"], "invalid")


if __name__ == "__main__":
    unittest.main()
