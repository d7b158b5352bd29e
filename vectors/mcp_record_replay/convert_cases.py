#!/usr/bin/python3
"""The CONVERT vectors of the MCP record/replay format (TJ-SPEC-010), as data.

Imported by generate.py, like replay_cases.py (whose line builders, loader model and citation
checks this module uses). A CONVERT case has one input, `recording`; its args are `style`
("simple" | "phased") and `phase_after` (an integer), only when the case sets them (absent: simple
and 3, §5.3). The operation carries `expect` (converted / refused, a policy or a flag) and, when
converted, `expect_convert`:

    simple: {"style": "simple",
             "tools": [{"name": ..., "definition": {the tools/list item}, "results": [...]}, ...]}
    phased: {"style": "phased", "phase_after": N,
             "baseline": [same shape, each tool's results among the first N tools/call]}

the tools in the required order (tools/list order; without tools/list, the order of first call,
and no "definition": EC-REC-010).

The ARCS reading is COMPUTED by convert() below (tools/list's result.tools in order; tools/call
requests grouped by params.name, each paired with its response by id as MRR-E28 pairs them, the
results in call order; MRR-E44 `calls-overall` for the baseline); other readings are written by
hand, and a required case's hand-written expectation (`hand=`) must equal the computed one.

    python3 vectors/mcp_record_replay/convert_cases.py    checks and a summary
"""

import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import replay_cases as rc  # noqa: E402
from replay_cases import (ABSENT, Refused, header, init_pair, kind, load, notif, pair,  # noqa: E402
                          recording, req, res, text)

PREFIX = rc.PREFIX


# ----------------------------------------------------------------------------------------------
# The model.

def tool_calls(entries):
    """[(name, result)] of the client's tools/call requests in file order whose response (paired
    by id) has a result; [] entries for the others are left out (MRR-E44: not judged)."""
    pairs = pair(entries)
    out = []
    for i, e in enumerate(entries):
        m = e["msg"]
        if e["dir"] != "c2s" or kind(m) != "request" or m["method"] != "tools/call":
            continue
        p = m.get("params")
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            continue
        r = entries[pairs[i]]["msg"] if i in pairs else None
        out.append((p["name"], r["result"] if r is not None and "result" in r else ABSENT))
    return out


def tool_definitions(entries):
    """The items of result.tools of the first answered tools/list request, or None."""
    pairs = pair(entries)
    for i, e in enumerate(entries):
        m = e["msg"]
        if e["dir"] == "c2s" and kind(m) == "request" and m["method"] == "tools/list" and i in pairs:
            r = entries[pairs[i]]["msg"]
            tools = r.get("result", {}).get("tools") if isinstance(r.get("result"), dict) else None
            if isinstance(tools, list):
                return tools
    return None


def _tools(defs, calls):
    if defs is not None:
        names = [t["name"] for t in defs]
    else:
        names = []
        for n, _ in calls:
            if n not in names:
                names.append(n)
    out = []
    for i, n in enumerate(names):
        t = {"name": n}
        if defs is not None:
            t["definition"] = copy.deepcopy(defs[i])
        t["results"] = [copy.deepcopy(r) for cn, r in calls if cn == n and r is not ABSENT]
        out.append(t)
    return out


def convert(entries, style="simple", phase_after=3):
    """The ARCS reading (MRR-E44 calls-overall)."""
    defs = tool_definitions(entries)
    calls = tool_calls(entries)
    if style == "phased":
        return {"style": style, "phase_after": phase_after,
                "baseline": _tools(defs, calls[:phase_after])}
    return {"style": style, "tools": _tools(defs, calls)}


def entry(name, results, definition=ABSENT):
    t = {"name": name}
    if definition is not ABSENT:
        t["definition"] = definition
    t["results"] = list(results)
    return t


# ----------------------------------------------------------------------------------------------
# Quotations (checked against the spec by replay_cases.check()).

