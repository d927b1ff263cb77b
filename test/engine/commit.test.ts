import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExtraWrites } from '../../src/engine/state/state_db.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { openChain } from '../../src/main/chain_setup.js';
import type { KestrelDatabases } from '../../src/storage/database.js';
import { openDatabases } from '../../src/storage/database.js';
import { DATABASE_NAMES } from '../../src/storage/tables.js';
import { assertCommittedChain } from '../helpers/chain_consistency.js';
import { crashConfig, KEEP_HEIGHTS, provedKeys } from '../helpers/crash_config.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';

const kept = { events: KEEP_HEIGHTS, proofs: KEEP_HEIGHTS, provedKeys: provedKeys() };

/** A digest of every entry of every database: equal digests, equal contents. */
const digestOf = (dbs: KestrelDatabases): string => {
  const parts: Buffer[] = [];
  for (const name of DATABASE_NAMES)
    for (const { key, value } of dbs[name].getRange({}))
      parts.push(Buffer.from(name), Buffer.from(key), Buffer.from(value as Uint8Array));
  return sha256(Buffer.concat(parts)).toString('hex');
};

describe('block commit', () => {
  it('commits the genesis block like every block: state, BFT state, block, events and the finalized height together', async () => {
    const dataPath = tempDataPath();
    const dbs = openDatabases(dataPath);
    try {
      const opened = openChain(crashConfig(dataPath), dbs);
      const { tip, finalized } = assertCommittedChain(opened, dbs, kept, 'genesis');
      assert.equal(finalized, tip, 'the genesis block is final');
    } finally {
      await dbs.root.close();
    }
  });

  it('a commit that fails part way leaves every database as it was, and the next one lands whole', async () => {
    const dataPath = tempDataPath();
    const config = crashConfig(dataPath);
    const dbs = openDatabases(dataPath);
    try {
      let now = 0;
      const opened = openChain(config, dbs, { now: () => now });
      const { chain, genesis } = opened;
      const generator = devnetGenerator(opened, config, dbs.generator, () => now);
      now = genesis.header.timestamp;
      for (let i = 0; i < 3; i++) {
        now += config.genesis.blockTime;
        assert.ok(await generator.tick());
      }
      const before = digestOf(dbs);
      const commit = chain.commit.bind(chain);
      chain.commit = (executed, extra?: ExtraWrites) =>
        commit(executed, (tx) => {
          extra?.(tx);
          throw new Error('disk full');
        });
      now += config.genesis.blockTime;
      assert.equal(await generator.tick(), undefined, 'the block is not committed');
      assert.equal(digestOf(dbs), before, 'nothing of the failed commit is stored');
      assert.equal(chain.lastBlock().header.height, 3);
      chain.commit = commit;
      now += config.genesis.blockTime;
      assert.ok(await generator.tick());
      assert.equal(assertCommittedChain(opened, dbs, kept, 'after a failed commit').tip, 4);
    } finally {
      await dbs.root.close();
    }
  });
});
