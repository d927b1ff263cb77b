// The sync bench's chain: a devnet chain of many blocks, a share of them full of token transfers, generated
// offline on an injected clock (consecutive 3-second slots from the genesis block on) and committed into a
// Kestrel data path, cached under the OS temp folder by its parameters so that later runs reuse it.
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { BlockStore } from '../src/engine/chain/block_store.js';
import { Generator } from '../src/engine/generator/generator.js';
import { readPlainGeneratorKeys } from '../src/engine/generator/keys.js';
import type { Block } from '../src/lib/chain/block.js';
import { blockHeaderSigningBytes } from '../src/lib/chain/block.js';
import { codec } from '../src/lib/codec/index.js';
import { addressFromPublicKey, klayr32ToAddress } from '../src/lib/crypto/address.js';
import { signingDigest } from '../src/lib/crypto/ed25519.js';
import { MESSAGE_TAG_BLOCK_HEADER, MESSAGE_TAG_TRANSACTION } from '../src/lib/crypto/tags.js';
import type { TransactionObject } from '../src/lib/transaction/index.js';
import { computeMinFee, signingBytes, signTransaction } from '../src/lib/transaction/index.js';
import { openChain } from '../src/main/chain_setup.js';
import { loadConfig } from '../src/main/config/index.js';
import type { ApplicationConfig } from '../src/main/config/types.js';
import { transferParamsSchema } from '../src/modules/token/commands/transfer.js';
import { openDatabases } from '../src/storage/database.js';
import { devnetFile, devValidators } from '../test/helpers/devnet.js';
import { FAST_POS_WINDOWS } from '../test/helpers/node_process.js';

export interface SyncChainParams {
  blocks: number;
  /** Every `transferEvery`-th block carries `transfersPerBlock` transfers. */
  transferEvery: number;
  transfersPerBlock: number;
}

/**
 * The devnet's 15,360-byte limit holds 94 transfers; 100 need about 16,200 bytes. Every node of the
 * bench (Kestrel and Klayr Core) runs with this limit instead: a config value, not part of the chain ID
 * or the genesis block.
 */
export const MAX_TRANSACTIONS_SIZE = 20_480;
export const BLOCK_TIME = 3;
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
/** The genesis accounts that send: those with at least this much KLY available. */
const MIN_SENDER_BALANCE = 10n ** 12n;

/** The devnet config every node of the bench runs: 3-second blocks, Klayr's PoS windows for them, the larger limit. */
export const syncConfig = (dataPath: string, apiPort?: number): ApplicationConfig => {
  const config = loadConfig({ dataPath, ...(apiPort !== undefined ? { apiPort } : {}) });
  config.genesis.blockTime = BLOCK_TIME;
  config.genesis.maxTransactionsSize = MAX_TRANSACTIONS_SIZE;
  config.modules.pos = { ...config.modules.pos, ...FAST_POS_WINDOWS };
  return config;
};

/** The same settings as a Klayr Core config file (the devnet's config.json with the larger limit), for run-node.cjs --config. */
export const klayrSyncConfigFile = (dir: string): string => {
  const devnet = JSON.parse(readFileSync('../shared/vectors/klayr-devnet/config.json', 'utf8')) as {
    genesis: Record<string, unknown>;
  };
  devnet.genesis.maxTransactionsSize = MAX_TRANSACTIONS_SIZE;
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(devnet));
  return file;
};

interface Sender {
  publicKey: Buffer;
  privateKey: Buffer;
  address: Buffer;
  nonce: bigint;
}

