import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { processGenesisBlock } from '../../src/engine/genesis.js';
import { EMPTY_STATE } from '../../src/engine/state/state_db.js';
import type { Block } from '../../src/lib/chain/block.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { devnetChainID as chainID, devnetGenesis } from '../helpers/genesis_compare.js';
import { Rng } from '../helpers/random.js';

const modules = applicationModules(loadConfig());

describe('genesis block processing', () => {
  it('processes the devnet genesis block and reproduces its roots', () => {
    const block = devnetGenesis();
    const result = processGenesisBlock(block, chainID, modules, EMPTY_STATE);
    assert.deepEqual(result.stateRoot, block.header.stateRoot);
    assert.deepEqual(result.eventRoot, block.header.eventRoot);
    assert.deepEqual(result.validatorsHash, block.header.validatorsHash);
    assert.equal(result.events.length, 206);
    assert.equal(result.nextValidators.validators.length, 51);
  });

  it('refuses a genesis block with one altered byte in any asset', () => {
    const rng = new Rng(13);
    const block = devnetGenesis();
    for (let i = 0; i < block.assets.length; i++) {
      const data = Buffer.from(block.assets[i]!.data);
      data[rng.int(data.length)]! ^= 1 << rng.int(8);
      const altered: Block = { ...block, assets: block.assets.map((a, j) => (j === i ? { ...a, data } : a)) };
      assert.throws(() => processGenesisBlock(altered, chainID, modules, EMPTY_STATE), /Invalid assets root/);
    }
  });

  it('names the first mismatching root when the header does not match the assets', () => {
    const block = devnetGenesis();
    const cases: [keyof Block['header'], RegExp][] = [
      ['stateRoot', /Genesis block stateRoot mismatch/],
      ['eventRoot', /Genesis block eventRoot mismatch/],
      ['validatorsHash', /Genesis block validatorsHash mismatch/],
    ];
    for (const [field, pattern] of cases) {
      const header = { ...block.header, [field]: Buffer.alloc(32, 1) };
      assert.throws(() => processGenesisBlock({ ...block, header }, chainID, modules, EMPTY_STATE), pattern);
    }
  });
});

describe('creating a genesis block', () => {
  it('from the devnet genesis assets JSON with the devnet timestamp gives the devnet genesis block byte for byte', async () => {
    const { readFileSync } = await import('node:fs');
    const { devnetFile } = await import('../helpers/devnet.js');
    const { createGenesisBlock } = await import('../../src/engine/genesis.js');
    const { blockHeaderID, encodeBlock } = await import('../../src/lib/chain/block.js');
    const assets = (
      JSON.parse(readFileSync(devnetFile('genesis_assets.json'), 'utf8')) as {
        assets: { module: string; data: unknown; schema: never }[];
      }
    ).assets;
    const devnet = devnetGenesis();
    const created = createGenesisBlock({ assets, chainID, timestamp: devnet.header.timestamp }, modules);
    assert.equal(
      blockHeaderID(created.header).toString('hex'),
      '569d3da971979f0a5832c84784dda3f86194664e8a9cff7fea50fef243354d48',
    );
    assert.equal(encodeBlock(created).toString('hex'), readFileSync(devnetFile('genesis_block.blob')).toString('hex'));
  });
});
