"""The Lightbox part of the schema cross-check (schemas/crosscheck_test.py imports it).

  1. checks that schemas/lightbox/event.schema.json and meta.schema.json are valid draft 2020-12
     schemas, that format "date-time" is really asserted, and that the spec's example event and
     meta.json (completed, errata LB-E40) are schema-valid;
  2. runs `arcs validate --json --format lightbox` (with the case's limits) on every case's
     session (its events.jsonl, with meta.json when the case has one) and, for every line of
     events.jsonl that Python can parse strictly as a JSON object, compares the event schema's
     verdict with the reference's: the line is schema-valid exactly when the reference reports no
     error finding on that line under a rule a per-line schema can express, i.e. ignoring
     SCHEMA_INEXPRESSIBLE and the inexpressible part of PARTLY_EXPRESSIBLE. meta.json, when
     given and strictly parseable, is compared the same way with meta.schema.json (the
     reference's meta.json findings are those on line 0 whose pointer starts with "meta.json").
     Lines the reference did not judge (over a line or depth limit) are skipped; from the line
     where it stopped reading (max_events) only "reference error => schema error" is checked;
  3. prints SCHEMA_INEXPRESSIBLE and PARTLY_EXPRESSIBLE, so what the schemas do not cover is
     visible, and KNOWN_REFERENCE_DISAGREEMENTS (below).

The reference's verdicts here are ARCS's own readings (the "rules" of the manifest); the schemas
are held to the same readings.
"""

import os

from crosscheck_lib import (EntryValidator, NotJson, fmt_finding, load_schemas,
                            make_format_checker, parse_line, prefetch_arcs, report_rule_tables,
                            run_arcs, schema_errors, split_lines)

EVENT_SCHEMA = "schemas/lightbox/event.schema.json"
META_SCHEMA = "schemas/lightbox/meta.schema.json"

# Rule ids (conformance/lightbox/requirements.json) whose ERROR findings a schema for ONE parsed
# line (or the parsed meta.json) cannot express. Their findings are ignored in the comparison.
# (Warnings, LB-OPT-9 and LB-OPT-13, never enter it: a schema only says valid or invalid.)
SCHEMA_INEXPRESSIBLE = {
    "LB-LAYOUT-1": "line syntax: not one JSON object, blank lines, a leading BOM, ill-formed UTF-8, "
                   "raw control characters, NaN/Infinity (such lines are skipped as not JSON)",
    "LB-LAYOUT-5": "limits: line length, nesting depth, number of events (configurable)",
    "LB-CANON-5": "number text: a fraction or an exponent (1.0, 1e2, -0.0) anywhere in an event; "
                  "a schema sees values, and 1.0 is the integer 1",
    "LB-CANON-8": "text: lone surrogate escapes (not Unicode; such lines are skipped as not JSON)",
    "LB-CANON-9": "text: repeated member names (lost once parsed; such lines are skipped)",
    "LB-HASH-2": "chain: hash is the SHA-256 of the event's canonical form (a computation)",
    "LB-HASH-4": "chain: prev_hash null on the first event only (position in the file)",
    "LB-HASH-5": "chain: prev_hash equals the previous event's hash (cross-line)",
    "LB-EVENT-14": "cross-line: an invocation_id is used by one call (a pending event and its "
                   "one resolution)",
    "LB-EVENT-19": "cross-line: every event has the first event's session_id",
    "LB-ASYNC-3": "cross-line: a pending call is resolved once, by an event whose input is {}",
    "LB-OPT-10": "two values and cross-line: parent_invocation is not the event's own "
                 "invocation_id, and parent links form no cycle",
    "LB-RETRY-1": "two values: retry_of is not the event's own invocation_id",
    "LB-RETRY-2": "cross-line: retry_of names an earlier event's invocation_id",
    "LB-REDACT-2": "data-dependent path: the value a content_hashes key leads to is a redaction "
                   "marker",
    "LB-META-6": "cross-file: meta.json's session_id is the events' session_id",
}


