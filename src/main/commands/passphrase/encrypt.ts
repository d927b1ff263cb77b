import { Command } from 'commander';
import type { Cipher } from '../../../lib/crypto/index.js';
import { cipherOption } from '../flags.js';

/** `kestrel passphrase:encrypt`: `{ encryptedPassphrase, publicKey? }` (argon2id + AES-GCM). */
export const passphraseEncryptCommand = (): Command =>
  new Command('passphrase:encrypt')
    .description('Encrypt a secret passphrase with a password.')
    .option('-p, --passphrase <passphrase>', 'Passphrase (asked for twice, hidden, when absent).')
    .option('-w, --password <password>', 'Password (asked for twice, hidden, when absent).')
    .option(
      '--output-public-key',
      "Include the passphrase's legacy public key (its SHA-256 as the seed), as Klayr Core's.",
    )
    .option(
      '-o, --output <path>',
      'File (a path with an extension) or directory (passphrase.json in it) to write to, mode 600.',
    )
    .addOption(cipherOption())
    .action(
      async (options: {
        passphrase?: string;
        password?: string;
        outputPublicKey?: boolean;
        output?: string;
        cipher: Cipher;
      }) => {
        const [{ encryptWithPassword, legacyKeyPairFromPassphrase }, { readNewPassword, readPassphrase }] =
          await Promise.all([import('../../../lib/crypto/index.js'), import('../prompt.js')]);
        const passphrase = await readPassphrase(options.passphrase, { confirm: true });
        const password = await readNewPassword(options.password);
        const encryptedPassphrase = await encryptWithPassword(passphrase, password, { cipher: options.cipher });
        const publicKey =
          options.outputPublicKey === true
            ? { publicKey: legacyKeyPairFromPassphrase(passphrase).publicKey.toString('hex') }
            : {};
        const { printOrWrite } = await import('../output_file.js');
        printOrWrite(options.output, { encryptedPassphrase, ...publicKey }, 'passphrase');
      },
    );
