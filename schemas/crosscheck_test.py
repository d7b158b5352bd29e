#!/usr/bin/python3
"""Cross-checks the Spool JSON Schemas against the reference checker and the vectors.

Run from the repository root:

    /usr/bin/python3 schemas/crosscheck_test.py --arcs build/arcs

It
  1. checks that schemas/spool/entry.schema.json and schemas/vectors/manifest.schema.json are
     valid draft 2020-12 schemas, and that format "date-time" is really asserted;
  2. validates vectors/spool/manifest.json against the manifest schema and checks what a schema
     cannot: case files exist, case ids are unique, errors/warnings are sorted, cited rule ids
     (and the rule ids of the tables below) exist in the catalogue;
  3. runs `arcs validate --json --format spool` (with the case's limits) on every case file and,
     for every line that Python can parse strictly as a JSON object, compares the entry schema's
     verdict with the reference's: the line is schema-valid exactly when the reference reports
     no error finding on that line under a rule a per-line schema can express, i.e. ignoring
     SCHEMA_INEXPRESSIBLE, the inexpressible part of PARTLY_EXPRESSIBLE, and, in files whose
     session version is not 1.0, VERSION_DEPENDENT (those lines are validated against a lenient
     variant of the schema that allows unknown fields and types). Lines the reference did not
     judge (over a line or depth limit) are skipped; where it stopped reading (file size or
     entry count limit) or dropped findings past its cap, only "reference error => schema
     error" is checked;
  4. prints SCHEMA_INEXPRESSIBLE, PARTLY_EXPRESSIBLE and VERSION_DEPENDENT, so what the schema
     does not cover is visible.

Exit status 0 when every check passed, 1 otherwise. The last line is
"crosscheck: N passed, M failed".

Uses Debian's python3-jsonschema, draft 2020-12. Two things are added, both faithful to the
draft: (a) Debian's package has no RFC 3339 checker, so format "date-time" would silently pass;
this test registers its own strict one (re + datetime). (b) Numbers are parsed exactly (int, or
decimal.Decimal for fractions and exponents, never a double: 1.0000000000000000001 is not an
integer, 1e400 is not infinity), so Draft202012Validator is extended with an "integer" type check
that accepts an integral Decimal (2020-12: an integer is any number with a zero fractional part).
"""

import argparse
import copy
import datetime
import decimal
import json
import os
import re
import subprocess
import sys

import jsonschema

ENTRY_SCHEMA = "schemas/spool/entry.schema.json"
MANIFEST_SCHEMA = "schemas/vectors/manifest.schema.json"
MANIFEST = "vectors/spool/manifest.json"

# Rule ids (conformance/spool/requirements.json, /tmp/spool_rule_ids.md) whose ERROR findings a
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


# ----------------------------------------------------------------------------------------------
# RFC 3339 date-time (decision D9): YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM), 'T' and 'Z'
# case-insensitive, a real calendar date, hour <= 23, minute <= 59, second <= 60 (leap second).

_DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?"
    r"(?:[Zz]|[+-]([0-9]{2}):([0-9]{2}))")


def is_rfc3339_date_time(value):
    if not isinstance(value, str):
        return True  # format only constrains strings
    m = _DATE_TIME.fullmatch(value)
    if not m:
        return False
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    try:
        # Year 0000 is valid RFC 3339 but below datetime.MINYEAR; in the proleptic Gregorian
        # calendar it is a leap year like 2000 (the 400-year cycle), so check its dates as 2000's.
        datetime.date(year if year > 0 else 2000, month, day)
    except ValueError:
        return False
    if hour > 23 or minute > 59 or second > 60:
        return False
    if m.group(7) is not None and (int(m.group(7)) > 23 or int(m.group(8)) > 59):
        return False
    return True


def make_format_checker():
    checker = jsonschema.FormatChecker(formats=())
    checker.checks("date-time")(is_rfc3339_date_time)
    return checker


