// A devnet chain of many blocks built offline, fast: Kestrel's Generator with the 103 dev-validator keys on an
// injected clock (consecutive 3-second slots from the genesis block on), some blocks full of token transfers,
// committed into a Kestrel data path and cached under the OS temp folder by its parameters so that later runs
// reuse it. The sync bench and the sync tests build their chains with it.
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { CommitPool } from '../../src/engine/consensus/commit_pool.js';
import { Generator } from '../../src/engine/generator/generator.js';
import { readPlainGeneratorKeys } from '../../src/engine/generator/keys.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey, klayr32ToAddress } from '../../src/lib/crypto/address.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import type { ApplicationConfig } from '../../src/main/config/types.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import { openDatabases } from '../../src/storage/database.js';
import { devnetFile, devValidators } from './devnet.js';
import { FAST_POS_WINDOWS } from './node_process.js';

export const OFFLINE_BLOCK_TIME = 3;
/** What each transfer sends, in beddows. */
export const TRANSFER_AMOUNT = 1000n;
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
/** The genesis accounts that send: those with at least this much KLY available. */
const MIN_SENDER_BALANCE = 10n ** 12n;

export interface OfflineChainParams {
  blocks: number;
  /** Every `transferEvery`-th block carries `transfersPerBlock` transfers. */
  transferEvery: number;
  transfersPerBlock: number;
  /** The config's genesis.maxTransactionsSize (not part of the chain ID or the genesis block). */
  maxTransactionsSize: number;
  /** Heights at which a copy of the data path is kept too: a node that was stopped there. */
  stops?: readonly number[];
  /**
   * The generator runs a commit pool (its validators' single commits, aggregated): blocks carry aggregate
   * commits of the certified heights, as on a live network, and a follower checks one BLS aggregate per such block.
   */
  certificates?: boolean;
}

/**
 * The devnet config every node on such a chain runs: 3-second blocks, Klayr's PoS windows for them, the
 * chain's maxTransactionsSize.
 */
export const offlineChainConfig = (p: Pick<OfflineChainParams, 'maxTransactionsSize'>, dataPath: string) => {
  const config: ApplicationConfig = loadConfig({ dataPath });
  config.genesis.blockTime = OFFLINE_BLOCK_TIME;
  config.genesis.maxTransactionsSize = p.maxTransactionsSize;
  config.modules.pos = { ...config.modules.pos, ...FAST_POS_WINDOWS };
  return config;
};

/** The same settings as a `kestrel start -c` config file's content. */
export const offlineChainConfigFile = (p: Pick<OfflineChainParams, 'maxTransactionsSize'>) => ({
  genesis: { blockTime: OFFLINE_BLOCK_TIME, maxTransactionsSize: p.maxTransactionsSize },
  modules: { pos: FAST_POS_WINDOWS },
});

export interface Sender {
  publicKey: Buffer;
  privateKey: Buffer;
  address: Buffer;
  nonce: bigint;
}

/** The genesis accounts with a KLY balance to send from (the funded account, dev validator 0, among them). */
export const fundedSenders = (): Sender[] => {
  const assets = JSON.parse(readFileSync(devnetFile('genesis_assets.json'), 'utf8')) as {
    assets: { module: string; data: { userSubstore: { address: string; availableBalance: string }[] } }[];
  };
  const token = assets.assets.find((a) => a.module === 'token');
  const funded = new Set(
    (token?.data.userSubstore ?? [])
      .filter((u) => BigInt(u.availableBalance) >= MIN_SENDER_BALANCE)
      .map((u) => klayr32ToAddress(u.address).toString('hex')),
  );
  return devValidators()
    .map((v) => {
      const publicKey = Buffer.from(v.publicKey, 'hex');
      return {
        publicKey,
        privateKey: Buffer.from(v.privateKey, 'hex'),
        address: addressFromPublicKey(publicKey),
        nonce: 0n,
      };
    })
    .filter((s) => funded.has(s.address.toString('hex')));
};

/** What generating the chain has sent so far: the senders' next nonces and the transfers made. */
interface Transfers {
  readonly senders: Sender[];
  sent: number;
}

/**
 * The transfers of block `height`: from the senders in turn, each to the next sender's address. Nonces
 * count up within the block; the senders' own nonces move once the block is generated.
 */
const transfersFor = (p: OfflineChainParams, state: Transfers, height: number, chainID: Buffer) => {
  if (height % p.transferEvery !== 0) return [];
  const { senders } = state;
  const nonces = new Map<Sender, bigint>();
  return Array.from({ length: p.transfersPerBlock }, (_, i): TransactionObject => {
    const index = (state.sent + i) % senders.length;
    const sender = senders[index] as Sender;
    const recipient = senders[(index + 1) % senders.length] as Sender;
    const nonce = nonces.get(sender) ?? sender.nonce;
    nonces.set(sender, nonce + 1n);
    const base = {
      module: 'token',
      command: 'transfer',
      nonce,
      senderPublicKey: sender.publicKey,
      params: codec.encode(transferParamsSchema, {
        tokenID: TOKEN_ID,
        amount: TRANSFER_AMOUNT,
        recipientAddress: recipient.address,
        data: '',
      }),
    };
    return signTransaction({ ...base, fee: computeMinFee(base), signatures: [] }, chainID, sender.privateKey);
  });
};

