"""Unit tests for the clean-room SessionData implementation.

Expected values come from the text of session-data.md (quoted beside each
test), RFC 8259, and this implementation's README for the silent points.
Run: python3 -m unittest discover -s conformance/session_data/independent -p 'test_*.py'
"""

import copy
import importlib.util
import json
import os
import re
import sys
import unittest

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("session_data_cr", os.path.join(_HERE, "session_data_cr.py"))
sd = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("session_data_cr", sd)
_spec.loader.exec_module(sd)

# --- the spec's own examples ("Examples"), verbatim -------------------------

MINIMAL = {
    "schemaVersion": "1.0",
    "provider": {"id": "claude", "name": "Claude Code", "version": "1.0.0"},
    "sessionId": "30cc3569-a9d4-429e-981a-ab73e3ddee5f",
    "createdAt": "2025-10-24T10:00:00Z",
    "workspaceRoot": "/Users/alice/project",
    "exchanges": [],
}
USER_MESSAGE = {"id": "u1", "timestamp": "2025-10-24T10:00:00Z", "role": "user",
                "content": [{"type": "text", "text": "Please create src/main.go"}]}
AGENT_TEXT = {"id": "a1", "timestamp": "2025-10-24T10:00:10Z", "role": "agent",
              "model": "claude-3-5-sonnet-20241022",
              "content": [{"type": "text", "text": "I'll create the file with a basic Go program."}]}
AGENT_THINKING = {"id": "a2", "timestamp": "2025-10-24T10:00:08Z", "role": "agent",
                  "model": "claude-3-5-sonnet-20241022",
                  "content": [{"type": "thinking",
                               "text": "The user wants me to create a Go file. I should use the Write tool..."}]}
AGENT_TOOL = {"id": "t1", "timestamp": "2025-10-24T10:00:12Z", "role": "agent",
              "model": "claude-3-5-sonnet-20241022",
              "tool": {"name": "Write", "type": "write", "useId": "tool_abc123",
                       "input": {"file_path": "src/main.go",
                                 "content": "package main\n\nfunc main() {\n}"}},
              "pathHints": ["src/main.go"]}
COMPLETE_EXCHANGE = {
    "exchangeId": "ex_001", "startTime": "2025-10-24T10:00:00Z", "endTime": "2025-10-24T10:00:15Z",
    "messages": [
        {"id": "u1", "timestamp": "2025-10-24T10:00:00Z", "role": "user",
         "content": [{"type": "text", "text": "Create src/main.go with Hello World"}]},
        {"id": "a1", "timestamp": "2025-10-24T10:00:10Z", "role": "agent",
         "model": "claude-3-5-sonnet-20241022",
         "content": [{"type": "text", "text": "I'll create a simple Hello World program in Go."}]},
        {"id": "t1", "timestamp": "2025-10-24T10:00:15Z", "role": "agent",
         "model": "claude-3-5-sonnet-20241022",
         "tool": {"name": "Write", "type": "write", "useId": "tool_001",
                  "input": {"file_path": "src/main.go"}},
         "pathHints": ["src/main.go"]},
    ],
}
FULL_TEXT = r'''{
  "schemaVersion": "1.0",
  "provider": { "id": "claude", "name": "Claude Code", "version": "1.0.0" },
  "sessionId": "sess-1234",
  "createdAt": "2025-11-13T10:00:00Z",
  "updatedAt": "2025-11-13T10:05:00Z",
  "slug": "create-go-hello-world",
  "workspaceRoot": "/home/alice/project",
  "exchanges": [
    {
      "exchangeId": "ex_001",
      "startTime": "2025-11-13T10:00:00Z",
      "endTime": "2025-11-13T10:00:15Z",
      "messages": [
        {
          "id": "u1",
          "timestamp": "2025-11-13T10:00:00Z",
          "role": "user",
          "content": [{ "type": "text", "text": "Create src/main.go with Hello World" }]
        },
        {
          "id": "a1",
          "timestamp": "2025-11-13T10:00:10Z",
          "role": "agent",
          "model": "claude-3-5-sonnet-20241022",
          "content": [{ "type": "text", "text": "Creating the file now." }],
          "tool": {
            "name": "Write",
            "type": "write",
            "useId": "tool_001",
            "input": { "file_path": "src/main.go" }
          },
          "pathHints": ["src/main.go"]
        }
      ]
    },
    {
      "exchangeId": "ex_002",
      "startTime": "2025-11-13T10:01:00Z",
      "endTime": "2025-11-13T10:01:20Z",
      "messages": [
        {
          "id": "u2",
          "timestamp": "2025-11-13T10:01:00Z",
          "role": "user",
          "content": [{ "type": "text", "text": "Run the program" }]
        },
        {
          "id": "t2",
          "timestamp": "2025-11-13T10:01:10Z",
          "role": "agent",
          "model": "claude-3-5-sonnet-20241022",
          "tool": {
            "name": "Bash",
            "type": "shell",
            "useId": "tool_002",
            "input": { "command": "go run src/main.go" },
            "output": { "stdout": "Hello World\n", "exit_code": 0 }
          }
        },
        {
          "id": "a2",
          "timestamp": "2025-11-13T10:01:20Z",
          "role": "agent",
          "model": "claude-3-5-sonnet-20241022",
          "content": [{ "type": "text", "text": "The program ran successfully and printed 'Hello World'." }]
        }
      ]
    }
  ]
}
'''


