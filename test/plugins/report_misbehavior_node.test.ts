// A devnet node with the reportMisbehavior plugin: a @klayr/p2p peer sends two blocks one validator signed at one
// height; the plugin reports them with pos:reportMisbehavior through the node's own pool, the node includes the
// transaction, and the pos module punishes the validator.
import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID, encodeBlock, signBlockHeader } from '../../src/lib/chain/block.js';
import { computeMinFee, encodeTransaction, signTransaction } from '../../src/lib/transaction/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { KestrelNode } from '../../src/main/node.js';
import type { DevValidatorKey } from '../helpers/devnet.js';
import { devValidator } from '../helpers/devnet.js';
import { devnetGenesis } from '../helpers/genesis_compare.js';
import { klayrCodec, klayrCrypto } from '../helpers/klayr.js';
import type { KlayrP2PNode } from '../helpers/p2p.js';
import { randomPort, startKlayr, waitFor } from '../helpers/p2p.js';
import { freePort } from '../helpers/ports.js';
import { answerError } from '../helpers/rpc.js';
import { tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
const { postBlockEventSchema } = require('klayr-framework/dist-node/engine/consensus/schema.js') as {
  postBlockEventSchema: Record<string, unknown>;
};
const klayrPoSSchemas = require('klayr-framework/dist-node/modules/pos/schemas.js') as {
  reportMisbehaviorCommandParamsSchema: Record<string, unknown>;
  stakeCommandParamsSchema: Record<string, unknown>;
};

const NODE_IP = '127.0.0.1';
const PEER_IP = '127.0.0.3';
const PASSWORD = 'report them';

interface RPCAnswer<T> {
  result?: T;
  error?: { code: number; message: string };
}

const rpc = async <T>(port: number, method: string, params: Record<string, unknown> = {}): Promise<RPCAnswer<T>> => {
  const reply = await fetch(`http://127.0.0.1:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  return (await reply.json()) as RPCAnswer<T>;
};

const result = async <T>(port: number, method: string, params: Record<string, unknown> = {}): Promise<T> => {
  const answer = await rpc<T>(port, method, params);
  const error = answerError(answer);
  if (error !== undefined) throw new Error(`${method}: ${error.message}`);
  return answer.result as T;
};

/** Polls `check` every 200 ms until it holds; throws after `timeoutMs` naming `what`. */
const eventually = async (what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
};

const KLY = 100_000_000n;

/** Posts pos:stake of `amount` on the validator itself, signed with its account key at nonce 0. */
const selfStake = async (port: number, validator: DevValidatorKey, amount: bigint): Promise<void> => {
  const chainID = Buffer.from((await result<{ chainID: string }>(port, 'system_getNodeInfo')).chainID, 'hex');
  const base = {
    module: 'pos',
    command: 'stake',
    nonce: 0n,
    senderPublicKey: Buffer.from(validator.publicKey, 'hex'),
    params: klayrCodec.codec.encode(klayrPoSSchemas.stakeCommandParamsSchema, {
      stakes: [{ validatorAddress: klayrCrypto.address.getAddressFromKlayr32Address(validator.address), amount }],
    }) as Buffer,
  };
  const tx = signTransaction(
    { ...base, fee: computeMinFee(base), signatures: [] },
    chainID,
    Buffer.from(validator.privateKey, 'hex'),
  );
  await result(port, 'txpool_postTransaction', { transaction: encodeTransaction(tx).toString('hex') });
};

interface ValidatorJSON {
  reportMisbehaviorHeights: number[];
  selfStake: string;
  isBanned: boolean;
}

describe('a node running the reportMisbehavior plugin', () => {
  const punished = devValidator(10);
  const reporter = devValidator(0);
  let config: ApplicationConfig;
  let node: KestrelNode;
  let peer: KlayrP2PNode | undefined;
  let port: number;

  before(async () => {
    config = loadConfig({ dataPath: tempDataPath(), apiPort: await freePort() });
    config.genesis.blockTime = 2;
    config.rpc.modes = ['http'];
    config.rpc.allowedMethods = ['*'];
    config.network = { ...config.network, host: NODE_IP, port: randomPort(), seedPeers: [] };
    config.plugins.reportMisbehavior = {
      encryptedPrivateKey: klayrCrypto.encrypt.stringifyEncryptedMessage(
        await klayrCrypto.encrypt.encryptMessageWithPassword(reporter.privateKey, PASSWORD, {
          kdfparams: { memorySize: 1024, iterations: 1, parallelism: 1 },
        }),
      ),
    };
    node = new KestrelNode(config, pino({ level: process.env.KESTREL_TEST_LOG ?? 'silent' }));
    await node.start();
    port = config.rpc.port;
  });

  after(async () => {
    await peer?.stop();
    await node.stop();
  });

  it('stores under <dataPath>/plugins/report_misbehavior', () => {
    assert.ok(existsSync(join(config.system.dataPath, 'plugins', 'report_misbehavior', 'report_misbehavior.lmdb')));
  });

  it('reportMisbehavior_authorize refuses a wrong password, and enables and disables reporting with the right one', async () => {
    // a plugin's errors are answered as results, as Klayr Core's application answers them
    assert.deepEqual((await rpc(port, 'reportMisbehavior_authorize', { password: 'nope', enable: true })).result, {
      error: { message: 'Password given is not valid.' },
    });
    assert.deepEqual((await rpc(port, 'reportMisbehavior_authorize', { enable: true })).result, {
      error: { message: "Klayr validator found 1 error[s]:\nMissing property, must have required property 'password'" },
    });
    for (const enable of [true, false, true])
      assert.deepEqual(await result(port, 'reportMisbehavior_authorize', { password: PASSWORD, enable }), {
        result: `Successfully ${enable ? 'enabled' : 'disabled'} the reporting of misbehavior.`,
      });
  });

  it('two blocks a validator signed at one height, sent by a peer, get the validator punished by a transaction the node includes', async () => {
    await eventually(
      'height 3',
      30_000,
      async () => (await result<{ height: number }>(port, 'system_getNodeInfo')).height >= 3,
    );
    // the devnet has no stakers; a punishment takes from the validator's self-stake entry (without one it fails, as in Klayr)
    await selfStake(port, punished, 1000n * KLY);
    await eventually(
      'the self-stake included',
      30_000,
      async () => answerError(await rpc(port, 'pos_getStaker', { address: punished.address })) === undefined,
    );
    await result(port, 'reportMisbehavior_authorize', { password: PASSWORD, enable: true });
    const before = await result<ValidatorJSON>(port, 'pos_getValidator', { address: punished.address });
    assert.deepEqual(before.reportMisbehaviorHeights, []);
    const reward = BigInt(
      (await result<{ reportMisbehaviorReward: string }>(port, 'pos_getConstants')).reportMisbehaviorReward,
    );

    // two different blocks at height 2, both signed with the validator's generator key (the node committed another)
    const generatorAddress = Buffer.from(klayrCrypto.address.getAddressFromKlayr32Address(punished.address));
    const forged = (salt: number): Block => {
      const { signature: _s, ...unsigned }: BlockHeader = {
        ...devnetGenesis().header,
        version: 2,
        height: 2,
        timestamp: devnetGenesis().header.timestamp + 2,
        generatorAddress,
        maxHeightGenerated: 0,
        maxHeightPrevoted: 0,
        stateRoot: Buffer.alloc(32, salt),
      };
      const header = signBlockHeader(
        unsigned,
        Buffer.from(config.genesis.chainID, 'hex'),
        Buffer.from(punished.plain.generatorPrivateKey, 'hex'),
      );
      return { header, transactions: [], assets: [] };
    };
    const blocks = [forged(1), forged(2)];
    const ids = blocks.map((b) => blockHeaderID(b.header).toString('hex'));
    // neither is the block the node has at height 2: both are forks it discards
    const applied = await result<{ header: { id: string } }>(port, 'chain_getBlockByHeight', { height: 2 });
    assert.ok(!ids.includes(applied.header.id));

    peer = await startKlayr({
      hostIp: PEER_IP,
      port: randomPort(),
      seedPeers: [{ ipAddress: NODE_IP, port: config.network.port }],
    });
    const nodeSeenByPeer = `${NODE_IP}:${config.network.port}`;
    await waitFor(
      () => peer?.getConnectedPeers().some((p) => p.peerId === nodeSeenByPeer) === true,
      10_000,
      'the peer connected',
    );
    for (const block of blocks)
      peer.sendToPeer(
        { event: 'postBlock', data: klayrCodec.codec.encode(postBlockEventSchema, { block: encodeBlock(block) }) },
        nodeSeenByPeer,
      );

    let after: ValidatorJSON | undefined;
    await eventually('the validator punished', 40_000, async () => {
      after = await result<ValidatorJSON>(port, 'pos_getValidator', { address: punished.address });
      return after.reportMisbehaviorHeights.length > 0;
    });
    assert.ok(after !== undefined);
    assert.equal(after.reportMisbehaviorHeights.length, 1);
    assert.equal(after.isBanned, false);
    const penalty = BigInt(before.selfStake) < reward ? BigInt(before.selfStake) : reward;
    assert.equal(BigInt(after.selfStake), BigInt(before.selfStake) - penalty);

    // the block that punished it holds the reporter's pos:reportMisbehavior with both headers
    const height = after.reportMisbehaviorHeights[0] as number;
    const block = await result<{
      transactions: { module: string; command: string; senderPublicKey: string; params: string }[];
    }>(port, 'chain_getBlockByHeight', { height });
    const report = block.transactions.find((t) => t.module === 'pos' && t.command === 'reportMisbehavior');
    assert.ok(report, JSON.stringify(block.transactions));
    assert.equal(report.senderPublicKey, reporter.publicKey);
    const params = klayrCodec.codec.decode(
      klayrPoSSchemas.reportMisbehaviorCommandParamsSchema,
      Buffer.from(report.params, 'hex'),
    ) as {
      header1: Buffer;
      header2: Buffer;
    };
    const reported = [params.header1, params.header2].map((h) => klayrCrypto.utils.hash(h).toString('hex'));
    assert.deepEqual(reported, ids);
  });
});
