import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeBlock } from '../../src/lib/chain/block.js';
import type { Block } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import { TokenModule } from '../../src/modules/token/index.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { devnetFile } from '../helpers/devnet.js';
import { compareModuleGenesis, prefixOf } from '../helpers/genesis_compare.js';

const chainID = Buffer.from('04000000', 'hex');
const devnet = decodeBlock(readFileSync(devnetFile('genesis_block.blob')));

const withTokenAsset = (mutate: (g: GenesisTokenStore) => void): Block => {
  const asset = devnet.assets.find((a) => a.module === 'token')!;
  const g = codec.decode<GenesisTokenStore>(genesisTokenStoreSchema, asset.data);
  mutate(g);
  return { ...devnet, assets: devnet.assets.map((a) => (a.module === 'token' ? { module: 'token', data: codec.encode(genesisTokenStoreSchema, g) } : a)) };
};

describe('token module genesis', () => {
  it('writes exactly the token store entries klayr-framework\'s token module writes for the devnet genesis block', async () => {
    const { ours, theirs } = await compareModuleGenesis([new TokenModule()], prefixOf('token'));
    assert.equal(ours.size, 105);
    assert.deepEqual(ours, theirs);
  });

  it('refuses unsorted users, duplicate pairs, zero locks and a supply that does not add up, as Klayr does', () => {
    const cases: [string, (g: GenesisTokenStore) => void, RegExp][] = [
      ['unsorted users', (g) => g.userSubstore.reverse(), /UserSubstore must be sorted/],
      ['duplicate pair', (g) => g.userSubstore.splice(1, 0, { ...g.userSubstore[0]! }), /pair is duplicated/],
      ['zero lock', (g) => (g.userSubstore[0]!.lockedBalances = [{ module: 'pos', amount: 0n }]), /contains 0 amount locked balance/],
      ['unsorted locks', (g) => (g.userSubstore[0]!.lockedBalances = [{ module: 'pos', amount: 1n }, { module: 'auth', amount: 1n }]), /Locked balances must be sorted/],
      ['supply mismatch', (g) => (g.supplySubstore[0]!.totalSupply += 1n), /Stored total supply conflicts/],
      ['all-supported with ids', (g) => (g.supportedTokensSubstore = [{ chainID: Buffer.alloc(0), supportedTokenIDs: [Buffer.alloc(8)] }]), /must be an empty array/],
    ];
    for (const [name, mutate, pattern] of cases) {
      assert.throws(() => executeGenesis([new TokenModule()], withTokenAsset(mutate), chainID, new BlockState(EMPTY_STATE)), pattern, name);
    }
  });
});
