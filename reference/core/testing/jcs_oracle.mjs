// The Node oracle for canonical::Jcs (reference/core/canonical.h), RFC 8785: generates awkward
// JSON texts (doubles across the whole range in many spellings, strings with every escape class,
// astral and U+E000..U+FFFF characters, keys that sort differently by code point and by UTF-16
// unit, integer-like keys, nesting), hands them to the C++ tool one per line, and requires, line
// by line, exactly the bytes of two independent canonicalizations of JSON.parse(text): the npm
// package `canonicalize` (tools/node, pinned) and JSON.stringify of each scalar inside objects
// written in key-sorted order. Also checks RFC 8785 Appendix B's number samples, and every *.json
// file under the PATH arguments (a format's vectors): a file Node cannot canonicalize as RFC 8785
// asks (not UTF-8, not JSON, a lone surrogate, a repeated name, a number beyond the doubles) must
// be refused by the tool.
//
// usage: node jcs_oracle.mjs TOOL [COUNT] [PATH...]   (TOOL is arcs_canonical; it is run as
// `TOOL jcs`)
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../tools/node/package.json'));
const canonicalize = require('canonicalize');

// RFC 8785 Appendix B: IEEE 754 binary64 bit patterns and their serializations.
const APPENDIX_B = [
  ['0000000000000000', '0'], ['8000000000000000', '0'], ['0000000000000001', '5e-324'],
  ['8000000000000001', '-5e-324'], ['7fefffffffffffff', '1.7976931348623157e+308'],
  ['ffefffffffffffff', '-1.7976931348623157e+308'], ['4340000000000000', '9007199254740992'],
  ['c340000000000000', '-9007199254740992'], ['4430000000000000', '295147905179352830000'],
  ['44b52d02c7e14af5', '9.999999999999997e+22'], ['44b52d02c7e14af6', '1e+23'],
  ['44b52d02c7e14af7', '1.0000000000000001e+23'], ['444b1ae4d6e2ef4e', '999999999999999700000'],
  ['444b1ae4d6e2ef4f', '999999999999999900000'], ['444b1ae4d6e2ef50', '1e+21'],
  ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'], ['3eb0c6f7a0b5ed8d', '0.000001'],
  ['41b3de4355555553', '333333333.3333332'], ['41b3de4355555554', '333333333.33333325'],
  ['41b3de4355555555', '333333333.3333333'], ['41b3de4355555556', '333333333.3333334'],
  ['41b3de4355555557', '333333333.33333343'], ['becbf647612f3696', '-0.0000033333333333333333'],
  ['43143ff3c1cb0959', '1424953923781206.2'],
];

// xorshift128+, seeded: the same values every run.
let s0 = 0x9e3779b97f4a7c15n, s1 = 0xbf58476d1ce4e5b9n;
const MASK = (1n << 64n) - 1n;
function next64() {
  let x = s0; const y = s1;
  s0 = y; x ^= (x << 23n) & MASK; s1 = x ^ y ^ (x >> 17n) ^ (y >> 26n);
  return (s1 + y) & MASK;
}
const below = (n) => Number(next64() % BigInt(n));
const pick = (items) => items[below(items.length)];

const view = new DataView(new ArrayBuffer(8));
function fromBits(bits) { view.setBigUint64(0, bits); return view.getFloat64(0); }

// Spellings JSON allows for one double; each reads back as the same double.
function spellDouble(x) {
  const forms = [JSON.stringify(x), x.toExponential(), x.toExponential(20), x.toPrecision(17),
    x.toPrecision(21)];
  return forms[below(forms.length)].replace('+', below(2) ? '+' : '').replace(/^(-?)0+(\d)/, '$1$2');
}