rc.Q.update({
    "f4": '§2 F-004: "The system SHALL support converting recordings to ThoughtJack attack '
          'configurations."',
    "f4-valid": '§2 F-004: "- Generates valid TJ-SPEC-001 configuration from recording"',
    "f4-tools": '§2 F-004: "- Extracts tool definitions from `tools/list` response"',
    "f4-seq": '§2 F-004: "- Generates response sequences for repeated tool calls"',
    "f4-phased": '§2 F-004: "- Supports phased config generation (rug-pull style)"',
    "f4-readable": '§2 F-004: "- Output is human-readable and editable"',
    "f4-extracted": '§2 F-004: "# Extracted from tools/list response"',
    "f4-observed": '§2 F-004: "# All observed responses (in call order)"',
    "f4-phase-3": '§2 F-004: "# Phase transition after 3 tool calls"',
    "f4-calls-1-3": '§2 F-004: "# Responses from calls 1-3 (benign phase)"',
    "f4-advance": '§2 F-004: "advance: on: tools/call count: 3"',
    "f4-group": '§2 F-004: "let tool_responses = self.group_responses("tools/call", "name")?;"',
    "f4-tools-code": '§2 F-004: "let tools = response["result"]["tools"].as_array() '
                     '.ok_or(ConvertError::NoToolsList)?;"',
    "f4-unwrap": '§2 F-004: "self.options.phase_after.unwrap_or(3))"',
    "f4-simple-example": '§2 F-004: "**Generated Config Example (Simple):**"',
    "f4-phased-example": '§2 F-004: "**Generated Config Example (Phased):**"',
    "s7-convert": '§7: "Convert command generates valid TJ-SPEC-001 configurations:"',
    "style-default": '§5.3: "--style <STYLE> Config style [default: simple]"',
    "phase-default": '§5.3: "--phase-after <N> Calls before phase switch [default: 3] '
                     '(only for --style phased)"',
    "ec10": '§3 EC-REC-010: "**Scenario:** Recording never called tools/list (agent skipped '
            'discovery) **Expected:** Convert infers tools from tools/call requests, warns about '
            'missing schemas"',
})

R_CONV = ["F-004", "MRR-CONVERT-7", "MRR-CONVERT-12"]
R_SIMPLE = R_CONV + ["MRR-CONVERT-8"]
R_LISTED = ["MRR-CONVERT-2", "MRR-CONVERT-13"]
R_CALLS = ["MRR-CONVERT-5", "MRR-CONVERT-10"]
R_PHASED = R_CONV + ["MRR-CONVERT-6", "MRR-CONVERT-9", "MRR-CLI-13"]


# ----------------------------------------------------------------------------------------------
# The cases.

CASES = []


def add(name, description, rec, *, args=None, reqs, quotes, errata=(), expect=None, readings=None,
        flag=None, arcs=None, hand=None, rec_name=None):
    """One CONVERT case (see replay_cases.add for the conventions)."""
    args = dict(args or {})
    cid = PREFIX + name
    expect = expect or {"outcome": "converted"}
    style = args.get("style", "simple")
    phase_after = args.get("phase_after", 3)
    arcs_outcome = expect.get("outcome")
    if "flag" in expect:
        arcs_outcome = expect["readings"][expect["arcs"]]
    if "policy" in expect:
        arcs_outcome = expect["outcomes"]["ignore"]
    computed = None
    try:
        computed = convert(load(rec), style, phase_after)
        got = "converted"
    except Refused:
        got = "refused"
    if got != arcs_outcome:
        raise AssertionError("%s: the model %s the recording, the case expects %s"
                             % (cid, got, arcs_outcome))
    op = {"requirements": sorted(set(reqs)), "spec_text": rc.spec_text(quotes, errata),
          "expect": expect}
    if flag:
        rd = dict(readings)
        if rd[arcs] != computed:
            raise AssertionError("%s: the ARCS reading's hand expectation differs from the "
                                 "model:\n  hand %s\n  model %s" % (cid, rd[arcs], computed))
        if len({json.dumps(v, sort_keys=True) for v in rd.values()}) < 2:
            raise AssertionError("%s: the readings of %s all convert alike" % (cid, flag))
        op["expect_convert"] = {"flag": flag, "readings": rd, "arcs": arcs}
    elif computed is not None:
        if hand is not None and hand != computed:
            raise AssertionError("%s: hand expectation differs from the model:\n  hand %s\n"
                                 "  model %s" % (cid, hand, computed))
        op["expect_convert"] = computed
    rn = rec_name or name
    case = {"id": cid, "description": description,
            "inputs": {"recording": "cases/%s/recording.jsonl" % rn}}
    if args:
        case["args"] = args
    case["operations"] = {"convert": op}
    case["files"] = {"cases/%s/recording.jsonl" % rn: rec}
    if any(c["id"] == cid for c in CASES):
        raise AssertionError("duplicate id " + cid)
    CASES.append(case)
    return case


