import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { absolutePath } from '../config/home.js';

/** The file `--output` names: the path itself when it has an extension, else `<path>/<name>.json`. */
export const outputFilePath = (output: string, name: string): string => {
  const path = absolutePath(output);
  return extname(path) === '' ? join(path, `${name}.json`) : path;
};

/**
 * Writes `data` where `--output` says, as Klayr Core's commands do (klayr-commander's
 * handleOutputFlag): a path with an extension is the file, any other path a directory that gets
 * `<name>.json`; JSON indented by one space, mode 600. Returns Klayr's line naming the file, for
 * the command to print.
 */
export const writeOutputFile = (output: string, data: unknown, name: string): string => {
  const file = outputFilePath(output, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, undefined, ' ')}\n`, { mode: 0o600 });
  return `Successfully written data to ${file}`;
};

/**
 * Prints `data` to standard output as Klayr Core's offline commands do (indented by two spaces, or as
 * `indent` says), or writes it per writeOutputFile.
 */
export const printOrWrite = (
  output: string | undefined,
  data: unknown,
  name: string,
  indent: string | undefined = '  ',
): void => {
  process.stdout.write(
    `${output === undefined ? JSON.stringify(data, undefined, indent) : writeOutputFile(output, data, name)}\n`,
  );
};
