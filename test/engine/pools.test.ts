// One suite per pool interface, run over its same-thread and its worker-pool implementation (Lodestar's chain/bls tests).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { BlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import type { EventRootComputer } from '../../src/engine/pools/event_root_computer.js';
import { createLocalEventRootComputer } from '../../src/engine/pools/event_root_computer.js';
import type { OnionGenerator } from '../../src/engine/pools/onion_generator.js';
import { createLocalOnionGenerator } from '../../src/engine/pools/onion_generator.js';
import { prefetchProofsOfPossession } from '../../src/engine/pools/pop_prefetch.js';
import type { PoolStats, SignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import { createLocalSignatureVerifier } from '../../src/engine/pools/signature_verifier.js';
import type { StateProver } from '../../src/engine/pools/state_prover.js';
import { createLocalStateProver } from '../../src/engine/pools/state_prover.js';
import type { UnsignedCertificate } from '../../src/lib/chain/certificate.js';
import {
  certificateSignatureRequest,
  signCertificate,
  singleCertificateSignatureRequest,
  sortByBLSKey,
} from '../../src/lib/chain/certificate.js';
import { computeEventRoot, encodeEvent } from '../../src/lib/chain/events.js';
import { createAggSig } from '../../src/lib/crypto/aggregate.js';
import { blsPopVerify } from '../../src/lib/crypto/bls.js';
import { hashOnion } from '../../src/lib/crypto/hash_onion.js';
import { keyPairFromSeed, signDetached } from '../../src/lib/crypto/index.js';
import { computeStorePrefix, computeSubstorePrefix, stateSMTKey } from '../../src/lib/state/keys.js';
import type { MultisigKeys, TransactionObject } from '../../src/lib/transaction/index.js';
import {
  encodeTransaction,
  prepareTransaction,
  signMultiSignatureTransaction,
  signTransaction,
  verifyTransactionSignatures,
} from '../../src/lib/transaction/index.js';
import { verifySMTProof } from '../../src/lib/tree/index.js';
import { createPooledBlsVerifier } from '../../src/workers/bls_verifier.js';
import { createPooledEventRootComputer, POOLED_EVENT_ROOT_MIN_LEAVES } from '../../src/workers/event_root_pool.js';
import { createPooledOnionGenerator } from '../../src/workers/onion_pool.js';
import { createPooledSignatureVerifier } from '../../src/workers/signature_verifier.js';
import { createPooledStateProver } from '../../src/workers/state_prover.js';
import { devValidators } from '../helpers/devnet.js';
import { Rng } from '../helpers/random.js';
import { openState, tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');

/** Runs `suite` once per implementation, each in a describe of its own with a fresh instance closed afterwards. */
const overBoth = <T extends { close(): Promise<void> }>(
  implementations: Record<'local' | 'pooled', () => T>,
  suite: (get: () => T) => void,
): void => {
  for (const [kind, create] of Object.entries(implementations)) {
    describe(kind, () => {
      let instance: T;
      before(() => {
        instance = create();
      });
      after(() => instance.close());
      suite(() => instance);
    });
  }
};

/** After its tasks settled: nothing queued, each counted with a time. */
const assertCounted = (before: PoolStats, now: PoolStats): void => {
  assert.equal(now.queued, 0);
  assert.ok(now.completed > before.completed, `completed ${before.completed} -> ${now.completed}`);
  assert.ok(now.taskSeconds > before.taskSeconds, `task seconds ${before.taskSeconds} -> ${now.taskSeconds}`);
};

describe('SignatureVerifier', () => {
  const members = [1, 2, 3, 4].map((n) => keyPairFromSeed(Buffer.alloc(32, n)));
  const sortKeys = (keys: Buffer[]) => [...keys].sort(Buffer.compare);
  const account: MultisigKeys = {
    numberOfSignatures: 3,
    mandatoryKeys: sortKeys(members.slice(0, 2).map((m) => m.publicKey)),
    optionalKeys: sortKeys(members.slice(2).map((m) => m.publicKey)),
  };
  const base: TransactionObject = {
    module: 'token',
    command: 'transfer',
    nonce: 3n,
    fee: 1000000n,
    senderPublicKey: members[0]!.publicKey,
    params: Buffer.alloc(40, 5),
    signatures: [],
  };
  const single = signTransaction(base, chainID, members[0]!.privateKey);
  let multi = base;
  for (const m of [members[0]!, members[1]!, members[3]!])
    multi = signMultiSignatureTransaction(multi, chainID, m.privateKey, account);
  const signedOptional = multi.signatures.findIndex((s, i) => i >= 2 && s.length > 0);
  const withSignatures = (tx: TransactionObject, change: (s: Buffer, i: number) => Buffer): TransactionObject => ({
    ...tx,
    signatures: tx.signatures.map(change),
  });
  const cases: [TransactionObject, MultisigKeys | undefined][] = [
    [single, undefined],
    [withSignatures(single, () => Buffer.alloc(64, 9)), undefined],
    [{ ...single, signatures: [single.signatures[0]!, single.signatures[0]!] }, undefined],
    [{ ...single, nonce: 4n }, undefined],
    [multi, account],
    [multi, { ...account, numberOfSignatures: 4 }],
    [withSignatures(multi, (s, i) => (i === 0 ? Buffer.alloc(0) : s)), { ...account, numberOfSignatures: 2 }],
    [withSignatures(multi, (s, i) => (i === 1 ? Buffer.alloc(64, 1) : s)), account],
    // a forged optional signature after a missing mandatory one: the missing one is met first
    [
      withSignatures(multi, (s, i) => (i === 1 ? Buffer.alloc(0) : i === signedOptional ? Buffer.alloc(64, 1) : s)),
      { ...account, numberOfSignatures: 2 },
    ],
    [
      withSignatures(multi, (s, i) => (i === signedOptional ? Buffer.alloc(0) : s)),
      { ...account, numberOfSignatures: 2 },
    ],
  ];
  const auth = cases.map(([tx, keys]) => {
    try {
      verifyTransactionSignatures(tx, chainID, keys);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  });

  it("the auth module's own verdicts, as the cases below expect them", () => {
    assert.deepEqual(
      auth.map((m) => m?.replace(/'[0-9a-f]{64,}'/g, "'..'")),
      [
        undefined,
        "Failed to validate signature '..' for transaction with id '..'",
        'Transactions from a single signature account should have exactly one signature. Found 2 signatures.',
        "Failed to validate signature '..' for transaction with id '..'",
        undefined,
        "Transaction signatures does not match required number of signatures: '4' for transaction with id '..'",
        'Missing signature for a mandatory key.',
        "Failed to validate signature '..' for transaction with id '..'",
        'Missing signature for a mandatory key.',
        undefined,
      ],
    );
  });

  overBoth<SignatureVerifier>(
    { local: () => createLocalSignatureVerifier(chainID), pooled: () => createPooledSignatureVerifier(chainID, 2) },
    (verifier) => {
      it('reaches the verdict and message of the auth module, single and multisignature', async () => {
        const verdicts = await Promise.all(
          cases.map(([tx, keys]) => verifier().verify(prepareTransaction(tx, encodeTransaction(tx)), keys)),
        );
        assert.deepEqual(verdicts, auth);
      });

      it("checks a digest's signature (a block header's): valid, another key, a forged signature", async () => {
        const digest = Buffer.alloc(32, 7);
        const signature = signDetached(digest, members[0]!.privateKey);
        const verdicts = await Promise.all([
          verifier().verifyDigest(digest, signature, members[0]!.publicKey),
          verifier().verifyDigest(digest, signature, members[1]!.publicKey),
          verifier().verifyDigest(digest, Buffer.alloc(64, 1), members[0]!.publicKey),
          verifier().verifyDigest(Buffer.alloc(32, 8), signature, members[0]!.publicKey),
        ]);
        assert.deepEqual(verdicts, [true, false, false, false]);
      });

      it('counts its tasks and their time', async () => {
        const before = verifier().stats();
        await verifier().verify(prepareTransaction(single, encodeTransaction(single)), undefined);
        assertCounted(before, verifier().stats());
      });
    },
  );
});

describe('BlsVerifier', () => {
  const validators = sortByBLSKey(
    devValidators()
      .slice(0, 10)
      .map((v) => ({
        blsKey: Buffer.from(v.plain.blsKey, 'hex'),
        blsPrivateKey: Buffer.from(v.plain.blsPrivateKey, 'hex'),
        blsProofOfPossession: Buffer.from(v.plain.blsProofOfPossession, 'hex'),
        bftWeight: 10n,
      })),
  );
  const certificate: UnsignedCertificate = {
    blockID: randomBytes(32),
    height: 500,
    timestamp: 1700000000,
    stateRoot: randomBytes(32),
    validatorsHash: randomBytes(32),
  };
  const signatures = validators.map((v) => signCertificate(v.blsPrivateKey, chainID, certificate));
  /** The certificate signed by the first `signers` validators, checked against `threshold`. */
  const aggregate = (signers: number, threshold: bigint, tamper = false) => {
    const { aggregationBits, signature } = createAggSig(
      validators.map((v) => v.blsKey),
      validators.slice(0, signers).map((v, i) => ({ publicKey: v.blsKey, signature: signatures[i]! })),
    );
    if (tamper) signature[10]! ^= 1;
    return certificateSignatureRequest(
      certificate.validatorsHash,
      validators,
      threshold,
      chainID,
      certificate,
      aggregationBits,
      signature,
    );
  };
  const aggregates = [aggregate(7, 67n), aggregate(7, 71n), aggregate(10, 67n, true), aggregate(10, 100n)];
  const aggregateVerdicts = [true, false, false, true];
  // every third single commit carries the next validator's signature
  const singles = validators.map((v, i) =>
    singleCertificateSignatureRequest(
      v.blsKey,
      signatures[i % 3 === 2 ? (i + 1) % validators.length : i]!,
      chainID,
      certificate,
    ),
  );
  const singleVerdicts = validators.map((_, i) => i % 3 !== 2);
  // every third proof of possession is the next validator's
  const pops = validators
    .slice(0, 6)
    .map((v, i) => ({ pk: v.blsKey, proof: validators[i % 3 === 2 ? i + 1 : i]!.blsProofOfPossession }));
  const popVerdicts = pops.map((_, i) => i % 3 !== 2);

  overBoth<BlsVerifier>(
    { local: () => createLocalBlsVerifier(), pooled: () => createPooledBlsVerifier(2) },
    (verifier) => {
      it('aggregate commits and certificates: enough weight and a matching aggregate signature, alone or batched', async () => {
        assert.deepEqual(await Promise.all(aggregates.map((r) => verifier().verifyAggregate(r))), aggregateVerdicts);
        assert.deepEqual(
          await Promise.all(aggregates.map((r) => verifier().verifyAggregate(r, { batchable: true }))),
          aggregateVerdicts,
        );
      });

      it('single commits: each signature under its own validator key, as a list or batched with other calls', async () => {
        assert.deepEqual(await verifier().verifySingles(singles), singleVerdicts);
        const batched = await Promise.all([
          verifier().verifySingles(singles.slice(0, 4), { batchable: true }),
          verifier().verifySingles(singles.slice(4), { batchable: true }),
        ]);
        assert.deepEqual(batched.flat(), singleVerdicts);
        assert.deepEqual(await verifier().verifySingles([]), []);
      });

      it('proofs of possession: a verdict per key, a proof under another key refused', async () => {
        assert.deepEqual(await verifier().verifyProofsOfPossession(pops), popVerdicts);
        assert.deepEqual(
          await verifier().verifyProofsOfPossession(pops.slice(0, 3), { batchable: true }),
          popVerdicts.slice(0, 3),
        );
      });

      it('counts its tasks and their time', async () => {
        const before = verifier().stats();
        await verifier().verifyAggregate(aggregates[0]!);
        assertCounted(before, verifier().stats());
      });
    },
  );
});

describe('proofs of possession prefetched for the state machine', () => {
  it("blsPopVerify answers the verifier's verdict afterwards, without checking again", async () => {
    const [a, b] = devValidators().slice(30, 32);
    // a proof under another key, which a real check refuses; a verifier that says yes is remembered
    const item = { pk: Buffer.from(a!.plain.blsKey, 'hex'), proof: Buffer.from(b!.plain.blsProofOfPossession, 'hex') };
    const asked: number[] = [];
    const yes: BlsVerifier = {
      ...createLocalBlsVerifier(),
      verifyProofsOfPossession: async (items) => {
        asked.push(items.length);
        return items.map(() => true);
      },
    };
    await prefetchProofsOfPossession([item], yes);
    assert.deepEqual(asked, [1]);
    assert.equal(blsPopVerify(item.pk, item.proof), true);
    await prefetchProofsOfPossession([], yes);
    assert.deepEqual(asked, [1], 'nothing to ask for no items');
  });
});

describe('StateProver', () => {
  const dataPath = tempDataPath();
  const db = openState(dataPath);
  const rng = new Rng(9);
  const keys = Array.from({ length: 50 }, () =>
    Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(0), rng.bytes(20)]),
  );
  const state = db.newOverlay();
  for (const k of keys) state.set(k, rng.bytes(16));
  const root = db.commit(db.prepare(state), 0);
  // the writer keeps committing while the prover proves height 0
  const later = db.newOverlay();
  later.set(keys[0]!, Buffer.from('changed'));
  db.commit(db.prepare(later), 1);
  const query = [
    keys[3]!,
    keys[7]!,
    Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(0), rng.bytes(20)]),
  ];

  overBoth<StateProver>(
    { local: () => createLocalStateProver(), pooled: () => createPooledStateProver(2) },
    (prover) => {
      it('opens the environment read-only and proves keys against the committed root of a height', async () => {
        const proof = await prover().prove({ dataPath, height: 0, expectedRoot: root, keys: query.map(stateSMTKey) });
        assert.equal(proof.root.toString('hex'), root.toString('hex'));
        assert.equal(verifySMTProof(query.map(stateSMTKey), proof, root, 38), true);
      });

      it('refuses to answer from a snapshot whose root is not the one expected', async () => {
        await assert.rejects(
          () => prover().prove({ dataPath, height: 1, expectedRoot: root, keys: query.map(stateSMTKey) }),
          /Snapshot mismatch/,
        );
      });

      it('counts its tasks and their time', async () => {
        const before = prover().stats();
        await prover().prove({ dataPath, expectedRoot: db.root, keys: query.map(stateSMTKey) });
        assertCounted(before, prover().stats());
      });
    },
  );
});

