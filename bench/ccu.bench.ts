import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { CCUBuilder, CCUBuildRequest } from '../src/engine/pools/ccu_builder.js';
import { createLocalCCUBuilder } from '../src/engine/pools/ccu_builder.js';
import { computeValidatorsHash } from '../src/lib/chain/validators_hash.js';
import type { CCMWithHeight } from '../src/lib/interop/ccu_inbox_update.js';
import { outboxRootStoreKey } from '../src/lib/interop/store_keys.js';
import { pruneStore } from '../src/plugins/chain_connector/retention.js';
import { ChainConnectorStore } from '../src/plugins/chain_connector/store.js';
import { createPooledCCUBuilder } from '../src/workers/ccu_builder.js';
import { Rng } from '../test/helpers/random.js';
import { openState, tempDataPath } from '../test/helpers/state.js';
import { emptyCommit, header, randomValidators, tempDir } from '../test/plugins/fixtures.js';
import type { ComparisonResult } from './harness.js';
import { measure, printAndSave } from './harness.js';

const TASKS = Number(process.env.KESTREL_CCU_TASKS ?? 200);
const OWN = Buffer.from('04000001', 'hex');
const RECEIVING = Buffer.from('04000000', 'hex');

const rate = async (builder: CCUBuilder, request: CCUBuildRequest, concurrent: boolean): Promise<number> => {
  const started = performance.now();
  if (concurrent) await Promise.all(Array.from({ length: TASKS }, () => builder.build(request)));
  else for (let i = 0; i < TASKS; i++) await builder.build(request);
  return (TASKS * 1000) / (performance.now() - started);
};

/** Main-thread (event loop) busy milliseconds while building TASKS CCUs one after the other. */
const mainThreadMs = async (builder: CCUBuilder, request: CCUBuildRequest): Promise<number> => {
  const before = performance.eventLoopUtilization();
  for (let i = 0; i < TASKS; i++) await builder.build(request);
  return performance.eventLoopUtilization(before).active;
};

/** A committed state of 20,000 entries plus the outbox root, and a CCU request over it with `n` CCMs and a validators change. */
const ccuRequest = (n: number) => {
  const rng = new Rng(n);
  const dataPath = tempDataPath();
  const db = openState(dataPath);
  const block = db.newOverlay();
  for (let i = 0; i < 20_000; i++)
    block.set(Buffer.concat([Buffer.from('83ed0d250000', 'hex'), randomBytes(4)]), randomBytes(40));
  block.set(outboxRootStoreKey(RECEIVING), randomBytes(34));
  const stateRoot = db.commit(db.prepare(block), 1);
  const a = randomValidators(rng, 101);
  const b = [...a.slice(3), ...randomValidators(rng, 3)];
  const last = { validators: a, certificateThreshold: 68n, validatorsHash: computeValidatorsHash(a, 68n) };
  const next = { validators: b, certificateThreshold: 68n, validatorsHash: computeValidatorsHash(b, 68n) };
  const ccms: CCMWithHeight[] = Array.from({ length: n }, (_, i) => ({
    module: 'token',
    crossChainCommand: 'transferCrossChain',
    nonce: BigInt(i),
    fee: 1000n,
    sendingChainID: OWN,
    receivingChainID: RECEIVING,
    params: randomBytes(60),
    status: 0,
    height: 1,
  }));
  const request: CCUBuildRequest = {
    dataPath,
    sendingChainID: OWN,
    certificate: {
      blockID: randomBytes(32),
      height: 1,
      timestamp: 1_700_000_000,
      stateRoot,
      validatorsHash: next.validatorsHash,
      aggregationBits: Buffer.alloc(13, 0xff),
      signature: randomBytes(96),
    },
    validatorsAtLastCertificate: last,
    validatorsAtNewCertificate: next,
    outboxRootStoreKey: outboxRootStoreKey(RECEIVING),
    inboxSizeOnReceivingChain: 10,
    outboxSizeOnSendingChain: 10 + n,
    lastSentCCM: { height: 0, nonce: -1n },
    ccms,
    maxCCUSize: 10240,
  };
  return request;
};

