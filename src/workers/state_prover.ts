import { availableParallelism } from 'node:os';
import { workerPool } from './piscina_pool.js';
import type { SMTProof } from '../lib/tree/index.js';

export interface StateProofRequest {
  dataPath: string;
  /** The committed height to prove at (undefined: the latest). */
  height?: number;
  /** The root the caller expects at that height; the worker refuses to answer from any other. */
  expectedRoot: Uint8Array;
  keys: Uint8Array[];
}

export interface StateProofResponse extends SMTProof {
  root: Buffer;
}

/** Proves state keys from committed storage; the engine depends on this, never on Piscina. */
export interface StateProver {
  prove(request: StateProofRequest): Promise<StateProofResponse>;
  /** Tasks waiting for a thread (0 on the main-thread implementation). */
  queueSize(): number;
  close(): Promise<void>;
}

// Buffers cross the thread boundary as plain Uint8Arrays
const toBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
const revive = (r: StateProofResponse): StateProofResponse => ({
  root: toBuffer(r.root),
  siblingHashes: r.siblingHashes.map(toBuffer),
  queries: r.queries.map((q) => ({ key: toBuffer(q.key), value: toBuffer(q.value), bitmap: toBuffer(q.bitmap) })),
});

/** Runs on the calling thread (tests, tools). */
export const createLocalStateProver = async (): Promise<StateProver> => {
  const { proveState } = await import('./state_proof_task.js');
  return { prove: async (request) => proveState(request), queueSize: () => 0, close: async () => undefined };
};

/** Runs in a Piscina pool of worker threads that open the environment read-only. */
export const createPooledStateProver = (threads = Math.max(1, availableParallelism() - 1)): StateProver => {
  const pool = workerPool('state_proof_task.js', threads);
  return {
    prove: async (request) => revive((await pool.run(request)) as StateProofResponse),
    queueSize: () => pool.queueSize,
    close: () => pool.destroy(),
  };
};
