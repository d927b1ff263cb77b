import { createServer } from 'node:net';

/**
 * Refuses a port something on `host` (a loopback address) already listens on, or an address this
 * machine does not have (each node checks again when it binds).
 */
export const assertPortFree = (port: number, flag: string, host = '127.0.0.1'): Promise<void> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === 'EADDRINUSE'
            ? `Port ${port} on ${host} is already in use (${flag})`
            : e.code === 'EADDRNOTAVAIL'
              ? `${host} is not an address of this machine (${flag}); on macOS add it with: sudo ifconfig lo0 alias ${host}`
              : `Port ${port} on ${host} cannot be used (${flag}): ${e.message}`,
        ),
      ),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()));
  });
