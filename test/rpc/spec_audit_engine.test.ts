// The engine's namespaces of klayr-core-methods.md (chain, consensus, system, txpool, state,
// generator, legacy, network) and the pos methods that need a staker: each method called on a running
// devnet node that generates blocks, with the request form of klayr-framework's endpoint, its answer
// checked against the fields and types klayr-framework answers with.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID, decodeBlockHeader, encodeBlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderSchema } from '../../src/lib/chain/schemas.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey, addressToKlayr32, klayr32ToAddress } from '../../src/lib/crypto/address.js';
import { ed25519KeyPairFromPassphraseAndPath } from '../../src/lib/crypto/index.js';
import { computeMinFee, encodeTransaction, signTransaction, transactionID } from '../../src/lib/transaction/index.js';
import { stakeParamsSchema } from '../../src/modules/pos/commands/stake.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import { devnetPassphrase, devValidator, devValidators } from '../helpers/devnet.js';
import type { RPCNode } from '../helpers/rpc_node.js';
import { startRPCNode } from '../helpers/rpc_node.js';
import type { Shape } from '../helpers/shape.js';
import { arrayOf, assertShape, optional } from '../helpers/shape.js';

const CHAIN_ID = Buffer.from('04000000', 'hex');
const KLY = 100_000_000n;
const validator = devValidator(0);
const staker = ed25519KeyPairFromPassphraseAndPath(devnetPassphrase(), "m/44'/134'/0'");
const stakerAddress = addressToKlayr32(addressFromPublicKey(staker.publicKey));

const HEADER: Shape = {
  version: 'integer',
  timestamp: 'integer',
  height: 'integer',
  previousBlockID: 'hex',
  generatorAddress: 'klayr32',
  transactionRoot: 'hex',
  assetRoot: 'hex',
  eventRoot: 'hex',
  stateRoot: 'hex',
  maxHeightPrevoted: 'integer',
  maxHeightGenerated: 'integer',
  impliesMaxPrevotes: 'boolean',
  validatorsHash: 'hex',
  aggregateCommit: { height: 'integer', aggregationBits: 'hex', certificateSignature: 'hex' },
  signature: 'hex',
  id: 'hex',
};
const TRANSACTION: Shape = {
  module: 'string',
  command: 'string',
  nonce: 'decimal',
  fee: 'decimal',
  senderPublicKey: 'hex',
  params: 'hex',
  signatures: arrayOf('hex'),
  id: 'hex',
};
const ASSET: Shape = { module: 'string', data: 'hex' };
const BLOCK: Shape = { header: HEADER, transactions: arrayOf(TRANSACTION), assets: arrayOf(ASSET) };
const EVENT: Shape = {
  module: 'string',
  name: 'string',
  data: 'hex',
  topics: arrayOf('hex'),
  height: 'integer',
  index: 'integer',
};
const PROOF: Shape = {
  queries: arrayOf({ bitmap: 'hex', key: 'hex', value: 'hex' }),
  siblingHashes: arrayOf('hex'),
};
const BFT_PARAMETERS: Shape = {
  validators: arrayOf({ address: 'klayr32', bftWeight: 'decimal', blsKey: 'hex' }),
  certificateThreshold: 'decimal',
  precommitThreshold: 'decimal',
  prevoteThreshold: 'decimal',
  validatorsHash: 'hex',
};

/** A signed transaction of the devnet's funded genesis account, hex-encoded. */
const signed = (module: string, command: string, nonce: bigint, params: Buffer): { hex: string; id: string } => {
  const base = { module, command, nonce, senderPublicKey: staker.publicKey, params };
  const tx = signTransaction({ ...base, fee: computeMinFee(base), signatures: [] }, CHAIN_ID, staker.privateKey);
  return { hex: encodeTransaction(tx).toString('hex'), id: transactionID(tx).toString('hex') };
};
const stake = (nonce: bigint, amount: bigint) =>
  signed(
    'pos',
    'stake',
    nonce,
    codec.encode(stakeParamsSchema, { stakes: [{ validatorAddress: klayr32ToAddress(validator.address), amount }] }),
  );

