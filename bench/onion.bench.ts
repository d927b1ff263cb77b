import { availableParallelism } from 'node:os';
import { sha256Into } from '../src/lib/crypto/hash.js';
import { hashOnion } from '../src/lib/crypto/hash_onion.js';
import { createPooledOnionGenerator } from '../src/workers/onion_pool.js';
import type { ComparisonResult } from './harness.js';
import { printAndSave } from './harness.js';
import { klayrCrypto } from './klayr.js';

const COUNT = 1_000_000;
const DISTANCE = 1000;

const rate = (run: () => unknown, repeat = 1): number => {
  const started = performance.now();
  for (let i = 0; i < repeat; i++) run();
  return (repeat * 1000) / (performance.now() - started);
};

/** 1,000,000-hash onions: Kestrel against @klayr/cryptography and the native floor; N onions on 1 vs N workers. */
export const onionBench = async () => {
  const seed = Buffer.alloc(16, 3);
  const ours = rate(() => hashOnion(seed, COUNT, DISTANCE));
  const klayr = rate(() => klayrCrypto.utils.hashOnion(seed, COUNT, DISTANCE));
  // the floor: one 16-byte SHA-256 per step into a reused buffer, nothing else
  const input = Buffer.alloc(16, 3);
  const out = Buffer.alloc(32);
  const floor = rate(() => {
    for (let i = 0; i < COUNT; i++) sha256Into(out, input);
  });
  const results: ComparisonResult[] = [
    {
      name: `hash onion of ${COUNT} hashes (distance ${DISTANCE})`,
      baseline: '@klayr/cryptography utils.hashOnion',
      oursOpsPerSec: Number(ours.toFixed(3)),
      baselineOpsPerSec: Number(klayr.toFixed(3)),
      ratio: Number((ours / klayr).toFixed(2)),
      goal: 4,
      meetsGoal: ours / klayr >= 4,
    },
    {
      name: `hash onion of ${COUNT} hashes (distance ${DISTANCE})`,
      baseline: 'floor: 1,000,000 sodium SHA-256 of 16 bytes in a tight loop',
      oursOpsPerSec: Number(ours.toFixed(3)),
      baselineOpsPerSec: Number(floor.toFixed(3)),
      ratio: Number((ours / floor).toFixed(2)),
    },
  ];
  const cores = availableParallelism();
  const onions = Math.max(2, cores);
  const timed = async (threads: number) => {
    const pool = createPooledOnionGenerator(threads);
    // start every thread: concurrent tasks long enough that one thread cannot take them all
    await Promise.all(
      Array.from({ length: threads * 2 }, () => pool.generate({ seed, count: 50_000, distance: 1000 })),
    );
    const started = performance.now();
    await Promise.all(
      Array.from({ length: onions }, (_, i) =>
        pool.generate({ seed: Buffer.alloc(16, i), count: COUNT / 4, distance: DISTANCE }),
      ),
    );
    const perSecond = (onions * 1000) / (performance.now() - started);
    await pool.close();
    return perSecond;
  };
  const one = await timed(1);
  const many = await timed(onions);
  results.push({
    name: `${onions} onions of ${COUNT / 4} hashes, onion pool of ${onions} threads`,
    baseline: 'the same onions on a pool of 1 thread',
    oursOpsPerSec: Number(many.toFixed(3)),
    baselineOpsPerSec: Number(one.toFixed(3)),
    ratio: Number((many / one).toFixed(2)),
  });
  printAndSave('onion', results, { cores });
};
