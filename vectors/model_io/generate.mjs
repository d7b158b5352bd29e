#!/usr/bin/env node
// Writes the Model IO test vectors: every input under cases/ and manifest.json.
//
//     node vectors/model_io/generate.mjs                 (re)write cases/ and manifest.json
//     node vectors/model_io/generate.mjs --check         exit 1 if a file on disk differs
//     node vectors/model_io/generate.mjs --hash FILE     print Node's ModelIOHash of FILE
//     node vectors/model_io/generate.mjs --canonical FILE   print canonicalize(ModelIOCore), no newline
//     node vectors/model_io/generate.mjs --hashes        print "<case id> <ModelIOHash>" for every case
//                                                        whose hash is required (Node's computation)
//     node vectors/model_io/generate.mjs --flags         print the cases of each errata flag
//
// The inputs are built here, byte for byte, and every digest in them (prompt_hash, response_hash)
// is computed by node:crypto over the UTF-8 bytes of the string the case names, never by the code
// under test. The manifest is written from the case table below: each case's expectations, its
// ARCS rule sets and its quotations are written by hand next to the input they describe, and
// follow vectors/README.md and conformance/model_io/errata.md; vectors/manifest_lib.py (python3)
// writes the manifest's bytes, each quotation stated once.
//
// --hash and --canonical run the spec's own code (model-io.md §4.3-§4.5, written out literally in
// reference/model_io/testing/spec_code.mjs)
// with the npm RFC 8785 package `canonicalize` pinned in tools/node (installed by tools/setup.sh)
// and node:crypto: JSON.parse of the file's text (decoded as strict UTF-8, a BOM kept, so that
// JSON.parse refuses it), computeModelIOHash. They exit 1, with the reason on stderr, when the
// text is not JSON or the code throws. They are the Node oracle, not a source of expectations.
//
// Checks run on every invocation (and fail --check):
//   - every quotation `§x.y: "..."` is in ../shared/specs/model-io.md (runs of whitespace read as
//     one space, "..." marking omissions), when that file is found (vectors/manifest_lib.py);
//     cited ids and errata entries are the loader's and the catalogue test's to check
//     (conformance/vectors.cc, conformance/catalogue_test.cc);
//   - the ARCS outcome of each validate (the outcome, or the `arcs` reading's) is `invalid`
//     exactly when its rules.errors is non-empty, and same_hash_as names a case the reference
//     hashes (and is made by a case the reference hashes, or by an invalid session the spec's
//     code hashes: MIO-E4's as-coded reading);
//   - the hand-written rules.errors agree with a literal reading of the invariants and field
//     tables (arcsRules below, applied to JSON.parse's value) plus the JSON-level ids the case
//     declares. A disagreement means one of the two is wrong: re-read the spec;
//   - where the case says which outcome the spec's code has in JavaScript (JSON.parse, §4.3,
//     §4.4 with the npm package), running that code gives it, and two cases joined by
//     same_hash_as get the same hash from it (skipped, with a note, when the package is not
//     installed);
//   - inputs over 2 MiB are listed (the two 10,000-interaction cases are: 211 bytes is the
//     smallest interaction).

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  canonicalize, computeModelIOCore, computeModelIOHash, computeResponseHash,
} from '../../reference/model_io/testing/spec_code.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const CASES = path.join(HERE, 'cases');
const MANIFEST = path.join(HERE, 'manifest.json');
const SPEC = path.resolve(ROOT, '..', 'shared', 'specs', 'model-io.md');

// ------------------------------------------------------------------------------------------------
// The spec's code (model-io.md §4.3, §4.4, §4.5) is imported above from
// reference/model_io/testing/spec_code.mjs, as written there, with the npm RFC 8785 package as
// canonicalize() (NOTES.md; errata MIO-E2) and node:crypto as sha256() (§4.5).

// The session JSON.parse makes of a file: strict UTF-8, a leading BOM kept (JSON.parse refuses it).
function parseFile(bytes) {
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  return JSON.parse(text);
}

function packageAvailable() {
  try {
    canonicalize(null);
    return true;
  } catch (e) {
    return false;
  }
}

// ------------------------------------------------------------------------------------------------
// JSON text. Values are written by emit(): objects keep their insertion order, strings and numbers
// are written by JSON.stringify (which escapes only '"', '\\', U+0000-U+001F and lone surrogates),
// Raw is written verbatim (awkward spellings: 1.0, 1e400, escapes, raw bytes through Buffer), Dup
// is an object whose member names may repeat, DROP leaves a member out.

class Raw {
  constructor(text) { this.text = text; }
}
class Dup {
  constructor(...pairs) { this.pairs = pairs; }
}
const DROP = Symbol('drop');

function emit(v, indent = 2, level = 0) {
  const pad = n => (indent ? '\n' + ' '.repeat(indent * n) : '');
  const sep = indent ? ': ' : ':';
  if (v instanceof Raw) return v.text;
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('emit: use Raw for ' + v);
    return JSON.stringify(v);
  }
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[' + v.map(x => pad(level + 1) + emit(x, indent, level + 1)).join(',') + pad(level) + ']';
  }
  const pairs = (v instanceof Dup ? v.pairs : Object.entries(v)).filter(([, x]) => x !== DROP);
  if (pairs.length === 0) return '{}';
  return '{' + pairs.map(([k, x]) => pad(level + 1) + (k instanceof Raw ? k.text : JSON.stringify(k)) +
                         sep + emit(x, indent, level + 1)).join(',') + pad(level) + '}';
}

const text = (v, indent = 2) => Buffer.from(emit(v, indent) + '\n', 'utf8');

// ------------------------------------------------------------------------------------------------
// Sessions. The base session (every case differs from it in what it tests): schema version
// "1.0.0", adapter "adapter-1", model "test-model", mode "record", two interactions whose prompts
// are "prompt 0", "prompt 1" and responses "response 0", "response 1".

