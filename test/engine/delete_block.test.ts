import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Block } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signTransaction, transactionID } from '../../src/lib/transaction/index.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import type { BinaryDB } from '../../src/storage/database.js';
import { openDatabases } from '../../src/storage/database.js';
import { TABLES } from '../../src/storage/tables.js';
import { storedHeights } from '../helpers/chain_consistency.js';
import { devValidators } from '../helpers/devnet.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');

/** A digest of every entry of a database: equal digests, equal contents. */
const digestOf = (db: BinaryDB): string => {
  const parts: Buffer[] = [];
  for (const { key, value } of db.getRange({})) parts.push(Buffer.from(key), Buffer.from(value as Uint8Array));
  return sha256(Buffer.concat(parts)).toString('hex');
};

describe('deleting the last block', () => {
  it('undoes state, tree root, BFT state, block, transactions and events exactly; the same blocks apply again to the same roots; finalized blocks and genesis stay', async () => {
    let now = 0;
    const config = loadConfig({ dataPath: tempDataPath() });
    const dbs = openDatabases(tempDataPath());
    const opened = openChain(config, dbs, { now: () => now });
    const { chain, processor, events, blocks, genesis } = opened;
    const pending: TransactionObject[] = [];
    const generator = devnetGenerator(opened, config, dbs.generator, () => now, {
      candidates: () => pending.splice(0),
    });
    now = genesis.header.timestamp;
    const sender = devValidators()[0]!;
    const snapshots: { root: string; engine: string; state: string }[] = [];
    const snapshot = () => ({
      root: chain.lastBlock().header.stateRoot.toString('hex'),
      engine: digestOf(dbs.engine),
      state: digestOf(dbs.state),
    });
    snapshots.push(snapshot());
    const produced: Block[] = [];
    for (let i = 1; i <= 12; i++) {
      now += config.genesis.blockTime;
      const base = {
        module: 'token',
        command: 'transfer',
        nonce: BigInt(i - 1),
        senderPublicKey: Buffer.from(sender.publicKey, 'hex'),
        params: codec.encode(transferParamsSchema, {
          tokenID: TOKEN_ID,
          amount: 1000n,
          recipientAddress: randomBytes(20),
          data: '',
        }),
      };
      pending.push(
        signTransaction(
          { ...base, fee: computeMinFee(base), signatures: [] },
          chainID,
          Buffer.from(sender.privateKey, 'hex'),
        ),
      );
      const block = await generator.tick();
      assert.ok(block && block.transactions.length === 1);
      produced.push(block);
      snapshots.push(snapshot());
    }
    assert.equal(chain.finalizedHeight(), 0, 'nothing final after 12 blocks');

    for (let height = 12; height >= 1; height--) {
      const deleted = chain.deleteLastBlock();
      assert.equal(deleted.header.height, height);
      assert.equal(chain.lastBlock().header.height, height - 1);
      assert.deepEqual(
        snapshot(),
        snapshots[height - 1],
        `state, tree root and engine state as they were at ${height - 1}`,
      );
      assert.equal(blocks.byHeight(height), undefined);
      assert.equal(blocks.transactionByID(transactionID(deleted.transactions[0]!)), undefined);
      assert.deepEqual(events.at(height), []);
    }
    assert.throws(() => chain.deleteLastBlock(), /Can not delete the genesis block/);

    // a node that deleted blocks accepts the same blocks again, to the same roots
    for (const [i, block] of produced.entries()) {
      processor.processBlock(block);
      assert.deepEqual(snapshot(), snapshots[i + 1]);
    }

    // once blocks are final they stay; their undo data is pruned
    while (chain.finalizedHeight() < 15) {
      now += config.genesis.blockTime;
      assert.ok(await generator.tick());
    }
    const finalized = chain.finalizedHeight();
    while (chain.lastBlock().header.height > finalized + 1) chain.deleteLastBlock();
    chain.deleteLastBlock();
    assert.throws(() => chain.deleteLastBlock(), /Can not delete block below or same as finalized height/);
    assert.equal(chain.lastBlock().header.height, finalized);
    const undoHeights = [...storedHeights(dbs.meta, TABLES.engineUndo), ...storedHeights(dbs.meta, TABLES.stateDiffs)];
    assert.ok(
      undoHeights.every((h) => h > finalized),
      'no undo data kept for final heights',
    );
  });
});
