import { connect } from 'node:net';

/** The socket path of an `ipc://` endpoint. */
const socketPath = (endpoint: string): string => endpoint.replace(/^ipc:\/\//, '');

/**
 * Whether a process listens on a Unix socket. zeromq removes whatever file is at the path when
 * it binds, so binding over a live socket would silently take it from its owner.
 */
const listening = (path: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export class IPCSocketInUseError extends Error {
  override readonly name = 'IPCSocketInUseError';
  constructor(readonly path: string) {
    super(`IPC socket ${path} is already in use by another process (rpc.modes "ipc" under system.dataPath)`);
  }
}

/** Fails when another process serves any of the endpoints; a socket file left by a dead process is not in use. */
export const assertIPCSocketsFree = async (endpoints: readonly string[]): Promise<void> => {
  for (const endpoint of endpoints) {
    const path = socketPath(endpoint);
    if (await listening(path)) throw new IPCSocketInUseError(path);
  }
};
