// Chain.commit of synchronized blocks (issue 22): the sync bench's cached chain applied block by block into
// fresh data paths, as the synchronizer applies a peer's blocks (validate, verify, executeVerified), once with
// one durable LMDB transaction per block and once in write-behind mode (storage/write_behind.ts), in this one
// process, the modes taking turns. Counted: Chain.commit's wall time on the main thread, the whole apply, and
// the wait at the end for the last flush.
import { rmSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { BlockStore } from '../src/engine/chain/block_store.js';
import { createLocalBlsVerifier } from '../src/engine/pools/bls_verifier.js';
import { createLocalSignatureVerifier } from '../src/engine/pools/signature_verifier.js';
import type { Block } from '../src/lib/chain/block.js';
import { openChain } from '../src/main/chain_setup.js';
import { closeDatabases, openDatabases } from '../src/storage/database.js';
import type { WriteBehindOptions } from '../src/storage/write_behind.js';
import { writeBehindOf } from '../src/storage/write_behind.js';
import { tempDataPath } from '../test/helpers/state.js';
import { syncChain, syncConfig } from './sync_chain.js';

const PARAMS = {
  blocks: Number(process.env.KESTREL_SYNC_BLOCKS ?? 2000),
  transferEvery: Number(process.env.KESTREL_SYNC_TRANSFER_EVERY ?? 4),
  transfersPerBlock: Number(process.env.KESTREL_SYNC_TRANSFERS ?? 100),
};
/** Blocks applied per run (1..N of the cached chain). */
const APPLIED = Number(process.env.KESTREL_SYNC_COMMIT_BLOCKS ?? 400);
const ROUNDS = Number(process.env.KESTREL_SYNC_COMMIT_ROUNDS ?? 2);

type Mode = { name: string; writeBehind?: WriteBehindOptions; yieldBetweenBlocks: boolean };
const ALL_MODES: Mode[] = [
  { name: 'durable transaction per block', yieldBetweenBlocks: true },
  { name: 'write-behind, lmdb-js batch per 10 blocks (default)', writeBehind: {}, yieldBetweenBlocks: true },
  {
    name: 'write-behind, transactionSync per 25 blocks',
    writeBehind: { flushWith: 'transaction', flushEvery: 25 },
    yieldBetweenBlocks: true,
  },
  {
    name: 'write-behind, lmdb-js batch per block',
    writeBehind: { flushWith: 'batch', flushEvery: 1 },
    yieldBetweenBlocks: true,
  },
  { name: 'durable transaction per block, no yield between blocks', yieldBetweenBlocks: false },
  { name: 'write-behind (default), no yield between blocks', writeBehind: {}, yieldBetweenBlocks: false },
];
/** KESTREL_SYNC_COMMIT_MODES=0,1,2: which of ALL_MODES run (the first one given is the baseline). */
const MODES = (process.env.KESTREL_SYNC_COMMIT_MODES ?? '0,1,2,4,5')
  .split(',')
  .map((i) => ALL_MODES[Number(i)])
  .filter((m): m is Mode => m !== undefined);

interface Run {
  mode: string;
  blocks: number;
  commitMs: number;
  commitMsPerBlock: number;
  /** Commit time of the blocks with transfers only, per block. */
  commitMsPerTransferBlock: number;
  applyMs: number;
  finalFlushMs: number;
  flushes: number;
  /**
   * How long a request arriving at a random moment of the apply waits for the event loop (p99) and
   * the longest stretch without a turn, from a 1 ms interval timer's gaps. The verifiers here answer
   * on this thread, so the loop only turns where the mode yields; in a node, awaits on the worker
   * pools can let it turn too.
   */
  waitP99Ms: number;
  longestStallMs: number;
}

/** The p99 wait of an arrival uniform over the time the gaps cover (it waits out the rest of its gap). */
const waitPercentile = (gaps: readonly number[], percentile: number): number => {
  const total = gaps.reduce((sum, gap) => sum + gap, 0);
  // P(wait > x) = sum over gaps longer than x of (gap - x) / total: the smallest x where it falls to 1 - p
  const sorted = [...gaps].sort((a, b) => b - a);
  let low = 0;
  let high = sorted[0] ?? 0;
  for (let i = 0; i < 50; i++) {
    const x = (low + high) / 2;
    let above = 0;
    for (const gap of sorted) {
      if (gap <= x) break;
      above += gap - x;
    }
    if (above / total > 1 - percentile / 100) low = x;
    else high = x;
  }
  return high;
};

const readBlocks = async (cached: string, count: number): Promise<Block[]> => {
  const dbs = openDatabases(cached, { readOnly: true });
  try {
    const store = new BlockStore(dbs);
    return Array.from({ length: count }, (_, i) => {
      const block = store.byHeight(i + 1);
      if (block === undefined) throw new Error(`the cached chain has no block at height ${i + 1}`);
      return block;
    });
  } finally {
    await dbs.root.close();
  }
};

const applyAll = async (mode: Mode, blocks: readonly Block[]): Promise<Run> => {
  const dataPath = tempDataPath();
  const config = syncConfig(dataPath);
  const dbs = openDatabases(dataPath);
  try {
    const { chain, processor } = openChain(config, dbs);
    const chainID = Buffer.from(config.genesis.chainID, 'hex');
    const verifiers = { bls: createLocalBlsVerifier(), signatures: createLocalSignatureVerifier(chainID) };
    let commitMs = 0;
    let transferCommitMs = 0;
    let transferBlocks = 0;
    const commit = chain.commit.bind(chain);
    chain.commit = (executed, extra) => {
      const began = performance.now();
      commit(executed, extra);
      const ms = performance.now() - began;
      commitMs += ms;
      if (executed.block.transactions.length > 0) {
        transferCommitMs += ms;
        transferBlocks++;
      }
    };
    if (mode.writeBehind !== undefined) chain.beginWriteBehind(mode.writeBehind);
    const gaps: number[] = [];
    let turn = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      gaps.push(now - turn);
      turn = now;
    }, 1);
    const began = performance.now();
    for (const block of blocks) {
      const prepared = processor.validate(block);
      await processor.verify(block, verifiers.bls);
      await processor.executeVerified(block, prepared, verifiers, chain.lastBlock());
      await chain.writeBehindRoom();
      if (mode.yieldBetweenBlocks) await nextTurn();
    }
    const applied = performance.now();
    clearInterval(probe);
    gaps.push(applied - turn);
    await chain.endWriteBehind();
    const flushed = performance.now();
    const last = blocks[blocks.length - 1];
    if (last !== undefined && !chain.lastBlock().header.stateRoot.equals(last.header.stateRoot))
      throw new Error(`${mode.name}: the tip is not the chain's block ${last.header.height}`);
    return {
      mode: mode.name,
      blocks: blocks.length,
      commitMs: Math.round(commitMs),
      commitMsPerBlock: Number((commitMs / blocks.length).toFixed(2)),
      commitMsPerTransferBlock: Number((transferCommitMs / Math.max(1, transferBlocks)).toFixed(2)),
      applyMs: Math.round(applied - began),
      finalFlushMs: Math.round(flushed - applied),
      flushes: writeBehindOf(dbs.root)?.stats().flushes ?? 0,
      waitP99Ms: Number(waitPercentile(gaps, 99).toFixed(1)),
      longestStallMs: Number(Math.max(...gaps).toFixed(1)),
    };
  } finally {
    await closeDatabases(dbs);
    rmSync(dataPath, { recursive: true, force: true });
  }
};

