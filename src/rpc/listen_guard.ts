import { createServer } from 'node:net';

export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
  constructor(
    readonly host: string,
    readonly port: number,
    readonly setting = 'rpc.port',
  ) {
    super(`Port ${port} on ${host} is already in use (${setting})`);
  }
}

/** The error a failed listen on host:port should raise: a PortInUseError for EADDRINUSE, the cause otherwise. */
export const listenError = (host: string, port: number, cause: unknown): Error =>
  (cause as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE'
    ? new PortInUseError(host, port)
    : new Error(`Could not listen on ${host}:${port}: ${(cause as Error | undefined)?.message ?? String(cause)}`);

/**
 * Binds host:port with a plain node:net server (no SO_REUSEPORT, so any listener there makes it
 * fail) and closes it again: undefined when the port is free, the bind error otherwise.
 */
export const probeListen = (host: string, port: number): Promise<Error | undefined> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', (e) => resolve(e));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });

/** Fails with a clear error when host:port cannot be listened on (before the slow parts of a start). */
export const assertPortFree = async (host: string, port: number): Promise<void> => {
  const error = await probeListen(host, port);
  if (error !== undefined) throw listenError(host, port, error);
};
