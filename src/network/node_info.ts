import type { Schema } from '../lib/codec/index.js';
import { compile } from '../lib/codec/index.js';
import type { NodeInfoOptions, PeerInfo } from './p2p/types.js';

/** klayr-framework's node info options (engine/network/schema.js customNodeInfoSchema). */
export const customNodeInfoSchema: Schema = {
  $id: '/nodeInfo/custom',
  type: 'object',
  required: ['height', 'blockVersion', 'lastBlockID', 'maxHeightPrevoted', 'legacy'],
  properties: {
    height: { dataType: 'uint32', fieldNumber: 1 },
    maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 2 },
    blockVersion: { dataType: 'uint32', fieldNumber: 3 },
    lastBlockID: { dataType: 'bytes', fieldNumber: 4 },
    legacy: { type: 'array', fieldNumber: 5, items: { dataType: 'bytes' } },
  },
};

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
