import { isIP } from 'node:net';
import { validateKlayr32 } from '../crypto/address.js';

/** Whole bytes, either case, as @klayr/validator's isHexString. */
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const UNSIGNED = /^[0-9]+$/;
const SIGNED = /^-?[0-9]+$/;
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const HOSTNAME = /^[a-zA-Z](([-0-9a-zA-Z]+)?[0-9a-zA-Z])?(\.[a-zA-Z](([-0-9a-zA-Z]+)?[0-9a-zA-Z])?)*$/;

const inRange = (text: string, min: bigint, max: bigint): boolean => {
  const n = BigInt(text);
  return n >= min && n <= max;
};

/** String formats (checked only when the value is a string), as @klayr/validator defines them. */
export const stringFormats: Readonly<Record<string, (s: string) => boolean>> = {
  hex: (s) => HEX.test(s),
  klayr32: (s) => validateKlayr32(s) === undefined,
  uint64: (s) => UNSIGNED.test(s) && inRange(s, 0n, 0xffffffffffffffffn),
  int64: (s) => SIGNED.test(s) && inRange(s, -(2n ** 63n), 2n ** 63n - 1n),
  camelCase: (s) => /^[a-z][0-9]*([A-Z][a-z]*[a-zA-Z0-9]*|[a-z][a-z]*[a-zA-Z0-9]*)?$/.test(s),
  version: (s) => SEMVER.test(s),
  networkVersion: (s) => /^(\d|[1-9]\d{1,2})\.(\d|[1-9]\d{1,2})$/.test(s),
  path: (s) => /^(.?)(\/[^/]+)+(\/?)$/.test(s),
  ip: (s) => isIP(s) !== 0,
  ipOrFQDN: (s) => isIP(s) === 4 || HOSTNAME.test(s),
};

/** Number formats (checked only when the value is a number). */
export const numberFormats: Readonly<Record<string, (n: number) => boolean>> = {
  uint32: (n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff,
  int32: (n) => Number.isInteger(n) && n >= -0x80000000 && n <= 0x7fffffff,
};
