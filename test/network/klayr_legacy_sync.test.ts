// Legacy sync with a real Klayr Core node (klayr-framework 0.12.3 on @klayr/p2p, ../shared/tools/klayr-node):
// Kestrel A holds a generated bracket; the Klayr node, with legacy.sync and that bracket, fetches it from A
// with getLegacyBlocksFromId and announces it; Kestrel C, whose only peer is the Klayr node, then fetches
// it from there. Every node ends with the same blocks and the same legacy_* answers.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { LegacyStore } from '../../src/engine/legacy/legacy_store.js';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import { openDatabases } from '../../src/storage/database.js';
import { devnetFile } from '../helpers/devnet.js';
import type { KlayrNode } from '../helpers/klayr_node.js';
import { startKlayrNode } from '../helpers/klayr_node.js';
import { generateLegacyChain } from '../helpers/legacy_chain.js';
import { waitUntil } from '../helpers/node_process.js';
import { freePort } from '../helpers/ports.js';
import { tempDataPath } from '../helpers/state.js';

const CHAIN = generateLegacyChain(250, 20_000, 23);
const legacyConfig = { sync: true, brackets: [CHAIN.bracket] };

const kestrelNode = async (host: string, dataPath: string, seeds: { ip: string; port: number }[] = []) => {
  const file = join(mkdtempSync(join(tmpdir(), 'kestrel-legacy-')), 'config.json');
  writeFileSync(file, JSON.stringify({ legacy: legacyConfig }));
  const config = loadConfig({ dataPath, apiPort: await freePort(), config: file });
  config.rpc = { ...config.rpc, modes: ['http'] };
  config.network = { ...config.network, host, port: await freePort(), seedPeers: seeds };
  config.generator = { keys: {} };
  return new KestrelNode(config, pino({ level: 'silent' }));
};

const kestrelCall = async (
  node: KestrelNode,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ result?: unknown; error?: string }> => {
  const endpoint = node.registry.get(method);
  assert.ok(endpoint !== undefined, method);
  try {
    return { result: JSON.parse(JSON.stringify(await endpoint.handler({ params, transport: 'http' }))) as unknown };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

const klayrCall = async (klayr: KlayrNode, method: string, params: Record<string, unknown> = {}) => {
  const response = await fetch(`http://127.0.0.1:${klayr.rpcPort}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
  return answer.error === undefined ? { result: answer.result } : { error: answer.error.message };
};

const synced = (answer: unknown): boolean => JSON.stringify(answer).includes(`"lastBlockHeight":${CHAIN.startHeight}`);

describe('legacy sync with a Klayr Core node', () => {
  it('Klayr fetches a bracket from Kestrel, and Kestrel from Klayr', async () => {
    const pathA = tempDataPath();
    const dbs = openDatabases(pathA);
    new LegacyStore(dbs.legacy).saveBlocks(CHAIN.blocks, {
      snapshotBlockID: CHAIN.snapshotBlockID,
      info: {
        startHeight: CHAIN.startHeight,
        snapshotBlockHeight: CHAIN.snapshotHeight,
        lastBlockHeight: CHAIN.startHeight,
      },
    });
    await dbs.root.close();
    const a = await kestrelNode('127.0.0.2', pathA);
    let klayr: KlayrNode | undefined;
    let c: KestrelNode | undefined;
    try {
      await a.start();
      const portA = (a.config.network as { port: number }).port;
      const klayrConfig = join(mkdtempSync(join(tmpdir(), 'klayr-legacy-')), 'config.json');
      const devnetConfig = JSON.parse(readFileSync(devnetFile('config.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(klayrConfig, JSON.stringify({ ...devnetConfig, legacy: legacyConfig }));
      const klayrPort = await freePort();
      klayr = await startKlayrNode({
        host: '127.0.0.3',
        port: klayrPort,
        rpcPort: await freePort(),
        seeds: [`127.0.0.2:${portA}`],
        config: klayrConfig,
        logLevel: 'info',
      });
      const k = klayr;
      // Klayr: no peer on its first try (12 s), then 101 blocks per request every 5 s
      await k.waitForLine(/Finished syncing legacy blocks for bracket/, 90_000);
      // Klayr's recursion writes each batch's progress again as it unwinds: the first batch's lowest height stays
      await waitUntil(
        "Klayr's recursion unwound",
        async () =>
          JSON.stringify(await klayrCall(k, 'legacy_getLegacyBrackets')).includes(
            `"lastBlockHeight":${CHAIN.snapshotHeight - 101}`,
          ),
        10_000,
      );
      assert.deepEqual(await klayrCall(k, 'legacy_getLegacyBrackets'), {
        result: [
          {
            startHeight: CHAIN.startHeight,
            snapshotBlockHeight: CHAIN.snapshotHeight,
            lastBlockHeight: CHAIN.snapshotHeight - 101,
            snapshotBlockID: CHAIN.bracket.snapshotBlockID,
          },
        ],
      });
      for (let height = CHAIN.startHeight; height < CHAIN.snapshotHeight; height += 7)
        assert.deepEqual(
          await klayrCall(k, 'legacy_getBlockByHeight', { height }),
          await kestrelCall(a, 'legacy_getBlockByHeight', { height }),
        );
      c = await kestrelNode('127.0.0.4', tempDataPath(), [{ ip: '127.0.0.3', port: klayrPort }]);
      await c.start();
      const nodeC = c;
      await waitUntil(
        'C stored the bracket from the Klayr node',
        async () => synced(await kestrelCall(nodeC, 'legacy_getLegacyBrackets')),
        60_000,
      );
      for (let height = CHAIN.startHeight - 1; height <= CHAIN.snapshotHeight; height++)
        assert.deepEqual(
          await kestrelCall(nodeC, 'legacy_getBlockByHeight', { height }),
          await kestrelCall(a, 'legacy_getBlockByHeight', { height }),
        );
      for (const block of CHAIN.blocks.filter((_, i) => i % 25 === 0)) {
        const id = block.id.toString('hex');
        for (const method of ['legacy_getBlockByID', 'legacy_getTransactionsByBlockID']) {
          const expected = await klayrCall(k, method, { id });
          assert.deepEqual(await kestrelCall(nodeC, method, { id }), expected);
          assert.deepEqual(await kestrelCall(a, method, { id }), expected);
        }
      }
      assert.deepEqual(
        await kestrelCall(nodeC, 'legacy_getLegacyBrackets'),
        await kestrelCall(a, 'legacy_getLegacyBrackets'),
      );
    } finally {
      await Promise.all([a.stop(), klayr?.stop(), c?.stop()]);
    }
  });
});