# ---- fixtures ---------------------------------------------------------------------------------

PATH_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
READ_FILE = {"name": "read_file", "description": "Read complete contents of a file",
             "inputSchema": PATH_SCHEMA}
LIST_DIRECTORY = {"name": "list_directory", "description": "List directory contents",
                  "inputSchema": PATH_SCHEMA}
SEARCH = {"name": "search_files", "description": "Find files matching a glob",
          "inputSchema": {"type": "object", "properties": {"pattern": {"type": "string"}},
                          "required": ["pattern"]}}
HOSTS = text("127.0.0.1 localhost\n::1 localhost\n")
PASSWD = text("root:x:0:0:root:/root:/bin/bash\n...")
LISTING = text("file1.txt\nfile2.txt\nsubdir/")


def session(tools, calls, *, first_id=1, **kw):
    """initialize, initialized, tools/list (when tools is not None) and the calls: each
    (name, arguments, result)."""
    entries = init_pair(first_id) + [("c2s", notif("notifications/initialized"))]
    n = first_id + 1
    if tools is not None:
        entries += [("c2s", req(n, "tools/list")), ("s2c", res(n, {"tools": tools}))]
        n += 1
    for name, arguments, result in calls:
        entries += [("c2s", req(n, "tools/call", {"name": name, "arguments": arguments})),
                    ("s2c", res(n, result))]
        n += 1
    return entries


def reads(n, stem="part"):
    return [text("%s %d of file\n" % (stem, i)) for i in range(1, n + 1)]


# ---- MRR-E43: the examples, YAML 1.1 keys -----------------------------------------------------

SIMPLE_EXAMPLE = session([READ_FILE, LIST_DIRECTORY], [
    ("read_file", {"path": "/etc/hosts"}, HOSTS),
    ("read_file", {"path": "/etc/passwd"}, PASSWD),
    ("list_directory", {"path": "/tmp"}, LISTING)])
add("convert-simple-example",
    "The recording behind F-004's simple example (tools/list with read_file and list_directory, "
    "read_file called twice, list_directory once), converted in the default style: both tools, "
    "read_file with its two results in call order, list_directory with its one.",
    recording(SIMPLE_EXAMPLE, head=header(name="filesystem-test-001",
                                          tags=["regression", "filesystem"])),
    reqs=R_SIMPLE + R_LISTED + R_CALLS + ["MRR-CLI-12"],
    quotes=["f4-simple-example", "f4-tools", "f4-seq", "f4-extracted", "f4-observed",
            "style-default"],
    errata=["MRR-E43", "MRR-E44", "MRR-E47"],
    hand={"style": "simple",
          "tools": [entry("read_file", [HOSTS, PASSWD], READ_FILE),
                    entry("list_directory", [LISTING], LIST_DIRECTORY)]})

PHASED_READS = reads(4, "benign read")
add("convert-phased-example",
    "The recording behind F-004's phased example (read_file listed and called four times), "
    "converted with --style phased --phase-after 3: the baseline holds the results of calls 1-3.",
    recording(session([READ_FILE], [("read_file", {"path": "/tmp/f%d" % i}, r)
                                    for i, r in enumerate(PHASED_READS, 1)])),
    args={"style": "phased", "phase_after": 3},
    reqs=R_PHASED + R_LISTED + R_CALLS,
    quotes=["f4-phased-example", "f4-phased", "f4-phase-3", "f4-calls-1-3", "f4-advance"],
    errata=["MRR-E43", "MRR-E44"],
    hand={"style": "phased",
          "phase_after": 3,
          "baseline": [entry("read_file", PHASED_READS[:3], READ_FILE)]})

ON_TOOL = {"name": "on", "description": "yes",
           "inputSchema": {"type": "object", "properties": {"off": {"type": "boolean"},
                                                            "no": {"type": "string"}}}}
YAML_RESULTS = [{"content": [{"type": "text", "text": "yes"}], "isError": False},
                {"content": [{"type": "text", "text": "no"}, {"type": "text", "text": "1.0"},
                             {"type": "text", "text": "null"}, {"type": "text", "text": "~"},
                             {"type": "text", "text": "0x1F"}, {"type": "text", "text": "2025-02-04"},
                             {"type": "text", "text": "on: off"}, {"type": "text", "text": "- y"},
                             {"type": "text", "text": "#not a comment"}, {"type": "text", "text": ""}]}]
