import { deleteOldest } from '../collections.js';
import { verifyWeightedAggSig } from '../crypto/aggregate.js';
import { sha256Concat } from '../crypto/hash.js';

/** A weighted aggregate BLS signature check (a certificate of a CCU, a mainchain registration). */
export interface AggregateCheck {
  publicKeys: readonly Buffer[];
  weights: readonly bigint[];
  threshold: bigint;
  aggregationBits: Buffer;
  signature: Buffer;
  tag: string;
  chainID: Buffer;
  message: Buffer;
}

const u64 = (value: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(value);
  return b;
};

/** Everything the verdict depends on, hashed. */
const checkKey = (c: AggregateCheck): string =>
  sha256Concat(
    ...c.publicKeys,
    ...c.weights.map(u64),
    u64(c.threshold),
    u64(BigInt(c.aggregationBits.length)),
    c.aggregationBits,
    c.signature,
    Buffer.from(c.tag, 'utf8'),
    c.chainID,
    c.message,
  ).toString('hex');

const MAX_REMEMBERED = 4096;
const verdicts = new Map<string, boolean>();

/** Verdicts computed ahead (in the `bls` pool) for checks a transaction's execution will make. */
export const rememberAggregateVerdicts = (results: readonly { check: AggregateCheck; valid: boolean }[]): void => {
  for (const { check, valid } of results) {
    if (verdicts.size >= MAX_REMEMBERED) deleteOldest(verdicts);
    verdicts.set(checkKey(check), valid);
  }
};

/** The remembered verdict, or a check on this thread when none was computed ahead. */
export const verifyAggregateCheck = (check: AggregateCheck): boolean => {
  const key = checkKey(check);
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  return verifyWeightedAggSig(
    check.publicKeys,
    check.aggregationBits,
    check.signature,
    check.tag,
    check.chainID,
    check.message,
    check.weights,
    check.threshold,
  );
};
