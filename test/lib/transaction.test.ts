import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codec } from '../../src/lib/codec/index.js';
import { ed25519KeyPairFromPassphraseAndPath, keyPairFromSeed } from '../../src/lib/crypto/index.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import * as tx from '../../src/lib/transaction/index.js';
import { devnetPassphrase } from '../helpers/devnet.js';
import { klayrChain, klayrFrameworkSchemas, klayrTransactions } from '../helpers/klayr.js';
import { Rng, randomObject } from '../helpers/random.js';

const rng = new Rng(99);
const chainID = Buffer.from('04000000', 'hex');
const transferSchema = klayrFrameworkSchemas().find((s) => s.$id === '/klayr/transferParams')!;
const sender = ed25519KeyPairFromPassphraseAndPath(devnetPassphrase(), "m/44'/134'/0'");

const transferParams = (): Record<string, unknown> => ({
  tokenID: Buffer.from('0400000000000000', 'hex'),
  amount: BigInt(rng.int(2 ** 40)),
  recipientAddress: rng.bytes(20),
  data: rng.string(20),
});

const unsigned = (params: Buffer, senderPublicKey = sender.publicKey): TransactionObject => ({
  module: 'token',
  command: 'transfer',
  nonce: BigInt(rng.int(1000)),
  fee: BigInt(100000 + rng.int(1e6)),
  senderPublicKey,
  params,
  signatures: [],
});