function randomDouble() {
  switch (below(4)) {
    case 0: {  // any finite bit pattern: subnormals to the largest
      for (;;) { const x = fromBits(next64()); if (Number.isFinite(x)) return spellDouble(x); }
    }
    case 1:  // decimal exponents around ECMAScript's switch to exponent form (1e-7, 1e21)
      return spellDouble(fromBits(next64() & 0x800fffffffffffffn | BigInt(1000 + below(140)) << 52n));
    case 2: {  // a decimal text of many digits, read to the nearest double
      const digits = Array.from({ length: 1 + below(30) }, () => below(10)).join('');
      return `${below(2) ? '-' : ''}${digits.replace(/^0+(?=\d)/, '')}e${below(80) - 40}`;
    }
    default:
      return pick(['0', '-0', '0.0', '-0.0', '1e-400', '-1e-400', '9007199254740993', '1E2',
        '123456789012345678901234567890', '0.1', '1e21', '1e-7', '100e-9', '5e-324', '2.5e-324']);
  }
}

const CHARS = ['a', 'b', 'Z', '_', ' ', '0', '9', '1', 'é', '\u00ff', '\u0100', '\u2028', '\u2029',
  '\x7f', '\x00', '\x01', '\x1f', '"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\ufeff',
  '\ud7ff', '\ue000', '\uffff', '\ufffd', '\u{10000}', '\u{1f600}', '\u{10ffff}', '中'];

// A JSON string literal of s, each character raw or escaped at random (\u escapes of surrogate
// pairs included) where JSON allows the choice.
function spellString(s) {
  let out = '"';
  for (const ch of s) {
    const plain = JSON.stringify(ch).slice(1, -1);
    if (below(3) === 0) {
      for (let i = 0; i < ch.length; i++) out += '\\u' + ch.charCodeAt(i).toString(16).padStart(4, '0');
    } else {
      out += ch === '/' && below(2) ? '\\/' : plain;
    }
  }
  return out + '"';
}
const randomString = (max) => Array.from({ length: below(max + 1) }, () => pick(CHARS)).join('');

// Keys whose code point order and UTF-16 order differ, integer-like keys JavaScript enumerates
// first, and prefixes of each other.
const KEYS = ['', 'a', 'ab', 'b', 'A', '10', '9', '1', '01', '\ue000', '\uffff', '\u{10000}',
  '\u{1f600}', '\u{1f600}a', '\ufb01', 'é', 'e\u0301', '\u2028', '\x00', '\n'];

function randomValue(depth) {
  const kind = below(depth > 3 ? 4 : 7);
  if (kind === 0) return randomDouble();
  if (kind === 1) return spellString(randomString(6));
  if (kind === 2) return pick(['true', 'false', 'null']);
  if (kind === 3) return spellString(pick(KEYS));
  if (kind === 4) {
    return '[' + Array.from({ length: below(5) }, () => randomValue(depth + 1)).join(',') + ']';
  }
  const keys = [...new Set(Array.from({ length: below(7) }, () =>
    below(3) ? pick(KEYS) : randomString(3)))];
  return '{' + keys.map((k) => spellString(k) + (below(2) ? ':' : ' : ') + randomValue(depth + 1))
    .join(',') + '}';
}

// Whether a valid JSON text repeats a member name in some object.
function hasRepeatedName(text) {
  const stack = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        const name = JSON.parse(text.slice(i, j + 1));
        const names = stack[stack.length - 1];
        if (names.has(name)) return true;
        names.add(name);
        expectKey = false;
      }
      i = j;
    } else if (c === '{') { stack.push(new Set()); expectKey = true; }
    else if (c === '[') stack.push(null);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') expectKey = stack[stack.length - 1] instanceof Set;
  }
  return false;
}

const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// Why RFC 8785 has no canonical form for a parsed value, or '' when it has one.
function noCanonicalForm(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? '' : 'a number beyond the doubles';
  if (typeof value === 'string') return LONE.test(value) ? 'a lone surrogate' : '';
  if (value === null || typeof value !== 'object') return '';
  for (const [k, v] of Object.entries(value)) {
    const why = (LONE.test(k) ? 'a lone surrogate' : '') || noCanonicalForm(v);
    if (why) return why;
  }
  return '';
}

