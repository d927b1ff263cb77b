/** `prefix || height` (uint32 big-endian): keys that sort by height within one prefix. */
export const heightKey = (prefix: Buffer, height: number): Buffer => {
  const out = Buffer.alloc(prefix.length + 4);
  prefix.copy(out);
  out.writeUInt32BE(height, prefix.length);
  return out;
};
