import { Command } from 'commander';
import type { Cipher } from '../../../lib/crypto/index.js';
import { cipherOption, nonNegativeInteger } from '../flags.js';

/**
 * `kestrel keys:create`, as Klayr Core's: account, generator and BLS keys from a passphrase, the
 * generator keys also encrypted with a password (argon2id, aes-128-gcm unless --cipher aes-256-gcm).
 */
export const keysCreateCommand = (): Command =>
  new Command('keys:create')
    .description('Return keys corresponding to the given passphrase.')
    .option(
      '-o, --output <path>',
      'File (a path with an extension) or directory (keys.json in it) to write the keys to, mode 600.',
    )
    .option('-p, --passphrase <passphrase>', 'Passphrase (asked for, hidden, when absent).')
    .option('-n, --no-encrypt', 'No encrypted message object to be created.')
    .option('-w, --password <password>', 'Password for the encrypted keys (asked for twice, hidden, when absent).')
    .option('-c, --count <count>', 'Number of keys to create.', nonNegativeInteger, 1)
    .option('-f, --offset <offset>', 'Offset for the key derivation path.', nonNegativeInteger, 0)
    .option('-i, --chainid <chainid>', 'Chain id.', nonNegativeInteger, 0)
    .option('--add-legacy', 'Add legacy key derivation path to the result.')
    .addOption(cipherOption('Cipher of the encrypted keys.'))
    .action(
      async (options: {
        output?: string;
        passphrase?: string;
        encrypt: boolean;
        password?: string;
        count: number;
        offset: number;
        chainid: number;
        addLegacy?: boolean;
        cipher: Cipher;
      }) => {
        const [{ deriveKeys }, { readNewPassword, readPassphrase }] = await Promise.all([
          import('./derive.js'),
          import('../prompt.js'),
        ]);
        const passphrase = await readPassphrase(options.passphrase, { confirm: true });
        const password = options.encrypt ? await readNewPassword(options.password) : undefined;
        const keys = await deriveKeys(passphrase, {
          count: options.count,
          offset: options.offset,
          chainid: options.chainid,
          addLegacy: options.addLegacy === true,
          password,
          cipher: options.cipher,
        });
        const { printOrWrite } = await import('../output_file.js');
        printOrWrite(options.output, { keys }, 'keys');
      },
    );