const hex = data => createHash('sha256').update(data).digest('hex');
const digest = data => 'sha256:' + hex(Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'));
const PH = n => digest(`prompt ${n}`);

function with_(base, over) {
  const out = { ...base };
  for (const [k, x] of Object.entries(over)) out[k] = x;
  for (const k of Object.keys(out)) if (out[k] === DROP) delete out[k];
  return out;
}

// Interaction n; `over` replaces or adds members. A new response_content gets its own
// response_hash unless `over` gives one.
function inter(n, over = {}) {
  const content = 'response_content' in over && typeof over.response_content === 'string'
    ? over.response_content : `response ${n}`;
  const base = { i: n, prompt_hash: PH(n), response_hash: digest(content), response_content: content };
  return with_(base, over);
}

function session(over = {}, interactions = [inter(0), inter(1)]) {
  const base = { model_io_schema_version: '1.0.0', adapter_id: 'adapter-1', model_id: 'test-model',
                 mode: 'record', interactions };
  return with_(base, over);
}

const EPHEMERAL_TOP = { created_at_utc: '2026-01-05T12:00:00Z', ended_at_utc: '2026-01-05T12:00:05Z' };
const STATS = { total_interactions: 2, total_tokens_input: 20, total_tokens_output: 30,
                total_latency_ms: 250 };
const METRICS = () => ({ tokens_input: 10, tokens_output: 15, latency_ms: 125 });

function full(over = {}) {
  return session(with_({ ...EPHEMERAL_TOP, stats: STATS }, over),
                 [inter(0, METRICS(0)), inter(1, METRICS(1))]);
}

// ------------------------------------------------------------------------------------------------
// Quotations, verbatim from model-io.md (checked against it), and from the RFCs.

const Q = {
  t_hash: '§2: "| **ModelIOHash** | `sha256(canonicalize(ModelIOCore))` |"',
  t_canon: '§2: "| **canonicalize()** | Deterministic JSON serialization per KERNEL_DETERMINISM.md |"',
  t_prompt: '§2: "| **prompt_hash** | SHA256 hash of the UTF-8 encoded prompt string |"',
  t_resp: '§2: "| **response_hash** | SHA256 hash of the UTF-8 encoded response content |"',
  row_version: '§3.1: "| `model_io_schema_version` | `string` | Schema version (e.g., "1.0.0") |"',
  row_adapter: '§3.1: "| `adapter_id` | `string` | Unique adapter instance identifier |"',
  row_model: '§3.1: "| `model_id` | `string` | Human-readable model identifier |"',
  row_mode: "§3.1: \"| `mode` | `'record' \\| 'replay'` | Recording or replay mode |\"",
  row_inter: '§3.1: "| `interactions` | `Interaction[]` | Ordered list of recorded interactions |"',
  row_created: '§3.2: "| `created_at_utc` | `string` | ISO 8601 UTC timestamp (ephemeral) |"',
  row_ended: '§3.2: "| `ended_at_utc` | `string` | ISO 8601 UTC timestamp (ephemeral) |"',
  row_stats: '§3.2: "| `stats` | `SessionStats` | Summary statistics (ephemeral) |"',
  i_iface: '§3.3: "interface Interaction {"',
  i_idx: '§3.3: "/** Sequence index (0-based, monotonically increasing) */"',
  i_i: '§3.3: "i: number;"',
  i_prompt_doc: '§3.3: "/** SHA256 hash of the prompt (format: sha256:hex64) */"',
  i_prompt: '§3.3: "prompt_hash: ContentHash;"',
  i_resp_doc: '§3.3: "/** SHA256 hash of the response content (format: sha256:hex64) */"',
  i_resp: '§3.3: "response_hash: ContentHash;"',
  i_content_doc: '§3.3: "/** Response content (UTF-8 string) */"',
  i_content: '§3.3: "response_content: string;"',
  i_tin: '§3.3: "tokens_input?: number;"',
  i_tout: '§3.3: "tokens_output?: number;"',
  i_lat: '§3.3: "latency_ms?: number;"',
  i_tin_doc: '§3.3: "/** Tokens consumed in request (optional, ephemeral) */"',
  i_lat_doc: '§3.3: "/** Latency in milliseconds (optional, ephemeral) */"',
  s_iface: '§3.4: "interface SessionStats {"',
  s_1: '§3.4: "total_interactions: number;"',
  s_2: '§3.4: "total_tokens_input: number;"',
  s_3: '§3.4: "total_tokens_output: number;"',
  s_4: '§3.4: "total_latency_ms: number;"',
  s_title: '§3.4: "### 3.4 SessionStats Structure (Optional, Ephemeral)"',
  m_record: '§3.5: "| `record` | Session was created by recording live model calls |"',
  m_replay: '§3.5: "| `replay` | Session is intended for deterministic replay |"',
  c_def: '§4.1: "`ModelIOCore` is the canonical subset of `ModelIOSession` used for content-addressing. It excludes ephemeral fields that vary between recordings."',
  c_incl: '§4.1: "**Included fields (in canonical order):**"',
  c_inter: '§4.1: "5. `interactions` (only core fields per interaction, sorted by `i`)"',
  c_excl: '§4.1: "**Excluded fields (ephemeral):**"',
  c_per: '§4.1: "- Per-interaction: `tokens_input`, `tokens_output`, `latency_ms`"',
  c_core: '§4.2: "interface InteractionCore {"',
  c_code: '§4.3: "function computeModelIOCore(session: ModelIOSession): ModelIOCore {"',
  c_sort: '§4.3: ".sort((a, b) => a.i - b.i),"',
  h_canon: '§4.4: "const canonical = canonicalize(core);"',
  h_ret: '§4.4: "return `sha256:${sha256(canonical)}`;"',
  r_must: '§4.5: "The `response_hash` for each interaction MUST be computed as:"',
  r_ret: '§4.5: "return `sha256:${sha256(response_content)}`;"',
  r_utf8: '§4.5: "Where `sha256()` operates on the UTF-8 encoded string and returns lowercase hexadecimal."',
  all: '§5: "All valid `model_io.json` artifacts MUST satisfy these invariants."',
  mi1a: '§5 (MI1): "model_io_schema_version is non-empty string"',
  mi1b: '§5 (MI1): "model_io_schema_version matches semver format (X.Y.Z)"',
  mi1: '§5 (MI1): "The schema version MUST be present and follow semantic versioning."',
  mi2a: '§5 (MI2): "adapter_id is non-empty string"',
  mi2b: '§5 (MI2): "model_id is non-empty string"',
  mi2: '§5 (MI2): "Both identifiers MUST be non-empty strings."',
  mi3a: "§5 (MI3): \"mode in ['record', 'replay']\"",
  mi3: '§5 (MI3): "The mode MUST be one of the recognized values."',
  mi4a: '§5 (MI4): "interactions is array"',
  mi4b: '§5 (MI4): "interactions.length >= 0"',
  mi4c: '§5 (MI4): "interactions.length <= 10000"',
  mi4: '§5 (MI4): "The interactions array MUST be present. Maximum 10,000 interactions per session."',
  mi5a: '§5 (MI5): "interactions[0].i === 0"',
  mi5b: '§5 (MI5): "interactions[n].i === n for all n"',
  mi5: '§5 (MI5): "Interaction indices MUST start at 0 and be contiguous (0, 1, 2, ...)."',
  mi6a: '§5 (MI6): "interaction.prompt_hash matches /^sha256:[a-f0-9]{64}$/"',
  mi6: '§5 (MI6): "All prompt hashes MUST be lowercase SHA256 hashes with `sha256:` prefix."',
  mi7a: '§5 (MI7): "interaction.response_hash matches /^sha256:[a-f0-9]{64}$/"',
  mi7b: '§5 (MI7): "interaction.response_hash === sha256(interaction.response_content)"',
  mi7: '§5 (MI7): "Response hashes MUST match the SHA256 of the response content."',
  mi8a: '§5 (MI8): "prompt_hashes are unique OR (prompt_hash, i) pairs are unique"',
  mi8: '§5 (MI8): "Note: Duplicate prompt hashes are allowed if they occur at different indices (same prompt asked multiple times). The (prompt_hash, i) pair MUST be unique."',
  mi9a: '§5 (MI9): "interactions are sorted by i ascending"',
  mi9: '§5 (MI9): "Interactions MUST be sorted by index in ascending order."',
  mi10a: '§5 (MI10): "violations are sorted by (rule_id ASC, path ASC, message ASC)"',
  mi10: '§5 (MI10): "Verifier violations MUST be deterministically sorted for reproducible output."',
  mi11a: '§5 (MI11): "interactions.length <= 10000"',
  mi11b: '§5 (MI11): "response_content.length <= 1_000_000 bytes per interaction"',
  mi11c: '§5 (MI11): "total response bytes <= 100_000_000 bytes per session"',
  mi12a: '§5 (MI12): "ModelIOCore excludes all timestamp fields"',
  mi12b: '§5 (MI12): "ModelIOCore excludes all metric fields (tokens, latency)"',
  mi12: '§5 (MI12): "The core representation used for hashing MUST NOT include any fields that could vary between identical logical recordings."',
  v_format: '§6.1: "`MAJOR.MINOR.PATCH` following semantic versioning:"',
  v_minor: '§6.1: "- **MINOR**: New optional fields or clarifications"',
  v_compat: '§6.2: "Model IO files produced under spec version N MUST be valid under spec version N+1 (minor/patch) unless a MAJOR version bump is released."',
  v_history: '§6.3: "| 1.0.0 | 2026-01-05 | Initial normative specification |"',
  p_name: '§7: "- Filename: `model_io.json`"',
  p_verify: '§7: "- Verification: MUST satisfy all MI1-MI12 invariants"',
  // RFCs (not checked against model-io.md)
  rfc8259_utf8: 'RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"',
  rfc8259_bom: 'RFC 8259 §8.1: "Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text. In the interests of interoperability, implementations that parse JSON texts MAY ignore the presence of a byte order mark rather than treating it as an error."',
  rfc8259_text: 'RFC 8259 §2: "A JSON text is a serialized value."',
  rfc8259_num: 'RFC 8259 §6: "Numeric values that cannot be represented in the grammar below (such as Infinity and NaN) are not permitted."',
  rfc8259_str: 'RFC 8259 §7: "All Unicode characters may be placed within the quotation marks, except for the characters that MUST be escaped: quotation mark, reverse solidus, and the control characters (U+0000 through U+001F)."',
  rfc8259_depth: 'RFC 8259 §9: "An implementation may set limits on the maximum depth of nesting."',
  rfc8785_ijson: 'RFC 8785 §3.1: "Irrespective of the method used, the data to be serialized MUST be adapted for I-JSON [RFC7493] formatting, which implies the following:"',
  rfc8785_dup: 'RFC 8785 §3.1: "* JSON objects MUST NOT exhibit duplicate property names."',
  rfc8785_num: 'RFC 8785 §3.1: "* JSON number data MUST be expressible as IEEE 754 [IEEE754] double-precision values."',
  rfc8785_sur: 'RFC 8785 §3.2.2.2: "Since invalid Unicode data like "lone surrogates" (e.g., U+DEAD) may lead to interoperability issues including broken signatures, occurrences of such data MUST cause a compliant JCS implementation to terminate with an appropriate error."',
  rfc8785_nan: 'RFC 8785 §3.2.2.3: "Since Not a Number (NaN) and Infinity are not permitted in JSON, occurrences of NaN or Infinity MUST cause a compliant JCS implementation to terminate with an appropriate error."',
  rfc7493_chars: 'RFC 7493 §2.1: "Object member names, and string values in arrays and object members, MUST NOT include code points that identify Surrogates or Noncharacters as defined by [UNICODE]."',
  rfc7493_dup: 'RFC 7493 §2.3: "Objects in I-JSON messages MUST NOT have members with duplicate names."',
  semver_normal: 'SemVer 2.0.0 §2: "A normal version number MUST take the form X.Y.Z where X, Y, and Z are non-negative integers, and MUST NOT contain leading zeroes."',
  rfc3339_utc: 'RFC 3339 §4.3: "If the time in UTC is known, but the offset to local time is unknown, this can be represented with an offset of "-00:00"."',
};

// ------------------------------------------------------------------------------------------------
// Errata flags: the readings of each entry, the ARCS reading first (conformance/model_io/errata.md).
// `split`: readings under which some case of the flag is an invalid session that is still read as
// one; they are split by the readings of MIO-E4 (what hash and canonicalize do with an invalid
// session) into `<reading>-valid-only` and `<reading>-as-coded`, as vectors/README.md splits a
// reading by the choices of a policy. `js`: the reading that is JSON.parse with the spec's code
// (its as-coded half when split), whose hash outcome the Node run must reproduce.

const FLAGS = {
  'MIO-E4': { readings: ['valid-only', 'as-coded'] },
  'MIO-E6': { readings: ['vacuous', 'literal'], split: ['literal'], js: 'vacuous' },
  'MIO-E10': { readings: ['strict-x-y-z', 'semver-2'], split: ['strict-x-y-z', 'semver-2'] },
  'MIO-E11': { readings: ['number-value', 'exact-value'], split: ['exact-value'], js: 'number-value' },
  'MIO-E13': { readings: ['open', 'closed'], split: ['closed'], js: 'open' },
  'MIO-E14': { readings: ['null-is-wrong-type', 'null-is-absent'], split: ['null-is-wrong-type'] },
  'MIO-E15': { readings: ['rfc-3339-utc', 'iso-8601-utc', 'rfc-3339-any-offset', 'any-string'],
               split: ['rfc-3339-utc', 'iso-8601-utc', 'rfc-3339-any-offset'] },
  'MIO-E16': { readings: ['types-only', 'plausible'], split: ['plausible'] },
  'MIO-E17': { readings: ['bom-not-json', 'bom-ignored'], js: 'bom-not-json' },
  'MIO-E18': { readings: ['i-json', 'last-wins', 'first-wins'], js: 'last-wins' },
  'MIO-E19': { readings: ['i-json', 'ecmascript', 'jcs-refuses'], js: 'ecmascript' },
  'MIO-E20': { readings: ['double-range', 'ecmascript', 'safe-integers'], js: 'ecmascript' },
  'MIO-E26': { readings: ['any-semver', 'same-major', 'exact-version'],
               split: ['same-major', 'exact-version'] },
  'MIO-E29': { readings: ['unicode-text', 'i-json-strict'], js: 'unicode-text' },
  'MIO-E33': { readings: ['typed', 'invariants-only'], split: ['typed'], js: 'invariants-only' },
};

function expandedReadings(flag) {
  const f = FLAGS[flag];
  const out = [];
  for (const r of f.readings) {
    if ((f.split || []).includes(r)) out.push(`${r}-valid-only`, `${r}-as-coded`);
    else out.push(r);
  }
  return out;
}

function arcsReading(flag) {
  const f = FLAGS[flag];
  const r = f.readings[0];
  return (f.split || []).includes(r) ? `${r}-valid-only` : r;
}

// ------------------------------------------------------------------------------------------------
// Requirements and quotations of the hash and canonicalize operations.

const HASH_REQS = ['MIO-CORE-1', 'MIO-CORE-2', 'MIO-CORE-3', 'MIO-HASH-1', 'MIO-HASH-2', 'MIO-HASH-4'];
const HASH_Q = [Q.t_hash, Q.h_canon, Q.h_ret, Q.r_utf8, Q.t_canon];
const HASH_E = ['MIO-E2', 'MIO-E3'];
const CANON_REQS = ['MIO-CORE-1', 'MIO-CORE-2', 'MIO-CORE-3', 'MIO-CORE-4', 'MIO-HASH-2'];
const CANON_Q = [Q.c_incl, Q.c_inter, Q.c_core, Q.c_sort, Q.t_canon];
const CANON_E = ['MIO-E2'];

// What a valid session exercises (the validate requirements of a case that tests no defect).
const VALID_REQS = ['MI1', 'MI2', 'MI3', 'MI4', 'MI5', 'MI6', 'MI7', 'MI8', 'MI9', 'MI11',
                    'MIO-FIELDS-1', 'MIO-FIELDS-2', 'MIO-FIELDS-3', 'MIO-FIELDS-4', 'MIO-FIELDS-5',
                    'MIO-INTERACTION-1', 'MIO-INTERACTION-2', 'MIO-INTERACTION-3',
                    'MIO-INTERACTION-4', 'MIO-INTERACTION-5', 'MIO-JSON-1', 'MIO-PACK-2'];

// ------------------------------------------------------------------------------------------------
// The case table.
//
// case_({id, d, file, v, errors, reqs, q, e, h, asCoded, hreqs, hq, he, same, args, parse, json, js})
//   id       the case id (with the "model-io-" prefix); the input is cases/<id minus prefix>/model_io.json
//   d        one sentence saying what the input is
//   file     a session value (written by emit with 2-space indentation and a final newline) or Buffer
//   v        'valid' | 'invalid' (required), or {flag, r: {<base reading>: 'valid'|'invalid'}}
//   errors   the ARCS checker's error rule ids (warnings are always empty for Model IO)
//   reqs, q, e   validate: more requirements, quotations, errata entries
//   h        hash outcome per base reading where it is not "hashed when valid" ({reading: outcome}),
//            or 'refused' for a required refusal
//   asCoded  the outcome of the spec's code on an invalid session ('hashed' unless it throws)
//   hreqs, hq, he   hash and canonicalize: more requirements, quotations, errata entries
//   same     same_hash_as: a case whose ModelIOHash this one must equal (MI12 and spelling pairs;
//            an unsorted session, whose §4.3 core is sorted)
//   args     passed to the implementation (args.limits.max_json_depth)
//   parse    'fails' when the ARCS reader refuses the text before looking at its members
//   json     the JSON-level ids (MIO-JSON-*) the checker adds to what arcsRules finds
//   js       the outcome of the spec's code under Node, where the case's expectation does not say

const CASE_LIST = [];

function case_(c) {
  if (!c.id.startsWith('model-io-')) throw new Error('case id must start with model-io-: ' + c.id);
  c.folder = c.id.slice('model-io-'.length);
  c.bytes = Buffer.isBuffer(c.file) ? c.file : text(c.file);
  c.errors = [...(c.errors || [])].sort();
  CASE_LIST.push(c);
}

const F = (flag, r) => ({ flag, r });

// --- Examples and well-formed sessions ------------------------------------------------------

function examples() {
  const q = [Q.row_version, Q.row_adapter, Q.row_model, Q.row_mode, Q.row_inter, Q.i_i, Q.i_prompt,
             Q.i_resp, Q.i_content, Q.p_verify];
  case_({ id: 'model-io-minimal',
          d: 'The required members only: schema version "1.0.0" (the spec\'s example value), two interactions with correct hashes.',
          file: session(), v: 'valid', reqs: VALID_REQS, q: [...q, Q.all], e: ['MIO-E30'] });
  case_({ id: 'model-io-full',
          d: 'Every member the spec defines: the minimal session plus created_at_utc, ended_at_utc, stats and per-interaction tokens and latency.',
          file: full(), v: 'valid',
          reqs: [...VALID_REQS, 'MIO-FIELDS-6', 'MIO-FIELDS-7', 'MIO-FIELDS-8', 'MIO-FIELDS-9',
                 'MIO-INTERACTION-6', 'MIO-INTERACTION-7', 'MIO-INTERACTION-8', 'MIO-STATS-1',
                 'MIO-STATS-2', 'MIO-STATS-3', 'MIO-STATS-4'],
          q: [Q.row_created, Q.row_ended, Q.row_stats, Q.i_tin, Q.i_tout, Q.i_lat, Q.s_iface],
          e: ['MIO-E30'], same: 'model-io-minimal', hreqs: ['MI12'], hq: [Q.mi12a, Q.mi12b, Q.c_excl, Q.c_per], he: ['MIO-E28'] });
  case_({ id: 'model-io-one-interaction', d: 'One interaction.',
          file: session({}, [inter(0)]), v: 'valid', reqs: VALID_REQS, q: [Q.mi5a] });
  case_({ id: 'model-io-replay-mode', d: 'mode "replay".',
          file: session({ mode: 'replay' }), v: 'valid', reqs: [...VALID_REQS, 'MIO-MODE-3'], q: [Q.mi3a, Q.m_replay] });
  case_({ id: 'model-io-eleven-interactions',
          d: 'Eleven interactions, i from 0 to 10 (10 sorts after 9 as a number, before 2 as a string).',
          file: session({}, Array.from({ length: 11 }, (_, n) => inter(n))), v: 'valid',
          reqs: VALID_REQS, q: [Q.mi5b, Q.mi9a], hq: [Q.c_sort] });
  case_({ id: 'model-io-empty-interactions', d: 'interactions is the empty array.',
          file: session({ interactions: [] }),
          v: F('MIO-E6', { vacuous: 'valid', literal: 'invalid' }), errors: [],
          reqs: ['MI4', 'MI5'], q: [Q.mi4b, Q.mi5a, Q.mi5b] });
  case_({ id: 'model-io-compact', d: 'The minimal session written without any whitespace and without a final newline.',
          file: Buffer.from(emit(session(), 0), 'utf8'), v: 'valid', reqs: VALID_REQS,
          q: [Q.rfc8259_text], e: ['MIO-E17'], same: 'model-io-minimal', he: ['MIO-E28'] });
  case_({ id: 'model-io-crlf-tabs', d: 'The minimal session indented with tabs, CRLF line ends.',
          file: Buffer.from(emit(session(), 2).replace(/\n/g, '\r\n').replace(/ {2}/g, '\t') + '\r\n', 'utf8'),
          v: 'valid', reqs: VALID_REQS, q: [Q.rfc8259_text], e: ['MIO-E17'], same: 'model-io-minimal', he: ['MIO-E28'] });
  case_({ id: 'model-io-leading-whitespace', d: 'The minimal session preceded by blank lines and spaces.',
          file: Buffer.from('\n\n   ' + emit(session()) + '\n\n', 'utf8'), v: 'valid', reqs: VALID_REQS,
          q: [Q.rfc8259_text], e: ['MIO-E17'], same: 'model-io-minimal', he: ['MIO-E28'] });
  const reversed = obj => Object.fromEntries(Object.entries(obj).reverse());
  const rs = session();
  case_({ id: 'model-io-member-order', d: 'The minimal session with the members of every object in reverse order.',
          file: with_(reversed(rs), { interactions: rs.interactions.map(reversed) }), v: 'valid',
          reqs: VALID_REQS, q: [Q.c_incl], e: ['MIO-E2'], same: 'model-io-minimal', he: ['MIO-E28'] });
  const esc = s => s.replace(/[a-z]/, ch => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
  const es = session();
  case_({ id: 'model-io-escaped-strings',
          d: 'The minimal session with the first letter of every string value written as a \\u escape ("\\u0061dapter-1", "\\u0073ha256:...").',
          file: {
            model_io_schema_version: new Raw('"1.0.0"'), adapter_id: new Raw(`"${esc('adapter-1')}"`),
            model_id: new Raw(`"${esc('test-model')}"`), mode: new Raw(`"${esc('record')}"`),
            interactions: es.interactions.map(x => ({ i: x.i, prompt_hash: new Raw(`"${esc(x.prompt_hash)}"`),
                                                      response_hash: new Raw(`"${esc(x.response_hash)}"`),
                                                      response_content: new Raw(`"${esc(x.response_content)}"`) })),
          },
          v: 'valid', reqs: [...VALID_REQS, 'MIO-CORE-4'], q: [Q.mi3a, Q.mi6a, Q.mi7b], e: ['MIO-E22'],
          same: 'model-io-minimal', he: ['MIO-E28'] });
  case_({ id: 'model-io-solidus-raw', d: 'model_id "org/model" with a raw solidus.',
          file: session({ model_id: 'org/model' }), v: 'valid', reqs: VALID_REQS, q: [Q.row_model], e: ['MIO-E32'] });
  case_({ id: 'model-io-solidus-escaped', d: 'model_id "org/model" written "org\\/model".',
          file: session({ model_id: new Raw('"org\\/model"') }), v: 'valid', reqs: VALID_REQS,
          q: [Q.row_model], e: ['MIO-E32'], same: 'model-io-solidus-raw', he: ['MIO-E28'] });
  case_({ id: 'model-io-adapter-id-space', d: 'adapter_id " " (one space): a non-empty string.',
          file: session({ adapter_id: ' ' }), v: 'valid', reqs: ['MI2'], q: [Q.mi2a, Q.mi2], e: ['MIO-E25'] });
  case_({ id: 'model-io-unicode-ids', d: 'adapter_id "adaptateur-\u00e9" and model_id "\u6a21\u578b-\u{1F600}" written raw in UTF-8.',
          file: session({ adapter_id: 'adaptateur-\u00e9', model_id: '\u6a21\u578b-\u{1F600}' }), v: 'valid',
          reqs: ['MI2', 'MIO-FIELDS-2', 'MIO-FIELDS-3'], q: [Q.mi2], e: ['MIO-E32'] });
  case_({ id: 'model-io-unicode-ids-escaped', d: 'The ids of model-io-unicode-ids written as \\u escapes (a surrogate pair for U+1F600).',
          file: session({ adapter_id: new Raw('"adaptateur-\\u00e9"'), model_id: new Raw('"\\u6a21\\u578B-\\uD83D\\uDE00"') }),
          v: 'valid', reqs: ['MI2', 'MIO-FIELDS-2', 'MIO-FIELDS-3', 'MIO-CORE-4'], q: [Q.mi2], e: ['MIO-E32'],
          same: 'model-io-unicode-ids', he: ['MIO-E28'] });
  case_({ id: 'model-io-same-prompt-different-i',
          d: 'Two interactions with the same prompt_hash (the prompt asked twice) at i 0 and 1.',
          file: session({}, [inter(0), inter(1, { prompt_hash: PH(0) })]), v: 'valid', reqs: ['MI8'],
          q: [Q.mi8a, Q.mi8], e: ['MIO-E7'] });
  case_({ id: 'model-io-i-negative-zero', d: 'The first interaction\'s i is written -0.',
          file: session({}, [inter(0, { i: new Raw('-0') }), inter(1)]), v: 'valid', reqs: ['MI5', 'MIO-INTERACTION-2'],
          q: [Q.mi5a, Q.i_i], e: ['MIO-E11'], hreqs: ['MIO-CORE-4'], same: 'model-io-minimal', he: ['MIO-E11', 'MIO-E28'] });
  case_({ id: 'model-io-mode-escaped', d: 'mode written "re\\u0063ord".',
          file: session({ mode: new Raw('"re\\u0063ord"') }), v: 'valid', reqs: ['MI3'], q: [Q.mi3a],
          e: ['MIO-E25'], same: 'model-io-minimal', he: ['MIO-E28'] });
  case_({ id: 'model-io-empty-content', d: 'A response_content "" with the SHA-256 of no bytes.',
          file: session({}, [inter(0, { response_content: '' }), inter(1)]), v: 'valid',
          reqs: ['MI7', 'MIO-INTERACTION-5', 'MIO-HASH-3'], q: [Q.mi7b, Q.r_ret, Q.r_utf8], e: ['MIO-E22'] });
  case_({ id: 'model-io-latency-fraction', d: 'latency_ms 12.5 and tokens 0.',
          file: session({}, [inter(0, { tokens_input: 0, tokens_output: 0, latency_ms: 12.5 }), inter(1)]), v: 'valid',
          reqs: ['MIO-INTERACTION-6', 'MIO-INTERACTION-7', 'MIO-INTERACTION-8'], q: [Q.i_lat, Q.i_lat_doc], e: ['MIO-E16'],
          same: 'model-io-minimal', hreqs: ['MI12'], hq: [Q.mi12b], he: ['MIO-E28'] });
}

// --- MI1 -------------------------------------------------------------------------------------

function mi1() {
  const q = [Q.mi1a, Q.mi1b, Q.mi1];
  const bad = (id, d, value, errors, extra = {}) =>
    case_({ id: `model-io-version-${id}`, d, file: session({ model_io_schema_version: value }), v: 'invalid',
            errors, reqs: ['MI1'], q: extra.q || q, e: extra.e || [], ...extra.more });
  const missing = session({ model_io_schema_version: DROP });
  case_({ id: 'model-io-version-missing', d: 'No model_io_schema_version member.', file: missing, v: 'invalid',
          errors: ['MI1', 'MIO-FIELDS-1'], reqs: ['MI1'], q: [Q.row_version, Q.mi1], e: ['MIO-E12'] });
  bad('number', 'model_io_schema_version is the number 1.', 1, ['MI1', 'MIO-FIELDS-1'], { q: [Q.row_version, Q.mi1a], e: ['MIO-E12'] });
  bad('null', 'model_io_schema_version is null.', null, ['MI1', 'MIO-FIELDS-1'], { q: [Q.row_version, Q.mi1a], e: ['MIO-E12', 'MIO-E14'] });
  bad('empty', 'model_io_schema_version is "".', '', ['MI1'], { q: [Q.mi1a, Q.mi1] });
  bad('two-parts', 'model_io_schema_version "1.0".', '1.0', ['MI1'], { e: ['MIO-E10'] });
  bad('v-prefix', 'model_io_schema_version "v1.0.0".', 'v1.0.0', ['MI1'], { e: ['MIO-E10'] });
  bad('four-parts', 'model_io_schema_version "1.0.0.0".', '1.0.0.0', ['MI1'], { e: ['MIO-E10'] });
  bad('trailing-newline', 'model_io_schema_version "1.0.0\\n" (a newline after the version).', '1.0.0\n', ['MI1'], { e: ['MIO-E10', 'MIO-E21'] });
  bad('leading-space', 'model_io_schema_version " 1.0.0".', ' 1.0.0', ['MI1'], { e: ['MIO-E10'] });
  bad('fullwidth-digit', 'model_io_schema_version "\uff11.0.0" (a FULLWIDTH DIGIT ONE).', '\uff11.0.0', ['MI1'], { e: ['MIO-E10'] });
  bad('letters', 'model_io_schema_version "X.Y.Z" (the placeholder of MI1).', 'X.Y.Z', ['MI1'], { e: ['MIO-E10'] });
  const e10 = (id, d, value, r) => case_({ id: `model-io-version-${id}`, d, file: session({ model_io_schema_version: value }),
                                           v: F('MIO-E10', r), errors: r['strict-x-y-z'] === 'invalid' ? ['MI1'] : [],
                                           reqs: ['MI1'], q: [Q.mi1b, Q.mi1, Q.v_format] });
  e10('prerelease', 'model_io_schema_version "1.0.0-rc.1" (a SemVer pre-release).', '1.0.0-rc.1',
      { 'strict-x-y-z': 'invalid', 'semver-2': 'valid' });
  e10('build', 'model_io_schema_version "1.0.0+build.5" (SemVer build metadata).', '1.0.0+build.5',
      { 'strict-x-y-z': 'invalid', 'semver-2': 'valid' });
  // Semantic versioning, which MI1 names, forbids leading zeros in X.Y.Z: invalid under every reading.
  bad('leading-zero', 'model_io_schema_version "01.0.0".', '01.0.0', ['MI1'],
      { q: [Q.mi1b, Q.mi1, Q.v_format, Q.semver_normal], e: ['MIO-E10'] });
  bad('leading-zero-patch', 'model_io_schema_version "1.0.00".', '1.0.00', ['MI1'],
      { q: [Q.mi1b, Q.mi1, Q.v_format, Q.semver_normal], e: ['MIO-E10'] });
  const e26 = (id, d, value, r) => case_({ id: `model-io-version-${id}`, d, file: session({ model_io_schema_version: value }),
                                           v: F('MIO-E26', r), errors: [], reqs: ['MI1', 'MIO-VERSION-2'],
                                           q: [Q.mi1b, Q.v_compat, Q.v_history] });
  e26('1-0-1', 'model_io_schema_version "1.0.1" (a later patch version).', '1.0.1',
      { 'any-semver': 'valid', 'same-major': 'valid', 'exact-version': 'invalid' });
  e26('1-1-0', 'model_io_schema_version "1.1.0" (a later minor version).', '1.1.0',
      { 'any-semver': 'valid', 'same-major': 'valid', 'exact-version': 'invalid' });
  e26('2-0-0', 'model_io_schema_version "2.0.0" (a later major version).', '2.0.0',
      { 'any-semver': 'valid', 'same-major': 'invalid', 'exact-version': 'invalid' });
  e26('0-9-0', 'model_io_schema_version "0.9.0" (an earlier major version).', '0.9.0',
      { 'any-semver': 'valid', 'same-major': 'invalid', 'exact-version': 'invalid' });
  e26('10-20-30', 'model_io_schema_version "10.20.30" (numbers of two digits).', '10.20.30',
      { 'any-semver': 'valid', 'same-major': 'invalid', 'exact-version': 'invalid' });
}

// --- MI2, MI3 ---------------------------------------------------------------------------------

function mi2mi3() {
  const ids = [
    ['adapter-id-empty', 'adapter_id is "".', { adapter_id: '' }, ['MI2'], [Q.mi2a, Q.mi2]],
    ['model-id-empty', 'model_id is "".', { model_id: '' }, ['MI2'], [Q.mi2b, Q.mi2]],
    ['ids-both-empty', 'adapter_id and model_id are both "".', { adapter_id: '', model_id: '' }, ['MI2'], [Q.mi2]],
    ['adapter-id-missing', 'No adapter_id member.', { adapter_id: DROP }, ['MI2', 'MIO-FIELDS-2'], [Q.row_adapter, Q.mi2]],
    ['model-id-missing', 'No model_id member.', { model_id: DROP }, ['MI2', 'MIO-FIELDS-3'], [Q.row_model, Q.mi2]],
    ['adapter-id-number', 'adapter_id is the number 1.', { adapter_id: 1 }, ['MI2', 'MIO-FIELDS-2'], [Q.row_adapter, Q.mi2a]],
    ['adapter-id-object', 'adapter_id is {}.', { adapter_id: {} }, ['MI2', 'MIO-FIELDS-2'], [Q.row_adapter, Q.mi2a]],
    ['model-id-null', 'model_id is null.', { model_id: null }, ['MI2', 'MIO-FIELDS-3'], [Q.row_model, Q.mi2b]],
    ['model-id-array', 'model_id is ["test-model"].', { model_id: ['test-model'] }, ['MI2', 'MIO-FIELDS-3'], [Q.row_model, Q.mi2b]],
  ];
  for (const [id, d, over, errors, q] of ids) {
    case_({ id: `model-io-${id}`, d, file: session(over), v: 'invalid', errors, reqs: ['MI2'], q,
            e: errors.length > 1 ? ['MIO-E12'] : ['MIO-E25'] });
  }
  const modes = [
    ['mode-capitalized', 'mode "Record".', { mode: 'Record' }, ['MI3']],
    ['mode-uppercase', 'mode "REPLAY".', { mode: 'REPLAY' }, ['MI3']],
    ['mode-empty', 'mode "".', { mode: '' }, ['MI3']],
    ['mode-padded', 'mode " record" (a leading space).', { mode: ' record' }, ['MI3']],
    ['mode-other', 'mode "recording".', { mode: 'recording' }, ['MI3']],
    ['mode-missing', 'No mode member.', { mode: DROP }, ['MI3', 'MIO-FIELDS-4']],
    ['mode-null', 'mode is null.', { mode: null }, ['MI3', 'MIO-FIELDS-4']],
    ['mode-number', 'mode is the number 0.', { mode: 0 }, ['MI3', 'MIO-FIELDS-4']],
    ['mode-array', 'mode is ["record"].', { mode: ['record'] }, ['MI3', 'MIO-FIELDS-4']],
  ];
  for (const [id, d, over, errors] of modes) {
    case_({ id: `model-io-${id}`, d, file: session(over), v: 'invalid', errors, reqs: ['MI3', 'MIO-MODE-3'],
            q: errors.length > 1 ? [Q.row_mode, Q.mi3a, Q.mi3] : [Q.mi3a, Q.mi3, Q.m_record, Q.m_replay],
            e: errors.length > 1 ? ['MIO-E12'] : ['MIO-E25'] });
  }
}

// --- MI4, MI11 (interaction count) -------------------------------------------------------------

// The smallest interaction: empty content, one prompt hash (prompt "") for all.
const EMPTY = digest('');
const tiny = n => ({ i: n, prompt_hash: EMPTY, response_hash: EMPTY, response_content: '' });

function mi4() {
  const q = [Q.row_inter, Q.mi4a, Q.mi4];
  const shapes = [
    ['interactions-missing', 'No interactions member.', DROP],
    ['interactions-null', 'interactions is null.', null],
    ['interactions-object', 'interactions is {}.', {}],
    ['interactions-string', 'interactions is the string "[]".', '[]'],
  ];
  for (const [id, d, value] of shapes) {
    case_({ id: `model-io-${id}`, d, file: session({ interactions: value }), v: 'invalid',
            errors: ['MI4', 'MIO-FIELDS-5'], reqs: ['MI4'], q, e: ['MIO-E12'], asCoded: 'refused', he: ['MIO-E4'] });
  }
  const many = n => Buffer.from(emit(session({}, Array.from({ length: n }, (_, k) => tiny(k))), 0) + '\n', 'utf8');
  case_({ id: 'model-io-interactions-10000',
          d: '10,000 interactions (the limit), each with empty content and the prompt hash of "", written without whitespace.',
          file: many(10000), v: 'valid', reqs: ['MI4', 'MI11'], q: [Q.mi4c, Q.mi11a, Q.mi4], e: ['MIO-E8'] });
  case_({ id: 'model-io-interactions-10001', d: '10,001 interactions, one past the limit, as in model-io-interactions-10000.',
          file: many(10001), v: 'invalid', errors: ['MI11', 'MI4'], reqs: ['MI10', 'MI4', 'MI11'],
          q: [Q.mi4c, Q.mi11a, Q.mi4, Q.mi10a], e: ['MIO-E5', 'MIO-E8'] });
}

// --- MI5 ----------------------------------------------------------------------------------------

function mi5() {
  const q = [Q.mi5a, Q.mi5b, Q.mi5];
  const bad = (id, d, interactions, errors = ['MI5'], extra = {}) =>
    case_({ id: `model-io-${id}`, d, file: session({}, interactions), v: 'invalid', errors,
            reqs: ['MI5', 'MIO-INTERACTION-10'], q: extra.q || q, e: extra.e || [], ...extra.more });
  bad('i-start-at-1', 'Two interactions with i 1 and 2.', [inter(1), inter(2)]);
  bad('i-gap', 'Two interactions with i 0 and 2.', [inter(0), inter(2)]);
  bad('i-repeated', 'Two interactions with i 0 and 0 and different prompts.', [inter(0), inter(0, { prompt_hash: PH(1) })], ['MI5'],
      { e: ['MIO-E7'] });
  bad('i-negative', 'One interaction with i -1.', [inter(-1)]);
  bad('i-fraction', 'Two interactions with i 0 and 0.5.', [inter(0), inter(0.5)]);
  bad('i-huge-integer', 'The second interaction\'s i is 100000000000000000000000 (JSON.parse reads 1e+23).',
      [inter(0), inter(1, { i: new Raw('100000000000000000000000') })], ['MI5'], { e: ['MIO-E11', 'MIO-E20'] });
  const typed = (id, d, value) =>
    case_({ id: `model-io-${id}`, d, file: session({}, [inter(0), inter(1, { i: value })]), v: 'invalid',
            errors: ['MI5', 'MIO-INTERACTION-2'], reqs: ['MI5'], q: [Q.i_i, Q.mi5b], e: ['MIO-E12'] });
  typed('i-string', 'The second interaction\'s i is the string "1".', '1');
  typed('i-missing', 'The second interaction has no i.', DROP);
  typed('i-null', 'The second interaction\'s i is null.', null);
  typed('i-boolean', 'The second interaction\'s i is true.', true);
  case_({ id: 'model-io-i-1e400', d: 'The second interaction\'s i is 1e400 (beyond the doubles; JSON.parse reads Infinity).',
          file: session({}, [inter(0), inter(1, { i: new Raw('1e400') })]), v: 'invalid', errors: ['MI5', 'MIO-JSON-4'],
          reqs: ['MI5'], q: [Q.mi5b, Q.rfc8785_num], e: ['MIO-E20'], asCoded: 'refused', json: ['MIO-JSON-4'],
          hq: [Q.rfc8785_nan], he: ['MIO-E4', 'MIO-E20'] });
  const e11 = (id, d, raw, r) =>
    case_({ id: `model-io-${id}`, d, file: session({}, [inter(0, id === 'i-zero-point-zero' ? { i: new Raw(raw) } : {}),
                                                        inter(1, id === 'i-zero-point-zero' ? {} : { i: new Raw(raw) })]),
            v: F('MIO-E11', r), errors: [], reqs: ['MI5', 'MIO-INTERACTION-2'], q: [Q.i_i, Q.mi5b],
            e: ['MIO-E11'], hreqs: ['MIO-CORE-4'], same: 'model-io-minimal', he: ['MIO-E11', 'MIO-E28'] });
  // i is a number compared with ===, and 1.0 === 1 in the spec's notation: every reading agrees
  // (the expectation is required) except on a token whose exact decimal value is not the index.
  const vvi = { 'number-value': 'valid', 'exact-value': 'valid' };
  e11('i-one-point-zero', 'The second interaction\'s i is written 1.0.', '1.0', vvi);
  e11('i-exponent', 'The second interaction\'s i is written 1e0.', '1e0', vvi);
  e11('i-exponent-upper', 'The second interaction\'s i is written 1E+0.', '1E+0', vvi);
  e11('i-zero-point-zero', 'The first interaction\'s i is written 0.0.', '0.0', vvi);
  e11('i-ten-e-minus-one', 'The second interaction\'s i is written 10e-1.', '10e-1', vvi);
  e11('i-near-one', 'The second interaction\'s i is written 1.0000000000000001, which reads as the double 1.',
      '1.0000000000000001', { 'number-value': 'valid', 'exact-value': 'invalid' });
}

// --- MI6, MI7 ----------------------------------------------------------------------------------

function mi6() {
  const good = PH(1).slice(7);
  const bad = (id, d, value, errors = ['MI6'], e = ['MIO-E21']) =>
    case_({ id: `model-io-prompt-hash-${id}`, d, file: session({}, [inter(0), inter(1, { prompt_hash: value })]),
            v: 'invalid', errors, reqs: ['MI6', 'MIO-INTERACTION-9'],
            q: errors.length > 1 ? [Q.i_prompt, Q.mi6a] : [Q.mi6a, Q.mi6, Q.i_prompt_doc], e });
  bad('uppercase', 'The second prompt_hash in uppercase hex digits.', 'sha256:' + good.toUpperCase());
  bad('no-prefix', 'The second prompt_hash is 64 hex digits without "sha256:".', good);
  bad('63-digits', 'The second prompt_hash has 63 hex digits.', 'sha256:' + good.slice(1));
  bad('65-digits', 'The second prompt_hash has 65 hex digits.', 'sha256:' + good + '0');
  bad('prefix-uppercase', 'The second prompt_hash starts "SHA256:".', 'SHA256:' + good);
  bad('not-hex', 'The second prompt_hash holds 64 "g" characters.', 'sha256:' + 'g'.repeat(64));
  bad('trailing-newline', 'The second prompt_hash is followed by "\\n" (JavaScript\'s $ does not match before it).', 'sha256:' + good + '\n');
  bad('missing', 'The second interaction has no prompt_hash.', DROP, ['MI6', 'MIO-INTERACTION-3'], ['MIO-E12']);
  bad('number', 'The second prompt_hash is the number 0.', 0, ['MI6', 'MIO-INTERACTION-3'], ['MIO-E12']);
  bad('null', 'The second prompt_hash is null.', null, ['MI6', 'MIO-INTERACTION-3'], ['MIO-E12']);
  case_({ id: 'model-io-prompt-hash-escaped', d: 'The second prompt_hash written with its colon as "\\u003a".',
          file: session({}, [inter(0), inter(1, { prompt_hash: new Raw(`"sha256\\u003a${good}"`) })]), v: 'valid',
          reqs: ['MI6', 'MIO-CORE-4'], q: [Q.mi6a], e: ['MIO-E21'], same: 'model-io-minimal', he: ['MIO-E28'] });
  case_({ id: 'model-io-prompt-hash-zeros', d: 'The second prompt_hash is "sha256:" and 64 zeros: well-formed, and no file can show which prompt it hashes.',
          file: session({}, [inter(0), inter(1, { prompt_hash: 'sha256:' + '0'.repeat(64) })]), v: 'valid',
          reqs: ['MI6', 'MIO-HASH-5'], q: [Q.mi6a, Q.t_prompt], e: ['MIO-E23'] });
}

function mi7() {
  const q = [Q.mi7a, Q.mi7b, Q.mi7, Q.r_ret, Q.r_utf8];
  const reqs = ['MI7', 'MIO-HASH-3', 'MIO-HASH-4'];
  const bad = (id, d, over, errors = ['MI7'], e = ['MIO-E22']) =>
    case_({ id: `model-io-${id}`, d, file: session({}, [inter(0), inter(1, over)]), v: 'invalid', errors,
            reqs, q: errors.length > 1 ? [Q.i_resp, Q.i_content, Q.mi7b] : q, e });
  const right = digest('response 1').slice(7);
  bad('response-hash-mismatch', 'The second response_hash is the hash of "response 0".', { response_hash: digest('response 0') });
  bad('response-hash-uppercase', 'The second response_hash is the right digest in uppercase hex.', { response_hash: 'sha256:' + right.toUpperCase() }, ['MI7'], ['MIO-E21', 'MIO-E22']);
  bad('response-hash-no-prefix', 'The second response_hash is the right digest without "sha256:" (what sha256() alone returns).', { response_hash: right }, ['MI7'], ['MIO-E21', 'MIO-E22']);
  bad('response-hash-63-digits', 'The second response_hash has 63 hex digits.', { response_hash: 'sha256:' + right.slice(1) }, ['MI7'], ['MIO-E21']);
  bad('response-hash-trailing-newline', 'The second response_hash is the right one followed by "\\n".', { response_hash: 'sha256:' + right + '\n' }, ['MI7'], ['MIO-E21']);
  bad('response-hash-missing', 'The second interaction has no response_hash.', { response_hash: DROP }, ['MI7', 'MIO-INTERACTION-4'], ['MIO-E12']);
  bad('response-hash-null', 'The second response_hash is null.', { response_hash: null }, ['MI7', 'MIO-INTERACTION-4'], ['MIO-E12']);
  bad('response-content-missing', 'The second interaction has no response_content.', { response_content: DROP }, ['MI7', 'MIO-INTERACTION-5'], ['MIO-E12']);
  // The hash of "" fits a reader that reads a missing string as "" (Go's zero value): but
  // response_content is not optional (no "?"), and sha256() hashes a string there is none of.
  case_({ id: 'model-io-response-content-missing-empty-hash',
          d: 'The second interaction has no response_content, and its response_hash is the SHA-256 of "" (no bytes).',
          file: session({}, [inter(0), inter(1, { response_content: DROP, response_hash: EMPTY })]), v: 'invalid',
          errors: ['MI7', 'MIO-INTERACTION-5'], reqs, q: [Q.i_iface, Q.i_content, Q.i_tin, Q.mi7b, Q.r_utf8], e: ['MIO-E12', 'MIO-E22'] });
  bad('response-content-number', 'The second response_content is the number 1.', { response_content: 1 }, ['MI7', 'MIO-INTERACTION-5'], ['MIO-E12']);
  bad('response-content-null', 'The second response_content is null.', { response_content: null }, ['MI7', 'MIO-INTERACTION-5'], ['MIO-E12']);
  bad('response-content-object', 'The second response_content is {"text": "response 1"}.', { response_content: { text: 'response 1' } }, ['MI7', 'MIO-INTERACTION-5'], ['MIO-E12']);
  const lines = 'line 1\nline 2';
  bad('response-hash-of-json-text', 'response_content "line 1\\nline 2" whose response_hash is the hash of its JSON spelling (a backslash and "n").',
      { response_content: lines, response_hash: digest(JSON.stringify(lines).slice(1, -1)) });
  bad('response-hash-utf16', 'response_content "\u00e9t\u00e9" whose response_hash is the hash of its UTF-16LE bytes.',
      { response_content: '\u00e9t\u00e9', response_hash: digest(Buffer.from('\u00e9t\u00e9', 'utf16le')) });
  bad('response-hash-latin1', 'response_content "\u00e9t\u00e9" whose response_hash is the hash of its Latin-1 bytes.',
      { response_content: '\u00e9t\u00e9', response_hash: digest(Buffer.from('\u00e9t\u00e9', 'latin1')) });
  bad('response-hash-with-newline', 'response_content "response 1" whose response_hash covers "response 1\\n".',
      { response_hash: digest('response 1\n') });
  bad('response-hash-nfc-of-nfd', 'response_content "e\u0301" (NFD) whose response_hash is the hash of its NFC form "\u00e9".',
      { response_content: 'e\u0301', response_hash: digest('\u00e9') });
  const good = (id, d, content, extra = {}) =>
    case_({ id: `model-io-${id}`, d, file: session({}, [inter(0), inter(1, { response_content: content, ...(extra.over || {}) })]),
            v: 'valid', reqs: [...reqs, 'MIO-INTERACTION-5'], q: [Q.mi7b, Q.r_utf8, Q.i_content_doc], e: ['MIO-E22', 'MIO-E32'], ...(extra.more || {}) });
  good('content-non-ascii', 'response_content "\u00e9\u65e5\u672c\u{1F600}" written raw; response_hash over its UTF-8 bytes.', '\u00e9\u65e5\u672c\u{1F600}');
  good('content-non-ascii-escaped', 'The content of model-io-content-non-ascii written as \\u escapes.', '\u00e9\u65e5\u672c\u{1F600}',
       { over: { response_content: new Raw('"\\u00e9\\u65e5\\u672c\\ud83d\\ude00"'), response_hash: digest('\u00e9\u65e5\u672c\u{1F600}') },
         more: { same: 'model-io-content-non-ascii', he: ['MIO-E28'] } });
  good('content-nfd', 'response_content "e\u0301" (NFD, not normalized); response_hash over those bytes.', 'e\u0301');
  good('content-escaped-nul', 'response_content "a\\u0000b" (an escaped NUL).', 'a\u0000b');
  const controls = Array.from({ length: 32 }, (_, k) => String.fromCharCode(k)).join('');
  good('content-escapes', 'response_content holding U+0000-U+001F, \'"\', \'\\\\\', \'/\' and DEL: every escape class of the canonical form.',
       controls + '"\\/\u007f');
  good('content-line-separators', 'response_content holding U+2028 and U+2029 raw (ECMAScript\'s JSON.stringify leaves them unescaped).', 'a\u2028b\u2029c');
  good('content-c1-and-bom-char', 'response_content holding U+0080, U+009F and U+FEFF inside the string.', '\u0080\u009f\ufeffz');
  good('content-private-use-and-astral', 'response_content "\ue000\u{1F600}\u{10000}" (U+E000 sorts after U+1F600 by code point, before it by UTF-16 unit).',
       '\ue000\u{1F600}\u{10000}');
  good('content-json-text', 'response_content is itself JSON text: "{\\"a\\": [1, 2.50, \\"\\\\u00e9\\"]}".', '{"a": [1, 2.50, "\\u00e9"]}');
  case_({ id: 'model-io-surrogate-pair-escaped', d: 'response_content "\\ud83d\\ude00" (an escaped surrogate pair, U+1F600).',
          file: session({}, [inter(0), inter(1, { response_content: new Raw('"\\ud83d\\ude00"'), response_hash: digest('\u{1F600}') })]),
          v: 'valid', reqs: ['MI7', 'MIO-JSON-3'], q: [Q.mi7b, Q.rfc8785_sur], e: ['MIO-E19'] });
}

// --- MI8, MI9 ----------------------------------------------------------------------------------

function mi8mi9() {
  case_({ id: 'model-io-prompt-i-pair-repeated', d: 'Two interactions with the same prompt_hash and the same i, 0.',
          file: session({}, [inter(0), inter(0, { response_content: 'response 1' })]), v: 'invalid',
          errors: ['MI5', 'MI8'], reqs: ['MI5', 'MI8', 'MI10'], q: [Q.mi8a, Q.mi8, Q.mi5b], e: ['MIO-E7'] });
  // Where it is hashed (MIO-E4's as-coded reading), §4.3 sorts the interactions by i: the core is
  // the minimal session's.
  case_({ id: 'model-io-interactions-reversed', d: 'Two interactions in the order i 1, i 0.',
          file: session({}, [inter(1), inter(0)]), v: 'invalid', errors: ['MI5', 'MI9'], reqs: ['MI5', 'MI9', 'MI10'],
          q: [Q.mi9a, Q.mi9, Q.mi5a], e: ['MIO-E7'], hreqs: ['MIO-CORE-3'], hq: [Q.c_inter, Q.c_sort],
          same: 'model-io-minimal', he: ['MIO-E28'] });
  case_({ id: 'model-io-interactions-swapped', d: 'Three interactions in the order i 0, 2, 1.',
          file: session({}, [inter(0), inter(2), inter(1)]), v: 'invalid', errors: ['MI5', 'MI9'], reqs: ['MI5', 'MI9', 'MI10'],
          q: [Q.mi9a, Q.mi9, Q.mi5b], e: ['MIO-E7'], hq: [Q.c_sort] });
}

// --- MI11 (content size) -----------------------------------------------------------------------

function mi11() {
  const big = (content) => Buffer.from(emit(session({}, [inter(0, { response_content: content })]), 0) + '\n', 'utf8');
  const q = [Q.mi11b, Q.i_content_doc];
  case_({ id: 'model-io-content-1000000-bytes', d: 'One response_content of 1,000,000 "a" (the limit), written without whitespace.',
          file: big('a'.repeat(1000000)), v: 'valid', reqs: ['MI11'], q, e: ['MIO-E9'] });
  case_({ id: 'model-io-content-1000001-bytes', d: 'One response_content of 1,000,001 "a", one byte past the limit.',
          file: big('a'.repeat(1000001)), v: 'invalid', errors: ['MI11'], reqs: ['MI11'], q, e: ['MIO-E9'] });
  // MI11 counts bytes, and the content is a UTF-8 string: not JavaScript's UTF-16 .length.
  case_({ id: 'model-io-content-utf8-over-utf16-at-limit',
          d: 'One response_content of 999,999 "a" and one "\u00e9": 1,000,001 UTF-8 bytes, a JavaScript length of 1,000,000.',
          file: big('a'.repeat(999999) + '\u00e9'), v: 'invalid', errors: ['MI11'], reqs: ['MI11'], q: [...q, Q.r_utf8],
          e: ['MIO-E9'] });
}

// --- MI12: ephemeral and unknown members --------------------------------------------------------

function mi12() {
  const hq = [Q.mi12a, Q.mi12b, Q.mi12, Q.c_excl, Q.c_per];
  const same = (id, d, file, sameAs, extra = {}) =>
    case_({ id: `model-io-${id}`, d, file, v: 'valid', reqs: extra.reqs || ['MIO-FIELDS-6', 'MIO-FIELDS-7', 'MIO-FIELDS-9'],
            q: extra.q || [Q.row_created, Q.row_ended], e: extra.e || [], same: sameAs, hreqs: ['MI12'], hq, he: ['MIO-E28'] });
  same('ephemeral-timestamps', 'The minimal session with created_at_utc and ended_at_utc.', session(EPHEMERAL_TOP), 'model-io-minimal',
       { e: ['MIO-E15'] });
  same('ephemeral-stats', 'The minimal session with stats (two interactions, no tokens or latency recorded: totals 0).',
       session({ stats: { total_interactions: 2, total_tokens_input: 0, total_tokens_output: 0, total_latency_ms: 0 } }), 'model-io-minimal',
       { reqs: ['MIO-FIELDS-8', 'MIO-STATS-1', 'MIO-STATS-2', 'MIO-STATS-3', 'MIO-STATS-4'], q: [Q.row_stats, Q.s_iface] });
  same('ephemeral-metrics', 'The minimal session with tokens_input, tokens_output and latency_ms in each interaction.',
       session({}, [inter(0, METRICS(0)), inter(1, METRICS(1))]), 'model-io-minimal',
       { reqs: ['MIO-INTERACTION-6', 'MIO-INTERACTION-7', 'MIO-INTERACTION-8'], q: [Q.i_tin, Q.i_tout, Q.i_lat] });
  same('ephemeral-other-values', 'model-io-full with other timestamps, stats, tokens and latency.',
       session({ created_at_utc: '2030-12-31T23:59:59.999Z', ended_at_utc: '2031-01-01T00:00:00+00:00',
                 stats: { total_interactions: 2, total_tokens_input: 7, total_tokens_output: 9, total_latency_ms: 3.25 } },
               [inter(0, { tokens_input: 3, tokens_output: 4, latency_ms: 1.5 }), inter(1, { tokens_input: 4, tokens_output: 5, latency_ms: 1.75 })]),
       'model-io-full', { reqs: ['MIO-FIELDS-6', 'MIO-FIELDS-8', 'MIO-FIELDS-9', 'MIO-INTERACTION-6', 'MIO-INTERACTION-8'],
                          q: [Q.row_created, Q.row_stats, Q.i_lat], e: ['MIO-E15'] });
  const open = (id, d, file, sameAs = 'model-io-minimal', reqs = []) =>
    case_({ id: `model-io-${id}`, d, file, v: F('MIO-E13', { open: 'valid', closed: 'invalid' }), errors: [],
            reqs: ['MIO-FIELDS-10', ...reqs], q: [Q.v_minor, Q.c_incl], same: sameAs, hreqs: ['MI12'], hq: [Q.mi12, Q.c_def], he: ['MIO-E28'] });
  open('unknown-top-level', 'The minimal session with an unknown member "x_recorder": "arcs".', session({ x_recorder: 'arcs' }));
  open('unknown-interaction-member', 'The minimal session whose interactions carry an unknown member "cache_hit".',
       session({}, [inter(0, { cache_hit: false }), inter(1, { cache_hit: true })]));
  open('unknown-stats-member', 'model-io-full whose stats carry an unknown member "total_cost_usd".',
       full({ stats: { ...STATS, total_cost_usd: 0.02 } }), 'model-io-full', ['MIO-FIELDS-8']);
  open('unknown-nested', 'The minimal session with an unknown member holding nested objects, arrays and numbers in every form.',
       session({ x_meta: { run: { id: 'r-1', tags: ['a', 'b'], retries: [0, 1.5, -2e-3, 1e21], ok: true, none: null } } }));
  open('unknown-astral-keys', 'Unknown members named "x_\ue000" and "x_\u{1F600}" (they sort differently by code point and by UTF-16 unit).',
       session({ 'x_\ue000': 1, 'x_\u{1F600}': 2 }));
  open('unknown-case-variant', 'An unknown member "Model_id": "other-model" beside model_id (names are case-sensitive).',
       session({ Model_id: 'other-model' }));
  open('unknown-prompt-text', 'Each interaction carries its prompt text in an unknown member "prompt".',
       session({}, [inter(0, { prompt: 'prompt 0' }), inter(1, { prompt: 'prompt 1' })]));
  open('unknown-interaction-core-name', 'An interaction carries an unknown member "I": 5 beside "i" (names are case-sensitive).',
       session({}, [inter(0, { I: 5 }), inter(1)]));
}

// --- null, wrong types of optional members -------------------------------------------------------

function nulls() {
  const e14 = (id, d, file, errors, reqs, q) =>
    case_({ id: `model-io-${id}`, d, file, v: F('MIO-E14', { 'null-is-wrong-type': 'invalid', 'null-is-absent': 'valid' }),
            errors, reqs, q, same: 'model-io-minimal', hreqs: ['MI12'], hq: [Q.mi12], he: ['MIO-E28'] });
  e14('created-at-null', 'created_at_utc is null.', session({ created_at_utc: null }), ['MIO-FIELDS-6'], ['MIO-FIELDS-6'], [Q.row_created]);
  e14('ended-at-null', 'ended_at_utc is null.', session({ ...EPHEMERAL_TOP, ended_at_utc: null }), ['MIO-FIELDS-7'], ['MIO-FIELDS-7'], [Q.row_ended]);
  e14('stats-null', 'stats is null.', session({ stats: null }), ['MIO-FIELDS-8'], ['MIO-FIELDS-8'], [Q.row_stats, Q.s_title]);
  e14('tokens-input-null', 'The first interaction\'s tokens_input is null.', session({}, [inter(0, { tokens_input: null }), inter(1)]),
      ['MIO-INTERACTION-6'], ['MIO-INTERACTION-6'], [Q.i_tin, Q.i_tin_doc]);
  e14('tokens-output-null', 'The first interaction\'s tokens_output is null.', session({}, [inter(0, { tokens_output: null }), inter(1)]),
      ['MIO-INTERACTION-7'], ['MIO-INTERACTION-7'], [Q.i_tout]);
  e14('latency-null', 'The first interaction\'s latency_ms is null.', session({}, [inter(0, { latency_ms: null }), inter(1)]),
      ['MIO-INTERACTION-8'], ['MIO-INTERACTION-8'], [Q.i_lat, Q.i_lat_doc]);
  const typed = (id, d, file, errors, q, e = []) =>
    case_({ id: `model-io-${id}`, d, file, v: 'invalid', errors, reqs: errors, q, e });
  typed('interaction-null', 'The second element of interactions is null.', session({}, [inter(0), null]), ['MIO-INTERACTION-1'],
        [Q.row_inter, Q.i_iface], ['MIO-E24']);
  CASE_LIST[CASE_LIST.length - 1].asCoded = 'refused';
  CASE_LIST[CASE_LIST.length - 1].he = ['MIO-E4'];
  typed('interaction-number', 'The second element of interactions is the number 1.', session({}, [inter(0), 1]), ['MIO-INTERACTION-1'],
        [Q.row_inter, Q.i_iface], ['MIO-E24']);
  typed('interaction-array', 'The second element of interactions is an array of the second interaction\'s values.',
        session({}, [inter(0), Object.values(inter(1))]), ['MIO-INTERACTION-1'], [Q.row_inter, Q.i_iface], ['MIO-E24']);
  typed('interaction-string', 'The second element of interactions is a string.', session({}, [inter(0), 'response 1']),
        ['MIO-INTERACTION-1'], [Q.row_inter, Q.i_iface], ['MIO-E24']);
  // Ephemeral members of another type: only their table types them, no invariant does, and §7
  // verifies MI1-MI12 (errata MIO-E33).
  const e33 = (id, d, file, errors, q, e = []) =>
    case_({ id: `model-io-${id}`, d, file, v: F('MIO-E33', { typed: 'invalid', 'invariants-only': 'valid' }), errors,
            reqs: [...errors, 'MIO-PACK-2'], q: [...q, Q.all, Q.p_verify], e, same: 'model-io-minimal', hreqs: ['MI12'],
            hq: [Q.mi12], he: ['MIO-E28'] });
  e33('stats-member-null', 'stats.total_latency_ms is null (a member SessionStats requires).',
      session({ stats: { ...STATS, total_latency_ms: null } }), ['MIO-STATS-4'], [Q.s_4], ['MIO-E14']);
  e33('tokens-input-string', 'The first interaction\'s tokens_input is the string "10".', session({}, [inter(0, { tokens_input: '10' }), inter(1)]),
      ['MIO-INTERACTION-6'], [Q.i_tin]);
  e33('tokens-output-boolean', 'The first interaction\'s tokens_output is true.', session({}, [inter(0, { tokens_output: true }), inter(1)]),
      ['MIO-INTERACTION-7'], [Q.i_tout]);
  e33('latency-object', 'The first interaction\'s latency_ms is {}.', session({}, [inter(0, { latency_ms: {} }), inter(1)]),
      ['MIO-INTERACTION-8'], [Q.i_lat]);
  e33('stats-array', 'stats is an array of the four totals.', session({ stats: [2, 20, 30, 250] }), ['MIO-FIELDS-8'], [Q.row_stats]);
  e33('stats-string', 'stats is the string "none".', session({ stats: 'none' }), ['MIO-FIELDS-8'], [Q.row_stats]);
  e33('stats-empty', 'stats is {}.', session({ stats: {} }), ['MIO-STATS-1', 'MIO-STATS-2', 'MIO-STATS-3', 'MIO-STATS-4'],
      [Q.s_iface, Q.s_1, Q.s_2, Q.s_3, Q.s_4]);
  e33('stats-member-missing', 'stats has no total_latency_ms.', session({ stats: { ...STATS, total_latency_ms: DROP } }),
      ['MIO-STATS-4'], [Q.s_4]);
  e33('stats-member-string', 'stats.total_tokens_input is the string "20".', session({ stats: { ...STATS, total_tokens_input: '20' } }),
      ['MIO-STATS-2'], [Q.s_2]);
  e33('created-at-number', 'created_at_utc is the number 1767614400 (seconds since 1970).', session({ created_at_utc: 1767614400 }),
      ['MIO-FIELDS-6'], [Q.row_created]);
  e33('ended-at-boolean', 'ended_at_utc is false.', session({ ...EPHEMERAL_TOP, ended_at_utc: false }), ['MIO-FIELDS-7'], [Q.row_ended]);
}

// --- Timestamps -----------------------------------------------------------------------------------

function timestamps() {
  const q = [Q.row_created, Q.row_ended];
  const good = (id, d, created, ended) =>
    case_({ id: `model-io-timestamps-${id}`, d, file: session({ created_at_utc: created, ended_at_utc: ended }), v: 'valid',
            reqs: ['MIO-FIELDS-6', 'MIO-FIELDS-7', 'MIO-FIELDS-9'], q, e: ['MIO-E15'], same: 'model-io-minimal', hreqs: ['MI12'], hq: [Q.mi12a], he: ['MIO-E28'] });
  good('offset-zero-fraction', 'created_at_utc "2026-01-05T12:00:00.123456+00:00" and ended_at_utc "2026-01-05T12:00:05.5+00:00".',
       '2026-01-05T12:00:00.123456+00:00', '2026-01-05T12:00:05.5+00:00');
  good('lowercase', 'created_at_utc "2026-01-05t12:00:00z" (lowercase "t" and "z").', '2026-01-05t12:00:00z', '2026-01-05T12:00:05Z');
  good('leap-second', 'created_at_utc "2016-12-31T23:59:60Z" (a leap second).', '2016-12-31T23:59:60Z', '2017-01-01T00:00:00Z');
  const e15 = (id, d, value, r) =>
    case_({ id: `model-io-timestamps-${id}`, d, file: session({ created_at_utc: value, ended_at_utc: '2026-01-05T12:00:05Z' }),
            v: F('MIO-E15', r), errors: r['rfc-3339-utc'] === 'invalid' ? ['MIO-FIELDS-9'] : [], reqs: ['MIO-FIELDS-9'],
            q: [Q.row_created], same: 'model-io-minimal', hreqs: ['MI12'], hq: [Q.mi12a], he: ['MIO-E28'] });
  const verdicts = s => Object.fromEntries(['rfc-3339-utc', 'iso-8601-utc', 'rfc-3339-any-offset', 'any-string'].map((r, k) => [r, s[k] === 'V' ? 'valid' : 'invalid']));
  e15('offset', 'created_at_utc "2026-01-05T13:00:00+01:00" (the same instant at another offset).', '2026-01-05T13:00:00+01:00', verdicts('IIVV'));
  e15('unknown-offset', 'created_at_utc "2026-01-05T12:00:00-00:00" (RFC 3339: UTC time, local offset unknown).', '2026-01-05T12:00:00-00:00', verdicts('IIVV'));
  e15('basic-format', 'created_at_utc "20260105T120000Z" (ISO 8601 basic format).', '20260105T120000Z', verdicts('IVIV'));
  e15('no-seconds', 'created_at_utc "2026-01-05T12:00Z" (ISO 8601 reduced precision).', '2026-01-05T12:00Z', verdicts('IVIV'));
  e15('no-offset', 'created_at_utc "2026-01-05T12:00:00" (no offset: local time).', '2026-01-05T12:00:00', verdicts('IIIV'));
  e15('date-only', 'created_at_utc "2026-01-05".', '2026-01-05', verdicts('IIIV'));
  e15('space-separator', 'created_at_utc "2026-01-05 12:00:00Z" (a space for "T").', '2026-01-05 12:00:00Z', verdicts('IIIV'));
  e15('impossible-date', 'created_at_utc "2026-02-30T12:00:00Z".', '2026-02-30T12:00:00Z', verdicts('IIIV'));
  e15('hour-24', 'created_at_utc "2026-01-04T24:00:00Z" (ISO 8601\'s end of day, 2026-01-05T00:00:00Z).', '2026-01-04T24:00:00Z', verdicts('IVIV'));
  e15('empty', 'created_at_utc "".', '', verdicts('IIIV'));
}

// --- Ephemeral values beyond their types (errata MIO-E16) ------------------------------------------

function plausibility() {
  const e16 = (id, d, file, reqs, q) =>
    case_({ id: `model-io-${id}`, d, file, v: F('MIO-E16', { 'types-only': 'valid', plausible: 'invalid' }), errors: [],
            reqs, q, same: 'model-io-minimal', hreqs: ['MI12'], hq: [Q.mi12], he: ['MIO-E28'] });
  e16('tokens-negative', 'The first interaction\'s tokens_input is -5.', session({}, [inter(0, { tokens_input: -5 }), inter(1)]),
      ['MIO-INTERACTION-6'], [Q.i_tin, Q.i_tin_doc]);
  e16('tokens-fraction', 'The first interaction\'s tokens_output is 2.5.', session({}, [inter(0, { tokens_output: 2.5 }), inter(1)]),
      ['MIO-INTERACTION-7'], [Q.i_tout]);
  e16('latency-negative', 'The first interaction\'s latency_ms is -1.', session({}, [inter(0, { latency_ms: -1 }), inter(1)]),
      ['MIO-INTERACTION-8'], [Q.i_lat, Q.i_lat_doc]);
  e16('stats-count-mismatch', 'stats.total_interactions is 5 in a session of two interactions.',
      session({ stats: { ...STATS, total_interactions: 5 } }), ['MIO-STATS-1'], [Q.s_1, Q.row_stats]);
  e16('stats-sum-mismatch', 'stats.total_tokens_input is 999 while the interactions\' tokens_input add up to 20.',
      session({ stats: { ...STATS, total_tokens_input: 999 } }, [inter(0, METRICS(0)), inter(1, METRICS(1))]), ['MIO-STATS-2'], [Q.s_2]);
  e16('ended-before-created', 'ended_at_utc is an hour before created_at_utc.',
      session({ created_at_utc: '2026-01-05T12:00:00Z', ended_at_utc: '2026-01-05T11:00:00Z' }), ['MIO-FIELDS-6', 'MIO-FIELDS-7'],
      [Q.row_created, Q.row_ended]);
}

// --- The JSON text ----------------------------------------------------------------------------------

function jsonText() {
  const min = emit(session());
  const bytes = s => (Buffer.isBuffer(s) ? s : Buffer.from(s, 'utf8'));
  const notJson = (id, d, data, q = [Q.rfc8259_text], extra = {}) =>
    case_({ id: `model-io-json-${id}`, d, file: bytes(data), v: 'invalid', errors: ['MIO-JSON-1'], reqs: ['MIO-JSON-1'],
            q: [Q.all, ...q], e: ['MIO-E17'], asCoded: 'refused', parse: 'fails', json: ['MIO-JSON-1'], he: ['MIO-E17'], ...extra });
  case_({ id: 'model-io-json-bom', d: 'The minimal session preceded by a UTF-8 byte order mark (EF BB BF).',
          file: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text(session())]),
          v: F('MIO-E17', { 'bom-not-json': 'invalid', 'bom-ignored': 'valid' }), errors: ['MIO-JSON-1'], reqs: ['MIO-JSON-1'],
          q: [Q.rfc8259_bom], parse: 'fails', json: ['MIO-JSON-1'] });
  notJson('empty', 'An empty file.', '');
  notJson('whitespace-only', 'A file of spaces and newlines.', '  \n\t\n');
  notJson('truncated', 'The minimal session cut off in the middle of the second interaction.', min.slice(0, Math.floor(min.length * 0.7)));
  notJson('missing-brace', 'The minimal session without its final "}".', min.slice(0, min.lastIndexOf('}')) + '\n');
  notJson('trailing-comma', 'The minimal session with a comma after the last member.', min.replace(/\]\n\}$/, '],\n}') + '\n');
  notJson('trailing-content', 'The minimal session followed by "{}".', min + '\n{}\n');
  notJson('two-sessions', 'The minimal session twice, one after the other.', min + '\n' + min + '\n');
  notJson('trailing-garbage', 'The minimal session followed by "x".', min + ' x\n');
  notJson('array', 'An array holding the minimal session.', '[' + emit(session(), 0) + ']\n', [Q.all]);
  notJson('string', 'The JSON string "model_io".', '"model_io"\n', [Q.all]);
  notJson('null', 'The JSON literal null.', 'null\n', [Q.all]);
  notJson('number', 'The JSON number 42.', '42\n', [Q.all]);
  notJson('nan', 'latency_ms written NaN.', emit(session({}, [inter(0, { latency_ms: new Raw('NaN') }), inter(1)])) + '\n', [Q.rfc8259_num]);
  notJson('infinity', 'latency_ms written Infinity.', emit(session({}, [inter(0, { latency_ms: new Raw('Infinity') }), inter(1)])) + '\n', [Q.rfc8259_num]);
  notJson('single-quotes', 'mode written with single quotes.', min.replace('"mode": "record"', "'mode': 'record'") + '\n');
  notJson('comment', 'A // comment line before the first member.', min.replace('{\n', '{\n  // recorded by test\n') + '\n');
  notJson('leading-zero-number', 'tokens_input written 012.', emit(session({}, [inter(0, { tokens_input: new Raw('012') }), inter(1)])) + '\n', [Q.rfc8259_num]);
  notJson('plus-number', 'tokens_input written +12.', emit(session({}, [inter(0, { tokens_input: new Raw('+12') }), inter(1)])) + '\n', [Q.rfc8259_num]);
  notJson('hex-escape', 'model_id written "\\x74est-model".', min.replace('"test-model"', '"\\x74est-model"') + '\n', [Q.rfc8259_str]);
  notJson('raw-tab', 'model_id holding a raw TAB byte.', min.replace('"test-model"', '"test\tmodel"') + '\n', [Q.rfc8259_str]);
  notJson('raw-newline', 'response_content holding a raw LF byte.', min.replace('"response 0"', '"response\n0"') + '\n', [Q.rfc8259_str]);
  notJson('raw-nul', 'model_id holding a raw NUL byte.', min.replace('"test-model"', '"test\u0000model"') + '\n', [Q.rfc8259_str]);
  const withBytes = (find, raw) => {
    const at = Buffer.from(min, 'utf8').indexOf(Buffer.from(find, 'utf8'));
    const b = Buffer.from(min + '\n', 'utf8');
    return Buffer.concat([b.subarray(0, at), Buffer.from(raw), b.subarray(at + Buffer.byteLength(find))]);
  };
  notJson('invalid-utf8', 'model_id holding the byte FF.', withBytes('test-model', [0x74, 0xff, 0x6d]), [Q.rfc8259_utf8]);
  notJson('overlong-utf8', 'model_id holding C0 AF (an overlong "/").', withBytes('test-model', [0x74, 0xc0, 0xaf, 0x6d]), [Q.rfc8259_utf8]);
  notJson('encoded-surrogate', 'model_id holding ED A0 80 (U+D800 encoded as if it were a character).', withBytes('test-model', [0x74, 0xed, 0xa0, 0x80]), [Q.rfc8259_utf8]);
  notJson('truncated-utf8', 'model_id holding E6 97 (the first two bytes of a three-byte sequence).', withBytes('test-model', [0x74, 0xe6, 0x97]), [Q.rfc8259_utf8]);
  notJson('utf16', 'The minimal session encoded in UTF-16LE with a byte order mark.',
          Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(min + '\n', 'utf16le')]), [Q.rfc8259_utf8]);
}

