import type { Block } from '../../lib/chain/block.js';
import { blockHeaderID, computeAssetRoot } from '../../lib/chain/block.js';

/**
 * The genesis blocks embedded as network presets (src/main/network/<network>/), by block ID, whose
 * validators' proofs of possession are all valid: checked when they were pinned here and again by
 * the tests (test/main/checked_genesis.test.ts pins each preset's ID and checks every proof of its block).
 * A first start on one of them does not repeat those pairings (103, 193 and 172 of them: seconds of
 * JavaScript pairings, most of a mainnet first start on two cores), as Bitcoin Core's assumevalid
 * skips the script checks of the blocks up to a hash it ships. Everything else about the block is
 * still checked: the keys, the asset root over the assets that hold the proofs, every module's
 * genesis rules and the three roots the header must reproduce.
 */
export const GENESIS_BLOCKS_WITH_CHECKED_PROOFS: ReadonlyMap<string, string> = new Map([
  ['569d3da971979f0a5832c84784dda3f86194664e8a9cff7fea50fef243354d48', 'devnet'],
  ['6fed746db21bee0ce80ac0b7d70ecd5bfc092b1ad435549ca52c0e0e2502349d', 'testnet'],
  ['4e221dd9923d08182a237d6d58477ba104aadc663c6736fa4d2ca11a2f6fab48', 'mainnet'],
]);

/**
 * Whether the block is one of those presets' genesis blocks, assets included: the ID covers the
 * header, and the header's asset root must be the assets' (a pinned header over other assets,
 * other proofs, is not trusted).
 */
export const hasCheckedProofsOfPossession = (block: Block): boolean =>
  GENESIS_BLOCKS_WITH_CHECKED_PROOFS.has(blockHeaderID(block.header).toString('hex')) &&
  computeAssetRoot(block.assets).equals(block.header.assetRoot);