def enc(obj) -> bytes:
    return json.dumps(obj).encode("utf-8")


def session(*messages, **top):
    s = copy.deepcopy(MINIMAL)
    if messages:
        s["exchanges"] = [{"exchangeId": "ex_0", "messages": [copy.deepcopy(m) for m in messages]}]
    s.update(top)
    return s


def verdicts(data: bytes):
    return {st: sd.validate(data, st).ok for st in sd.STATEMENTS}


ALL_VALID = {"rules": True, "schema": True, "both": True}
ALL_INVALID = {"rules": False, "schema": False, "both": False}
RULES_ONLY_INVALID = {"rules": False, "schema": True, "both": False}
SCHEMA_ONLY_INVALID = {"rules": True, "schema": False, "both": False}


class SpecExamples(unittest.TestCase):
    def test_minimal_session(self):
        self.assertEqual(verdicts(enc(MINIMAL)), ALL_VALID)

    def test_full_session_bytes(self):
        self.assertEqual(verdicts(FULL_TEXT.encode()), ALL_VALID)

    def test_message_examples_in_a_session(self):
        for m in (USER_MESSAGE, AGENT_TEXT, AGENT_THINKING, AGENT_TOOL):
            with self.subTest(m=m["id"]):
                self.assertEqual(verdicts(enc(session(m))), ALL_VALID)

    def test_complete_exchange(self):
        s = copy.deepcopy(MINIMAL)
        s["exchanges"] = [COMPLETE_EXCHANGE]
        self.assertEqual(verdicts(enc(s)), ALL_VALID)

    def test_bare_message_is_not_a_session(self):
        # "required": [... "schemaVersion" ...]; `schemaVersion` must be "1.0"
        self.assertEqual(verdicts(enc(USER_MESSAGE)), ALL_INVALID)


class TopLevel(unittest.TestCase):
    def test_schema_version(self):
        # "`schemaVersion` must be `"1.0"`"; "const": "1.0"
        for v in ("1.1", "1", "", "2.0"):
            self.assertEqual(verdicts(enc(session(schemaVersion=v))), ALL_INVALID, v)
        self.assertEqual(verdicts(enc(session(schemaVersion=1.0))), ALL_INVALID)

    def test_provider_fields_non_empty(self):
        # "provider.id, provider.name, provider.version must be non-empty" (rules only)
        for k in ("name", "version"):
            s = session()
            s["provider"][k] = ""
            self.assertEqual(verdicts(enc(s)), RULES_ONLY_INVALID, k)

    def test_provider_id_enum(self):
        # schema: "enum": ["claude", "cursor", "codex", "gemini"]; rules: non-empty only
        s = session()
        s["provider"]["id"] = "aider"
        self.assertEqual(verdicts(enc(s)), SCHEMA_ONLY_INVALID)
        s["provider"]["id"] = ""
        self.assertEqual(verdicts(enc(s)), ALL_INVALID)

    def test_required_strings_non_empty(self):
        # "`sessionId`, `createdAt`, `workspaceRoot` must be non-empty"
        for k in ("sessionId", "workspaceRoot"):
            self.assertEqual(verdicts(enc(session(**{k: ""}))), RULES_ONLY_INVALID, k)

    def test_missing_required_members(self):
        for k in ("sessionId", "createdAt", "workspaceRoot", "provider", "schemaVersion"):
            s = session()
            del s[k]
            self.assertEqual(verdicts(enc(s)), ALL_INVALID, k)

    def test_missing_exchanges(self):
        # schema "required" lists "exchanges"; Validate() has no such check (README)
        s = session()
        del s["exchanges"]
        self.assertEqual(verdicts(enc(s)), SCHEMA_ONLY_INVALID)

    def test_additional_top_level_member(self):
        # schema: "additionalProperties": false; Go decoding ignores unknown members
        self.assertEqual(verdicts(enc(session(title="x"))), SCHEMA_ONLY_INVALID)

    def test_null_field(self):
        # schema: "type": "string"; Go: null is the zero value "" -> "must be non-empty"
        self.assertEqual(verdicts(enc(session(sessionId=None))), ALL_INVALID)

    def test_wrong_json_type(self):
        self.assertEqual(verdicts(enc(session(sessionId=5))), ALL_INVALID)
        self.assertEqual(verdicts(enc(session(exchanges={}))), ALL_INVALID)

    def test_optional_fields(self):
        self.assertEqual(verdicts(enc(session(slug="fix-login-bug", updatedAt="2025-10-24T11:00:00Z"))),
                         ALL_VALID)

    def test_non_iso_timestamp_is_only_a_warning(self):
        r = sd.validate(enc(session(createdAt="yesterday")), "both")
        self.assertTrue(r.ok)
        self.assertTrue(any(f["severity"] == "warning" for f in r.findings))


