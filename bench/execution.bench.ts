import { randomBytes } from 'node:crypto';
import { assertSignatures } from '../src/engine/execution/deferred_signatures.js';
import type { EventRootComputer } from '../src/engine/pools/event_root_computer.js';
import { checkingAhead } from '../src/engine/pools/signature_prefetch.js';
import type { SignatureVerifier } from '../src/engine/pools/signature_verifier.js';
import type { Block, BlockHeader } from '../src/lib/chain/block.js';
import { addressFromPublicKey } from '../src/lib/crypto/address.js';
import { signingDigest, verifyDetached } from '../src/lib/crypto/ed25519.js';
import { MESSAGE_TAG_TRANSACTION } from '../src/lib/crypto/tags.js';
import type { TransactionObject } from '../src/lib/transaction/index.js';
import { prepareTransaction, signingBytes } from '../src/lib/transaction/index.js';
import { EMPTY_HASH } from '../src/lib/tree/index.js';
import { openChain } from '../src/main/chain_setup.js';
import { loadConfig } from '../src/main/config/index.js';
import { randomAssetCodec } from '../src/modules/random/method.js';
import { openDatabases } from '../src/storage/database.js';
import { createPooledEventRootComputer } from '../src/workers/event_root_pool.js';
import { createPooledSignatureVerifier } from '../src/workers/signature_verifier.js';
import { devValidators } from '../test/helpers/devnet.js';
import { transferToNewAccount } from '../test/helpers/devnet_transfers.js';
import { tempDataPath } from '../test/helpers/state.js';
import type { ComparisonResult } from './harness.js';
import { comparePaired, medianBy, printAndSave } from './harness.js';

export const TRANSFERS = 100;
const chainID = Buffer.from('04000000', 'hex');

/** Transfers to new accounts from the dev validators' accounts (one nonce each), successful on the devnet genesis state. */
export const devnetTransfers = (): TransactionObject[] =>
  devValidators()
    .slice(0, TRANSFERS)
    .map((v) => transferToNewAccount(v, randomBytes(20)));

/**
 * A devnet chain at genesis and a block of TRANSFERS transfers at height 1 on top of it (never committed).
 * `eventRoots`: where a received block's event root is computed (a node's `roots` pool).
 */
export const executionFixture = (eventRoots?: EventRootComputer) => {
  const config = loadConfig({ dataPath: tempDataPath() });
  const opened = openChain(config, openDatabases(tempDataPath()), eventRoots !== undefined ? { eventRoots } : {});
  const { chain, genesis } = opened;
  const txs = devnetTransfers();
  if (txs.some((tx) => addressFromPublicKey(tx.senderPublicKey).equals(Buffer.alloc(20))))
    throw new Error('unexpected sender');
  const timestamp = genesis.header.timestamp + config.genesis.blockTime;
  const generator = chain.bft.getGeneratorAtTimestamp(chain.engineView(), 1, timestamp);
  const header: BlockHeader = {
    ...genesis.header,
    version: 2,
    height: 1,
    timestamp,
    generatorAddress: generator.address,
    transactionRoot: EMPTY_HASH,
  };
  const block: Block = {
    header,
    transactions: txs,
    assets: [{ module: 'random', data: randomAssetCodec.encode({ seedReveal: randomBytes(16) }) }],
  };
  const signed = txs.map((tx) => ({
    digest: signingDigest(MESSAGE_TAG_TRANSACTION, chainID, signingBytes(tx)),
    signature: tx.signatures[0],
    key: tx.senderPublicKey,
  }));
  return { ...opened, config, chainID, txs, block, signed, eventRoots };
};

/** Executing the fixture's block (signatures, hooks, state and event roots) against raw verifies of its signatures on one core. */
export const executionComparison = (fixture: ReturnType<typeof executionFixture>) => {
  const { executor, block, signed } = fixture;
  return {
    name: `execute a block of ${TRANSFERS} transfers (signatures, hooks, state and event roots)`,
    ours: () => executor.rootsOf(executor.execute(block)),
    baseline: () => {
      for (const s of signed) verifyDetached(s.digest, s.signature, s.key);
    },
    baselineName: `${TRANSFERS} raw ed25519 verifies, one core (sodium)`,
    goal: 0.5,
  };
};

/**
 * The same block as a node applies one received (BlockProcessor.executeVerified without the commit): its
 * signature checks started in the `verify` pool first, executed with them deferred (its event root in the
 * `roots` pool when the fixture has one, while the state root is computed here), its roots, then the
 * verdicts awaited. The pools' threads run beside the main thread, so the wall ratio counts cores the
 * baseline does not use; the CPU ratio counts every thread's time.
 */
export const pooledExecutionComparison = (fixture: ReturnType<typeof executionFixture>, pool: SignatureVerifier) => {
  const { executor, block } = fixture;
  const eventRoot = fixture.eventRoots !== undefined ? 'in the roots pool' : 'on the main thread';
  return {
    name: `execute a block of ${TRANSFERS} transfers as a received block (signatures in the verify pool, event root ${eventRoot})`,
    ours: async () => {
      const prepared = block.transactions.map((tx) => prepareTransaction(tx));
      const signatures = checkingAhead(pool, prepared);
      const executed = executor.execute(block, undefined, prepared, true);
      const roots = executor.roots(executed);
      await assertSignatures(executed.signatureChecks ?? [], signatures);
      await roots;
    },
    baseline: executionComparison(fixture).baseline,
    baselineName: `${TRANSFERS} raw ed25519 verifies, one core (sodium)`,
    goal: 0.5,
  };
};

const PAIRED = { warmupMs: 1000, samples: 60 };

/** One round: 1 s of warm-up, then 60 paired samples (ours, then the raw verifies), medians. */
export const measureExecution = (fixture: ReturnType<typeof executionFixture>): Promise<ComparisonResult> =>
  comparePaired(executionComparison(fixture), PAIRED);

/**
 * `npm run bench -- execute`: block execution on one thread, and as a received block (the verify pool's
 * threads beside it) with its event root on the main thread and in the `roots` pool (a node uses the pool on
 * machines of more than two cores: eventRootPool), `KESTREL_BENCH_ROUNDS` rounds each (default 3),
 * alternating; the median round counts.
 */
export const executionBench = async (): Promise<ComparisonResult[]> => {
  const eventRoots = createPooledEventRootComputer();
  const fixture = executionFixture();
  const withRootsPool = executionFixture(eventRoots);
  const pool = createPooledSignatureVerifier(fixture.chainID);
  const rounds = Number(process.env.KESTREL_BENCH_ROUNDS ?? 3);
  const inline: ComparisonResult[] = [];
  const pooled: ComparisonResult[] = [];
  const rootsPooled: ComparisonResult[] = [];
  for (let i = 0; i < rounds; i++) {
    inline.push(await measureExecution(fixture));
    pooled.push(await comparePaired(pooledExecutionComparison(fixture, pool), PAIRED));
    rootsPooled.push(await comparePaired(pooledExecutionComparison(withRootsPool, pool), PAIRED));
  }
  await Promise.all([pool.close(), eventRoots.close()]);
  const medians = [inline, pooled, rootsPooled].map((results) => medianBy(results, (r) => r.ratio));
  printAndSave('execute', medians, {
    rounds: inline.map((r) => r.ratio),
    pooledRounds: pooled.map((r) => r.ratio),
    rootsPoolRounds: rootsPooled.map((r) => r.ratio),
  });
  for (const m of medians) console.log(`${m.name}: ${m.oursOpsPerSec * TRANSFERS} transfers/s`);
  return medians;
};
