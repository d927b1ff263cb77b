import { addressToKlayr32 } from '../lib/crypto/address.js';

const ADDRESS_KEY = /address$/i;
const HEX_ADDRESS = /^[0-9a-f]{40}$/i;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;

const klayr32 = (value: unknown): unknown => {
  if (typeof value === 'string' && HEX_ADDRESS.test(value)) return addressToKlayr32(Buffer.from(value, 'hex'));
  if (Buffer.isBuffer(value) && value.length === 20) return addressToKlayr32(value);
  return value;
};

/**
 * A log record with the 20-byte addresses of fields named like `address` (`generatorAddress`,
 * `senderAddress`, …) written as `kly` addresses, as Klayr Core logs them; nested plain objects too.
 */
export const withKlayr32Addresses = (record: Record<string, unknown>, depth = 3): Record<string, unknown> => {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(record)) {
    const next = ADDRESS_KEY.test(key)
      ? klayr32(value)
      : depth > 0 && isPlainObject(value)
        ? withKlayr32Addresses(value, depth - 1)
        : value;
    if (next !== value) {
      out ??= { ...record };
      out[key] = next;
    }
  }
  return out ?? record;
};