class Exchanges(unittest.TestCase):
    def test_exchange_id_non_empty(self):
        # "Each exchange must have non-empty `exchangeId`"
        s = session(USER_MESSAGE)
        s["exchanges"][0]["exchangeId"] = ""
        self.assertEqual(verdicts(enc(s)), RULES_ONLY_INVALID)

    def test_exchange_without_messages(self):
        s = session()
        s["exchanges"] = [{"exchangeId": "ex_1"}]
        self.assertEqual(verdicts(enc(s)), SCHEMA_ONLY_INVALID)
        s["exchanges"] = [{"exchangeId": "ex_1", "messages": []}]
        self.assertEqual(verdicts(enc(s)), ALL_VALID)

    def test_exchange_additional_member(self):
        s = session(USER_MESSAGE)
        s["exchanges"][0]["extra"] = 1
        self.assertEqual(verdicts(enc(s)), SCHEMA_ONLY_INVALID)

    def test_duplicate_exchange_id_is_a_warning(self):
        s = session(USER_MESSAGE)
        s["exchanges"].append(copy.deepcopy(s["exchanges"][0]))
        r = sd.validate(enc(s), "both")
        self.assertTrue(r.ok)
        self.assertIn("rules/exchangeId-unique", r.rules("warning"))


class Messages(unittest.TestCase):
    def test_role(self):
        # "Each message must have valid `role` (`"user"` or `"agent"`)"
        for role in ("system", "User", ""):
            m = dict(USER_MESSAGE, role=role)
            self.assertEqual(verdicts(enc(session(m))), ALL_INVALID, role)
        m = dict(USER_MESSAGE)
        del m["role"]
        self.assertEqual(verdicts(enc(session(m))), ALL_INVALID)

    def test_user_needs_content(self):
        # "User messages must have non-empty `content`"
        m = dict(USER_MESSAGE)
        del m["content"]
        self.assertEqual(verdicts(enc(session(m))), RULES_ONLY_INVALID)
        self.assertEqual(verdicts(enc(session(dict(USER_MESSAGE, content=[])))), RULES_ONLY_INVALID)

    def test_user_cannot_have_tool_or_model(self):
        # "cannot have `tool` or `model`"
        m = dict(USER_MESSAGE, tool={"name": "Bash", "type": "shell"})
        self.assertEqual(verdicts(enc(session(m))), RULES_ONLY_INVALID)
        m = dict(USER_MESSAGE, model="gpt")
        self.assertEqual(verdicts(enc(session(m))), RULES_ONLY_INVALID)

    def test_agent_needs_something(self):
        # "Agent messages must have at least one of: `content`, `tool`, or `pathHints`"
        bare = {"role": "agent", "model": "m"}
        self.assertEqual(verdicts(enc(session(bare))), RULES_ONLY_INVALID)
        self.assertEqual(verdicts(enc(session(dict(bare, pathHints=["a.go"])))), ALL_VALID)
        self.assertEqual(verdicts(enc(session(dict(bare, content=[])))), RULES_ONLY_INVALID)

    def test_message_additional_member_allowed(self):
        # message: "additionalProperties": true
        self.assertEqual(verdicts(enc(session(dict(AGENT_TEXT, extra=1)))), ALL_VALID)

    def test_content_part_type(self):
        # "`contentPart.type` must be `"text"` or `"thinking"`"
        m = dict(AGENT_TEXT, content=[{"type": "image", "text": "x"}])
        self.assertEqual(verdicts(enc(session(m))), ALL_INVALID)

    def test_content_part_additional_member(self):
        m = dict(AGENT_TEXT, content=[{"type": "text", "text": "x", "lang": "en"}])
        self.assertEqual(verdicts(enc(session(m))), SCHEMA_ONLY_INVALID)

    def test_content_part_missing_text(self):
        m = dict(AGENT_TEXT, content=[{"type": "text"}])
        self.assertEqual(verdicts(enc(session(m))), SCHEMA_ONLY_INVALID)

    def test_path_hints_strings(self):
        m = dict(AGENT_TOOL, pathHints=[1])
        self.assertEqual(verdicts(enc(session(m))), ALL_INVALID)


