import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import type { PeerAddress } from './types.js';

/**
 * Resolves host names in configured peers to IPv4 addresses (klayr-framework's lookupPeersIPs): IPv4 addresses
 * stay, a name that does not resolve is kept as it is (the P2P layer then drops it, as @klayr/p2p's sanitizer).
 */
export const resolvePeerAddresses = (peers: readonly { ip: string; port: number }[]): Promise<PeerAddress[]> =>
  Promise.all(
    peers.map(async ({ ip, port }) => {
      if (isIPv4(ip)) return { ipAddress: ip, port };
      try {
        const { address } = await lookup(ip, { family: 4 });
        return { ipAddress: address, port };
      } catch {
        return { ipAddress: ip, port };
      }
    }),
  );
