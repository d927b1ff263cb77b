import type { NetworkStats } from './types.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends object ? Mutable<T[K]> : T[K] };

/** The counters behind getNetworkStats (p2p.js _networkStats). */
export const newNetworkStats = (): Mutable<NetworkStats> => ({
  startTime: Date.now(),
  incoming: { count: 0, connects: 0, disconnects: 0 },
  outgoing: { count: 0, connects: 0, disconnects: 0 },
  banning: { bannedPeers: {}, count: 0 },
  totalConnectedPeers: 0,
  totalDisconnectedPeers: 0,
  totalErrors: 0,
  totalRemovedPeers: 0,
  totalMessagesReceived: {},
  totalRequestsReceived: {},
  totalPeersDiscovered: 0,
});

export type NetworkStatsCounters = ReturnType<typeof newNetworkStats>;