/** Not part of `npm run bench` by default: `node dist/bench/sync_commit.bench.js`. */
export const syncCommitBench = async (): Promise<Run[]> => {
  const cached = await syncChain(PARAMS);
  const blocks = await readBlocks(cached, APPLIED);
  const runs: Run[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) {
      const run = await applyAll(mode, blocks);
      console.log(JSON.stringify({ round, ...run }));
      runs.push(run);
    }
  }
  // ratios within a round (the modes ran minutes apart at most), then their median: the machine's load drifts
  const medianOf = (unsorted: readonly number[]): number => {
    const values = [...unsorted].sort((a, b) => a - b);
    const middle = Math.floor(values.length / 2);
    return values.length % 2 === 1 ? (values[middle] ?? 0) : ((values[middle - 1] ?? 0) + (values[middle] ?? 0)) / 2;
  };
  const median = (rs: readonly Run[], f: (r: Run) => number): number => medianOf(rs.map(f));
  const perRound = MODES.length;
  const ratio = (mode: number, f: (r: Run) => number): number => {
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const base = runs[round * perRound];
      const run = runs[round * perRound + mode];
      if (base !== undefined && run !== undefined) ratios.push(f(base) / f(run));
    }
    return medianOf(ratios);
  };
  MODES.forEach((mode, index) => {
    const rs = runs.filter((r) => r.mode === mode.name);
    console.log(
      `${mode.name}: commit ${median(rs, (r) => r.commitMsPerBlock).toFixed(2)} ms/block (${ratio(index, (r) => r.commitMsPerBlock).toFixed(2)}x less), ` +
        `transfer blocks ${median(rs, (r) => r.commitMsPerTransferBlock).toFixed(2)} ms, apply ${Math.round(median(rs, (r) => r.applyMs))} ms ` +
        `(${ratio(index, (r) => r.applyMs).toFixed(2)}x faster), final flush ${Math.round(median(rs, (r) => r.finalFlushMs))} ms, ` +
        `wait p99 ${median(rs, (r) => r.waitP99Ms).toFixed(1)} ms, longest stall ${median(rs, (r) => r.longestStallMs).toFixed(1)} ms`,
    );
  });
  return runs;
};

if (process.argv[1]?.endsWith('sync_commit.bench.js')) await syncCommitBench();
