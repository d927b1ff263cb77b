import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { missingNodeFlags, NODE_FLAGS } from '../../src/main/node_flags.js';

describe("Kestrel's Node.js flags", () => {
  it('are missing unless given on the command line or in NODE_OPTIONS, whatever their value', () => {
    assert.deepEqual(missingNodeFlags([], ''), [...NODE_FLAGS]);
    assert.deepEqual(missingNodeFlags(['--max-semi-space-size=64'], ''), []);
    assert.deepEqual(missingNodeFlags(['--max-semi-space-size=128'], ''), [], "an operator's own value stands");
    assert.deepEqual(missingNodeFlags([], '--enable-source-maps  --max-semi-space-size=32'), []);
    assert.deepEqual(missingNodeFlags(['--enable-source-maps'], '--max-old-space-size=4096'), [...NODE_FLAGS]);
  });

  it('are what the kestrel command and npm start run with', () => {
    const cli = readFileSync(fileURLToPath(new URL('../../src/main/cli.js', import.meta.url)), 'utf8');
    assert.equal(cli.split('\n')[0], `#!/usr/bin/env -S node ${NODE_FLAGS.join(' ')}`);
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8'),
    ) as { scripts: Record<string, string> };
    assert.ok(manifest.scripts.start?.startsWith(`node ${NODE_FLAGS.join(' ')} `), manifest.scripts.start);
    assert.ok(manifest.scripts.bench?.startsWith(`node ${NODE_FLAGS.join(' ')} `), manifest.scripts.bench);
  });
});