add("convert-yaml-1-1-keys",
    "A tool named on (description yes) whose results are texts YAML 1.1 would read as booleans, "
    "numbers, null or dates (yes, no, 1.0, null, ~, 0x1F, 2025-02-04): compared as YAML 1.2 data, "
    "they stay strings.",
    recording(session([ON_TOOL], [("on", {"off": True}, YAML_RESULTS[0]),
                                  ("on", {"no": "n"}, YAML_RESULTS[1])])),
    reqs=R_SIMPLE + R_LISTED + R_CALLS,
    quotes=["f4-readable", "f4-tools", "f4-advance"], errata=["MRR-E43"],
    hand={"style": "simple", "tools": [entry("on", YAML_RESULTS, ON_TOOL)]})

# ---- MRR-E44: tools, sequences, phases --------------------------------------------------------

add("convert-tools-list-order",
    "tools/list lists list_directory, read_file, search_files; the agent calls them in the "
    "order read_file, search_files, list_directory: the tools come in tools/list's order.",
    recording(session([LIST_DIRECTORY, READ_FILE, SEARCH], [
        ("read_file", {"path": "/tmp/a"}, text("A")),
        ("search_files", {"pattern": "*.md"}, text("README.md")),
        ("list_directory", {"path": "/tmp"}, LISTING)])),
    reqs=R_SIMPLE + R_LISTED + R_CALLS,
    quotes=["f4-tools", "f4-extracted", "f4-tools-code"], errata=["MRR-E44"],
    hand={"style": "simple",
          "tools": [entry("list_directory", [LISTING], LIST_DIRECTORY),
                    entry("read_file", [text("A")], READ_FILE),
                    entry("search_files", [text("README.md")], SEARCH)]})

SEQ3 = [text("first"), text("second"), {"content": [{"type": "text", "text": "third"}],
                                         "isError": False}]
add("convert-repeated-calls-sequence",
    "read_file called three times with three different results, a list_directory call between "
    "the first and the second: read_file's sequence holds the three results in call order.",
    recording(session([READ_FILE, LIST_DIRECTORY], [
        ("read_file", {"path": "/tmp/x"}, SEQ3[0]),
        ("list_directory", {"path": "/tmp"}, LISTING),
        ("read_file", {"path": "/tmp/x"}, SEQ3[1]),
        ("read_file", {"path": "/tmp/y"}, SEQ3[2])])),
    reqs=R_SIMPLE + R_LISTED + R_CALLS,
    quotes=["f4-seq", "f4-observed", "f4-group"], errata=["MRR-E28", "MRR-E44"],
    hand={"style": "simple",
          "tools": [entry("read_file", SEQ3, READ_FILE),
                    entry("list_directory", [LISTING], LIST_DIRECTORY)]})

add("convert-single-call",
    "One tool listed and called once, converted without --style (simple, the default): its one "
    "result, inline or as a one-element sequence.",
    recording(session([LIST_DIRECTORY], [("list_directory", {"path": "/tmp"}, LISTING)])),
    reqs=R_SIMPLE + R_LISTED + R_CALLS + ["MRR-CLI-12"],
    quotes=["f4-seq", "f4-simple-example", "style-default"], errata=["MRR-E44", "MRR-E47"],
    hand={"style": "simple", "tools": [entry("list_directory", [LISTING], LIST_DIRECTORY)]})

add("convert-ec-rec-010-no-tools-list",
    "A recording with no tools/list: list_directory, read_file and list_directory again are "
    "called; the tools are inferred from the calls in order of first call, without schemas.",
    recording(session(None, [("list_directory", {"path": "/tmp"}, LISTING),
                             ("read_file", {"path": "/tmp/a"}, text("A")),
                             ("list_directory", {"path": "/var"}, text("log/\nlib/"))])),
    reqs=R_SIMPLE + R_CALLS + ["EC-REC-010", "MRR-CONVERT-13"],
    quotes=["ec10", "f4-tools-code", "f4-group"], errata=["MRR-E44"],
    hand={"style": "simple",
          "tools": [entry("list_directory", [LISTING, text("log/\nlib/")]),
                    entry("read_file", [text("A")])]})