describe('OnionGenerator', () => {
  overBoth<OnionGenerator>(
    { local: () => createLocalOnionGenerator(), pooled: () => createPooledOnionGenerator(1) },
    (onions) => {
      it("answers the onion's checkpoints as Buffers, equal to the hash onion computed here", async () => {
        const seed = Buffer.alloc(16, 3);
        const checkpoints = await onions().generate({ seed, count: 3000, distance: 1000 });
        assert.ok(checkpoints.every((c) => Buffer.isBuffer(c)));
        assert.deepEqual(checkpoints, hashOnion(seed, 3000, 1000));
      });

      it('counts its tasks and their time', async () => {
        const before = onions().stats();
        await onions().generate({ seed: Buffer.alloc(16, 4), count: 1000, distance: 100 });
        assertCounted(before, onions().stats());
      });
    },
  );
});

describe('EventRootComputer', () => {
  /** `count` events of a block: a transaction's ID and an address or two on each, as a block of transfers has. */
  const blockEvents = (rng: Rng, count: number, topicsEach: number) => {
    const ids = Array.from({ length: Math.ceil(count / 5) }, () => rng.bytes(32));
    const addresses = Array.from({ length: 8 }, () => rng.bytes(20));
    return Array.from({ length: count }, (_, index) => ({
      module: 'token',
      name: 'transfer',
      data: rng.bytes(40),
      topics: [ids[Math.floor(index / 5)]!, ...Array.from({ length: topicsEach - 1 }, () => rng.pick(addresses))],
      height: 7,
      index,
    }));
  };
  const encodings = (events: ReturnType<typeof blockEvents>) => events.map((e) => encodeEvent(e));

  overBoth<EventRootComputer>(
    { local: () => createLocalEventRootComputer(), pooled: () => createPooledEventRootComputer() },
    (roots) => {
      it("answers computeEventRoot's root, as a Buffer, for blocks below and above the pool's threshold", async () => {
        const rng = new Rng(31);
        for (const [count, topicsEach] of [
          [0, 1],
          [3, 2],
          [POOLED_EVENT_ROOT_MIN_LEAVES / 2 - 1, 2],
          [POOLED_EVENT_ROOT_MIN_LEAVES, 1],
          [600, 3],
        ] as const) {
          const events = blockEvents(rng, count, topicsEach);
          const root = await roots().root(events, encodings(events));
          assert.ok(Buffer.isBuffer(root));
          assert.equal(root.toString('hex'), computeEventRoot(events).toString('hex'), `${count} events`);
        }
      });

      it('answers roots asked for at once, each its own', async () => {
        const rng = new Rng(32);
        const blocks = Array.from({ length: 6 }, (_, i) => blockEvents(rng, 100 + 50 * i, 2));
        const answers = await Promise.all(blocks.map((events) => roots().root(events, encodings(events))));
        assert.deepEqual(
          answers.map((r) => r.toString('hex')),
          blocks.map((events) => computeEventRoot(events).toString('hex')),
        );
      });
    },
  );

  it('the pool hashes large blocks in its thread and small ones on the calling thread', async () => {
    const pool = createPooledEventRootComputer();
    try {
      const rng = new Rng(33);
      const small = blockEvents(rng, POOLED_EVENT_ROOT_MIN_LEAVES / 2 - 1, 2);
      await pool.root(small, encodings(small));
      assert.equal(pool.stats().completed, 0);
      const large = blockEvents(rng, POOLED_EVENT_ROOT_MIN_LEAVES / 2, 2);
      const before = pool.stats();
      await pool.root(large, encodings(large));
      assertCounted(before, pool.stats());
    } finally {
      await pool.close();
    }
  });

  it('a closed pool still answers the right root, on the calling thread', async () => {
    const pool = createPooledEventRootComputer();
    await pool.close();
    const events = blockEvents(new Rng(34), 300, 2);
    const root = await pool.root(events, encodings(events));
    assert.equal(root.toString('hex'), computeEventRoot(events).toString('hex'));
  });
});