// --- I-JSON: duplicate names, lone surrogates, numbers, noncharacters, depth -----------------------

function iJson() {
  const dupR = { 'i-json': 'invalid', 'last-wins': 'valid', 'first-wins': 'valid' };
  const dup = (id, d, file, extra = {}) =>
    case_({ id: `model-io-dup-${id}`, d, file, v: F('MIO-E18', dupR), errors: ['MIO-JSON-2'], reqs: ['MIO-JSON-2'],
            q: [Q.rfc8785_ijson, Q.rfc8785_dup, Q.rfc7493_dup], json: ['MIO-JSON-2'], ...extra });
  const base = session();
  const pairs = Object.entries(base);
  dup('created-at', 'created_at_utc given twice, "2026-01-05T12:00:00Z" then "2026-01-05T12:00:01Z" (outside ModelIOCore).',
      new Dup(...pairs, ['created_at_utc', '2026-01-05T12:00:00Z'], ['created_at_utc', '2026-01-05T12:00:01Z']));
  dup('model-id', 'model_id given twice, "model-a" then "model-b": the ModelIOHash depends on which one a reader keeps.',
      new Dup(['model_io_schema_version', '1.0.0'], ['adapter_id', 'adapter-1'], ['model_id', 'model-a'],
              ['model_id', 'model-b'], ['mode', 'record'], ['interactions', base.interactions]));
  dup('escaped-name', 'model_id given as "model_id": "model-a" and as "model\\u005fid": "model-b" (the same name once unescaped).',
      new Dup(['model_io_schema_version', '1.0.0'], ['adapter_id', 'adapter-1'], ['model_id', 'model-a'],
              [new Raw('"model\\u005fid"'), 'model-b'], ['mode', 'record'], ['interactions', base.interactions]));
  dup('in-interaction', 'The first interaction gives tokens_input twice, 10 then 11.',
      session({}, [new Dup(...Object.entries(inter(0)), ['tokens_input', 10], ['tokens_input', 11]), inter(1)]));
  dup('interactions', 'interactions given twice, each a valid list (responses "first ..." then "response ...").',
      new Dup(...pairs.slice(0, 4), ['interactions', [inter(0, { response_content: 'first 0' }), inter(1, { response_content: 'first 1' })]],
              ['interactions', base.interactions]));
  dup('in-stats', 'stats gives total_interactions twice, 2 and 2 (a nested object; the totals agree with the session).',
      new Dup(...pairs, ['stats', new Dup(['total_interactions', 2], ['total_interactions', 2], ['total_tokens_input', 0],
                                          ['total_tokens_output', 0], ['total_latency_ms', 0])]));

  const surR = { 'i-json': 'invalid', ecmascript: 'valid', 'jcs-refuses': 'valid' };
  const sur = (id, d, file, h, extra = {}) =>
    case_({ id: `model-io-lone-surrogate-${id}`, d, file, v: F('MIO-E19', surR), errors: ['MIO-JSON-3'], reqs: ['MIO-JSON-3'],
            q: [Q.rfc8785_sur, Q.rfc7493_chars], parse: 'fails', json: ['MIO-JSON-3'], h, ...extra });
  const outside = { 'i-json': 'refused', ecmascript: 'hashed', 'jcs-refuses': 'hashed' };
  const inside = { 'i-json': 'refused', ecmascript: 'hashed', 'jcs-refuses': 'refused' };
  sur('high-unknown', 'An unknown member "x_note": "\\ud800" (a lone high surrogate).', session({ x_note: new Raw('"\\ud800"') }), outside);
  sur('low-unknown', 'An unknown member "x_note": "a\\udc00b" (a lone low surrogate).', session({ x_note: new Raw('"a\\udc00b"') }), outside);
  sur('reversed-unknown', 'An unknown member "x_note": "\\ude00\\ud83d" (a low surrogate before a high one).', session({ x_note: new Raw('"\\ude00\\ud83d"') }), outside);
  sur('in-name', 'An unknown member whose name is "x_\\ud800".', new Dup(...Object.entries(session()), [new Raw('"x_\\ud800"'), 1]), outside);
  // The content's response_hash is what node:crypto computes for the string: the lone surrogate
  // encoded as U+FFFD (EF BF BD), the hash a JavaScript recorder writes.
  sur('in-content', 'response_content "a\\udeadb"; response_hash is the SHA-256 that JavaScript computes (the surrogate encoded as U+FFFD).',
      session({}, [inter(0), inter(1, { response_content: new Raw('"a\\udeadb"'), response_hash: digest('a\ufffdb') })]), inside);
  sur('in-model-id', 'model_id "model-\\ud800".', session({ model_id: new Raw('"model-\\ud800"') }), inside);

  const num = (id, d, file, r, extra = {}) =>
    case_({ id: `model-io-${id}`, d, file, v: F('MIO-E20', r), errors: r['double-range'] === 'invalid' ? ['MIO-JSON-4'] : [],
            reqs: ['MIO-JSON-4'], q: [Q.rfc8785_num, Q.rfc8785_ijson], json: r['double-range'] === 'invalid' ? ['MIO-JSON-4'] : [],
            same: r['double-range'] === 'valid' ? 'model-io-minimal' : undefined, he: ['MIO-E28'], ...extra });
  const IVI = { 'double-range': 'invalid', ecmascript: 'valid', 'safe-integers': 'invalid' };
  const VVI = { 'double-range': 'valid', ecmascript: 'valid', 'safe-integers': 'invalid' };
  const withTokens = raw => session({}, [inter(0, { tokens_input: new Raw(raw) }), inter(1)]);
  num('latency-1e400', 'The first interaction\'s latency_ms is 1e400 (JSON.parse reads Infinity).',
      session({}, [inter(0, { latency_ms: new Raw('1e400') }), inter(1)]), IVI);
  num('latency-minus-1e400', 'The first interaction\'s latency_ms is -1e400.', session({}, [inter(0, { latency_ms: new Raw('-1e400') }), inter(1)]), IVI);
  num('tokens-past-max-double', 'tokens_input 1.7976931348623159e308, which rounds past the largest double.', withTokens('1.7976931348623159e308'), IVI);
  num('tokens-huge-integer', 'tokens_input 123456789012345678901234567890 (an integer beyond 2^53, within the doubles).',
      withTokens('123456789012345678901234567890'), VVI);
  num('tokens-2-pow-53-plus-1', 'tokens_input 9007199254740993 (2^53 + 1: not a double; reads as 2^53).', withTokens('9007199254740993'), VVI);
  const fine = (id, d, file) =>
    case_({ id: `model-io-${id}`, d, file, v: 'valid', reqs: ['MIO-JSON-4', 'MIO-INTERACTION-6'],
            q: [Q.rfc8785_num], e: ['MIO-E20'], same: 'model-io-minimal', hreqs: ['MI12'], hq: [Q.mi12b], he: ['MIO-E28'] });
  fine('tokens-max-double', 'tokens_input 1.7976931348623157e308 (the largest double).', withTokens('1.7976931348623157e308'));
  fine('tokens-rounds-to-max-double', 'tokens_input 1.7976931348623158e308 (rounds down to the largest double).',
       withTokens('1.7976931348623158e308'));
  fine('tokens-2-pow-53-minus-1', 'tokens_input 9007199254740991 (2^53 - 1).', withTokens('9007199254740991'));
  fine('tokens-exponent-forms', 'tokens_input written 1.5E+3, tokens_output -0.0 and latency_ms 5e-324 (the smallest double).',
       session({}, [inter(0, { tokens_input: new Raw('1.5E+3'), tokens_output: new Raw('-0.0'), latency_ms: new Raw('5e-324') }), inter(1)]));

  const nonR = { 'unicode-text': 'valid', 'i-json-strict': 'invalid' };
  const non = (id, d, content, raw) =>
    case_({ id: `model-io-noncharacter-${id}`, d, file: session({}, [inter(0), inter(1, { response_content: raw ? new Raw(raw) : content, response_hash: digest(content) })]),
            v: F('MIO-E29', nonR), errors: [], reqs: ['MIO-JSON-6', 'MI7'], q: [Q.rfc7493_chars, Q.i_content_doc] });
  non('uffff', 'response_content "a\uffffb" with U+FFFF written raw (EF BF BF).', 'a\uffffb');
  non('fdd0-escaped', 'response_content "a\\ufdd0b" (U+FDD0, escaped).', 'a\ufdd0b', '"a\\ufdd0b"');
  non('astral', 'response_content holding U+1FFFF written raw (F0 9F BF BF).', 'a\u{1FFFF}b');

  // Nesting depth, with the limit given in args (errata MIO-E27). The top-level object is depth 1.
  const nest = k => new Raw('['.repeat(k) + ']'.repeat(k));
  case_({ id: 'model-io-depth-at-limit', d: 'An unknown member holding 63 nested arrays: depth 64, with args.limits.max_json_depth 64.',
          file: session({ x_deep: nest(63) }), args: { limits: { max_json_depth: 64 } },
          v: F('MIO-E13', { open: 'valid', closed: 'invalid' }), errors: [], reqs: ['MIO-JSON-5', 'MIO-FIELDS-10'],
          q: [Q.rfc8259_depth, Q.v_minor], e: ['MIO-E27'], same: 'model-io-minimal', he: ['MIO-E28'] });
  case_({ id: 'model-io-depth-over-limit', d: 'An unknown member holding 64 nested arrays: depth 65, with args.limits.max_json_depth 64.',
          file: session({ x_deep: nest(64) }), args: { limits: { max_json_depth: 64 } },
          v: 'invalid', errors: ['MIO-JSON-5'], reqs: ['MIO-JSON-5'], q: [Q.rfc8259_depth], e: ['MIO-E27'],
          h: 'refused', parse: 'fails', json: ['MIO-JSON-5'], he: ['MIO-E27'], js: 'hashed' });
}

