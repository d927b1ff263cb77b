import { assertPortFree, PortInUseError, probeListen } from '../rpc/listen_guard.js';
import type { ApplicationConfig } from './config/types.js';
import { p2pAddressOf } from './p2p_address.js';

/**
 * The ports a node will listen on, each bound by nothing else: the RPC port where HTTP or WS is on
 * (nothing to check for IPC only), and the P2P port.
 */
export const assertPortsFree = async (config: ApplicationConfig): Promise<void> => {
  const { rpc } = config;
  if (rpc.modes.includes('http') || rpc.modes.includes('ws')) await assertPortFree(rpc.host, rpc.port);
  const { host, port } = p2pAddressOf(config);
  if ((await probeListen(host, port)) !== undefined) throw new PortInUseError(host, port, 'network.port');
};
