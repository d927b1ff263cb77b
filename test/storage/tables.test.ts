import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASE_NAMES, TABLES, tableHeightKey, tableRange } from '../../src/storage/tables.js';

const tables = Object.entries(TABLES);

describe('the table list', () => {
  it('names every database and key prefix of existing data paths, unchanged', () => {
    assert.deepEqual(
      [...DATABASE_NAMES],
      ['state', 'smt', 'meta', 'blocks', 'events', 'generator', 'engine', 'legacy'],
    );
    const layout = Object.fromEntries(tables.map(([name, t]) => [name, `${t.db}/${t.prefix.toString('hex')}`]));
    const hex = (s: string) => Buffer.from(s).toString('hex');
    assert.deepEqual(layout, {
      stateEntries: 'state/',
      smtNodes: 'smt/',
      stateCurrent: `meta/${hex('current')}`,
      stateRoots: `meta/${hex('root:')}`,
      pendingStateTree: `meta/${hex('pending-tree')}`,
      stateDiffs: `meta/${hex('diff:')}`,
      bftState: 'engine/00000000',
      engineUndo: `meta/${hex('engine-undo:')}`,
      finalized: `meta/${hex('finalized')}`,
      inclusionProofs: `meta/${hex('proof:')}`,
      tempBlocks: `meta/${hex('temp-block:')}`,
      blocksByID: `blocks/${hex('i:')}`,
      blockIDsByHeight: `blocks/${hex('h:')}`,
      lastBlock: `blocks/${hex('last')}`,
      transactionBlocks: `blocks/${hex('t:')}`,
      events: 'events/',
      generatorKeys: `generator/${hex('keys:')}`,
      generatedInfo: `generator/${hex('info:')}`,
      hashOnions: `generator/${hex('onion:')}`,
      usedHashOnions: `generator/${hex('used:')}`,
      legacyBlocksByID: `legacy/${hex('i:')}`,
      legacyBlockIDsByHeight: `legacy/${hex('h:')}`,
      legacyTransactions: `legacy/${hex('t:')}`,
      legacyBlockTransactions: `legacy/${hex('p:')}`,
      legacyBrackets: `legacy/${hex('bracket:')}`,
      networkSecret: `meta/${hex('network:nodeSecret')}`,
      networkTriedPeers: `meta/${hex('network:triedPeersList')}`,
    });
  });

  it('gives no two tables of one database overlapping keys: no prefix starts another, and an empty prefix owns its database', () => {
    for (const [a, ta] of tables) {
      for (const [b, tb] of tables) {
        if (a === b || ta.db !== tb.db) continue;
        assert.ok(ta.prefix.length > 0, `${a} has no prefix but shares database ${ta.db} with ${b}`);
        assert.ok(!tb.prefix.subarray(0, ta.prefix.length).equals(ta.prefix), `${b}'s prefix starts with ${a}'s`);
      }
    }
  });

  it('keeps height keys in height order within their table', () => {
    const keys = [0, 1, 255, 256, 65536, 2 ** 32 - 1].map((h) => tableHeightKey(TABLES.stateDiffs, h));
    assert.deepEqual([...keys].sort(Buffer.compare), keys);
    assert.ok(keys.every((k) => k.subarray(0, TABLES.stateDiffs.prefix.length).equals(TABLES.stateDiffs.prefix)));
  });

  it('ranges over the keys of one table with suffixes of one length', () => {
    const { start, end } = tableRange(TABLES.generatedInfo, 20);
    const inside = Buffer.concat([TABLES.generatedInfo.prefix, Buffer.alloc(20, 0xff)]);
    assert.ok(Buffer.compare(start, inside) <= 0 && Buffer.compare(inside, end) < 0);
    for (const other of [TABLES.generatorKeys, TABLES.hashOnions, TABLES.usedHashOnions]) {
      const key = Buffer.concat([other.prefix, Buffer.alloc(20)]);
      assert.ok(
        Buffer.compare(key, start) < 0 || Buffer.compare(key, end) >= 0,
        `${other.prefix.toString()} keys are outside the range`,
      );
    }
  });
});
