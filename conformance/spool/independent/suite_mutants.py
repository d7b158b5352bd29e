#!/usr/bin/env python3
"""Mutants the suite's triage added after the clean-room implementation was frozen.

The frozen code (spool_cr.py, adapter.py) keeps its own ARCS_MUTANT switch. A bug the suite must
catch but that the author did not seed is played here instead, by wrapping the frozen adapter, so
that the frozen files stay as they were. Usage:

    SUITE_MUTANT=<name> python3 conformance/spool/independent/suite_mutants.py

Unset, it is the frozen adapter. Each mutant is a one-line bug with the sentence it breaks:

    writer-copies-crlf   the writer keeps the input's CRLF endings
                         §3.5 "Writers SHOULD use Unix-style line endings (`\\n`, U+000A)."
    splits-lone-cr       lines are split at a lone CR too, as Python's str.splitlines splits them
                         §3.5 names two line endings, `\\n` and `\\r\\n`; RFC 8259 §2 "Insignificant
                         whitespace is allowed before or after any of the six structural
                         characters."
"""

import importlib.util
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("adapter", os.path.join(_HERE, "adapter.py"))
adapter = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(adapter)

MUTANT = os.environ.get("SUITE_MUTANT", "")
_roundtrip = adapter.spool_cr.roundtrip


def _copies_crlf(data, *args, **kwargs):
    r, out = _roundtrip(data, *args, **kwargs)
    if r.accepted and b"\r\n" in data:
        out = out.replace(b"\n", b"\r\n")
    return r, out


_validate = adapter.spool_cr.validate


def _lone_cr_as_lf(data):
    return re.sub(rb"\r(?!\n)", b"\n", data)


MUTANTS = {
    "writer-copies-crlf": {"roundtrip": _copies_crlf},
    "splits-lone-cr": {
        "validate": lambda data, *a, **k: _validate(_lone_cr_as_lf(data), *a, **k),
        "roundtrip": lambda data, *a, **k: _roundtrip(_lone_cr_as_lf(data), *a, **k),
    },
}

if __name__ == "__main__":
    if MUTANT:
        if MUTANT not in MUTANTS:
            sys.exit("suite_mutants.py: unknown SUITE_MUTANT %r (known: %s)"
                     % (MUTANT, ", ".join(sorted(MUTANTS))))
        for name, function in MUTANTS[MUTANT].items():
            setattr(adapter.spool_cr, name, function)
    adapter.threading.stack_size(256 * 1024 * 1024)
    t = adapter.threading.Thread(target=adapter.main, name="adapter")
    t.start()
    t.join()
    sys.stdout.flush()
    os._exit(0)
