// The wire schemas of @klayr/p2p (schema.js) with klayr-framework's customNodeInfoSchema merged in as `options`
// (mergeCustomSchema), encoded with Kestrel's codec.

import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { InvalidPeerDataError } from './errors.js';
import type { NodeInfo, PeerAddress } from './types.js';

/** klayr-framework engine/network/schema.js customNodeInfoSchema (its properties become nodeInfo.options). */
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

export const nodeInfoSchema: Schema = {
  $id: '/nodeInfo',
  type: 'object',
  properties: {
    chainID: { dataType: 'bytes', fieldNumber: 1 },
    networkVersion: { dataType: 'string', fieldNumber: 2 },
    nonce: { dataType: 'string', fieldNumber: 3 },
    advertiseAddress: { dataType: 'boolean', fieldNumber: 4 },
    options: { type: 'object', fieldNumber: 5, properties: { ...customNodeInfoSchema.properties } },
  },
  required: ['chainID', 'networkVersion', 'nonce', 'advertiseAddress'],
};

export const peerInfoSchema: Schema = {
  $id: '/protocolPeerInfo',
  type: 'object',
  properties: {
    ipAddress: { dataType: 'string', fieldNumber: 1 },
    port: { dataType: 'uint32', fieldNumber: 2 },
  },
  required: ['ipAddress', 'port'],
};

export const peerRequestResponseSchema: Schema = {
  $id: '/protocolPeerRequestResponse',
  type: 'object',
  properties: { peers: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } } },
  required: ['peers'],
};

const nodeInfoCodec = compile<NodeInfo>(nodeInfoSchema);
const peerInfoCodec = compile<PeerAddress>(peerInfoSchema);
const peerListCodec = compile<{ peers: Buffer[] }>(peerRequestResponseSchema);

export const encodeNodeInfo = (nodeInfo: NodeInfo): Buffer => nodeInfoCodec.encode(nodeInfo);

/** Decodes a peer's node info; anything undecodable is an InvalidPeerDataError (the peer is penalised 100). */
export const decodeNodeInfo = (data: Buffer | undefined): NodeInfo => {
  if (data === undefined) throw new InvalidPeerDataError('Invalid encoded data');
  try {
    return nodeInfoCodec.decode(data);
  } catch (error) {
    throw new InvalidPeerDataError((error as Error).message);
  }
};

export const encodePeerList = (peers: readonly PeerAddress[]): Buffer =>
  peerListCodec.encode({ peers: peers.map((p) => peerInfoCodec.encode({ ipAddress: p.ipAddress, port: p.port })) });

export const encodedPeerInfo = (peer: PeerAddress): Buffer =>
  peerInfoCodec.encode({ ipAddress: peer.ipAddress, port: peer.port });

export const encodePeerListFromEncoded = (encodedPeers: readonly Buffer[]): Buffer =>
  peerListCodec.encode({ peers: [...encodedPeers] });

/** Decodes a getPeers answer (undecodable: InvalidPeerDataError). */
export const decodePeerList = (data: Buffer | undefined): PeerAddress[] => {
  if (data === undefined) throw new InvalidPeerDataError('PeerInfo list has invalid value');
  try {
    return peerListCodec.decode(data).peers.map((bytes) => peerInfoCodec.decode(bytes));
  } catch (error) {
    throw new InvalidPeerDataError((error as Error).message);
  }
};
