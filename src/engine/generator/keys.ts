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

/** One entry of a keys file (keys:create output, Klayr Core's dev-validators.json format). */
export interface KeysFileEntry {
  address: string;
  plain?: { generatorKey: string; generatorPrivateKey: string; blsKey: string; blsPrivateKey: string };
  encrypted?: Record<string, unknown>;
}

const hex = (value: unknown, what: string, length: number): Buffer => {
  if (typeof value !== 'string' || !/^([0-9a-f]{2})*$/i.test(value) || value.length !== length * 2)
    throw new Error(`${what} must be ${length} bytes of hex`);
  return Buffer.from(value, 'hex');
};

/** The entries of a keys file: `{ "keys": [...] }`. */
export const readKeysFile = (file: string): KeysFileEntry[] => {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: KeysFileEntry[] };
  if (!Array.isArray(parsed.keys)) throw new Error(`${file}: expected { "keys": [...] } as keys:create writes it.`);
  return parsed.keys;
};

/** Whether an entry carries encrypted keys (keys:create writes an empty `encrypted` object without a password). */
export const hasEncryptedKeys = (
  entry: KeysFileEntry,
): entry is KeysFileEntry & { encrypted: Record<string, unknown> } =>
  entry.encrypted !== undefined && Object.keys(entry.encrypted).length > 0;

/** The encrypted keys of a keys file's entries. */
export const encryptedGeneratorKeys = (
  entries: KeysFileEntry[],
): { address: Buffer; encrypted: Record<string, unknown> }[] =>
  entries.filter(hasEncryptedKeys).map((k) => ({ address: klayr32ToAddress(k.address), encrypted: k.encrypted }));

/**
 * The plain keys of a keys file (`generator.keys.fromFile`, Klayr Core's dev-validators.json
 * format). Keys with only an encrypted part need a password and are enabled through the
 * generator endpoints instead.
 */
export const readPlainGeneratorKeys = (file: string): GeneratorKeys[] => plainGeneratorKeys(readKeysFile(file), file);

/** The plain keys of a keys file's entries; `file` names them in errors. */
export const plainGeneratorKeys = (entries: KeysFileEntry[], file: string): GeneratorKeys[] =>
  entries
    .filter((k): k is KeysFileEntry & Required<Pick<KeysFileEntry, 'plain'>> => k.plain !== undefined)
    .map((k, i) => {
      const where = `${file} keys[${i}]`;
      return {
        address: klayr32ToAddress(k.address),
        generatorKey: hex(k.plain.generatorKey, `${where}.plain.generatorKey`, 32),
        generatorPrivateKey: hex(k.plain.generatorPrivateKey, `${where}.plain.generatorPrivateKey`, 64),
        blsKey: hex(k.plain.blsKey, `${where}.plain.blsKey`, 48),
        blsPrivateKey: hex(k.plain.blsPrivateKey, `${where}.plain.blsPrivateKey`, 32),
      };
    });
