import { blsAggregate, blsFastAggregateVerify } from './bls.js';
import { sha256 } from './hash.js';
import { tagMessage } from './tags.js';

const readBit = (buf: Uint8Array, bit: number): boolean => ((buf[bit >> 3] >> (bit & 7)) & 1) === 1;

/** Aggregation bits: bit i (LSB-first in each byte) set when key i signed. */
export const createAggSig = (
  publicKeys: readonly Uint8Array[],
  pairs: readonly { publicKey: Uint8Array; signature: Uint8Array }[],
): { aggregationBits: Buffer; signature: Buffer } => {
  const aggregationBits = Buffer.alloc(Math.ceil(publicKeys.length / 8));
  for (const { publicKey } of pairs) {
    const index = publicKeys.findIndex((k) => Buffer.compare(k, publicKey) === 0);
    if (index < 0) throw new Error('Signer public key is not in the key list');
    aggregationBits[index >> 3] |= 1 << (index & 7);
  }
  const signature = blsAggregate(pairs.map((p) => p.signature));
  if (signature === undefined) throw new Error('Can not aggregate signatures');
  return { aggregationBits, signature };
};

/** Bits must be exactly ceil(n/8) bytes with the unused high bits of the last byte zero. */
export const aggregationBitsValid = (keyCount: number, bits: Uint8Array): boolean => {
  if (bits.length !== Math.ceil(keyCount / 8)) return false;
  const unused = keyCount % 8;
  return unused === 0 || bits[bits.length - 1] >> unused === 0;
};

export const selectSigners = <K>(keys: readonly K[], bits: Uint8Array): K[] => keys.filter((_, i) => readBit(bits, i));

export const verifyAggSig = (
  publicKeys: readonly Uint8Array[],
  aggregationBits: Uint8Array,
  signature: Uint8Array,
  tag: string,
  chainID: Uint8Array,
  message: Uint8Array,
): boolean =>
  aggregationBitsValid(publicKeys.length, aggregationBits) &&
  blsFastAggregateVerify(
    selectSigners(publicKeys, aggregationBits),
    sha256(tagMessage(tag, chainID, message)),
    signature,
  );

/** verifyAggSig, and the signers' weights must add up to at least the threshold. */
export const verifyWeightedAggSig = (
  publicKeys: readonly Uint8Array[],
  aggregationBits: Uint8Array,
  signature: Uint8Array,
  tag: string,
  chainID: Uint8Array,
  message: Uint8Array,
  weights: readonly (bigint | number)[],
  threshold: bigint | number,
): boolean => {
  if (!aggregationBitsValid(publicKeys.length, aggregationBits)) return false;
  const weight = selectSigners(weights, aggregationBits).reduce<bigint>((sum, w) => sum + BigInt(w), 0n);
  return weight >= BigInt(threshold) && verifyAggSig(publicKeys, aggregationBits, signature, tag, chainID, message);
};
