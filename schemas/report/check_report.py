#!/usr/bin/python3
"""Checks the report's JSON Schema (schemas/report/report.schema.json) against real reports.

Run from the repository root (ctest `report_schema` does):

    /usr/bin/python3 schemas/report/check_report.py --sample build/runner/report/arcs_report_sample [REPORT.json...]

It
  1. checks that the schema is a valid draft 2020-12 schema, and that it rejects a few broken
     reports (an unknown member, a negative count, an unknown outcome or ground, a failure
     without expected/actual, a full certification that names something missing, an acceptable
     case without a flag, ...), and that the checks of step 2 refuse a few more (a flag summary or
     strict count that does not follow from the cases, unsorted readings);
  2. validates reports against the schema, and checks what a schema cannot: no repeated member
     name, every total is the sum of the five counts, summary/format/operation/level counts tally
     the cases, cases are sorted by (format, id, operation) and unique, a "full" format has no
     MUST case that did not pass and a "none" format no MUST case that did, each format's flags
     and strict counts are exactly those its cases give (report::SummarizeReadings), a case's
     readings are sorted and only an answered case fits one or is judged against the strict
     profile;
     the reports are: the sample report printed by `arcs_report_sample` (a rich, hostile report
     built in runner/report/sample.cc), every reports/*.json in the source tree (the committed
     reference report; none present is fine), and any REPORT.json given;
  3. has `arcs_report_sample DIR` write every rendering of the sample and checks them
     independently of the C++ tests: the JUnit XML and each SVG badge parse as XML, and the HTML
     page's Content-Security-Policy names the SHA-256 of its one inline <style> and <script>.
     What the page's script does (its filters, the address, the details a cell leads to) is
     checked in a real browser by runner/report/testing/browser_test.mjs (ctest report_browser).

Exit status 0 when every check passed, 1 otherwise. The last line is
"check_report: N passed, M failed".
"""

import argparse
import base64
import copy
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import jsonschema

SCHEMA = "schemas/report/report.schema.json"
REPORT_VERSION = 3
OUTCOME_KEYS = {
    "passed": "passed",
    "failed": "failed",
    "errored": "errored",
    "skipped": "skipped",
    "known_failure": "known_failures",
}


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: " + what)
        return ok


def load_strict(text):
    """json.loads that refuses repeated member names and NaN/Infinity."""

    def pairs(items):
        names = [name for name, _ in items]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError("repeated member name(s): " + ", ".join(repeated))
        return dict(items)

    def constant(name):
        raise ValueError("not JSON: " + name)

    return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)


EVIDENCED = ("failed", "errored", "known_failure")


def tally(cases):
    counts = {key: 0 for key in OUTCOME_KEYS.values()}
    for case in cases:
        counts[OUTCOME_KEYS[case["outcome"]]] += 1
    counts["total"] = len(cases)
    return counts


def answered(case):
    """The implementation answered: report::Answered."""
    return (case["outcome"] in ("passed", "failed")
            or (case["outcome"] == "known_failure" and not case["error_kind"]))


def derived_flags(cases):
    """A format's flags as its cases give them: report::SummarizeReadings."""
    flags = {}
    for case in cases:
        # Acceptable cases, and those whose output a flag's readings split (MCP replay).
        if not case["flag"]:
            continue
        flag = flags.setdefault(case["flag"], {"cases": 0, "taken": {}})
        if not answered(case):
            continue
        flag["cases"] += 1
        for reading in set(case["readings"]):
            flag["taken"][reading] = flag["taken"].get(reading, 0) + 1
    result = []
    for name in sorted(flags, key=lambda n: n.encode("utf-8")):
        cases, taken = flags[name]["cases"], flags[name]["taken"]
        readings = sorted((r for r, n in taken.items() if n == cases), key=lambda r: r.encode("utf-8"))
        result.append({"flag": name, "cases": cases, "readings": readings,
                       "consistent": bool(readings) or cases == 0, "taken": taken})
    return result


def derived_strict(cases):
    counts = {"passed": 0, "failed": 0, "not_judged": 0}
    for case in cases:
        counts[case["strict"] or "not_judged"] += 1
    return counts


