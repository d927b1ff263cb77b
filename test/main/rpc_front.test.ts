import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { pino } from 'pino';
import { WebSocket } from 'ws';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey, addressToKlayr32 } from '../../src/lib/crypto/address.js';
import { ed25519KeyPairFromPassphraseAndPath } from '../../src/lib/crypto/index.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../src/lib/state/keys.js';
import { FrontThread, frontThreadStarter, MAX_RESTARTS } from '../../src/main/rpc_front/front_thread.js';
import { FRONT_THREAD_METHODS } from '../../src/main/rpc_front/local_methods.js';
import { userStoreSchema } from '../../src/modules/token/schemas.js';
import { TOKEN_STORES, userKey } from '../../src/modules/token/stores.js';
import type { Dispatcher } from '../../src/rpc/dispatcher.js';
import { EventHub } from '../../src/rpc/events.js';
import { PortInUseError } from '../../src/rpc/listen_guard.js';
import { RPCServer } from '../../src/rpc/server.js';
import { commitWrites } from '../../src/storage/commit.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { writeBehindOf } from '../../src/storage/write_behind.js';
import { devnetPassphrase, devValidator } from '../helpers/devnet.js';
import { freePort } from '../helpers/ports.js';
import { rpc as jsonRPC, post } from '../helpers/rpc.js';
import type { RPCNode } from '../helpers/rpc_node.js';
import { startRPCNode } from '../helpers/rpc_node.js';

const genesisAccount = ed25519KeyPairFromPassphraseAndPath(devnetPassphrase(), "m/44'/134'/0'");
const genesisAddress = addressToKlayr32(addressFromPublicKey(genesisAccount.publicKey));
const unseen = Buffer.alloc(20, 9);
const unseenAddress = addressToKlayr32(unseen);
const TOKEN = '0400000000000000';
const validatorAddress = devValidator(0).address;
const tokenID = Buffer.from(TOKEN, 'hex');

/** Params per local method: answers, errors of the handler and refused params. */
const CASES: Record<string, unknown[]> = {
  token_getBalance: [
    { address: genesisAddress, tokenID: TOKEN },
    { address: unseenAddress, tokenID: TOKEN },
    { address: 'kly123', tokenID: TOKEN },
    { address: genesisAddress, tokenID: '04' },
    {},
  ],
  token_getBalances: [{ address: genesisAddress }, { address: unseenAddress }, { address: genesisAddress, extra: 1 }],
  token_getTotalSupply: [{}, { tokenID: TOKEN }],
  token_getSupportedTokens: [{}],
  token_isSupported: [{ tokenID: TOKEN }, { tokenID: '0500000000000000' }, { tokenID: 'zz' }],
  token_getEscrowedAmounts: [{}],
  token_getInitializationFees: [{}, {}],
  token_hasUserAccount: [
    { address: genesisAddress, tokenID: TOKEN },
    { address: unseenAddress, tokenID: TOKEN },
  ],
  token_hasEscrowAccount: [{ tokenID: TOKEN, escrowChainID: '04000001' }, { tokenID: TOKEN }],
  auth_getAuthAccount: [{ address: genesisAddress }, { address: unseenAddress }, { address: 7 }],
  pos_getValidator: [{ address: validatorAddress }, { address: unseenAddress }, {}],
  pos_getAllValidators: [{}],
  pos_getValidatorsByStake: [{}, { limit: 3 }, { limit: -1 }, { limit: -2 }, { limit: 'x' }],
  pos_getStaker: [{ address: validatorAddress }, { address: unseenAddress }],
  pos_getLockedStakedAmount: [{ address: validatorAddress }, { address: unseenAddress }],
  pos_getLockedReward: [{ address: validatorAddress, tokenID: TOKEN }, { address: validatorAddress }],
  pos_getClaimableRewards: [{ address: validatorAddress }, { address: unseenAddress }],
  pos_getExpectedSharedRewards: [
    { validatorAddress, validatorReward: '100000000', stake: '1000000000' },
    { validatorAddress: unseenAddress, validatorReward: '1', stake: '1' },
    { validatorAddress, validatorReward: '-1', stake: '1' },
  ],
};

