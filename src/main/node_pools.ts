import { availableParallelism } from 'node:os';
import type { BlsVerifier } from '../engine/pools/bls_verifier.js';
import type { EventRootComputer } from '../engine/pools/event_root_computer.js';
import type { OnionGenerator } from '../engine/pools/onion_generator.js';
import type { SignatureVerifier } from '../engine/pools/signature_verifier.js';
import type { StateProver } from '../engine/pools/state_prover.js';
import type { RPCMetrics } from '../rpc/metrics.js';
import { createPooledBlsVerifier } from '../workers/bls_verifier.js';
import { createPooledEventRootComputer } from '../workers/event_root_pool.js';
import { createPooledOnionGenerator } from '../workers/onion_pool.js';
import { createPooledSignatureVerifier } from '../workers/signature_verifier.js';
import { createPooledStateProver } from '../workers/state_prover.js';

/** The node's worker pools (DESIGN.md, Shape): one per kind of CPU-heavy work. */
export interface NodePools {
  /** Aggregate commits, certificates, single commits, proofs of possession: on all cores. */
  bls: BlsVerifier;
  /** Transaction signatures. */
  signatures: SignatureVerifier;
  prover: StateProver;
  onions: OnionGenerator;
  /** The event roots of large received and generated blocks, beside the main thread's state roots (eventRootPool). */
  eventRoots?: EventRootComputer;
}

/**
 * The `roots` pool, on machines of more than two cores. On two, the `verify` threads already fill the core the
 * main thread leaves: a received block of 100 transfers applied at the same rate with the pool and without it
 * (medians of 15 alternating rounds each, 0.49x the rate of its 100 raw verifies both) for more CPU (bench/README.md,
 * session 13); with a core more, the verifies are over before the execution ends and the thread hashes the event
 * tree while the main thread computes the state root (not measured here: no machine of more cores was lent).
 */
export const eventRootPool = (cores = availableParallelism()): EventRootComputer | undefined =>
  cores > 2 ? createPooledEventRootComputer() : undefined;

/** The bls pool comes first: the genesis block's proofs of possession are checked in it before the chain opens. */
export const createBlsPool = (): BlsVerifier => createPooledBlsVerifier(availableParallelism());

/** The `roots` pool comes before the chain opens too: the executor is built with it. */
export const createNodePools = (
  bls: BlsVerifier,
  eventRoots: EventRootComputer | undefined,
  chainID: Buffer,
): NodePools => ({
  bls,
  ...(eventRoots !== undefined ? { eventRoots } : {}),
  signatures: createPooledSignatureVerifier(chainID),
  prover: createPooledStateProver(1),
  onions: createPooledOnionGenerator(1),
});

/** Each pool's task counts and times on /metrics. */
export const watchPools = (metrics: RPCMetrics, pools: NodePools): void => {
  const named = {
    verify: pools.signatures,
    bls: pools.bls,
    onion: pools.onions,
    proofs: pools.prover,
    roots: pools.eventRoots,
  };
  for (const [name, pool] of Object.entries(named)) if (pool !== undefined) metrics.watchPool(name, () => pool.stats());
};

export const closePools = async (pools: Partial<NodePools>): Promise<void> => {
  await Promise.all([
    pools.prover?.close(),
    pools.signatures?.close(),
    pools.onions?.close(),
    pools.bls?.close(),
    pools.eventRoots?.close(),
  ]);
};
