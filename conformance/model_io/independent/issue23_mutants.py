#!/usr/bin/env python3
"""The adapter with a bug the frozen code has no ARCS_MUTANT switch for (issue #23).

    ARCS_EXTRA_MUTANT=<name> build/arcs run --impl 'python3 conformance/model_io/independent/issue23_mutants.py' ...

Each bug is one of the readings issue #23 found wider than the text, so that TRIAGE.md can show
the vector that now fails it. Added after freezing; model_io_cr.py and adapter.py are unchanged.

| name | bug | the text it breaks |
|---|---|---|
| `semver-leading-zeros` | MI1 accepts "01.0.0" (three runs of digits) | MI1 "follow semantic versioning" (SemVer 2.0.0 §2: no leading zeroes) |
| `i-integer-token` | MI5 refuses an `i` spelled with a fraction or an exponent (1.0, 1e0) | §3.3 "i: number;", MI5 "interactions[n].i === n" (1.0 === 1) |
"""

import importlib.util
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("model_io_adapter", os.path.join(_HERE, "adapter.py"))
adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adapter)
impl = adapter.impl

MUTANT = os.environ.get("ARCS_EXTRA_MUTANT", "")

if MUTANT == "semver-leading-zeros":
    impl._SEMVER_RE = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")
elif MUTANT == "i-integer-token":
    _SPELLED = re.compile(rb'"i"\s*:\s*-?[0-9]+(\.[0-9]+|[eE])')
    _validate = impl.validate

    def _integer_token_validate(data):
        ok, findings = _validate(data)
        if _SPELLED.search(data):
            findings = impl.sort_findings(
                findings + [impl.Finding("MI5", "/interactions", "i is not an integer token")])
            ok = False
        return ok, findings

    impl.validate = _integer_token_validate
elif MUTANT:
    sys.exit(f"unknown ARCS_EXTRA_MUTANT {MUTANT!r}")

if __name__ == "__main__":
    sys.exit(adapter.main() or 0)
