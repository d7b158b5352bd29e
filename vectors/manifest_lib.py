"""What every format's generator shares when it writes vectors/<folder>/manifest.json (version 3,
vectors/README.md): the manifest's head, its quotations stated once in the top-level "quotes"
table and cited by id from each operation's "cites", its bytes, and the check that each quotation
is in the spec. Python generators import it; generate.mjs runs it as a filter:

    node ... | python3 vectors/manifest_lib.py cite <format folder>   # manifest bytes on stdout

A generator may build its operations with "spec_text" (the quotation(s) then the errata entries,
joined with "; ", as vectors/README.md describes them); cite() turns those into "cites". The
loader (conformance/vectors.cc) turns "cites" back into exactly that text."""

import json
import os
import re
import sys

MANIFEST_VERSION = 3
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SPECS = os.path.normpath(os.path.join(ROOT, "..", "shared", "specs"))

# An errata entry's id ("SP-E14"): cited as "errata SP-E14", consecutive ones as one citation,
# "errata SP-E14, SP-E32". A quote id never has this form.
ERRATA_ID = re.compile(r"[A-Z]+-E[0-9]+")
_ERRATA_CITATION = re.compile(r"errata ([A-Z]+-E[0-9]+(?:, [A-Z]+-E[0-9]+)*)")
# A citation starts with its source: a section of the spec, an RFC's, another standard's, or the
# errata. "; " before one of these separates two citations (a quotation may hold "; " itself).
_NEXT_CITATION = re.compile(r"; (?=§|RFC |errata |JSON-RPC|NDJSON)")


def head(format_name, folder, spec, spec_version):
    """The members every manifest starts with."""
    return {"manifest_version": MANIFEST_VERSION, "format": format_name, "spec": spec,
            "spec_version": spec_version, "catalogue": f"conformance/{folder}/requirements.json",
            "errata": f"conformance/{folder}/errata.md"}


def spec_text(cites, quotes):
    """The text an operation's "cites" stands for: each quotation, each run of errata ids as one
    "errata A, B", joined with "; "."""
    parts, errata = [], []
    for cite in cites:
        if ERRATA_ID.fullmatch(cite):
            errata.append(cite)
            continue
        if errata:
            parts.append("errata " + ", ".join(errata))
            errata = []
        parts.append(quotes[cite])
    if errata:
        parts.append("errata " + ", ".join(errata))
    return "; ".join(parts)


def split_spec_text(text):
    """spec_text's citations: [("quote", text) | ("errata", id)], in order."""
    items = []
    for part in _NEXT_CITATION.split(text):
        m = _ERRATA_CITATION.fullmatch(part)
        if m:
            items += [("errata", e) for e in m.group(1).split(", ")]
        else:
            items.append(("quote", part))
    return items


def _words(text):
    return " ".join(re.sub(r'[`*"\\|]', " ", text).lower().split())


def _stated_requirement(quote, cited_by, requirements):
    """The catalogue requirement the quotation states: one whose text holds a passage of the
    quotation (or is held in it), preferring those every citing operation lists; else the one
    requirement of the quotation's numbered section that every citing operation lists; None."""
    body = _words(quote.split(": ", 1)[-1])
    passages = [p.strip() for p in body.split("...") if len(p.strip()) > 8]
    # Where spec and catalogue both number sections, only a requirement of the quoted section.
    section = re.match(r"§([0-9][0-9.]*)\b", quote)
    requirements = [r for r in requirements if not section or not r["section"][:1].isdigit()
                    or r["section"] == section.group(1)]
    found = [r["id"] for r in requirements
             if any(p in _words(r["text"]) for p in passages)
             or (_words(r["text"]) and _words(r["text"]) in body)]
    preferred = [i for i in found if i in cited_by] or found
    if preferred:
        return preferred[0]
    listed = [r["id"] for r in requirements
              if section and r["section"] == section.group(1) and r["id"] in cited_by]
    return listed[0] if len(listed) == 1 else None


def _slug(quote):
    """A readable id for a quotation that states no requirement: its source and first words
    ("6.1:recorded-at-iso8601-wall")."""
    source, quoted, body = quote.partition(': "')
    if not quoted:  # no quotation: a note (its first words)
        return "-".join(re.findall(r"[a-z0-9]+", quote.lower())[:5])
    words = re.findall(r"[a-z0-9]+", body.lower())[:4]
    return re.sub(r"[^a-z0-9.]+", "-", source.lower()).strip("-") + ":" + "-".join(words)


def quote_ids(uses, requirements):
    """{quotation: id}: the requirement id it states where there is one, else its slug; "~2",
    "~3" for a second quotation of the same id. uses: {quotation: the ids every citing operation
    lists}, in the order of first citation."""
    ids, taken = {}, set()
    for quote, cited_by in uses.items():
        base = _stated_requirement(quote, cited_by, requirements) or _slug(quote)
        qid, n = base, 2
        while qid in taken:
            qid, n = f"{base}~{n}", n + 1
        taken.add(qid)
        ids[quote] = qid
    return ids


