import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { StateProofRequest, StateProver } from '../src/engine/pools/state_prover.js';
import { createLocalStateProver } from '../src/engine/pools/state_prover.js';
import { createPooledStateProver } from '../src/workers/state_prover.js';
import { openState, tempDataPath } from '../test/helpers/state.js';
import type { ComparisonResult } from './harness.js';
import { printAndSave } from './harness.js';

const TASKS = Number(process.env.KESTREL_POOL_TASKS ?? 600);

const rate = async (prover: StateProver, request: StateProofRequest, concurrent: boolean): Promise<number> => {
  const started = performance.now();
  if (concurrent) await Promise.all(Array.from({ length: TASKS }, () => prover.prove(request)));
  else for (let i = 0; i < TASKS; i++) await prover.prove(request);
  return (TASKS * 1000) / (performance.now() - started);
};

/** State proofs from committed snapshots: the ccu/state pool with 1..cores threads against the main thread. */
export const poolBench = async () => {
  const dataPath = tempDataPath();
  const db = openState(dataPath);
  const block = db.newOverlay();
  const keys = Array.from({ length: 20_000 }, () =>
    Buffer.concat([Buffer.from('000000010000', 'hex'), randomBytes(20)]),
  );
  for (const k of keys) block.set(k, randomBytes(40));
  const expectedRoot = db.commit(db.prepare(block), 0);
  const request: StateProofRequest = { dataPath, expectedRoot, keys: keys.slice(0, 16) };
  const local = createLocalStateProver();
  const mainThread = await rate(local, request, false);
  const cores = availableParallelism();
  const results: ComparisonResult[] = [];
  for (const threads of [1, 2, 4, 8, 16].filter((n) => n <= cores)) {
    const pool = createPooledStateProver(threads);
    await Promise.all(Array.from({ length: threads * 4 }, () => pool.prove(request))); // start every thread
    const r = await rate(pool, request, true);
    await pool.close();
    results.push({
      name: `prove 16 state keys, pool of ${threads} thread(s), ${TASKS} concurrent`,
      baseline: 'same proofs on the main thread',
      oursOpsPerSec: Math.round(r),
      baselineOpsPerSec: Math.round(mainThread),
      ratio: Number((r / mainThread).toFixed(2)),
    });
  }
  printAndSave('pool', results, { cores, tasks: TASKS });
};