// --- Several violations (MI10: their order) ---------------------------------------------------------

function ordering() {
  const q = [Q.mi10a, Q.mi10];
  case_({ id: 'model-io-violations-several', d: 'adapter_id "", mode "Record", the second prompt_hash in uppercase and the second response_hash wrong.',
          file: session({ adapter_id: '', mode: 'Record' }, [inter(0), inter(1, { prompt_hash: PH(1).toUpperCase().replace('SHA256', 'sha256'), response_hash: digest('x') })]),
          v: 'invalid', errors: ['MI2', 'MI3', 'MI6', 'MI7'], reqs: ['MI10', 'MI2', 'MI3', 'MI6', 'MI7'], q: [...q, Q.mi2, Q.mi3, Q.mi6, Q.mi7], e: ['MIO-E5'] });
  case_({ id: 'model-io-violations-paths', d: 'Twelve interactions whose prompt_hash is malformed at i 2 and at i 10 (paths that sort differently as text and as numbers).',
          file: session({}, Array.from({ length: 12 }, (_, n) => inter(n, n === 2 || n === 10 ? { prompt_hash: PH(n).slice(0, -1) } : {}))),
          v: 'invalid', errors: ['MI6'], reqs: ['MI10', 'MI6'], q: [...q, Q.mi6a], e: ['MIO-E5'] });
  case_({ id: 'model-io-violations-mixed-ids', d: 'No model_id, created_at_utc a number, and the second interaction\'s i the string "1".',
          file: session({ model_id: DROP, created_at_utc: 0 }, [inter(0), inter(1, { i: '1' })]),
          v: 'invalid', errors: ['MI2', 'MI5', 'MIO-FIELDS-3', 'MIO-FIELDS-6', 'MIO-INTERACTION-2'],
          reqs: ['MI10'], q: [...q, Q.row_model, Q.row_created, Q.i_i], e: ['MIO-E5', 'MIO-E12'] });
}

