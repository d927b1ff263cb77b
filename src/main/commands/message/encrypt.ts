import { Command } from 'commander';

interface EncryptOptions {
  password?: string;
  message?: string;
  pretty?: boolean;
  stringify?: boolean;
}

/** `kestrel message:encrypt [message]`: the message encrypted with a password (argon2id, AES-128-GCM), as Klayr Core's. */
export const messageEncryptCommand = (): Command =>
  new Command('message:encrypt')
    .description('Encrypts a message with a password provided.')
    .argument('[message]', 'Message to encrypt.')
    .option('-w, --password <password>', 'Password (asked for twice, hidden, when absent).')
    .option('-m, --message <source>', 'The message when no argument gives it: the text itself, or file:<path>.')
    .option('--pretty', 'Indent the JSON output.')
    .option('-s, --stringify', 'Display encrypted message in stringified format')
    .action(async (argument: string | undefined, options: EncryptOptions) => {
      const [{ messageFrom }, { encryptWithPassword, stringifyEncryptedMessage }, { readNewPassword }] =
        await Promise.all([
          import('./message_source.js'),
          import('../../../lib/crypto/index.js'),
          import('../prompt.js'),
        ]);
      const message = messageFrom(argument, options.message);
      const encrypted = await encryptWithPassword(message, await readNewPassword(options.password));
      process.stdout.write(
        `${options.stringify === true ? stringifyEncryptedMessage(encrypted) : JSON.stringify(encrypted, undefined, options.pretty === true ? '  ' : undefined)}\n`,
      );
    });
