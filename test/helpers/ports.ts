import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** A port on 127.0.0.1 held by a plain TCP server until `close` (a node started on it stops before any chain work). */
export const heldPort = (): Promise<{ port: number; close(): void }> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () =>
      resolve({ port: (s.address() as AddressInfo).port, close: () => s.close() }),
    );
  });