// ------------------------------------------------------------------------------------------------
// Expectations and the manifest.

const OUTCOME = { hash: ['hashed', 'refused'], canonicalize: ['canonicalized', 'refused'] };

function spec_text(quotes, errata) {
  const es = [...new Set(errata)].sort((a, b) => Number(a.split('E').pop()) - Number(b.split('E').pop()));
  let t = quotes.join('; ');
  if (es.length) t += (t ? '; ' : '') + 'errata ' + es.join(', ');
  return t;
}

function op(requirements, quotes, errata, expect) {
  if (expect.flag) errata = [...errata, expect.flag];
  return { requirements: [...new Set(requirements)].sort(), spec_text: spec_text(quotes, errata), expect };
}

function acceptable(flag, outcomes) {
  const readings = expandedReadings(flag);
  const values = readings.map(r => outcomes[r]);
  if (values.some(x => x === undefined)) throw new Error(`${flag}: no outcome for a reading: ${JSON.stringify(outcomes)}`);
  if (new Set(values).size === 1) return { outcome: values[0] };
  return { flag, readings: Object.fromEntries(readings.map(r => [r, outcomes[r]])), arcs: arcsReading(flag) };
}

// The validate outcome of each expanded reading.
function validateOutcomes(c) {
  const f = FLAGS[c.v.flag];
  if (!f) throw new Error(`${c.id}: unknown flag ${c.v.flag}`);
  const out = {};
  for (const r of f.readings) {
    const o = c.v.r[r];
    if (o !== 'valid' && o !== 'invalid') throw new Error(`${c.id}: no validate outcome for ${r}`);
    if ((f.split || []).includes(r)) out[`${r}-valid-only`] = out[`${r}-as-coded`] = o;
    else out[r] = o;
  }
  return out;
}

