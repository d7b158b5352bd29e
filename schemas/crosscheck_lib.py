"""What the schema cross-checks of every format share (schemas/crosscheck_test.py runs them):
strict JSON parsing with exact numbers, an RFC 3339 date-time checker, a draft 2020-12 validator
whose integers are exact, running `arcs validate --json`, and a tally of checks."""

import datetime
import decimal
import json
import re
import subprocess

import jsonschema

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


def load_schemas(tally, paths):
    """The schemas at `paths`, by path, each checked to be a valid draft 2020-12 schema that says
    so in `$schema`; None (after counting the failures in `tally`) when any is not."""
    schemas = {}
    for path in paths:
        try:
            schema = load_json(path)
            jsonschema.Draft202012Validator.check_schema(schema)
            ok = schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema"
            tally.check(ok, f"{path}: $schema is not draft 2020-12")
            schemas[path] = schema
        except (OSError, ValueError, jsonschema.SchemaError) as e:
            tally.check(False, f"{path}: not a valid draft 2020-12 schema", str(e).split("\n")[0])
    return schemas if len(schemas) == len(paths) else None


def schema_errors(validator, value):
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    out = []
    for e in errors:
        pointer = "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in e.absolute_path)
        out.append(f"{pointer or '(entry)'}: {e.message}")
    return out


def _validate(arcs, format_name, paths, limits):
    """`arcs validate --json` over paths: (the file reports, in the order of paths, with a finding
    about the whole file as line 0), or (None, why not)."""
    # The strict profile: the vectors' rule sets are the reference's own reading, under which an
    # error that rests on an errata reading is an error (a plain `arcs validate` makes it a warning).
    # --no-config: a .arcs.toml above the vectors must not choose the rules compared.
    cmd = [arcs, "validate", "--json", "--strict", "--no-config", "--format", format_name]
    for name, value in sorted((limits or {}).items()):
        cmd += ["--limit", f"{name}={value}"]
    cmd += paths
    shown = " ".join(cmd if len(paths) == 1 else cmd[:-len(paths)] + [f"({len(paths)} paths)"])
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{shown}: {e}"
    if proc.returncode not in (0, 1):
        return None, (f"{shown}: exit {proc.returncode}: "
                      f"{proc.stderr.decode('utf-8', 'replace').strip()}")
    try:
        files = json.loads(proc.stdout.decode("utf-8"))["files"]
        if len(files) != len(paths):
            raise ValueError(f"{len(files)} file reports, not {len(paths)}")
        # Several are matched to their paths by name: a path's own, or for a folder a file in it
        # (a Lightbox session is reported as its events.jsonl).
        if len(paths) > 1 and not all(f["file"] == p or f["file"].startswith(p.rstrip("/") + "/")
                                      for f, p in zip(files, paths)):
            raise ValueError("the file reports do not name the paths in their order")
        # The JSON gives a finding about the whole file the text's line 1 and marks it whole_file;
        # the comparisons here keep such findings apart from line 1's as line 0.
        for report in files:
            for f in report["findings"]:
                if f.get("whole_file"):
                    f["line"] = 0
    except (ValueError, KeyError, TypeError) as e:
        return None, f"{shown}: unreadable --json output: {e}"
    return files, None


# The reports prefetch_arcs read, by (format, path, limits).
_prefetched = {}


def _limits_key(limits):
    return tuple(sorted((limits or {}).items()))


def prefetch_arcs(arcs, format_name, requests):
    """Reads the reports of every (path, limits) in requests with one `arcs validate` for each set
    of limits (in chunks of 200 paths), for run_arcs to answer from: starting arcs once for each of
    1,400 vector files was a third of this test's time. A chunk that fails is left to run_arcs,
    which runs each of its paths alone and says what went wrong."""
    groups = {}
    for path, limits in requests:
        groups.setdefault(_limits_key(limits), {})[path] = limits
    for key, by_path in groups.items():
        paths = list(by_path)
        for start in range(0, len(paths), 200):
            chunk = paths[start:start + 200]
            reports, _ = _validate(arcs, format_name, chunk, by_path[chunk[0]])
            for path, report in zip(chunk, reports or []):
                _prefetched[(format_name, path, key)] = report


