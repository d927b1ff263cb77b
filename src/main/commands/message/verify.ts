import { Command } from 'commander';

interface VerifyOptions {
  message?: string;
  json?: boolean;
  pretty?: boolean;
}

/** `kestrel message:verify <publicKey> <signature> [message]`: `{ verified }` for a message:sign signature. */
export const messageVerifyCommand = (): Command =>
  new Command('message:verify')
    .description('Verifies a signature for a message using the signer’s public key.')
    .argument('<publicKey>', 'Public key of the signer of the message.')
    .argument('<signature>', 'Signature to verify.')
    .argument('[message]', 'Message to verify.')
    .option('-m, --message <source>', 'The message when no argument gives it: the text itself, or file:<path>.')
    .option('-j, --json', 'Print the result as JSON instead of a table.')
    .option('--pretty', 'Indent the JSON output.')
    .action(
      async (publicKeyHex: string, signatureHex: string, argument: string | undefined, options: VerifyOptions) => {
        const [{ messageFrom }, { MESSAGE_TAG_NON_PROTOCOL_MESSAGE, parseHex, verifyData }, out] = await Promise.all([
          import('./message_source.js'),
          import('../../../lib/crypto/index.js'),
          import('../result_table.js'),
        ]);
        const message = messageFrom(argument, options.message);
        const publicKey = parseHex(publicKeyHex, 'The public key', 32);
        const signature = parseHex(signatureHex, 'The signature', 64);
        const verified = verifyData(
          MESSAGE_TAG_NON_PROTOCOL_MESSAGE,
          Buffer.alloc(0),
          Buffer.from(message),
          signature,
          publicKey,
        );
        out.printResult({ verified }, options);
      },
    );
