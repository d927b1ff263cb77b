import { CodecError } from './errors.js';
import type { Cursor } from './varint.js';
import { readUInt32, readUInt64, unZigZag32, unZigZag64 } from './varint.js';

export interface BufferCursor extends Cursor {
  buf: Buffer;
}

export { readUInt32, readUInt64 };

export const readSInt32 = (c: Cursor, end: number): number => unZigZag32(readUInt32(c, end));
export const readSInt64 = (c: Cursor, end: number): bigint => unZigZag64(readUInt64(c, end));

export const readBoolean = (c: Cursor, end: number): boolean => {
  if (c.pos >= end) throw new CodecError(`Truncated boolean at offset ${c.pos}`);
  const byte = c.buf[c.pos];
  if (byte > 1) throw new CodecError(`Invalid boolean byte 0x${byte.toString(16)} at offset ${c.pos}`);
  c.pos += 1;
  return byte === 1;
};

/** Reads a length prefix and checks the body lies inside `end`; returns the body end. */
export const readLength = (c: Cursor, end: number): number => {
  const at = c.pos;
  const length = readUInt32(c, end);
  const bodyEnd = c.pos + length;
  if (bodyEnd > end)
    throw new CodecError(`Length ${length} at offset ${at} runs past the end of its container (${end})`);
  return bodyEnd;
};

/** Bytes are returned as views into the input, like @klayr/codec does. */
export const readBytes = (c: BufferCursor, end: number): Buffer => {
  const bodyEnd = readLength(c, end);
  const out = c.buf.subarray(c.pos, bodyEnd);
  c.pos = bodyEnd;
  return out;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

export const readString = (c: BufferCursor, end: number): string => {
  const bodyEnd = readLength(c, end);
  const { buf } = c;
  let ascii = true;
  for (let i = c.pos; i < bodyEnd; i++) {
    if (buf[i] > 0x7f) {
      ascii = false;
      break;
    }
  }
  const start = c.pos;
  c.pos = bodyEnd;
  if (ascii) return buf.toString('latin1', start, bodyEnd);
  let text: string;
  try {
    text = utf8.decode(buf.subarray(start, bodyEnd));
  } catch {
    throw new CodecError(`Invalid UTF-8 string at offset ${start}`);
  }
  if (text.normalize('NFC') !== text) throw new CodecError(`String at offset ${start} is not NFC-normalized`);
  return text;
};

export const scalarReaders = {
  uint32: readUInt32,
  sint32: readSInt32,
  uint64: readUInt64,
  sint64: readSInt64,
  boolean: readBoolean,
  bytes: readBytes,
  string: readString,
} as const;

/** Builds the error for a missing or unexpected field key at the cursor. */
export const keyError = (c: Cursor, end: number, fieldNumber: number, wireType: number, path: string): CodecError => {
  const at = c.pos;
  if (at >= end) return new CodecError(`Missing field ${fieldNumber}: message ends at offset ${at}`, path);
  let found: string;
  try {
    const key = readUInt32(c, end);
    found = `field ${Math.floor(key / 8)} with wire type ${key % 8}`;
  } catch (e) {
    found = (e as Error).message;
  }
  return new CodecError(
    `Expected field ${fieldNumber} with wire type ${wireType} at offset ${at}, found ${found}`,
    path,
  );
};

export const trailingError = (c: Cursor, end: number, path: string): CodecError =>
  new CodecError(
    `Unexpected bytes at offset ${c.pos}: object ends at ${end} (unknown, duplicate or out-of-order field)`,
    path || '<root>',
  );

/** An empty packed array is never written (empty arrays are omitted), so accepting one would make decoding non-canonical. */
export const emptyPackedError = (c: Cursor, path: string): CodecError =>
  new CodecError(`Empty packed array at offset ${c.pos}: empty arrays are omitted in canonical encoding`, path);
