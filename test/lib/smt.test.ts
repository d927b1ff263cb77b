import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { SMTProof } from '../../src/lib/tree/index.js';
import {
  buildSMT,
  EMPTY_HASH,
  InMemorySMTStore,
  isInclusionProofForKey,
  PackedSMTNodes,
  SparseMerkleTree,
  smtBranchHash,
  smtLeafHash,
  smtRootOf,
  smtRootOfSorted,
  verifySMTProof,
} from '../../src/lib/tree/index.js';
import { keyBit, NODE_BRANCH, NODE_REF_BYTES } from '../../src/lib/tree/smt_node.js';
import { SHARED_HASHER_MEMORY_BYTES, smtRootWithin } from '../../src/lib/tree/smt_root.js';
import { Rng } from '../helpers/random.js';

interface Vectors {
  trees: { source: string; keys: string[]; values: string[]; root: string }[];
  proofs: {
    source: string;
    keys: string[];
    values: string[];
    root: string;
    queryKeys: string[];
    siblingHashes: string[];
    queries: { key: string; value: string; bitmap: string }[];
  }[];
}
const vectors = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/lisk_db_smt_vectors.json', import.meta.url), 'utf8'),
) as Vectors;
const buf = (hex: string): Buffer => Buffer.from(hex, 'hex');

const build = (keyLength: number, keys: Buffer[], values: Buffer[]) => {
  const store = new InMemorySMTStore();
  const tree = new SparseMerkleTree(keyLength, store);
  const root = store.apply(
    tree.update(
      EMPTY_HASH,
      keys.map((key, i) => ({ key, value: values[i]! })),
    ),
  );
  return { store, tree, root };
};

/** Straightforward reference: the root of a key set computed recursively from scratch (LIP 0039 definition). */
const referenceRoot = (entries: [Buffer, Buffer][], height = 0): Buffer => {
  if (entries.length === 0) return EMPTY_HASH;
  if (entries.length === 1) return smtLeafHash(entries[0]![0], entries[0]![1]);
  const bit = (k: Buffer): number => (k[height >> 3]! >> (7 - (height & 7))) & 1;
  return smtBranchHash(
    referenceRoot(
      entries.filter(([k]) => bit(k) === 0),
      height + 1,
    ),
    referenceRoot(
      entries.filter(([k]) => bit(k) === 1),
      height + 1,
    ),
  );
};

const proofHex = (p: SMTProof) => ({
  siblingHashes: p.siblingHashes.map((h) => h.toString('hex')),
  queries: p.queries.map((q) => ({
    key: q.key.toString('hex'),
    value: q.value.toString('hex'),
    bitmap: q.bitmap.toString('hex'),
  })),
});

