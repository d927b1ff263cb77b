import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DynamicRewardModule } from '../../src/modules/dynamic_reward/index.js';
import { RandomModule } from '../../src/modules/random/index.js';
import { compareModuleGenesis, prefixOf } from '../helpers/genesis_compare.js';

describe('random and dynamicReward genesis equal klayr-framework\'s on the devnet genesis block', () => {
  it('random: an empty list of validator reveals', async () => {
    const { ours, theirs } = await compareModuleGenesis([new RandomModule()], prefixOf('random'));
    assert.equal(ours.size, 1);
    assert.deepEqual(ours, theirs);
  });

  it('dynamicReward: the end-of-round timestamp is the genesis timestamp', async () => {
    const { ours, theirs } = await compareModuleGenesis([new DynamicRewardModule()], prefixOf('dynamicReward'));
    assert.equal(ours.size, 1);
    assert.deepEqual(ours, theirs);
  });
});