class Tools(unittest.TestCase):
    def test_tool_name_non_empty(self):
        # "`tool.name` must be non-empty"
        m = copy.deepcopy(AGENT_TOOL)
        m["tool"]["name"] = ""
        self.assertEqual(verdicts(enc(session(m))), RULES_ONLY_INVALID)

    def test_tool_types(self):
        # "`tool.type` must be one of the valid types"
        for t in ("write", "read", "search", "shell", "task", "generic", "unknown"):
            m = copy.deepcopy(AGENT_TOOL)
            m["tool"]["type"] = t
            self.assertEqual(verdicts(enc(session(m))), ALL_VALID, t)
        for t in ("Write", "edit", ""):
            m = copy.deepcopy(AGENT_TOOL)
            m["tool"]["type"] = t
            self.assertEqual(verdicts(enc(session(m))), ALL_INVALID, t)

    def test_tool_extra_and_summary(self):
        m = copy.deepcopy(AGENT_TOOL)
        m["tool"].update(summary="Wrote a file", formattedMarkdown="**done**", extra=True)
        self.assertEqual(verdicts(enc(session(m))), ALL_VALID)

    def test_tool_input_must_be_object(self):
        m = copy.deepcopy(AGENT_TOOL)
        m["tool"]["input"] = "ls"
        self.assertEqual(verdicts(enc(session(m))), ALL_INVALID)


class JsonText(unittest.TestCase):
    def test_not_json(self):
        for data in (b"", b"   ", b"{", b"{}{}", b'{"a":1,}', b"[1] x"):
            self.assertEqual(verdicts(data), ALL_INVALID, data)

    def test_nan(self):
        # RFC 8259 section 6: Infinity and NaN are not permitted
        for lit in (b"NaN", b"Infinity", b"-Infinity"):
            data = enc(MINIMAL)[:-1] + b', "x": ' + lit + b"}"
            self.assertFalse(sd.validate(data, "rules").ok, lit)

    def test_invalid_utf8(self):
        data = enc(session(slug="x"))[:-1] + b', "y": "\xff"}'
        self.assertEqual(verdicts(data), ALL_INVALID)

    def test_bom(self):
        self.assertEqual(verdicts(b"\xef\xbb\xbf" + enc(MINIMAL)), ALL_INVALID)

    def test_root_not_object(self):
        for data in (b"[]", b"null", b'"x"', b"1"):
            self.assertEqual(verdicts(data), ALL_INVALID, data)

    def test_deep_nesting_is_a_verdict(self):
        data = b"[" * 100000 + b"]" * 100000
        self.assertFalse(sd.validate(data).ok)
        r, md = sd.render(data)
        self.assertIsNone(md)
        inner = b'{"a":' * 600 + b"1" + b"}" * 600
        data = enc(MINIMAL)[:-1] + b', "x": ' + inner + b"}"
        self.assertFalse(sd.validate(data, "rules").ok)

    def test_big_numbers_are_fine(self):
        m = copy.deepcopy(AGENT_TOOL)
        s = session(m)
        data = enc(s).replace(b'"src/main.go"}', b'"src/main.go", "n": ' + b"9" * 5000 + b"}", 1)
        self.assertTrue(sd.validate(data).ok)

    def test_duplicate_member_warning(self):
        data = enc(MINIMAL)[:-1] + b', "slug": "a", "slug": "b"}'
        r = sd.validate(data, "both")
        self.assertTrue(r.ok)
        self.assertIn("json-duplicate-member", r.rules("warning"))

    def test_whitespace_and_crlf(self):
        data = FULL_TEXT.replace("\n", "\r\n").encode()
        self.assertEqual(verdicts(data), ALL_VALID)


