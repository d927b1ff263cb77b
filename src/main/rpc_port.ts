import { assertPortFree } from '../rpc/listen_guard.js';
import type { ApplicationConfig } from './config/types.js';

/** Fails with a PortInUseError when the config's HTTP/WS transports would listen on a port in use (nothing to check for IPC only). */
export const assertRpcPortFree = async ({ rpc }: ApplicationConfig): Promise<void> => {
  if (rpc.modes.includes('http') || rpc.modes.includes('ws')) await assertPortFree(rpc.host, rpc.port);
};
