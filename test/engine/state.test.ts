import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { StateOverlay } from '../../src/engine/state/overlay.js';
import { StateDB } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import {
  computeStorePrefix,
  computeSubstorePrefix,
  stateSMTKey,
  stateSMTKeys,
  stateSMTLeaves,
  stateSMTValue,
  stateSMTValues,
} from '../../src/lib/state/keys.js';
import { buildSMT, EMPTY_HASH, verifySMTProof } from '../../src/lib/tree/index.js';
import { openDatabases } from '../../src/storage/database.js';
import { readCommittedState } from '../../src/storage/state_roots.js';
import { TABLES, tableKey } from '../../src/storage/tables.js';
import { klayrFrameworkSchemas } from '../helpers/klayr.js';
import { Rng } from '../helpers/random.js';
import { openState, recomputeRoot, tempDataPath } from '../helpers/state.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
klayrFrameworkSchemas();
const klayrBaseStore: any = require('klayr-framework/dist-node/modules/base_store');

describe('store prefixes and state tree keys', () => {
  it("module store and substore prefixes equal klayr-framework's", () => {
    for (const name of [
      'token',
      'auth',
      'pos',
      'interoperability',
      'dynamicReward',
      'fee',
      'random',
      'validators',
      'legacy',
      'x',
    ]) {
      assert.equal(
        computeStorePrefix(name).toString('hex'),
        klayrBaseStore.computeStorePrefix(name).toString('hex'),
        name,
      );
    }
    for (let i = 0; i < 70000; i += 37) {
      if (i > 0xffff) break;
      assert.equal(
        computeSubstorePrefix(i).toString('hex'),
        klayrBaseStore.computeSubstorePrefix(i).toString('hex'),
        String(i),
      );
    }
    assert.throws(() => computeSubstorePrefix(65536), /0\.\.65535/);
  });

  it('state tree keys keep the 6 prefix bytes and hash the rest (lisk-db vector)', () => {
    const key = Buffer.from(Array.from({ length: 64 }, (_, i) => i));
    assert.deepEqual(
      [...stateSMTKey(key)],
      [
        0, 1, 2, 3, 4, 5, 10, 165, 4, 79, 85, 150, 61, 222, 215, 50, 50, 134, 228, 240, 180, 58, 75, 167, 243, 47, 247,
        126, 21, 28, 34, 193, 134, 242, 138, 162, 150, 75,
      ],
    );
    assert.throws(() => stateSMTKey(Buffer.alloc(5)), /at least 6 bytes/);
  });

  it('state tree keys and values in a batch equal those of one at a time; a short key in the batch is refused', () => {
    const rng = new Rng(21);
    const keys = Array.from({ length: 37 }, (_, i) => rng.bytes(6 + ((i * 7) % 90)));
    assert.deepEqual(
      stateSMTKeys(keys).map((k) => k.toString('hex')),
      keys.map((k) => stateSMTKey(k).toString('hex')),
    );
    const values = Array.from({ length: 37 }, (_, i) => rng.bytes((i * 11) % 200));
    assert.deepEqual(
      stateSMTValues(values).map((v) => v.toString('hex')),
      values.map((v) => stateSMTValue(v).toString('hex')),
    );
    assert.throws(() => stateSMTKeys([Buffer.alloc(6), Buffer.alloc(5)]), /at least 6 bytes/);
  });
});

