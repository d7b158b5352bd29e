#!/usr/bin/python3
"""Writes the MCP record/replay test vectors (TJ-SPEC-010): every input under cases/ and
manifest.json.

    python3 vectors/mcp_record_replay/generate.py           (re)write cases/ and manifest.json
    python3 vectors/mcp_record_replay/generate.py --check   exit 1 if a file on disk differs
    python3 vectors/mcp_record_replay/generate.py --flags   print the cases of each errata flag

The cases come from three modules of this folder, each exporting CASES (manifest-shaped cases,
plus "files": {path relative to this folder: bytes} for the inputs they add):

  - validate_cases.py: the VALIDATE operation of every case that has one; its expectations are
    written by hand and checked against an independent model of the rules (see its docstring);
  - replay_cases.py, convert_cases.py (when they exist): the REPLAY and CONVERT operations.

A case id defined by several modules is ONE case: its inputs are the union (one input name, one
path; one path, the same bytes) and so are its operations (each operation defined once). Where
another module gives a shared case's recording other bytes than validate_cases.py's, those bytes
are used (with that module's description of the case) and the validate expectation is recomputed
on them by the model; the hand-written expectation must still hold (the case is listed as
"adopted").

After the merge, the readings marked † in the errata's "Flags at a glance" are split by MRR-E11
into `<reading>-parse-only` and `<reading>-valid-only` in every case of a flag one of whose cases
carries REPLAY or CONVERT, in every operation (vectors/README.md: every case of a flag lists the
same reading names, in all its operations); VALIDATE gives both halves the same verdict.

Checks run on every invocation (and fail --check): quotations (§ quotes in
../shared/specs/mcp-record-replay.md when found; RFC 8259, NDJSON and JSON-RPC quotes in the
catalogue's text), flagged case names in their entry's Vectors line, the manifest's
validate operations against schemas/vectors/manifest.schema.json, the committed
schemas/mcp_record_replay/recording.schema.json against the spec's §9 block. What the loader
checks (conformance/vectors.cc: sets sorted, cites, errata entries, inputs) and the catalogue test
(cited ids in the catalogue) is left to them: their tests run every committed manifest.
"""

import importlib.util
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # vectors/: generated_files
import generated_files  # noqa: E402
import manifest_lib  # noqa: E402
import validate_cases as vc  # noqa: E402

CATALOGUE = os.path.join(ROOT, "conformance", "mcp_record_replay", "requirements.json")
ERRATA = os.path.join(ROOT, "conformance", "mcp_record_replay", "errata.md")
MANIFEST = os.path.join(HERE, "manifest.json")
CASES_DIR = os.path.join(HERE, "cases")
MANIFEST_SCHEMA = os.path.join(ROOT, "schemas", "vectors", "manifest.schema.json")
SIBLINGS = ["replay_cases", "convert_cases"]
HEAD = manifest_lib.head("mcp-record-replay", "mcp_record_replay", "mcp-record-replay.md", "1.0")
SPLIT_SUFFIXES = ("parse-only", "valid-only")


def load_siblings():
    """{module name: CASES} of the sibling modules that exist."""
    out = {}
    for name in SIBLINGS:
        path = os.path.join(HERE, name + ".py")
        if not os.path.isfile(path):
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out[name] = list(getattr(module, "CASES"))
    return out


def merge(groups, problems):
    """One list of cases from several modules' lists ((module, cases) in order)."""
    merged, order = {}, []
    for module, cases in groups:
        for c in cases:
            cid = c.get("id")
            if cid not in merged:
                merged[cid] = {"id": cid, "description": c.get("description", ""),
                               "inputs": {}, "operations": {}, "files": {}, "_from": [module]}
                order.append(cid)
            else:
                merged[cid]["_from"].append(module)
            m = merged[cid]
            if not m["description"]:
                m["description"] = c.get("description", "")
            for name, path in (c.get("inputs") or {}).items():
                if m["inputs"].get(name, path) != path:
                    problems.append(f"{cid}: input {name} is {m['inputs'][name]} in one module and "
                                    f"{path} in {module}")
                m["inputs"].setdefault(name, path)
            for path, data in (c.get("files") or {}).items():
                if path in m["files"] and m["files"][path] != data:
                    problems.append(f"{cid}: {path} holds other bytes in {module}")
                m["files"].setdefault(path, data)
            if c.get("args"):
                args = m.setdefault("args", {})
                for k, v in c["args"].items():
                    if k in args and args[k] != v:
                        problems.append(f"{cid}: args.{k} differs in {module}")
                    args.setdefault(k, v)
            for op, body in (c.get("operations") or {}).items():
                if op in m["operations"]:
                    problems.append(f"{cid}: operation {op} defined twice ({module})")
                    continue
                m["operations"][op] = body
    out = []
    for cid in order:
        m = merged[cid]
        inputs = dict(sorted(m["inputs"].items(), key=lambda kv: (kv[0] != "recording", kv[0])))
        case = {"id": cid, "description": m["description"], "inputs": inputs}
        if m.get("args"):
            case["args"] = m["args"]
        case["operations"] = m["operations"]
        out.append((case, m["files"], m["_from"]))
    return out