# JSON Schema's "integer" is any number whose mathematical value is an integer (2020-12
# validation §6.1.1), which is also how Spool reads integers (D8). This test parses numbers
# exactly (int, or decimal.Decimal for anything with a fraction or exponent, never a double), so
# the draft 2020-12 validator is given a type checker that knows an integral Decimal is an integer.
def _is_integer(checker, instance):
    if isinstance(instance, bool):
        return False
    if isinstance(instance, int):
        return True
    if isinstance(instance, decimal.Decimal):
        return instance.is_finite() and instance == instance.to_integral_value()
    return isinstance(instance, float) and instance.is_integer()


EntryValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))


# ----------------------------------------------------------------------------------------------
# Strict JSON for one line.

class NotJson(Exception):
    pass


def _reject_duplicates(pairs):
    obj = {}
    for name, value in pairs:
        if name in obj:
            raise NotJson(f"duplicate member name {name!r}")
        obj[name] = value
    return obj


def _reject_constant(name):
    raise NotJson(f"{name} is not JSON")


def _parse_int(text):
    # Python refuses int() on more than 4300 digits; such numbers stay exact as Decimal.
    if len(text) > 4000:
        return decimal.Decimal(text)
    return int(text)


# Numbers with a fraction or an exponent are kept exact (D8 judges by value: 1.0 and 1e2 are
# integers, 1.0000000000000000001 is not, though a double would round it to 1.0; 1e400 is a
# number, not infinity). A context with a huge exponent range keeps to_integral_value() exact.
_DECIMAL_CONTEXT = decimal.Context(prec=28, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def _parse_float(text):
    return _DECIMAL_CONTEXT.create_decimal(text)


def _check_strings(value):
    """Raises NotJson when a string (or member name) holds a lone surrogate (an escape such as
    \\ud800 alone): such text is not Unicode, so the line is not valid JSON text (D7)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                raise NotJson("lone surrogate in a string")
        elif isinstance(v, dict):
            for k, item in v.items():
                stack.append(k)
                stack.append(item)
        elif isinstance(v, list):
            stack.extend(v)


def parse_line(raw):
    """raw: the bytes of one line (no ending). Returns the dict, or raises NotJson."""
    try:
        text = raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        raise NotJson(f"invalid UTF-8: {e}")
    try:
        value = json.loads(text, object_pairs_hook=_reject_duplicates,
                           parse_constant=_reject_constant, parse_int=_parse_int,
                           parse_float=_parse_float)
    except NotJson:
        raise
    except RecursionError:
        raise NotJson("nested too deeply for Python's parser")
    except (ValueError, decimal.InvalidOperation) as e:
        raise NotJson(str(e))
    if not isinstance(value, dict):
        raise NotJson(f"a JSON {type(value).__name__}, not an object")
    _check_strings(value)
    return value


def split_lines(data):
    """The spec's line model (3.4-3.6): strip one leading BOM, split on LF, drop one trailing CR;
    lines of only space/tab/CR are blank. Yields (1-based line number, bytes, blank)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    parts = data.split(b"\n")
    if parts and parts[-1] == b"":
        parts.pop()  # the final line ending does not start another line
    for number, part in enumerate(parts, start=1):
        if part.endswith(b"\r"):
            part = part[:-1]
        yield number, part, part.strip(b" \t\r") == b""


# ----------------------------------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, detail=None):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}")
            if detail:
                for d in detail if isinstance(detail, list) else [detail]:
                    print(f"      {d}")
        return ok


def load_json(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))


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


def schema_errors(validator, value):
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    out = []
    for e in errors:
        pointer = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in e.absolute_path)
        out.append(f"{pointer or '(entry)'}: {e.message}")
    return out


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


