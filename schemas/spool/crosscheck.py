"""The Spool part of the schema cross-check (schemas/crosscheck_test.py imports it).

  1. checks that schemas/spool/entry.schema.json is a valid draft 2020-12 schema and that format
     "date-time" is really asserted;
  2. runs `arcs validate --json --format spool` (with the case's limits) on every case file and,
     for every line that Python can parse strictly as a JSON object, compares the entry schema's
     verdict with the reference's: the line is schema-valid exactly when the reference reports
     no error finding on that line under a rule a per-line schema can express, i.e. ignoring
     SCHEMA_INEXPRESSIBLE, the inexpressible part of PARTLY_EXPRESSIBLE, and, in files whose
     session version is not 1.0, VERSION_DEPENDENT (those lines are validated against a lenient
     variant of the schema that allows unknown fields and types). Lines the reference did not
     judge (over a line or depth limit) are skipped; where it stopped reading (file size or
     entry count limit) or dropped findings past its cap, only "reference error => schema
     error" is checked;
  3. prints SCHEMA_INEXPRESSIBLE, PARTLY_EXPRESSIBLE and VERSION_DEPENDENT, so what the schema
     does not cover is visible.

The reference's verdicts here are ARCS's own readings (the "rules" of the manifest); the schema
is held to the same readings.
"""

import copy
import json
import os
import re

from crosscheck_lib import (EntryValidator, NotJson, fmt_finding, load_schemas,
                            make_format_checker, parse_line, prefetch_arcs, report_rule_tables,
                            run_arcs, schema_errors, split_lines)

ENTRY_SCHEMA = "schemas/spool/entry.schema.json"

# Rule ids (conformance/spool/requirements.json) whose ERROR findings a
# schema for ONE parsed line cannot express. Their findings are ignored in the comparison. Every id
# must exist in the catalogue. (Warnings never enter the comparison: a schema only says valid or
# invalid, and SHOULD-level findings leave a file valid.)
SCHEMA_INEXPRESSIBLE = {
    "SP-3.4-1": "bytes: a leading BOM / ill-formed UTF-8 (the test strips the BOM; such lines do not decode)",
    "SP-3.6-1": "line syntax: blank lines, whitespace around the object, not one JSON object",
    "SP-9.1-1": "text: lone surrogate escapes (not Unicode; such lines are skipped as not JSON)",
    "SP-9.1-2": "text: raw control characters in strings (not JSON; skipped)",
    "SP-10.1-7": "text: duplicate member names (lost once parsed; such lines are skipped)",
    "SP-4.3-1": "file: an empty or whitespace-only file has no line to judge",
    "SP-4.1-1": "position: the session entry must be the first non-blank line",
    "SP-4.1-2": "position: no second session entry later in the file",
    "SP-5.1-5": "cross-line: ids unique within the file",
    "SP-6.5-3": "cross-line: call_id must name a tool_call entry",
    "SP-6.8.1-3": "cross-line: subagent_id must name a subagent_start entry",
    "SP-6.8.1-6": "cross-line: parent_subagent_id must name a subagent_start entry",
    "SP-6.8.2-3": "cross-line: start_id must name a subagent_start entry",
    "SP-10.1-1": "limit: file size (configurable)",
    "SP-10.1-2": "limit: line length (configurable)",
    "SP-10.1-3": "limit: number of entries (configurable)",
    "SP-10.1-4": "limit: subagent nesting depth along parent chains (cross-line, configurable)",
    "SP-10.1-5": "limit: base64 decoded size (configurable)",
    "SP-9.5-1": "limit: JSON nesting depth (configurable)",
}

# Resource limits change what the reference looks at (D15): a line over max_line_bytes or
# max_json_depth, or the entry past max_entries, is not judged further; over max_file_bytes or
# max_entries the reference stops reading, so its silence about later lines proves nothing.
LINE_NOT_JUDGED_RULES = {"SP-10.1-2", "SP-9.5-1", "SP-10.1-3"}
STOP_RULES = {"SP-10.1-1", "SP-10.1-3"}

