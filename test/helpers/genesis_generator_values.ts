// Values and small helpers the random genesis generators share.
import type { Rng } from './random.js';

/** A BLS key with its proof of possession (proofs are costly to make: tests draw from a fixed pool). */
export interface BLSKeyPair {
  blsKey: Buffer;
  proofOfPossession: Buffer;
}

export const CHAIN_ID = Buffer.from('04000000', 'hex');
/** KLY: the mainchain token, also the PoS, legacy reclaim and message fee token. */
export const TOKEN_KLY = Buffer.from('0400000000000000', 'hex');
export const MAX_UINT64 = 2n ** 64n - 1n;

export const compareBytes = (a: Buffer, b: Buffer): number => Buffer.compare(a, b);
export const uniqueSorted = (items: Buffer[]): Buffer[] =>
  [...new Map(items.map((b) => [b.toString('hex'), b])).values()].sort(compareBytes);

/** A small amount, sometimes zero, sometimes large (totals must stay within uint64). */
export const amount = (rng: Rng, allowZero = true): bigint => {
  const v = rng.pick([
    0n,
    1n,
    BigInt(rng.int(1000)),
    BigInt(rng.int(2 ** 31)) * 1000n,
    BigInt(rng.int(2 ** 30)) << 10n,
  ]);
  return v === 0n && !allowZero ? 1n + BigInt(rng.int(100)) : v;
};

export const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789!@$&_.';
export const randomName = (rng: Rng, maxLength: number): string =>
  Array.from(
    { length: 1 + rng.int(rng.next() < 0.1 ? maxLength : Math.min(8, maxLength)) },
    () => NAME_CHARS[rng.int(NAME_CHARS.length)],
  ).join('');
