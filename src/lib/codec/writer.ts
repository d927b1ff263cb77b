import { CodecError } from './errors.js';
import {
  MAX_SINT32,
  MAX_SINT64,
  MAX_UINT32,
  MAX_UINT64,
  MIN_SINT32,
  MIN_SINT64,
  uint32Size,
  writeUInt32At,
  writeUInt64At,
  zigZag32,
  zigZag64,
} from './varint.js';

/** Growable output buffer; one is reused by every synchronous encode call. */
export interface Writer {
  buf: Buffer;
  pos: number;
}

/** For generated encoders, which write a uint64 above 2^32-1 with it. */
export { writeUInt64At };

export const createWriter = (size = 1024): Writer => ({ buf: Buffer.allocUnsafe(size), pos: 0 });

export const ensure = (w: Writer, extra: number): void => {
  const needed = w.pos + extra;
  if (needed <= w.buf.length) return;
  const next = Buffer.allocUnsafe(Math.max(needed, w.buf.length * 2));
  w.buf.copy(next, 0, 0, w.pos);
  w.buf = next;
};

/** Fills in the length byte reserved at `lengthPos` (shifting the body when the length needs more bytes). */
export const closeLength = (w: Writer, lengthPos: number): void => {
  const length = w.pos - lengthPos - 1;
  if (length < 0x80) {
    w.buf[lengthPos] = length;
    return;
  }
  const size = uint32Size(length);
  ensure(w, size - 1);
  w.buf.copyWithin(lengthPos + size, lengthPos + 1, w.pos);
  writeUInt32At(w.buf, lengthPos, length);
  w.pos += size - 1;
};

const typeError = (path: string, expected: string, value: unknown): CodecError =>
  new CodecError(
    `Expected ${expected}, got ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}${typeof value === 'number' || typeof value === 'bigint' ? ` ${value}` : ''}`,
    path,
  );

export const writeUInt32 = (w: Writer, v: unknown, path: string): void => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_UINT32) throw typeError(path, 'uint32', v);
  ensure(w, 5);
  w.pos = writeUInt32At(w.buf, w.pos, v);
};

export const writeSInt32 = (w: Writer, v: unknown, path: string): void => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < MIN_SINT32 || v > MAX_SINT32)
    throw typeError(path, 'sint32', v);
  ensure(w, 5);
  w.pos = writeUInt32At(w.buf, w.pos, zigZag32(v));
};

export const writeUInt64 = (w: Writer, v: unknown, path: string): void => {
  if (typeof v !== 'bigint' || v < 0n || v > MAX_UINT64) throw typeError(path, 'uint64 (bigint)', v);
  ensure(w, 10);
  w.pos = writeUInt64At(w.buf, w.pos, v);
};

export const writeSInt64 = (w: Writer, v: unknown, path: string): void => {
  if (typeof v !== 'bigint' || v < MIN_SINT64 || v > MAX_SINT64) throw typeError(path, 'sint64 (bigint)', v);
  ensure(w, 10);
  w.pos = writeUInt64At(w.buf, w.pos, zigZag64(v));
};

export const writeBoolean = (w: Writer, v: unknown, path: string): void => {
  if (typeof v !== 'boolean') throw typeError(path, 'boolean', v);
  ensure(w, 1);
  w.buf[w.pos++] = v ? 1 : 0;
};

export const writeBytes = (w: Writer, v: unknown, path: string): void => {
  if (!(v instanceof Uint8Array)) throw typeError(path, 'bytes (Buffer/Uint8Array)', v);
  ensure(w, v.length + 5);
  w.pos = writeUInt32At(w.buf, w.pos, v.length);
  w.buf.set(v, w.pos);
  w.pos += v.length;
};

const ASCII = /^[^\u0080-\uffff]*$/;

/** Bytes of a string written one by one (no native call): module, command and event names are short and ASCII. */
const SHORT_STRING = 0x80;

export const writeString = (w: Writer, v: unknown, path: string): void => {
  if (typeof v !== 'string') throw typeError(path, 'string', v);
  const chars = v.length;
  if (chars < SHORT_STRING) {
    ensure(w, chars + 1);
    const { buf } = w;
    const at = w.pos + 1;
    let i = 0;
    for (; i < chars; i++) {
      const c = v.charCodeAt(i);
      if (c >= 0x80) break;
      buf[at + i] = c;
    }
    // all ASCII (and so NFC, one byte a character): its length fits one byte
    if (i === chars) {
      buf[w.pos] = chars;
      w.pos = at + chars;
      return;
    }
  }
  // Klayr normalizes to NFC before encoding; ASCII is always NFC
  const s = ASCII.test(v) ? v : v.normalize('NFC');
  ensure(w, s.length * 3 + 5);
  if (s.length * 3 < 0x80) {
    const lengthPos = w.pos++;
    const n = w.buf.write(s, w.pos, 'utf8');
    w.buf[lengthPos] = n;
    w.pos += n;
    return;
  }
  const n = Buffer.byteLength(s, 'utf8');
  w.pos = writeUInt32At(w.buf, w.pos, n);
  w.pos += w.buf.write(s, w.pos, 'utf8');
};

export const scalarWriters = {
  uint32: writeUInt32,
  sint32: writeSInt32,
  uint64: writeUInt64,
  sint64: writeSInt64,
  boolean: writeBoolean,
  bytes: writeBytes,
  string: writeString,
} as const;

export const expectObject = (v: unknown, path: string): Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array)
    throw typeError(path || '<root>', 'object', v);
  return v as Record<string, unknown>;
};

export const expectArray = (v: unknown, path: string): readonly unknown[] => {
  if (!Array.isArray(v)) throw typeError(path, 'array', v);
  return v;
};
