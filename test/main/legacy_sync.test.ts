// Legacy sync between two Kestrel nodes over P2P: A holds a generated legacy chain (a bracket it
// synced before), B starts with `legacy.sync` and the same bracket, fetches every block from A with
// getLegacyBlocksFromId, announces the bracket, and answers the legacy endpoints as A does.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { LegacyStore } from '../../src/engine/legacy/legacy_store.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { openDatabases } from '../../src/storage/database.js';
import type { GeneratedLegacyChain } from '../helpers/legacy_chain.js';
import { generateLegacyChain } from '../helpers/legacy_chain.js';
import { waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const CHAIN = generateLegacyChain(300, 5000, 11);

/** A node with no generator, `legacy.sync` on and the chain's bracket, on its own loopback address. */
const legacyNode = async (
  chain: GeneratedLegacyChain,
  host: string,
  dataPath: string,
  lines: string[],
  seeds: { ip: string; port: number }[] = [],
): Promise<KestrelNode> => {
  const file = join(mkdtempSync(join(tmpdir(), 'kestrel-legacy-')), 'config.json');
  writeFileSync(file, JSON.stringify({ legacy: { sync: true, brackets: [chain.bracket] } }));
  const config = loadConfig({ dataPath, apiPort: await freePort(), config: file });
  config.rpc = { ...config.rpc, modes: ['http'] };
  config.network = { ...config.network, host, port: await freePort(), seedPeers: seeds };
  config.generator = { keys: {} };
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return new KestrelNode(config, logger);
};

const call = async (node: KestrelNode, method: string, params: Record<string, unknown> = {}): Promise<unknown> => {
  const endpoint = node.registry.get(method);
  assert.ok(endpoint !== undefined, method);
  try {
    return { result: await endpoint.handler({ params, transport: 'http' }) };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe('legacy sync between two Kestrel nodes', () => {
  it('a node with legacy.sync fetches a bracket from a peer that announces it, then serves it alike', async () => {
    // A synced the bracket before: its blocks and its completed progress are stored
    const pathA = tempDataPath();
    const dbs = openDatabases(pathA);
    const stored = new LegacyStore(dbs.legacy);
    stored.saveBlocks(CHAIN.blocks, {
      snapshotBlockID: CHAIN.snapshotBlockID,
      info: {
        startHeight: CHAIN.startHeight,
        snapshotBlockHeight: CHAIN.snapshotHeight,
        lastBlockHeight: CHAIN.startHeight,
      },
    });
    await dbs.root.close();
    const linesA: string[] = [];
    const linesB: string[] = [];
    const a = await legacyNode(CHAIN, '127.0.0.1', pathA, linesA);
    let b: KestrelNode | undefined;
    try {
      await a.start();
      const portA = (a.config.network as { port: number }).port;
      b = await legacyNode(CHAIN, '127.0.0.2', tempDataPath(), linesB, [{ ip: '127.0.0.1', port: portA }]);
      await b.start();
      const nodeB = b;
      assert.deepEqual(await call(nodeB, 'legacy_getLegacyBrackets'), {
        result: [
          {
            startHeight: 5000,
            snapshotBlockHeight: 5300,
            lastBlockHeight: 5300,
            snapshotBlockID: CHAIN.bracket.snapshotBlockID,
          },
        ],
      });
      // B finds no peer on its first try (Klayr's 12 s wait), then fetches 101 blocks per request
      await waitUntil(
        'B stored the whole bracket',
        async () => JSON.stringify(await call(nodeB, 'legacy_getLegacyBrackets')).includes('"lastBlockHeight":5000'),
        40_000,
      );
      for (let height = CHAIN.startHeight - 1; height <= CHAIN.snapshotHeight; height++)
        assert.deepEqual(
          await call(nodeB, 'legacy_getBlockByHeight', { height }),
          await call(a, 'legacy_getBlockByHeight', { height }),
        );
      for (const block of CHAIN.blocks.filter((_, i) => i % 37 === 0)) {
        const id = block.id.toString('hex');
        for (const method of ['legacy_getBlockByID', 'legacy_getTransactionsByBlockID'])
          assert.deepEqual(await call(nodeB, method, { id }), await call(a, method, { id }));
      }
      assert.deepEqual(await call(nodeB, 'legacy_getLegacyBrackets'), await call(a, 'legacy_getLegacyBrackets'));
      const messages = linesB.map((l) => (JSON.parse(l) as { msg: string }).msg);
      assert.ok(
        messages.includes(
          `Finished syncing legacy blocks for bracket with snapshotBlockID ${CHAIN.bracket.snapshotBlockID}`,
        ),
      );
      // B now announces the bracket: A sees it in B's node info
      await waitUntil(
        "A sees the bracket in B's node info",
        async () => JSON.stringify(await call(a, 'network_getConnectedPeers')).includes(CHAIN.bracket.snapshotBlockID),
        10_000,
      );
      // nobody was refused or penalised for asking
      const warnings = [...linesA, ...linesB].filter((l) => /not permitted|penalty/i.test(l));
      assert.deepEqual(warnings, []);
    } finally {
      await Promise.all([a.stop(), b?.stop()]);
    }
  });
});
