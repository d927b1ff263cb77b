import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import * as b from '../../src/lib/chain/block.js';
import { keyPairFromSeed } from '../../src/lib/crypto/index.js';
import { signTransaction, validateTransaction } from '../../src/lib/transaction/index.js';
import { devnetFile } from '../helpers/devnet.js';
import { klayrChain } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const chainID = Buffer.from('04000000', 'hex');
const GENESIS_ID = '569d3da971979f0a5832c84784dda3f86194664e8a9cff7fea50fef243354d48';

const randomBlock = (rng: Rng): Block => {
  const generator = keyPairFromSeed(rng.bytes(32));
  const sender = keyPairFromSeed(rng.bytes(32));
  const transactions = Array.from({ length: rng.int(6) }, (_, i) =>
    signTransaction(
      {
        module: 'token',
        command: 'transfer',
        nonce: BigInt(i),
        fee: 1000000n,
        senderPublicKey: sender.publicKey,
        params: rng.bytes(rng.int(100)),
        signatures: [],
      },
      chainID,
      sender.privateKey,
    ),
  );
  const assets = ['auth', 'random', 'token']
    .filter(() => rng.next() < 0.7)
    .map((module) => ({ module, data: rng.bytes(1 + rng.int(18)) }));
  const unsigned: Omit<BlockHeader, 'signature'> = {
    version: 2,
    timestamp: rng.int(2 ** 31),
    height: 1 + rng.int(1_000_000),
    previousBlockID: rng.bytes(32),
    generatorAddress: rng.bytes(20),
    transactionRoot: b.computeTransactionRoot(transactions),
    assetRoot: b.computeAssetRoot(assets),
    eventRoot: rng.bytes(32),
    stateRoot: rng.bytes(32),
    maxHeightPrevoted: rng.int(1000),
    maxHeightGenerated: rng.int(1000),
    impliesMaxPrevotes: rng.next() < 0.5,
    validatorsHash: rng.bytes(32),
    aggregateCommit: {
      height: rng.int(1000),
      aggregationBits: rng.bytes(rng.int(13)),
      certificateSignature: rng.bytes(rng.pick([0, 96])),
    },
  };
  return { header: b.signBlockHeader(unsigned, chainID, generator.privateKey), transactions, assets };
};

describe('blocks against @klayr/chain', () => {
  it('200 random signed blocks: bytes, IDs, signing bytes, signatures, roots and validation equal', () => {
    const rng = new Rng(21);
    for (let i = 0; i < 200; i++) {
      const block = randomBlock(rng);
      const bytes = b.encodeBlock(block);
      const theirs = klayrChain.Block.fromBytes(bytes);
      assert.equal(b.blockHeaderID(block.header).toString('hex'), theirs.header.id.toString('hex'));
      assert.equal(
        b.blockHeaderSigningBytes(block.header).toString('hex'),
        theirs.header.getSigningBytes().toString('hex'),
      );
      assert.equal(theirs.getBytes().toString('hex'), bytes.toString('hex'));
      assert.deepStrictEqual(b.decodeBlock(bytes), block);
      b.validateBlock(block, validateTransaction);
      theirs.validate();
      // as text: Klayr's key order too (BlockHeader.toJSON's, not the schema's), which clients that print or hash the JSON see
      assert.equal(JSON.stringify(b.blockToJSON(block)), JSON.stringify(theirs.toJSON()));
    }
  });

  it('a block signature verifies for its generator key only', () => {
    const rng = new Rng(3);
    const generator = keyPairFromSeed(rng.bytes(32));
    const { header } = randomBlock(rng);
    const signed = b.signBlockHeader(header, chainID, generator.privateKey);
    assert.equal(b.verifyBlockHeaderSignature(signed, generator.publicKey, chainID), true);
    klayrChain.BlockHeader.fromBytes(b.encodeBlockHeader(signed)).validateSignature(generator.publicKey, chainID);
    assert.equal(b.verifyBlockHeaderSignature(signed, keyPairFromSeed(rng.bytes(32)).publicKey, chainID), false);
    assert.equal(
      b.verifyBlockHeaderSignature({ ...signed, height: signed.height + 1 }, generator.publicKey, chainID),
      false,
    );
  });

  it('invalid blocks are refused as Klayr refuses them', () => {
    const rng = new Rng(4);
    const block = randomBlock(rng);
    const cases: [Block, RegExp][] = [
      [{ ...block, header: { ...block.header, transactionRoot: rng.bytes(32) } }, /Invalid transaction root/],
      [{ ...block, header: { ...block.header, assetRoot: rng.bytes(32) } }, /Invalid assets root/],
      [{ ...block, header: { ...block.header, signature: Buffer.alloc(10) } }, /Signature length must be 64 bytes/],
      [
        { ...block, header: { ...block.header, previousBlockID: Buffer.alloc(0) } },
        /Previous block id must not be empty/,
      ],
      [
        {
          ...block,
          assets: [
            { module: 'token', data: Buffer.alloc(1) },
            { module: 'auth', data: Buffer.alloc(1) },
          ],
        },
        /not sorted/,
      ],
      [{ ...block, assets: [{ module: 'token', data: Buffer.alloc(19) }] }, /more than 18 bytes/],
    ];
    for (const [bad, pattern] of cases) {
      assert.throws(() => b.validateBlock(bad, validateTransaction), pattern);
      assert.throws(() => klayrChain.Block.fromBytes(b.encodeBlock(bad)).validate());
    }
  });
});

describe('the devnet genesis block', () => {
  const blob = readFileSync(devnetFile('genesis_block.blob'));

  it(`decodes, has ID ${GENESIS_ID.slice(0, 12)}…, passes the genesis rules and reproduces its asset root`, () => {
    const block = b.decodeBlock(blob);
    assert.equal(b.blockHeaderID(block.header).toString('hex'), GENESIS_ID);
    assert.equal(b.encodeBlock(block).toString('hex'), blob.toString('hex'));
    assert.deepEqual(
      block.assets.map((a) => a.module),
      ['interoperability', 'legacy', 'pos', 'token'],
    );
    b.validateGenesisBlock(block);
    klayrChain.Block.fromBytes(blob).validateGenesis();
  });

  it('a genesis block with one altered byte in any asset is refused', () => {
    const block = b.decodeBlock(blob);
    for (let i = 0; i < block.assets.length; i++) {
      const data = Buffer.from(block.assets[i]!.data);
      data[Math.floor(data.length / 2)]! ^= 0x01;
      const altered: Block = { ...block, assets: block.assets.map((a, j) => (j === i ? { ...a, data } : a)) };
      assert.throws(() => b.validateGenesisBlock(altered), /Invalid assets root/);
    }
    assert.throws(
      () => b.validateGenesisBlock({ ...block, header: { ...block.header, signature: Buffer.alloc(64) } }),
      /signature must be empty bytes/,
    );
  });
});
