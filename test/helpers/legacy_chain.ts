import type { LegacyBlock } from '../../src/lib/chain/legacy_block.js';
import {
  decodeLegacyBlock,
  encodeLegacyBlock,
  encodeLegacyBlockHeader,
  encodeLegacyTransaction,
  legacyID,
} from '../../src/lib/chain/legacy_block.js';
import { merkleRoot } from '../../src/lib/tree/index.js';
import { Rng } from './random.js';

/** A generated legacy chain: blocks from `startHeight` up, and the snapshot block right above the last. */
export interface GeneratedLegacyChain {
  /** Encoded blocks (`{ header, payload }`), lowest first. */
  encoded: Buffer[];
  blocks: LegacyBlock[];
  startHeight: number;
  snapshotHeight: number;
  snapshotBlockID: Buffer;
  bracket: { startHeight: number; snapshotHeight: number; snapshotBlockID: string };
}

/**
 * `count` linked Lisk v3 style blocks (version 2 headers, signed-looking but random signatures) with
 * 0 to 3 token transfer-like transactions each, the transaction roots right, then a snapshot block.
 */
export const generateLegacyChain = (count: number, startHeight = 1000, seed = 1): GeneratedLegacyChain => {
  const rng = new Rng(seed);
  const encoded: Buffer[] = [];
  let previousBlockID = rng.bytes(32);
  let nonce = 0n;
  const headerAt = (height: number, payload: Buffer[]) => ({
    version: 2,
    timestamp: 1_600_000_000 + height * 10,
    height,
    previousBlockID,
    transactionRoot: merkleRoot(payload.map(legacyID)),
    generatorPublicKey: rng.bytes(32),
    reward: BigInt(rng.int(5)) * 100_000_000n,
    asset: rng.bytes(rng.int(3) * 20),
    signature: rng.bytes(64),
  });
  for (let height = startHeight; height < startHeight + count; height++) {
    const payload = Array.from({ length: rng.int(4) }, () =>
      encodeLegacyTransaction({
        moduleID: 2,
        assetID: 0,
        nonce: nonce++,
        fee: BigInt(100_000 + rng.int(1_000_000)),
        senderPublicKey: rng.bytes(32),
        asset: rng.bytes(40),
        signatures: [rng.bytes(64)],
      }),
    );
    const header = encodeLegacyBlockHeader(headerAt(height, payload));
    encoded.push(encodeLegacyBlock({ header, payload }));
    previousBlockID = legacyID(header);
  }
  const snapshotHeight = startHeight + count;
  const snapshotBlockID = legacyID(encodeLegacyBlockHeader(headerAt(snapshotHeight, [])));
  return {
    encoded,
    blocks: encoded.map(decodeLegacyBlock),
    startHeight,
    snapshotHeight,
    snapshotBlockID,
    bracket: { startHeight, snapshotHeight, snapshotBlockID: snapshotBlockID.toString('hex') },
  };
};