def consistency_errors(report):
    """What the schema cannot say about a report, as a list of messages."""
    errors = []

    def counts_match(counts, cases, where):
        if counts["total"] != sum(counts[k] for k in OUTCOME_KEYS.values()):
            errors.append(where + ": total is not the sum of the five counts")
        if counts != tally(cases):
            errors.append("%s: counts %s, the cases tally %s" % (where, counts, tally(cases)))

    cited = [(r["format"], r["id"]) for r in report["requirements"]]
    if cited != sorted(set(cited), key=lambda k: (k[0].encode("utf-8"), k[1].encode("utf-8"))):
        errors.append("/requirements: not sorted by (format, id) and unique")
    cited = set(cited)
    for i, impl in enumerate(report["implementations"]):
        where = "/implementations/%d" % i
        cases = impl["cases"]
        keys = [(c["format"], c["id"], c["operation"]) for c in cases]
        if keys != sorted(keys):
            errors.append(where + "/cases: not sorted by (format, id, operation)")
        if len(set(keys)) != len(keys):
            errors.append(where + "/cases: a (format, id, operation) appears twice")
        counts_match(impl["summary"], cases, where + "/summary")
        for j, case in enumerate(cases):
            cwhere = "%s/cases/%d" % (where, j)
            readings = case["readings"]
            if readings != sorted(set(readings), key=lambda r: r.encode("utf-8")):
                errors.append(cwhere + "/readings: not sorted and unique")
            if readings and not answered(case):
                errors.append(cwhere + "/readings: a case not answered fits no reading")
            if case["strict"] and not answered(case):
                errors.append(cwhere + "/strict: a case not answered is not judged")
            if bool(case["mismatch"]) != (case["outcome"] == "failed" or (
                    case["outcome"] == "known_failure" and not case["error_kind"])):
                errors.append(cwhere + "/mismatch: given exactly for answered failures")
            if (case["evidence"] is not None) != (case["outcome"] in EVIDENCED):
                errors.append(cwhere + "/evidence: kept exactly for failed, errored and "
                              "known-failure cases")
            for r in case["requirements"]:
                if (case["format"], r) not in cited:
                    errors.append(cwhere + "/requirements: %s is not in /requirements" % r)
        for j, fmt in enumerate(impl["formats"]):
            fwhere = "%s/formats/%d" % (where, j)
            fcases = [c for c in cases if c["format"] == fmt["format"]]
            counts_match(fmt["counts"], fcases, fwhere + "/counts")
            for k, op in enumerate(fmt["operations"]):
                owhere = "%s/operations/%d" % (fwhere, k)
                ocases = [c for c in fcases if c["operation"] == op["operation"]]
                counts_match(op["counts"], ocases, owhere + "/counts")
                levels = sorted({c["level"] for c in ocases})
                if sorted(op["by_level"]) != levels:
                    errors.append("%s/by_level: levels %s, the cases have %s"
                                  % (owhere, sorted(op["by_level"]), levels))
                for level, counts in op["by_level"].items():
                    counts_match(counts, [c for c in ocases if c["level"] == level],
                                 "%s/by_level/%s" % (owhere, level))
            flags = derived_flags(fcases)
            if fmt["flags"] != flags:
                errors.append("%s/flags: %s, the cases give %s" % (fwhere, fmt["flags"], flags))
            if fmt["strict"] != derived_strict(fcases):
                errors.append("%s/strict: %s, the cases give %s"
                              % (fwhere, fmt["strict"], derived_strict(fcases)))
            must = [c["outcome"] for c in fcases if c["level"] == "MUST"]
            if fmt["certification"] == "full" and any(o != "passed" for o in must):
                errors.append(fwhere + ": full, but a MUST case did not pass")
            if fmt["certification"] == "none" and "passed" in must:
                errors.append(fwhere + ": none, but a MUST case passed")
    return errors


def check_report(checker, validator, text, name):
    try:
        report = load_strict(text)
    except ValueError as error:
        checker.check(False, "%s: not strict JSON: %s" % (name, error))
        return None
    version = report.get("report_version") if isinstance(report, dict) else None
    if not checker.check(version == REPORT_VERSION,
                         "%s: report_version %r, this schema is version %d (regenerate the "
                         "report: make run)" % (name, version, REPORT_VERSION)):
        return None
    problems = ["%s: %s" % ("/" + "/".join(str(p) for p in e.absolute_path), e.message)
                for e in validator.iter_errors(report)]
    if not checker.check(not problems, "%s: schema: %s" % (name, "; ".join(problems[:5]))):
        return None
    errors = consistency_errors(report)
    checker.check(not errors, "%s: %s" % (name, "; ".join(errors[:5])))
    return report


