import { generatedInfoAddresses, getGeneratedInfo } from '../engine/generator/generated_info.js';
import { addressToKlayr32 } from '../lib/crypto/address.js';
import { TABLES, tableRange } from '../storage/tables.js';
import type { Snapshot } from './snapshot.js';

/** One entry of forgingStatus.json: what generator_setStatus and `generator:enable --use-status-value` take. */
export interface ForgingStatus {
  address: string;
  height: number;
  maxHeightPrevoted: number;
  maxHeightGenerated: number;
}

/**
 * The forging status at the snapshot of every validator the old node holds keys for or has
 * generated with (its generator database), in address order; zeros for one that never generated.
 */
export const forgingStatusAt = (snapshot: Snapshot): ForgingStatus[] => {
  const db = snapshot.generatorDB;
  const withKeys = [...db.getKeys(tableRange(TABLES.generatorKeys, 20))].map((key) =>
    Buffer.from(key).subarray(TABLES.generatorKeys.prefix.length),
  );
  const addresses = new Map([...withKeys, ...generatedInfoAddresses(db)].map((a) => [a.toString('hex'), a]));
  return [...addresses]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, address]) => {
      const { height, maxHeightPrevoted, maxHeightGenerated } = getGeneratedInfo(db, address);
      return { address: addressToKlayr32(address), height, maxHeightPrevoted, maxHeightGenerated };
    });
};