describe('block state overlay', () => {
  const db = openState(tempDataPath());
  const store = (state: ReturnType<typeof db.newOverlay>) =>
    new SubStore(state, computeStorePrefix('token'), computeSubstorePrefix(0));

  it('reads its own writes, and a restored snapshot undoes exactly the writes after it (nested)', () => {
    const state = db.newOverlay();
    const s = store(state);
    s.set(Buffer.from('fee'), Buffer.from('paid'));
    const tx = state.snapshot();
    s.set(Buffer.from('a'), Buffer.from('1'));
    const inner = state.snapshot();
    s.del(Buffer.from('fee'));
    s.set(Buffer.from('a'), Buffer.from('2'));
    assert.equal(s.get(Buffer.from('fee')), undefined);
    state.restoreSnapshot(inner);
    assert.equal(s.get(Buffer.from('a'))!.toString(), '1');
    assert.equal(s.get(Buffer.from('fee'))!.toString(), 'paid');
    state.restoreSnapshot(tx);
    assert.equal(s.has(Buffer.from('a')), false);
    assert.equal(s.get(Buffer.from('fee'))!.toString(), 'paid', "the failed transaction's fee stays");
    assert.throws(() => state.restoreSnapshot(99), /Invalid snapshot/);
  });

  it('restoring 0 before any snapshot undoes every change; writes before the first snapshot survive a restore to it', () => {
    const state = db.newOverlay();
    const s = store(state);
    s.set(Buffer.from('x'), Buffer.from('1'));
    s.del(Buffer.from('y'));
    assert.throws(() => state.restoreSnapshot(1), /Invalid snapshot/);
    state.restoreSnapshot(0);
    assert.deepEqual(state.overlay.changes(), []);
    s.set(Buffer.from('x'), Buffer.from('1'));
    const first = state.snapshot();
    s.set(Buffer.from('x'), Buffer.from('2'));
    s.set(Buffer.from('z'), Buffer.from('3'));
    state.restoreSnapshot(first);
    assert.equal(s.get(Buffer.from('x'))?.toString(), '1');
    assert.equal(s.has(Buffer.from('z')), false);
    assert.equal(state.overlay.changes().length, 1);
  });

  it('set keeps a copy of the value, setOwned (a typed value just encoded) the value itself; both refuse non-bytes', () => {
    const state = db.newOverlay();
    const s = store(state);
    const given = Buffer.from('given');
    s.set(Buffer.from('copied'), given);
    given.write('later');
    assert.equal(s.get(Buffer.from('copied'))?.toString(), 'given');
    const owned = Buffer.from('owned');
    state.setOwned(Buffer.from('full key of an owned value'), owned);
    assert.equal(state.get(Buffer.from('full key of an owned value')), owned);
    assert.throws(() => state.setOwned(Buffer.from('k'), 'text' as unknown as Buffer), /must be bytes/);
    assert.throws(() => state.set(Buffer.from('k'), 'text' as unknown as Buffer), /must be bytes/);
    const schema = {
      $id: '/test/owned',
      type: 'object',
      properties: { amount: { dataType: 'uint64', fieldNumber: 1 } },
    } as const;
    s.setWithSchema(Buffer.from('typed'), { amount: 5n }, schema);
    assert.deepEqual(s.getWithSchema(Buffer.from('typed'), schema), { amount: 5n });
  });

  it('typed values and ranges merge committed and uncommitted entries', () => {
    const schema = klayrFrameworkSchemas().find((x) => x.$id === '/token/store/supply')!;
    const first = db.newOverlay();
    for (const k of ['a', 'b', 'c', 'd'])
      store(first).setWithSchema(Buffer.from(k), { totalSupply: BigInt(k.charCodeAt(0)) }, schema);
    db.commit(db.prepare(first), 0);
    const second = db.newOverlay();
    const s = store(second);
    s.del(Buffer.from('b'));
    s.setWithSchema(Buffer.from('bb'), { totalSupply: 5n }, schema);
    s.setWithSchema(Buffer.from('c'), { totalSupply: 6n }, schema);
    const range = s.iterateWithSchema<{ totalSupply: bigint }>(
      { gte: Buffer.from('a'), lte: Buffer.from('c') },
      schema,
    );
    assert.deepEqual(
      range.map((e) => [e.key.toString(), e.value.totalSupply]),
      [
        ['a', 97n],
        ['bb', 5n],
        ['c', 6n],
      ],
    );
    const reversed = s.iterate({ gte: Buffer.from('a'), lte: Buffer.from('d'), reverse: true, limit: 2 });
    assert.deepEqual(
      reversed.map((e) => e.key.toString()),
      ['d', 'c'],
    );
  });
});

