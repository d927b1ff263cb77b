import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { EncryptedMessage } from '../../../lib/crypto/index.js';

/** `kestrel passphrase:decrypt -f <file>`: the passphrase of a passphrase:encrypt file. */
export const passphraseDecryptCommand = (): Command =>
  new Command('passphrase:decrypt')
    .description('Decrypt secret passphrase using the password provided at the time of encryption.')
    .requiredOption('-f, --file-path <file>', 'Path of the file to import from.')
    .option('-w, --password <password>', 'Password (asked for, hidden, when absent).')
    .action(async (options: { filePath: string; password?: string }) => {
      const { encryptedPassphrase } = JSON.parse(readFileSync(options.filePath, 'utf8')) as {
        encryptedPassphrase?: EncryptedMessage;
      };
      if (encryptedPassphrase === undefined)
        throw new Error(
          `${options.filePath}: expected { "encryptedPassphrase": {...} } as passphrase:encrypt writes it.`,
        );
      const [{ decryptWithPassword }, { readPassword }] = await Promise.all([
        import('../../../lib/crypto/index.js'),
        import('../prompt.js'),
      ]);
      const password = await readPassword(options.password);
      process.stdout.write(
        `${JSON.stringify((await decryptWithPassword(encryptedPassphrase, password)).toString('utf8'), undefined, '  ')}\n`,
      );
    });
