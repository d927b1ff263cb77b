import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { generateMnemonic } from '@scure/bip39';
import { wordlist as englishWordlist } from '@scure/bip39/wordlists/english';
import { Command, Option } from 'commander';
import { decryptWithPassword, ed25519KeyPairFromPassphraseAndPath, encryptWithPassword } from '../../lib/crypto/index.js';
import type { Cipher, EncryptedMessage } from '../../lib/crypto/index.js';
import { GeneratorKeyStore } from '../../engine/generator/key_store.js';
import { readKeysFile } from '../../engine/generator/keys.js';
import { readSecret } from './keys_create.js';

const cipherOption = () => new Option('--cipher <cipher>', 'Cipher.').choices(['aes-128-gcm', 'aes-256-gcm']).default('aes-128-gcm');

/** `kestrel keys:encrypt -f <file>`: adds the encrypted generator keys to each key of a keys file, overwriting it (mode 600). */
export const keysEncryptCommand = (): Command =>
  new Command('keys:encrypt')
    .description('Encrypt keys from a file and overwrite the file.')
    .requiredOption('-f, --file-path <file>', 'Path of the file to encrypt from.')
    .option('-w, --password <password>', 'Password (typed on standard input when absent).')
    .addOption(cipherOption())
    .action(async (options: { filePath: string; password?: string; cipher: Cipher }) => {
      const entries = readKeysFile(options.filePath);
      const password = await readSecret(options.password, 'your password');
      const keys = [];
      for (const key of entries) {
        if (key.plain === undefined) throw new Error(`${key.address}: no plain keys to encrypt.`);
        const hex = (name: keyof NonNullable<typeof key.plain>) => Buffer.from(key.plain![name] ?? '', 'hex');
        const encoded = GeneratorKeyStore.encodePlain({ generatorKey: hex('generatorKey'), generatorPrivateKey: hex('generatorPrivateKey'), blsKey: hex('blsKey'), blsPrivateKey: hex('blsPrivateKey') });
        keys.push({ ...key, encrypted: await encryptWithPassword(encoded, password, { cipher: options.cipher }) });
      }
      writeFileSync(options.filePath, `${JSON.stringify({ keys }, undefined, ' ')}\n`, { mode: 0o600 });
    });

/** `kestrel passphrase:encrypt`: `{ encryptedPassphrase, publicKey? }` (argon2id + AES-GCM). */
export const passphraseEncryptCommand = (): Command =>
  new Command('passphrase:encrypt')
    .description('Encrypt a secret passphrase with a password.')
    .option('-p, --passphrase <passphrase>', 'Passphrase (typed on standard input when absent).')
    .option('-w, --password <password>', 'Password (typed on standard input when absent).')
    .option('--output-public-key', 'Include the public key of the passphrase (path m/44\'/134\'/0\').')
    .addOption(cipherOption())
    .action(async (options: { passphrase?: string; password?: string; outputPublicKey?: boolean; cipher: Cipher }) => {
      const passphrase = await readSecret(options.passphrase, 'your secret passphrase');
      const password = await readSecret(options.password, 'your password');
      const encryptedPassphrase = await encryptWithPassword(passphrase, password, { cipher: options.cipher });
      const publicKey = options.outputPublicKey === true ? { publicKey: ed25519KeyPairFromPassphraseAndPath(passphrase, "m/44'/134'/0'").publicKey.toString('hex') } : {};
      process.stdout.write(`${JSON.stringify({ encryptedPassphrase, ...publicKey }, undefined, '  ')}\n`);
    });

/** `kestrel passphrase:decrypt -f <file>`: the passphrase of a passphrase:encrypt file. */
export const passphraseDecryptCommand = (): Command =>
  new Command('passphrase:decrypt')
    .description('Decrypt secret passphrase using the password provided at the time of encryption.')
    .requiredOption('-f, --file-path <file>', 'Path of the file to import from.')
    .option('-w, --password <password>', 'Password (typed on standard input when absent).')
    .action(async (options: { filePath: string; password?: string }) => {
      const { encryptedPassphrase } = JSON.parse(readFileSync(options.filePath, 'utf8')) as { encryptedPassphrase?: EncryptedMessage };
      if (encryptedPassphrase === undefined) throw new Error(`${options.filePath}: expected { "encryptedPassphrase": {...} } as passphrase:encrypt writes it.`);
      const password = await readSecret(options.password, 'your password');
      process.stdout.write(`${JSON.stringify((await decryptWithPassword(encryptedPassphrase, password)).toString('utf8'), undefined, '  ')}\n`);
    });

/** `kestrel passphrase:create`: a random 24-word BIP-39 passphrase, as Klayr Core's (mode 600 with --output). */
export const passphraseCreateCommand = (): Command =>
  new Command('passphrase:create')
    .description('Returns a randomly generated 24 words mnemonic passphrase.')
    .option('-o, --output <file>', 'File to write { passphrase } to (mode 600).')
    .action((options: { output?: string }) => {
      const passphrase = generateMnemonic(englishWordlist, 256);
      if (options.output === undefined) {
        process.stdout.write(`${JSON.stringify({ passphrase }, undefined, '  ')}\n`);
        return;
      }
      mkdirSync(dirname(options.output), { recursive: true });
      writeFileSync(options.output, `${JSON.stringify({ passphrase }, undefined, ' ')}\n`, { mode: 0o600 });
    });
