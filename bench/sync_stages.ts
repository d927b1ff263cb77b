// Where a Kestrel follower's synchronization time goes: the stages' methods wrapped (in this process only)
// to add up their wall time. Nested stages are reported apart (execute, roots and commit run inside
// executeVerified; what remains of it are its waits: for the transactions' signatures from the verify pool,
// and the event loop's turns it gives between a block's stages).
import { Chain } from '../src/engine/chain/chain.js';
import { BlockProcessor } from '../src/engine/consensus/block_processor.js';
import { BlockExecutor } from '../src/engine/execution/block_executor.js';
import { PeerBlocks } from '../src/engine/sync/peer_blocks.js';
import { SyncChain } from '../src/engine/sync/sync_chain.js';

export type Stage =
  | 'download + decode (getBlocksFromId)'
  | 'validate'
  | 'verify header and aggregate commit'
  | 'executeVerified'
  | 'execute (transactions, hooks, state)'
  | 'roots (state, event, validators)'
  | 'commit (LMDB)';

const totals = new Map<Stage, number>();
let installed = false;

const add = (stage: Stage, ms: number): void => {
  totals.set(stage, (totals.get(stage) ?? 0) + ms);
};

// biome-ignore lint/suspicious/noExplicitAny: wraps methods of any signature
type Method = (this: unknown, ...args: any[]) => any;

const wrap = (target: object, name: string, stage: Stage): void => {
  const proto = target as Record<string, Method>;
  const original = proto[name];
  if (typeof original !== 'function') throw new Error(`no method ${name} to time`);
  proto[name] = function timed(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const result = original.apply(this, args);
    if (result instanceof Promise)
      return result.finally(() => {
        add(stage, performance.now() - started);
      });
    add(stage, performance.now() - started);
    return result;
  };
};

/** Wraps the sync stages' methods once; `reset` zeroes the totals, `totals` reads them (ms). */
export const syncStages = () => {
  if (!installed) {
    installed = true;
    wrap(PeerBlocks.prototype, 'blocksFrom', 'download + decode (getBlocksFromId)');
    wrap(SyncChain.prototype, 'validate', 'validate');
    wrap(BlockProcessor.prototype, 'verify', 'verify header and aggregate commit');
    wrap(BlockProcessor.prototype, 'executeVerified', 'executeVerified');
    wrap(BlockExecutor.prototype, 'execute', 'execute (transactions, hooks, state)');
    wrap(BlockExecutor.prototype, 'roots', 'roots (state, event, validators)');
    wrap(Chain.prototype, 'commit', 'commit (LMDB)');
  }
  return {
    reset: () => totals.clear(),
    totals: (): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const [stage, ms] of totals) out[stage] = Math.round(ms);
      const inner =
        (totals.get('execute (transactions, hooks, state)') ?? 0) +
        (totals.get('roots (state, event, validators)') ?? 0) +
        (totals.get('commit (LMDB)') ?? 0);
      // the event loop's turns between a block's stages (yieldToIO) run other work (the next batches' download,
      // validation, RPC), which its own stages count too
      out['waits in executeVerified (verify pool verdicts, event-loop turns between stages)'] = Math.round(
        (totals.get('executeVerified') ?? 0) - inner,
      );
      return out;
    },
  };
};
