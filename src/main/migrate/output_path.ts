import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { absolutePath } from '../config/home.js';

/** klayr-migrator's output place, under Kestrel's: `~/.klayr/kestrel-migrator/<chainID>`. */
export const defaultOutputPath = (chainID: string): string => join(homedir(), '.klayr', 'kestrel-migrator', chainID);

/** Whether `path` is `dir` or lies under it (path segments compared, so ~/.klayr/kestrel-migrator is not under ~/.klayr/kestrel). */
export const isWithin = (path: string, dir: string): boolean => {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The output directory, refused when it is the successor node's default data directory or inside it (the successor's start would mix them). */
export const checkOutputPath = (output: string, successorDefaultDataPath: string): string => {
  const path = absolutePath(output);
  const reserved = absolutePath(successorDefaultDataPath);
  if (isWithin(path, reserved)) {
    throw new Error(
      `--output ${path} is not allowed: it is the successor node's default data directory (${reserved}) or a sub-directory of it. Choose a path outside it.`,
    );
  }
  return path;
};
