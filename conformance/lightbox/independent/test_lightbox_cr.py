"""Unit tests for the clean-room Lightbox implementation.

Expected values come from the spec text (lightbox.md), NOTES.md and the runner
protocol: canonical strings are written out by hand from the canonicalization
rules, never copied from the implementation's output.
"""

import base64
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("lightbox_cr", os.path.join(HERE, "lightbox_cr.py"))
lb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lb)


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


# The spec's example event (lightbox.md, "Example Event"), as the first event of a
# chain (prev_hash null).  Its canonical form, written by hand from rules 1-6:
# keys sorted at every level, no whitespace, no ASCII escaping, no 'hash' member.
EXAMPLE_CANON_1 = (
    '{"input":{"subject":"Hello","to":"user@example.com"},'
    '"invocation_id":"inv_00042",'
    '"output":{"message_id":"msg_123","success":true},'
    '"prev_hash":null,'
    '"schema_version":"1",'
    '"session_id":"session_92c1",'
    '"status":"complete",'
    '"timestamp_end":"2025-01-15T10:23:01.456+00:00",'
    '"timestamp_start":"2025-01-15T10:23:01.123+00:00",'
    '"tool":"send_email"}'
)
H1 = sha(EXAMPLE_CANON_1)

# Second event: an async pending call (lightbox.md, "Async Events", item 1), with a
# non-ASCII string that must stay unescaped (rule 3).
def canon_2(prev):
    return (
        '{"input":{"q":"caf\u00e9 \u2713"},'
        '"invocation_id":"inv_00043",'
        '"output":null,'
        '"prev_hash":"%s",'
        '"schema_version":"1",'
        '"session_id":"session_92c1",'
        '"status":"pending",'
        '"timestamp_end":null,'
        '"timestamp_start":"2025-01-15T10:23:02.000+00:00",'
        '"tool":"search"}' % prev
    )

H2 = sha(canon_2(H1))

# Third event: its resolution (item 2: same invocation_id, complete, input={}).
def canon_3(prev):
    return (
        '{"input":{},'
        '"invocation_id":"inv_00043",'
        '"output":{"hits":3},'
        '"prev_hash":"%s",'
        '"schema_version":"1",'
        '"session_id":"session_92c1",'
        '"status":"complete",'
        '"timestamp_end":"2025-01-15T10:23:03.000+00:00",'
        '"timestamp_start":"2025-01-15T10:23:02.000+00:00",'
        '"tool":"search"}' % prev
    )

H3 = sha(canon_3(H2))


def on_disk(canon, h):
    """An event line as a writer with Python's default escaping puts it on disk:
    keys in another order, spaces, \\u escapes (NOTES.md: the bytes on disk are not
    the canonical bytes)."""
    ev = json.loads(canon)
    ev["hash"] = h
    items = list(ev.items())[::-1]  # reverse order on purpose
    return json.dumps(dict(items)).encode("ascii")


GOOD = b"\n".join([
    on_disk(EXAMPLE_CANON_1, H1),
    on_disk(canon_2(H1), H2),
    on_disk(canon_3(H2), H3),
]) + b"\n"

META = (b'{"session_id": "session_92c1", "schema_version": "1", '
        b'"lightbox_version": "0.1.0", "created_at": "2025-01-15T10:00:00.000+00:00"}')


def lines(data):
    return data.split(b"\n")


def rules(res):
    return {f["rule"] for f in res.findings if f["severity"] == "error"}


