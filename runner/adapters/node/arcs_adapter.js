#!/usr/bin/env node
// An ARCS protocol adapter (runner/PROTOCOL.md, protocol 2), Node with no npm dependencies.
//
//     build/arcs run --impl 'node runner/adapters/node/arcs_adapter.js'
//
// Reads one JSON request per line on stdin, writes one JSON answer per line on stdout, logs to
// stderr. To certify your own Spool library: copy this file, replace `toy_spool` below with your
// library, adjust IMPLEMENTATION, FORMATS and the two handlers. The loop at the bottom stays.
//
// A case carries named inputs (base64 on the wire; Spool has one, "file") and an optional args
// object whose meaning is the format's (Spool: args.limits). A handler receives the inputs decoded
// to Buffers and the args, and returns the answer's members; outputs (Spool roundtrip: "file") are
// returned as Buffers and encoded by the loop.
'use strict';

const readline = require('readline');
const toySpool = require('./toy_spool.js'); // <-- REPLACE: require your own library here.

const IMPLEMENTATION = { // <-- REPLACE: your implementation's identity.
  name: 'toy-spool-node',
  version: '0.1',
  language: 'JavaScript (Node.js)',
  homepage: 'runner/adapters/node', // a URL for a real implementation
};
const FORMATS = { spool: { operations: ['validate', 'roundtrip'], policies: toySpool.POLICIES } };

// Thrown by a handler that does not do this case: answered as status "skipped".
class Skip extends Error {}

// Spool's args: only "limits" (name -> integer). Anything this toy cannot honour is a skip.
function spoolLimits(args) {
  const unknown = Object.keys(args).filter((name) => name !== 'limits').sort();
  if (unknown.length > 0) throw new Skip('args not supported: ' + unknown.join(', '));
  const limits = args.limits || {};
  const unsupported = Object.keys(limits).filter((name) => !toySpool.LIMITS.has(name)).sort();
  if (unsupported.length > 0) throw new Skip('limits not configurable: ' + unsupported.join(', '));
  return limits;
}

// Handlers: (inputs {name: Buffer}, args object) -> the answer's members, with outputs as
// {name: Buffer}. Throw Skip to skip; anything else thrown becomes status "errored" with its
// message.  <-- REPLACE the toy calls.
function spoolValidate(inputs, args) {
  const limits = spoolLimits(args);
  const { valid, findings } = toySpool.validate(inputs.file, limits);
  return { verdict: valid ? 'valid' : 'invalid', findings };
}

function spoolRoundtrip(inputs, args) {
  const limits = spoolLimits(args);
  let entries;
  try {
    entries = toySpool.read(inputs.file, limits);
  } catch (error) {
    if (!(error instanceof toySpool.Rejected)) throw error;
    return { verdict: 'invalid', findings: [{ rule: error.rule, message: error.message }] };
  }
  return { verdict: 'valid', outputs: { file: toySpool.write(entries) } };
}

const HANDLERS = { 'spool/validate': spoolValidate, 'spool/roundtrip': spoolRoundtrip };

// ---- the protocol loop: nothing below needs changing ------------------------------------------
const PROTOCOL = 2; // the runner protocol version this loop speaks (runner/PROTOCOL.md)

// {name: base64} -> {name: Buffer}, and back (fromEntries: a name such as "__proto__" stays an
// ordinary member).
function decodeAll(named) {
  return Object.fromEntries(Object.entries(named).map(([name, value]) => {
    if (typeof value !== 'string') throw new TypeError(`input ${name} is not a base64 string`);
    return [name, Buffer.from(value, 'base64')];
  }));
}

function encodeAll(named) {
  return Object.fromEntries(Object.entries(named).map(([name, bytes]) => [
    name, Buffer.from(bytes).toString('base64')]));
}

// One line out; waits for 'drain' when the pipe is full, so no answer is lost or reordered.
function send(message) {
  return new Promise((resolve) => {
    if (process.stdout.write(JSON.stringify(message) + '\n')) resolve();
    else process.stdout.once('drain', resolve);
  });
}

// Any error text as well-formed Unicode (a lone surrogate would make the answer unreadable).
function text(value) {
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
  return String(value).replace(lone, '\ufffd');
}

function answer(request) {
  const handler = HANDLERS[`${request.format}/${request.operation}`];
  if (!handler) return { status: 'skipped', reason: 'operation not supported' };
  try {
    if (typeof request.inputs !== 'object' || request.inputs === null) {
      throw new TypeError('the case has no inputs object');
    }
    const members = handler(decodeAll(request.inputs), request.args || {});
    if (members.outputs) members.outputs = encodeAll(members.outputs);
    return { status: 'ok', ...members };
  } catch (error) {
    if (error instanceof Skip) return { status: 'skipped', reason: text(error.message) };
    const message = error instanceof Error ? `${error.name}: ${error.message}` : error;
    return { status: 'errored', message: text(message) };
  }
}

async function main() {
  process.stdout.on('error', () => process.exit(0)); // the runner went away: nothing to say
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    const request = JSON.parse(line);
    if (request.type === 'hello') {
      await send({ type: 'hello', protocol: PROTOCOL, implementation: IMPLEMENTATION,
        formats: FORMATS });
    } else if (request.type === 'case') {
      await send({ type: 'result', id: request.id, ...answer(request) });
    } else if (request.type === 'shutdown') {
      break;
    } else {
      process.stderr.write(`arcs_adapter: ignoring a ${JSON.stringify(request.type)} message\n`);
    }
  }
  lines.close();
  process.stdin.destroy(); // shutdown or end of input: exit 0 once stdout is flushed
}

main().catch((error) => {
  process.stderr.write(`arcs_adapter: ${error && error.stack ? error.stack : error}\n`);
  process.exitCode = 1;
  process.stdin.destroy();
});
