import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { pino } from 'pino';
import { WebSocket } from 'ws';
import { loadConfig } from '../../src/main/config/index.js';
import { KestrelNode } from '../../src/main/node.js';
import type { Mutation } from '../helpers/bad_params.js';
import { paramCases } from '../helpers/bad_params.js';
import { devValidators } from '../helpers/devnet.js';
import { localP2P } from '../helpers/local_p2p.js';
import { freePort } from '../helpers/ports.js';
import { answerError, post } from '../helpers/rpc.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const apiClient: any = require('@klayr/api-client');

interface Answer {
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Texts that only an unchecked input reaching a handler produces. */
const INTERNAL =
  /out of bounds|Cannot read|is not a function|is not iterable|\n\s+at |ERR_[A-Z_]+|Unexpected token|undefined|NaN/;

const validator = devValidators()[0]!;
const address = validator.address;

describe('every method refuses every malformed parameter with a clear error and changes nothing', () => {
  let node: KestrelNode;
  let url: string;
  let wsUrl: string;

  const call = async (method: string, params: unknown = {}): Promise<Answer> =>
    (await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json as Answer;
  const result = async (method: string, params: unknown = {}): Promise<unknown> => {
    const answer = await call(method, params);
    assert.equal(answer.error, undefined, `${method}: ${answer.error?.message}`);
    return answer.result;
  };

  /** What bad input must leave as it is: the chain (no blocks are generated: its tip and state root), keys, generator status, hash onions, pool, an account. */
  const snapshot = async (): Promise<Record<string, unknown>> => {
    const reads: [string, unknown][] = [
      ['chain_getLastBlock', {}],
      ['generator_getAllKeys', {}],
      ['generator_getStatus', {}],
      ['random_getHashOnionSeeds', {}],
      ['random_getHashOnionUsage', { address }],
      ['txpool_getTransactionsFromPool', {}],
      ['token_getBalances', { address }],
      ['auth_getAuthAccount', { address }],
    ];
    return Object.fromEntries(
      await Promise.all(reads.map(async ([method, params]) => [method, await call(method, params)])),
    );
  };

  before(async () => {
    const config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    delete config.generator; // no generation: the chain stays at genesis, so its state root is fixed
    node = new KestrelNode(await localP2P(config), pino({ level: 'silent' }));
    await node.start();
    url = `http://127.0.0.1:${config.rpc.port}/rpc`;
    wsUrl = `ws://127.0.0.1:${config.rpc.port}/rpc-ws`;
    // state a slipped setter would overwrite: plain keys and a hash onion for the address every mutation uses
    const { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = validator.plain;
    await result('generator_setKeys', {
      address,
      type: 'plain',
      data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey },
    });
    await result('random_setHashOnion', { address });
  });
  after(() => node.stop());

  it("random_setHashOnion with the address only stores Klayr's default onion (count 10,000, distance 1,000)", async () => {
    const { seeds } = (await result('random_getHashOnionSeeds')) as {
      seeds: { address: string; count: number; distance: number }[];
    };
    assert.deepEqual(
      seeds.map(({ address: a, count, distance }) => ({ address: a, count, distance })),
      [{ address, count: 10_000, distance: 1_000 }],
    );
  });

  it('hex in upper case is taken as in lower case, as @klayr/validator takes it (Klayr Service passes user-typed IDs on)', async () => {
    const { header } = (await result('chain_getLastBlock')) as { header: { id: string; height: number } };
    assert.deepEqual(
      await result('chain_getBlockByID', { id: header.id.toUpperCase() }),
      await result('chain_getBlockByID', { id: header.id }),
    );
    const { blsKey, blsProofOfPossession: proofOfPossession } = validator.plain;
    assert.deepEqual(
      await result('validators_validateBLSKey', {
        blsKey: blsKey.toUpperCase(),
        proofOfPossession: proofOfPossession.toUpperCase(),
      }),
      await result('validators_validateBLSKey', { blsKey, proofOfPossession }),
    );
  });

  it('all registered methods, all parameters: wrong type, length, hex, range, missing, unknown', async () => {
    const before = await snapshot();
    const requests: { method: string; mutation: Mutation }[] = [];
    for (const endpoint of node.registry.list()) {
      for (const { valid, mutations } of paramCases(
        endpoint.name,
        endpoint.params ?? { type: 'object', properties: {} },
        address,
      )) {
        // the mutations are single faults only if the unmutated params pass
        assert.deepEqual(
          endpoint.validate(valid),
          [],
          `${endpoint.name}: the sample params ${JSON.stringify(valid)} must be valid`,
        );
        assert.ok(mutations.length > 0, endpoint.name);
        for (const mutation of mutations) requests.push({ method: endpoint.name, mutation });
      }
    }
    const methods = new Set(requests.map((r) => r.method));
    assert.deepEqual(
      [...methods].sort(),
      node.registry
        .list()
        .map((e) => e.name)
        .sort(),
      'every method is covered',
    );

    const failures: string[] = [];
    for (let from = 0; from < requests.length; from += 100) {
      const batch = requests.slice(from, from + 100);
      const body = JSON.stringify(
        batch.map(({ method, mutation }, i) => ({ jsonrpc: '2.0', id: from + i, method, params: mutation.params })),
      );
      const answers = (await post(url, body)).json as Answer[];
      assert.equal(answers.length, batch.length);
      answers.forEach((answer, i) => {
        const { method, mutation } = batch[i]!;
        const what = `${method} (${mutation.label})`;
        const error = answerError(answer);
        // Klayr's engine answers a JSON-RPC error; the application (modules, plugins) an error as the result
        const form = node.registry.get(method)?.origin === 'application' ? 'application' : 'jsonrpc';
        if (answer.id !== from + i) failures.push(`${what}: answered under id ${String(answer.id)}`);
        else if (error === undefined)
          failures.push(`${what}: accepted ${JSON.stringify(mutation.params).slice(0, 200)}`);
        else if (error.form !== form) failures.push(`${what}: answered as a ${error.form} error`);
        else if (error.form === 'jsonrpc' && error.code !== -32600) failures.push(`${what}: code ${error.code}`);
        else if (INTERNAL.test(error.message)) failures.push(`${what}: internal text "${error.message}"`);
        else if (!error.message.includes(mutation.mentions))
          failures.push(`${what}: "${error.message}" does not name ${mutation.mentions}`);
      });
    }
    const after = await snapshot();
    const changed = Object.keys(before).filter((read) => !isDeepStrictEqual(after[read], before[read]));
    assert.deepEqual(
      { failures, changed },
      { failures: [], changed: [] },
      `${failures.length} of ${requests.length} malformed requests failed; state changed: ${changed.join(', ')}`,
    );
    assert.ok(requests.length > 900, `${requests.length} requests`);
  });

  describe("params that are not an object are answered with the request's id on every transport", () => {
    const notObjects: unknown[] = [[], ['x'], 'x', 5, true, null];
    const expected = (id: unknown) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: 'Invalid RPC request. Invalid request format.' },
    });

    it('HTTP', async () => {
      for (const [i, params] of notObjects.entries()) {
        const res = await post(
          url,
          JSON.stringify({ jsonrpc: '2.0', id: `h${i}`, method: 'token_getBalances', params }),
        );
        assert.deepEqual(res.json, expected(`h${i}`), JSON.stringify(params));
      }
    });

    it('WebSocket', async () => {
      const ws = new WebSocket(wsUrl);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      try {
        for (const [i, params] of notObjects.entries()) {
          const reply = new Promise<unknown>((resolve) =>
            ws.once('message', (data) => resolve(JSON.parse(data.toString()))),
          );
          ws.send(JSON.stringify({ jsonrpc: '2.0', id: i + 100, method: 'random_setHashOnion', params }));
          assert.deepEqual(await reply, expected(i + 100), JSON.stringify(params));
        }
      } finally {
        ws.close();
      }
    });

    it('IPC (@klayr/api-client matches answers by id: a null id would leave it waiting)', async () => {
      const client = await apiClient.createIPCClient(node.config.system.dataPath);
      try {
        // the client sends null params as {}
        for (const params of notObjects.filter((p) => p !== null)) {
          await assert.rejects(
            () => client.invoke('generator_setStatus', params),
            /Invalid RPC request\. Invalid request format\./,
            JSON.stringify(params),
          );
        }
        assert.deepEqual(await client.invoke('generator_hasKeys', { address }), { hasKey: true });
      } finally {
        await client.disconnect();
      }
    });
  });
});