class Canonical(unittest.TestCase):
    def test_example_event_canonical_bytes(self):
        ev = json.loads(EXAMPLE_CANON_1)
        ev["hash"] = "b4e3d2"
        self.assertEqual(lb.canonical_bytes(ev), EXAMPLE_CANON_1.encode("utf-8"))

    def test_hash_is_sha256_hex_of_canonical(self):
        ev = json.loads(EXAMPLE_CANON_1)
        self.assertEqual(lb.compute_hash(ev), H1)
        self.assertRegex(lb.compute_hash(ev), r"^[0-9a-f]{64}$")

    def test_no_ascii_escaping(self):
        # Rule 3: UTF-8, no ASCII escaping.
        self.assertEqual(lb.canonical_bytes({"a": "\u00e9\U0001F600"}),
                         '{"a":"\u00e9\U0001F600"}'.encode("utf-8"))

    def test_keys_sorted_at_all_levels_by_code_point(self):
        # Rule 1, and NOTES.md: code point order.  U+FF5E is below U+1F600 as a code
        # point, though above it in UTF-16 code units (RFC 8785 would swap them).
        ev = {"b": {"z": 1, "a": 2}, "a": [{"y": 1, "x": 2}],
              "\U0001F600": 1, "\uff5e": 2}
        self.assertEqual(lb.canonical_bytes(ev),
                         '{"a":[{"x":2,"y":1}],"b":{"a":2,"z":1},"\uff5e":2,"\U0001F600":1}'
                         .encode("utf-8"))

    def test_no_unicode_normalization(self):
        # Rule 5: "e" + combining acute stays two code points.
        self.assertEqual(lb.canonical_bytes({"s": "e\u0301"}), '{"s":"e\u0301"}'.encode("utf-8"))

    def test_null_serialized_as_null(self):
        self.assertEqual(lb.canonical_bytes({"output": None}), b'{"output":null}')

    def test_float_has_no_canonical_form(self):
        with self.assertRaises(lb.NoCanonicalForm):
            lb.canonical_bytes({"x": 1.5})

    def test_only_top_level_hash_excluded(self):
        self.assertEqual(lb.canonical_bytes({"hash": "x", "input": {"hash": "y"}}),
                         b'{"input":{"hash":"y"}}')


