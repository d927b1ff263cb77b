import type { PoolStats } from '../../lib/pool_stats.js';
import { TaskTally } from '../../lib/pool_stats.js';
import type { SMTProof } from '../../lib/tree/index.js';
import { readOnlySnapshot } from '../../storage/snapshot.js';

export interface StateProofRequest {
  dataPath: string;
  /** The committed height to prove at (undefined: the latest). */
  height?: number;
  /** The root the caller expects at that height; the prover refuses to answer from any other. */
  expectedRoot: Uint8Array;
  keys: Uint8Array[];
}

export interface StateProofResponse extends SMTProof {
  root: Buffer;
}

/** Proofs of state keys from committed storage (the `proofs` pool in a node). */
export interface StateProver {
  prove(request: StateProofRequest): Promise<StateProofResponse>;
  stats(): PoolStats;
  close(): Promise<void>;
}

/** Proves store keys against a committed state root, reading the node's LMDB environment read-only (on whichever thread calls it). */
export const proveState = (request: StateProofRequest): StateProofResponse => {
  const snapshot = readOnlySnapshot(request.dataPath, request.height, Buffer.from(request.expectedRoot));
  const proof = snapshot.prove(request.keys.map((k) => Buffer.from(k)));
  return { root: snapshot.root, siblingHashes: proof.siblingHashes, queries: proof.queries };
};

/** On the calling thread (tests, tools). */
export const createLocalStateProver = (): StateProver => {
  const tally = new TaskTally();
  return {
    prove: async (request) => tally.timeSync(() => proveState(request)),
    stats: () => tally.stats(),
    close: async () => undefined,
  };
};
