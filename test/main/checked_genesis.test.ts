import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Block } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { compile } from '../../src/lib/codec/index.js';
import { readGenesisBlock } from '../../src/main/chain_setup.js';
import { NETWORKS, networkPreset } from '../../src/main/config/networks.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import {
  GENESIS_BLOCKS_WITH_CHECKED_PROOFS,
  isPinnedGenesisBlock,
  splitCheckedProofs,
} from '../../src/main/network/checked_genesis.js';
import { genesisProofsOfPossession } from '../../src/modules/pos/genesis.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import { createPooledBlsVerifier } from '../../src/workers/bls_verifier.js';

const presetGenesis = (network: string): Block =>
  readGenesisBlock({ genesis: networkPreset(network).genesis } as ApplicationConfig);

describe('embedded presets whose genesis proofs of possession are not checked again at start', () => {
  it("pins exactly the presets' genesis blocks, by ID", () => {
    const pinned = new Map(NETWORKS.map((n) => [blockHeaderID(presetGenesis(n).header).toString('hex'), n]));
    assert.deepEqual([...GENESIS_BLOCKS_WITH_CHECKED_PROOFS].sort(), [...pinned].sort());
    for (const network of NETWORKS) assert.equal(isPinnedGenesisBlock(presetGenesis(network)), true, network);
  });

  it('every proof of possession of every pinned block is valid (pairings in the bls pool)', async () => {
    const items = NETWORKS.flatMap((n) => genesisProofsOfPossession(presetGenesis(n).assets));
    assert.equal(items.length, 103 + 193 + 172);
    const bls = createPooledBlsVerifier(2);
    try {
      const verdicts = await bls.verifyProofsOfPossession(items);
      assert.equal(verdicts.length, items.length);
      assert.equal(
        verdicts.every((v) => v === true),
        true,
      );
    } finally {
      await bls.close();
    }
  });

  it('a pinned header over other assets (one proof changed) is not trusted', () => {
    const block = presetGenesis('testnet');
    const codec = compile<GenesisPoSStore>(genesisStoreSchema);
    const assets = block.assets.map((asset) => {
      if (asset.module !== 'pos') return asset;
      const pos = codec.decode(asset.data);
      const [first, ...rest] = pos.validators;
      assert.ok(first !== undefined);
      const proofOfPossession = Buffer.from(first.proofOfPossession);
      proofOfPossession[95] = (proofOfPossession[95] ?? 0) ^ 1;
      return { ...asset, data: codec.encode({ ...pos, validators: [{ ...first, proofOfPossession }, ...rest] }) };
    });
    assert.equal(isPinnedGenesisBlock({ ...block, assets }), false);
  });

  it('another genesis block (the devnet block with another timestamp) is not trusted', () => {
    const block = presetGenesis('devnet');
    const other = { ...block, header: { ...block.header, timestamp: block.header.timestamp + 1 } };
    assert.equal(isPinnedGenesisBlock(other), false);
  });

  it("proofs of possession known valid in any block: exactly the pinned devnet block's pairs (a proof signs its own key only)", () => {
    const devnet = genesisProofsOfPossession(presetGenesis('devnet').assets);
    assert.deepEqual(splitCheckedProofs(devnet), { checked: devnet, unchecked: [] });
    const [first, second] = devnet;
    assert.ok(first !== undefined && second !== undefined);
    const flipped = Buffer.from(first.proof);
    flipped[95] = (flipped[95] ?? 0) ^ 1;
    const others = [
      { pk: first.pk, proof: flipped },
      { pk: first.pk, proof: second.proof },
      ...genesisProofsOfPossession(presetGenesis('testnet').assets).slice(0, 3),
    ];
    assert.deepEqual(splitCheckedProofs([...others, second]), { checked: [second], unchecked: others });
  });
});
