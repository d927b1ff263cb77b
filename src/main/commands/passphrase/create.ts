import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command } from 'commander';

/** `kestrel passphrase:create`: a random 24-word BIP-39 passphrase, as Klayr Core's (mode 600 with --output). */
export const passphraseCreateCommand = (): Command =>
  new Command('passphrase:create')
    .description('Returns a randomly generated 24 words mnemonic passphrase.')
    .option('-o, --output <file>', 'File to write { passphrase } to (mode 600).')
    .action(async (options: { output?: string }) => {
      const [{ generateMnemonic }, { wordlist }] = await Promise.all([
        import('@scure/bip39'),
        import('@scure/bip39/wordlists/english'),
      ]);
      const passphrase = generateMnemonic(wordlist, 256);
      if (options.output === undefined) {
        process.stdout.write(`${JSON.stringify({ passphrase }, undefined, '  ')}\n`);
        return;
      }
      mkdirSync(dirname(options.output), { recursive: true });
      writeFileSync(options.output, `${JSON.stringify({ passphrase }, undefined, ' ')}\n`, { mode: 0o600 });
    });
