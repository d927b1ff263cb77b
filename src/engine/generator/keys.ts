import { readFileSync } from 'node:fs';
import { klayr32ToAddress } from '../../lib/crypto/address.js';

/** A validator's keys for generating blocks and signing certificates. */
export interface GeneratorKeys {
  address: Buffer;
  generatorKey: Buffer;
  generatorPrivateKey: Buffer;
  blsKey: Buffer;
  blsPrivateKey: Buffer;
}

interface KeysFileEntry {
  address: string;
  plain?: { generatorKey: string; generatorPrivateKey: string; blsKey: string; blsPrivateKey: string };
  encrypted?: Record<string, unknown>;
}

const hex = (value: unknown, what: string, length: number): Buffer => {
  if (typeof value !== 'string' || !/^([0-9a-f]{2})*$/i.test(value) || value.length !== length * 2) throw new Error(`${what} must be ${length} bytes of hex`);
  return Buffer.from(value, 'hex');
};

/** The encrypted keys of a keys file (entries whose `encrypted` object is not empty). */
export const readEncryptedGeneratorKeys = (file: string): { address: Buffer; encrypted: Record<string, unknown> }[] => {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: KeysFileEntry[] };
  return (parsed.keys ?? [])
    .filter((k) => k.encrypted !== undefined && Object.keys(k.encrypted).length > 0)
    .map((k) => ({ address: klayr32ToAddress(k.address), encrypted: k.encrypted! }));
};

/**
 * The plain keys of a keys file (`generator.keys.fromFile`, Klayr Core's dev-validators.json
 * format). Keys with only an encrypted part need a password and are enabled through the
 * generator endpoints instead.
 */
export const readPlainGeneratorKeys = (file: string): GeneratorKeys[] => {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: KeysFileEntry[] };
  if (!Array.isArray(parsed.keys)) throw new Error(`${file}: expected { "keys": [...] }`);
  return parsed.keys
    .filter((k) => k.plain !== undefined)
    .map((k, i) => {
      const where = `${file} keys[${i}]`;
      return {
        address: klayr32ToAddress(k.address),
        generatorKey: hex(k.plain!.generatorKey, `${where}.plain.generatorKey`, 32),
        generatorPrivateKey: hex(k.plain!.generatorPrivateKey, `${where}.plain.generatorPrivateKey`, 64),
        blsKey: hex(k.plain!.blsKey, `${where}.plain.blsKey`, 48),
        blsPrivateKey: hex(k.plain!.blsPrivateKey, `${where}.plain.blsPrivateKey`, 32),
      };
    });
};
