import { homedir } from 'node:os';

/** `~` and `~/…` under the user's home directory, as a shell expands them. */
export const expandHome = (path: string): string =>
  path === '~' || path.startsWith('~/') ? `${homedir()}${path.slice(1)}` : path;