const dispatcherOf = (rpc: RPCNode): Dispatcher => {
  const dispatcher = rpc.node.rpc?.dispatcher;
  assert.ok(dispatcher !== undefined);
  return dispatcher;
};

/** The main thread's answer to `body`, as its dispatcher gives it. */
const mainAnswer = async (rpc: RPCNode, body: string): Promise<string> => dispatcherOf(rpc).handle(body, 'http');

const dbsOf = (rpc: RPCNode): KestrelDatabases =>
  (rpc.node.chain as unknown as { options: { dbs: KestrelDatabases } }).options.dbs;

/** The full state key of the unseen address's token account: store prefix || substore prefix || address || token ID. */
const unseenUserKey = (): Buffer =>
  Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(TOKEN_STORES.user), userKey(unseen, tokenID)]);

const account = (balance: bigint): Buffer =>
  codec.encode(userStoreSchema, { availableBalance: balance, lockedBalances: [] });

describe('RPC front thread (src/main/rpc_front)', () => {
  let rpc: RPCNode;

  before(async () => {
    rpc = await startRPCNode((config) => {
      delete config.generator; // no generation: the state changes only as the tests change it
    });
  });
  after(() => rpc.stop());

  it('answers every local method as the main thread does: results, handler errors, refused params', async () => {
    assert.deepEqual(Object.keys(CASES).sort(), [...FRONT_THREAD_METHODS].sort(), 'a case list per local method');
    for (const [method, cases] of Object.entries(CASES)) {
      for (const params of cases) {
        const body = jsonRPC(method, params, 5);
        const answer = await post(rpc.url, body);
        assert.equal(answer.text, await mainAnswer(rpc, body), `${method} ${JSON.stringify(params)}`);
      }
    }
  });

  it('forwards batches, other methods, unknown methods and bodies that do not parse', async () => {
    for (const body of [
      `[${jsonRPC('token_getBalance', { address: genesisAddress, tokenID: TOKEN })},${jsonRPC('system_getNodeInfo')}]`,
      jsonRPC('chain_getLastBlock'),
      jsonRPC('token_noSuchMethod'),
      '{"jsonrpc":"2.0","id":1,"method":"token_getBalance"',
      '{"jsonrpc":"2.0","id":1e400,"method":"token_getBalance","params":{}}',
    ]) {
      const answer = await post(rpc.url, body);
      assert.equal(answer.text, await mainAnswer(rpc, body), body);
    }
  });

  it('sees a write-behind set before LMDB has it, the flush after it, and a direct commit before any later answer of the main thread', async () => {
    const dbs = dbsOf(rpc);
    const behind = writeBehindOf(dbs.root);
    assert.ok(behind !== undefined);
    const key = unseenUserKey();
    const balance = async (): Promise<unknown> =>
      (
        (await post(rpc.url, jsonRPC('token_getBalance', { address: unseenAddress, tokenID: TOKEN }))).json as {
          result: { availableBalance: string };
        }
      ).result.availableBalance;
    // an answer of the main thread reaches the front thread after every commit made before it
    const afterMain = async (): Promise<void> => {
      await post(rpc.url, jsonRPC('system_getNodeInfo'));
    };
    assert.equal(await balance(), '0');
    behind.begin({ flushWith: 'transaction', flushEvery: 1000 });
    try {
      commitWrites(dbs, (d) => d.state.putSync(key, account(123n)));
      assert.equal(dbs.state.get(key, { transaction: dbs.root.useReadTransaction() }), undefined, 'not in LMDB');
      await afterMain();
      assert.equal(await balance(), '123');
      commitWrites(dbs, (d) => d.state.putSync(key, account(456n)));
      await afterMain();
      assert.equal(await balance(), '456');
    } finally {
      await behind.end();
    }
    assert.equal(behind.pendingSets, 0);
    await afterMain();
    assert.equal(await balance(), '456');
    commitWrites(dbs, (d) => d.state.putSync(key, account(789n)));
    await afterMain();
    assert.equal(await balance(), '789');
    commitWrites(dbs, (d) => d.state.removeSync(key));
    await afterMain();
    assert.equal(await balance(), '0');
  });

  it("counts its requests in the main thread's /metrics", async () => {
    const metricsURL = rpc.url.replace('/rpc', '/metrics');
    const count = async (): Promise<number> => {
      const text = await (await fetch(metricsURL)).text();
      const line = text
        .split('\n')
        .find((l) =>
          l.startsWith('kestrel_rpc_requests_total{method="token_getTotalSupply",transport="http",outcome="success"}'),
        );
      return line === undefined ? 0 : Number(line.split(' ').pop());
    };
    const before = await count();
    for (let i = 0; i < 3; i++) await post(rpc.url, jsonRPC('token_getTotalSupply'));
    assert.equal(await count(), before + 3);
  });

  it('answers local and forwarded requests over WebSocket, and delivers events', async () => {
    const ws = new WebSocket(rpc.url.replace('http', 'ws').replace('/rpc', '/rpc-ws'));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const answers: string[] = [];
    ws.on('message', (data) => answers.push(String(data)));
    const next = async (): Promise<string> => {
      for (let waited = 0; answers.length === 0; waited += 10) {
        assert.ok(waited < 5000, 'an answer within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return answers.shift() as string;
    };
    for (const body of [
      jsonRPC('token_getBalance', { address: genesisAddress, tokenID: TOKEN }, 'w1'),
      jsonRPC('system_getNodeInfo', undefined, 'w2'),
      '{"jsonrpc":"2.0","id":1e400,"method":"token_getBalance","params":{}}',
    ]) {
      ws.send(body);
      const answer = await next();
      const expected = await mainAnswer(rpc, body);
      if (body.includes('system_getNodeInfo')) assert.match(answer, /"id":"w2","result":\{"version"/);
      else assert.equal(answer, expected, body);
    }
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 's', method: 'subscribe', params: { topics: ['test_front'] } }));
    assert.match(await next(), /"topics":\["test_front"\]/);
    rpc.node.rpc?.publish('test_front_event', { n: 1 });
    assert.equal(await next(), '{"jsonrpc":"2.0","method":"test_front_event","params":{"n":1}}');
    ws.close();
  });

  it('runs on node:http where uWebSockets.js is not used, and reports a port in use as the main thread does', async () => {
    const serverOn = async (port: number) => {
      const server = new RPCServer({
        rpc: { modes: ['http'], host: '127.0.0.1', port, allowedMethods: ['*'] },
        dataPath: rpc.config.system.dataPath,
        registry: rpc.node.registry,
        logger: pino({ level: 'silent' }),
        engine: 'node',
        startHttpWs: frontThreadStarter({
          config: rpc.config,
          dbs: dbsOf(rpc),
          allowedMethods: ['*'],
          version: 'test',
          logger: pino({ level: 'silent' }),
        }),
      });
      await server.start();
      return server;
    };
    const server = await serverOn(await freePort());
    try {
      assert.equal(server.httpEngine, 'node');
      const url = `http://127.0.0.1:${server.port}/rpc`;
      for (const body of [
        jsonRPC('token_getBalance', { address: genesisAddress, tokenID: TOKEN }),
        jsonRPC('token_getBalance', { address: 'kly1' }),
      ]) {
        const answer = await post(url, body);
        assert.equal(answer.text, await mainAnswer(rpc, body));
      }
      assert.match((await post(url, jsonRPC('system_getNodeInfo'))).text, /"result":\{"version"/);
      await assert.rejects(serverOn(server.port as number), PortInUseError);
    } finally {
      await server.stop();
    }
  });

  it('a process that ends with the thread serving (process.exit, an uncaught error) exits with its code, not aborted', async () => {
    const helper = fileURLToPath(new URL('../helpers/exit_with_rpc_open.js', import.meta.url));
    for (const [how, code] of [
      ['exit', 3],
      ['throw', 1],
    ] as const) {
      const ended = spawnSync(process.execPath, [helper, how], { encoding: 'utf8', timeout: 60_000 });
      assert.match(ended.stdout, /started/, `${how}: the node started (${ended.stderr.slice(-400)})`);
      assert.deepEqual(
        { status: ended.status, signal: ended.signal },
        { status: code, signal: null },
        `${how}: ${ended.stderr.slice(-400)}`,
      );
    }
  });

  /** A front thread of its own over `rpc`'s node, HTTP only, on a port of its own. */
  const httpFrontThread = async (config: typeof rpc.config, logger: Logger): Promise<FrontThread> =>
    new FrontThread(
      { config, dbs: dbsOf(rpc), allowedMethods: ['*'], version: 'test', logger },
      {
        host: '127.0.0.1',
        port: await freePort(),
        http: true,
        ws: false,
        dispatcher: dispatcherOf(rpc),
        hub: new EventHub(),
        maxBodySize: 1 << 20,
        bodyTimeoutMs: 10_000,
        maxBackpressure: 1 << 22,
        accessControlAllowOrigin: '*',
        health: () => ({ status: 'ok' }),
      },
      'auto',
    );

  it('rpc.threadNice sets the nice value of the HTTP and WS thread only, and says so', async () => {
    const niceOfThreads = (): number[] =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const nice = getPriority(0) + 3;
    assert.ok(!niceOfThreads().includes(nice), 'no thread at that value before');
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const config = { ...rpc.config, rpc: { ...rpc.config.rpc, threadNice: nice } };
    const thread = await httpFrontThread(config, logger);
    const running = await thread.start();
    try {
      assert.equal(niceOfThreads().filter((n) => n === nice).length, 1, 'one thread at rpc.threadNice');
      assert.equal(getPriority(0), nice - 3, 'the main thread keeps its own');
      assert.ok(lines.some((l) => l.includes('rpc.threadNice') && l.includes(`"nice":${nice}`)));
    } finally {
      await running.close();
    }
  });

  it('starts the thread again on the same port after it fails, and gives up after too many failures in a minute', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const thread = await httpFrontThread(rpc.config, logger);
    const running = await thread.start();
    const url = `http://127.0.0.1:${running.port}/rpc`;
    const local = jsonRPC('token_getBalance', { address: genesisAddress, tokenID: TOKEN });
    const answers = async (): Promise<boolean> => {
      try {
        return (
          (await post(url, local)).text === (await mainAnswer(rpc, local)) &&
          /"result":\{"version"/.test((await post(url, jsonRPC('system_getNodeInfo'))).text)
        );
      } catch {
        return false;
      }
    };
    const waitFor = async (what: string, done: () => Promise<boolean> | boolean): Promise<void> => {
      for (let waited = 0; !(await done()); waited += 50) {
        assert.ok(waited < 10_000, `${what} within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    try {
      assert.ok(await answers());
      // garbage news (a truncated set) is an uncaught error in the thread
      const fail = (): void =>
        thread.worker?.postMessage({
          t: 'news',
          news: { kind: 'set', set: 1, name: 'state', packed: new Uint8Array(3) },
        });
      for (let failure = 1; failure <= MAX_RESTARTS; failure++) {
        const before = lines.filter((l) => l.includes('RPC front thread started again')).length;
        fail();
        await waitFor(
          `restarted after failure ${failure}`,
          () => lines.filter((l) => l.includes('RPC front thread started again')).length > before,
        );
        assert.ok(await answers(), `answers after failure ${failure}`);
      }
      fail();
      await waitFor('the thread given up', () => lines.some((l) => l.includes('times within a minute')));
      assert.equal(thread.worker, undefined);
      assert.equal(await answers(), false, 'no server after it is given up');
      assert.equal(lines.filter((l) => l.includes('starting it again')).length, MAX_RESTARTS);
      assert.ok(
        lines.some((l) => l.includes('Packed writes: truncated')),
        'the failure is logged',
      );
    } finally {
      await running.close();
    }
  });
});
