// The P2P handshake: the connecting side's node info in the WebSocket URL's query (peer/outbound.js), and the
// accepting side's checks on it, in @klayr/p2p's order (peer_server/peer_server.js, utils/validate.js).
import { isIPv4 } from 'node:net';
import { parse as parseQuery, stringify as stringifyQuery } from 'node:querystring';
import {
  INCOMPATIBLE_NETWORK_REASON,
  INCOMPATIBLE_PEER_CODE,
  INCOMPATIBLE_PEER_INFO_CODE,
  INCOMPATIBLE_PROTOCOL_VERSION_REASON,
  INVALID_CONNECTION_QUERY_CODE,
  INVALID_CONNECTION_QUERY_REASON,
  INVALID_CONNECTION_SELF_CODE,
  INVALID_CONNECTION_SELF_REASON,
  INVALID_CONNECTION_URL_CODE,
  INVALID_CONNECTION_URL_REASON,
} from '../constants.js';
import type { NodeInfo } from '../types.js';

/** `networkVersion=..&chainID=<hex>&nonce=..&advertiseAddress=true&port=<own P2P port>` (querystring.stringify). */
export const handshakeQuery = (nodeInfo: NodeInfo, ownPort: number): string =>
  stringifyQuery({
    networkVersion: nodeInfo.networkVersion,
    chainID: nodeInfo.chainID.toString('hex'),
    nonce: nodeInfo.nonce,
    advertiseAddress: nodeInfo.advertiseAddress,
    port: ownPort,
  });

/** Same chain ID and same major network version (>= 1): undefined, else the reason (validatePeerCompatibility). */
export const incompatibilityReason = (
  peer: { readonly chainID?: Buffer; readonly networkVersion?: unknown },
  own: Pick<NodeInfo, 'chainID' | 'networkVersion'>,
): string | undefined => {
  if (peer.chainID === undefined || !peer.chainID.equals(own.chainID)) return INCOMPATIBLE_NETWORK_REASON;
  if (typeof peer.networkVersion !== 'string') return INCOMPATIBLE_PROTOCOL_VERSION_REASON;
  const peerMajor = Number.parseInt(peer.networkVersion.split('.')[0] ?? '', 10);
  const ownMajor = Number.parseInt(own.networkVersion.split('.')[0] ?? '', 10);
  return peerMajor === ownMajor && peerMajor >= 1 ? undefined : INCOMPATIBLE_PROTOCOL_VERSION_REASON;
};

/** validator.isPort on the port's decimal string: an integer 0..65535 without leading zeroes. */
export const isValidPort = (port: number): boolean => Number.isInteger(port) && port >= 0 && port <= 65535;

/** @klayr/p2p's validatePeerAddress plus its `!port` check: an IPv4 address and a port 1..65535. */
export const isValidPeerAddress = (ipAddress: string, port: number): boolean =>
  ipAddress !== '' && isIPv4(ipAddress) && port !== 0 && !Number.isNaN(port) && isValidPort(port);

export interface InboundPeerCandidate {
  readonly peerId: string;
  readonly ipAddress: string;
  readonly port: number;
  readonly chainID: Buffer;
  readonly networkVersion: string;
  readonly nonce: string;
  readonly advertiseAddress: boolean;
}

export type HandshakeCheck =
  | { readonly ok: true; readonly peer: InboundPeerCandidate }
  | { readonly ok: false; readonly code: number; readonly reason: string; readonly selfPort?: number };

const refuse = (code: number, reason: string, selfPort?: number): HandshakeCheck => ({
  ok: false,
  code,
  reason,
  selfPort,
});

/**
 * The byte size @klayr/p2p measures for an inbound peer's info (JSON of the record it builds in
 * _constructPeerInfoForInboundConnection), to refuse oversized peer info with 4105.
 */
const peerInfoJSONSize = (candidate: InboundPeerCandidate, netgroup: number): number =>
  Buffer.byteLength(
    JSON.stringify({
      sharedState: {
        chainID: candidate.chainID,
        nonce: candidate.nonce,
        networkVersion: candidate.networkVersion,
        options: {},
      },
      internalState: {
        reputation: 100,
        netgroup,
        latency: 0,
        connectTime: Date.now(),
        rpcCounter: {},
        rpcRates: {},
        messageCounter: {},
        messageRates: {},
        wsMessageCount: 0,
        wsMessageRate: 0,
        productivity: { requestCounter: 0, responseCounter: 0, responseRate: 0, lastResponded: 0 },
        advertiseAddress: candidate.advertiseAddress,
        connectionKind: 'inbound',
        peerKind: 'NONE',
      },
      peerId: candidate.peerId,
      ipAddress: candidate.ipAddress,
      port: candidate.port,
    }),
  );

/**
 * Checks an inbound connection's URL as @klayr/p2p's peer server does, in its order: no URL 4501, own nonce 4101
 * (`selfPort`: the port to drop from the peer book), networkVersion/chainID not single strings 4502, invalid
 * address/port or peer info over `maxPeerInfoSize` 4105, other chain or major version 4104.
 */
export const checkInboundHandshake = (
  url: string | undefined,
  remoteAddress: string,
  own: {
    readonly nodeInfo: NodeInfo;
    readonly port: number;
    readonly maxPeerInfoSize: number;
    readonly netgroup: number;
  },
): HandshakeCheck => {
  if (url === undefined || url === '') return refuse(INVALID_CONNECTION_URL_CODE, INVALID_CONNECTION_URL_REASON);
  const queryStart = url.indexOf('?');
  const query = parseQuery(queryStart === -1 ? '' : url.slice(queryStart + 1));
  if (query.nonce === own.nodeInfo.nonce) {
    const selfPort = typeof query.port === 'string' && query.port !== '' ? Number(query.port) : own.port;
    return refuse(INVALID_CONNECTION_SELF_CODE, INVALID_CONNECTION_SELF_REASON, selfPort);
  }
  const { networkVersion, chainID, nonce, advertiseAddress } = query;
  if (typeof networkVersion !== 'string' || typeof chainID !== 'string')
    return refuse(INVALID_CONNECTION_QUERY_CODE, INVALID_CONNECTION_QUERY_REASON);
  const port = Number.parseInt(typeof query.port === 'string' ? query.port : '', 10);
  const candidate: InboundPeerCandidate = {
    peerId: `${remoteAddress}:${port}`,
    ipAddress: remoteAddress,
    port,
    chainID: Buffer.from(chainID, 'hex'),
    networkVersion,
    nonce: typeof nonce === 'string' ? nonce : '',
    advertiseAddress: advertiseAddress !== 'false',
  };
  if (!isValidPeerAddress(remoteAddress, port))
    return refuse(
      INCOMPATIBLE_PEER_INFO_CODE,
      `Invalid peer ipAddress or port for peer with ip: ${remoteAddress} and port ${port}`,
    );
  if (peerInfoJSONSize(candidate, own.netgroup) > own.maxPeerInfoSize)
    return refuse(
      INCOMPATIBLE_PEER_INFO_CODE,
      `PeerInfo is larger than the maximum allowed size ${own.maxPeerInfoSize} bytes`,
    );
  const incompatible = incompatibilityReason(candidate, own.nodeInfo);
  if (incompatible !== undefined) return refuse(INCOMPATIBLE_PEER_CODE, incompatible);
  return { ok: true, peer: candidate };
};