class Validate(unittest.TestCase):
    def test_good_session(self):
        r = lb.validate(GOOD, META)
        self.assertTrue(r.ok, r.findings)

    def test_good_without_meta(self):
        self.assertTrue(lb.validate(GOOD).ok)

    def test_empty_session(self):
        self.assertTrue(lb.validate(b"").ok)

    def test_tampered_output(self):
        bad = GOOD.replace(b"msg_123", b"msg_124")
        r = lb.validate(bad)
        self.assertFalse(r.ok)
        self.assertIn("LB-hash-mismatch", rules(r))

    def test_float_prohibited(self):
        bad = GOOD.replace(b'"hits": 3', b'"hits": 3.0')
        self.assertIn('"hits": 3.0', bad.decode())
        self.assertIn("LB-float", rules(lb.validate(bad)))

    def test_exponent_is_a_float(self):
        bad = GOOD.replace(b'"hits": 3', b'"hits": 3e0')
        self.assertIn("LB-float", rules(lb.validate(bad)))

    def test_nan_prohibited(self):
        bad = GOOD.replace(b'"hits": 3', b'"hits": NaN')
        self.assertIn("LB-float", rules(lb.validate(bad)))

    def test_missing_required_field(self):
        ev = json.loads(EXAMPLE_CANON_1)
        del ev["tool"]
        ev["hash"] = lb.compute_hash(ev)
        r = lb.validate(json.dumps(ev).encode() + b"\n")
        self.assertIn("LB-required-field", rules(r))

    def test_missing_schema_version(self):
        # "Writers MUST NOT omit schema_version field"
        ev = json.loads(EXAMPLE_CANON_1)
        del ev["schema_version"]
        ev["hash"] = lb.compute_hash(ev)
        self.assertFalse(lb.validate(json.dumps(ev).encode() + b"\n").ok)

    def test_first_prev_hash_must_be_null(self):
        ev = json.loads(EXAMPLE_CANON_1)
        ev["prev_hash"] = "a" * 64
        ev["hash"] = lb.compute_hash(ev)
        self.assertIn("LB-chain-first", rules(lb.validate(json.dumps(ev).encode() + b"\n")))

    def test_removed_event_breaks_link(self):
        ls = lines(GOOD)
        self.assertIn("LB-chain-link", rules(lb.validate(ls[0] + b"\n" + ls[2] + b"\n")))

    def test_timestamp_end_is_required_even_when_null(self):
        # Required field table: "timestamp_end | string|null"; absent is not null.
        ev = json.loads(canon_2(H1))
        ev["prev_hash"] = None
        del ev["timestamp_end"]
        ev["hash"] = lb.compute_hash(ev)
        self.assertIn("LB-required-field", rules(lb.validate(json.dumps(ev).encode() + b"\n")))

    def test_bad_status(self):
        ev = json.loads(EXAMPLE_CANON_1)
        ev["status"] = "done"
        ev["hash"] = lb.compute_hash(ev)
        self.assertIn("LB-status", rules(lb.validate(json.dumps(ev).encode() + b"\n")))

    def test_pending_must_have_null_output(self):
        ev = json.loads(canon_2(H1))
        ev["prev_hash"] = None
        ev["output"] = {}
        ev["hash"] = lb.compute_hash(ev)
        self.assertIn("LB-pending", rules(lb.validate(json.dumps(ev).encode() + b"\n")))

    def test_resolution_must_have_empty_input(self):
        ls = lines(GOOD)
        e3 = json.loads(canon_3(H2))
        e3["input"] = {"q": "x"}
        e3["hash"] = lb.compute_hash(e3)
        data = ls[0] + b"\n" + ls[1] + b"\n" + json.dumps(e3).encode() + b"\n"
        self.assertIn("LB-async-input", rules(lb.validate(data)))

    def test_reused_invocation_id(self):
        # "Each retry attempt is a NEW invocation_id"
        e1 = json.loads(EXAMPLE_CANON_1)
        e1["hash"] = lb.compute_hash(e1)
        e2 = dict(json.loads(EXAMPLE_CANON_1), prev_hash=e1["hash"], retry_of="inv_00042")
        e2["hash"] = lb.compute_hash(e2)
        data = json.dumps(e1).encode() + b"\n" + json.dumps(e2).encode() + b"\n"
        r = lb.validate(data)
        self.assertIn("LB-invocation-unique", rules(r))

    def test_retry_with_new_id_is_fine(self):
        e1 = json.loads(EXAMPLE_CANON_1)
        e1["status"] = "error"
        e1["error"] = {"message": "timeout"}
        e1["hash"] = lb.compute_hash(e1)
        e2 = dict(json.loads(EXAMPLE_CANON_1), prev_hash=e1["hash"], retry_of="inv_00042",
                  invocation_id="inv_00043")
        e2["hash"] = lb.compute_hash(e2)
        data = json.dumps(e1).encode() + b"\n" + json.dumps(e2).encode() + b"\n"
        self.assertTrue(lb.validate(data).ok, lb.validate(data).findings)

    def test_unknown_fields_allowed(self):
        # "Lightbox readers MUST ignore unknown fields" (they are still hashed)
        ev = json.loads(EXAMPLE_CANON_1)
        ev["new_field"] = "x"
        ev["hash"] = lb.compute_hash(ev)
        self.assertTrue(lb.validate(json.dumps(ev).encode() + b"\n").ok)

    def test_redacted_example(self):
        # lightbox.md "Redacted Content"
        ev = json.loads(EXAMPLE_CANON_1)
        ev["input"] = {"api_key": "[REDACTED]"}
        ev["output"] = {"large_field": {"_redacted": True, "_reason": "size_limit",
                                        "_bytes": 102400}}
        ev["content_hashes"] = {"input.api_key": "0" * 64, "output.large_field": "1" * 64}
        ev["hash"] = lb.compute_hash(ev)
        self.assertTrue(lb.validate(json.dumps(ev).encode() + b"\n").ok)

    def test_schema_version_must_be_1(self):
        ev = json.loads(EXAMPLE_CANON_1)
        ev["schema_version"] = "2"
        ev["hash"] = lb.compute_hash(ev)
        self.assertIn("LB-schema-version", rules(lb.validate(json.dumps(ev).encode() + b"\n")))

    def test_schema_version_is_a_string(self):
        ev = json.loads(EXAMPLE_CANON_1)
        ev["schema_version"] = 1
        ev["hash"] = lb.compute_hash(ev)
        self.assertIn("LB-field-type", rules(lb.validate(json.dumps(ev).encode() + b"\n")))

    def test_timestamps_out_of_order_are_fine(self):
        # "Timestamps are observational only (may be skewed)"
        e1 = json.loads(EXAMPLE_CANON_1)
        e1["timestamp_start"] = "2030-01-01T00:00:00.000+00:00"
        e1["hash"] = lb.compute_hash(e1)
        self.assertTrue(lb.validate(json.dumps(e1).encode() + b"\n").ok)

    def test_invalid_utf8_and_not_object(self):
        self.assertIn("LB-utf8", rules(lb.validate(b'{"a":"\xff"}\n')))
        self.assertIn("LB-not-object", rules(lb.validate(b'[1]\n')))
        self.assertIn("LB-json", rules(lb.validate(b'{"a":\n')))

    def test_meta_session_mismatch(self):
        meta = META.replace(b"session_92c1", b"session_other")
        self.assertIn("LB-session-id", rules(lb.validate(GOOD, meta)))

    def test_meta_broken(self):
        self.assertFalse(lb.validate(GOOD, b"{").ok)

    def test_crlf_accepted(self):
        self.assertTrue(lb.validate(GOOD.replace(b"\n", b"\r\n")).ok)

    def test_deep_nesting_is_a_verdict(self):
        r = lb.validate(b"[" * 100000 + b"]" * 100000 + b"\n")
        self.assertFalse(r.ok)


