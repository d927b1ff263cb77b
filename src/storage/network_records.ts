import { randomBytes } from 'node:crypto';
import type { BinaryDB } from './database.js';
import { TABLES, tableKey } from './tables.js';

export interface PeerAddressRecord {
  readonly ipAddress: string;
  readonly port: number;
}

const SECRET = tableKey(TABLES.networkSecret);
const TRIED = tableKey(TABLES.networkTriedPeers);

/** The peer book's secret, made once per data path (Klayr: 4 random bytes in the node database). */
export const networkSecret = (meta: BinaryDB): number => {
  let secret = meta.get(SECRET);
  if (secret === undefined) {
    secret = randomBytes(4);
    meta.putSync(SECRET, secret);
  }
  return secret.readUInt32BE(0);
};

/** The tried peers saved by the last run; a record that does not parse counts as none. */
export const savedTriedPeers = (meta: BinaryDB): PeerAddressRecord[] => {
  const raw = meta.get(TRIED);
  if (raw === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (p): p is PeerAddressRecord =>
        typeof p === 'object' &&
        p !== null &&
        typeof (p as PeerAddressRecord).ipAddress === 'string' &&
        Number.isInteger((p as PeerAddressRecord).port),
    );
  } catch {
    return [];
  }
};

export const saveTriedPeers = (meta: BinaryDB, peers: readonly PeerAddressRecord[]): void => {
  meta.putSync(TRIED, Buffer.from(JSON.stringify(peers.map(({ ipAddress, port }) => ({ ipAddress, port }))), 'utf8'));
};