def cite(manifest, requirements):
    """The manifest with each operation's "spec_text" replaced, in place in its member order, by
    "cites", and the "quotes" table before "cases". Raises ValueError when a text does not come
    back as it was (the loader must see the same string)."""
    uses = {}
    for c in manifest["cases"]:
        for op in c["operations"].values():
            for kind, value in split_spec_text(op["spec_text"]):
                if kind == "quote":
                    uses[value] = uses.get(value, set(op["requirements"])) & set(op["requirements"])
    ids = quote_ids(uses, requirements)
    quotes = {qid: quote for quote, qid in sorted(ids.items(), key=lambda item: item[1])}
    cases = []
    for c in manifest["cases"]:
        ops = {}
        for name, op in c["operations"].items():
            cites = [ids[v] if kind == "quote" else v for kind, v in split_spec_text(op["spec_text"])]
            if spec_text(cites, quotes) != op["spec_text"]:
                raise ValueError(f"{c['id']}/{name}: spec_text does not split into citations")
            ops[name] = {("cites" if k == "spec_text" else k): (cites if k == "spec_text" else v)
                         for k, v in op.items()}
        cases.append(dict(c, operations=ops))
    out = {"manifest_version": MANIFEST_VERSION}
    out.update((k, v) for k, v in manifest.items() if k not in ("manifest_version", "cases"))
    out["quotes"] = quotes
    out["cases"] = cases
    return out


def _lines(value, indent):
    """json.dumps(indent=2)'s layout, but an array of strings and numbers on one line."""
    pad = " " * (indent + 2)
    if isinstance(value, dict) and value:
        members = [pad + json.dumps(k, ensure_ascii=False) + ": " + _lines(v, indent + 2)
                   for k, v in value.items()]
        return "{\n" + ",\n".join(members) + "\n" + " " * indent + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(pad + _lines(v, indent + 2) for v in value) + "\n" + " " * indent + "]"
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# A case table's building blocks (vectors/spool/cases_table.py): an operation, its expectation on
# each of the three grounds, the ARCS checker's rule findings.

def operation(requirements, cites, expect, rules=None):
    op = {"requirements": requirements, "cites": cites, "expect": expect}
    if rules is not None:
        op["rules"] = rules
    return op


def policy(name, **outcomes):
    return {"policy": name, "outcomes": outcomes}


def flag(entry, arcs, readings):
    return {"flag": entry, "readings": readings, "arcs": arcs}


def findings(errors=(), warnings=()):
    return {"errors": list(errors), "warnings": list(warnings)}


NO_FINDINGS = findings()


def dumps(manifest):
    """The manifest's bytes: 2-space indentation, one member per line, an array of strings or
    numbers on one line, UTF-8 as is."""
    return (_lines(manifest, 0) + "\n").encode("utf-8")


def load_requirements(folder):
    with open(os.path.join(ROOT, "conformance", folder, "requirements.json"), encoding="utf-8") as f:
        return json.load(f)["requirements"]


# The specs already reported missing: a generator that cannot check its quotations says so once.
_MISSING_SPECS = set()


def read_spec(name):
    """The text of a spec (../shared/specs/NAME from the repository root) with runs of whitespace
    as one space; None, with a warning on stderr (once per spec and run), when it is not found: a
    clone without the shared folder beside it would otherwise skip the quotation check silently."""
    try:
        with open(os.path.join(SPECS, name), encoding="utf-8") as f:
            return " ".join(f.read().split())
    except OSError:
        if name not in _MISSING_SPECS:
            _MISSING_SPECS.add(name)
            print(f"manifest_lib: ../shared/specs/{name} not found: quotations not checked against "
                  "the spec", file=sys.stderr)
        return None


def quotes_not_in(spec, quotes, other_standards=None):
    """The quotations that, omissions ("...") apart, are not in their source: those of the spec
    itself (a § section) in `spec` (read_spec's text), and, when `other_standards` is given (text
    that holds the passages of other standards a format's catalogue quotes), those of RFC 8259,
    NDJSON and JSON-RPC 2.0 in it. Whitespace runs are read as one space."""
    missing = []
    for qid, quote in sorted(quotes.items()):
        for m in re.finditer(r'(?:^|; )(§[^:"]+|RFC 8259 §[0-9.]+|NDJSON §[0-9.]+|'
                             r'JSON-RPC 2\.0 §[0-9.]+): "(.*?)"(?=; |$)', quote):
            haystack = spec if m.group(1).startswith("§") else other_standards
            if haystack is None:
                continue
            for part in m.group(2).replace('\\"', '"').split("..."):
                part = " ".join(part.split()).strip(" ,")
                if part and part not in haystack:
                    missing.append(f"{qid}: {m.group(1)}: {part}")
    return missing


def main(argv):
    """cite: the manifest on stdin written with its quotations stated once; the quotations not in
    the spec (when it is found) on stderr, and exit status 1 for them."""
    if len(argv) != 3 or argv[1] != "cite":
        print("usage: manifest_lib.py cite <format folder>  (manifest JSON on stdin)", file=sys.stderr)
        return 2
    manifest = cite(json.loads(sys.stdin.buffer.read().decode("utf-8")), load_requirements(argv[2]))
    sys.stdout.buffer.write(dumps(manifest))
    spec = read_spec(manifest["spec"])
    missing = quotes_not_in(spec, manifest["quotes"]) if spec is not None else []
    for q in missing:
        print(f"not in {manifest['spec']}: {q}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
