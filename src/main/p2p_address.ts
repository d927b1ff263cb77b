import type { ApplicationConfig } from './config/types.js';

/** Klayr's P2P defaults where the config leaves them out (@klayr/p2p constants, klayr-framework's network). */
export const NETWORK_DEFAULTS = {
  host: '0.0.0.0',
  port: 7667,
  maxOutboundConnections: 20,
  maxInboundConnections: 100,
  wsMaxPayload: 3048576,
  advertiseAddress: true,
} as const;
/** Where the node's P2P server listens (network.host, network.port). */
export const p2pAddressOf = (config: ApplicationConfig): { host: string; port: number } => ({
  host: config.network.host ?? NETWORK_DEFAULTS.host,
  port: config.network.port ?? NETWORK_DEFAULTS.port,
});