FIVE = reads(5)
add("convert-phased-default-3",
    "read_file called five times, converted with --style phased and no --phase-after: the "
    "switch after 3 calls, the baseline holding the first three results.",
    recording(session([READ_FILE], [("read_file", {"path": "/tmp/p"}, r) for r in FIVE])),
    args={"style": "phased"},
    reqs=R_PHASED + R_LISTED + R_CALLS + ["MRR-CONVERT-11"],
    quotes=["f4-phased", "f4-unwrap", "phase-default", "f4-calls-1-3"], errata=["MRR-E44", "MRR-E47"],
    hand={"style": "phased", "phase_after": 3,
          "baseline": [entry("read_file", FIVE[:3], READ_FILE)]})

SEVEN = reads(7)
add("convert-phased-after-5",
    "read_file called seven times, converted with --style phased --phase-after 5: the baseline "
    "holds the first five results.",
    recording(session([READ_FILE], [("read_file", {"path": "/tmp/p"}, r) for r in SEVEN])),
    args={"style": "phased", "phase_after": 5},
    reqs=R_PHASED + R_LISTED + R_CALLS,
    quotes=["f4-phased", "phase-default", "f4-advance"], errata=["MRR-E44"],
    hand={"style": "phased", "phase_after": 5,
          "baseline": [entry("read_file", SEVEN[:5], READ_FILE)]})

TA = [text("a1"), text("a2"), text("a3")]
TB = [text("b1"), text("b2")]
TWO_TOOLS = session([READ_FILE, LIST_DIRECTORY], [
    ("read_file", {"path": "/a"}, TA[0]), ("list_directory", {"path": "/"}, TB[0]),
    ("read_file", {"path": "/a"}, TA[1]), ("read_file", {"path": "/a"}, TA[2]),
    ("list_directory", {"path": "/"}, TB[1])])
add("convert-phased-two-tools",
    "Two tools called in the order read_file, list_directory, read_file, read_file, "
    "list_directory, converted with --style phased --phase-after 3: the baseline holds the "
    "results of the first three calls of the session, or each tool's first three.",
    recording(TWO_TOOLS),
    args={"style": "phased", "phase_after": 3},
    reqs=R_PHASED + R_LISTED + R_CALLS,
    quotes=["f4-phased", "f4-phase-3", "f4-calls-1-3", "f4-advance"], errata=["MRR-E44"],
    flag="MRR-E44", arcs="calls-overall",
    readings={"calls-overall": {"style": "phased",
                                "phase_after": 3,
                                "baseline": [entry("read_file", TA[:2], READ_FILE),
                                             entry("list_directory", TB[:1], LIST_DIRECTORY)]},
              "calls-per-tool": {"style": "phased",
                                 "phase_after": 3,
                                 "baseline": [entry("read_file", TA, READ_FILE),
                                              entry("list_directory", TB, LIST_DIRECTORY)]}})


# ----------------------------------------------------------------------------------------------
# Cases shared with VALIDATE (and REPLAY): the recordings of validate_cases.py, as replay_cases.py
# uses them (rc.SHARED). The base session holds no tools/list: its one tool is inferred from the
# read_file call (EC-REC-010), without a definition.

V_HOSTS = rc.V_HOSTS
BASE_CONVERT = {"style": "simple", "tools": [entry("read_file", [V_HOSTS])]}
NO_TOOLS = {"style": "simple", "tools": []}
R_BASE_CONV = R_SIMPLE + R_CALLS + ["EC-REC-010", "MRR-CONVERT-13"]
R_REFUSED = ["F-004", "MRR-REPLAY-6"]


def shared(name, description, **kw):
    rec = rc.SHARED.get(name, rc.THEIRS.get(name))
    if rec is None:
        rc.MISSING.append(name)
        return None
    return add(name, description, rec, **kw)


def flagged(flag, outcomes, arcs, converts):
    return dict(expect={"flag": flag, "readings": outcomes, "arcs": arcs}, flag=flag, arcs=arcs,
                readings=converts)


shared("example-f002",
       "F-002's example recording (initialize and the initialized notification, no tool): a "
       "minimal config with no tool.",
       reqs=R_SIMPLE, quotes=["example", "f4-tools"], errata=["MRR-E3", "MRR-E44"], hand=NO_TOOLS)

