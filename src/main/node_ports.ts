import { assertPortFree, PortInUseError, probeListen } from '../rpc/listen_guard.js';
import type { ApplicationConfig } from './config/types.js';
import { p2pAddressOf } from './p2p_address.js';

const WILDCARDS = new Set(['0.0.0.0', '::']);

/** Two listen addresses that one port cannot serve both: the same, or either a wildcard. */
const hostsOverlap = (a: string, b: string): boolean => a === b || WILDCARDS.has(a) || WILDCARDS.has(b);

/**
 * The ports a node will listen on, each bound by nothing else: the RPC port where HTTP or WS is on
 * (nothing to check for IPC only), and the P2P port.
 */
export const assertPortsFree = async (config: ApplicationConfig): Promise<void> => {
  const { rpc } = config;
  const serves = rpc.modes.includes('http') || rpc.modes.includes('ws');
  const { host, port } = p2pAddressOf(config);
  // each probe alone passes when the two are one port: the node's own servers would then collide
  if (serves && port === rpc.port && hostsOverlap(host, rpc.host))
    throw new Error(
      `network.port and rpc.port are both ${port} (P2P on ${host}, RPC on ${rpc.host}): give the node two ports`,
    );
  if (serves) await assertPortFree(rpc.host, rpc.port);
  if ((await probeListen(host, port)) !== undefined) throw new PortInUseError(host, port, 'network.port');
};
