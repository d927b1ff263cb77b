import { compile } from '../lib/codec/index.js';
import { customNodeInfoSchema } from './p2p/node_info.js';
import type { NodeInfoOptions, PeerInfo } from './p2p/types.js';

/**
 * A peer as network_getConnectedPeers and network_getDisconnectedPeers list it (klayr-framework's
 * network Endpoint over @klayr/p2p's flattened peer info): the shared state, the chain ID in hex,
 * the options in JSON, then the address and the peer ID.
 */
export const peerInfoToJSON = (peer: PeerInfo): Record<string, unknown> => {
  const shared = peer.sharedState;
  return {
    ...(shared === undefined
      ? {}
      : {
          networkVersion: shared.networkVersion,
          nonce: shared.nonce,
          advertiseAddress: shared.advertiseAddress,
          options: compile<NodeInfoOptions>(customNodeInfoSchema).toJSON(shared.options),
        }),
    chainID: shared?.chainID.toString('hex') ?? '',
    ipAddress: peer.ipAddress,
    port: peer.port,
    peerId: peer.peerId,
  };
};