# Rules a schema expresses only in part. The predicate gets the parsed entry and the finding and
# says whether the finding is the inexpressible part; only those findings are ignored.
def _kept_range_order(entry, finding):
    trimmed = entry.get("trimmed")
    kept = trimmed.get("kept_range") if isinstance(trimmed, dict) else None
    return (finding.get("pointer") == "/trimmed/kept_range" and isinstance(kept, list)
            and len(kept) == 2)  # a two-element array: the finding is about the order


def _parent_differs(entry, finding):
    within, parent = entry.get("subagent_id"), entry.get("parent_subagent_id")
    return (finding.get("pointer") == "/parent_subagent_id" and isinstance(within, str)
            and isinstance(parent, str) and within != parent)


PARTLY_EXPRESSIBLE = {
    "SP-6.1.2-1": ("trimmed.kept_range start <= end (errata SP-E17): JSON Schema cannot compare "
                   "two values; presence and types are in the schema", _kept_range_order),
    "SP-6.8.3-2": ("a nested subagent_start's subagent_id and parent_subagent_id name the same "
                   "subagent (errata SP-E24): cannot compare two values; 'has parent_subagent_id' "
                   "is in the schema", _parent_differs),
}

# Rules the entry schema expresses (where), for the record and so that an error finding under a
# rule in none of these tables is reported as unclassified rather than silently compared.
SCHEMA_EXPRESSED = {
    "SP-5.1-1": "required id", "SP-5.1-2": "$defs/uuid on id",
    "SP-5.2-1": "$defs/timestamp type integer (by value)", "SP-5.2-2": "$defs/timestamp minimum 0",
    "SP-5.2-3": "$defs/timestamp maximum 2^63-1", "SP-5.3-1": "required type, $defs/type_name string",
    "SP-6.1-2": "$defs/session required, version/agent/recorded_at types",
    "SP-6.1-3": "$defs/session ts const 0", "SP-6.1-4": "$defs/session optional field types",
    "SP-6.2-1": "$defs/prompt", "SP-6.2-2": "$defs/prompt", "SP-6.3-1": "$defs/thinking",
    "SP-6.3-2": "$defs/thinking", "SP-6.4-1": "$defs/tool_call", "SP-6.4-2": "$defs/tool_call",
    "SP-6.5-1": "$defs/tool_result", "SP-6.5-4": "$defs/tool_result oneOf output/error",
    "SP-6.5-5": "$defs/tool_result output/error types", "SP-6.5-6": "$defs/tool_result",
    "SP-6.6-1": "$defs/response", "SP-6.6-2": "$defs/response", "SP-6.7-1": "$defs/error",
    "SP-6.7-2": "$defs/error", "SP-6.8.1-1": "$defs/subagent_start",
    "SP-6.8.1-4": "$defs/subagent_start", "SP-6.8.2-1": "$defs/subagent_end",
    "SP-6.8.2-4": "$defs/subagent_end", "SP-6.9-1": "$defs/annotation", "SP-6.9-4": "$defs/annotation",
    "SP-6.10-1": "$defs/redaction_marker", "SP-6.10-3": "$defs/redaction_marker",
    "SP-7.5-1": "$defs/version pattern (MAJOR.MINOR, major not 0)",
    "SP-7.5-3": "$defs/version pattern (major 1)",
    "SP-9.2-2": "$defs/binary required", "SP-9.2-3": "$defs/binary encoding const",
    "SP-9.2-4": "$defs/base64 canonical pattern", "SP-9.2-5": "$defs/binary optional types",
    "SP-9.3-2": "$defs/prompt attachments items $defs/binary",
}

# Rules whose verdict depends on the file's session version: unprefixed unknown entry types and
# unknown fields are errors in "1.0" files and warnings in "1.x" (x > 0) files (D11, D12). The
# entry schema encodes the "1.0" reading; lines of other files are checked against a lenient
# variant (unknown fields allowed, any type name) and findings under these rules are ignored.
VERSION_DEPENDENT = {
    "SP-7.2-1": "unprefixed unknown entry type: error in a \"1.0\" file, warning in \"1.x\", x > 0 (D11)",
    "SP-7.4-1": "unprefixed unknown field: error in a \"1.0\" file, warning in \"1.x\", x > 0 (D12)",
}


