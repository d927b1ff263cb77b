import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STATE_SMT_KEY_LENGTH, stateSMTKey } from '../../src/lib/state/keys.js';
import { EMPTY_HASH, verifySMTProof } from '../../src/lib/tree/index.js';
import { openReadOnly, readOnlySnapshot, SnapshotMismatchError } from '../../src/storage/snapshot.js';
import { openState, tempDataPath } from '../helpers/state.js';

const key = (n: number) => Buffer.concat([Buffer.from('0000000a0000', 'hex'), Buffer.from([n])]);

describe('read-only snapshots', () => {
  const dataPath = tempDataPath();
  const db = openState(dataPath);
  const first = db.newOverlay();
  first.set(key(1), Buffer.from('one'));
  const root0 = db.commit(db.prepare(first), 0);
  const second = db.newOverlay();
  second.set(key(2), Buffer.from('two'));
  const root1 = db.commit(db.prepare(second), 1);

  it('answers at a committed height whose root is the one expected, with proofs against that root', () => {
    const snapshot = readOnlySnapshot(dataPath, 0, root0);
    assert.deepEqual(snapshot.root, root0);
    const proof = snapshot.prove([key(1), key(2)].map(stateSMTKey));
    assert.ok(verifySMTProof([key(1), key(2)].map(stateSMTKey), proof, root0, STATE_SMT_KEY_LENGTH));
    assert.equal(proof.queries[1]!.key.equals(stateSMTKey(key(2))), false, 'key 2 was not in the state at height 0');
  });

  it('answers at the last committed height when none is asked', () => {
    assert.deepEqual(readOnlySnapshot(dataPath, undefined, root1).root, root1);
  });

  it('refuses a root other than the one committed at the height (the store moved on, or back)', () => {
    assert.throws(() => readOnlySnapshot(dataPath, undefined, root0), SnapshotMismatchError);
    assert.throws(() => readOnlySnapshot(dataPath, 1, root0), /Snapshot mismatch at height 1/);
    assert.throws(
      () => readOnlySnapshot(dataPath, 7, root1),
      (e: Error) => e instanceof SnapshotMismatchError && e.message.includes(EMPTY_HASH.toString('hex')),
    );
  });

  it('opens each data path once per thread, read-only', () => {
    const dbs = openReadOnly(dataPath);
    assert.equal(openReadOnly(dataPath), dbs);
    assert.throws(() => dbs.meta.putSync(Buffer.from('x'), Buffer.from('y')));
  });
});