# Rules a schema expresses only in part. The predicate gets the parsed event and the finding and
# says whether the finding is the inexpressible part; only those findings are ignored.
def _path_prefix_right(event, finding):
    """LB-REDACT-1: the key starts with input. or output. (in the schema, propertyNames); whether
    its path leads to a value of the event is not expressible."""
    pointer = finding.get("pointer") or ""
    prefix = "/content_hashes/"
    if not pointer.startswith(prefix):
        return False
    key = pointer[len(prefix):].replace("~1", "/").replace("~0", "~")
    return key.startswith("input.") or key.startswith("output.")


PARTLY_EXPRESSIBLE = {
    "LB-REDACT-1": ("content_hashes keys: the input./output. prefix is in the schema "
                    "(propertyNames); that the path leads to a value of the event is not",
                    _path_prefix_right),
}

# Rules the schemas express (where), for the record and so that an error finding under a rule in
# none of these tables is reported as unclassified rather than silently compared.
SCHEMA_EXPRESSED = {
    "LB-EVENT-1": "event required, schema_version const \"1\"",
    "LB-EVENT-2": "event required, session_id string", "LB-EVENT-3": "required, invocation_id string",
    "LB-EVENT-4": "required, tool string", "LB-EVENT-5": "required, input object",
    "LB-EVENT-6": "required, output object|null", "LB-EVENT-7": "required, status string",
    "LB-EVENT-8": "required, timestamp_start $defs/timestamp",
    "LB-EVENT-9": "required, timestamp_end null|$defs/timestamp",
    "LB-EVENT-10": "required, prev_hash null|$defs/sha256_hex",
    "LB-EVENT-11": "required, hash $defs/sha256_hex", "LB-EVENT-12": "status enum",
    "LB-EVENT-13": "invocation_id pattern ^inv_[0-9]{5,}$",
    "LB-EVENT-15": "$defs/timestamp (format date-time, three fraction digits)",
    "LB-EVENT-16": "timestamp_end $defs/timestamp", "LB-EVENT-17": "allOf[1] (output)",
    "LB-EVENT-18": "allOf[1] (timestamp_end)", "LB-ASYNC-2": "allOf[0]",
    "LB-OPT-1": "parent_invocation string", "LB-OPT-2": "actor string",
    "LB-OPT-3": "originating_actor string", "LB-OPT-4": "error object",
    "LB-OPT-5": "chunk_count integer", "LB-OPT-6": "total_bytes integer",
    "LB-OPT-7": "content_hashes object", "LB-OPT-8": "retry_of string",
    "LB-OPT-11": "allOf[2]", "LB-OPT-12": "chunk_count, total_bytes minimum 0",
    "LB-HASH-3": "$defs/sha256_hex on hash and prev_hash",
    "LB-REDACT-3": "content_hashes additionalProperties $defs/sha256_hex",
    "LB-META-1": "meta.schema.json type object", "LB-META-2": "meta required, session_id string",
    "LB-META-3": "meta required, schema_version const \"1\"",
    "LB-META-4": "meta required, lightbox_version string",
    "LB-META-5": "meta required, created_at (format date-time, three fraction digits)",
}

# Resource limits change what the reference looks at (errata LB-E41): a line over max_line_bytes
# or max_json_depth is not judged; past max_events the reference stops reading.
LIMIT_RULE = "LB-LAYOUT-5"

# Where the reference (conformance/lightbox/checker.cc) departs from the ARCS reading the
# catalogue and errata define, the schemas follow the catalogue: each (case id, line) here is a
# line on which the two verdicts are expected to differ, and the test checks that they still do
# (so an entry is removed when the reference is fixed). They are printed, not hidden.
KNOWN_REFERENCE_DISAGREEMENTS = {}


