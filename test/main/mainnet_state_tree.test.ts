import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { closeDatabases, openDatabases } from '../../src/storage/database.js';
import { cliPath } from '../helpers/cli.js';
import { httpRPC, waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

interface Started {
  child: ChildProcess;
  lines: string[];
  port: number;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** `kestrel start -n mainnet` on `dataPath`: RPC over HTTP (system and state) and P2P on 127.0.0.1, no seed peers. */
const startMainnet = async (dataPath: string, onLine: (line: string, child: ChildProcess) => void = () => {}) => {
  const port = await freePort();
  const overlay = join(dataPath, 'test-overlay.json');
  writeFileSync(
    overlay,
    JSON.stringify({
      rpc: { modes: ['http'], host: '127.0.0.1', port, allowedMethods: ['system', 'state'] },
      network: { host: '127.0.0.1', port: await freePort(), seedPeers: [] },
    }),
  );
  const child = spawn(
    process.execPath,
    [cliPath, 'start', '-n', 'mainnet', '-d', dataPath, '-c', overlay, '--log-format', 'json', '-l', 'info'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const lines: string[] = [];
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    lines.push(line);
    onLine(line, child);
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, lines, port, exited } satisfies Started;
};

const logged = (lines: readonly string[], text: string): number => lines.findIndex((l) => l.includes(text));

const BUILDING = 'Building the state tree';
const BUILT = 'State tree built';

describe("a first start on mainnet's preset: the genesis state committed before its tree, built in a thread", () => {
  it('kill -9 while the tree is built: the restart builds it again without processing the genesis block, before P2P; a state that does not give the header root stops the node', async () => {
    const dataPath = tempDataPath();
    // killed as soon as the node says it builds the tree (about a second of work in its thread)
    const first = await startMainnet(dataPath, (line, child) => {
      if (line.includes(BUILDING)) child.kill('SIGKILL');
    });
    const [, signal] = await first.exited;
    assert.equal(signal, 'SIGKILL', first.lines.slice(-5).join('\n'));
    assert.ok(logged(first.lines, 'Processing the genesis block') >= 0);
    assert.equal(logged(first.lines, BUILT), -1, 'killed before the tree was built');

    // a copy whose committed state is changed: its tree cannot give the header's root
    const tampered = tempDataPath();
    cpSync(dataPath, tampered, { recursive: true });

    const restart = await startMainnet(dataPath);
    try {
      await waitUntil(
        'the restarted node answers',
        async () => (await httpRPC(restart.port, 'system_getNodeInfo')) !== undefined,
      );
      await waitUntil('the tree is built', async () => logged(restart.lines, BUILT) >= 0);
      await waitUntil('P2P listens', async () => logged(restart.lines, 'P2P server listening') >= 0);
      assert.equal(logged(restart.lines, 'Processing the genesis block'), -1, 'the committed genesis block is kept');
      assert.ok(logged(restart.lines, BUILDING) >= 0);
      assert.ok(logged(restart.lines, BUILT) < logged(restart.lines, 'P2P server listening'), 'P2P waits for the tree');
      // a proof reads the tree the thread stored: a state tree key of no account (non-inclusion) against the genesis root
      const proof = (await httpRPC(restart.port, 'state_prove', {
        queryKeys: [Buffer.concat([Buffer.from('000000010000', 'hex'), Buffer.alloc(32)]).toString('hex')],
      })) as { proof: { queries: unknown[]; siblingHashes: string[] } } | undefined;
      assert.equal(proof?.proof.queries.length, 1);
      assert.ok((proof?.proof.siblingHashes.length ?? 0) > 0);
    } finally {
      restart.child.kill('SIGTERM');
      assert.deepEqual(await restart.exited, [0, null]);
    }

    const dbs = openDatabases(tampered);
    const [key] = [...dbs.state.getKeys({ limit: 1 })].map((k) => Buffer.from(k));
    dbs.root.transactionSync(() => dbs.state.putSync(key as Buffer, Buffer.from('changed')));
    await closeDatabases(dbs);
    const bad = await startMainnet(tampered);
    const [code] = await bad.exited;
    assert.equal(code, 1);
    const fatal = bad.lines.find((l) => l.includes('"level":60'));
    assert.match(fatal ?? '', /gives the state root [0-9a-f]{64}, not [0-9a-f]{64} as its block header says/);
    assert.equal(logged(bad.lines, 'P2P server listening'), -1);
  });
});