def lenient_entry_schema(schema):
    """The entry schema as it applies to a "1.x" file with x > 0 (or of unknown version): unknown
    unprefixed fields and entry types are not errors there (D11, D12)."""
    lenient = copy.deepcopy(schema)
    if lenient.get("unevaluatedProperties") is not False or "type_name" not in lenient.get("$defs", {}):
        return None
    del lenient["unevaluatedProperties"]
    lenient["$defs"]["type_name"] = {"type": "string"}
    lenient["$id"] = lenient["$id"].replace("entry.schema.json", "entry-1x-lenient.schema.json")
    return lenient


def session_version(data):
    """The version member of the first non-blank line when that line is a session entry, else
    None. Like the reference, a repeated member name counts with its first value."""
    for _, raw, blank in split_lines(data):
        if blank:
            continue
        try:
            entry = json.loads(raw.decode("utf-8"),
                               object_pairs_hook=lambda pairs: dict(reversed(pairs)))
        except (ValueError, RecursionError):
            return None
        if isinstance(entry, dict) and entry.get("type") == "session":
            return entry.get("version")
        return None
    return None


def is_version_1_0(version):
    """Whether the file is a Spool 1.0 file: its session version is 1.0 by value ("1.0", "1.00",
    "01.0"). Any other version (a later 1.x, 2.0, malformed, missing) is "not 1.0": its lines
    are compared only on rules that do not depend on the version."""
    m = re.fullmatch(r"([0-9]+)\.([0-9]+)", version) if isinstance(version, str) else None
    return bool(m) and int(m.group(1)) == 1 and int(m.group(2)) == 0