shared("header-only",
       "A header alone (EC-REC-001): a minimal config with no tool.",
       reqs=R_SIMPLE + ["EC-REC-001"], quotes=["ec1"], errata=["MRR-E16", "MRR-E44"],
       hand=NO_TOOLS)

shared("header-footer-only",
       "A header and a footer counting zeros: a minimal config with no tool.",
       reqs=R_SIMPLE + ["EC-REC-001"], quotes=["ec1"], errata=["MRR-E14", "MRR-E16", "MRR-E44"],
       hand=NO_TOOLS)

shared("no-footer",
       "The base recording without a footer (EC-REC-011): converted as with one, read_file "
       "inferred from its call.",
       reqs=R_BASE_CONV + ["EC-REC-011", "MRR-NFR-6"], quotes=["ec11", "ec10"],
       errata=["MRR-E14", "MRR-E44"], hand=BASE_CONVERT)

shared("crlf",
       "The base recording with CRLF line ends: converted as its LF twin.",
       reqs=R_BASE_CONV + ["MRR-JSON-6"], quotes=["ndjson-crlf", "ec10"],
       errata=["MRR-E7", "MRR-E44"], hand=BASE_CONVERT)

shared("bom",
       "The base recording after a byte order mark: converted as without it (bom: ignore) or "
       "refused (bom: refuse).",
       reqs=R_BASE_CONV + ["MRR-JSON-8"], quotes=["rfc-bom", "ec10"], errata=["MRR-E6", "MRR-E44"],
       expect={"policy": "bom", "outcomes": {"ignore": "converted", "refuse": "refused"}},
       hand=BASE_CONVERT)

shared("blank-line-between",
       "The base recording with an empty line between two messages: converted as without it "
       "(blank_lines: ignore) or refused (blank_lines: refuse).",
       reqs=R_BASE_CONV + ["MRR-JSON-7"], quotes=["ndjson-blank", "ec10"],
       errata=["MRR-E8", "MRR-E44"],
       expect={"policy": "blank_lines", "outcomes": {"ignore": "converted", "refuse": "refused"}},
       hand=BASE_CONVERT)

E4 = {"line-reader": "refused", "json-stream": "converted"}
for _name, _desc in [("pretty-printed", "pretty-printed over many lines"),
                     ("two-objects-one-line", "with two objects on one line")]:
    shared(_name, "The base recording %s: refused, or read as a stream of JSON values and "
           "converted." % _desc,
           reqs=R_BASE_CONV + ["MRR-REPLAY-6", "MRR-JSON-9"],
           quotes=["one-object", "nfr3-lines", "validates"], errata=["MRR-E4", "MRR-E44"],
           **flagged("MRR-E4", E4, "line-reader", {"line-reader": None, "json-stream": BASE_CONVERT}))

E9 = {"ndjson-newline-parse-only": "converted", "ndjson-newline-valid-only": "refused",
      "final-newline-optional": "converted", "unterminated-is-truncated": "converted"}
shared("no-final-newline-response",
       "The base recording without footer whose last line, the tools/call response, has no LF: "
       "read_file with its result, or with none (the line skipped as truncated: the call "
       "unanswered), or refused.",
       reqs=R_BASE_CONV + ["EC-REC-002", "MRR-REPLAY-6"],
       quotes=["ndjson-newline", "ec2", "validates"], errata=["MRR-E9", "MRR-E11", "MRR-E44"],
       **flagged("MRR-E9", E9, "ndjson-newline-parse-only",
                 {"ndjson-newline-parse-only": BASE_CONVERT, "ndjson-newline-valid-only": None,
                  "final-newline-optional": BASE_CONVERT,
                  "unterminated-is-truncated": {"style": "simple",
                                                "tools": [entry("read_file", [])]}}))

shared("no-final-newline-footer",
       "The base recording whose footer has no LF: converted alike under every reading that "
       "loads it.",
       reqs=R_BASE_CONV + ["EC-REC-002", "MRR-REPLAY-6"],
       quotes=["ndjson-newline", "ec2", "validates"], errata=["MRR-E9", "MRR-E11", "MRR-E44"],
       **flagged("MRR-E9", E9, "ndjson-newline-parse-only",
                 {"ndjson-newline-parse-only": BASE_CONVERT, "ndjson-newline-valid-only": None,
                  "final-newline-optional": BASE_CONVERT,
                  "unterminated-is-truncated": BASE_CONVERT}))

