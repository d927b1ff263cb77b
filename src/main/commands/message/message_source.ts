import { readFileSync } from 'node:fs';

/**
 * The message of a message:* command, as Klayr Core takes it: the argument, else `--message`,
 * which is either `file:<path>` (the file's text) or the message itself.
 */
export const messageFrom = (argument: string | undefined, source: string | undefined): string => {
  if (argument !== undefined && argument !== '') return argument;
  if (source === undefined || source === '')
    throw new Error('No message was provided: give it as the argument, or with --message (text, or file:<path>).');
  if (!source.startsWith('file:')) return source;
  const path = source.slice('file:'.length);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(
      `Cannot read the message from ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
};
