// model-io.md's own code, run in Node: §4.3 computeModelIOCore, §4.4 computeModelIOHash and §4.5
// computeResponseHash as the spec writes them, with canonicalize() from the pinned npm package canonicalize (RFC 8785,
// tools/node) and sha256() from node:crypto (UTF-8, lowercase hex). The oracle test and the
// benchmark and the vector generator run it; it is never the code under test.
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '../../../tools/node/package.json'));

// The npm package, loaded on first use: a caller that can do without it (generate.mjs writing the
// vectors) still imports this module where tools/setup.sh has not installed it.
let npmCanonicalize;
export function canonicalize(value) {
  npmCanonicalize ??= require('canonicalize');
  return npmCanonicalize(value);
}

const sha256 = (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

export function computeModelIOCore(session) {
  return {
    model_io_schema_version: session.model_io_schema_version,
    adapter_id: session.adapter_id,
    model_id: session.model_id,
    mode: session.mode,
    interactions: session.interactions
      .map((interaction) => ({
        i: interaction.i,
        prompt_hash: interaction.prompt_hash,
        response_hash: interaction.response_hash,
        response_content: interaction.response_content,
      }))
      .sort((a, b) => a.i - b.i),
  };
}

export function computeModelIOHash(session) {
  const core = computeModelIOCore(session);
  const canonical = canonicalize(core);
  return `sha256:${sha256(canonical)}`;
}

export function computeResponseHash(response_content) {
  return `sha256:${sha256(response_content)}`;
}