// The second canonicalization: JSON.stringify for scalars, members in sorted key order.
function sortedStringify(value) {
  if (Array.isArray(value)) return '[' + value.map(sortedStringify).join(',') + ']';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' +
    sortedStringify(value[k])).join(',') + '}';
}

function vectorFiles(paths) {
  const files = [];
  const walk = (p) => {
    if (statSync(p).isDirectory()) readdirSync(p).sort().forEach((n) => walk(join(p, n)));
    else if (p.endsWith('.json')) files.push(p);
  };
  paths.forEach(walk);
  return files;
}

const [tool, countArg, ...paths] = process.argv.slice(2);
const count = Number(countArg ?? 100000);
const lines = [];  // {text: Buffer, expect: string | null (refused), why}
const failures = [];

for (const [hex, expected] of APPENDIX_B) {
  const x = fromBits(BigInt('0x' + hex));
  if (canonicalize(x) !== expected) failures.push(`npm canonicalize: ${hex} gave ${canonicalize(x)}`);
  lines.push({ text: Buffer.from(x.toExponential(20)), expect: expected, why: `RFC 8785 ${hex}` });
}
// One value in a hundred is put beside what RFC 8785 refuses (I-JSON, RFC 7493): a number beyond
// the doubles, a lone surrogate, a repeated name.
const REFUSED = ['[%, 1e400]', '[-1E+999, %]', '["\\ud800", %]', '{"x": %, "\\udc00": 1}',
  '{"a": 1, "a": %}', '{"\\u0061": %, "a": 2}', '[{"k": %, "\\ud83d\\ude00": 1, "😀": 2}]'];
for (let i = 0; i < count; i++) {
  const text = i % 100 === 99 ? pick(REFUSED).replace('%', randomValue(1)) : randomValue(0);
  const value = JSON.parse(text);
  const why = noCanonicalForm(value) || (hasRepeatedName(text) ? 'a repeated name' : '');
  const npm = why ? null : canonicalize(value);
  if (!why && npm !== sortedStringify(value)) {
    failures.push(`the two Node canonicalizations differ on ${text}`);
  }
  lines.push({ text: Buffer.from(text), expect: npm, why: why || text });
}
// fatal: ill-formed UTF-8 throws; ignoreBOM: a BOM is kept, so that JSON.parse sees (and refuses) it.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
for (const file of vectorFiles(paths)) {
  const bytes = readFileSync(file).map((b) => (b === 0x0a || b === 0x0d ? 0x20 : b));
  let expect = null, why = file;
  try {
    const text = strict.decode(bytes);
    const value = JSON.parse(text);
    if (!noCanonicalForm(value) && !hasRepeatedName(text)) expect = canonicalize(value);
  } catch { /* not UTF-8 or not JSON: refused */ }
  lines.push({ text: bytes, expect, why });
}

const input = Buffer.concat(lines.flatMap((l) => [l.text, Buffer.from('\n')]));
const run = spawnSync(tool, ['jcs'], { input, maxBuffer: 1 << 30 });
if (run.status !== 0) {
  console.error(`${tool} jcs exited with ${run.status}: ${run.stderr}`);
  process.exit(1);
}
const outputs = run.stdout.toString('utf8').split('\n');
lines.forEach((line, i) => {
  const ours = outputs[i];
  const ok = line.expect === null ? ours.startsWith('ERROR ') : ours === line.expect;
  if (!ok && failures.length < 20) {
    failures.push(`${line.why}\n  input ${line.text.toString().slice(0, 200)}\n  node  ${line.expect}\n  ours  ${ours}`);
  }
});
const refused = lines.filter((l) => l.expect === null).length;
console.log(`jcs oracle: ${lines.length} values (${APPENDIX_B.length} RFC 8785 samples, ${count} generated, ` +
  `${lines.length - APPENDIX_B.length - count} vector files), ${refused} refused by both, ` +
  `${failures.length} mismatches`);
failures.forEach((f) => console.log('MISMATCH ' + f));
process.exit(failures.length ? 1 : 0);
