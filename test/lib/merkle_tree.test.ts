import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as t from '../../src/lib/tree/index.js';
import { klayrTree } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';

const hexes = (list: readonly Buffer[]): string[] => list.map((b) => b.toString('hex'));

const sizes = (rng: Rng): number[] => {
  const special = [0, 1, 2, 3];
  for (let p = 2; p <= 1024; p *= 2) special.push(p - 1, p, p + 1);
  const out = [...new Set(special)];
  while (out.length < 1000) out.push(1 + rng.int(rng.next() < 0.8 ? 64 : 400));
  return out;
};

describe('regular Merkle tree (LIP 0031) against @klayr/tree', () => {
  it('1,000 random leaf sets (sizes 0, 1, powers of two and +-1): roots, append paths, proofs and right witnesses are equal', async () => {
    const rng = new Rng(31);
    for (const size of sizes(rng)) {
      // distinct leaves: a proof addresses a leaf by its hash
      const values: Buffer[] = Array.from({ length: size }, (_, i) =>
        Buffer.concat([Buffer.from([i >> 8, i & 255]), rng.bytes(rng.int(48))]),
      );
      const ours = new t.MerkleTree(values);
      const theirs = new klayrTree.MerkleTree();
      await theirs.init(values);
      assert.equal(ours.root.toString('hex'), theirs.root.toString('hex'), `root of ${size}`);
      assert.equal(
        t.merkleRoot(values).toString('hex'),
        klayrTree.regularMerkleTree.calculateMerkleRootWithLeaves(values).toString('hex'),
      );
      if (size === 0) {
        assert.deepEqual(ours.generateProof([]), await theirs.generateProof([]));
        continue;
      }
      // proofs for random subsets of leaf hashes, sometimes with a hash that is not in the tree
      const leafHashes = values.map((v) => t.leafHash(v));
      const query = leafHashes.filter(() => rng.next() < 0.3).slice(0, 8);
      if (query.length === 0) query.push(leafHashes[rng.int(size)]!);
      if (rng.next() < 0.2) query.push(rng.bytes(32));
      const proof = ours.generateProof(query);
      const klayrProof = await theirs.generateProof(query);
      assert.deepEqual(
        { ...proof, siblingHashes: hexes(proof.siblingHashes) },
        { ...klayrProof, siblingHashes: hexes(klayrProof.siblingHashes) },
        `proof of ${size}`,
      );
      const members = query.filter((_, i) => proof.idxs[i] !== 0);
      const memberProof = ours.generateProof(members);
      assert.equal(t.verifyProof(members, memberProof, ours.root), true);
      assert.equal(klayrTree.regularMerkleTree.verifyProof(members, memberProof, theirs.root), true);
      const tampered = {
        ...memberProof,
        siblingHashes: memberProof.siblingHashes.map((h, i) => (i === 0 ? rng.bytes(32) : h)),
      };
      if (tampered.siblingHashes.length > 0) assert.equal(t.verifyProof(members, tampered, ours.root), false);
      // update data
      const updates = memberProof.idxs.map(() => rng.bytes(10));
      const onlyLeaves = memberProof.idxs.every((idx) => Math.floor(Math.log2(idx)) === t.treeHeight(size));
      if (onlyLeaves) {
        const updateProof = {
          size: memberProof.size,
          indexes: memberProof.idxs,
          siblingHashes: memberProof.siblingHashes,
        };
        const root = t.calculateRootFromUpdateData(updates, updateProof);
        assert.equal(
          root.toString('hex'),
          klayrTree.regularMerkleTree.calculateRootFromUpdateData(updates, updateProof).toString('hex'),
        );
        const updated: Buffer[] = values.slice();
        memberProof.idxs.forEach((idx, i) => {
          updated[idx - 2 ** t.treeHeight(size)] = updates[i]!;
        });
        assert.equal(root.toString('hex'), t.merkleRoot(updated).toString('hex'));
      }
      // right witnesses
      const idx = rng.int(size + 1);
      const witness = ours.generateRightWitness(idx);
      assert.deepEqual(hexes(witness), hexes(await theirs.generateRightWitness(idx)), `right witness ${idx}/${size}`);
      const prefix = new t.MerkleTree(values.slice(0, idx));
      assert.equal(t.verifyRightWitness(idx, prefix.appendPath, witness, ours.root), !(idx === 0 && size === 0));
      assert.equal(klayrTree.regularMerkleTree.verifyRightWitness(idx, prefix.appendPath, witness, ours.root), true);
      if (idx > 0) {
        assert.deepEqual(
          hexes(t.calculateRightWitness(idx, values.slice(idx))),
          hexes(klayrTree.regularMerkleTree.calculateRightWitness(idx, values.slice(idx))),
        );
      }
    }
  });

  it("incremental appends from the append path give the same roots and paths as Klayr's calculateMerkleRoot", () => {
    const rng = new Rng(5);
    let ours = { appendPath: [] as Buffer[], size: 0 };
    let theirs = { appendPath: [] as Buffer[], size: 0 };
    const values: Buffer[] = [];
    for (let i = 0; i < 300; i++) {
      const value = rng.bytes(rng.int(40));
      values.push(value);
      const next = t.appendToPath(ours, value);
      const klayrNext = klayrTree.regularMerkleTree.calculateMerkleRoot({
        value,
        appendPath: theirs.appendPath,
        size: theirs.size,
      });
      assert.equal(next.root.toString('hex'), klayrNext.root.toString('hex'));
      assert.deepEqual(hexes(next.appendPath), hexes(klayrNext.appendPath));
      assert.equal(next.root.toString('hex'), t.merkleRoot(values).toString('hex'));
      assert.deepEqual(hexes(new t.MerkleTree(values).appendPath), hexes(next.appendPath));
      ours = next;
      theirs = klayrNext;
    }
  });

  it('roots of leaf sets with empty and repeated values are equal', async () => {
    const rng = new Rng(8);
    for (let i = 0; i < 100; i++) {
      const values = Array.from({ length: 1 + rng.int(40) }, () => (rng.next() < 0.5 ? Buffer.alloc(0) : rng.bytes(1)));
      const theirs = new klayrTree.MerkleTree();
      await theirs.init(values);
      assert.equal(t.merkleRoot(values).toString('hex'), theirs.root.toString('hex'));
    }
  });

  it('the empty tree has the empty hash as root; bad proofs and witnesses are refused', () => {
    assert.equal(
      new t.MerkleTree().root.toString('hex'),
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    assert.equal(t.verifyProof([Buffer.alloc(32)], { size: 0, idxs: [], siblingHashes: [] }, t.EMPTY_HASH), false);
    assert.throws(
      () => t.calculateRootFromUpdateData([Buffer.alloc(1)], { size: 0, indexes: [], siblingHashes: [] }),
      /Invalid proof/,
    );
    assert.throws(() => new t.MerkleTree([Buffer.alloc(1)]).generateRightWitness(2), /out of range/);
    assert.throws(() => t.calculateRightWitness(0, []), /empty tree/);
  });
});

describe('regular Merkle tree against Klayr SDK fixtures', () => {
  interface UpdateCase {
    values: string[];
    updateValues: string[];
    size: number;
    indexes: number[];
    siblingHashes: string[];
    initialRoot: string;
    finalRoot: string;
  }
  const { cases } = JSON.parse(
    readFileSync(new URL('../../../test/fixtures/klayr_tree_update_vectors.json', import.meta.url), 'utf8'),
  ) as { cases: UpdateCase[] };

  it(`reproduces ${cases.length} update-leaves fixtures: initial root, proof of the updated leaves, final root`, () => {
    for (const c of cases) {
      const values = c.values.map((v) => Buffer.from(v, 'hex'));
      const tree = new t.MerkleTree(values);
      assert.equal(tree.root.toString('hex'), c.initialRoot);
      const height = t.treeHeight(values.length);
      const proof = tree.generateProof(c.indexes.map((idx) => t.leafHash(values[idx - 2 ** height]!)));
      assert.deepEqual(proof.idxs, c.indexes);
      assert.deepEqual(hexes(proof.siblingHashes), c.siblingHashes);
      const root = t.calculateRootFromUpdateData(
        c.updateValues.map((v) => Buffer.from(v, 'hex')),
        { size: c.size, indexes: c.indexes, siblingHashes: proof.siblingHashes },
      );
      assert.equal(root.toString('hex'), c.finalRoot);
    }
  });
});