// The hash expectation (in hash words: hashed/refused) of a case.
function hashExpectation(c) {
  if (c.h === 'refused') return { outcome: 'refused' };
  if (typeof c.v === 'string') {
    if (c.v === 'valid') return { outcome: 'hashed' };
    if ((c.asCoded || 'hashed') === 'refused') return { outcome: 'refused' };
    return acceptable('MIO-E4', { 'valid-only': 'refused', 'as-coded': 'hashed' });
  }
  const f = FLAGS[c.v.flag];
  const out = {};
  for (const r of f.readings) {
    const valid = c.v.r[r] === 'valid';
    const own = (c.h && c.h[r]) || (valid ? 'hashed' : 'refused');
    if ((f.split || []).includes(r)) {
      out[`${r}-valid-only`] = valid ? own : 'refused';
      out[`${r}-as-coded`] = valid ? own : (c.asCoded || 'hashed');
    } else {
      out[r] = own;
    }
  }
  return acceptable(c.v.flag, out);
}

function toWords(expect, kind) {
  const w = x => (x === 'hashed' ? OUTCOME[kind][0] : x);
  if (expect.outcome) return { outcome: w(expect.outcome) };
  return { flag: expect.flag, readings: Object.fromEntries(Object.entries(expect.readings).map(([r, o]) => [r, w(o)])),
           arcs: expect.arcs };
}