class Verify(unittest.TestCase):
    def test_good(self):
        self.assertTrue(lb.verify(GOOD, META).ok)

    def test_first_broken_content(self):
        r = lb.verify(GOOD.replace(b"msg_123", b"msg_124"))
        self.assertFalse(r.ok)
        self.assertEqual(r.first_broken, 0)

    def test_first_broken_link(self):
        ls = lines(GOOD)
        r = lb.verify(ls[0] + b"\n" + ls[2] + b"\n")
        self.assertEqual(r.first_broken, 1)

    def test_broken_last(self):
        bad = GOOD.replace(b'"hits": 3', b'"hits": 4')
        self.assertEqual(lb.verify(bad).first_broken, 2)

    def test_reserialized_not_bytes(self):
        # The bytes on disk differ from the canonical bytes; verify re-serializes.
        self.assertNotIn(EXAMPLE_CANON_1.encode(), GOOD)
        self.assertTrue(lb.verify(GOOD).ok)

    def test_unknown_version_refused(self):
        meta = META.replace(b'"schema_version": "1"', b'"schema_version": "2"')
        r = lb.verify(GOOD, meta, policy="refuse")
        self.assertFalse(r.ok)
        self.assertIsNone(r.first_broken)
        self.assertTrue(lb.verify(GOOD, meta, policy="warn").ok)

    def test_empty(self):
        self.assertTrue(lb.verify(b"").ok)

    def test_float_event_breaks(self):
        bad = GOOD.replace(b'"hits": 3', b'"hits": 3.0')
        r = lb.verify(bad)
        self.assertEqual(r.first_broken, 2)


class Hash(unittest.TestCase):
    def test_hashes(self):
        r = lb.hash_events(GOOD)
        self.assertTrue(r.ok)
        self.assertEqual(r.hashes, [H1, H2, H3])

    def test_float_refused(self):
        self.assertFalse(lb.hash_events(b'{"a":1.0}\n').ok)

    def test_big_integer_exact(self):
        # Integers of any size are exact (NOTES.md), up to CPython's 4300 digits.
        n = "1" + "0" * 40
        r = lb.hash_events(('{"a":%s}\n' % n).encode())
        self.assertEqual(r.hashes, [sha('{"a":%s}' % n)])

    def test_negative_zero_integer(self):
        # CPython reads -0 as the integer 0 and writes it as 0.
        self.assertEqual(lb.hash_events(b'{"a":-0}\n').hashes, [sha('{"a":0}')])

    def test_escapes_unescaped(self):
        r = lb.hash_events(b'{"a":"\\u00e9\\n\\u0001"}\n')
        self.assertEqual(r.hashes, [sha('{"a":"\u00e9\\n\\u0001"}')])


