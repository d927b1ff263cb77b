// Transaction signatures of blocks checked in the verify pool: recorded while the block executes, verified before it commits.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import type { Block } from '../../src/lib/chain/block.js';
import { signBlockHeader } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signTransaction, transactionID } from '../../src/lib/transaction/index.js';
import { merkleRoot } from '../../src/lib/tree/index.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import { openDatabases } from '../../src/storage/database.js';
import { createPooledSignatureVerifier } from '../../src/workers/signature_verifier.js';
import { devValidators } from '../helpers/devnet.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');

const transfer = (sender: number, nonce: bigint, forged = false): TransactionObject => {
  const v = devValidators()[sender]!;
  const base = {
    module: 'token',
    command: 'transfer',
    nonce,
    senderPublicKey: Buffer.from(v.publicKey, 'hex'),
    params: codec.encode(transferParamsSchema, {
      tokenID: TOKEN_ID,
      amount: 1000n,
      recipientAddress: Buffer.alloc(20, 9),
      data: '',
    }),
  };
  const signed = signTransaction(
    { ...base, fee: computeMinFee(base), signatures: [] },
    chainID,
    Buffer.from(v.privateKey, 'hex'),
  );
  return forged ? { ...signed, signatures: [Buffer.alloc(64, 7)] } : signed;
};

describe('transaction signatures of blocks in the verify pool', () => {
  const signatures = createPooledSignatureVerifier(chainID, 2);
  const pools = { bls: createLocalBlsVerifier(), signatures };
  after(() => signatures.close());
  let now = 0;
  const config = loadConfig({ dataPath: tempDataPath() });
  const a = openChain(config, openDatabases(tempDataPath()), { now: () => now });
  const b = openChain(config, openDatabases(tempDataPath()), { now: () => now });
  now = a.genesis.header.timestamp;

  it("generation leaves out a candidate whose signature fails in the pool, with Klayr's reason, and keeps the valid ones", async () => {
    const rejected: string[] = [];
    const forged = transfer(2, 0n, true);
    const pending = [transfer(1, 0n), forged];
    const generator = devnetGenerator(a, config, openDatabases(tempDataPath()).generator, () => now, {
      candidates: () => pending,
      onRejected: (_tx, reason) => rejected.push(reason.message),
      signatures,
    });
    const before = signatures.stats().completed;
    now += config.genesis.blockTime;
    const block = (await generator.tick())!;
    assert.deepEqual(
      block.transactions.map((tx) => transactionID(tx).toString('hex')),
      [transactionID(pending[0]!).toString('hex')],
    );
    assert.equal(rejected.length, 1);
    assert.match(
      rejected[0]!,
      new RegExp(
        `Failed to verify transaction ${transactionID(forged).toString('hex')}\\. Failed to validate signature`,
      ),
    );
    assert.ok(signatures.stats().completed > before, 'checked in the pool');
    await b.processor.processBlockVerifiedBy(block, pools);
    assert.equal(b.state.root.toString('hex'), a.state.root.toString('hex'));
  });

  it('a received block with a forged transaction signature is refused with the error of the synchronous path; nothing is committed', async () => {
    const generator = devnetGenerator(a, config, openDatabases(tempDataPath()).generator, () => now, {
      candidates: () => [transfer(3, 0n)],
    });
    now += config.genesis.blockTime;
    const block = (await generator.tick())!;
    const transactions = [{ ...block.transactions[0]!, signatures: [Buffer.alloc(64, 5)] }];
    const { signature: _unsigned, ...unsigned } = {
      ...block.header,
      transactionRoot: merkleRoot(transactions.map(transactionID)),
    };
    const key = readPlainGeneratorKeys(config.generator!.keys.fromFile!).find((k) =>
      k.address.equals(block.header.generatorAddress),
    )!;
    const forged: Block = {
      ...block,
      transactions,
      header: signBlockHeader(unsigned, chainID, key.generatorPrivateKey),
    };
    const height = b.chain.lastBlock().header.height;
    const root = b.state.root.toString('hex');
    const expected = new RegExp(
      `Failed to verify transaction ${transactionID(transactions[0]!).toString('hex')}\\. Failed to validate signature`,
    );
    await assert.rejects(() => b.processor.processBlockVerifiedBy(forged, pools), expected);
    assert.throws(() => b.processor.processBlock(forged), expected);
    assert.equal(b.chain.lastBlock().header.height, height);
    assert.equal(b.state.root.toString('hex'), root);
    await b.processor.processBlockVerifiedBy(block, pools);
    assert.equal(b.state.root.toString('hex'), a.state.root.toString('hex'));
  });

  it("a received block's signature checks start before its header is checked and it executes, each asked of the pool once", async () => {
    const generator = devnetGenerator(a, config, openDatabases(tempDataPath()).generator, () => now, {
      candidates: () => [transfer(4, 0n), transfer(5, 0n), transfer(6, 0n)],
    });
    now += config.genesis.blockTime;
    const block = (await generator.tick())!;
    assert.equal(block.transactions.length, 3);
    let executing = false;
    const asked: boolean[] = [];
    const execute = b.executor.execute.bind(b.executor);
    b.executor.execute = (...args: Parameters<typeof execute>) => {
      executing = true;
      return execute(...args);
    };
    const spy = {
      ...signatures,
      verify: (...args: Parameters<typeof signatures.verify>) => {
        asked.push(executing);
        return signatures.verify(...args);
      },
    };
    try {
      await b.processor.processBlockVerifiedBy(block, { ...pools, signatures: spy });
    } finally {
      b.executor.execute = execute;
    }
    assert.deepEqual(asked, [false, false, false]);
    assert.equal(b.state.root.toString('hex'), a.state.root.toString('hex'));
  });
});
