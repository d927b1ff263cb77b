import '../helpers/klayr.js';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { Block } from '../../src/lib/chain/block.js';
import { decodeBlock } from '../../src/lib/chain/block.js';
import { loadConfig } from '../../src/main/config/load.js';
import { isPinnedGenesisBlock, splitCheckedProofs } from '../../src/main/network/checked_genesis.js';
import {
  checkGenesisValidators,
  createChainGenesisBlock,
  createDevnetGenesisBlock,
  devnetAssetsWithGenesisValidators,
  devnetKeys,
  FIXED_VALIDATORS_INIT_ROUNDS,
} from '../../src/main/network/devnet_genesis.js';
import { MAX_GENESIS_VALIDATORS } from '../../src/main/network/devnet_validators.js';
import { genesisProofsOfPossession } from '../../src/modules/pos/genesis.js';
import { devnetFile } from '../helpers/devnet.js';
import { klayrCodec, klayrCrypto } from '../helpers/klayr.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const posSchemas: any = require('klayr-framework/dist-node/modules/pos/schemas');
const bftUtils: any = require('klayr-framework/dist-node/engine/bft/utils');

const config = () => loadConfig({ network: 'devnet' }, { savedConfig: false });
const devnetGenesis = (): Block => decodeBlock(readFileSync(devnetFile('genesis_block.blob')));
const asset = (block: Block, module: string): Buffer => {
  const found = block.assets.find((a) => a.module === module);
  assert.ok(found !== undefined, `no ${module} asset`);
  return found.data;
};
const decodePoS = (block: Block): any => klayrCodec.codec.decode(posSchemas.genesisStoreSchema, asset(block, 'pos'));

describe('a devnet genesis block with N genesis validators', () => {
  const block = createDevnetGenesisBlock(config(), 4, 1_700_000_000);

  it("keeps every devnet genesis asset byte for byte but the PoS genesis data (decoded with Klayr's schema)", () => {
    const devnet = devnetGenesis();
    assert.deepEqual(
      block.assets.map((a) => a.module),
      devnet.assets.map((a) => a.module),
    );
    for (const { module } of devnet.assets.filter((a) => a.module !== 'pos'))
      assert.ok(asset(block, module).equals(asset(devnet, module)), module);
    const [ours, theirs] = [decodePoS(block), decodePoS(devnet)];
    assert.deepEqual(ours.validators, theirs.validators);
    assert.equal(ours.validators.length, 103);
    assert.deepEqual(ours.stakers, theirs.stakers);
    assert.equal(ours.genesisData.initRounds, FIXED_VALIDATORS_INIT_ROUNDS);
    assert.deepEqual(
      ours.genesisData.initValidators.map((a: Buffer) => a.toString('hex')),
      devnetKeys()
        .slice(0, 4)
        .map((k) => klayrCrypto.address.getAddressFromKlayr32Address(k.address).toString('hex')),
    );
  });

  it("commits to the N validators with weight 1 and Klayr's threshold 2N/3 + 1 (validatorsHash by klayr-framework)", () => {
    const active = devnetKeys()
      .slice(0, 4)
      .map((k) => ({ blsKey: Buffer.from(k.plain.blsKey, 'hex'), bftWeight: BigInt(1) }));
    const expected: Buffer = bftUtils.computeValidatorsHash(bftUtils.sortValidatorsByBLSKey(active), BigInt(3));
    assert.equal(block.header.validatorsHash.toString('hex'), expected.toString('hex'));
    assert.equal(block.header.height, 0);
    assert.equal(block.header.timestamp, 1_700_000_000);
  });

  it("is not the pinned devnet block, yet its proofs of possession are the devnet's, known valid: none is paired again", () => {
    assert.equal(isPinnedGenesisBlock(block), false);
    const proofs = genesisProofsOfPossession(block.assets);
    assert.equal(proofs.length, 103);
    const { checked, unchecked } = splitCheckedProofs(proofs);
    assert.equal(checked.length, 103);
    assert.deepEqual(unchecked, []);
  });

  it(`takes 1 to ${MAX_GENESIS_VALIDATORS} genesis validators and refuses other counts`, () => {
    for (const n of [0, -1, 1.5, MAX_GENESIS_VALIDATORS + 1, Number.NaN])
      assert.throws(() => checkGenesisValidators(n), /A devnet genesis block has 1 to 51 genesis validators/);
    assert.doesNotThrow(() => createDevnetGenesisBlock(config(), 1, 1_700_000_000));
    assert.doesNotThrow(() => createDevnetGenesisBlock(config(), MAX_GENESIS_VALIDATORS, 1_700_000_000));
  });

  it("the limit is Klayr's PoS genesis rule: 52 genesis validators are refused by the modules themselves", () => {
    const assets = devnetAssetsWithGenesisValidators(1).map((a) =>
      a.module === 'pos'
        ? {
            ...a,
            data: {
              ...(a.data as object),
              genesisData: {
                initRounds: 3,
                initValidators: devnetKeys()
                  .slice(0, MAX_GENESIS_VALIDATORS + 1)
                  .map((k) => k.address),
              },
            },
          }
        : a,
    );
    assert.throws(
      () => createChainGenesisBlock(config(), assets, 1_700_000_000),
      /Init validators is greater than number of active validators 51/,
    );
  });
});
