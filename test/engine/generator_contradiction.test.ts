// A validator whose chain was switched to a shorter one skips its slots until the chain passes the height it
// last generated at (a block below it could contradict that one): a warning once, no error, no block.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { getGeneratedInfo, putGeneratedInfoSync } from '../../src/engine/generator/generated_info.js';
import { loadConfig } from '../../src/main/config/index.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';
import { devnetNode, generate } from '../helpers/sync_chains.js';

const BLOCK_TIME = loadConfig({ dataPath: tempDataPath() }).genesis.blockTime;

describe('generation after a switch to a shorter chain', () => {
  it('skips the slot with one warning per validator and height, and generates once the chain has passed that height', async () => {
    const clock = { now: 0 };
    const node = devnetNode(() => clock.now);
    const { chain } = node.opened;
    const firstSlot = Math.floor(node.opened.genesis.header.timestamp / BLOCK_TIME) + 1;
    await generate(node, clock, firstSlot, 2);
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const config = loadConfig({ dataPath: node.dataPath });
    const generator = devnetGenerator(node.opened, config, node.dbs.generator, () => clock.now, { logger });
    const slot = firstSlot + 2;
    clock.now = slot * BLOCK_TIME + 2;
    const next = chain.bft.getGeneratorAtTimestamp(chain.engineView(), 3, clock.now).address;
    const generated = { height: 7, maxHeightGenerated: 5, maxHeightPrevoted: 0 };
    putGeneratedInfoSync(node.dbs.generator, next, generated);
    for (let i = 0; i < 3; i++) assert.equal(await generator.tick(), undefined);
    assert.equal(chain.lastBlock().header.height, 2);
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [
        [
          40,
          'Not generating until the chain passes the height this validator last generated at: a block below it could contradict that one',
        ],
      ],
    );
    assert.deepEqual(getGeneratedInfo(node.dbs.generator, next), generated, 'nothing recorded for the skipped slot');
    putGeneratedInfoSync(node.dbs.generator, next, { ...generated, height: 2 });
    const block = await generator.tick();
    assert.equal(block?.header.height, 3);
    assert.equal(block?.header.maxHeightGenerated, 2);
  });
});
