import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** The socket path of an `ipc://` endpoint. */
const socketPath = (endpoint: string): string => endpoint.replace(/^ipc:\/\//, '');

/** __SO_ACCEPTCON in /proc/net/unix's Flags column: the socket listens. */
const ACCEPTING = 0x10000;

/**
 * Paths of the listening Unix sockets in Linux's /proc/net/unix, or undefined where there is none.
 * Reading it leaves the listener alone: a probe connection to a zeromq listener that is closing
 * can abort the process in libzmq 4.3.2's pipe termination (pipe.cpp:368).
 */
const listeningPaths = async (): Promise<Set<string> | undefined> => {
  let table: string;
  try {
    table = await readFile('/proc/net/unix', 'utf8');
  } catch {
    return undefined;
  }
  const paths = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 8 && (parseInt(cols[3], 16) & ACCEPTING) !== 0) paths.add(cols.slice(7).join(' '));
  }
  return paths;
};

/** Whether a process listens on a Unix socket, by connecting (where /proc/net/unix is missing). */
const answers = (path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The endpoints' socket paths that some process listens on. */
const listening = async (endpoints: readonly string[]): Promise<string[]> => {
  const paths = endpoints.map(socketPath);
  const table = await listeningPaths();
  if (table !== undefined) return paths.filter((path) => table.has(path));
  const found: string[] = [];
  for (const path of paths) if (await answers(path)) found.push(path);
  return found;
};

export class IPCSocketInUseError extends Error {
  override readonly name = 'IPCSocketInUseError';
  constructor(readonly path: string) {
    super(`IPC socket ${path} is already in use by another process (rpc.modes "ipc" under system.dataPath)`);
  }
}

/**
 * Fails when another process serves any of the endpoints. zeromq removes whatever file is at the
 * path when it binds, so binding over a live socket would silently take it from its owner; a
 * socket file left by a dead process is not in use.
 */
export const assertIPCSocketsFree = async (endpoints: readonly string[]): Promise<void> => {
  const [taken] = await listening(endpoints);
  if (taken !== undefined) throw new IPCSocketInUseError(taken);
};

/** Resolves once nothing listens on the endpoints (zeromq closes its listeners on its I/O thread, after close returns). */
export const waitIPCSocketsClosed = async (endpoints: readonly string[], timeoutMs = 5000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while ((await listening(endpoints)).length > 0) {
    if (Date.now() > deadline)
      throw new Error(
        `IPC sockets still listening ${timeoutMs} ms after close: ${(await listening(endpoints)).join(', ')}`,
      );
    await sleep(5);
  }
};
