import type { EndpointDefinition } from '../lib/endpoint/definition.js';
import type { P2PNode } from './p2p/types.js';
import { peerInfoToJSON } from './peer_json.js';

/** The network namespace, as Klayr Core serves it (klayr-framework's engine/network/endpoint.js). */
export const networkEndpoints = (p2p: P2PNode): Record<string, EndpointDefinition> => ({
  getConnectedPeers: {
    description: 'The peers this node is connected to.',
    handler: () => p2p.getConnectedPeers().map(peerInfoToJSON),
  },
  getDisconnectedPeers: {
    description: 'The peers this node knows of and is not connected to.',
    handler: () => p2p.getDisconnectedPeers().map(peerInfoToJSON),
  },
  getStats: {
    description: 'Connection, ban and message counts of the P2P network.',
    handler: () => p2p.getNetworkStats(),
  },
});
