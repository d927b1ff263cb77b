import { readFileSync } from 'node:fs';

/**
 * What tells a running process from a later one that reuses its pid: on Linux its start time
 * (clock ticks since boot, /proc/<pid>/stat field 22) and the boot it started in.
 */
export interface ProcessIdentity {
  pid: number;
  startTicks?: string;
  bootID?: string;
}

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** The fields of /proc/<pid>/stat after the command name, which may itself hold spaces and parentheses. */
const statFields = (pid: number): string[] | undefined => {
  const stat = readText(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

const currentBootID = (): string | undefined => readText('/proc/sys/kernel/random/boot_id')?.trim();

export const processIdentity = (pid = process.pid): ProcessIdentity => {
  const startTicks = statFields(pid)?.[19];
  const bootID = currentBootID();
  return { pid, ...(startTicks !== undefined ? { startTicks } : {}), ...(bootID !== undefined ? { bootID } : {}) };
};

const signalable = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether the process an identity was taken from still runs: its pid exists, is not a zombie,
 * and (where /proc tells) started at the same tick of the same boot.
 */
export const stillRunning = (identity: ProcessIdentity): boolean => {
  if (!Number.isSafeInteger(identity.pid) || identity.pid <= 0 || !signalable(identity.pid)) return false;
  const boot = currentBootID();
  if (identity.bootID !== undefined && boot !== undefined && identity.bootID !== boot) return false;
  const fields = statFields(identity.pid);
  if (fields === undefined) return true; // no /proc (macOS, Windows): the pid alone has to do
  if (fields[0] === 'Z' || fields[0] === 'X') return false;
  return identity.startTicks === undefined || fields[19] === identity.startTicks;
};
