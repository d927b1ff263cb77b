/**
 * The one-line form of an encrypted message (@klayr/cryptography's stringifyEncryptedMessage and
 * parseEncryptedMessage): the fields as a URL query string, kdfparams and cipherparams flattened.
 */
import { parse, stringify } from 'node:querystring';
import type { Cipher, EncryptedMessage, KDF } from './encrypt.js';
import { ARGON2_DEFAULTS } from './encrypt.js';

export const stringifyEncryptedMessage = (message: EncryptedMessage): string =>
  stringify({
    kdf: message.kdf,
    cipher: message.cipher,
    version: message.version,
    ciphertext: message.ciphertext,
    mac: message.mac,
    salt: message.kdfparams.salt,
    iv: message.cipherparams.iv,
    tag: message.cipherparams.tag,
    iterations: message.kdfparams.iterations,
    parallelism: message.kdfparams.parallelism,
    memorySize: message.kdfparams.memorySize,
  });

const REQUIRED = ['kdf', 'cipher', 'ciphertext', 'iv', 'tag', 'salt', 'version', 'mac'] as const;
const NUMBERS = ['iterations', 'parallelism', 'memorySize'] as const;

const integerOf = (text: string | undefined, name: string, fallback: number): number => {
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw new Error(`Encrypted message: ${name} must be an integer, got "${text}".`);
  return Number(text);
};

export const parseEncryptedMessage = (text: string): EncryptedMessage => {
  const fields = parse(text);
  const one = (name: string): string | undefined => {
    const value = fields[name];
    if (Array.isArray(value)) throw new Error(`Encrypted message: ${name} is given more than once.`);
    return value;
  };
  for (const name of REQUIRED)
    if (one(name) === undefined)
      throw new Error(`Encrypted message: ${name} is missing (fields: ${REQUIRED.join(', ')}).`);
  for (const name of NUMBERS) one(name);
  const kdf = one('kdf') as KDF;
  if (kdf !== 'argon2id' && kdf !== 'PBKDF2')
    throw new Error(`Encrypted message: kdf must be argon2id or PBKDF2, got "${kdf}".`);
  const cipher = one('cipher') as Cipher;
  if (cipher !== 'aes-128-gcm' && cipher !== 'aes-256-gcm')
    throw new Error(`Encrypted message: cipher must be aes-128-gcm or aes-256-gcm, got "${cipher}".`);
  return {
    version: one('version') as string,
    ciphertext: one('ciphertext') as string,
    mac: one('mac') as string,
    kdf,
    kdfparams: {
      parallelism: integerOf(one('parallelism'), 'parallelism', ARGON2_DEFAULTS.parallelism),
      iterations: integerOf(one('iterations'), 'iterations', ARGON2_DEFAULTS.iterations),
      memorySize: integerOf(one('memorySize'), 'memorySize', ARGON2_DEFAULTS.memorySize),
      salt: one('salt') as string,
    },
    cipher,
    cipherparams: { iv: one('iv') as string, tag: one('tag') as string },
  };
};
