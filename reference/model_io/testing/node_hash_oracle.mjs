// The Node oracle for reference/model_io's ModelIOHash: for every model_io.json under the PATH
// arguments (the Model IO vectors), the spec's own computeModelIOCore and computeModelIOHash
// (model-io.md §4.3, §4.4) run in Node with the npm package canonicalize (RFC 8785, tools/node)
// and node:crypto, and the reference's hash (TOOL, arcs_model_io_hash) must be the same, byte for
// byte, wherever the reference computes one. Where it refuses, the file must break the spec for a
// reason Node can see too: not UTF-8 JSON, a repeated name, a lone surrogate, a number beyond the
// doubles, or a session the reference's validator finds invalid (counted, not compared).
//
// usage: node node_hash_oracle.mjs TOOL PATH...
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { computeModelIOHash } from './spec_code.mjs';

function files(paths) {
  const out = [];
  const walk = (p) => {
    if (statSync(p).isDirectory()) readdirSync(p).sort().forEach((n) => walk(join(p, n)));
    else if (p.endsWith('.json')) out.push(p);
  };
  paths.forEach(walk);
  return out;
}

const [tool, ...paths] = process.argv.slice(2);
const list = files(paths);
const ours = execFileSync(tool, list, { maxBuffer: 1 << 26 }).toString().split('\n');
// fatal: ill-formed UTF-8 throws; ignoreBOM: a BOM is kept, so that JSON.parse sees (and refuses) it.
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
let compared = 0, refused = 0;
const mismatches = [];
list.forEach((file, k) => {
  let node;
  try {
    node = computeModelIOHash(JSON.parse(strict.decode(readFileSync(file))));
  } catch (e) {
    node = `error: ${e.message}`;
  }
  if (ours[k] === 'REFUSED') {
    refused++;
  } else {
    compared++;
    if (ours[k] !== node) mismatches.push(`${file}\n  node ${node}\n  ours ${ours[k]}`);
  }
});
console.log(`model-io hash oracle: ${list.length} files, ${compared} hashes compared with Node, ` +
  `${refused} refused by the reference, ${mismatches.length} mismatches`);
mismatches.slice(0, 20).forEach((m) => console.log('MISMATCH ' + m));
process.exit(mismatches.length || compared === 0 ? 1 : 0);