describe('transactions against @klayr/transactions and @klayr/chain', () => {
  it('signing bytes, signatures, IDs and full bytes are equal for signed transfers', () => {
    for (let i = 0; i < 300; i++) {
      const params = transferParams();
      const t = unsigned(codec.encode(transferSchema, params));
      const signed = tx.signTransaction(t, chainID, sender.privateKey);
      const theirs = klayrTransactions.signTransaction(
        { ...t, params, signatures: [] },
        chainID,
        sender.privateKey,
        transferSchema,
      );
      assert.equal(signed.signatures[0]!.toString('hex'), theirs.signatures[0].toString('hex'));
      assert.equal(tx.transactionID(signed).toString('hex'), theirs.id.toString('hex'));
      assert.equal(
        tx.encodeTransaction(signed).toString('hex'),
        klayrTransactions.getBytes(theirs, transferSchema).toString('hex'),
      );
      assert.equal(
        tx.signingBytes(signed).toString('hex'),
        klayrTransactions.getSigningBytes(theirs, transferSchema).toString('hex'),
      );
      const chainTx = klayrChain.Transaction.fromBytes(tx.encodeTransaction(signed));
      assert.equal(chainTx.id.toString('hex'), tx.transactionID(signed).toString('hex'));
      // as text: Klayr's key order too (params after command), which clients that print or hash the JSON see
      assert.equal(JSON.stringify(tx.transactionToJSON(signed)), JSON.stringify(chainTx.toJSON()));
      assert.deepStrictEqual(tx.transactionFromJSON(chainTx.toJSON()), signed);
      tx.verifyTransactionSignatures(signed, chainID);
      assert.equal(
        tx.signingBytesOfEncoded(signed, tx.encodeTransaction(signed)).toString('hex'),
        tx.signingBytes(signed).toString('hex'),
      );
    }
  });

  it("a block's transactions prepared at once (IDs and senders in a batch each) equal each prepared alone, with @klayr/chain's IDs", () => {
    const keys = Array.from({ length: 20 }, (_, i) => keyPairFromSeed(Buffer.alloc(32, i + 1)).publicKey);
    for (const count of [0, 1, 7, 8, 9, 20, 64]) {
      const block = Array.from({ length: count }, (_, i) => ({
        ...unsigned(codec.encode(transferSchema, transferParams()), keys[i % keys.length]),
        signatures: [rng.bytes(64)],
      }));
      const prepared = tx.prepareTransactions(block);
      assert.deepEqual(
        prepared,
        block.map((t) => tx.prepareTransaction(t)),
        `${count} transactions`,
      );
      for (const p of prepared)
        assert.equal(p.id.toString('hex'), klayrChain.Transaction.fromBytes(p.bytes).id.toString('hex'));
    }
    // the first failure in transaction order, as one at a time: a short sender key before a later unencodable one
    const block = Array.from({ length: 12 }, () => unsigned(codec.encode(transferSchema, transferParams())));
    block[3] = { ...block[3]!, senderPublicKey: Buffer.alloc(31) };
    block[6] = { ...block[6]!, nonce: -1n };
    const alone = (() => {
      try {
        block.map((t) => tx.prepareTransaction(t));
      } catch (error) {
        return (error as Error).message;
      }
    })();
    assert.match(alone ?? '', /publicKey must be 32 bytes/);
    assert.throws(() => tx.prepareTransactions(block), { message: alone });
  });

  it('min fee equals computeMinFee for random params sizes, signature counts and extra fees', () => {
    const regSchema = klayrFrameworkSchemas().find((s) => s.$id === '/pos/command/registerValidatorParams')!;
    for (let i = 0; i < 200; i++) {
      const schema = rng.pick([transferSchema, regSchema]);
      const params = randomObject(rng, schema);
      const t = unsigned(codec.encode(schema, params));
      const options = {
        minFeePerByte: rng.pick([1000, 1, 5000]),
        numberOfSignatures: 1 + rng.int(4),
        numberOfEmptySignatures: rng.int(3),
        additionalFee: rng.pick([0n, 1000000000n]),
      };
      const expected: bigint = klayrTransactions.computeMinFee({ ...t, params }, schema, options);
      assert.equal(tx.computeMinFee(t, options), expected);
    }
  });

  it('multi-signature signing equals @klayr/transactions and passes the auth module rules', () => {
    const members = Array.from({ length: 4 }, () => keyPairFromSeed(rng.bytes(32)));
    const mandatoryKeys = members.slice(0, 2).map((m) => m.publicKey);
    const optionalKeys = members.slice(2).map((m) => m.publicKey);
    const params = transferParams();
    let ours = unsigned(codec.encode(transferSchema, params), members[0]!.publicKey);
    let theirs = { ...ours, params, signatures: [] as Buffer[] };
    for (const m of [members[0]!, members[1]!, members[3]!]) {
      ours = tx.signMultiSignatureTransaction(ours, chainID, m.privateKey, { mandatoryKeys, optionalKeys });
      theirs = klayrTransactions.signMultiSignatureTransaction(
        theirs,
        chainID,
        m.privateKey,
        { mandatoryKeys: [...mandatoryKeys], optionalKeys: [...optionalKeys] },
        transferSchema,
      );
    }
    assert.deepStrictEqual(
      ours.signatures.map((s) => s.toString('hex')),
      theirs.signatures.map((s) => s.toString('hex')),
    );
    const sorted = {
      mandatoryKeys: [...mandatoryKeys].sort(Buffer.compare),
      optionalKeys: [...optionalKeys].sort(Buffer.compare),
    };
    tx.verifyTransactionSignatures(ours, chainID, { numberOfSignatures: 3, ...sorted });
    // the signing bytes cut from the encoding, empty signature slots included
    assert.equal(
      tx.signingBytesOfEncoded(ours, tx.encodeTransaction(ours)).toString('hex'),
      klayrTransactions.getSigningBytes(theirs, transferSchema).toString('hex'),
    );
    assert.throws(
      () => tx.verifyTransactionSignatures(ours, chainID, { numberOfSignatures: 4, ...sorted }),
      /does not match required number of signatures/,
    );
    const missingMandatory = { ...ours, signatures: ours.signatures.map((s, i) => (i === 0 ? Buffer.alloc(0) : s)) };
    assert.throws(
      () => tx.verifyTransactionSignatures(missingMandatory, chainID, { numberOfSignatures: 2, ...sorted }),
      /mandatory key/,
    );
    const forged = { ...ours, signatures: ours.signatures.map((s, i) => (i === 1 ? Buffer.alloc(64, 1) : s)) };
    assert.throws(
      () => tx.verifyTransactionSignatures(forged, chainID, { numberOfSignatures: 3, ...sorted }),
      /Failed to validate signature/,
    );
  });

  it('a signature for another chain, a tampered field or two signatures fail verification', () => {
    const signed = tx.signTransaction(
      unsigned(codec.encode(transferSchema, transferParams())),
      chainID,
      sender.privateKey,
    );
    assert.throws(() => tx.verifyTransactionSignatures(signed, Buffer.from('04000001', 'hex')), /Failed to validate/);
    assert.throws(
      () => tx.verifyTransactionSignatures({ ...signed, nonce: signed.nonce + 1n }, chainID),
      /Failed to validate/,
    );
    assert.throws(
      () =>
        tx.verifyTransactionSignatures(
          { ...signed, signatures: [...signed.signatures, ...signed.signatures] },
          chainID,
        ),
      /exactly one signature/,
    );
  });

  it('validation refuses what @klayr/chain refuses', () => {
    const good = tx.signTransaction(
      unsigned(codec.encode(transferSchema, transferParams())),
      chainID,
      sender.privateKey,
    );
    const bad: [Partial<TransactionObject>, RegExp][] = [
      [{ module: '' }, /fewer than 1/],
      [{ module: 'tok-en' }, /Invalid module name/],
      [{ command: 'x'.repeat(33) }, /more than 32/],
      [{ senderPublicKey: Buffer.alloc(31) }, /fewer than 32/],
      [{ params: Buffer.alloc(14 * 1024 + 1) }, /Params exceeds/],
      [{ signatures: [] }, /must not be empty/],
      [{ signatures: [Buffer.alloc(63)] }, /empty or 64 bytes/],
    ];
    tx.validateTransaction(good);
    for (const [patch, pattern] of bad) {
      const t = { ...good, ...patch };
      assert.throws(() => tx.validateTransaction(t), pattern);
      assert.throws(() => new klayrChain.Transaction(t).validate());
    }
    assert.throws(() => tx.signTransaction(good, Buffer.alloc(0), sender.privateKey), /ChainID is required/);
    assert.throws(() => tx.signTransaction(good, chainID, sender.privateKey.subarray(0, 32)), /64 bytes/);
  });
});
