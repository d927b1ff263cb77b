import { createInterface } from 'node:readline';

/** One line typed on standard input after `prompt` (on stderr), or undefined when the input ends first. */
const readLine = async (prompt: string): Promise<string | undefined> => {
  process.stderr.write(prompt);
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return undefined;
};

/** A secret from its flag, or one line typed on standard input (trimmed). */
export const readSecret = async (given: string | undefined, what: string): Promise<string> => {
  if (given !== undefined) return given;
  const line = await readLine(`Please enter ${what}: `);
  if (line === undefined) throw new Error(`No ${what} given.`);
  return line.trim();
};

/** The password of the node's generator keys from --password, or read from standard input (one line, as typed). */
export const readGeneratorPassword = async (given: string | undefined): Promise<string> => {
  if (given !== undefined) return given;
  const line = await readLine('Enter the password of the generator keys: ');
  if (line === undefined) throw new Error('No password given (use --password or type it on standard input).');
  return line;
};