// The outcome the ARCS reading gives an expectation.
const arcsOutcome = e => (e.outcome ? e.outcome : e.readings[e.arcs]);

function buildCase(c) {
  const vExpect = typeof c.v === 'string' ? { outcome: c.v } : acceptable(c.v.flag, validateOutcomes(c));
  const validate = op([...(c.reqs || []), ...c.errors], c.q || [], c.e || [], vExpect);
  validate.rules = { errors: c.errors, warnings: [] };
  const hExpect = hashExpectation(c);
  const he = [...(c.he || [])];
  const hashOp = op([...HASH_REQS, ...(c.hreqs || [])], [...HASH_Q, ...(c.hq || [])], [...HASH_E, ...he], toWords(hExpect, 'hash'));
  if (c.same) hashOp.same_hash_as = c.same;
  const canonOp = op([...CANON_REQS, ...(c.hreqs || []).filter(r => r !== 'MIO-HASH-1')], [...CANON_Q, ...(c.hq || [])],
                     [...CANON_E, ...he], toWords(hExpect, 'canonicalize'));
  const out = { id: c.id, description: c.d, inputs: { file: `cases/${c.folder}/model_io.json` } };
  if (c.args) out.args = c.args;
  out.operations = { validate, hash: hashOp, canonicalize: canonOp };
  c.expect = { validate: vExpect, hash: hExpect };
  return out;
}