def split_daggers(cases, problems):
    """Splits the † readings (validate_cases.DAGGER) by MRR-E11 in every case of a flag one of
    whose cases carries an operation other than validate."""
    carriers = set()
    for c, _, _ in cases:
        for op, body in c["operations"].items():
            flag = body.get("expect", {}).get("flag")
            if flag and any(o != "validate" for o in c["operations"]):
                carriers.add(flag)
    for c, _, _ in cases:
        body = c["operations"].get("validate")
        if not body or "flag" not in body["expect"]:
            continue
        e = body["expect"]
        dagger = vc.DAGGER.get(e["flag"])
        if e["flag"] not in carriers or dagger is None or dagger not in e["readings"]:
            continue
        readings = {}
        for name, outcome in e["readings"].items():
            if name == dagger:
                for s in SPLIT_SUFFIXES:
                    readings[f"{name}-{s}"] = outcome
            else:
                readings[name] = outcome
        e["readings"] = readings
        if e["arcs"] == dagger:
            e["arcs"] = f"{dagger}-parse-only"
    return carriers


def errata_entries():
    with open(ERRATA, encoding="utf-8") as f:
        text = f.read()
    parts = re.split(r"^### ", text, flags=re.M)
    entries = {}
    for p in parts[1:]:
        m = re.match(r"(MRR-E[0-9]+)\b", p)
        if m:
            entries[m.group(1)] = p
    return entries


def named_in(entry, cid):
    """Whether an errata entry names a case: its full id, or a `-tail` shorthand of it in
    backticks."""
    name = cid[len(vc.PREFIX):]
    if f"`{cid}`" in entry:
        return True
    parts = name.split("-")
    return any(f"`-{'-'.join(parts[i:])}`" in entry for i in range(len(parts)))


def check_named(cases, problems):
    """Every flagged validate case is named in its flag's errata entry (its **Vectors**)."""
    entries = errata_entries()
    for c, _, _ in cases:
        flag = (c["operations"].get("validate") or {}).get("expect", {}).get("flag")
        if flag and flag in entries and not named_in(entries[flag], c["id"]):
            problems.append(f"{c['id']}/validate: the case is not named in {flag}'s entry")


def check_quotes(manifest, spec, problems):
    """Each quotation in mcp-record-replay.md, or, for another standard's, in the catalogue's
    texts (which quote RFC 8259, NDJSON and JSON-RPC 2.0 where they cite them)."""
    with open(CATALOGUE, encoding="utf-8") as f:
        texts = " ".join(" ".join(r["text"] for r in json.load(f)["requirements"]).split())
    flat = " ".join(spec.split()) if spec else None
    problems += ["not in its source: " + q
                 for q in manifest_lib.quotes_not_in(flat, manifest["quotes"], texts)]


def check_manifest_schema(manifest, problems, notes):
    try:
        import jsonschema
        with open(MANIFEST_SCHEMA, encoding="utf-8") as f:
            schema = json.load(f)
    except (ImportError, OSError, ValueError) as e:
        notes.append(f"manifest schema not checked: {e}")
        return
    validator = jsonschema.Draft202012Validator(schema)
    tally = {}
    for err in validator.iter_errors(manifest):
        path = list(err.absolute_path)
        op = path[3] if len(path) > 3 and path[2] == "operations" else None
        if op not in (None, "validate"):
            key = ("note", f"{op}: {re.sub(r'[0-9]+', 'N', err.message[:120])}")
        else:
            key = ("problem", f"{path[:4]}: {err.message[:200]}")
        tally[key] = tally.get(key, 0) + 1
    for (kind, what), n in sorted(tally.items()):
        (notes if kind == "note" else problems).append(f"manifest schema: {what} ({n}x)")


