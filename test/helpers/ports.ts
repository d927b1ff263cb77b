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

/** The first of `count` consecutive ports on 127.0.0.1 that were free a moment ago, at a random place. */
export const freePortRun = async (count: number): Promise<number> => {
  const isFree = (port: number): Promise<boolean> =>
    new Promise((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 40_000);
    let free = true;
    for (let i = 0; i < count && free; i++) free = await isFree(first + i);
    if (free) return first;
  }
  throw new Error(`no ${count} consecutive free ports found`);
};
