// The Node side of the Model IO benchmark (bench.sh): what the spec's own code costs on a file.
// Reads FILE, JSON.parse, computeModelIOHash (testing/spec_code.mjs: the spec's code, the npm
// canonicalize, node:crypto), prints the hash and the milliseconds spent after the process
// started (process start excluded: the comparison is of the work, not of starting Node).
// usage: node node_model_io_hash.mjs FILE
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { computeModelIOHash } from '../testing/spec_code.mjs';

const start = performance.now();
const hash = computeModelIOHash(JSON.parse(readFileSync(process.argv[2], 'utf8')));
console.log(`${hash} ${(performance.now() - start).toFixed(1)}`);
