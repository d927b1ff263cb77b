// Event roots of generated and received blocks computed in the `roots` pool while the main thread computes their state roots.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import type { Block } from '../../src/lib/chain/block.js';
import { signBlockHeader } from '../../src/lib/chain/block.js';
import { computeEventRoot } from '../../src/lib/chain/events.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { openDatabases } from '../../src/storage/database.js';
import { createPooledEventRootComputer, POOLED_EVENT_ROOT_MIN_LEAVES } from '../../src/workers/event_root_pool.js';
import { createPooledSignatureVerifier } from '../../src/workers/signature_verifier.js';
import { devValidators } from '../helpers/devnet.js';
import { transferToNewAccount } from '../helpers/devnet_transfers.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');
const TRANSFERS = 16;

const transfer = (sender: number): TransactionObject =>
  transferToNewAccount(devValidators()[sender]!, Buffer.alloc(20, sender + 1));

describe('event roots in the roots pool', () => {
  const signatures = createPooledSignatureVerifier(chainID, 1);
  const generatorRoots = createPooledEventRootComputer();
  const receiverRoots = createPooledEventRootComputer();
  const pools = { bls: createLocalBlsVerifier(), signatures };
  after(() => Promise.all([signatures.close(), generatorRoots.close(), receiverRoots.close()]));
  let now = 0;
  const config = loadConfig({ dataPath: tempDataPath() });
  const a = openChain(config, openDatabases(tempDataPath()), { now: () => now, eventRoots: generatorRoots });
  const b = openChain(config, openDatabases(tempDataPath()), { now: () => now, eventRoots: receiverRoots });
  now = a.genesis.header.timestamp;

  it("a generated block's event root comes from the pool, and a receiver's pool agrees; a wrong one is refused, nothing committed", async () => {
    const candidates = Array.from({ length: TRANSFERS }, (_, i) => transfer(i));
    const generator = devnetGenerator(a, config, openDatabases(tempDataPath()).generator, () => now, {
      candidates: () => candidates,
      signatures,
    });
    now += config.genesis.blockTime;
    const block = (await generator.tick())!;
    assert.equal(block.transactions.length, TRANSFERS);
    const events = a.events.at(block.header.height);
    const leaves = events.reduce((sum, e) => sum + e.topics.length, 0);
    assert.ok(leaves >= POOLED_EVENT_ROOT_MIN_LEAVES, `${leaves} leaves reach the pool's threshold`);
    assert.equal(generatorRoots.stats().completed, 1, "the generator's event root was computed in its pool");
    assert.equal(block.header.eventRoot.toString('hex'), computeEventRoot(events).toString('hex'));

    const key = readPlainGeneratorKeys(config.generator!.keys.fromFile!).find((k) =>
      k.address.equals(block.header.generatorAddress),
    )!;
    const { signature: _unsigned, ...unsigned } = { ...block.header, eventRoot: Buffer.alloc(32, 1) };
    const wrong: Block = { ...block, header: signBlockHeader(unsigned, chainID, key.generatorPrivateKey) };
    const root = b.state.root.toString('hex');
    await assert.rejects(() => b.processor.processBlockVerifiedBy(wrong, pools), /Event root is not valid/);
    assert.equal(b.chain.lastBlock().header.height, 0);
    assert.equal(b.state.root.toString('hex'), root);

    await b.processor.processBlockVerifiedBy(block, pools);
    assert.equal(receiverRoots.stats().completed, 2, "both blocks' event roots were computed in the receiver's pool");
    assert.equal(b.chain.lastBlock().header.height, 1);
    assert.equal(b.state.root.toString('hex'), a.state.root.toString('hex'));
  });
});
