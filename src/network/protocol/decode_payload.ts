import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { Network } from './network.js';

/**
 * A peer's payload decoded and checked against its schema, as klayr-framework's network
 * endpoints do: missing, undecodable or invalid data costs the peer penalty 100 and throws.
 */
export const decodePayload = <T>(
  network: Network,
  schema: Schema,
  data: Buffer | undefined,
  peerId: string,
  what: string,
): T => {
  try {
    if (data === undefined) throw new Error(`${what}: no data`);
    const compiled: CompiledSchema<T> = compile<T>(schema);
    const decoded = compiled.decode(data);
    compiled.validate(decoded);
    return decoded;
  } catch (error) {
    network.applyPenalty(peerId, PENALTY_BAN);
    throw error;
  }
};

/** Whether every buffer of a list differs from the others (Klayr's objects.bufferArrayUniqueItems). */
export const allDistinct = (items: readonly Buffer[]): boolean =>
  new Set(items.map((b) => b.toString('latin1'))).size === items.length;
