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

describe('node crash safety', () => {
  it('20 SIGKILLs while generating blocks: each restart resumes at the last committed block with state, undo diffs, BFT state, finalized height, events, inclusion proofs and block in agreement', async () => {
    const dataPath = tempDataPath();
    const config = crashConfig(dataPath);
    const kept = { events: KEEP_HEIGHTS, proofs: KEEP_HEIGHTS, provedKeys: provedKeys() };
    const rng = new Rng(7);
    let previous = { tip: 0, finalized: 0 };
    for (let round = 0; round < 20; round++) {
      // the first run goes on until blocks are final, so that every later commit also prunes
      const reported = await runAndKill(
        writer,
        [dataPath],
        50 + rng.int(400),
        round === 0 ? FINAL_FROM + 2 * KEEP_HEIGHTS : -1,
      );
      const dbs = openDatabases(dataPath);
      try {
        const now = assertCommittedChain(openChain(config, dbs), dbs, kept, `round ${round}`);
        assert.ok(
          now.tip >= reported && now.tip >= previous.tip,
          `round ${round}: reported ${reported}, previous ${previous.tip}, tip ${now.tip}`,
        );
        assert.ok(
          now.finalized >= previous.finalized,
          `round ${round}: the finalized height went down from ${previous.finalized} to ${now.finalized}`,
        );
        previous = now;
      } finally {
        await dbs.root.close();
      }
    }
    assert.ok(previous.tip > 20, `blocks were committed across the restarts (${previous.tip})`);
    assert.ok(
      previous.finalized > KEEP_HEIGHTS,
      `blocks were finalized and pruned across the restarts (${previous.finalized})`,
    );
  });
});
