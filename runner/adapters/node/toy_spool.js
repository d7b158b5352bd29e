// A deliberately small Spool 1.0 implementation: the "library" the example adapter wraps.
//
// =====================================================================================
//   THIS IS THE PART YOU REPLACE. An implementer deletes this file and, in
//   arcs_adapter.js, calls their own Spool library instead. It exists only so that the
//   example adapter has something real to certify.
// =====================================================================================
//
// It is honest but incomplete, and ARCS says so: the cases it fails are listed in
// known-failures.txt next to it. It does what runner/adapters/python/toy_spool.py does, as far
// as plain JavaScript allows:
//
// validate(data, limits) -> {valid, findings}
//   Every line decodes as UTF-8, is JSON and is an object; the first line is a session entry
//   with ts 0 and a string version; every entry has a lowercase-UUID id, a non-negative integer
//   ts and a string type. CRLF and a missing final newline are allowed; a BOM, blank lines and
//   an empty file are not. Unlike the Python toy it cannot see a repeated member name
//   (JSON.parse keeps the last one silently), and it reads numbers as doubles.
//
// read(data, limits) -> entries, or throws Rejected
//   A tolerant reader: skips a leading BOM and blank lines, accepts CRLF. Its policies
//   (declared to the runner in the handshake, see POLICIES):
//     invalid_line  = reject  a line that is not a JSON object rejects the file
//     invalid_entry = keep    entries breaking entry rules are read as they are
//     major_version = accept  the version is not looked at
//   An empty file, or a first entry that is not a session, is rejected.
//
// write(entries) -> Buffer
//   One JSON.stringify'd object per line, LF, UTF-8. Repeated member names are lost and numbers
//   beyond a double's precision change, so a few round trips fail: that is expected.
//
// Limits: max_file_bytes, max_line_bytes and max_entries are honoured; others are not
// configurable here (LIMITS), and the adapter answers "skipped" for cases that set them.
'use strict';

const POLICIES = { invalid_line: 'reject', invalid_entry: 'keep', major_version: 'accept' };
const LIMITS = new Set(['max_file_bytes', 'max_line_bytes', 'max_entries']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class Rejected extends Error {
  // The reader refuses the file: .rule is the catalogue rule id, .message says why.
  constructor(rule, message) {
    super(message);
    this.rule = rule;
  }
}

class BadLine extends Error {
  constructor(rule, message) {
    super(message);
    this.rule = rule;
  }
}

function hasBom(data) {
  return data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf;
}

// Buffer of one line (no line ending) -> object, or throws BadLine.
function parseLine(raw) {
  let text;
  try {
    text = utf8.decode(raw);
  } catch (error) {
    throw new BadLine('SP-3.4-1', 'not UTF-8');
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadLine('SP-3.6-1', 'not JSON: ' + error.message);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadLine('SP-3.6-1', 'not a JSON object');
  }
  return value;
}

// Buffer -> [[line number, Buffer without \n or \r\n]]. A final \n ends the last line.
function splitLines(data) {
  const lines = [];
  let start = 0;
  while (start < data.length) {
    let end = data.indexOf(0x0a, start);
    const next = end === -1 ? data.length : end + 1;
    if (end === -1) end = data.length;
    if (end > start && data[end - 1] === 0x0d) end -= 1;
    lines.push([lines.length + 1, data.subarray(start, end)]);
    start = next;
  }
  return lines;
}

function isBlank(line) {
  return line.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);
}

// [rule, message] of the first limit the input exceeds, or null.
function overLimits(size, lines, limits) {
  const limit = (name, fallback) => (name in limits ? limits[name] : fallback);
  if (size > limit('max_file_bytes', 16 * 2 ** 30)) {
    return ['SP-10.1-1', 'file larger than max_file_bytes'];
  }
  const maxLine = limit('max_line_bytes', 64 * 2 ** 20);
  if (lines.some(([, line]) => line.length > maxLine)) {
    return ['SP-10.1-2', 'line longer than max_line_bytes'];
  }
  if (lines.filter(([, line]) => !isBlank(line)).length > limit('max_entries', 1e8)) {
    return ['SP-10.1-3', 'more entries than max_entries'];
  }
  return null;
}

function validate(data, limits) {
  const findings = [];
  const error = (rule, line, message) => {
    const finding = { rule, severity: 'error', line, message };
    if (line === null) delete finding.line;
    findings.push(finding);
  };
  const size = data.length; // a BOM included
  if (hasBom(data)) {
    error('SP-3.4-1', 1, 'the file starts with a byte order mark');
    data = data.subarray(3);
  }
  let lines = splitLines(data);
  const over = overLimits(size, lines, limits);
  if (over) {
    error(over[0], null, over[1]);
    lines = [];
  } else if (lines.every(([, line]) => isBlank(line))) {
    error('SP-4.3-1', null, 'no entries');
  }
  let first = true;
  for (const [number, line] of lines) {
    if (isBlank(line)) {
      error('SP-3.6-1', number, 'blank line');
      continue;
    }
    let entry;
    try {
      entry = parseLine(line);
    } catch (bad) {
      if (!(bad instanceof BadLine)) throw bad;
      error(bad.rule, number, bad.message);
      first = false;
      continue;
    }
    if (!('id' in entry)) error('SP-5.1-1', number, 'no id');
    else if (typeof entry.id !== 'string' || !UUID.test(entry.id)) {
      error('SP-5.1-2', number, 'id is not a lowercase UUID');
    }
    if (!Number.isInteger(entry.ts)) error('SP-5.2-1', number, 'ts is missing or not an integer');
    else if (entry.ts < 0) error('SP-5.2-2', number, 'ts is negative');
    if (typeof entry.type !== 'string') {
      error('SP-5.3-1', number, 'type is missing or not a string');
    }
    if (first) {
      if (entry.type !== 'session') {
        error('SP-4.1-1', number, 'the first entry is not a session entry');
      } else {
        if (entry.ts !== 0) error('SP-6.1-3', number, "the session entry's ts is not 0");
        if (typeof entry.version !== 'string') {
          error('SP-6.1-2', number, 'the session entry has no string version');
        }
      }
    }
    first = false;
  }
  return { valid: findings.length === 0, findings };
}

function read(data, limits) {
  const size = data.length;
  if (hasBom(data)) data = data.subarray(3);
  const lines = splitLines(data);
  const over = overLimits(size, lines, limits);
  if (over) throw new Rejected(over[0], over[1]);
  const entries = [];
  for (const [number, line] of lines) {
    if (isBlank(line)) continue;
    try {
      entries.push(parseLine(line));
    } catch (bad) {
      if (!(bad instanceof BadLine)) throw bad;
      throw new Rejected(bad.rule, `line ${number}: ${bad.message}`); // invalid_line: reject
    }
  }
  if (entries.length === 0) throw new Rejected('SP-4.3-1', 'no entries');
  if (entries[0].type !== 'session') {
    throw new Rejected('SP-4.1-1', 'the first entry is not a session entry');
  }
  return entries; // invalid_entry: keep; major_version: accept
}

function write(entries) {
  return Buffer.from(entries.map((entry) => JSON.stringify(entry) + '\n').join(''), 'utf8');
}

module.exports = { POLICIES, LIMITS, Rejected, validate, read, write };
