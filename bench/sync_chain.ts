// The sync bench's chain: a devnet chain of many blocks, a share of them full of token transfers, generated
// offline on an injected clock (consecutive 3-second slots from the genesis block on) and committed into a
// Kestrel data path, cached under the OS temp folder by its parameters so that later runs reuse it.
// The sync bench's chain: a devnet chain of many blocks, a share of them full of token transfers, built offline
// by test/helpers/offline_chain.ts (Kestrel's Generator on an injected clock) and cached under the OS temp folder
// by its parameters so that later runs reuse it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BlockStore } from '../src/engine/chain/block_store.js';
import type { Block } from '../src/lib/chain/block.js';
import { blockHeaderSigningBytes } from '../src/lib/chain/block.js';
import { addressFromPublicKey } from '../src/lib/crypto/address.js';
import { signingDigest } from '../src/lib/crypto/ed25519.js';
import { MESSAGE_TAG_BLOCK_HEADER, MESSAGE_TAG_TRANSACTION } from '../src/lib/crypto/tags.js';
import { signingBytes } from '../src/lib/transaction/index.js';
import type { ApplicationConfig } from '../src/main/config/types.js';
import { openDatabases } from '../src/storage/database.js';
import { devValidators } from '../test/helpers/devnet.js';
import { OFFLINE_BLOCK_TIME, offlineChain, offlineChainConfig } from '../test/helpers/offline_chain.js';

export { copyChain } from '../test/helpers/offline_chain.js';

export interface SyncChainParams {
  blocks: number;
  /** Every `transferEvery`-th block carries `transfersPerBlock` transfers. */
  transferEvery: number;
  transfersPerBlock: number;
  /** Blocks carry aggregate commits (a commit pool at generation): a different cached chain. */
  certificates?: boolean;
}

/**
 * The devnet's 15,360-byte limit holds 94 transfers; 100 need about 16,200 bytes. Every node of the
 * bench (Kestrel and Klayr Core) runs with this limit instead: a config value, not part of the chain ID
 * or the genesis block.
 */
export const MAX_TRANSACTIONS_SIZE = 20_480;
export const BLOCK_TIME = OFFLINE_BLOCK_TIME;

/** The devnet config every node of the bench runs: 3-second blocks, Klayr's PoS windows for them, the larger limit. */
export const syncConfig = (dataPath: string, apiPort?: number): ApplicationConfig => {
  const config = offlineChainConfig({ maxTransactionsSize: MAX_TRANSACTIONS_SIZE }, dataPath);
  if (apiPort !== undefined) config.rpc.port = apiPort;
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

/** The cached chain's data path (generated on first use, a minute or two); never write into it: copy it. */
export const syncChain = async (p: SyncChainParams): Promise<string> => {
  const certificates = p.certificates === true ? '-certs' : '';
  const name = `sync-chain-v2-b${p.blocks}-e${p.transferEvery}-t${p.transfersPerBlock}-bt${BLOCK_TIME}-mts${MAX_TRANSACTIONS_SIZE}${certificates}`;
  return (
    await offlineChain({ ...p, maxTransactionsSize: MAX_TRANSACTIONS_SIZE }, join('kestrel-bench', name), console.log)
  ).dataPath;
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
