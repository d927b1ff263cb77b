import type { Block, BlockAsset, BlockHeader } from '../lib/chain/block.js';
import { computeAssetRoot, validateGenesisBlock } from '../lib/chain/block.js';
import type { BlockEvent } from '../lib/chain/events.js';
import { computeEventRoot } from '../lib/chain/events.js';
import { computeValidatorsHash } from '../lib/chain/validators_hash.js';
import type { Schema } from '../lib/codec/index.js';
import { codec } from '../lib/codec/index.js';
import { stateSMTLeaves } from '../lib/state/keys.js';
import { buildSMT, EMPTY_HASH, nodeRef, smtNodeList, smtRootOf } from '../lib/tree/index.js';
import type { GenesisTree, StateBase } from './state/state_db.js';
import { BlockState, EMPTY_STATE } from './state/state_db.js';
import { executeGenesis } from './state_machine/genesis.js';
import type { GenesisModule, NextValidators } from './state_machine/module.js';

export interface ProcessedGenesis {
  state: BlockState;
  events: BlockEvent[];
  nextValidators: NextValidators;
  /** The state tree's root: computed, or for a deferred tree the header's, checked once the tree is built. */
  stateRoot: Buffer;
  eventRoot: Buffer;
  validatorsHash: Buffer;
  /**
   * The state tree built on the empty tree, its nodes kept when asked for (`keepTreeNodes`): what a commit on an
   * empty data path stores; or, deferred (`deferTreeFrom`), not built: the header's root, to be checked by
   * buildPendingStateTree from the committed state.
   */
  tree: GenesisTree;
  /** The state's changes (key order) the tree was built from. */
  changes: readonly { key: Buffer; value: Buffer | undefined }[];
}

export interface GenesisOptions {
  /** Keep the state tree's nodes for the commit (a node's first start) instead of computing the root only. */
  keepTreeNodes?: boolean;
  /**
   * A state of at least this many entries gets no tree here: the header's stateRoot stands for it until its
   * tree is built from the committed state (a node's first start on a large pinned genesis block, whose
   * header is known to match; see StateDB.prepareOnEmpty). Undefined: the tree is always built.
   */
  deferTreeFrom?: number;
}

/** Klayr silently ignores a genesis asset no module reads; Kestrel refuses one for a module that is not registered. */
const refuseUnknownAssets = (block: Block, modules: readonly GenesisModule[]): void => {
  const registered = new Set(modules.map((m) => m.name));
  for (const { module } of block.assets) {
    if (!registered.has(module))
      throw new Error(`Genesis block has an asset for module "${module}", which is not registered.`);
  }
};

const genesisTree = (
  changes: readonly { key: Buffer; value: Buffer | undefined }[],
  headerRoot: Buffer,
  keepTreeNodes: boolean,
  deferTreeFrom: number | undefined,
): GenesisTree => {
  const entries = changes.flatMap(({ key, value }) => (value === undefined ? [] : [{ key, value }]));
  if (deferTreeFrom !== undefined && entries.length >= deferTreeFrom) return { root: headerRoot, deferred: true };
  const leaves = stateSMTLeaves(entries);
  if (keepTreeNodes) return buildSMT(leaves);
  const root = smtRootOf(leaves);
  return { root, rootRef: nodeRef(0, root), nodes: smtNodeList([]) };
};

/** Runs the modules' genesis over the block's assets and computes the three roots it implies. */
export const computeGenesis = (
  block: Block,
  chainID: Buffer,
  modules: readonly GenesisModule[],
  base: StateBase,
  { keepTreeNodes = false, deferTreeFrom }: GenesisOptions = {},
): ProcessedGenesis => {
  refuseUnknownAssets(block, modules);
  const state = new BlockState(base);
  const { events, nextValidators } = executeGenesis(modules, block, chainID, state);
  if (nextValidators === undefined)
    throw new Error('Genesis block processing did not set the initial validators (is the pos asset missing?)');
  const changes = state.overlay.changes();
  const tree = genesisTree(changes, block.header.stateRoot, keepTreeNodes, deferTreeFrom);
  const stateRoot = tree.root;
  const eventRoot = computeEventRoot(events);
  const validatorsHash = computeValidatorsHash(nextValidators.validators, nextValidators.certificateThreshold);
  return { state, events, nextValidators, stateRoot, eventRoot, validatorsHash, tree, changes };
};