describe('an overlay that remembers its base reads (block execution)', () => {
  it('reads each key from the base once, and gives the base value under its own writes and after a restore', () => {
    const base = new Map([['a', Buffer.from('1')]]);
    const reads: string[] = [];
    const overlay = new StateOverlay((key) => {
      reads.push(key.toString());
      return base.get(key.toString());
    }, true);
    const [a, b] = [Buffer.from('a'), Buffer.from('b')];
    assert.equal(overlay.get(a)?.toString(), '1');
    assert.equal(overlay.get(b), undefined);
    assert.equal(overlay.get(a)?.toString(), '1');
    assert.equal(overlay.has(b), false);
    const snapshot = overlay.snapshot();
    overlay.set(a, Buffer.from('2'));
    overlay.del(b);
    assert.equal(overlay.get(a)?.toString(), '2');
    assert.equal(overlay.baseValue(a)?.toString(), '1');
    assert.equal(overlay.baseValue(b), undefined);
    overlay.restoreSnapshot(snapshot);
    assert.equal(overlay.get(a)?.toString(), '1');
    assert.deepEqual(reads, ['a', 'b'], 'each key read from the base once');
    // a key written without being read is read from the base when its previous value is asked for
    overlay.set(Buffer.from('c'), Buffer.from('3'));
    assert.equal(overlay.baseValue(Buffer.from('c')), undefined);
    assert.deepEqual(reads, ['a', 'b', 'c']);
  });

  it('prepares the same changes, previous values and root as an overlay that reads through', () => {
    const db = openState(tempDataPath());
    const key = (k: string) => Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(0), Buffer.from(k)]);
    const first = db.newOverlay();
    for (const k of ['a', 'b', 'c']) first.set(key(k), Buffer.from(`${k}0`));
    db.commit(db.prepare(first), 0);
    const prepared = [false, true].map((remember) => {
      const state = db.newOverlay(remember);
      state.get(key('a'));
      state.get(key('x'));
      state.set(key('a'), Buffer.from('a1'));
      state.del(key('b'));
      state.set(key('c'), Buffer.from('c0')); // unchanged: not a change
      state.set(key('x'), Buffer.from('x1'));
      return db.prepare(state);
    });
    const shape = (p: (typeof prepared)[number]) => ({
      root: p.root.toString('hex'),
      changes: p.changes.map((c) => [c.key.toString('hex'), c.value?.toString(), c.previous?.toString()]),
    });
    assert.deepEqual(shape(prepared[1]!), shape(prepared[0]!));
    assert.deepEqual(
      prepared[1]!.changes.map((c) => [c.value?.toString(), c.previous?.toString()]),
      [
        ['a1', 'a0'],
        [undefined, 'b0'],
        ['x1', undefined],
      ],
    );
  });
});