def check(tally, arcs, cases, catalogue_ids):
    """cases: the manifest's cases, each with "_path" (its input file)."""
    format_checker = make_format_checker()
    tables = report_rule_tables(tally, [
        ("rules a per-line schema cannot express (findings ignored)", SCHEMA_INEXPRESSIBLE),
        ("rules a schema expresses only in part (the other part's findings ignored)",
         PARTLY_EXPRESSIBLE),
        ("", SCHEMA_EXPRESSED),
        ("rules that depend on the session version (compared in \"1.0\" files only)",
         VERSION_DEPENDENT)])

    # 1. The entry schema is a draft 2020-12 schema.
    schemas = load_schemas(tally, (ENTRY_SCHEMA,))
    if schemas is None:
        return

    strict = EntryValidator(schemas[ENTRY_SCHEMA], format_checker=format_checker)
    lenient_schema = lenient_entry_schema(schemas[ENTRY_SCHEMA])
    if not tally.check(lenient_schema is not None,
                       f"{ENTRY_SCHEMA}: layout changed: the test derives the 1.x-lenient variant "
                       "from the root's \"unevaluatedProperties\": false and $defs/type_name"):
        return
    lenient = EntryValidator(lenient_schema, format_checker=format_checker)

    # The date-time format must really be asserted (Debian's jsonschema skips it by itself).
    probe = {"id": "00000000-0000-0000-0000-000000000000", "ts": 0, "type": "session",
             "version": "1.0", "agent": "test", "recorded_at": "2025-02-30T00:00:00Z"}
    tally.check(not strict.is_valid(probe), "format date-time is not asserted")
    probe["recorded_at"] = "2025-01-01T00:00:00Z"
    tally.check(strict.is_valid(probe), "the §11.1 session entry is not schema-valid",
                schema_errors(strict, probe))

    if catalogue_ids:
        for table_name, table in (("SCHEMA_INEXPRESSIBLE", SCHEMA_INEXPRESSIBLE),
                                  ("PARTLY_EXPRESSIBLE", PARTLY_EXPRESSIBLE),
                                  ("SCHEMA_EXPRESSED", SCHEMA_EXPRESSED),
                                  ("VERSION_DEPENDENT", VERSION_DEPENDENT)):
            unknown = sorted(set(table) - catalogue_ids)
            tally.check(not unknown, f"{table_name} names rules missing from the catalogue", unknown)


    # 3. Per-line comparison with the reference.
    unclassified = set()
    stats = {"compared": 0, "invalid": 0, "blank": 0, "not_json": 0, "limit": 0, "one_way": 0}
    prefetch_arcs(arcs, "spool", [(c["_path"], (c.get("args") or {}).get("limits"))
                                  for c in cases if os.path.isfile(c["_path"])])
    for case in cases:
        path = case["_path"]
        if not os.path.isfile(path):
            continue
        cid = case.get("id")
        limits = (case.get("args") or {}).get("limits")
        report, err = run_arcs(arcs, "spool", path, limits)
        if not tally.check(report is not None, f"case {cid}: arcs validate failed", err):
            continue
        with open(path, "rb") as f:
            data = f.read()
        version = session_version(data)
        version_1_0 = is_version_1_0(version)
        validator = strict if version_1_0 else lenient

        # The schema is compared with the ARCS reading (the vectors' rules.errors): an error that
        # rests on an errata reading is reported as a warning naming it, still an ARCS error. A
        # note naming a reading marks what ARCS accepts and another reading would not: no error.
        for f in report["findings"]:
            if f.get("reading") and f.get("severity") == "warning":
                f["severity"] = "error"
        by_line = {}
        for f in report["findings"]:
            by_line.setdefault(f.get("line", 0), []).append(f)
            rule = f.get("rule")
            if f.get("severity") == "error" and not any(rule in t for t in tables) \
                    and rule not in unclassified:
                unclassified.add(rule)
                tally.check(False, f"case {cid}: error finding under rule {rule}, which no table of "
                            "this test classifies (expressed / inexpressible / partly / version-"
                            "dependent)", fmt_finding(f, None))

        def ignored_because(f, entry):
            rule = f.get("rule")
            if f.get("severity") != "error":
                return "not an error"
            if rule in SCHEMA_INEXPRESSIBLE:
                return "inexpressible"
            if rule in PARTLY_EXPRESSIBLE and PARTLY_EXPRESSIBLE[rule][1](entry, f):
                return "inexpressible part of the rule"
            if not version_1_0 and rule in VERSION_DEPENDENT:
                return f"version-dependent, file version {version!r}"
            return None

        # Where the reference stopped judging lines (a resource limit) or dropped findings past
        # its cap, its silence proves nothing: only "reference error => schema error" is checked.
        one_way_from = None
        if report.get("dropped", 0):
            one_way_from = 0
        for f in report["findings"]:
            if f.get("rule") in STOP_RULES:
                line = f.get("line", 0)
                one_way_from = line if one_way_from is None else min(one_way_from, line)

        for number, raw, blank in split_lines(data):
            if blank:
                stats["blank"] += 1
                continue
            line_findings = by_line.get(number, [])
            if any(f.get("rule") in LINE_NOT_JUDGED_RULES for f in line_findings):
                stats["limit"] += 1  # e.g. a line over max_line_bytes is not read at all
                continue
            try:
                entry = parse_line(raw)
            except NotJson:
                stats["not_json"] += 1
                continue
            errors = schema_errors(validator, entry)
            counted = [f for f in line_findings if ignored_because(f, entry) is None]
            schema_valid = not errors
            reference_valid = not counted
            if one_way_from is not None and number >= one_way_from and reference_valid:
                stats["one_way"] += 1
                continue
            stats["compared"] += 1
            stats["invalid"] += not reference_valid
            ok = schema_valid == reference_valid
            detail = None
            if not ok:
                detail = [f"{'strict (1.0)' if version_1_0 else 'lenient (version ' + repr(version) + ')'} "
                          f"schema says {'valid' if schema_valid else 'invalid'}; "
                          f"reference says {'valid' if reference_valid else 'invalid'}"]
                detail += [f"schema: {e}" for e in errors] or ["schema: no errors"]
                detail += [f"reference: {fmt_finding(f, ignored_because(f, entry))}" for f in line_findings] \
                    or ["reference: no findings on this line"]
            tally.check(ok, f"{path}:{number} (case {cid}): schema and reference disagree", detail)

    print(f"crosscheck: lines compared {stats['compared']} (reference-invalid {stats['invalid']}); "
          f"skipped: blank {stats['blank']}, "
          f"not JSON {stats['not_json']}, over a limit {stats['limit']}, "
          f"past a limit or finding cap (reference silent) {stats['one_way']}")

