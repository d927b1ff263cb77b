// Fixtures of the chainConnector tests: a sending chain's headers, validator sets, commits and CCMs, stored as the plugin stores them.

import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AggregateCommit, BlockHeader } from '../../src/lib/chain/block.js';
import { blockHeaderID } from '../../src/lib/chain/block.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import type { CCMWithHeight } from '../../src/lib/interop/ccu_inbox_update.js';
import type { ValidatorEntry } from '../../src/lib/interop/ccu_validators_update.js';
import type { StoredValidatorsData } from '../../src/plugins/chain_connector/schemas.js';
import { ChainConnectorStore } from '../../src/plugins/chain_connector/store.js';
import type { Rng } from '../helpers/random.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const require = createRequire(import.meta.url);
/** @klayr/chain-connector-plugin 0.2.2's modules (load after ../helpers/klayr.js). */
export const klayrPlugin = {
  inbox: (): any => require('@klayr/chain-connector-plugin/dist-node/inbox_update.js'),
  validators: (): any => require('@klayr/chain-connector-plugin/dist-node/active_validators_update.js'),
  certificates: (): any => require('@klayr/chain-connector-plugin/dist-node/certificate_generation.js'),
  ccuHandler: (): any => require('@klayr/chain-connector-plugin/dist-node/ccu_handler.js'),
  schemas: (): any => require('@klayr/chain-connector-plugin/dist-node/schemas.js'),
};
export const klayrInteropSchemas = (): any => require('klayr-framework/dist-node/modules/interoperability/schemas.js');
export const klayrCertificateSchemas = (): any =>
  require('klayr-framework/dist-node/engine/consensus/certificate_generation/schema.js');
/* eslint-enable @typescript-eslint/no-explicit-any */

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'kestrel-plugin-'));

export const OWN_CHAIN_ID = Buffer.from('04000001', 'hex');
export const RECEIVING_CHAIN_ID = Buffer.from('04000000', 'hex');

export const randomValidators = (
  rng: Rng,
  count: number,
  weight = (i: number) => BigInt(10 + (i % 3)),
): ValidatorEntry[] =>
  Array.from({ length: count }, (_, i) => ({
    address: Buffer.alloc(0),
    blsKey: rng.bytes(48),
    bftWeight: weight(i),
  })).sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));

export const validatorsData = (
  validators: ValidatorEntry[],
  certificateThreshold: bigint,
  height: number,
): StoredValidatorsData => ({
  validators,
  certificateThreshold,
  validatorsHash: computeValidatorsHash(validators, certificateThreshold),
  height,
});

export const randomCCM = (rng: Rng, height: number, nonce: bigint, paramsSize = rng.int(200)): CCMWithHeight => ({
  module: 'token',
  crossChainCommand: 'transferCrossChain',
  nonce,
  fee: BigInt(rng.int(100000)),
  sendingChainID: OWN_CHAIN_ID,
  receivingChainID: RECEIVING_CHAIN_ID,
  params: rng.bytes(paramsSize),
  status: 0,
  height,
});

export const header = (
  rng: Rng,
  height: number,
  validatorsHash: Buffer,
  aggregateCommit: AggregateCommit,
  stateRoot = rng.bytes(32),
): BlockHeader => ({
  version: 2,
  timestamp: 1_700_000_000 + height * 7,
  height,
  previousBlockID: rng.bytes(32),
  generatorAddress: rng.bytes(20),
  transactionRoot: rng.bytes(32),
  assetRoot: rng.bytes(32),
  eventRoot: rng.bytes(32),
  stateRoot,
  maxHeightPrevoted: Math.max(0, height - 2),
  maxHeightGenerated: Math.max(0, height - 1),
  impliesMaxPrevotes: true,
  validatorsHash,
  aggregateCommit,
  signature: rng.bytes(64),
});

export const emptyCommit = (height: number): AggregateCommit => ({
  height,
  aggregationBits: Buffer.alloc(0),
  certificateSignature: Buffer.alloc(0),
});

/** Aggregation bits with bit i (byte i/8, low bit first) set for each signer index. */
export const aggregationBits = (count: number, signers: readonly number[]): Buffer => {
  const bits = Buffer.alloc(Math.ceil(count / 8));
  for (const i of signers) bits[i >> 3]! |= 1 << (i & 7);
  return bits;
};

export interface ChainFixture {
  store: ChainConnectorStore;
  headers: Map<number, BlockHeader>;
  setA: StoredValidatorsData;
  setB: StoredValidatorsData;
  ccms: CCMWithHeight[];
}

/**
 * A sending chain of `tip` blocks: validator set A up to `switchHeight - 1`, set B (some of A's
 * keys, new keys, changed weights) from `switchHeight`; each block from height 3 on carries the
 * aggregate commit of height - 2 signed by every validator; CCMs at `ccmHeights`. Headers may
 * take the state root of a committed snapshot (`stateRoots`).
 */
export const buildChain = (
  rng: Rng,
  options: { tip: number; switchHeight: number; ccmHeights: number[]; stateRoots?: Map<number, Buffer>; dir?: string },
): ChainFixture => {
  const store = ChainConnectorStore.open(options.dir ?? tempDir());
  const a = randomValidators(rng, 7);
  const b = [
    ...a.slice(2).map((v, i) => (i === 0 ? { ...v, bftWeight: v.bftWeight + 5n } : v)),
    ...randomValidators(rng, 3),
  ].sort((x, y) => Buffer.compare(x.blsKey, y.blsKey));
  const setA = validatorsData(a, 50n, 0);
  const setB = validatorsData(b, 60n, 0);
  const headers = new Map<number, BlockHeader>();
  const ccms: CCMWithHeight[] = [];
  let nonce = 0n;
  for (let height = 1; height <= options.tip; height++) {
    const set = height < options.switchHeight ? setA : setB;
    const commitHeight = height - 2;
    const commit =
      commitHeight >= 1
        ? {
            height: commitHeight,
            aggregationBits: aggregationBits(
              set.validators.length,
              set.validators.map((_, i) => i),
            ),
            certificateSignature: rng.bytes(96),
          }
        : emptyCommit(0);
    const h = header(rng, height, set.validatorsHash, commit, options.stateRoots?.get(height));
    headers.set(height, h);
    const atHeight = options.ccmHeights.includes(height)
      ? Array.from({ length: 1 + rng.int(3) }, () => randomCCM(rng, height, nonce++))
      : [];
    ccms.push(...atHeight);
    store.saveBlock({ header: h, ccms: atHeight, validatorsData: { ...set, height } });
  }
  return { store, headers, setA, setB, ccms };
};

/** Klayr's ChainConnectorDB interface over the plugin store (headers with their id, as Klayr keeps them). */
export const klayrDBOver = (
  store: ChainConnectorStore,
  ccmsInRange: (from: number, to: number) => CCMWithHeight[],
) => ({
  getBlockHeaderByHeight: async (h: number) => {
    const found = store.header(h);
    return found === undefined ? undefined : { ...found, id: blockHeaderID(found) };
  },
  getValidatorsDataByHash: async (hash: Buffer) => store.validatorsData(hash),
  getAggregateCommitByHeight: async (h: number) => store.aggregateCommit(h),
  getAggregateCommitBetweenHeights: async (from: number, to: number) => store.aggregateCommitsBetween(from, to),
  getCCMsBetweenHeights: async (from: number, to: number) => ccmsInRange(from, to),
});
