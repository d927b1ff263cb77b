import { Command } from 'commander';

/** `kestrel message:decrypt [message]`: the text of a message:encrypt result, in its JSON or its stringified form. */
export const messageDecryptCommand = (): Command =>
  new Command('message:decrypt')
    .description('Decrypts a previously encrypted message using the password used to encrypt.')
    .argument('[message]', 'Encrypted message: the JSON message:encrypt prints, or its --stringify form.')
    .option('-w, --password <password>', 'Password (asked for, hidden, when absent).')
    .option('-m, --message <source>', 'The message when no argument gives it: the text itself, or file:<path>.')
    .action(async (argument: string | undefined, options: { password?: string; message?: string }) => {
      const [{ messageFrom }, { decryptWithPassword, parseEncryptedMessage }, { readPassword }] = await Promise.all([
        import('./message_source.js'),
        import('../../../lib/crypto/index.js'),
        import('../prompt.js'),
      ]);
      const text = messageFrom(argument, options.message).trim();
      const parsedJSON = (): unknown => {
        try {
          return JSON.parse(text);
        } catch (e) {
          throw new Error(`The encrypted message is not valid JSON: ${(e as Error).message}`);
        }
      };
      const encrypted = text.startsWith('{') ? parsedJSON() : parseEncryptedMessage(text);
      const password = await readPassword(options.password);
      process.stdout.write(
        `${(await decryptWithPassword(encrypted as Parameters<typeof decryptWithPassword>[0], password)).toString('utf8')}\n`,
      );
    });