shared("truncated-mid-message",
       "The base recording without footer, then a request cut off mid-line (EC-REC-002): the cut "
       "line skipped, the rest converted.",
       reqs=R_BASE_CONV + ["EC-REC-002", "MRR-NFR-6"], quotes=["ec2", "nfr3"],
       errata=["MRR-E10", "MRR-E44"], hand=BASE_CONVERT)

shared("corrupt-final-line-with-lf",
       "The base recording without footer, then a line cut off mid-object but ended with LF: "
       "refused as corrupt, or the line skipped and the rest converted.",
       reqs=R_BASE_CONV + ["EC-REC-002", "MRR-REPLAY-6", "MRR-JSON-9"],
       quotes=["ec2", "validates"], errata=["MRR-E10", "MRR-E44"],
       **flagged("MRR-E10", {"unterminated-only": "refused", "last-line": "converted"},
                 "unterminated-only", {"unterminated-only": None, "last-line": BASE_CONVERT}))

for _name, _desc, _q, _e in [
        ("truncated-header-only", "A header cut off mid-line and nothing else", ["ec2", "line1"],
         ["MRR-E10", "MRR-E12"]),
        ("message-before-header", "A message on line 1, the header on line 2",
         ["line1", "validates"], ["MRR-E12"]),
        ("empty-file", "An empty file", ["line1", "validates"], ["MRR-E12"]),
        ("recipe-client-only", "The client-only recipe's output (no header)",
         ["line1", "validates"], ["MRR-E3", "MRR-E12"]),
        ("line-syntax-error", "A recording with a line holding a syntax error",
         ["one-object", "validates"], ["MRR-E4"]),
        ("invalid-utf8-stray", "A recording with ill-formed UTF-8 in a line",
         ["rfc-utf8", "validates"], ["MRR-E5"])]:
    shared(_name, _desc + ": refused.", expect={"outcome": "refused"}, reqs=R_REFUSED,
           quotes=_q, errata=_e)

for _v in ["1-1", "1-10", "1-00", "01-0"]:
    shared("version-" + _v,
           "A recording of version \"%s\": refused, or read by the 1.0 rules and converted."
           % _v.replace("-", "."),
           reqs=R_BASE_CONV + ["EC-REC-008"], quotes=["ec8", "version", "version-field"],
           errata=["MRR-E17", "MRR-E44"],
           **flagged("MRR-E17", {"exact-version": "refused", "same-major": "converted"},
                     "exact-version", {"exact-version": None, "same-major": BASE_CONVERT}))

for _v in ["2-0", "1-0-0", "1", "empty", "v-prefix", "leading-space", "trailing-newline",
           "arabic-indic-digits"]:
    shared("version-" + _v,
           "A recording whose version is not a supported one: refused (EC-REC-008).",
           expect={"outcome": "refused"}, reqs=R_REFUSED + ["EC-REC-008"],
           quotes=["ec8", "version", "stable"], errata=["MRR-E17"])

shared("ec-rec-003-duplicate-ids",
       "Two read_file calls with the same id 7, answered in order: both results, in call order "
       "(requests and responses paired by id in file order).",
       reqs=R_BASE_CONV + ["EC-REC-003"], quotes=["ec3", "f4-group", "f4-observed"],
       errata=["MRR-E28", "MRR-E44"],
       hand={"style": "simple", "tools": [entry("read_file", [V_HOSTS, rc.V_PASSWD])]})

shared("ec-rec-004-out-of-order",
       "read_file and list_directory calls whose responses are recorded in the other order: each "
       "tool its own result (paired by id), the tools in order of first call.",
       reqs=R_BASE_CONV + ["EC-REC-004"], quotes=["ec4", "f4-group", "ec10"],
       errata=["MRR-E28", "MRR-E44"],
       hand={"style": "simple", "tools": [entry("read_file", [V_HOSTS]),
                                          entry("list_directory", [rc.V_LISTING])]})


if __name__ == "__main__":
    problems = rc.check(CASES)
    for p in problems:
        print("problem:", p)
    ops, flags = rc.summary(CASES)
    print("%d cases; operations %s" % (len(CASES), dict(ops)))
    for f in sorted(flags):
        print("  %s: %s" % (f, ", ".join(sorted(flags[f]))))
    sys.exit(1 if problems else 0)