describe('state commit, root and revert', () => {
  it('the committed root equals a root recomputed from scratch after each of 30 blocks; revert restores values and roots', () => {
    const rng = new Rng(4);
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    assert.equal(db.root.toString('hex'), EMPTY_HASH.toString('hex'));
    const keys: Buffer[] = [];
    const roots: Buffer[] = [];
    const snapshots: Map<string, string>[] = [];
    for (let height = 0; height < 30; height++) {
      const state = db.newOverlay();
      for (let i = 0; i < 40; i++) {
        if (keys.length > 0 && rng.next() < 0.3) state.del(rng.pick(keys));
        else {
          const key =
            keys.length > 0 && rng.next() < 0.3
              ? rng.pick(keys)
              : Buffer.concat([
                  computeStorePrefix(rng.pick(['token', 'pos'])),
                  computeSubstorePrefix(rng.int(4)),
                  rng.bytes(1 + rng.int(30)),
                ]);
          keys.push(key);
          state.set(key, rng.bytes(1 + rng.int(60)));
        }
      }
      const prepared = db.prepare(state);
      assert.equal(db.height, height === 0 ? undefined : height - 1, 'prepare writes nothing');
      roots.push(db.commit(prepared, height));
      assert.equal(db.root.toString('hex'), recomputeRoot(db).toString('hex'), `height ${height}`);
      assert.equal(db.rootAt(height)!.toString('hex'), prepared.root.toString('hex'));
      snapshots.push(
        new Map(
          db
            .iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) })
            .map((e) => [e.key.toString('hex'), e.value.toString('hex')]),
        ),
      );
    }
    const reopened = openState(dataPath);
    assert.equal(reopened.height, 29);
    assert.equal(reopened.root.toString('hex'), roots[29]!.toString('hex'));
    for (let height = 29; height > 20; height--) {
      assert.equal(reopened.revertLast().toString('hex'), roots[height - 1]!.toString('hex'));
      assert.equal(reopened.height, height - 1);
      const now = new Map(
        reopened
          .iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) })
          .map((e) => [e.key.toString('hex'), e.value.toString('hex')]),
      );
      assert.deepEqual(now, snapshots[height - 1]);
      assert.equal(recomputeRoot(reopened).toString('hex'), roots[height - 1]!.toString('hex'));
    }
  });

  it("stores each commit's tree nodes under its height (version || hash), finds older roots by their reference for proofs and reverts, and refuses a data path keyed by hash alone", () => {
    const rng = new Rng(9);
    const dataPath = tempDataPath();
    const db = openState(dataPath);
    const keys: Buffer[] = [];
    const roots: Buffer[] = [];
    for (let height = 0; height < 12; height++) {
      const state = db.newOverlay();
      // height 5 changes nothing: its root is height 4's, under height 4's version
      if (height !== 5)
        for (let i = 0; i < 20; i++) {
          const key = Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(0), rng.bytes(8)]);
          keys.push(key);
          state.set(key, rng.bytes(1 + rng.int(40)));
        }
      const prepared = db.prepare(state);
      const refs: Buffer[] = [];
      prepared.smt.nodes.forEach((ref) => {
        refs.push(Buffer.from(ref));
      });
      assert.equal(refs.length === 0, height === 5, `height ${height}: nodes written`);
      for (const ref of refs) {
        assert.equal(ref.length, 36);
        assert.equal(ref.readUInt32BE(0), height, `height ${height}: the node's version`);
      }
      roots.push(db.commit(prepared, height));
      for (const ref of refs) assert.ok(db.dbs.smt.get(ref) !== undefined, 'stored under its reference');
      const version = height === 5 ? 4 : height;
      assert.deepEqual(readCommittedState(db.dbs), { height, root: roots[height], rootVersion: version });
    }
    const sorted = [...db.dbs.smt.getKeys()].map((key) => key.readUInt32BE(0));
    assert.deepEqual(
      sorted,
      [...sorted].sort((a, b) => a - b),
      'the store holds the nodes in commit order',
    );
    for (const height of [0, 4, 5, 11]) {
      const proof = db.prove(height, roots[height]!, keys.slice(0, 30).map(stateSMTKey));
      assert.ok(verifySMTProof(keys.slice(0, 30).map(stateSMTKey), proof, roots[height]!, 38), `proof at ${height}`);
    }
    assert.throws(
      () => db.prove(3, roots[4]!, keys.map(stateSMTKey)),
      /not [0-9a-f]{64}/,
      'a root the height did not commit',
    );
    db.revertLast();
    db.revertLast();
    assert.deepEqual(readCommittedState(db.dbs), { height: 9, root: roots[9], rootVersion: 9 });
    const state = db.newOverlay();
    state.set(keys[0]!, Buffer.from('after the revert'));
    db.commit(db.prepare(state), 10);
    assert.equal(db.root.toString('hex'), recomputeRoot(db).toString('hex'));

    const legacy = openDatabases(tempDataPath());
    legacy.smt.putSync(Buffer.alloc(32, 1), Buffer.from([0]));
    assert.throws(() => new StateDB(legacy), /earlier Kestrel, which stored state tree nodes by hash alone/);
    // a committed state whose tree is still pending (no node stored): its record, written before root versions
    const pendingOnly = openDatabases(tempDataPath());
    const oldRecord = Buffer.concat([Buffer.from([0x08, 0x05, 0x12, 0x20]), Buffer.alloc(32, 1)]);
    pendingOnly.meta.putSync(tableKey(TABLES.stateCurrent), oldRecord);
    assert.throws(() => new StateDB(pendingOnly), /earlier Kestrel.*committed state record does not decode/);
  });

  it("a prepared state's inclusion proofs, block after block (the last proofs' nodes kept), equal proofs from the committed tree", () => {
    const rng = new Rng(5);
    const db = openState(tempDataPath());
    const keys: Buffer[] = [];
    const newKey = () =>
      Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(rng.int(3)), rng.bytes(1 + rng.int(24))]);
    for (let height = 0; height < 25; height++) {
      const state = db.newOverlay();
      for (let i = 0; i < 30; i++) {
        const key = keys.length > 0 && rng.next() < 0.4 ? rng.pick(keys) : newKey();
        if (keys.length > 4 && rng.next() < 0.2) state.del(key);
        else {
          keys.push(key);
          state.set(key, rng.bytes(1 + rng.int(40)));
        }
      }
      const prepared = db.prepare(state);
      // the same few keys every block (a node's inclusionProofKeys), and one absent key
      const queried = [...keys.slice(0, 3), newKey()];
      const proof = db.provePrepared(prepared, queried.map(stateSMTKey));
      db.commit(prepared, height);
      assert.deepEqual(proof, db.prove(height, db.root, queried.map(stateSMTKey)), `height ${height}`);
      assert.ok(verifySMTProof(queried.map(stateSMTKey), proof, db.root, 38), `height ${height}`);
    }
  });

  it('an error during commit writes nothing; commits must be sequential; a stale prepared state is refused', () => {
    const db = openState(tempDataPath());
    const state = db.newOverlay();
    state.set(
      Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(0), Buffer.from('k')]),
      Buffer.from('v'),
    );
    const prepared = db.prepare(state);
    assert.throws(
      () =>
        db.commit(prepared, 0, () => {
          throw new Error('block write failed');
        }),
      /block write failed/,
    );
    assert.equal(db.height, undefined);
    assert.equal(db.root.toString('hex'), EMPTY_HASH.toString('hex'));
    assert.equal(db.iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) }).length, 0);
    assert.equal([...db.dbs.smt.getKeys()].length, 0);
    db.commit(prepared, 0);
    assert.throws(() => db.commit(prepared, 1), /State changed since/);
    const next = db.newOverlay();
    next.set(
      Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(0), Buffer.from('k2')]),
      Buffer.from('v'),
    );
    assert.throws(() => db.commit(db.prepare(next), 5), /Cannot commit height 5 on top of height 0/);
    const badKey = db.newOverlay();
    badKey.set(Buffer.from('short'), Buffer.from('v'));
    assert.throws(() => db.prepare(badKey), /at least 6 bytes/);
    assert.equal(db.height, 0);
  });

  it('a state prepared on the empty state (a genesis block) is written as appends: same root and proofs as prepare, and a database already holding keys is refused with nothing written', () => {
    const rng = new Rng(8);
    const genesisLike = (db: ReturnType<typeof openState>) => {
      const state = db.newOverlay();
      for (let i = 0; i < 500; i++)
        state.set(
          Buffer.concat([computeStorePrefix('token'), computeSubstorePrefix(i % 3), rng.bytes(24)]),
          rng.bytes(40),
        );
      const changes = state.overlay.changes();
      const tree = buildSMT(
        stateSMTLeaves(changes.flatMap(({ key, value }) => (value === undefined ? [] : [{ key, value }]))),
      );
      return { state, changes, tree };
    };
    const db = openState(tempDataPath());
    const { state, changes, tree } = genesisLike(db);
    const expected = db.prepare(state).root;
    assert.equal(db.commit(db.prepareOnEmpty(changes, tree), 0).toString('hex'), expected.toString('hex'));
    assert.equal(recomputeRoot(db).toString('hex'), expected.toString('hex'));
    const some = changes.slice(0, 5).map((c) => c.key);
    assert.ok(
      verifySMTProof(some.map(stateSMTKey), db.prove(0, expected, some.map(stateSMTKey)), expected, 38),
      'proofs read the appended nodes',
    );
    assert.throws(() => db.prepareOnEmpty(changes, tree), /nothing committed/);

    for (const stray of ['state', 'smt'] as const) {
      const other = openState(tempDataPath());
      const g = genesisLike(other);
      other.dbs[stray].putSync(Buffer.alloc(stray === 'smt' ? 32 : 40, 0xff), Buffer.from('stray'));
      assert.throws(
        () => other.commit(other.prepareOnEmpty(g.changes, g.tree), 0),
        /out of order, or the .* database is not empty/,
      );
      assert.equal(other.height, undefined);
      assert.equal(
        [...other.dbs.state.getKeys()].length,
        stray === 'state' ? 1 : 0,
        `${stray}: no state entry written`,
      );
      assert.equal([...other.dbs.smt.getKeys()].length, stray === 'smt' ? 1 : 0, `${stray}: no tree node written`);
    }
  });
});