def check_rejections(checker, validator, sample):
    """The schema must refuse these breakages of a valid report."""

    def broken(description, change):
        report = copy.deepcopy(sample)
        change(report)
        checker.check(not validator.is_valid(report), "schema accepts " + description)

    first_case = lambda r: r["implementations"][0]["cases"][0]
    failing = lambda r: next(c for i in r["implementations"] for c in i["cases"]
                             if c["outcome"] == "failed")
    broken("an unknown top-level member", lambda r: r.update(extra=1))
    broken("an unknown case member", lambda r: first_case(r).update(extra=1))
    broken("a missing case member", lambda r: first_case(r).pop("rules"))
    broken("a negative count", lambda r: r["implementations"][0]["summary"].update(passed=-1))
    broken("a fractional count", lambda r: r["implementations"][0]["summary"].update(passed=1.5))
    broken("an unknown outcome", lambda r: first_case(r).update(outcome="won"))
    broken("an unknown level", lambda r: first_case(r).update(level="MUSTN'T"))
    broken("a failure without expected", lambda r: failing(r).update(expected=""))
    broken("an errored case without error_kind",
           lambda r: first_case(r).update(outcome="errored", error_kind="",
                                          expected="x", actual="y"))
    broken("a passed case with an error_kind",
           lambda r: first_case(r).update(outcome="passed", error_kind="crash"))
    broken("another report_version", lambda r: r.update(report_version=1))
    broken("a full certification with something missing",
           lambda r: r["implementations"][0]["formats"][0].update(certification="full",
                                                                 missing=["x"]))
    broken("a by_level key that is not a level",
           lambda r: r["implementations"][0]["formats"][0]["operations"][0]["by_level"]
           .update(must=r["implementations"][0]["summary"]))
    acceptable = lambda r: next(c for i in r["implementations"] for c in i["cases"]
                                if c["ground"] == "acceptable" and c["readings"])
    resource = lambda r: next(c for i in r["implementations"] for c in i["cases"]
                              if c["ground"] == "resource")
    broken("an unknown ground", lambda r: first_case(r).update(ground="normative"))
    broken("an unknown strict value", lambda r: first_case(r).update(strict="yes"))
    broken("a missing strict", lambda r: first_case(r).pop("strict"))
    broken("an acceptable case without a flag", lambda r: acceptable(r).update(flag=""))
    broken("a required case with a flag", lambda r: first_case(r).update(ground="required",
                                                                         flag="SP-E1"))
    broken("readings of a policy case",
           lambda r: acceptable(r).update(ground="policy", flag="", policy="p=q"))
    broken("a policy case without a policy", lambda r: first_case(r).update(ground="policy",
                                                                           policy=""))
    broken("a policy without a name", lambda r: first_case(r).update(ground="policy",
                                                                    policy="=skip"))
    broken("a required case with a policy", lambda r: first_case(r).update(ground="required",
                                                                          policy="p=q"))
    broken("a repeated reading", lambda r: acceptable(r).update(readings=["a", "a"]))
    broken("a peak memory of a case that is not a resource case",
           lambda r: first_case(r).update(peak_rss_bytes=1))
    broken("a negative peak memory", lambda r: resource(r).update(peak_rss_bytes=-1))
    broken("a negative time", lambda r: first_case(r).update(seconds=-1))
    evidenced = lambda r: next(c for i in r["implementations"] for c in i["cases"]
                               if c["evidence"] is not None)
    broken("evidence without its inputs", lambda r: evidenced(r)["evidence"].pop("inputs"))
    broken("hex evidence that is not hex", lambda r: evidenced(r)["evidence"]["inputs"].append(
        {"name": "x", "size": 1, "encoding": "hex", "content": "zz", "truncated": False}))
    broken("evidence in another encoding", lambda r: evidenced(r)["evidence"]["inputs"].append(
        {"name": "x", "size": 1, "encoding": "base64", "content": "", "truncated": False}))
    broken("a requirement without its text", lambda r: r["requirements"][0].pop("text"))
    broken("a resource case judged against the strict profile",
           lambda r: resource(r).update(strict="passed"))
    broken("an errored case with a reading",
           lambda r: acceptable(r).update(outcome="errored", error_kind="crash", expected="x",
                                          actual="y"))
    broken("a format without flags", lambda r: r["implementations"][0]["formats"][0].pop("flags"))
    broken("an unknown strict count",
           lambda r: r["implementations"][0]["formats"][0]["strict"].update(judged=1))
    broken("a flag summary without taken",
           lambda r: r["implementations"][0]["formats"][0]["flags"][0].pop("taken"))
    broken("a reading taken by no case",
           lambda r: r["implementations"][0]["formats"][0]["flags"][0]["taken"].update(x=0))


