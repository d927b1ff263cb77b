import { Command } from 'commander';
import type { Cipher } from '../../../lib/crypto/index.js';
import { ACCOUNT_KEY_PATH, cipherOption } from '../flags.js';

/** `kestrel passphrase:encrypt`: `{ encryptedPassphrase, publicKey? }` (argon2id + AES-GCM). */
export const passphraseEncryptCommand = (): Command =>
  new Command('passphrase:encrypt')
    .description('Encrypt a secret passphrase with a password.')
    .option('-p, --passphrase <passphrase>', 'Passphrase (asked for twice, hidden, when absent).')
    .option('-w, --password <password>', 'Password (asked for twice, hidden, when absent).')
    .option('--output-public-key', `Include the public key of the passphrase (path ${ACCOUNT_KEY_PATH}).`)
    .addOption(cipherOption())
    .action(async (options: { passphrase?: string; password?: string; outputPublicKey?: boolean; cipher: Cipher }) => {
      const [{ ed25519KeyPairFromPassphraseAndPath, encryptWithPassword }, { readNewPassword, readPassphrase }] =
        await Promise.all([import('../../../lib/crypto/index.js'), import('../prompt.js')]);
      const passphrase = await readPassphrase(options.passphrase, { confirm: true });
      const password = await readNewPassword(options.password);
      const encryptedPassphrase = await encryptWithPassword(passphrase, password, { cipher: options.cipher });
      const publicKey =
        options.outputPublicKey === true
          ? { publicKey: ed25519KeyPairFromPassphraseAndPath(passphrase, ACCOUNT_KEY_PATH).publicKey.toString('hex') }
          : {};
      process.stdout.write(`${JSON.stringify({ encryptedPassphrase, ...publicKey }, undefined, '  ')}\n`);
    });
