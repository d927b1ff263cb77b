import { Command } from 'commander';

interface SignOptions {
  passphrase?: string;
  message?: string;
  json?: boolean;
  pretty?: boolean;
}

/**
 * `kestrel message:sign [message]`: Klayr Core's signed message. The key pair is the legacy one of
 * the passphrase (its SHA-256 as the seed, as Klayr Core's message:sign), the signature covers
 * `KLY_NPM_ || message` without a chain ID.
 */
export const messageSignCommand = (): Command =>
  new Command('message:sign')
    .description('Signs a message using your secret passphrase.')
    .argument('[message]', 'Message to sign.')
    .option('-p, --passphrase <passphrase>', 'Passphrase (asked for, hidden, when absent).')
    .option('-m, --message <source>', 'The message when no argument gives it: the text itself, or file:<path>.')
    .option('-j, --json', 'Print the result as JSON instead of a table.')
    .option('--pretty', 'Indent the JSON output.')
    .action(async (argument: string | undefined, options: SignOptions) => {
      const [
        { messageFrom },
        { legacyKeyPairFromPassphrase, MESSAGE_TAG_NON_PROTOCOL_MESSAGE, signData },
        prompt,
        out,
      ] = await Promise.all([
        import('./message_source.js'),
        import('../../../lib/crypto/index.js'),
        import('../prompt.js'),
        import('../result_table.js'),
      ]);
      const message = messageFrom(argument, options.message);
      const passphrase = await prompt.readPassphrase(options.passphrase, { anyText: true });
      const { privateKey, publicKey } = legacyKeyPairFromPassphrase(passphrase);
      const signature = signData(MESSAGE_TAG_NON_PROTOCOL_MESSAGE, Buffer.alloc(0), Buffer.from(message), privateKey);
      out.printResult({ message, publicKey: publicKey.toString('hex'), signature: signature.toString('hex') }, options);
    });
