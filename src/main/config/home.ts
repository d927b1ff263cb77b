import { homedir } from 'node:os';
import { resolve } from 'node:path';

/** `~` and `~/…` under the user's home directory, as a shell expands them. */
export const expandHome = (path: string): string =>
  path === '~' || path.startsWith('~/') ? `${homedir()}${path.slice(1)}` : path;

/** A path as a user gives it (`~`, relative to the working directory) made absolute. */
export const absolutePath = (path: string): string => resolve(expandHome(path));
