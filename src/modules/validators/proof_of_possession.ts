import type { Schema } from '../../lib/codec/index.js';
import { codec } from '../../lib/codec/index.js';
import type { TransactionObject } from '../../lib/transaction/index.js';

/**
 * The BLS key and proof of possession a key-registering command (pos registerValidator, legacy
 * registerKeys) will check, read from its params; none for any other transaction or for params
 * that do not decode (execution refuses those anyway).
 */
export const proofOfPossessionOf = (
  tx: TransactionObject,
  module: string,
  command: string,
  schema: Schema,
): { pk: Buffer; proof: Buffer }[] => {
  if (tx.module !== module || tx.command !== command) return [];
  try {
    const { blsKey, proofOfPossession } = codec.decode<{ blsKey: Buffer; proofOfPossession: Buffer }>(
      schema,
      tx.params,
    );
    return [{ pk: blsKey, proof: proofOfPossession }];
  } catch {
    return [];
  }
};
