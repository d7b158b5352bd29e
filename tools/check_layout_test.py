#!/usr/bin/python3
"""Tests the include-layer rule of tools/check_layout.py on made-up paths: each layer may include
itself and what is below, never what is above, and a format's folders are private to it."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layout  # noqa: E402

FORMATS = {"spool", "lightbox"}


def problem(source, included):
    return check_layout.include_problem(source, included, FORMATS)


class IncludeLayers(unittest.TestCase):
    def test_downward_includes_pass(self):
        for source, included in [
                ("protocol/protocol.cc", "reference/core/json.h"),
                ("reference/spool/spool.cc", "reference/core/jsonl.h"),
                ("conformance/format.h", "protocol/protocol.h"),
                ("conformance/spool/checker.cc", "reference/spool/spool.h"),
                ("conformance/spool/checker.cc", "conformance/format.h"),
                ("conformance/registry.cc", "conformance/spool/module.h"),
                ("runner/run.cc", "conformance/registry.h"),
                ("runner/report/report.cc", "runner/judge.h"),
                ("fuzz/spool_fuzzer.cc", "conformance/spool/checker.h"),
                ("reference/spool/benchmark/spool_benchmark.cc", "conformance/spool/checker.h")]:
            self.assertIsNone(problem(source, included), (source, included))

    def test_upward_includes_fail(self):
        for source, included in [
                ("conformance/format.h", "runner/protocol/protocol.h"),
                ("conformance/spool/verbs.cc", "runner/version.h"),
                ("reference/core/json.cc", "protocol/protocol.h"),
                ("protocol/protocol.cc", "conformance/format.h"),
                ("reference/spool/spool.cc", "conformance/spool/checker.h"),
                ("runner/run.cc", "fuzz/spool_fuzzer.h")]:
            self.assertIsNotNone(problem(source, included), (source, included))

    def test_a_formats_folders_are_its_own(self):
        for source, included in [
                ("conformance/lightbox/checker.cc", "conformance/spool/module.h"),
                ("conformance/lightbox/checker.cc", "reference/spool/spool.h"),
                ("reference/lightbox/lightbox.cc", "reference/spool/spool.h"),
                ("conformance/vectors.cc", "conformance/spool/module.h"),
                ("runner/validate_command.cc", "conformance/spool/checker.h"),
                ("runner/run.cc", "reference/spool/spool.h")]:
            self.assertIsNotNone(problem(source, included), (source, included))


if __name__ == "__main__":
    unittest.main()
