import { CodecError } from './errors.js';

export const MAX_UINT32 = 0xffffffff;
export const MAX_SINT32 = 0x7fffffff;
export const MIN_SINT32 = -0x80000000;
export const MAX_UINT64 = 0xffffffffffffffffn;
export const MAX_SINT64 = 0x7fffffffffffffffn;
export const MIN_SINT64 = -0x8000000000000000n;

/** Bytes a uint32 varint occupies. */
export const uint32Size = (value: number): number =>
  value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;

/** Writes a uint32 varint at `pos`, returns the next position. The caller guarantees capacity. */
export const writeUInt32At = (buf: Uint8Array, pos: number, value: number): number => {
  while (value > 0x7f) {
    buf[pos++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  buf[pos++] = value;
  return pos;
};

/** Writes a uint64 varint (as bigint) at `pos`, returns the next position. */
export const writeUInt64At = (buf: Uint8Array, pos: number, value: bigint): number => {
  if (value <= 0xffffffffn) return writeUInt32At(buf, pos, Number(value));
  let lo = Number(value & 0xffffffffn);
  let hi = Number(value >> 32n);
  // emit 7 bits at a time from the 64-bit (hi:lo) pair without BigInt arithmetic
  while (hi > 0 || lo > 0x7f) {
    buf[pos++] = (lo & 0x7f) | 0x80;
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
  }
  buf[pos++] = lo;
  return pos;
};

/** Shared cursor for decoding: one per decode call. */
export interface Cursor {
  buf: Uint8Array;
  pos: number;
}

const nonMinimal = (pos: number): CodecError => new CodecError(`Non-minimal varint encoding at offset ${pos}`);

/** Reads a uint32 varint; rejects truncation, values above 2^32-1 and non-minimal encodings. */
export const readUInt32 = (c: Cursor, end: number): number => {
  const { buf } = c;
  const start = c.pos;
  let pos = start;
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (pos >= end) throw new CodecError(`Truncated varint at offset ${start}`);
    const byte = buf[pos++];
    if (shift === 28 && byte > 0x0f) throw new CodecError(`uint32 varint out of range at offset ${start}`);
    result += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      if (byte === 0 && pos - start > 1) throw nonMinimal(start);
      c.pos = pos;
      return result;
    }
  }
  throw new CodecError(`uint32 varint longer than 5 bytes at offset ${start}`);
};

/** Reads a uint64 varint as bigint; rejects truncation, overflow and non-minimal encodings. */
export const readUInt64 = (c: Cursor, end: number): bigint => {
  const { buf } = c;
  const start = c.pos;
  let pos = start;
  // first 7 bytes (49 bits) fit a double exactly
  let low = 0;
  // a running multiplier: `2 ** shift` in this loop was a tenth of a transaction's state checks
  for (let shift = 0, scale = 1; shift < 49; shift += 7, scale *= 128) {
    if (pos >= end) throw new CodecError(`Truncated varint at offset ${start}`);
    const byte = buf[pos++];
    low += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      if (byte === 0 && pos - start > 1) throw nonMinimal(start);
      c.pos = pos;
      return BigInt(low);
    }
  }
  let high = 0;
  for (let shift = 0; shift < 15; shift += 7) {
    if (pos >= end) throw new CodecError(`Truncated varint at offset ${start}`);
    const byte = buf[pos++];
    if (shift === 14 && byte > 0x01) throw new CodecError(`uint64 varint out of range at offset ${start}`);
    high += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      if (byte === 0) throw nonMinimal(start);
      c.pos = pos;
      return (BigInt(high) << 49n) | BigInt(low);
    }
  }
  throw new CodecError(`uint64 varint longer than 10 bytes at offset ${start}`);
};

export const zigZag32 = (value: number): number => (value >= 0 ? value * 2 : -value * 2 - 1);
export const unZigZag32 = (value: number): number => (value % 2 === 0 ? value / 2 : -(value + 1) / 2);
export const zigZag64 = (value: bigint): bigint => (value >= 0n ? value << 1n : (-value << 1n) - 1n);
export const unZigZag64 = (value: bigint): bigint => ((value & 1n) === 0n ? value >> 1n : -((value + 1n) >> 1n));
