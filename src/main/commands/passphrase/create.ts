import { Command } from 'commander';

/** `kestrel passphrase:create`: a random 24-word BIP-39 passphrase, as Klayr Core's (mode 600 with --output). */
export const passphraseCreateCommand = (): Command =>
  new Command('passphrase:create')
    .description('Returns a randomly generated 24 words mnemonic passphrase.')
    .option(
      '-o, --output <path>',
      'File (a path with an extension) or directory (passphrase.json in it) to write { passphrase } to, mode 600.',
    )
    .action(async (options: { output?: string }) => {
      const [{ generateMnemonic }, { wordlist }] = await Promise.all([
        import('@scure/bip39'),
        import('@scure/bip39/wordlists/english'),
      ]);
      const passphrase = generateMnemonic(wordlist, 256);
      const { printOrWrite } = await import('../output_file.js');
      printOrWrite(options.output, { passphrase }, 'passphrase');
    });
