import { createHmac, pbkdf2, pbkdf2Sync } from 'node:crypto';
import { promisify } from 'node:util';
import { blsKeyGen } from './bls.js';
import type { Ed25519KeyPair } from './ed25519.js';
import { keyPairFromSeed } from './ed25519.js';
import { sha256 } from './hash.js';

const HARDENED_OFFSET = 0x80000000;
const MAX_UINT32 = 0xffffffff;
const pbkdf2Async = promisify(pbkdf2);

/** Parses `m/44'/134'/0'` into indices (hardened ones offset by 2^31), as @klayr/cryptography does. */
export const parseKeyDerivationPath = (path: string): number[] => {
  if (typeof path !== 'string' || !path.startsWith('m') || !path.includes('/')) {
    throw new Error(`Invalid key derivation path format: "${String(path)}"`);
  }
  return path
    .split('/')
    .slice(1)
    .map((segment) => {
      const match = /^([0-9]+)(')?$/.exec(segment);
      if (match === null) throw new Error(`Invalid key derivation path segment "${segment}" in "${path}"`);
      const index = Number(match[1]);
      if (match[2] !== undefined) {
        if (index > MAX_UINT32 / 2) throw new Error(`Hardened index ${segment} is out of range in "${path}"`);
        return index + HARDENED_OFFSET;
      }
      if (index > MAX_UINT32) throw new Error(`Index ${segment} is out of range in "${path}"`);
      return index;
    });
};

const BIP39_SALT = 'mnemonic';

/** BIP-39 seed of a passphrase (no word-list check, like @klayr/passphrase's mnemonicToSeed). */
export const passphraseToSeed = (passphrase: string): Buffer =>
  pbkdf2Sync(Buffer.from(passphrase.normalize('NFKD'), 'utf8'), BIP39_SALT, 2048, 64, 'sha512');

export const passphraseToSeedAsync = (passphrase: string): Promise<Buffer> =>
  pbkdf2Async(Buffer.from(passphrase.normalize('NFKD'), 'utf8'), BIP39_SALT, 2048, 64, 'sha512');

interface Slip10Node {
  key: Buffer;
  chainCode: Buffer;
}

const splitDigest = (digest: Buffer): Slip10Node => ({ key: digest.subarray(0, 32), chainCode: digest.subarray(32) });

/** SLIP-0010 ed25519 derivation (every index is used as given; Klayr paths are all hardened). */
export const ed25519KeyPairFromSeedAndPath = (seed: Uint8Array, path: string): Ed25519KeyPair => {
  let node = splitDigest(createHmac('sha512', 'ed25519 seed').update(seed).digest());
  for (const index of parseKeyDerivationPath(path)) {
    const data = Buffer.alloc(37);
    node.key.copy(data, 1);
    data.writeUInt32BE(index, 33);
    node = splitDigest(createHmac('sha512', node.chainCode).update(data).digest());
  }
  return keyPairFromSeed(node.key);
};

export const ed25519KeyPairFromPassphraseAndPath = (passphrase: string, path: string): Ed25519KeyPair =>
  ed25519KeyPairFromSeedAndPath(passphraseToSeed(passphrase), path);

/** Pre-LIP-0066 key pair: the seed is SHA-256 of the passphrase (used by `--add-legacy`). */
export const legacyKeyPairFromPassphrase = (passphrase: string): Ed25519KeyPair =>
  keyPairFromSeed(sha256(Buffer.from(passphrase, 'utf8')));

// EIP-2333 child derivation: a Lamport key pair from HKDF, hashed into the IKM of the child's KeyGen.
const LAMPORT_CHUNKS = 255;
const hkdfExpandLamport = (ikm: Buffer, salt: Buffer): Buffer => {
  const prk = createHmac('sha256', salt).update(ikm).digest();
  const out = Buffer.allocUnsafe(LAMPORT_CHUNKS * 32);
  let t = Buffer.alloc(0);
  for (let i = 0; i < LAMPORT_CHUNKS; i++) {
    t = createHmac('sha256', prk)
      .update(t)
      .update(Buffer.from([i + 1]))
      .digest();
    t.copy(out, i * 32);
  }
  return out;
};

const parentToLamportPK = (parent: Buffer, index: number): Buffer => {
  const salt = Buffer.alloc(4);
  salt.writeUInt32BE(index, 0);
  const flipped = Buffer.from(parent.map((b) => b ^ 0xff));
  const chunks: Buffer[] = [];
  for (const ikm of [parent, flipped]) {
    const okm = hkdfExpandLamport(ikm, salt);
    for (let i = 0; i < LAMPORT_CHUNKS; i++) chunks.push(sha256(okm.subarray(i * 32, i * 32 + 32)));
  }
  return sha256(Buffer.concat(chunks));
};

/** BLS secret key for a path (EIP-2333 as @klayr/cryptography implements it: KeyGen of the seed, then Lamport children). */
export const blsPrivateKeyFromSeedAndPath = (seed: Uint8Array, path: string): Buffer => {
  let key = blsKeyGen(seed);
  for (const index of parseKeyDerivationPath(path)) key = blsKeyGen(parentToLamportPK(key, index));
  return key;
};