def check_derivations(checker, sample):
    """consistency_errors must refuse a report whose flags or strict counts do not follow from
    its cases, and readings that break the case rules."""

    def refused(description, change):
        report = copy.deepcopy(sample)
        change(report)
        checker.check(consistency_errors(report), "consistency checks accept " + description)

    spool = lambda r: r["implementations"][0]["formats"][0]
    case = lambda r, n: r["implementations"][0]["cases"][n]
    acceptable = lambda r: next(c for c in r["implementations"][0]["cases"]
                                if c["ground"] == "acceptable" and len(c["readings"]) > 1)
    unanswered = lambda r: next(c for i in r["implementations"] for c in i["cases"]
                                if c["outcome"] == "errored")
    checker.check(not consistency_errors(sample), "the sample is not consistent")
    refused("a flag counted once more", lambda r: spool(r)["flags"][0].update(
        cases=spool(r)["flags"][0]["cases"] + 1))
    refused("a consistent flag said to be inconsistent",
            lambda r: spool(r)["flags"][0].update(consistent=False))
    refused("a reading said to fit every case when it does not",
            lambda r: spool(r)["flags"][0]["readings"].append("zz"))
    refused("a flag no case names", lambda r: spool(r)["flags"].append(
        {"flag": "SP-E99", "cases": 0, "readings": [], "consistent": True, "taken": {}}))
    refused("flags out of order", lambda r: spool(r)["flags"].reverse())
    refused("a strict count off by one", lambda r: spool(r)["strict"].update(
        passed=spool(r)["strict"]["passed"] + 1))
    refused("a case's strict value changed under its count",
            lambda r: case(r, 0).update(strict="failed"))
    refused("unsorted readings", lambda r: acceptable(r)["readings"].reverse())
    refused("a case not answered that fits a reading",
            lambda r: unanswered(r).update(ground="acceptable", flag="SP-E1", readings=["a"]))
    refused("a case not answered that is judged", lambda r: unanswered(r).update(strict="passed"))
    refused("a failure without its evidence", lambda r: unanswered(r).update(evidence=None))
    refused("a requirement cited but not listed", lambda r: r["requirements"].pop(0))
    refused("requirements out of order", lambda r: r["requirements"].reverse())


def check_renderings(checker, sample_exe):
    with tempfile.TemporaryDirectory() as out:
        result = subprocess.run([sample_exe, out], capture_output=True)
        if not checker.check(result.returncode == 0, "arcs_report_sample DIR failed: %r"
                             % result.stderr[-500:]):
            return
        for path in [os.path.join(out, "sample.junit.xml")] + sorted(
                glob.glob(os.path.join(out, "badges", "*.svg"))):
            try:
                ElementTree.parse(path)
                checker.check(True, path)
            except ElementTree.ParseError as error:
                checker.check(False, "%s: not well-formed XML: %s" % (os.path.basename(path), error))
        checker.check(len(glob.glob(os.path.join(out, "badges", "*.svg"))) == 3,
                      "expected 3 badges of the sample")
        with open(os.path.join(out, "sample.html"), encoding="utf-8") as f:
            html = f.read()
        policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
        blocks = {tag: re.findall(r"<%s>(.*?)</%s>" % (tag, tag), html, re.S)
                  for tag in ("style", "script")}
        if not checker.check(policy and all(len(b) == 1 for b in blocks.values()),
                             "sample.html: one CSP meta tag, one <style>, one <script>"):
            return
        for tag, (content,) in blocks.items():
            digest = base64.b64encode(hashlib.sha256(content.encode("utf-8")).digest()).decode()
            checker.check("%s-src 'sha256-%s'" % (tag, digest) in policy.group(1),
                          "sample.html: the CSP does not allow the <%s> by its hash" % tag)
        checker.check(policy.group(1).startswith("default-src 'none';"),
                      "sample.html: CSP does not start with default-src 'none'")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", help="the arcs_report_sample executable")
    parser.add_argument("reports", nargs="*", help="more reports to check")
    args = parser.parse_args()

    checker = Checker()
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    if args.sample:
        result = subprocess.run([args.sample], capture_output=True)
        if checker.check(result.returncode == 0, "arcs_report_sample failed"):
            sample = check_report(checker, validator, result.stdout.decode("utf-8"), "sample")
            if sample is not None:
                check_rejections(checker, validator, sample)
                check_derivations(checker, sample)
        check_renderings(checker, args.sample)

    committed = sorted(glob.glob("reports/*.json"))
    print("committed reports: " + (", ".join(committed) if committed else "none"))
    for path in committed + args.reports:
        with open(path, "rb") as f:
            data = f.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            checker.check(False, "%s: not UTF-8: %s" % (path, error))
            continue
        check_report(checker, validator, text, path)

    print("check_report: %d passed, %d failed" % (checker.passed, checker.failed))
    return 0 if checker.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
