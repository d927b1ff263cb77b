// kill -9 of a node whose commits are written behind (storage/write_behind.ts, block synchronization's mode):
// the restart finds a consistent prefix of the chain, every block whole, at least what was reported in LMDB.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openChain } from '../../src/main/chain_setup.js';
import { openDatabases } from '../../src/storage/database.js';
import { assertCommittedChain } from '../helpers/chain_consistency.js';
import { crashConfig, KEEP_HEIGHTS, provedKeys } from '../helpers/crash_config.js';
import { runAndKill } from '../helpers/kill.js';
import { Rng } from '../helpers/random.js';
import { tempDataPath } from '../helpers/state.js';

const writer = fileURLToPath(new URL('../helpers/chain_crash_writer.js', import.meta.url));
/** On the devnet with every validator generating, blocks become final from about this height. */
const FINAL_FROM = 80;
const ROUNDS = 12;

describe('crash safety of write-behind', () => {
  it(`${ROUNDS} SIGKILLs while commits are written behind: each restart holds a consistent prefix of the chain (state, undo diffs, BFT state, finalized height, events, inclusion proofs, block), never less than LMDB was reported to hold`, async () => {
    const dataPath = tempDataPath();
    const config = crashConfig(dataPath);
    const kept = { events: KEEP_HEIGHTS, proofs: KEEP_HEIGHTS, provedKeys: provedKeys() };
    const rng = new Rng(22);
    let previous = { tip: 0, finalized: 0 };
    let lost = 0;
    for (let round = 0; round < ROUNDS; round++) {
      let generated = -1;
      const reported = await runAndKill(
        writer,
        [dataPath, '--write-behind'],
        50 + rng.int(400),
        round === 0 ? FINAL_FROM + 2 * KEEP_HEIGHTS : -1,
        (line) => {
          if (line.startsWith('generated ')) generated = Number(line.split(' ')[1]);
        },
      );
      const dbs = openDatabases(dataPath);
      try {
        const now = assertCommittedChain(openChain(config, dbs), dbs, kept, `round ${round}`);
        assert.ok(
          now.tip >= reported && now.tip >= previous.tip,
          `round ${round}: reported ${reported}, previous ${previous.tip}, tip ${now.tip}`,
        );
        assert.ok(now.finalized >= previous.finalized, `round ${round}: the finalized height went down`);
        lost += Math.max(0, generated - now.tip);
        previous = now;
      } finally {
        await dbs.root.close();
      }
    }
    assert.ok(lost > 0, 'some kills landed while generated blocks were still pending (written behind)');
    assert.ok(previous.finalized > KEEP_HEIGHTS, `blocks were finalized and pruned (${previous.finalized})`);
  });
});
