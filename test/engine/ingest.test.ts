import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { SignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import { TransactionPool } from '../../src/engine/txpool/index.js';
import { ingestTransaction } from '../../src/engine/txpool/ingest.js';
import { codec } from '../../src/lib/codec/index.js';
import { keyPairFromSeed } from '../../src/lib/crypto/index.js';
import type { MultisigKeys, PreparedTransaction, TransactionObject } from '../../src/lib/transaction/index.js';
import {
  computeMinFee,
  encodeTransaction,
  prepareTransaction,
  signTransaction,
} from '../../src/lib/transaction/index.js';
import type { OpenedChain } from '../../src/main/chain_setup.js';
import { openChain } from '../../src/main/chain_setup.js';
import type { ApplicationConfig } from '../../src/main/config/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { openDatabases } from '../../src/storage/database.js';
import { createPooledSignatureVerifier } from '../../src/workers/signature_verifier.js';
import { devValidators } from '../helpers/devnet.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');

const transfer = (
  privateKey: Buffer,
  publicKey: Buffer,
  nonce: bigint,
  options: { fee?: bigint; badSignature?: boolean } = {},
): PreparedTransaction => {
  const base = {
    module: 'token',
    command: 'transfer',
    nonce,
    senderPublicKey: publicKey,
    params: codec.encode(transferParamsSchema, {
      tokenID: TOKEN_ID,
      amount: 1000n,
      recipientAddress: randomBytes(20),
      data: '',
    }),
  };
  let tx: TransactionObject = signTransaction(
    { ...base, fee: options.fee ?? computeMinFee(base), signatures: [] },
    chainID,
    privateKey,
  );
  if (options.badSignature === true) tx = { ...tx, signatures: [Buffer.alloc(64, 7)] };
  return prepareTransaction(tx, encodeTransaction(tx));
};

const validator = (i: number) => {
  const v = devValidators()[i]!;
  return { privateKey: Buffer.from(v.privateKey, 'hex'), publicKey: Buffer.from(v.publicKey, 'hex') };
};

describe('txpool ingest: state checks here, signatures in the worker pool, in Klayr order', () => {
  let opened: OpenedChain;
  let config: ApplicationConfig;
  let dbs: KestrelDatabases;
  let signatures: SignatureVerifier;
  let now = 0;
  const seen: { id: string; keys: MultisigKeys | undefined }[] = [];
  const counting = (): SignatureVerifier => ({
    verify: (tx, keys) => {
      seen.push({ id: tx.id.toString('hex'), keys });
      return signatures.verify(tx, keys);
    },
    verifyDigest: (digest, signature, key) => signatures.verifyDigest(digest, signature, key),
    stats: () => signatures.stats(),
    close: () => signatures.close(),
  });

  before(() => {
    config = loadConfig({ dataPath: tempDataPath() });
    dbs = openDatabases(tempDataPath());
    opened = openChain(config, dbs, { now: () => now });
    signatures = createPooledSignatureVerifier(chainID, 2);
  });
  after(() => signatures.close());

  it('admits a burst of valid transfers, checking each signature once in the pool', async () => {
    const pool = new TransactionPool({ verifyTransaction: () => 1 });
    const txs = Array.from({ length: 40 }, (_, i) => transfer(validator(i).privateKey, validator(i).publicKey, 0n));
    seen.length = 0;
    await Promise.all(txs.map((tx) => ingestTransaction(opened.transactionVerifier, pool, counting(), tx)));
    assert.equal(pool.size, 40);
    assert.deepEqual(seen.map((s) => s.id).sort(), txs.map((t) => t.id.toString('hex')).sort());
    assert.ok(
      seen.every((s) => s.keys === undefined),
      'single-signature accounts',
    );
  });

  it('a bad signature is reported before a balance or fee problem, as auth checks signatures before the fee module', async () => {
    const pool = new TransactionPool({ verifyTransaction: () => 1 });
    const stranger = keyPairFromSeed(randomBytes(32));
    // no balance at all: with a valid signature the fee module refuses it, with a bad one auth does first
    await assert.rejects(
      ingestTransaction(
        opened.transactionVerifier,
        pool,
        signatures,
        transfer(stranger.privateKey, stranger.publicKey, 0n),
      ),
      /Insufficient balance/,
    );
    await assert.rejects(
      ingestTransaction(
        opened.transactionVerifier,
        pool,
        signatures,
        transfer(stranger.privateKey, stranger.publicKey, 0n, { badSignature: true }),
      ),
      /Failed to validate signature/,
    );
    const { privateKey, publicKey } = validator(50);
    await assert.rejects(
      ingestTransaction(
        opened.transactionVerifier,
        pool,
        signatures,
        transfer(privateKey, publicKey, 0n, { fee: 1n, badSignature: true }),
      ),
      /Failed to validate signature/,
    );
    await assert.rejects(
      ingestTransaction(opened.transactionVerifier, pool, signatures, transfer(privateKey, publicKey, 0n, { fee: 1n })),
      /Insufficient transaction fee/,
    );
    assert.equal(pool.size, 0);
  });

  it('a used nonce is refused before any signature work; a block committed meanwhile is verified against again', async () => {
    const { privateKey, publicKey } = validator(60);
    let pending: TransactionObject[] = [transfer(privateKey, publicKey, 0n).transaction];
    const generator = devnetGenerator(opened, config, dbs.generator, () => now, {
      candidates: () => pending.splice(0),
    });
    now = opened.chain.lastBlock().header.timestamp + config.genesis.blockTime;
    assert.ok(await generator.tick());
    assert.equal(opened.chain.lastBlock().transactions.length, 1);

    const pool = new TransactionPool({ verifyTransaction: () => 1 });
    seen.length = 0;
    await assert.rejects(
      ingestTransaction(
        opened.transactionVerifier,
        pool,
        counting(),
        transfer(privateKey, publicKey, 0n, { badSignature: true }),
      ),
      /nonce is lower than account nonce/,
    );
    assert.equal(seen.length, 0, 'no signature check for a used nonce');

    // nonce 1 is valid at the tip; while its signature is checked, a block takes nonce 1
    pending = [transfer(privateKey, publicKey, 1n).transaction];
    const blockMeanwhile: SignatureVerifier = {
      ...signatures,
      verify: async (tx, keys) => {
        now += config.genesis.blockTime;
        assert.equal((await generator.tick())?.transactions.length, 1);
        return signatures.verify(tx, keys);
      },
    };
    await assert.rejects(
      ingestTransaction(opened.transactionVerifier, pool, blockMeanwhile, transfer(privateKey, publicKey, 1n)),
      /nonce is lower than account nonce/,
    );
    assert.equal(pool.size, 0);
  });
});