describe('spec audit: engine endpoints on a devnet node that generates blocks', () => {
  let rpc: RPCNode;
  // a stake, then an unstake of half of it: a locked balance, a staker with a stake and a pending unlock
  const staked = stake(0n, 20n * KLY);
  const unstaked = stake(1n, -10n * KLY);
  let blockOfStake: { header: { id: string; height: number } };

  before(async () => {
    rpc = await startRPCNode((config) => {
      config.genesis.blockTime = 2;
    });
    for (const tx of [staked, unstaked])
      assert.deepEqual(await rpc.shaped('txpool_postTransaction', { transaction: tx.hex }, { transactionId: 'hex' }), {
        transactionId: tx.id,
      });
    const deadline = Date.now() + 30_000;
    while ((await rpc.call('chain_getTransactionByID', { id: unstaked.id })).result === undefined) {
      assert.ok(Date.now() < deadline, 'the stake transactions are included within 30 s');
      await sleep(200);
    }
    const last = (await rpc.result('chain_getLastBlock', {})) as { header: { height: number } };
    for (let h = last.header.height; h > 0; h--) {
      const block = (await rpc.result('chain_getBlockByHeight', { height: h })) as typeof blockOfStake & {
        transactions: { id: string }[];
      };
      if (block.transactions.some((t) => t.id === staked.id)) {
        blockOfStake = block;
        break;
      }
    }
    assert.ok(blockOfStake, 'the block holding the stake');
  });
  after(() => rpc.stop());

  describe('chain', () => {
    it('chain_getLastBlock {}, chain_getBlockByHeight {height}, chain_getBlockByID {id}: a block', async () => {
      await rpc.shaped('chain_getLastBlock', {}, BLOCK);
      const byHeight = await rpc.shaped('chain_getBlockByHeight', { height: blockOfStake.header.height }, BLOCK);
      assert.deepEqual(await rpc.shaped('chain_getBlockByID', { id: blockOfStake.header.id }, BLOCK), byHeight);
    });
    it("an unknown block or transaction: lisk-db's error naming Klayr's blockchain database key, as Klayr Core answers", async () => {
      const unknown = 'ff'.repeat(32);
      const errorOf = async (method: string, params: Record<string, unknown>) => (await rpc.call(method, params)).error;
      assert.deepEqual(await errorOf('chain_getBlockByID', { id: unknown }), {
        code: -32600,
        message: `Specified key 03${unknown} does not exist`,
      });
      assert.deepEqual(await errorOf('chain_getTransactionByID', { id: unknown }), {
        code: -32600,
        message: `Specified key 06${unknown} does not exist`,
      });
      assert.deepEqual(await errorOf('chain_getBlockByHeight', { height: 0x7fffffff }), {
        code: -32600,
        message: 'Specified key 047fffffff does not exist',
      });
    });
    it('chain_getBlocksByIDs {ids} and chain_getBlocksByHeightBetween {from, to}: arrays of blocks', async () => {
      const byIDs = (await rpc.shaped(
        'chain_getBlocksByIDs',
        { ids: [blockOfStake.header.id] },
        arrayOf(BLOCK),
      )) as unknown[];
      assert.equal(byIDs.length, 1);
      const { height } = blockOfStake.header;
      const between = (await rpc.shaped(
        'chain_getBlocksByHeightBetween',
        { from: height - 1, to: height },
        arrayOf(BLOCK),
      )) as unknown[];
      assert.equal(between.length, 2);
    });
    it('chain_getTransactionByID {id}, chain_getTransactionsByIDs {ids}, chain_getTransactionsByHeight {height}', async () => {
      await rpc.shaped('chain_getTransactionByID', { id: staked.id }, TRANSACTION);
      const byIDs = (await rpc.shaped(
        'chain_getTransactionsByIDs',
        { ids: [staked.id, unstaked.id] },
        arrayOf(TRANSACTION),
      )) as unknown[];
      assert.equal(byIDs.length, 2);
      const atHeight = (await rpc.shaped(
        'chain_getTransactionsByHeight',
        { height: blockOfStake.header.height },
        arrayOf(TRANSACTION),
      )) as { id: string }[];
      assert.ok(atHeight.some((t) => t.id === staked.id));
    });
    it('chain_getAssetsByHeight {height}: the block assets', async () => {
      const assets = (await rpc.shaped(
        'chain_getAssetsByHeight',
        { height: blockOfStake.header.height },
        arrayOf(ASSET),
      )) as unknown[];
      assert.ok(assets.length > 0);
    });
    it('chain_getEvents {height}: the events of the block', async () => {
      const events = (await rpc.shaped(
        'chain_getEvents',
        { height: blockOfStake.header.height },
        arrayOf(EVENT),
      )) as unknown[];
      assert.ok(events.length > 0);
    });
    it('chain_getInclusionProofsAtHeight {height}: {proof}', async () => {
      await rpc.shaped('chain_getInclusionProofsAtHeight', { height: blockOfStake.header.height }, { proof: PROOF });
    });
    it('chain_proveEvents {height, queries}: a proof', async () => {
      await rpc.shaped('chain_proveEvents', { height: blockOfStake.header.height, queries: [] }, PROOF);
    });
    it('chain_getGeneratorList {}: {list} of address and nextAllocatedTime', async () => {
      await rpc.shaped(
        'chain_getGeneratorList',
        {},
        { list: arrayOf({ address: 'klayr32', nextAllocatedTime: 'integer' }) },
      );
    });
    it('chain_areHeadersContradicting {header1, header2}: {valid}', async () => {
      // the same header twice never contradicts itself
      const header1 = await encodedHeader(blockOfStake.header.height);
      assert.deepEqual(
        await rpc.shaped('chain_areHeadersContradicting', { header1, header2: header1 }, { valid: 'boolean' }),
        { valid: false },
      );
    });
  });

  /** A block header as the areHeadersContradicting request carries it: the encoded header, hex. */
  const encodedHeader = async (height: number): Promise<string> => {
    const { header } = (await rpc.result('chain_getBlockByHeight', { height })) as { header: Record<string, unknown> };
    const { id, ...fields } = header;
    const bytes = encodeBlockHeader(codec.fromJSON<BlockHeader>(blockHeaderSchema, fields));
    assert.equal(blockHeaderID(decodeBlockHeader(bytes)).toString('hex'), id, 'the header re-encodes to its ID');
    return bytes.toString('hex');
  };

  describe('consensus', () => {
    it('consensus_getBFTParameters {height} and consensus_getBFTParametersActiveValidators {height}', async () => {
      await rpc.shaped('consensus_getBFTParameters', { height: 1 }, BFT_PARAMETERS);
      await rpc.shaped('consensus_getBFTParametersActiveValidators', { height: 1 }, BFT_PARAMETERS);
    });
    it('consensus_getBFTHeights {}: the three BFT heights', async () => {
      await rpc.shaped(
        'consensus_getBFTHeights',
        {},
        { maxHeightPrevoted: 'integer', maxHeightPrecommitted: 'integer', maxHeightCertified: 'integer' },
      );
    });
  });

  describe('system', () => {
    it('system_getNodeInfo {}: the node and chain status, genesis and network config', async () => {
      await rpc.shaped(
        'system_getNodeInfo',
        {},
        {
          version: 'string',
          networkVersion: 'string',
          chainID: 'hex',
          lastBlockID: 'hex',
          height: 'integer',
          finalizedHeight: 'integer',
          syncing: 'boolean',
          unconfirmedTransactions: 'integer',
          genesisHeight: 'integer',
          genesis: 'object',
          network: {
            version: 'string',
            port: 'integer',
            host: optional('string'),
            seedPeers: arrayOf({ ip: 'string', port: 'integer' }),
            blacklistedIPs: optional(arrayOf('string')),
            fixedPeers: optional(arrayOf({ ip: 'string', port: 'integer' })),
            whitelistedPeers: optional(arrayOf({ ip: 'string', port: 'integer' })),
          },
        },
      );
    });
    it('system_getSchema {}: the block, header, asset, transaction, event and standard event schemas', async () => {
      await rpc.shaped(
        'system_getSchema',
        {},
        {
          block: 'object',
          header: 'object',
          asset: 'object',
          transaction: 'object',
          event: 'object',
          standardEvent: 'object',
        },
      );
    });
    it('system_getMetricsReport {} and {inString: true}', async () => {
      // prom-client's JSON (Klayr's registry.getMetricsAsJSON()), or its text exposition format
      await rpc.shaped('system_getMetricsReport', {}, arrayOf('object'));
      await rpc.shaped('system_getMetricsReport', { inString: true }, 'string');
    });
  });

  describe('txpool', () => {
    // nonce 5 while the account is at 2: the pool keeps it, no block can include it
    const future = signed(
      'token',
      'transfer',
      5n,
      codec.encode(transferParamsSchema, {
        tokenID: Buffer.from('0400000000000000', 'hex'),
        amount: KLY,
        recipientAddress: klayr32ToAddress(validator.address),
        data: '',
      }),
    );
    it('txpool_postTransaction {transaction}: {transactionId}', async () => {
      assert.deepEqual(
        await rpc.shaped('txpool_postTransaction', { transaction: future.hex }, { transactionId: 'hex' }),
        {
          transactionId: future.id,
        },
      );
    });
    it('txpool_getTransactionsFromPool {address}: the pooled transactions', async () => {
      const pooled = (await rpc.shaped(
        'txpool_getTransactionsFromPool',
        { address: stakerAddress },
        arrayOf(TRANSACTION),
      )) as {
        id: string;
      }[];
      assert.ok(pooled.some((t) => t.id === future.id));
    });
    it('txpool_dryRunTransaction {transaction}: result, events and, on failure, errorMessage', async () => {
      await rpc.shaped(
        'txpool_dryRunTransaction',
        { transaction: stake(2n, 10n * KLY).hex },
        {
          result: 'integer',
          events: arrayOf(EVENT),
          errorMessage: optional('string'),
        },
      );
    });
  });

  describe('state', () => {
    it('state_prove {queryKeys}: {proof}', async () => {
      await rpc.shaped('state_prove', { queryKeys: [] }, { proof: PROOF });
    });
  });

  describe('generator', () => {
    const STATUS: Shape = {
      address: 'klayr32',
      height: 'integer',
      maxHeightPrevoted: 'integer',
      maxHeightGenerated: 'integer',
      blsKey: 'hex',
      generatorKey: 'hex',
      enabled: 'boolean',
    };
    it('generator_getStatus {}: {status}', async () => {
      await rpc.shaped('generator_getStatus', {}, { status: arrayOf(STATUS) });
    });
    it('generator_hasKeys {address} and generator_getAllKeys {}', async () => {
      assert.deepEqual(await rpc.shaped('generator_hasKeys', { address: validator.address }, { hasKey: 'boolean' }), {
        hasKey: true,
      });
      await rpc.shaped(
        'generator_getAllKeys',
        {},
        {
          keys: arrayOf({ address: 'klayr32', type: 'string', data: 'object' }),
        },
      );
    });
    it('generator_estimateSafeStatus {timeShutdown}: the safe status once a block is finalized, before that the error Klayr gives', async () => {
      const { finalizedHeight } = (await rpc.result('system_getNodeInfo', {})) as { finalizedHeight: number };
      const answered = await rpc.call('generator_estimateSafeStatus', { timeShutdown: 1 });
      if (finalizedHeight === 0) assert.match(String(answered.error?.message), /must be finalized/);
      else
        assertShape(
          answered.result,
          { height: 'integer', maxHeightPrevoted: 'integer', maxHeightGenerated: 'integer' },
          'estimateSafeStatus',
        );
    });
    it('generator_setKeys {address, type, data} and generator_updateStatus {address, password, enable, height, maxHeightGenerated, maxHeightPrevoted}', async () => {
      // a validator that has generated a block: the status lists those (Klayr's generated info)
      const { status } = (await rpc.result('generator_getStatus', {})) as {
        status: { address: string; height: number; maxHeightPrevoted: number; maxHeightGenerated: number }[];
      };
      const current = status[0];
      const other = devValidators().find((v) => v.address === current?.address);
      assert.ok(current && other);
      const { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = other.plain;
      await rpc.shaped(
        'generator_setKeys',
        { address: other.address, type: 'plain', data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } },
        {},
      );
      assert.deepEqual(
        await rpc.shaped(
          'generator_updateStatus',
          {
            address: other.address,
            password: '',
            enable: false,
            height: current.height,
            maxHeightGenerated: current.maxHeightGenerated,
            maxHeightPrevoted: current.maxHeightPrevoted,
          },
          { address: 'klayr32', enabled: 'boolean' },
        ),
        { address: other.address, enabled: false },
      );
    });
  });

  describe('pos and token with a staker', () => {
    it('token_getBalances {address}: a locked balance of module and amount', async () => {
      const { balances } = (await rpc.shaped(
        'token_getBalances',
        { address: stakerAddress },
        {
          balances: arrayOf({
            tokenID: 'hex',
            availableBalance: 'decimal',
            lockedBalances: arrayOf({ module: 'string', amount: 'decimal' }),
          }),
        },
      )) as { balances: { lockedBalances: { module: string; amount: string }[] }[] };
      assert.deepEqual(balances[0]?.lockedBalances, [{ module: 'pos', amount: String(20n * KLY) }]);
    });
    it('pos_getStaker {address}: stakes and pendingUnlocks', async () => {
      const result = (await rpc.shaped(
        'pos_getStaker',
        { address: stakerAddress },
        {
          stakes: arrayOf({
            validatorAddress: 'klayr32',
            amount: 'decimal',
            sharingCoefficients: arrayOf({ tokenID: 'hex', coefficient: 'hex' }),
          }),
          pendingUnlocks: arrayOf({ validatorAddress: 'klayr32', amount: 'decimal', unstakeHeight: 'integer' }),
        },
      )) as { stakes: unknown[]; pendingUnlocks: unknown[] };
      assert.equal(result.stakes.length, 1);
      assert.equal(result.pendingUnlocks.length, 1);
    });
    it('pos_getLockedStakedAmount {address}: {amount}', async () => {
      assert.deepEqual(
        await rpc.shaped('pos_getLockedStakedAmount', { address: stakerAddress }, { amount: 'decimal' }),
        {
          amount: String(20n * KLY),
        },
      );
    });
    it('pos_getPendingUnlocks {address}: {pendingUnlocks}', async () => {
      const { pendingUnlocks } = (await rpc.shaped(
        'pos_getPendingUnlocks',
        { address: stakerAddress },
        {
          pendingUnlocks: arrayOf({
            validatorAddress: 'klayr32',
            amount: 'decimal',
            unstakeHeight: 'integer',
            expectedUnlockableHeight: 'integer',
            unlockable: 'boolean',
          }),
        },
      )) as { pendingUnlocks: unknown[] };
      assert.equal(pendingUnlocks.length, 1);
    });
  });

  describe('legacy', () => {
    it('legacy_getLegacyBrackets {}: the brackets with their sync progress (none on the devnet)', async () => {
      await rpc.shaped(
        'legacy_getLegacyBrackets',
        {},
        arrayOf({
          startHeight: 'integer',
          snapshotBlockHeight: 'integer',
          lastBlockHeight: 'integer',
          snapshotBlockID: 'hex',
        }),
      );
    });
    // the devnet has no legacy chain: each lookup is lisk-db's NotFoundError for Klayr's legacy.db key
    for (const [method, params, key] of [
      ['legacy_getTransactionByID', { id: '01'.repeat(32) }, `transactions:id:${'\u0001'.repeat(32)}`],
      ['legacy_getTransactionsByBlockID', { id: '01'.repeat(32) }, `transactions:blockID:${'\u0001'.repeat(32)}`],
      ['legacy_getBlockByID', { id: '01'.repeat(32) }, `blocks:id:${'\u0001'.repeat(32)}`],
      ['legacy_getBlockByHeight', { height: 1 }, 'blocks:height:\u0000\u0000\u0000\u0001'],
    ] as const)
      it(`${method} ${JSON.stringify(params)}: Klayr's error for a legacy record that is not stored`, async () => {
        const answered = await rpc.call(method, params);
        assert.equal(answered.error?.message, `Specified key ${Buffer.from(key).toString('hex')} does not exist`);
      });
    it("legacy_getBlockByID {} and legacy_getBlockByHeight {}: Klayr's parameter errors", async () => {
      assert.equal(
        (await rpc.call('legacy_getBlockByID', {})).error?.message,
        'Invalid parameters. `id` must be a valid hex string.',
      );
      assert.equal(
        (await rpc.call('legacy_getBlockByHeight', {})).error?.message,
        'Invalid parameters. `height` must be zero or a positive number.',
      );
    });
  });

  describe('network', () => {
    // a node without peers: empty lists, Klayr's stats shape
    it('network_getConnectedPeers: an array of peers (none here)', async () => {
      assert.deepEqual(await rpc.result('network_getConnectedPeers', {}), []);
    });
    it('network_getDisconnectedPeers: an array of peers (none here)', async () => {
      assert.deepEqual(await rpc.result('network_getDisconnectedPeers', {}), []);
    });
    it("network_getStats: @klayr/p2p's NetworkStats", async () => {
      const stats = (await rpc.result('network_getStats', {})) as Record<string, unknown>;
      const counts = { count: 0, connects: 0, disconnects: 0 };
      assert.equal(typeof stats.startTime, 'number');
      assert.deepEqual(stats.incoming, counts);
      assert.deepEqual(stats.outgoing, counts);
      assert.deepEqual(stats.banning, { bannedPeers: {}, count: 0 });
      for (const key of ['totalConnectedPeers', 'totalDisconnectedPeers', 'totalErrors', 'totalRemovedPeers'])
        assert.equal(stats[key], 0, key);
      assert.deepEqual(stats.totalMessagesReceived, {});
      assert.deepEqual(stats.totalRequestsReceived, {});
      assert.equal(typeof stats.totalPeersDiscovered, 'number');
    });
  });
});
