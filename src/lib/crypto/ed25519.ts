import sodium from 'sodium-native';
import { assertLength } from './bytes.js';
import { sha256Concat } from './hash.js';

export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_PRIVATE_KEY_LENGTH = 64;
export const ED25519_SIGNATURE_LENGTH = 64;

export interface Ed25519KeyPair {
  /** 32-byte public key. */
  readonly publicKey: Buffer;
  /** 64-byte libsodium/Klayr private key: seed || publicKey. */
  readonly privateKey: Buffer;
}

export const keyPairFromSeed = (seed: Uint8Array): Ed25519KeyPair => {
  assertLength(seed, 32, 'seed');
  const publicKey = Buffer.alloc(ED25519_PUBLIC_KEY_LENGTH);
  const privateKey = Buffer.alloc(ED25519_PRIVATE_KEY_LENGTH);
  sodium.crypto_sign_seed_keypair(publicKey, privateKey, seed as Buffer);
  return { publicKey, privateKey };
};

export const publicKeyFromPrivateKey = (privateKey: Uint8Array): Buffer => {
  assertLength(privateKey, ED25519_PRIVATE_KEY_LENGTH, 'privateKey');
  const publicKey = Buffer.alloc(ED25519_PUBLIC_KEY_LENGTH);
  sodium.crypto_sign_ed25519_sk_to_pk(publicKey, privateKey as Buffer);
  return publicKey;
};

export const signDetached = (message: Uint8Array, privateKey: Uint8Array): Buffer => {
  assertLength(privateKey, ED25519_PRIVATE_KEY_LENGTH, 'privateKey');
  const signature = Buffer.alloc(ED25519_SIGNATURE_LENGTH);
  sodium.crypto_sign_detached(signature, message as Buffer, privateKey as Buffer);
  return signature;
};

/** False (never an exception) for a wrong signature or a key/signature of the wrong length. */
export const verifyDetached = (message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean => {
  if (signature.length !== ED25519_SIGNATURE_LENGTH || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) return false;
  return sodium.crypto_sign_verify_detached(signature as Buffer, message as Buffer, publicKey as Buffer);
};

/** Klayr signs the SHA-256 of `tag || chainID || data`. */
const signingDigest = (tag: string, chainID: Uint8Array, data: Uint8Array): Buffer =>
  sha256Concat(Buffer.from(tag, 'utf8'), chainID, data);

export const signData = (tag: string, chainID: Uint8Array, data: Uint8Array, privateKey: Uint8Array): Buffer =>
  signDetached(signingDigest(tag, chainID, data), privateKey);

export const verifyData = (
  tag: string,
  chainID: Uint8Array,
  data: Uint8Array,
  signature: Uint8Array,
  publicKey: Uint8Array,
): boolean => verifyDetached(signingDigest(tag, chainID, data), signature, publicKey);

export { signingDigest };
