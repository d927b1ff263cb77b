import { availableParallelism } from 'node:os';
import type { BlsVerifier } from '../engine/pools/bls_verifier.js';
import type { EventRootComputer } from '../engine/pools/event_root_computer.js';
import type { OnionGenerator } from '../engine/pools/onion_generator.js';
import type { SignatureVerifier } from '../engine/pools/signature_verifier.js';
import type { StateProver } from '../engine/pools/state_prover.js';
import type { RPCMetrics } from '../rpc/metrics.js';
import { createPooledBlsVerifier } from '../workers/bls_verifier.js';
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
  /** The event roots of large received and generated blocks, beside the main thread's state roots. */
  eventRoots: EventRootComputer;
}

/** The bls pool comes first: the genesis block's proofs of possession are checked in it before the chain opens. */
export const createBlsPool = (): BlsVerifier => createPooledBlsVerifier(availableParallelism());

/** The `roots` pool comes before the chain opens too: the executor is built with it. */
export const createNodePools = (bls: BlsVerifier, eventRoots: EventRootComputer, chainID: Buffer): NodePools => ({
  bls,
  eventRoots,
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
  for (const [name, pool] of Object.entries(named)) metrics.watchPool(name, () => pool.stats());
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