describe('sparse Merkle tree (LIP 0039)', () => {
  it('the empty tree root is the empty hash', () => {
    assert.equal(
      build(32, [], []).root.toString('hex'),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('reproduces the roots of lisk-db smt.rs test vectors', () => {
    for (const v of [...vectors.trees, ...vectors.proofs]) {
      assert.equal(build(32, v.keys.map(buf), v.values.map(buf)).root.toString('hex'), v.root, v.source);
      assert.equal(
        smtRootOf(v.keys.map((k, i) => ({ key: buf(k), value: buf(v.values[i]!) }))).toString('hex'),
        v.root,
        `smtRootOf ${v.source}`,
      );
    }
  });

  it('smtRootOf (one-off trees: event roots) equals the root of inserting the same entries, for key lengths 12, 32 and 38', () => {
    const rng = new Rng(99);
    for (let round = 0; round < 300; round++) {
      const keyLength = [12, 32, 38][round % 3]!;
      const n = rng.int(round < 10 ? 3 : 400);
      const keys = new Map<string, Buffer>();
      while (keys.size < n) {
        const key = rng.bytes(keyLength);
        if (round % 4 === 0) key.fill(7, 0, keyLength - 2); // long shared prefixes
        keys.set(key.toString('hex'), key);
      }
      // values of other lengths than 32 take the leaves' other path (hashed one by one)
      const entries = [...keys.values()].map((key) => ({
        key,
        value: rng.bytes(round % 5 === 1 ? 1 + rng.int(60) : 32),
      }));
      assert.equal(
        smtRootOf(entries).toString('hex'),
        build(
          keyLength,
          entries.map((e) => e.key),
          entries.map((e) => e.value),
        ).root.toString('hex'),
        `round ${round}`,
      );
    }
    assert.throws(
      () =>
        smtRootOf([
          { key: Buffer.alloc(12), value: Buffer.alloc(1) },
          { key: Buffer.alloc(12), value: Buffer.alloc(2) },
        ]),
      /Duplicate key/,
    );
    assert.throws(
      () =>
        smtRootOf([
          { key: Buffer.alloc(12), value: Buffer.alloc(1) },
          { key: Buffer.alloc(13), value: Buffer.alloc(1) },
        ]),
      /same length/,
    );
  });

  it('smtRootOfSorted equals smtRootOf for entries in key order, and refuses entries out of order or a duplicate', () => {
    const rng = new Rng(13);
    for (let round = 0; round < 20; round++) {
      const entries = Array.from({ length: 1 + rng.int(200) }, () => ({ key: rng.bytes(12), value: rng.bytes(32) }));
      const sorted = [...entries].sort((a, b) => Buffer.compare(a.key, b.key));
      assert.equal(smtRootOfSorted(sorted).toString('hex'), smtRootOf(entries).toString('hex'), `round ${round}`);
    }
    const [a, b] = [Buffer.alloc(12, 1), Buffer.alloc(12, 2)];
    const value = Buffer.alloc(32);
    assert.throws(
      () =>
        smtRootOfSorted([
          { key: b, value },
          { key: a, value },
        ]),
      /out of key order/,
    );
    assert.throws(
      () =>
        smtRootOfSorted([
          { key: a, value },
          { key: a, value },
        ]),
      /duplicate key/,
    );
    assert.equal(smtRootOfSorted([]).toString('hex'), EMPTY_HASH.toString('hex'));
  });

  it('smtRootOf gives a tree above the shared hasher memory limit a hasher of its own, with the same roots', () => {
    const rng = new Rng(12);
    for (let round = 0; round < 20; round++) {
      const keys = new Map<string, Buffer>();
      while (keys.size < 50 + round * 10) {
        const key = rng.bytes(12);
        if (round % 2 === 0) key.fill(3, 0, 8); // event-like keys: one topic hash, indices apart
        keys.set(key.toString('hex'), key);
      }
      const entries = [...keys.values()].map((key) => ({ key, value: rng.bytes(32) }));
      const expected = build(
        12,
        entries.map((e) => e.key),
        entries.map((e) => e.value),
      ).root.toString('hex');
      assert.equal(smtRootWithin(entries, 0).toString('hex'), expected, `round ${round}, own hasher`);
      assert.equal(smtRootOf(entries).toString('hex'), expected, `round ${round}, shared hasher`);
    }
  });

  it("smtRootOf's chains of one-child branches (the SHA-NI code) give the roots of their branches hashed one by one", () => {
    const rng = new Rng(13);
    for (let round = 0; round < 60; round++) {
      const keyLength = [1, 2, 12, 32, 38][round % 5]!;
      const keys = new Map<string, Buffer>();
      const groups = Array.from({ length: 1 + rng.int(12) }, () => rng.bytes(keyLength));
      const target = Math.min(2 + rng.int(300), 2 ** (keyLength * 8) / 2);
      while (keys.size < target) {
        // keys of a few shared prefixes, parting only in their last bits (an event tree's shape), or anywhere
        const key = round % 3 === 0 ? rng.bytes(keyLength) : Buffer.from(rng.pick(groups));
        key[keyLength - 1] = rng.int(256);
        keys.set(key.toString('hex'), key);
      }
      const entries = [...keys.values()].map((key) => ({
        key,
        value: rng.bytes(round % 2 === 0 ? 32 : 1 + rng.int(60)),
      }));
      const expected = new SparseMerkleTree(keyLength, new InMemorySMTStore()).update(EMPTY_HASH, entries).root;
      for (const chains of [true, false])
        for (const limit of [SHARED_HASHER_MEMORY_BYTES, 0])
          assert.equal(
            smtRootWithin(entries, limit, chains).toString('hex'),
            expected.toString('hex'),
            `round ${round}, chains ${chains}, limit ${limit}`,
          );
    }
  });

  it('buildSMT (a tree built from scratch) gives the root and exactly the nodes of update on the empty tree, in ascending hash order', () => {
    const rng = new Rng(41);
    for (let round = 0; round < 120; round++) {
      const keyLength = [12, 32, 38][round % 3]!;
      const n = round < 6 ? round : rng.int(300);
      const keys = new Map<string, Buffer>();
      while (keys.size < n) {
        const key = rng.bytes(keyLength);
        if (round % 4 === 0) key.fill(7, 0, keyLength - 2); // long shared prefixes
        keys.set(key.toString('hex'), key);
      }
      const entries = [...keys.values()].map((key) => ({ key, value: rng.bytes(32) }));
      const expected = new SparseMerkleTree(keyLength, new InMemorySMTStore()).update(EMPTY_HASH, entries);
      const built = buildSMT(entries);
      assert.equal(built.root.toString('hex'), expected.root.toString('hex'), `round ${round}`);
      const visited: [string, string][] = [];
      built.nodes.forEach((hash, data) => {
        visited.push([hash.toString('hex'), data.toString('hex')]);
      });
      assert.equal(built.nodes.size, expected.nodes.length, `round ${round}: node count`);
      assert.deepEqual(
        visited,
        expected.nodes
          .map(({ ref, data }): [string, string] => [ref.toString('hex'), data.toString('hex')])
          .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
        `round ${round}: nodes`,
      );
    }
    assert.throws(
      () =>
        buildSMT([
          { key: Buffer.alloc(12), value: Buffer.alloc(1) },
          { key: Buffer.alloc(12), value: Buffer.alloc(2) },
        ]),
      /Duplicate key/,
    );
  });

  it('packed tree nodes visit their hashes in ascending order, hashes that share their leading 32 bits included', () => {
    const rng = new Rng(5);
    const count = 5000;
    const hashes = rng.bytes(32 * count);
    // every tenth hash repeats the leading bytes of the one before it (ties broken on later bytes)
    for (let i = 10; i < count; i += 10) hashes.copy(hashes, i * 32, (i - 1) * 32, (i - 1) * 32 + 4 + (i % 7));
    const ends = Int32Array.from({ length: count + 1 }, (_, i) => i);
    const nodes = new PackedSMTNodes(hashes, Buffer.alloc(count), ends, 0x01020304);
    const visited: string[] = [];
    nodes.forEach((ref) => {
      visited.push(ref.toString('hex'));
    });
    const expected = Array.from({ length: count }, (_, i) => `01020304${hashes.toString('hex', i * 32, (i + 1) * 32)}`);
    assert.deepEqual(visited, expected.sort());
    assert.throws(() => new PackedSMTNodes(Buffer.alloc(33), Buffer.alloc(0), [0, 0]), /one 32-byte hash/);
  });

  it('reproduces the proofs of lisk-db smt.rs test vectors, and they verify', () => {
    for (const v of vectors.proofs) {
      const { tree, root } = build(32, v.keys.map(buf), v.values.map(buf));
      const queryKeys = v.queryKeys.map(buf);
      const proof = tree.prove(root, queryKeys);
      assert.deepEqual(proofHex(proof), { siblingHashes: v.siblingHashes, queries: v.queries }, v.source);
      assert.equal(verifySMTProof(queryKeys, proof, root, 32), true);
    }
  });

  it('1,000 random batches of inserts, updates and deletes match a recursive reference implementation (key lengths 32 and 38)', () => {
    const rng = new Rng(77);
    for (const keyLength of [32, 38]) {
      const store = new InMemorySMTStore();
      const tree = new SparseMerkleTree(keyLength, store);
      const data = new Map<string, Buffer>();
      let root = EMPTY_HASH;
      for (let batch = 0; batch < 500; batch++) {
        const changes = new Map<string, Buffer>();
        const n = 1 + rng.int(rng.next() < 0.9 ? 8 : 100);
        const existing = [...data.keys()];
        for (let i = 0; i < n; i++) {
          const r = rng.next();
          if (r < 0.3 && existing.length > 0) changes.set(rng.pick(existing), Buffer.alloc(0));
          else if (r < 0.5 && existing.length > 0) changes.set(rng.pick(existing), rng.bytes(1 + rng.int(40)));
          else if (r < 0.55)
            changes.set(rng.bytes(keyLength).toString('hex'), Buffer.alloc(0)); // delete of an absent key
          else {
            // keys sharing long prefixes exercise deep paths
            const key =
              rng.next() < 0.2 && existing.length > 0 ? Buffer.from(rng.pick(existing), 'hex') : rng.bytes(keyLength);
            if (key.length === keyLength) key[keyLength - 1 - rng.int(2)] ^= 1 << rng.int(8);
            changes.set(key.toString('hex'), rng.bytes(1 + rng.int(40)));
          }
        }
        root = store.apply(
          tree.update(
            root,
            [...changes].map(([k, value]) => ({ key: buf(k), value })),
          ),
        );
        for (const [k, v] of changes) {
          if (v.length === 0) data.delete(k);
          else data.set(k, v);
        }
        assert.equal(
          root.toString('hex'),
          referenceRoot([...data].map(([k, v]) => [buf(k), v])).toString('hex'),
          `batch ${batch}`,
        );
      }
      for (const [k, v] of data) assert.deepEqual(tree.get(root, buf(k)), v);
    }
  });

  it("an update reads the nodes on its keys' paths only, not the untouched subtrees beside them", () => {
    const rng = new Rng(78);
    const keys = Array.from({ length: 1024 }, () => rng.bytes(32));
    const { store, tree, root } = build(
      32,
      keys,
      keys.map(() => rng.bytes(8)),
    );
    let reads = 0;
    const counting = new SparseMerkleTree(32, {
      get: (hash) => {
        reads++;
        return store.get(hash);
      },
    });
    for (const key of keys.slice(0, 20)) {
      reads = 0;
      let depth = 0;
      for (let node = root; ; depth++) {
        const data = store.get(node);
        if (data === undefined || data[0] !== NODE_BRANCH) break;
        const at = keyBit(key, depth) === 0 ? 1 : 1 + NODE_REF_BYTES;
        node = data.subarray(at, at + NODE_REF_BYTES);
      }
      const updated = counting.update(root, [{ key, value: Buffer.from('new') }]);
      assert.equal(reads, depth + 1, 'the root, each branch on the path and the leaf');
      assert.deepEqual(updated.root, tree.update(root, [{ key, value: Buffer.from('new') }]).root);
    }
  });

  it('proofs of random subsets (present and absent keys) verify; tampered proofs fail', () => {
    const rng = new Rng(12);
    for (let round = 0; round < 200; round++) {
      const n = rng.int(60);
      const keys = Array.from({ length: n }, () => rng.bytes(32));
      const { tree, root } = build(
        32,
        keys,
        keys.map(() => rng.bytes(32)),
      );
      const queryKeys = Array.from({ length: 1 + rng.int(6) }, () =>
        n > 0 && rng.next() < 0.6 ? rng.pick(keys) : rng.bytes(32),
      );
      const proof = tree.prove(root, queryKeys);
      assert.equal(verifySMTProof(queryKeys, proof, root, 32), true, `round ${round}`);
      queryKeys.forEach((k, i) => {
        assert.equal(
          isInclusionProofForKey(k, proof.queries[i]!),
          keys.some((x) => x.equals(k)),
        );
      });
      // tampering
      if (proof.siblingHashes.length > 0) {
        const bad = { ...proof, siblingHashes: proof.siblingHashes.map((h, i) => (i === 0 ? rng.bytes(32) : h)) };
        assert.equal(verifySMTProof(queryKeys, bad, root, 32), false);
        assert.equal(
          verifySMTProof(queryKeys, { ...proof, siblingHashes: proof.siblingHashes.slice(1) }, root, 32),
          false,
        );
      }
      assert.equal(
        verifySMTProof(queryKeys, { ...proof, siblingHashes: [...proof.siblingHashes, rng.bytes(32)] }, root, 32),
        false,
      );
      const q0 = proof.queries[0]!;
      if (q0.value.length > 0) {
        const changedValue = { ...proof, queries: [{ ...q0, value: rng.bytes(32) }, ...proof.queries.slice(1)] };
        assert.equal(verifySMTProof(queryKeys, changedValue, root, 32), false);
      }
      if (q0.bitmap.length > 0) {
        const flipped = Buffer.from(q0.bitmap);
        flipped[flipped.length - 1]! ^= 1;
        assert.equal(
          verifySMTProof(
            queryKeys,
            { ...proof, queries: [{ ...q0, bitmap: flipped }, ...proof.queries.slice(1)] },
            root,
            32,
          ),
          false,
        );
      }
      assert.equal(verifySMTProof([...queryKeys, rng.bytes(32)], proof, root, 32), false);
      assert.equal(verifySMTProof(queryKeys, proof, rng.bytes(32), 32), false);
    }
  });

  it('refuses keys of the wrong length and duplicate keys, writing nothing', () => {
    const store = new InMemorySMTStore();
    const tree = new SparseMerkleTree(38, store);
    assert.throws(() => tree.update(EMPTY_HASH, [{ key: Buffer.alloc(32), value: Buffer.alloc(1) }]), /38 bytes/);
    const key = Buffer.alloc(38, 1);
    assert.throws(
      () =>
        tree.update(EMPTY_HASH, [
          { key, value: Buffer.alloc(1) },
          { key, value: Buffer.alloc(2) },
        ]),
      /Duplicate key/,
    );
    assert.equal(store.size, 0);
    assert.throws(() => tree.prove(EMPTY_HASH, [Buffer.alloc(3)]), /38 bytes/);
    assert.throws(
      () => tree.update(Buffer.alloc(32, 9), [{ key, value: Buffer.alloc(1) }]),
      /Missing sparse Merkle tree node/,
    );
    assert.throws(() => new SparseMerkleTree(0, store), /positive integer/);
  });
});