/** The store after `blocks` blocks without a CCU sent, with the retention rule or keeping everything (Klayr's plugin). */
const storeAfter = (blocks: number, prune: boolean) => {
  const rng = new Rng(5);
  const store = ChainConnectorStore.open(tempDir());
  const validators = randomValidators(rng, 101);
  const set = { validators, certificateThreshold: 68n, validatorsHash: computeValidatorsHash(validators, 68n) };
  store.setLastCertificate(1, set.validatorsHash);
  for (let height = 1; height <= blocks; height++) {
    const commit =
      height > 2
        ? { height: height - 2, aggregationBits: Buffer.alloc(13, 0xff), certificateSignature: rng.bytes(96) }
        : emptyCommit(0);
    store.saveBlock({
      header: header(rng, height, set.validatorsHash, commit),
      ccms: [],
      validatorsData: { ...set, height },
    });
    if (prune) pruneStore(store, height, 1, undefined);
  }
  const size = { entries: store.count(), bytes: store.byteSize() };
  void store.close();
  return size;
};

/** CCU building in the `ccu` pool against the main thread, and the plugin store's size with and without the retention rule. */
export const ccuBench = async () => {
  const cores = availableParallelism();
  const results: ComparisonResult[] = [];
  const local = createLocalCCUBuilder();
  for (const n of [1, 10, 100]) {
    const request = ccuRequest(n);
    await rate(local, request, false);
    const mainThread = await rate(local, request, false);
    for (const threads of [...new Set([1, cores])]) {
      const pool = createPooledCCUBuilder(threads);
      await Promise.all(Array.from({ length: threads * 4 }, () => pool.build(request))); // start every thread
      if (threads === 1) {
        // one CCU at a time (what the plugin does): tinybench, the pool's round trip against the same work on the main thread
        results.push(
          ...(await measure(
            [
              {
                name: `build a CCU with ${n} CCM(s), ccu pool of 1 thread, one at a time`,
                ours: () => pool.build(request),
                baseline: () => local.build(request),
                baselineName: 'same CCU on the main thread',
              },
            ],
            1000,
          )),
        );
        // what the node's main thread (RPC, block generation) gives to each CCU
        const poolMs = await mainThreadMs(pool, request);
        const localMs = await mainThreadMs(local, request);
        const perSecond = (ms: number) => Math.round((TASKS * 1000) / ms);
        results.push({
          name: `CCUs with ${n} CCM(s) per second of main-thread time, ccu pool of 1 thread`,
          baseline: 'built on the main thread',
          oursOpsPerSec: perSecond(poolMs),
          baselineOpsPerSec: perSecond(localMs),
          ratio: Number((localMs / poolMs).toFixed(2)),
        });
      }
      const concurrent = await rate(pool, request, true);
      await pool.close();
      results.push({
        name: `build a CCU with ${n} CCM(s), ccu pool of ${threads} thread(s), ${TASKS} concurrent`,
        baseline: 'same CCUs on the main thread',
        oursOpsPerSec: Math.round(concurrent),
        baselineOpsPerSec: Math.round(mainThread),
        ratio: Number((concurrent / mainThread).toFixed(2)),
      });
    }
  }
  await local.close();
  const blocks = 10_000;
  const pruned = storeAfter(blocks, true);
  const kept = storeAfter(blocks, false);
  results.push({
    name: `plugin store bytes after ${blocks} blocks without a CCU (retention rule)`,
    baseline: "every block kept (Klayr's plugin)",
    oursOpsPerSec: pruned.bytes,
    baselineOpsPerSec: kept.bytes,
    ratio: Number((pruned.bytes / kept.bytes).toFixed(3)),
  });
  results.push({
    name: `plugin store entries after ${blocks} blocks without a CCU (retention rule)`,
    baseline: "every block kept (Klayr's plugin)",
    oursOpsPerSec: pruned.entries,
    baselineOpsPerSec: kept.entries,
    ratio: Number((pruned.entries / kept.entries).toFixed(3)),
  });
  printAndSave('ccu', results, {
    cores,
    tasks: TASKS,
    note: 'the two store rows hold bytes and entries in the ops/s columns',
  });
};
