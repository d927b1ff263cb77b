import { createServer } from 'node:net';

/** Refuses a port something on 127.0.0.1 already listens on (each node checks again when it binds). */
export const assertPortFree = (port: number, flag: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new Error(
          e.code === 'EADDRINUSE'
            ? `Port ${port} on 127.0.0.1 is already in use (${flag})`
            : `Port ${port} on 127.0.0.1 cannot be used (${flag}): ${e.message}`,
        ),
      ),
    );
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve()));
  });
