import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { Command, InvalidArgumentError, Option } from 'commander';
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
} from '../../lib/crypto/index.js';
import type { Cipher, EncryptedMessage } from '../../lib/crypto/index.js';
import { GeneratorKeyStore } from '../../engine/generator/key_store.js';

const nonNegativeInteger = (value: string): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer.');
  return n;
};

/** A secret from its flag, or one line typed on standard input. */
export const readSecret = async (given: string | undefined, what: string): Promise<string> => {
  if (given !== undefined) return given;
  process.stderr.write(`Please enter ${what}: `);
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line.trim();
  }
  throw new Error(`No ${what} given.`);
};

interface KeyEntry {
  address: string;
  keyPath: string;
  publicKey: string;
  privateKey: string;
  plain: { generatorKeyPath: string; generatorKey: string; generatorPrivateKey: string; blsKeyPath: string; blsKey: string; blsProofOfPossession: string; blsPrivateKey: string };
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
  const plainKeys = { generatorKey: d.generator.publicKey, generatorPrivateKey: d.generator.privateKey, blsKey, blsPrivateKey: d.blsPrivateKey };
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
    encrypted: password === undefined ? {} : await encryptWithPassword(GeneratorKeyStore.encodePlain(plainKeys), password, { cipher }),
  };
};

/**
 * `kestrel keys:create`, as Klayr Core's: account, generator and BLS keys from a passphrase at
 * m/44'/134'/i', m/25519'/134'/chainid'/i' and m/12381/134/chainid/i, the generator keys also
 * encrypted with a password (argon2id, aes-128-gcm unless --cipher aes-256-gcm).
 */
export const keysCreateCommand = (): Command =>
  new Command('keys:create')
    .description('Return keys corresponding to the given passphrase.')
    .option('-o, --output <file>', 'File to write the keys to (mode 600).')
    .option('-p, --passphrase <passphrase>', 'Passphrase (typed on standard input when absent).')
    .option('-n, --no-encrypt', 'No encrypted message object to be created.')
    .option('-w, --password <password>', 'Password for the encrypted keys (typed on standard input when absent).')
    .option('-c, --count <count>', 'Number of keys to create.', nonNegativeInteger, 1)
    .option('-f, --offset <offset>', 'Offset for the key derivation path.', nonNegativeInteger, 0)
    .option('-i, --chainid <chainid>', 'Chain id.', nonNegativeInteger, 0)
    .option('--add-legacy', 'Add legacy key derivation path to the result.')
    .addOption(new Option('--cipher <cipher>', 'Cipher of the encrypted keys.').choices(['aes-128-gcm', 'aes-256-gcm']).default('aes-128-gcm'))
    .action(async (options: { output?: string; passphrase?: string; encrypt: boolean; password?: string; count: number; offset: number; chainid: number; addLegacy?: boolean; cipher: Cipher }) => {
      const passphrase = await readSecret(options.passphrase, 'your secret passphrase');
      const password = options.encrypt ? await readSecret(options.password, 'your password') : undefined;
      const seed = passphraseToSeed(passphrase);
      const keys: KeyEntry[] = [];
      let i = 0;
      if (options.addLegacy === true) {
        const legacy = legacyKeyPairFromPassphrase(passphrase);
        const blsKeyPath = `m/12381/134/${options.chainid}/99999`;
        keys.push(await entryOf({ keyPath: 'legacy', account: legacy, generatorKeyPath: 'legacy', generator: legacy, blsKeyPath, blsPrivateKey: blsPrivateKeyFromSeedAndPath(seed, blsKeyPath) }, password, options.cipher));
        i += 1;
      }
      for (; i < options.count; i++) {
        const n = options.offset + i;
        const keyPath = `m/44'/134'/${n}'`;
        const generatorKeyPath = `m/25519'/134'/${options.chainid}'/${n}'`;
        const blsKeyPath = `m/12381/134/${options.chainid}/${n}`;
        keys.push(
          await entryOf(
            { keyPath, account: ed25519KeyPairFromSeedAndPath(seed, keyPath), generatorKeyPath, generator: ed25519KeyPairFromSeedAndPath(seed, generatorKeyPath), blsKeyPath, blsPrivateKey: blsPrivateKeyFromSeedAndPath(seed, blsKeyPath) },
            password,
            options.cipher,
          ),
        );
      }
      if (options.output === undefined) {
        process.stdout.write(`${JSON.stringify({ keys }, undefined, '  ')}\n`);
        return;
      }
      mkdirSync(dirname(options.output), { recursive: true });
      writeFileSync(options.output, `${JSON.stringify({ keys }, undefined, ' ')}\n`, { mode: 0o600 });
    });