function build() {
  CASE_LIST.length = 0;
  examples(); mi1(); mi2mi3(); mi4(); mi5(); mi6(); mi7(); mi8mi9(); mi11(); mi12(); nulls(); timestamps();
  plausibility(); jsonText(); iJson(); ordering();
  const ids = new Set();
  const files = new Map();
  const cases = [];
  for (const c of CASE_LIST) {
    if (ids.has(c.id)) throw new Error('duplicate case id ' + c.id);
    ids.add(c.id);
    files.set(`${c.folder}/model_io.json`, c.bytes);
    cases.push(buildCase(c));
  }
  const parsed = { format: 'model-io', spec: 'model-io.md', spec_version: '1.0.0',
                   catalogue: 'conformance/model_io/requirements.json', errata: 'conformance/model_io/errata.md', cases };
  // One writer of manifests for every format (vectors/manifest_lib.py): it states each quotation
  // once and cites it by id; the checks below read the operations' spec_text as written here.
  // It also reports the quotations that are not in model-io.md (when found), one a line.
  const lib = spawnSync('python3', [path.join(HERE, '..', 'manifest_lib.py'), 'cite', 'model_io'],
                        { input: JSON.stringify(parsed), maxBuffer: 1 << 28 });
  if (lib.status !== 0 && lib.status !== 1) throw new Error(`manifest_lib.py: ${lib.stderr || lib.error}`);
  // Its own notes (a spec it did not find) are passed on as notes, not counted as problems.
  const said = lib.stderr.toString('utf8').split('\n').filter(Boolean);
  for (const note of said.filter((l) => l.startsWith('manifest_lib: '))) console.error(`note: ${note}`);
  const quoteProblems = said.filter((l) => !l.startsWith('manifest_lib: '));
  return { files, manifest: lib.stdout, parsed, quoteProblems };
}

// ------------------------------------------------------------------------------------------------
// Checks.

const HASH_RE = /^sha256:[a-f0-9]{64}$/;
const SEMVER_STRICT = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

// RFC 3339 date-time in UTC, the ARCS reading of "ISO 8601 UTC timestamp" (errata MIO-E15).
function isUtcTimestamp(s) {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|\+00:00)$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days[mo - 1] && h <= 23 && mi <= 59 && se <= 60;
}

// The invariants and field tables read literally (the ARCS readings of the errata), over the value
// JSON.parse gives: the rule ids the ARCS checker cites for a file whose JSON text is I-JSON.
function arcsRules(s) {
  const E = new Set();
  const isObj = x => typeof x === 'object' && x !== null && !Array.isArray(x);
  const isStr = x => typeof x === 'string';
  const isNum = x => typeof x === 'number';
  if (!isObj(s)) return ['MIO-JSON-1'];
  if (!isStr(s.model_io_schema_version)) E.add('MI1').add('MIO-FIELDS-1');
  else if (!SEMVER_STRICT.test(s.model_io_schema_version)) E.add('MI1');
  for (const [k, id] of [['adapter_id', 'MIO-FIELDS-2'], ['model_id', 'MIO-FIELDS-3']]) {
    if (!isStr(s[k])) E.add('MI2').add(id);
    else if (s[k] === '') E.add('MI2');
  }
  if (!isStr(s.mode)) E.add('MI3').add('MIO-FIELDS-4');
  else if (s.mode !== 'record' && s.mode !== 'replay') E.add('MI3');
  for (const [k, id] of [['created_at_utc', 'MIO-FIELDS-6'], ['ended_at_utc', 'MIO-FIELDS-7']]) {
    if (!(k in s)) continue;
    if (!isStr(s[k])) E.add(id);
    else if (!isUtcTimestamp(s[k])) E.add('MIO-FIELDS-9');
  }
  if ('stats' in s) {
    if (!isObj(s.stats)) E.add('MIO-FIELDS-8');
    else {
      ['total_interactions', 'total_tokens_input', 'total_tokens_output', 'total_latency_ms'].forEach((k, n) => {
        if (!isNum(s.stats[k])) E.add(`MIO-STATS-${n + 1}`);
      });
    }
  }
  if (!Array.isArray(s.interactions)) {
    E.add('MI4').add('MIO-FIELDS-5');
  } else {
    const list = s.interactions;
    if (list.length > 10000) E.add('MI4').add('MI11');
    let total = 0;
    let prev;
    const pairs = new Set();
    list.forEach((x, n) => {
      if (!isObj(x)) { E.add('MIO-INTERACTION-1'); return; }
      if (!isNum(x.i)) E.add('MI5').add('MIO-INTERACTION-2');
      else {
        if (x.i !== n) E.add('MI5');
        if (prev !== undefined && x.i < prev) E.add('MI9');
        prev = x.i;
      }
      if (!isStr(x.prompt_hash)) E.add('MI6').add('MIO-INTERACTION-3');
      else if (!HASH_RE.test(x.prompt_hash)) E.add('MI6');
      if (!isStr(x.response_hash)) E.add('MI7').add('MIO-INTERACTION-4');
      else if (!HASH_RE.test(x.response_hash)) E.add('MI7');
      if (!isStr(x.response_content)) E.add('MI7').add('MIO-INTERACTION-5');
      else {
        const bytes = Buffer.byteLength(x.response_content, 'utf8');
        if (bytes > 1000000) E.add('MI11');
        total += bytes;
        if (isStr(x.response_hash) && HASH_RE.test(x.response_hash) &&
            x.response_hash !== computeResponseHash(x.response_content)) E.add('MI7');
      }
      if (isStr(x.prompt_hash) && isNum(x.i)) {
        const key = `${x.prompt_hash} ${x.i}`;
        if (pairs.has(key)) E.add('MI8');
        pairs.add(key);
      }
      ['tokens_input', 'tokens_output', 'latency_ms'].forEach((k, m) => {
        if (k in x && !isNum(x[k])) E.add(`MIO-INTERACTION-${6 + m}`);
      });
    });
    if (total > 100000000) E.add('MI11');
  }
  return [...E].sort();
}

// What the spec's code does with the file under Node: 'hashed' or 'refused'.
function nodeOutcome(bytes) {
  try {
    computeModelIOHash(parseFile(bytes));
    return 'hashed';
  } catch (e) {
    if (String(e.message).includes('npm package canonicalize is not installed')) throw e;
    return 'refused';
  }
}

function checkAll(manifest) {
  const problems = [];
  const notes = [];
  const fail = (what) => problems.push(what);
  if (!fs.existsSync(SPEC)) notes.push(`${SPEC} not found: quotations not checked`);
  const byId = new Map(CASE_LIST.map(c => [c.id, c]));
  const haveNode = packageAvailable();
  if (!haveNode) notes.push('npm package canonicalize not installed: the spec\'s code was not run');
  for (const [k, m] of manifest.cases.entries()) {
    const c = CASE_LIST[k];
    const v = m.operations.validate;
    if ((arcsOutcome(v.expect) === 'invalid') !== (v.rules.errors.length > 0)) {
      fail(`${c.id}: the ARCS outcome ${arcsOutcome(v.expect)} disagrees with rules.errors ${JSON.stringify(v.rules.errors)}`);
    }
    if (c.bytes.length > 2 * 1024 * 1024) notes.push(`${c.id}: input of ${c.bytes.length} bytes (over 2 MiB)`);
    if (c.same) {
      const other = byId.get(c.same);
      if (!other) fail(`${c.id}: same_hash_as names no case: ${c.same}`);
      else if (arcsOutcome(other.expect.hash) !== 'hashed') {
        fail(`${c.id}: same_hash_as ${c.same}, but the reference does not hash ${c.same}`);
      } else if (arcsOutcome(c.expect.hash) !== 'hashed' &&
                 (!c.expect.hash.flag || nodeOutcome(c.bytes) !== 'hashed')) {
        // A session the reference refuses claims another's hash only where a reading hashes it
        // and the spec's code does (the judge then compares the hash that code computes).
        fail(`${c.id}: same_hash_as ${c.same}, but neither the reference nor the spec's code hashes it`);
      }
    }
    // The rules, against the literal reading.
    let expected;
    if (c.parse === 'fails') {
      expected = [...(c.json || [])].sort();
    } else {
      let value;
      try {
        value = parseFile(c.bytes);
      } catch (e) {
        fail(`${c.id}: JSON.parse refuses the input, but the case does not say parse: 'fails'`);
        continue;
      }
      expected = [...new Set([...arcsRules(value), ...(c.json || [])])].sort();
    }
    if (JSON.stringify(expected) !== JSON.stringify(c.errors)) {
      fail(`${c.id}: rules.errors ${JSON.stringify(c.errors)}, but the invariants read literally give ${JSON.stringify(expected)}`);
    }
    // The outcome of the spec's own code under Node.
    if (haveNode) {
      let want = c.js;
      if (!want) {
        if (typeof c.v === 'string') want = c.v === 'valid' ? 'hashed' : (c.asCoded || 'hashed');
        else if (FLAGS[c.v.flag].js) {
          const r = FLAGS[c.v.flag].js;
          const e = c.expect.hash;
          const name = (FLAGS[c.v.flag].split || []).includes(r) ? `${r}-as-coded` : r;
          want = e.outcome || e.readings[name];
        }
      }
      if (want) {
        const got = nodeOutcome(c.bytes);
        if (got !== want) fail(`${c.id}: the spec's code under Node gives ${got}, the case says ${want}`);
      }
      // same_hash_as: where the spec's code hashes both files, it gives both the same hash.
      const other = c.same && byId.get(c.same);
      if (other && nodeOutcome(c.bytes) === 'hashed' && nodeOutcome(other.bytes) === 'hashed') {
        const [a, b] = [c, other].map(x => computeModelIOHash(parseFile(x.bytes)));
        if (a !== b) fail(`${c.id}: same_hash_as ${c.same}, but the spec's code hashes them ${a} and ${b}`);
      }
    }
  }
  return { problems, notes };
}

// ------------------------------------------------------------------------------------------------

function writeOrCheck(files, manifest, check) {
  const differ = [];
  const wanted = new Set([...files.keys()].map(n => path.join(CASES, n)));
  const all = [...files.entries(), ['../manifest.json', manifest]];
  for (const [name, data] of all) {
    const p = path.normalize(path.join(CASES, name));
    if (check) {
      let have = null;
      try { have = fs.readFileSync(p); } catch (e) { /* missing */ }
      if (!have || !have.equals(data)) differ.push(name);
      continue;
    }
    fs.mkdirSync(path.dirname(p), { recursive: true });
    let same = false;
    try { same = fs.readFileSync(p).equals(data); } catch (e) { /* new */ }
    if (!same) fs.writeFileSync(p, data);
  }
  const walk = dir => (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap(
    d => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)])) : []);
  for (const p of walk(CASES)) {
    if (wanted.has(p)) continue;
    if (check) differ.push(path.relative(CASES, p) + ' (written by no case)');
    else fs.rmSync(p);
  }
  if (!check && fs.existsSync(CASES)) {
    for (const d of fs.readdirSync(CASES)) {
      const p = path.join(CASES, d);
      if (fs.statSync(p).isDirectory() && fs.readdirSync(p).length === 0) fs.rmdirSync(p);
    }
  }
  return differ;
}

function oracle(mode, file) {
  let session;
  try {
    session = parseFile(fs.readFileSync(file));
  } catch (e) {
    process.stderr.write(`${file}: not a JSON text: ${e.message}\n`);
    return 1;
  }
  try {
    if (mode === '--hash') process.stdout.write(computeModelIOHash(session) + '\n');
    else process.stdout.write(canonicalize(computeModelIOCore(session)));
  } catch (e) {
    process.stderr.write(`${file}: the spec's code fails: ${e.message}\n`);
    return 1;
  }
  return 0;
}

function main(argv) {
  if (argv[0] === '--hash' || argv[0] === '--canonical') {
    if (argv.length !== 2) {
      process.stderr.write(`usage: generate.mjs ${argv[0]} FILE\n`);
      return 2;
    }
    return oracle(argv[0], argv[1]);
  }
  const { files, manifest, parsed, quoteProblems } = build();
  if (argv[0] === '--hashes') {
    for (const c of CASE_LIST) {
      if (c.expect.hash.outcome === 'hashed') {
        process.stdout.write(`${c.id} ${computeModelIOHash(parseFile(c.bytes))}\n`);
      }
    }
    return 0;
  }
  if (argv[0] === '--flags') {
    const by = {};
    for (const c of parsed.cases) {
      for (const [name, o] of Object.entries(c.operations)) {
        if (!o.expect.flag) continue;
        ((by[o.expect.flag] ||= {})[c.id] ||= []).push(name);
      }
    }
    for (const f of Object.keys(by).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))) {
      process.stdout.write(`${f} (${expandedReadings(f).join(', ')})\n`);
      for (const [id, ops] of Object.entries(by[f])) process.stdout.write(`  ${id}: ${ops.join(', ')}\n`);
    }
    return 0;
  }
  const check = argv.includes('--check');
  const { problems, notes } = checkAll(parsed);
  problems.push(...quoteProblems);
  for (const n of notes) process.stdout.write('note: ' + n + '\n');
  for (const p of problems) process.stdout.write('FAIL: ' + p + '\n');
  const differ = writeOrCheck(files, manifest, check);
  for (const d of differ) process.stdout.write('differs from generate.mjs: cases/' + d + '\n');
  const total = [...files.values()].reduce((n, b) => n + b.length, 0);
  process.stdout.write(`${files.size} inputs (${total} bytes) and the manifest (${CASE_LIST.length} cases) ` +
                       `${check ? 'checked' : 'written'}, ${differ.length} differ, ${problems.length} problems\n`);
  return differ.length || problems.length ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
