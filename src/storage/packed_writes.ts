import type { PendingEntry } from './pending_layer.js';

/** A removal's value length. */
const REMOVED = -1;

/**
 * Writes packed in one buffer, to hand another thread in one transfer (a Buffer of Node's pool
 * posted on its own would copy the pool's whole slab): per entry the key's length (uint32 BE), the
 * key, the value's length (int32 BE, -1 for a removal) and the value.
 */
export const packWrites = (entries: Iterable<PendingEntry>): Buffer => {
  const list = [...entries];
  let size = 0;
  for (const { key, value } of list) size += 8 + key.length + (value?.length ?? 0);
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const { key, value } of list) {
    at = out.writeUInt32BE(key.length, at);
    at += key.copy(out, at);
    at = out.writeInt32BE(value === undefined ? REMOVED : value.length, at);
    if (value !== undefined) at += value.copy(out, at);
  }
  return out;
};

/** The entries of packWrites' buffer, in order; keys and values are views of `packed`. */
export const unpackWrites = (packed: Buffer): PendingEntry[] => {
  const out: PendingEntry[] = [];
  let at = 0;
  while (at < packed.length) {
    if (at + 4 > packed.length) throw new Error('Packed writes: truncated key length');
    const keyLength = packed.readUInt32BE(at);
    at += 4;
    if (at + keyLength + 4 > packed.length) throw new Error('Packed writes: truncated key');
    const key = packed.subarray(at, at + keyLength);
    at += keyLength;
    const valueLength = packed.readInt32BE(at);
    at += 4;
    if (valueLength === REMOVED) {
      out.push({ key, value: undefined });
      continue;
    }
    if (valueLength < 0 || at + valueLength > packed.length) throw new Error('Packed writes: truncated value');
    out.push({ key, value: packed.subarray(at, at + valueLength) });
    at += valueLength;
  }
  return out;
};
