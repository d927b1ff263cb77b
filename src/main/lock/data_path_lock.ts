import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessIdentity } from './process_identity.js';
import { processIdentity, stillRunning } from './process_identity.js';

export const LOCK_FILE = 'kestrel.lock';

/** What the lock file holds: the node's process and when it took the lock. */
export interface LockHolder extends ProcessIdentity {
  startedAt: string;
}

export class DataPathInUseError extends Error {
  override readonly name = 'DataPathInUseError';
  constructor(
    readonly dataPath: string,
    readonly lockFile: string,
    readonly holder: LockHolder,
  ) {
    super(
      `Data path ${dataPath} is in use by another Kestrel node: process ${holder.pid}, started ${holder.startedAt} (lock file ${lockFile}). ` +
        'Stop that node first, or give this one another --data-path.',
    );
  }
}

const readHolder = (file: string): { raw: string; holder?: LockHolder } | undefined => {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const holder = JSON.parse(raw) as LockHolder;
    return typeof holder.pid === 'number' && typeof holder.startedAt === 'string' ? { raw, holder } : { raw };
  } catch {
    return { raw };
  }
};

/**
 * Creates the lock file with its whole content or not at all: the content goes to a file of
 * our own, then a hard link gives it the lock's name, which fails when the name exists. (An
 * `O_EXCL` create would let another process read a lock that is still empty.)
 */
const createExclusively = (file: string, content: string): boolean => {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, content, { mode: 0o644 });
  try {
    linkSync(draft, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(draft);
  }
};

/**
 * One node per data path: `<dataPath>/kestrel.lock` names the process that holds it. A lock
 * whose process is gone (killed with SIGKILL, or the machine restarted) is stale and taken over.
 * The file is removed on release, and at the latest when this process exits.
 */
export class DataPathLock {
  #released = false;
  readonly #onExit = (): void => this.release();

  private constructor(
    readonly file: string,
    readonly holder: LockHolder,
  ) {
    process.once('exit', this.#onExit);
  }

  static acquire(dataPath: string): DataPathLock {
    mkdirSync(dataPath, { recursive: true });
    const file = join(dataPath, LOCK_FILE);
    const holder: LockHolder = { ...processIdentity(), startedAt: new Date().toISOString() };
    const content = `${JSON.stringify(holder)}\n`;
    // a second round only after removing a stale lock; losing that round to another starting node is refused like any live lock
    for (let round = 0; round < 2; round++) {
      if (createExclusively(file, content)) return new DataPathLock(file, holder);
      const current = readHolder(file);
      if (current === undefined) continue;
      if (current.holder !== undefined && stillRunning(current.holder))
        throw new DataPathInUseError(dataPath, file, current.holder);
      if (readHolder(file)?.raw === current.raw) unlinkSync(file);
    }
    const last = readHolder(file)?.holder;
    if (last !== undefined) throw new DataPathInUseError(dataPath, file, last);
    throw new Error(`Could not take the lock ${file} of data path ${dataPath}`);
  }

  /** Removes the lock file if it is still this node's. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    process.removeListener('exit', this.#onExit);
    const current = readHolder(this.file);
    if (current?.holder?.pid === this.holder.pid && current.holder.startedAt === this.holder.startedAt)
      unlinkSync(this.file);
  }
}