def run_arcs(arcs, format_name, path, limits):
    """The file report of `arcs validate --json` for one path: (report, None) or (None, why not).
    Answered from what prefetch_arcs read, when it read it."""
    report = _prefetched.pop((format_name, path, _limits_key(limits)), None)
    if report is not None:
        return report, None
    reports, err = _validate(arcs, format_name, [path], limits)
    return (reports[0], None) if reports else (None, err)


def fmt_finding(f, ignored):
    mark = " [ignored: " + ignored + "]" if ignored else ""
    return (f"{f.get('rule')} {f.get('severity')} col {f.get('column')} "
            f"ptr {f.get('pointer')!r}: {f.get('message')}{mark}")


def report_rule_tables(tally, tables):
    """Checks that no rule id is in two of a format's rule tables, prints them, and returns them
    (the dicts, to tell classified rules from unclassified ones). tables: a list of (title,
    {rule: reason or (reason, ...)}), e.g. the rules a schema cannot express; "" prints none."""
    ids = [set(table) for _, table in tables]
    overlap = sorted(r for i, a in enumerate(ids) for b in ids[i + 1:] for r in a & b)
    tally.check(not overlap, "a rule id is in more than one table", overlap)
    for title, table in tables:
        if not title:
            continue
        print(f"crosscheck: {title}:")
        for rule, reason in sorted(table.items()):
            print(f"  {rule:<12} {reason[0] if isinstance(reason, tuple) else reason}")
    return [table for _, table in tables]


def arcs_lists_format(arcs, format_name):
    """Whether `arcs formats --json` lists the format (False when arcs cannot be run)."""
    try:
        out = subprocess.run([arcs, "formats", "--json"], stdout=subprocess.PIPE, check=True,
                             timeout=60)
        return any(f.get("name") == format_name for f in json.loads(out.stdout)["formats"])
    except (OSError, ValueError, KeyError, subprocess.SubprocessError):
        return False


def compare_reference_schema_ids(tally, arcs, format_name, cases, path_of, prefix):
    """Holds the reference to the manifest: for every validate case, the schema ids `arcs
    validate --json` reports (rule ids starting with `prefix`) are those rules.errors lists.
    path_of(case) is the validated file. Skipped, and said so, while arcs does not list the
    format."""
    if not arcs or not arcs_lists_format(arcs, format_name):
        print(f"crosscheck: {format_name}: arcs does not list the format yet: the comparison "
              "with the reference is skipped")
        return
    prefetch_arcs(arcs, format_name, [(path_of(c), (c.get("args") or {}).get("limits")) for c in cases
                                      if (c.get("operations") or {}).get("validate")])
    for c in cases:
        op = (c.get("operations") or {}).get("validate")
        if not op:
            continue
        report, err = run_arcs(arcs, format_name, path_of(c), (c.get("args") or {}).get("limits"))
        if not tally.check(report is not None, f"case {c['id']}: arcs validate failed", err):
            continue
        found = sorted({f.get("rule") for f in report["findings"]
                        if str(f.get("rule", "")).startswith(prefix)})
        listed = sorted(r for r in op["rules"]["errors"] if r.startswith(prefix))
        tally.check(found == listed, f"case {c['id']}: the reference reports the schema ids "
                    f"{found}, the manifest {listed}")


def crosscheck_main(description, manifest_path, catalogue_path, check):
    """A format's crosscheck.py entry point: --arcs, then check(tally, arcs, cases,
    catalogue_ids); exit status 1 when anything failed."""
    import argparse
    import os
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--arcs", default=None)
    args = ap.parse_args()
    tally = Tally()
    manifest = load_json(manifest_path)
    catalogue_ids = {r["id"] for r in load_json(catalogue_path)["requirements"]}
    check(tally, os.path.abspath(args.arcs) if args.arcs else None, manifest["cases"],
          catalogue_ids)
    print(f"crosscheck: {tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1
