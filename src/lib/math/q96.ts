/**
 * Unsigned fixed-point numbers with 96 fractional bits (Klayr's `math.q96`), as raw bigints.
 * PoS reward sharing coefficients are stored as these raw values' minimal big-endian bytes.
 */
const BASE = 96n;
const ONE = 1n << BASE;

export const q96 = (integer: bigint): bigint => integer << BASE;

export const q96FromBytes = (bytes: Uint8Array): bigint =>
  bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);

/** Minimal big-endian bytes; zero is the empty buffer. */
export const q96ToBytes = (value: bigint): Buffer => {
  if (value === 0n) return Buffer.alloc(0);
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
};

export const q96Sub = (a: bigint, b: bigint): bigint => {
  if (a < b) throw new Error('Invalid input, output cannot be negative.');
  return a - b;
};

export const q96Mul = (a: bigint, b: bigint): bigint => (a * b) >> BASE;

export const q96Div = (a: bigint, b: bigint): bigint => {
  if (b === 0n) throw new Error('Cannot be divided by zero.');
  return (a << BASE) / b;
};

/** a * b / c, rounded down, without losing the intermediate precision. */
export const q96MulDiv = (a: bigint, b: bigint, c: bigint): bigint => {
  if (c === 0n) throw new Error('Cannot be divided by zero.');
  return (((a * b) << BASE) / c) >> BASE;
};

export const q96Floor = (a: bigint): bigint => a >> BASE;

export const q96Ceil = (a: bigint): bigint => (a % ONE === 0n ? a >> BASE : (a >> BASE) + 1n);
