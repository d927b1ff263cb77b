import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processGenesisBlock } from '../src/engine/genesis.js';
import { EMPTY_STATE } from '../src/engine/state/state_db.js';
import { decodeBlock, encodeBlock } from '../src/lib/chain/block.js';
import { codec } from '../src/lib/codec/index.js';
import { blsPopVerify } from '../src/lib/crypto/bls.js';
import { loadConfig } from '../src/main/config/index.js';
import { applicationModules } from '../src/main/modules.js';
import { genesisProofsOfPossession } from '../src/modules/pos/genesis.js';
import { chainID } from './fixtures.js';
import { genesisAssetSchemas, largeGenesisBlock } from './genesis_block.js';
import type { ComparisonResult } from './harness.js';
import { medianBy, printAndSave } from './harness.js';

const ACCOUNTS = 80_000;
const LEGACY_ACCOUNTS = 1_000;
const ROUNDS = 5;

/**
 * Genesis of a live-network-sized block (80,000 auth accounts with a KLY balance each, 103
 * validators, 1,000 legacy accounts), from the blob on disk to the three checked roots, against
 * reading the blob and decoding the block and its assets. The validators' proofs of possession
 * are verified once beforehand, as node start does in worker threads before processing the block.
 */
export const genesisBench = async () => {
  const modules = applicationModules(loadConfig());
  const dir = mkdtempSync(join(tmpdir(), 'kestrel-genesis-bench-'));
  const file = join(dir, 'genesis_block.blob');
  try {
    const block = largeGenesisBlock(ACCOUNTS, LEGACY_ACCOUNTS, modules);
    writeFileSync(file, encodeBlock(block));
    for (const { pk, proof } of genesisProofsOfPossession(block.assets))
      if (!blsPopVerify(pk, proof)) throw new Error('a proof of possession does not verify');
    const ours = () => processGenesisBlock(decodeBlock(readFileSync(file)), chainID, modules, EMPTY_STATE);
    const baseline = () => {
      for (const asset of decodeBlock(readFileSync(file)).assets)
        codec.decode(genesisAssetSchemas[asset.module], asset.data);
    };
    const seconds = (run: () => unknown): number => {
      const started = performance.now();
      run();
      return (performance.now() - started) / 1000;
    };
    ours();
    baseline();
    // rounds alternate which side goes first; the median round's ratio counts
    const rounds = Array.from({ length: ROUNDS }, (_, i) => {
      const first = i % 2 === 0 ? seconds(ours) : seconds(baseline);
      const second = i % 2 === 0 ? seconds(baseline) : seconds(ours);
      return i % 2 === 0 ? { ours: first, base: second } : { ours: second, base: first };
    });
    const median = medianBy(rounds, (r) => r.base / r.ours);
    const result: ComparisonResult = {
      name: `genesis of ${ACCOUNTS} accounts (auth + token entries each, 103 validators, ${LEGACY_ACCOUNTS} legacy accounts): read, decode, every module's genesis, state root, checked roots`,
      baseline: 'read the blob, decode the block and its assets',
      oursOpsPerSec: Number((1 / median.ours).toFixed(3)),
      baselineOpsPerSec: Number((1 / median.base).toFixed(3)),
      ratio: Number((median.base / median.ours).toFixed(3)),
    };
    printAndSave('genesis', [result], {
      accounts: ACCOUNTS,
      blobBytes: readFileSync(file).length,
      genesisSeconds: Number(median.ours.toFixed(3)),
      decodeSeconds: Number(median.base.toFixed(3)),
    });
    return [result];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