def _compare(tally, where, value, validator, findings, ignored_because, one_way, stats, known):
    errors = schema_errors(validator, value)
    counted = [f for f in findings if ignored_because(f, value) is None]
    schema_valid = not errors
    reference_valid = not counted
    if one_way and reference_valid:
        stats["one_way"] += 1
        return
    stats["compared"] += 1
    stats["invalid"] += not reference_valid
    agree = schema_valid == reference_valid
    detail = None
    if not agree or known:
        detail = [f"schema says {'valid' if schema_valid else 'invalid'}; "
                  f"reference says {'valid' if reference_valid else 'invalid'}"]
        detail += [f"schema: {e}" for e in errors] or ["schema: no errors"]
        detail += [f"reference: {fmt_finding(f, ignored_because(f, value))}" for f in findings] \
            or ["reference: no findings here"]
    if known:
        tally.check(not agree, f"{where}: listed in KNOWN_REFERENCE_DISAGREEMENTS, but schema and "
                    "reference now agree (remove the entry)", detail)
        print(f"crosscheck: known reference disagreement at {where}: {known}")
        return
    tally.check(agree, f"{where}: schema and reference disagree", detail)


def check(tally, arcs, cases, catalogue_ids):
    """cases: the manifest's cases (inputs relative to vectors/lightbox/)."""
    format_checker = make_format_checker()
    tables = report_rule_tables(tally, [
        ("rules a per-line schema cannot express (findings ignored)", SCHEMA_INEXPRESSIBLE),
        ("rules a schema expresses only in part (the other part's findings ignored)",
         PARTLY_EXPRESSIBLE),
        ("", SCHEMA_EXPRESSED)])
    print("crosscheck: known disagreements of the reference with the catalogue (expected to differ):")
    for (cid, line), reason in sorted(KNOWN_REFERENCE_DISAGREEMENTS.items()):
        print(f"  {cid}:{line}  {reason}")

    # 1. The schemas are draft 2020-12 schemas.
    schemas = load_schemas(tally, (EVENT_SCHEMA, META_SCHEMA))
    if schemas is None:
        return
    events = EntryValidator(schemas[EVENT_SCHEMA], format_checker=format_checker)
    metas = EntryValidator(schemas[META_SCHEMA], format_checker=format_checker)

    # The date-time format must really be asserted (Debian's jsonschema skips it by itself), and
    # the spec's examples, completed (errata LB-E40), are schema-valid.
    example = {"schema_version": "1", "session_id": "session_92c1", "invocation_id": "inv_00042",
               "tool": "send_email", "input": {"to": "user@example.com", "subject": "Hello"},
               "output": {"success": True, "message_id": "msg_123"}, "status": "complete",
               "timestamp_start": "2025-01-15T10:23:01.123+00:00",
               "timestamp_end": "2025-01-15T10:23:01.456+00:00", "prev_hash": None,
               "hash": "0" * 64}
    tally.check(events.is_valid(example), "the spec's example event (completed) is not "
                "schema-valid", schema_errors(events, example))
    tally.check(not events.is_valid(dict(example, timestamp_start="2025-02-30T10:23:01.123Z")),
                "format date-time is not asserted (2025-02-30 passes)")
    meta = {"session_id": "session_abc123...", "schema_version": "1", "lightbox_version": "0.1.0",
            "created_at": "2025-01-15T10:00:00.000+00:00"}
    tally.check(metas.is_valid(meta), "the spec's meta.json example is not schema-valid",
                schema_errors(metas, meta))

    if catalogue_ids:
        for table_name, table in (("SCHEMA_INEXPRESSIBLE", SCHEMA_INEXPRESSIBLE),
                                  ("PARTLY_EXPRESSIBLE", PARTLY_EXPRESSIBLE),
                                  ("SCHEMA_EXPRESSED", SCHEMA_EXPRESSED)):
            unknown = sorted(set(table) - catalogue_ids)
            tally.check(not unknown, f"{table_name} names rules missing from the catalogue", unknown)

    # 2. Per-line comparison with the reference.
    unclassified = set()
    seen_known = set()
    stats = {"compared": 0, "invalid": 0, "blank": 0, "not_json": 0, "limit": 0, "one_way": 0}
    base = "vectors/lightbox"
    prefetch_arcs(arcs, "lightbox",
                  [(os.path.dirname(os.path.join(base, str(c["inputs"]["events"]))),
                    (c.get("args") or {}).get("limits"))
                   for c in cases if "events" in (c.get("inputs") or {})])
    for case in cases:
        cid = case.get("id")
        inputs = case.get("inputs") or {}
        if "events" not in inputs:
            continue
        events_path = os.path.join(base, str(inputs["events"]))
        folder = os.path.dirname(events_path)
        meta_path = os.path.join(base, str(inputs["meta"])) if "meta" in inputs else None
        # arcs validate reads a folder's events.jsonl and the meta.json beside it: the case's
        # session is that folder when its files are named so and nothing else is beside them.
        same_folder = (os.path.basename(events_path) == "events.jsonl" and
                       (meta_path is None and not os.path.exists(os.path.join(folder, "meta.json"))
                        or meta_path == os.path.join(folder, "meta.json")))
        if not tally.check(same_folder and os.path.isfile(events_path),
                           f"case {cid}: its inputs are not a session folder (events.jsonl, and "
                           "meta.json only when the case has one)"):
            continue
        limits = (case.get("args") or {}).get("limits")
        report, err = run_arcs(arcs, "lightbox", folder, limits)
        if not tally.check(report is not None, f"case {cid}: arcs validate failed", err):
            continue
        by_line, meta_findings = {}, []
        for f in report["findings"]:
            if f.get("line", 0) == 0 and str(f.get("pointer", "")).startswith("meta.json"):
                meta_findings.append(f)
            else:
                by_line.setdefault(f.get("line", 0), []).append(f)
            rule = f.get("rule")
            if f.get("severity") == "error" and not any(rule in t for t in tables) \
                    and rule not in unclassified:
                unclassified.add(rule)
                tally.check(False, f"case {cid}: error finding under rule {rule}, which no table "
                            "of this test classifies (expressed / inexpressible / partly)",
                            fmt_finding(f, None))

        def ignored_because(f, value):
            rule = f.get("rule")
            if f.get("severity") != "error":
                return "not an error"
            if rule in SCHEMA_INEXPRESSIBLE:
                return "inexpressible"
            if rule in PARTLY_EXPRESSIBLE and PARTLY_EXPRESSIBLE[rule][1](value, f):
                return "inexpressible part of the rule"
            return None

        one_way_from = 0 if report.get("dropped", 0) else None
        for f in report["findings"]:
            if f.get("rule") == LIMIT_RULE and f.get("line", 0) > 0:
                line = f["line"]
                one_way_from = line if one_way_from is None else min(one_way_from, line)

        with open(events_path, "rb") as fh:
            data = fh.read()
        for number, raw, blank in split_lines(data):
            if blank:
                stats["blank"] += 1
                continue
            line_findings = by_line.get(number, [])
            if any(f.get("rule") == LIMIT_RULE for f in line_findings):
                stats["limit"] += 1  # over max_line_bytes or max_json_depth: not read at all
                continue
            try:
                event = parse_line(raw)
            except NotJson:
                stats["not_json"] += 1
                continue
            known = KNOWN_REFERENCE_DISAGREEMENTS.get((cid, number))
            if known:
                seen_known.add((cid, number))
            one_way = one_way_from is not None and number >= one_way_from
            _compare(tally, f"{events_path}:{number} (case {cid})", event, events, line_findings,
                     ignored_because, one_way, stats, known)
        if meta_path:
            with open(meta_path, "rb") as fh:
                meta_data = fh.read()
            try:
                meta_value = parse_line(meta_data)
            except NotJson:
                stats["not_json"] += 1
                continue
            _compare(tally, f"{meta_path} (case {cid})", meta_value, metas, meta_findings,
                     ignored_because, False, stats, None)

    missing = sorted(set(KNOWN_REFERENCE_DISAGREEMENTS) - seen_known)
    tally.check(not missing, "KNOWN_REFERENCE_DISAGREEMENTS names lines no case has",
                [f"{c}:{n}" for c, n in missing])
    print(f"crosscheck: lines compared {stats['compared']} (reference-invalid {stats['invalid']}); "
          f"skipped: blank {stats['blank']}, not JSON {stats['not_json']}, over a limit "
          f"{stats['limit']}, past a limit (reference silent) {stats['one_way']}")