def run_arcs(arcs, path, limits):
    cmd = [arcs, "validate", "--json", "--format", "spool"]
    for name, value in sorted((limits or {}).items()):
        cmd += ["--limit", f"{name}={value}"]
    cmd.append(path)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{' '.join(cmd)}: {e}"
    if proc.returncode not in (0, 1):
        return None, (f"{' '.join(cmd)}: exit {proc.returncode}: "
                      f"{proc.stderr.decode('utf-8', 'replace').strip()}")
    try:
        doc = json.loads(proc.stdout.decode("utf-8"))
        files = doc["files"]
        if len(files) != 1:
            raise ValueError(f"{len(files)} file reports")
        report = files[0]
        findings = report["findings"]
    except (ValueError, KeyError, TypeError) as e:
        return None, f"{' '.join(cmd)}: unreadable --json output: {e}"
    return report, None


def fmt_finding(f, ignored):
    mark = " [ignored: " + ignored + "]" if ignored else ""
    return (f"{f.get('rule')} {f.get('severity')} col {f.get('column')} "
            f"ptr {f.get('pointer')!r}: {f.get('message')}{mark}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arcs", required=True, help="path of the arcs binary (e.g. build/arcs)")
    ap.add_argument("--root", default=".", help="repository root (default: current directory)")
    args = ap.parse_args()
    tally = Tally()
    try:
        os.chdir(args.root)
    except OSError as e:
        tally.check(False, f"--root {args.root}: {e}")
        return finish(tally)

    tables = [SCHEMA_INEXPRESSIBLE, PARTLY_EXPRESSIBLE, SCHEMA_EXPRESSED, VERSION_DEPENDENT]
    overlap = sorted(r for i, a in enumerate(tables) for b in tables[i + 1:] for r in set(a) & set(b))
    tally.check(not overlap, "a rule id is in more than one table", overlap)
    print("crosscheck: rules a per-line schema cannot express (findings ignored):")
    for rule, reason in sorted(SCHEMA_INEXPRESSIBLE.items()):
        print(f"  {rule:<12} {reason}")
    print("crosscheck: rules a schema expresses only in part (the other part's findings ignored):")
    for rule, (reason, _) in sorted(PARTLY_EXPRESSIBLE.items()):
        print(f"  {rule:<12} {reason}")
    print("crosscheck: rules that depend on the session version (compared in \"1.0\" files only):")
    for rule, reason in sorted(VERSION_DEPENDENT.items()):
        print(f"  {rule:<12} {reason}")

    # 1. The schemas are draft 2020-12 schemas.
    schemas = {}
    for path in (ENTRY_SCHEMA, MANIFEST_SCHEMA):
        try:
            schema = load_json(path)
            jsonschema.Draft202012Validator.check_schema(schema)
            ok = schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema"
            tally.check(ok, f"{path}: $schema is not draft 2020-12")
            schemas[path] = schema
        except (OSError, ValueError, jsonschema.SchemaError) as e:
            tally.check(False, f"{path}: not a valid draft 2020-12 schema", str(e).split("\n")[0])
    if len(schemas) != 2:
        return finish(tally)

    format_checker = make_format_checker()
    strict = EntryValidator(schemas[ENTRY_SCHEMA], format_checker=format_checker)
    lenient_schema = lenient_entry_schema(schemas[ENTRY_SCHEMA])
    if not tally.check(lenient_schema is not None,
                       f"{ENTRY_SCHEMA}: layout changed: the test derives the 1.x-lenient variant "
                       "from the root's \"unevaluatedProperties\": false and $defs/type_name"):
        return finish(tally)
    lenient = EntryValidator(lenient_schema, format_checker=format_checker)

    # The date-time format must really be asserted (Debian's jsonschema skips it by itself).
    probe = {"id": "00000000-0000-0000-0000-000000000000", "ts": 0, "type": "session",
             "version": "1.0", "agent": "test", "recorded_at": "2025-02-30T00:00:00Z"}
    tally.check(not strict.is_valid(probe), "format date-time is not asserted")
    probe["recorded_at"] = "2025-01-01T00:00:00Z"
    tally.check(strict.is_valid(probe), "the §11.1 session entry is not schema-valid",
                schema_errors(strict, probe))

    # 2. The manifest.
    try:
        manifest = load_json(MANIFEST)
    except (OSError, ValueError) as e:
        tally.check(False, f"{MANIFEST}: cannot read", str(e))
        return finish(tally)
    mv = jsonschema.Draft202012Validator(schemas[MANIFEST_SCHEMA], format_checker=format_checker)
    tally.check(mv.is_valid(manifest), f"{MANIFEST}: does not match {MANIFEST_SCHEMA}",
                schema_errors(mv, manifest))
    cases = [c for c in manifest.get("cases", []) if isinstance(c, dict)]
    ids = [c.get("id") for c in cases]
    dups = sorted({i for i in ids if ids.count(i) > 1}, key=str)
    tally.check(not dups, f"{MANIFEST}: duplicate case ids", [str(d) for d in dups])

    catalogue_ids = None
    catalogue_path = manifest.get("catalogue")
    if isinstance(catalogue_path, str):
        try:
            catalogue = load_json(catalogue_path)
            reqs = catalogue.get("requirements", catalogue) if isinstance(catalogue, dict) else catalogue
            catalogue_ids = {r["id"] for r in reqs if isinstance(r, dict) and "id" in r}
            tally.check(bool(catalogue_ids), f"{catalogue_path}: no requirement ids found")
        except (OSError, ValueError, AttributeError, TypeError) as e:
            tally.check(False, f"{catalogue_path}: cannot read", str(e))
    if catalogue_ids:
        for table_name, table in (("SCHEMA_INEXPRESSIBLE", SCHEMA_INEXPRESSIBLE),
                                  ("PARTLY_EXPRESSIBLE", PARTLY_EXPRESSIBLE),
                                  ("SCHEMA_EXPRESSED", SCHEMA_EXPRESSED),
                                  ("VERSION_DEPENDENT", VERSION_DEPENDENT)):
            unknown = sorted(set(table) - catalogue_ids)
            tally.check(not unknown, f"{table_name} names rules missing from {catalogue_path}", unknown)

    base = os.path.dirname(MANIFEST)
    for case in cases:
        cid = case.get("id")
        path = os.path.join(base, str(case.get("file")))
        case["_path"] = path
        tally.check(os.path.isfile(path), f"case {cid}: file {path} does not exist")
        v = case.get("validate") or {}
        for key in ("errors", "warnings"):
            lst = v.get(key)
            if isinstance(lst, list):
                tally.check(lst == sorted(lst, key=str), f"case {cid}: validate.{key} is not sorted", lst)
        if catalogue_ids:
            cited = set(case.get("requirements") or []) | set(v.get("errors") or []) | set(v.get("warnings") or [])
            unknown = sorted(x for x in cited if isinstance(x, str) and x not in catalogue_ids)
            tally.check(not unknown, f"case {cid}: rule ids missing from {catalogue_path}", unknown)
    listed = {os.path.normpath(c["_path"]) for c in cases}
    cases_dir = os.path.join(base, "cases")
    if os.path.isdir(cases_dir):
        for dirpath, _, files in os.walk(cases_dir):
            for name in sorted(files):
                p = os.path.normpath(os.path.join(dirpath, name))
                if p not in listed:
                    print(f"note: {p} is not named by any case")

    # 3. Per-line comparison with the reference.
    if not (os.path.isfile(args.arcs) and os.access(args.arcs, os.X_OK)):
        tally.check(False, f"{args.arcs}: no such executable (build it first: make build)")
        return finish(tally)

    unclassified = set()
    stats = {"compared": 0, "invalid": 0, "blank": 0, "not_json": 0, "limit": 0, "one_way": 0}
    for case in cases:
        path = case["_path"]
        if not os.path.isfile(path):
            continue
        cid = case.get("id")
        report, err = run_arcs(args.arcs, path, case.get("limits"))
        if not tally.check(report is not None, f"case {cid}: arcs validate failed", err):
            continue
        with open(path, "rb") as f:
            data = f.read()
        version = session_version(data)
        version_1_0 = is_version_1_0(version)
        validator = strict if version_1_0 else lenient

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
    return finish(tally)



def finish(tally):
    print(f"crosscheck: {tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