def build():
    problems, notes = [], []
    siblings = load_siblings()
    mine_ids = {vc.PREFIX + d["name"] for d in vc.DEFS}
    overrides = {}
    for module, cases in siblings.items():
        for c in cases:
            path = (c.get("inputs") or {}).get("recording")
            data = (c.get("files") or {}).get(path) if path else None
            if c.get("id") in mine_ids and data is not None:
                name = c["id"][len(vc.PREFIX):]
                if path != f"cases/{name}/recording.jsonl":
                    problems.append(f"{c['id']}: {module} names the recording {path}")
                elif data != vc.RECORDINGS[name]:
                    overrides[c["id"]] = data
    mine, found = vc.build_cases(overrides)
    problems += found
    for cid in sorted(overrides):
        notes.append(f"{cid}: the recording is the sibling module's (adopted, with its "
                     "description); the validate expectation was checked on those bytes")
    groups = [("validate_cases", mine)] + list(siblings.items())
    merged = merge(groups, problems)
    # An adopted recording is described by the module that wrote it.
    for case, _, _ in merged:
        if case["id"] in overrides:
            case["description"] = next(c.get("description") or case["description"]
                                       for cases in siblings.values() for c in cases
                                       if c.get("id") == case["id"])
    split_daggers(merged, problems)
    spec = vc.SPEC
    if spec is None:
        notes.append("mcp-record-replay.md not found: quotations not checked, the F-002 example "
                     "and the schema taken from the committed files")
    else:
        with open(vc.SCHEMA_COPY, "rb") as f:
            if f.read() != vc.SCHEMA_TEXT.encode("utf-8"):
                problems.append("schemas/mcp_record_replay/recording.schema.json is not byte for "
                                "byte the spec's §9 block")
    check_named(merged, problems)
    manifest = manifest_lib.cite(dict(HEAD, cases=[c for c, _, _ in merged]),
                                 manifest_lib.load_requirements("mcp_record_replay"))
    check_quotes(manifest, spec, problems)
    check_manifest_schema(manifest, problems, notes)
    files = {}
    for c, fs, _ in merged:
        for path, data in fs.items():
            full = os.path.normpath(os.path.join(HERE, path))
            if files.get(full, data) != data:
                problems.append(f"{path}: two cases give it different bytes")
            files[full] = data
        for name, path in c["inputs"].items():
            if os.path.normpath(os.path.join(HERE, path)) not in files and \
                    not os.path.isfile(os.path.join(HERE, path)):
                problems.append(f"{c['id']}: input {name} ({path}) is written by no module")
    size = sum(len(d) for d in files.values())
    if size > 5 << 20 or any(len(d) > 2 << 20 for d in files.values()):
        problems.append(f"cases/ holds {size} bytes (README: under 5 MiB, no file over 2 MiB)")
    return manifest, files, merged, problems, notes


def main(argv):
    check = "--check" in argv
    manifest, files, merged, problems, notes = build()
    if "--flags" in argv:
        flags = {}
        for c in manifest["cases"]:
            for op, body in c["operations"].items():
                f = body.get("expect", {}).get("flag")
                if f:
                    flags.setdefault(f, []).append(f"{c['id'][len(vc.PREFIX):]}/{op}")
        for f in sorted(flags, key=lambda e: int(e.split("E")[-1])):
            print(f, " ".join(flags[f]))
        return 0
    files[MANIFEST] = manifest_lib.dumps(manifest)
    differ = generated_files.sync(files, CASES_DIR, check, ROOT)
    for n in notes:
        print("note: " + n)
    for p in problems:
        print("problem: " + p)
    for d in differ:
        print("differs: " + d)
    ops = {}
    for c in manifest["cases"]:
        for op in c["operations"]:
            ops[op] = ops.get(op, 0) + 1
    print(f"mcp-record-replay vectors: {len(manifest['cases'])} cases "
          f"({', '.join(f'{k} {v}' for k, v in sorted(ops.items()))}) "
          f"{'checked' if check else 'written'}, {len(differ)} differ, {len(problems)} problems")
    return 1 if problems or differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
