import type { NodeInfoOptions } from '../types.js';

export type PeerKind = 'fixedPeer' | 'whitelistedPeer' | 'seedPeer' | 'none';

/** What a peer announced about itself: the handshake query, then its node info's options. */
export interface SharedState {
  readonly chainID: Buffer;
  readonly networkVersion: string;
  readonly nonce: string;
  readonly advertiseAddress: boolean;
  readonly options?: NodeInfoOptions;
}

/** A peer as the peer book keeps it. */
export interface KnownPeer {
  readonly peerId: string;
  readonly ipAddress: string;
  readonly port: number;
  readonly sharedState?: SharedState;
  /** false when the peer asked not to be advertised (then it is never listed to others). */
  readonly advertiseAddress?: boolean;
  readonly peerKind?: PeerKind;
  /** Kept between connections, as @klayr/p2p keeps a peer's internal state in its peer book. */
  readonly reputation?: number;
  /** The IP of the peer that told us about this one (new list bucket choice). */
  readonly sourceAddress?: string;
}

export const peerIdOf = (ipAddress: string, port: number): string => `${ipAddress}:${port}`;
