/** Key entries as Klayr Core's keys:create writes them (loaded by keys:create's action, not at start-up). */

import { GeneratorKeyStore } from '../../../engine/generator/key_store.js';
import type { Cipher, EncryptedMessage } from '../../../lib/crypto/index.js';
import {
  addressFromPublicKey,
  addressToKlayr32,
  blsPopProve,
  blsPrivateKeyFromSeedAndPath,
  blsPublicKeyFromPrivateKey,
  ed25519KeyPairFromSeedAndPath,
  encryptWithPassword,
  legacyKeyPairFromPassphrase,
  passphraseToSeed,
} from '../../../lib/crypto/index.js';

export interface KeyEntry {
  address: string;
  keyPath: string;
  publicKey: string;
  privateKey: string;
  plain: {
    generatorKeyPath: string;
    generatorKey: string;
    generatorPrivateKey: string;
    blsKeyPath: string;
    blsKey: string;
    blsProofOfPossession: string;
    blsPrivateKey: string;
  };
  encrypted: EncryptedMessage | Record<string, never>;
}

interface Derived {
  keyPath: string;
  account: { privateKey: Buffer; publicKey: Buffer };
  generatorKeyPath: string;
  generator: { privateKey: Buffer; publicKey: Buffer };
  blsKeyPath: string;
  blsPrivateKey: Buffer;
}

const entryOf = async (d: Derived, password: string | undefined, cipher: Cipher): Promise<KeyEntry> => {
  const blsKey = blsPublicKeyFromPrivateKey(d.blsPrivateKey);
  const plainKeys = {
    generatorKey: d.generator.publicKey,
    generatorPrivateKey: d.generator.privateKey,
    blsKey,
    blsPrivateKey: d.blsPrivateKey,
  };
  return {
    address: addressToKlayr32(addressFromPublicKey(d.account.publicKey)),
    keyPath: d.keyPath,
    publicKey: d.account.publicKey.toString('hex'),
    privateKey: d.account.privateKey.toString('hex'),
    plain: {
      generatorKeyPath: d.generatorKeyPath,
      generatorKey: d.generator.publicKey.toString('hex'),
      generatorPrivateKey: d.generator.privateKey.toString('hex'),
      blsKeyPath: d.blsKeyPath,
      blsKey: blsKey.toString('hex'),
      blsProofOfPossession: blsPopProve(d.blsPrivateKey).toString('hex'),
      blsPrivateKey: d.blsPrivateKey.toString('hex'),
    },
    encrypted:
      password === undefined
        ? {}
        : await encryptWithPassword(GeneratorKeyStore.encodePlain(plainKeys), password, { cipher }),
  };
};

export interface DeriveOptions {
  count: number;
  offset: number;
  chainid: number;
  addLegacy: boolean;
  /** Encrypt the generator keys with this password; no encrypted keys when absent. */
  password: string | undefined;
  cipher: Cipher;
}

/**
 * Account, generator and BLS keys from a passphrase at m/44'/134'/i', m/25519'/134'/chainid'/i'
 * and m/12381/134/chainid/i (the legacy pair first with addLegacy), as Klayr Core derives them.
 */
export const deriveKeys = async (passphrase: string, o: DeriveOptions): Promise<KeyEntry[]> => {
  const seed = passphraseToSeed(passphrase);
  const keys: KeyEntry[] = [];
  let i = 0;
  if (o.addLegacy) {
    const legacy = legacyKeyPairFromPassphrase(passphrase);
    const blsKeyPath = `m/12381/134/${o.chainid}/99999`;
    keys.push(
      await entryOf(
        {
          keyPath: 'legacy',
          account: legacy,
          generatorKeyPath: 'legacy',
          generator: legacy,
          blsKeyPath,
          blsPrivateKey: blsPrivateKeyFromSeedAndPath(seed, blsKeyPath),
        },
        o.password,
        o.cipher,
      ),
    );
    i += 1;
  }
  for (; i < o.count; i++) {
    const n = o.offset + i;
    const keyPath = `m/44'/134'/${n}'`;
    const generatorKeyPath = `m/25519'/134'/${o.chainid}'/${n}'`;
    const blsKeyPath = `m/12381/134/${o.chainid}/${n}`;
    keys.push(
      await entryOf(
        {
          keyPath,
          account: ed25519KeyPairFromSeedAndPath(seed, keyPath),
          generatorKeyPath,
          generator: ed25519KeyPairFromSeedAndPath(seed, generatorKeyPath),
          blsKeyPath,
          blsPrivateKey: blsPrivateKeyFromSeedAndPath(seed, blsKeyPath),
        },
        o.password,
        o.cipher,
      ),
    );
  }
  return keys;
};
