import type { TransactionObject } from './schema.js';
import { DEFAULT_MIN_FEE_PER_BYTE, SIGNATURE_LENGTH } from './schema.js';
import { encodeTransaction } from './transaction.js';

export interface MinFeeOptions {
  minFeePerByte?: number;
  /** Extra fee a command charges on top of the size fee (e.g. registration fees). */
  additionalFee?: bigint;
  numberOfSignatures?: number;
  numberOfEmptySignatures?: number;
}

/**
 * Smallest fee such that fee >= size(tx with that fee) * minFeePerByte + additionalFee,
 * with placeholder signatures; the fee's own varint length feeds back into the size,
 * so iterate to the fixed point as @klayr/transactions does.
 */
export const computeMinFee = (
  tx: Omit<TransactionObject, 'fee' | 'signatures'>,
  options: MinFeeOptions = {},
): bigint => {
  const signatures = [
    ...Array.from({ length: options.numberOfSignatures ?? 1 }, () => Buffer.alloc(SIGNATURE_LENGTH)),
    ...Array.from({ length: options.numberOfEmptySignatures ?? 0 }, () => Buffer.alloc(0)),
  ];
  const perByte = BigInt(options.minFeePerByte ?? DEFAULT_MIN_FEE_PER_BYTE);
  const additional = options.additionalFee ?? 0n;
  let fee = additional;
  for (;;) {
    const next = BigInt(encodeTransaction({ ...tx, fee, signatures }).length) * perByte + additional;
    if (next <= fee) return fee;
    fee = next;
  }
};
