import { createInterface } from 'node:readline/promises';

/**
 * A yes/no question on standard input, answered by a line ("y" or "yes" is yes). Input that ends
 * without an answer is no.
 */
export const confirm = async (question: string): Promise<boolean> => {
  const terminal = process.stdin.isTTY === true;
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal });
  const ended = new Promise<undefined>((resolve) => lines.once('close', () => resolve(undefined)));
  try {
    const answer = await Promise.race([lines.question(`${question} (yes/no) `), ended]);
    // a piped answer is not echoed: end the question's line
    if (!terminal || answer === undefined) process.stderr.write('\n');
    return answer !== undefined && /^(y|yes)$/i.test(answer.trim());
  } finally {
    lines.close();
  }
};