/** Generates blocks into `dataPath` (its chain resumed where it is) up to height `to`, as fast as the executor goes. */
const generateUpTo = async (
  dataPath: string,
  p: OfflineChainParams,
  state: Transfers,
  to: number,
  progress: (line: string) => void,
): Promise<void> => {
  const config = offlineChainConfig(p, dataPath);
  const dbs = openDatabases(dataPath);
  let now = 0;
  const { chain, executor, aggregateCommits } = openChain(config, dbs, { now: () => now });
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const bls = createLocalBlsVerifier();
  const generator = new Generator({
    chain,
    executor,
    aggregateCommits,
    chainID,
    ...(p.certificates === true
      ? {
          bls,
          commitPool: new CommitPool({
            chain,
            chainID,
            minCertifyHeight: config.genesis.minimumCertifyHeight ?? 1,
            bls,
          }),
        }
      : {}),
    db: dbs.generator,
    keys: readPlainGeneratorKeys(devnetFile('dev-validators.json')),
    maxTransactionsSize: config.genesis.maxTransactionsSize,
    logger: pino({ level: 'silent' }),
    candidates: () => transfersFor(p, state, chain.lastBlock().header.height + 1, chainID),
    onRejected: (tx, reason) => {
      throw new Error(`transfer of nonce ${tx.nonce} rejected: ${reason.message}`);
    },
    onBlock: (executed) => {
      for (const tx of executed.block.transactions) {
        const sender = state.senders.find((s) => s.publicKey.equals(tx.senderPublicKey));
        if (sender !== undefined) sender.nonce += 1n;
      }
      state.sent += executed.block.transactions.length;
    },
    now: () => now,
  });
  try {
    while (chain.lastBlock().header.height < to) {
      now = chain.lastBlock().header.timestamp + config.genesis.blockTime;
      const block = await generator.tick();
      if (block === undefined) throw new Error(`no block generated at ${now}`);
      const expected = block.header.height % p.transferEvery === 0 ? p.transfersPerBlock : 0;
      if (block.transactions.length !== expected)
        throw new Error(`block ${block.header.height} has ${block.transactions.length} transfers, not ${expected}`);
      if (block.header.height % 500 === 0) progress(`  generated ${block.header.height} of ${p.blocks} blocks`);
    }
  } finally {
    await dbs.root.close();
  }
};

/** Where the chain stopped at `height` is kept, beside the full chain at `dir`. */
const stopDir = (dir: string, height: number): string => `${dir}.at-${height}`;

export interface OfflineChain {
  /** The full chain's data path; never write into it: copy it (copyChain). */
  readonly dataPath: string;
  /** The data path of the chain stopped at one of the params' `stops`. */
  at(height: number): string;
}

/**
 * The chain cached at `$TMPDIR/<cacheName>` (generated on first use; a few seconds per hundred blocks on
 * a loaded machine), and the copies at its stops beside it. `cacheName` names the parameters: a chain
 * generated differently must have another name.
 */
export const offlineChain = async (
  p: OfflineChainParams,
  cacheName: string,
  /** Where a generation reports its progress (a benchmark prints it; a test's output stays quiet). */
  progress: (line: string) => void = () => undefined,
): Promise<OfflineChain> => {
  const dir = join(tmpdir(), cacheName);
  const stops = [...(p.stops ?? [])].sort((a, b) => a - b);
  if (stops.some((h) => !Number.isInteger(h) || h < 1 || h >= p.blocks))
    throw new Error(`stops must be heights between 1 and ${p.blocks - 1}: ${stops.join(', ')}`);
  const chain: OfflineChain = {
    dataPath: dir,
    at: (height) => {
      if (!stops.includes(height)) throw new Error(`the chain was not kept at height ${height}`);
      return stopDir(dir, height);
    },
  };
  if (existsSync(join(dir, 'complete'))) return chain;
  const building = `${dir}.building-${process.pid}`;
  for (const path of [dir, building, ...stops.flatMap((h) => [stopDir(dir, h), stopDir(building, h)])])
    rmSync(path, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  progress(`Generating a chain of ${p.blocks} blocks into ${dir}`);
  const state: Transfers = { senders: fundedSenders(), sent: 0 };
  if (state.senders.length < 2) throw new Error('the devnet genesis block has fewer than 2 funded dev accounts');
  for (const stop of stops) {
    await generateUpTo(building, p, state, stop, progress);
    cpSync(building, stopDir(building, stop), { recursive: true });
  }
  await generateUpTo(building, p, state, p.blocks, progress);
  writeFileSync(join(building, 'complete'), `${JSON.stringify(p)}\n`);
  if (existsSync(join(dir, 'complete'))) {
    // another process generated the same chain meanwhile
    for (const path of [building, ...stops.map((h) => stopDir(building, h))])
      rmSync(path, { recursive: true, force: true });
    return chain;
  }
  // the stops first: the full chain's `complete` marks them all there
  for (const stop of stops) renameSync(stopDir(building, stop), stopDir(dir, stop));
  renameSync(building, dir);
  return chain;
};

/** A private copy of a cached chain for a node to run on. */
export const copyChain = (cached: string, to: string): void => {
  cpSync(cached, to, { recursive: true });
  rmSync(join(to, 'complete'), { force: true });
};