/** The genesis accounts with a KLY balance to send from (the funded account, dev validator 0, among them). */
const fundedSenders = (): Sender[] => {
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

const cacheDir = (p: SyncChainParams): string =>
  join(
    tmpdir(),
    'kestrel-bench',
    `sync-chain-v1-b${p.blocks}-e${p.transferEvery}-t${p.transfersPerBlock}-bt${BLOCK_TIME}-mts${MAX_TRANSACTIONS_SIZE}`,
  );

/** Generates the chain into `dataPath` as fast as the executor goes. */
const generateChain = async (dataPath: string, p: SyncChainParams): Promise<void> => {
  const config = syncConfig(dataPath);
  const dbs = openDatabases(dataPath);
  let now = 0;
  const { chain, executor, aggregateCommits } = openChain(config, dbs, { now: () => now });
  const chainID = Buffer.from(config.genesis.chainID, 'hex');
  const senders = fundedSenders();
  if (senders.length < 2) throw new Error('the devnet genesis block has fewer than 2 funded dev accounts');
  let sent = 0;
  const transfersFor = (height: number): TransactionObject[] => {
    if (height % p.transferEvery !== 0) return [];
    const nonces = new Map<Sender, bigint>();
    return Array.from({ length: p.transfersPerBlock }, (_, i) => {
      const index = (sent + i) % senders.length;
      const sender = senders[index];
      const nonce = nonces.get(sender) ?? sender.nonce;
      nonces.set(sender, nonce + 1n);
      const base = {
        module: 'token',
        command: 'transfer',
        nonce,
        senderPublicKey: sender.publicKey,
        params: codec.encode(transferParamsSchema, {
          tokenID: TOKEN_ID,
          amount: 1000n,
          recipientAddress: senders[(index + 1) % senders.length].address,
          data: '',
        }),
      };
      return signTransaction({ ...base, fee: computeMinFee(base), signatures: [] }, chainID, sender.privateKey);
    });
  };
  const generator = new Generator({
    chain,
    executor,
    aggregateCommits,
    chainID,
    db: dbs.generator,
    keys: readPlainGeneratorKeys(devnetFile('dev-validators.json')),
    maxTransactionsSize: config.genesis.maxTransactionsSize,
    logger: pino({ level: 'silent' }),
    candidates: () => transfersFor(chain.lastBlock().header.height + 1),
    onRejected: (tx, reason) => {
      throw new Error(`transfer of nonce ${tx.nonce} rejected: ${reason.message}`);
    },
    onBlock: (executed) => {
      for (const tx of executed.block.transactions) {
        const sender = senders.find((s) => s.publicKey.equals(tx.senderPublicKey));
        if (sender !== undefined) sender.nonce += 1n;
      }
      sent += executed.block.transactions.length;
    },
    now: () => now,
  });
  try {
    while (chain.lastBlock().header.height < p.blocks) {
      now = chain.lastBlock().header.timestamp + config.genesis.blockTime;
      const block = await generator.tick();
      if (block === undefined) throw new Error(`no block generated at ${now}`);
      const expected = block.header.height % p.transferEvery === 0 ? p.transfersPerBlock : 0;
      if (block.transactions.length !== expected)
        throw new Error(`block ${block.header.height} has ${block.transactions.length} transfers, not ${expected}`);
      if (block.header.height % 500 === 0) console.log(`  generated ${block.header.height} of ${p.blocks} blocks`);
    }
  } finally {
    await dbs.root.close();
  }
};

/** The cached chain's data path (generated on first use, a minute or two); never write into it: copy it. */
export const syncChain = async (p: SyncChainParams): Promise<string> => {
  const dir = cacheDir(p);
  if (existsSync(join(dir, 'complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  console.log(`Generating the sync bench's chain (${p.blocks} blocks) into ${dir}`);
  await generateChain(building, p);
  writeFileSync(join(building, 'complete'), `${JSON.stringify(p)}\n`);
  renameSync(building, dir);
  return dir;
};

/** A private copy of the cached chain for a node to run on (the serving node generates on top of it). */
export const copyChain = (cached: string, to: string): void => {
  cpSync(cached, to, { recursive: true });
  rmSync(join(to, 'complete'), { force: true });
};

export interface ChainSignatures {
  digests: Uint8Array[];
  signatures: Uint8Array[];
  keys: Uint8Array[];
  transfers: number;
  blocks: number;
}

/** Every ed25519 signature a follower checks for blocks 1..height: the transfers' and the block headers'. */
export const chainSignatures = async (dataPath: string, height: number): Promise<ChainSignatures> => {
  const dbs = openDatabases(dataPath, { readOnly: true });
  const chainID = Buffer.from(syncConfig(dataPath).genesis.chainID, 'hex');
  const generatorKeys = new Map(
    devValidators().map((v) => [addressFromPublicKey(Buffer.from(v.publicKey, 'hex')).toString('hex'), v]),
  );
  const out: ChainSignatures = { digests: [], signatures: [], keys: [], transfers: 0, blocks: 0 };
  try {
    const store = new BlockStore(dbs);
    for (let h = 1; h <= height; h++) {
      const block: Block | undefined = store.byHeight(h);
      if (block === undefined) throw new Error(`the chain has no block at height ${h}`);
      const key = generatorKeys.get(block.header.generatorAddress.toString('hex'));
      if (key === undefined) throw new Error(`block ${h}: generator is not a dev validator`);
      out.digests.push(signingDigest(MESSAGE_TAG_BLOCK_HEADER, chainID, blockHeaderSigningBytes(block.header)));
      out.signatures.push(block.header.signature);
      out.keys.push(Buffer.from(key.plain.generatorKey, 'hex'));
      out.blocks += 1;
      for (const tx of block.transactions) {
        out.digests.push(signingDigest(MESSAGE_TAG_TRANSACTION, chainID, signingBytes(tx)));
        out.signatures.push(tx.signatures[0]);
        out.keys.push(tx.senderPublicKey);
        out.transfers += 1;
      }
    }
  } finally {
    await dbs.root.close();
  }
  return out;
};