class Read(unittest.TestCase):
    def test_good(self):
        r = lb.read(GOOD, META)
        self.assertTrue(r.ok)
        self.assertEqual(len(r.events), 3)

    def test_unknown_fields_ignored(self):
        ev = json.loads(EXAMPLE_CANON_1)
        ev["future"] = {"x": 1}
        ev["hash"] = "0" * 64
        self.assertTrue(lb.read(json.dumps(ev).encode() + b"\n").ok)

    def test_unknown_version_policy(self):
        bad = GOOD.replace(b'"schema_version": "1"', b'"schema_version": "2"')
        self.assertFalse(lb.read(bad, policy="refuse").ok)
        r = lb.read(bad, policy="warn")
        self.assertTrue(r.ok)
        self.assertTrue(any(f["rule"] == "LB-unknown-schema-version" and
                            f["severity"] == "warning" for f in r.findings))

    def test_garbage_refused(self):
        self.assertFalse(lb.read(b"not json\n").ok)


class Write(unittest.TestCase):
    def strip(self, canon):
        ev = json.loads(canon)
        del ev["prev_hash"]
        return json.dumps(ev).encode()

    def test_write_chains(self):
        data = b"\n".join([self.strip(EXAMPLE_CANON_1), self.strip(canon_2(H1)),
                           self.strip(canon_3(H2))]) + b"\n"
        r = lb.write(data)
        self.assertTrue(r.ok, r.findings)
        self.assertTrue(lb.verify(r.events_out).ok)
        self.assertEqual(lb.hash_events(r.events_out).hashes, [H1, H2, H3])

    def test_write_sets_schema_version(self):
        ev = json.loads(EXAMPLE_CANON_1)
        del ev["prev_hash"], ev["schema_version"]
        r = lb.write(json.dumps(ev).encode() + b"\n")
        self.assertTrue(r.ok, r.findings)
        out = json.loads(r.events_out)
        self.assertEqual(out["schema_version"], "1")
        self.assertIsNone(out["prev_hash"])
        self.assertEqual(out["hash"], H1)

    def test_write_refuses_float(self):
        ev = json.loads(EXAMPLE_CANON_1)
        del ev["prev_hash"]
        ev["output"] = {"x": 0.5}
        self.assertFalse(lb.write(json.dumps(ev).encode() + b"\n").ok)

    def test_write_refuses_other_version(self):
        ev = json.loads(EXAMPLE_CANON_1)
        del ev["prev_hash"]
        ev["schema_version"] = "2"
        self.assertFalse(lb.write(json.dumps(ev).encode() + b"\n").ok)


class Adapter(unittest.TestCase):
    def test_exchange(self):
        cases = [
            {"type": "case", "id": "v", "format": "lightbox", "operation": "validate",
             "inputs": {"events": base64.b64encode(GOOD).decode(),
                        "meta": base64.b64encode(META).decode()}},
            {"type": "case", "id": "f", "format": "lightbox", "operation": "verify",
             "inputs": {"events": base64.b64encode(GOOD.replace(b"msg_123", b"x")).decode()}},
            {"type": "case", "id": "h", "format": "lightbox", "operation": "hash",
             "inputs": {"events": base64.b64encode(GOOD).decode()}},
            {"type": "case", "id": "b", "format": "lightbox", "operation": "read",
             "inputs": {"events": "!!notbase64"}},
        ]
        stdin = "\n".join(json.dumps(m) for m in
                          [{"type": "hello", "protocol": 2, "formats": ["lightbox"]}] + cases
                          + [{"type": "shutdown"}]) + "\n"
        p = subprocess.run([sys.executable, os.path.join(HERE, "adapter.py")],
                           input=stdin.encode(), capture_output=True, timeout=30, cwd="/")
        self.assertEqual(p.returncode, 0)
        out = [json.loads(x) for x in p.stdout.decode().splitlines()]
        self.assertEqual(len(out), 5)
        self.assertEqual(out[0]["protocol"], 2)
        self.assertEqual(out[0]["formats"]["lightbox"]["policies"],
                         {"unknown_schema_version": "refuse"})
        self.assertEqual([o["id"] for o in out[1:]], ["v", "f", "h", "b"])
        self.assertEqual(out[1]["verdict"], "valid")
        self.assertEqual(out[2]["verdict"], "invalid")
        self.assertEqual(base64.b64decode(out[2]["outputs"]["first_broken"]), b"0")
        self.assertEqual(base64.b64decode(out[3]["outputs"]["hashes"]).decode(),
                         "%s\n%s\n%s\n" % (H1, H2, H3))
        self.assertEqual(out[4]["status"], "errored")


if __name__ == "__main__":
    unittest.main()
