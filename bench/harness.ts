import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { Bench } from 'tinybench';

/** One measured pair: Kestrel's way and a baseline doing the same work, run in the same process. */
export interface Comparison {
  name: string;
  ours: () => unknown;
  baseline: () => unknown;
  baselineName: string;
  /** Minimum ours/baseline throughput ratio the issue asks for, if any. */
  goal?: number;
}

export interface ComparisonResult {
  name: string;
  baseline: string;
  oursOpsPerSec: number;
  baselineOpsPerSec: number;
  ratio: number;
  goal?: number;
  meetsGoal?: boolean;
  /** Paired comparisons only: the same ratio from the process's CPU time, all its threads (what a loaded host's scheduling does not move). */
  cpuRatio?: number;
}

const opsPerSec = (bench: Bench, name: string): number => {
  const task = bench.getTask(name);
  const result = task?.result;
  if (result === undefined || !('throughput' in result))
    throw new Error(`benchmark "${name}" did not complete: ${JSON.stringify(result)}`);
  return result.throughput.mean;
};

/** Runs every comparison, prints a table of ratios and writes bench/results/<suite>.json. */
export const runSuite = async (
  suite: string,
  comparisons: readonly Comparison[],
  timeMs = 1000,
): Promise<ComparisonResult[]> => {
  const results = await measure(comparisons, timeMs);
  printAndSave(suite, results);
  return results;
};

const resultOf = (c: Omit<Comparison, 'ours' | 'baseline'>, ours: number, base: number): ComparisonResult => {
  const ratio = ours / base;
  return {
    name: c.name,
    baseline: c.baselineName,
    oursOpsPerSec: Math.round(ours),
    baselineOpsPerSec: Math.round(base),
    ratio: Number(ratio.toFixed(2)),
    ...(c.goal !== undefined ? { goal: c.goal, meetsGoal: ratio >= c.goal } : {}),
  };
};

/** Each comparison's ops/s with tinybench, ours and the baseline in the same process. */
export const measure = async (comparisons: readonly Comparison[], timeMs = 1000): Promise<ComparisonResult[]> => {
  const bench = new Bench({ time: timeMs, warmupTime: 200 });
  for (const c of comparisons) {
    bench.add(`${c.name} [kestrel]`, c.ours);
    bench.add(`${c.name} [${c.baselineName}]`, c.baseline);
  }
  await bench.run();
  return comparisons.map((c) =>
    resultOf(c, opsPerSec(bench, `${c.name} [kestrel]`), opsPerSec(bench, `${c.name} [${c.baselineName}]`)),
  );
};

/** The middle item by `value` (the upper middle of an even count). */
export const medianBy = <T>(items: readonly T[], value: (item: T) => number): T =>
  [...items].sort((a, b) => value(a) - value(b))[Math.floor(items.length / 2)];

const opsPerSecondOver = async (run: () => unknown, ms: number): Promise<number> => {
  let ops = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    await run();
    ops += 1;
  }
  return (ops * 1000) / (performance.now() - started);
};

/**
 * Steady-state rates of work spread over threads: both sides warmed up first (the first seconds
 * of a multi-threaded path run slower while V8 optimizes and the young generation grows), then
 * rounds that alternate which side goes first; the median round's ratio counts.
 */
export const compareRates = async (
  c: Comparison,
  options: { warmupMs: number; roundMs: number; rounds: number },
): Promise<ComparisonResult> => {
  await opsPerSecondOver(c.ours, options.warmupMs);
  await opsPerSecondOver(c.baseline, options.warmupMs / 2);
  const rounds: { ours: number; base: number }[] = [];
  for (let round = 0; round < options.rounds; round++) {
    if (round % 2 === 0) {
      const ours = await opsPerSecondOver(c.ours, options.roundMs);
      rounds.push({ ours, base: await opsPerSecondOver(c.baseline, options.roundMs) });
    } else {
      const base = await opsPerSecondOver(c.baseline, options.roundMs);
      rounds.push({ ours: await opsPerSecondOver(c.ours, options.roundMs), base });
    }
  }
  const median = medianBy(rounds, (r) => r.ours / r.base);
  return resultOf(c, median.ours, median.base);
};

const medianOf = (values: readonly number[]): number => medianBy(values, (v) => v);

/**
 * Work measured in pairs: each sample runs ours (awaited when it returns a promise), then the baseline, each timed alone,
 * and each side's median time counts. On a loaded machine a preemption lands in a few samples of
 * either side and moves neither median, where whole-second rates of one side then the other drift apart.
 */
export const comparePaired = async (
  c: Comparison,
  options: { warmupMs: number; samples: number },
): Promise<ComparisonResult> => {
  const warmupEnd = performance.now() + options.warmupMs;
  while (performance.now() < warmupEnd) {
    await c.ours();
    c.baseline();
  }
  const cpuMs = (from: NodeJS.CpuUsage): number => {
    const used = process.cpuUsage(from);
    return (used.user + used.system) / 1000;
  };
  const ours: number[] = [];
  const base: number[] = [];
  const oursCpu: number[] = [];
  const baseCpu: number[] = [];
  for (let i = 0; i < options.samples; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await c.ours();
    const t1 = performance.now();
    oursCpu.push(cpuMs(c0));
    const c1 = process.cpuUsage();
    const t2 = performance.now();
    c.baseline();
    const t3 = performance.now();
    baseCpu.push(cpuMs(c1));
    ours.push(t1 - t0);
    base.push(t3 - t2);
  }
  return {
    ...resultOf(c, 1000 / medianOf(ours), 1000 / medianOf(base)),
    cpuRatio: Number((medianOf(baseCpu) / medianOf(oursCpu)).toFixed(3)),
  };
};

/** Prints a results table and writes bench/results/<suite>.json. */
export const printAndSave = (
  suite: string,
  results: readonly ComparisonResult[],
  extra: Record<string, unknown> = {},
): void => {
  console.log(`\n${suite}`);
  console.table(
    results.map((r) => ({
      benchmark: r.name,
      baseline: r.baseline,
      'kestrel ops/s': r.oursOpsPerSec,
      'baseline ops/s': r.baselineOpsPerSec,
      ratio: `${r.ratio}x`,
      ...(r.cpuRatio !== undefined ? { 'cpu ratio': `${r.cpuRatio}x` } : {}),
      goal: r.goal === undefined ? '' : `>= ${r.goal}x ${r.meetsGoal === true ? 'met' : 'NOT met'}`,
    })),
  );
  const dir = new URL('../../bench/results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    new URL(`${suite}.json`, dir),
    `${JSON.stringify({ suite, date: new Date().toISOString(), node: process.version, cpus: cpus().length, ...extra, results }, null, 2)}\n`,
  );
};
