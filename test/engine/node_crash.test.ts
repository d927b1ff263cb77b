import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readBFTVotes } from '../../src/engine/bft/index.js';
import { openDatabases } from '../../src/engine/storage/database.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { runAndKill } from '../helpers/kill.js';
import { Rng } from '../helpers/random.js';
import { recomputeRoot, tempDataPath } from '../helpers/state.js';

const writer = fileURLToPath(new URL('../helpers/chain_crash_writer.js', import.meta.url));

describe('node crash safety', () => {
  it('20 SIGKILLs while generating blocks: each restart resumes at the last committed block with state, BFT state, events and block in agreement', async () => {
    const dataPath = tempDataPath();
    const config = loadConfig({ dataPath });
    const rng = new Rng(7);
    let previous = 0;
    for (let round = 0; round < 20; round++) {
      const reported = await runAndKill(writer, [dataPath], 50 + rng.int(400));
      const dbs = openDatabases(dataPath);
      try {
        const { chain, state, events } = openChain(config, dbs);
        const tip = chain.lastBlock().header;
        assert.ok(tip.height >= reported && tip.height >= previous, `round ${round}: reported ${reported}, previous ${previous}, tip ${tip.height}`);
        assert.equal(state.height, tip.height, `round ${round}: state height`);
        assert.equal(state.root.toString('hex'), tip.stateRoot.toString('hex'), `round ${round}: state root is the tip's`);
        assert.equal(recomputeRoot(state).toString('hex'), tip.stateRoot.toString('hex'), `round ${round}: stored state gives the root`);
        assert.equal(readBFTVotes(chain.engineView()).blockBFTInfos[0]?.height ?? 0, tip.height, `round ${round}: BFT votes end at the tip`);
        if (tip.height > 0) assert.ok(events.at(tip.height).length > 0, `round ${round}: the tip's events are stored`);
        previous = tip.height;
      } finally {
        await dbs.root.close();
      }
    }
    assert.ok(previous > 20, `blocks were committed across the restarts (${previous})`);
  });
});
