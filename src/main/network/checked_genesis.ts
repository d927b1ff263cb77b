import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Block } from '../../lib/chain/block.js';
import { blockHeaderID, computeAssetRoot, decodeBlock } from '../../lib/chain/block.js';
import { genesisProofsOfPossession } from '../../modules/pos/genesis.js';
import { networkDir } from '../config/networks.js';

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

const pinned = new WeakMap<Block, boolean>();

/**
 * Whether the block is one of those presets' genesis blocks, assets included: the ID covers the header, and
 * the header's asset root must be the assets' (a pinned header over other assets, other proofs, is not
 * trusted). Its proofs of possession are known valid, and the tests process it in full, so its header's
 * roots are known to be what its assets give (checked once per block object).
 */
export const isPinnedGenesisBlock = (block: Block): boolean => {
  let known = pinned.get(block);
  if (known === undefined) {
    known =
      GENESIS_BLOCKS_WITH_CHECKED_PROOFS.has(blockHeaderID(block.header).toString('hex')) &&
      computeAssetRoot(block.assets).equals(block.header.assetRoot);
    pinned.set(block, known);
  }
  return known;
};

interface ProofOfPossession {
  pk: Buffer;
  proof: Buffer;
}

let devnetProofs: { items: readonly ProofOfPossession[]; keys: ReadonlySet<string> } | undefined;

const proofKey = (item: ProofOfPossession): string => `${item.pk.toString('hex')}:${item.proof.toString('hex')}`;

/**
 * The devnet's validators' (BLS key, proof of possession) pairs, from its embedded genesis block once
 * that is known to be the pinned one. A proof of possession signs its own key and nothing else, so
 * a pair is as valid in any other block: the devnet genesis blocks with other genesis validators that
 * local networks and tests build (devnet_genesis.ts) carry the same 103.
 */
const devnetCheckedProofs = (): { items: readonly ProofOfPossession[]; keys: ReadonlySet<string> } => {
  if (devnetProofs === undefined) {
    const block = decodeBlock(readFileSync(join(networkDir('devnet'), 'genesis_block.blob')));
    const items = isPinnedGenesisBlock(block) ? genesisProofsOfPossession(block.assets) : [];
    devnetProofs = { items, keys: new Set(items.map(proofKey)) };
  }
  return devnetProofs;
};

/** The devnet's validators' proofs of possession, known valid (see devnetCheckedProofs). */
export const devnetProofsOfPossession = (): readonly ProofOfPossession[] => devnetCheckedProofs().items;

/** Splits proofs of possession into those known valid (the devnet's validators' pairs) and the others, to check. */
export const splitCheckedProofs = <T extends ProofOfPossession>(
  items: readonly T[],
): { checked: T[]; unchecked: T[] } => {
  const { keys } = devnetCheckedProofs();
  return {
    checked: items.filter((item) => keys.has(proofKey(item))),
    unchecked: items.filter((item) => !keys.has(proofKey(item))),
  };
};