/**
 * Processes a genesis block: Klayr's genesis rules (asset root included), every module's
 * genesis, then the header's stateRoot, eventRoot and validatorsHash must equal what the
 * modules produced; the first root that does not is named in the error.
 */
export const processGenesisBlock = (
  block: Block,
  chainID: Buffer,
  modules: readonly GenesisModule[],
  base: StateBase,
  options: GenesisOptions = {},
): ProcessedGenesis => {
  validateGenesisBlock(block);
  const result = computeGenesis(block, chainID, modules, base, options);
  const { stateRoot, eventRoot, validatorsHash } = result;
  const checks: [string, Buffer, Buffer][] = [
    // a deferred tree's root is checked when it is built
    ...('deferred' in result.tree
      ? []
      : [['stateRoot', stateRoot, block.header.stateRoot] as [string, Buffer, Buffer]]),
    ['eventRoot', eventRoot, block.header.eventRoot],
    ['validatorsHash', validatorsHash, block.header.validatorsHash],
  ];
  for (const [name, computed, header] of checks) {
    if (!computed.equals(header))
      throw new Error(
        `Genesis block ${name} mismatch: the header has ${header.toString('hex')}, processing the block gives ${computed.toString('hex')}`,
      );
  }
  return result;
};

export interface GenesisAssetInput {
  module: string;
  /** The asset in JSON form (hex bytes, decimal-string integers). */
  data: unknown;
  schema: Schema;
}

/** A genesis header over the assets, its three state-dependent roots still empty (Klayr's genesis-block:create before processing). */
export const unsignedGenesisHeader = ({
  height,
  timestamp,
  previousBlockID,
  assets,
}: {
  height: number;
  timestamp: number;
  previousBlockID: Buffer;
  assets: readonly BlockAsset[];
}): BlockHeader => ({
  version: 0,
  timestamp,
  height,
  previousBlockID,
  generatorAddress: Buffer.alloc(20),
  transactionRoot: EMPTY_HASH,
  assetRoot: computeAssetRoot(assets),
  eventRoot: EMPTY_HASH,
  stateRoot: EMPTY_HASH,
  maxHeightPrevoted: height,
  maxHeightGenerated: 0,
  impliesMaxPrevotes: true,
  validatorsHash: EMPTY_HASH,
  aggregateCommit: { height, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
  signature: Buffer.alloc(0),
});

/** Builds a genesis block from JSON assets, as Klayr Core's genesis-block:create does. */
export const createGenesisBlock = (
  input: {
    assets: readonly GenesisAssetInput[];
    chainID: Buffer;
    height?: number;
    timestamp?: number;
    previousBlockID?: Buffer;
  },
  modules: readonly GenesisModule[],
): Block => {
  const assets = input.assets
    .map((a) => ({ module: a.module, data: codec.encode(a.schema, codec.fromJSON(a.schema, a.data)) }))
    .sort((a, b) => a.module.localeCompare(b.module, 'en'));
  const header = unsignedGenesisHeader({
    height: input.height ?? 0,
    timestamp: input.timestamp ?? Math.floor(Date.now() / 1000),
    previousBlockID: input.previousBlockID ?? Buffer.alloc(32),
    assets,
  });
  const block: Block = { header, transactions: [], assets };
  const { stateRoot, eventRoot, validatorsHash } = computeGenesis(block, input.chainID, modules, EMPTY_STATE);
  return { ...block, header: { ...header, stateRoot, eventRoot, validatorsHash } };
};