class Render(unittest.TestCase):
    def rendered(self, obj_or_bytes):
        data = obj_or_bytes if isinstance(obj_or_bytes, bytes) else enc(obj_or_bytes)
        r, md = sd.render(data)
        self.assertIsNotNone(md, r.findings)
        md.encode("utf-8")
        return md

    def test_full_example_text_in_order(self):
        # "Process messages in order"; "Render `content` parts as text"
        md = self.rendered(FULL_TEXT.encode())
        texts = ["Create src/main.go with Hello World", "Creating the file now.",
                 "Run the program", "The program ran successfully and printed 'Hello World'."]
        pos = [md.find(t) for t in texts]
        self.assertTrue(all(p >= 0 for p in pos), pos)
        self.assertEqual(pos, sorted(pos))

    def test_tool_type_name_paths(self):
        # "Show tool uses with type/name and list any `pathHints`"
        md = self.rendered(session(AGENT_TOOL))
        i_type = md.find("type: write")
        i_name = md.find("name: Write", i_type)
        i_path = md.find("src\\/main\\.go", i_name)
        self.assertTrue(0 <= i_type < i_name < i_path, (i_type, i_name, i_path))

    def test_thinking_in_details(self):
        # "Use `thinking` content type for collapsible/styled reasoning sections"
        md = self.rendered(session(AGENT_THINKING))
        i = md.find(AGENT_THINKING["content"][0]["text"])
        self.assertGreater(i, md.find("<details>"))
        self.assertLess(i, md.find("</details>"))
        self.assertGreaterEqual(md.find("<details>"), 0)

    def test_formatted_markdown_verbatim(self):
        # "If `formattedMarkdown` is present, use it; otherwise render from `input`/`output`"
        fm = "## Edited\n\n- `src/main.go`\n\n```diff\n+ hello\n"  # an open fence
        m = copy.deepcopy(AGENT_TOOL)
        m["tool"]["formattedMarkdown"] = fm
        md = self.rendered(session(m, AGENT_TEXT))
        self.assertIn(fm, md)
        self.assertNotIn('"file_path"', md)  # input not rendered when fm is present
        after = md[md.index(fm) + len(fm):]
        self.assertTrue(after.startswith("```\n"), after[:20])  # the open fence is closed

    def test_input_output_without_fm(self):
        md = self.rendered(FULL_TEXT.encode())
        self.assertIn('"command": "go run src/main.go"', md)
        self.assertIn('"exit_code": 0', md)

    def test_fence_cannot_be_closed_by_text(self):
        text = "before\n```\n# not a heading\n````\n- not a list\n</details>"
        m = dict(AGENT_TEXT, content=[{"type": "thinking", "text": text}])
        md = self.rendered(session(m))
        fences = re.findall(r"^(`{3,})text$", md, re.M)
        self.assertEqual(len(fences), 1)
        self.assertGreater(len(fences[0]), 4)
        self.assertIn(text + "\n" + fences[0] + "\n", md)

    def test_inline_fields_escaped(self):
        m = copy.deepcopy(AGENT_TOOL)
        m["tool"]["name"] = "# [x](http://e) <b>"
        md = self.rendered(session(m))
        self.assertIn("name: \\# \\[x\\]\\(http\\:\\/\\/e\\) \\<b\\>", md)

    def test_render_refuses_non_objects(self):
        for data in (b"[]", b"nope", b"", b"\xff{}"):
            r, md = sd.render(data)
            self.assertIsNone(md, data)

    def test_render_accepts_invalid_sessions(self):
        md = self.rendered({"exchanges": [{"messages": [{"role": "robot", "content": [{"type": "x", "text": "hi"}]},
                                                        "junk", {"content": "str"}]}, 5]})
        self.assertIn("hi", md)

    def test_render_bom_and_surrogates(self):
        data = b"\xef\xbb\xbf" + enc(session(dict(AGENT_TEXT, content=[{"type": "text", "text": "a\ud800b"}])))
        md = self.rendered(data)
        self.assertIn("a\ufffdb", md)


if __name__ == "__main__":
    unittest.main()
