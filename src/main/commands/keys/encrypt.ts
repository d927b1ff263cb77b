import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import type { Cipher } from '../../../lib/crypto/index.js';
import { cipherOption } from '../flags.js';

/** `kestrel keys:encrypt -f <file>`: adds the encrypted generator keys to each key of a keys file, overwriting it (mode 600). */
export const keysEncryptCommand = (): Command =>
  new Command('keys:encrypt')
    .description('Encrypt keys from a file and overwrite the file.')
    .requiredOption('-f, --file-path <file>', 'Path of the file to encrypt from.')
    .option('-w, --password <password>', 'Password (asked for twice, hidden, when absent).')
    .addOption(cipherOption())
    .action(async (options: { filePath: string; password?: string; cipher: Cipher }) => {
      const [{ encryptWithPassword }, { GeneratorKeyStore }, { readKeysFile }, { readNewPassword }] = await Promise.all(
        [
          import('../../../lib/crypto/index.js'),
          import('../../../engine/generator/key_store.js'),
          import('../../../engine/generator/keys.js'),
          import('../prompt.js'),
        ],
      );
      const entries = readKeysFile(options.filePath);
      // every key checked before the password is asked for
      const withPlain = entries.map((key) => {
        if (key.plain === undefined) throw new Error(`${key.address}: no plain keys to encrypt.`);
        return { key, plain: key.plain };
      });
      const password = await readNewPassword(options.password);
      const keys = [];
      for (const { key, plain } of withPlain) {
        const hex = (name: keyof typeof plain) => Buffer.from(plain[name] ?? '', 'hex');
        const encoded = GeneratorKeyStore.encodePlain({
          generatorKey: hex('generatorKey'),
          generatorPrivateKey: hex('generatorPrivateKey'),
          blsKey: hex('blsKey'),
          blsPrivateKey: hex('blsPrivateKey'),
        });
        keys.push({ ...key, encrypted: await encryptWithPassword(encoded, password, { cipher: options.cipher }) });
      }
      writeFileSync(options.filePath, `${JSON.stringify({ keys }, undefined, ' ')}\n`, { mode: 0o600 });
    });
