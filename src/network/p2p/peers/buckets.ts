// Netgroups and peer-book bucket ids, byte for byte as @klayr/p2p's utils/network.js computes them from the
// node's secret: the same secret puts a peer in the same bucket in Kestrel and in Klayr.
import { isIPv4 } from 'node:net';
import { sha256 } from '../../../lib/crypto/hash.js';

export enum Network {
  IPV4 = 0,
  PRIVATE = 1,
  LOCAL = 2,
  OTHER = 3,
}

export type PeerListKind = 'new' | 'tried';

const ipGroup = (address: string, group: number): number => Number.parseInt(address.split('.')[group] ?? '', 10);

export const isPrivateIP = (address: string): boolean => {
  const a = ipGroup(address, 0);
  const b = ipGroup(address, 1);
  return a === 10 || (a === 172 && b >= 16 && b <= 31);
};

export const isLocalIP = (address: string): boolean => ipGroup(address, 0) === 127 || address === '0.0.0.0';

export const networkOf = (address: string): Network => {
  if (isLocalIP(address)) return Network.LOCAL;
  if (isPrivateIP(address)) return Network.PRIVATE;
  if (isIPv4(address)) return Network.IPV4;
  return Network.OTHER;
};

const uint32BE = (value: number, size = 4): Buffer => {
  const b = Buffer.alloc(size);
  b.writeUInt32BE(value >>> 0, 0);
  return b;
};

/** The four octets as single bytes (getIPBytes; NaN groups write 0 as Buffer.writeUInt8 does). */
const octets = (address: string): Buffer => Buffer.from([0, 1, 2, 3].map((i) => ipGroup(address, i) & 0xff));

/** hash(secret || network || a || b) as uint32 (getNetgroup); throws for addresses that are not IPv4. */
export const netgroup = (address: string, secret: number): number => {
  const network = networkOf(address);
  if (network === Network.OTHER) throw new Error('IP address is unsupported.');
  const ip = octets(address);
  return sha256(Buffer.concat([uint32BE(secret), Buffer.from([network]), ip.subarray(0, 2)])).readUInt32BE(0);
};

/**
 * getBucketId: local and private addresses share one bucket per network; a public address's bucket depends on
 * its /16 (tried) or on the /16 of the peer that told us about it (new, `sourceAddress`), salted by the secret.
 */
export const bucketId = (options: {
  readonly secret: number;
  readonly kind: PeerListKind;
  readonly targetAddress: string;
  readonly sourceAddress?: string;
  readonly bucketCount: number;
}): number => {
  const { secret, kind, targetAddress, bucketCount } = options;
  const firstMod = kind === 'new' ? 16 : 4;
  const secretBytes = uint32BE(secret);
  const network = networkOf(targetAddress);
  const networkBytes = Buffer.from([network]);
  const target = octets(targetAddress);
  if (network === Network.OTHER) throw new Error('IP address is unsupported.');
  if (network !== Network.IPV4) return sha256(Buffer.concat([secretBytes, networkBytes])).readUInt32BE(0) % bucketCount;
  const source = kind === 'new' && options.sourceAddress !== undefined ? octets(options.sourceAddress) : undefined;
  const k =
    source !== undefined
      ? sha256(Buffer.concat([secretBytes, networkBytes, source.subarray(0, 2), target.subarray(0, 2)])).readUInt32BE(
          0,
        ) % firstMod
      : sha256(Buffer.concat([secretBytes, networkBytes, target])).readUInt32BE(0) % firstMod;
  const kBytes = uint32BE(k, firstMod);
  const bucketBytes =
    source !== undefined
      ? Buffer.concat([secretBytes, networkBytes, source.subarray(0, 2), kBytes])
      : Buffer.concat([secretBytes, networkBytes, target.subarray(0, 2), kBytes]);
  return sha256(bucketBytes).readUInt32BE(0) % bucketCount;
};
