import type { Snapshot } from './snapshot.js';

/** What every asset builder reads: the snapshot, and how the old chain's IDs map onto the successor's. */
export interface MigrationContext {
  snapshot: Snapshot;
  /** The successor's chain ID (the old one unless a new one was given). */
  chainID: Buffer;
  /** A token of the old chain (its first 4 bytes the old chain ID) becomes the successor's token of the same local ID. */
  tokenID(old: Buffer): Buffer;
}

export const migrationContext = (snapshot: Snapshot, chainID: Buffer): MigrationContext => ({
  snapshot,
  chainID,
  tokenID: (old) => (old.subarray(0, 4).equals(snapshot.chainID) ? Buffer.concat([chainID, old.subarray(4)]) : old),
});

/** One genesis asset: the module it is for and its data encoded with that module's genesis schema. */
export interface MigratedAsset {
  module: string;
  data: Buffer;
}
