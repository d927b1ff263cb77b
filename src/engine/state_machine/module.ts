import type { Logger } from 'pino';
import type { BlockAsset, BlockHeader } from '../../lib/chain/block.js';
import type { Schema } from '../../lib/codec/index.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import type { EndpointMetadata, ModuleMetadata } from '../../lib/endpoint/metadata.js';
import type { AggregateCheck } from '../../lib/interop/aggregate_verdicts.js';
import type { MultisigKeys, TransactionObject } from '../../lib/transaction/index.js';
import type { BinaryDB } from '../../storage/database.js';
import type { OnionGenerator } from '../pools/onion_generator.js';
import type { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
import type { CrossChainCommand, CrossChainMethod } from './cross_chain.js';
import type { EventQueue } from './event_queue.js';

export interface NextValidators {
  precommitThreshold: bigint;
  certificateThreshold: bigint;
  validators: { address: Buffer; bftWeight: bigint; generatorKey: Buffer; blsKey: Buffer }[];
}

/** What module methods need: substores, the event queue and the per-block context store. */
export interface MethodContext {
  readonly events: EventQueue;
  /** Values one hook hands to a later one within the block (Klayr's contextStore). */
  readonly contextStore: Map<string, unknown>;
  store(storePrefix: Buffer, substorePrefix: Buffer): SubStore;
}

/** What a module sees while a block (the genesis block included) is processed. */
export interface BlockContext extends MethodContext {
  readonly header: BlockHeader;
  readonly chainID: Buffer;
  readonly state: StateReadWriter;
  /** The asset the block holds for a module, if any. */
  asset(module: string): Buffer | undefined;
  setNextValidators(next: NextValidators): void;
}

export type GenesisContext = BlockContext;

/** Read access to module substores (endpoints use a view of committed state). */
export type StoreAccess = Pick<MethodContext, 'store'>;

export type SignatureCheck = (keys: MultisigKeys | undefined) => void;

/** A transaction being verified or executed within a block. */
export interface TransactionContext extends BlockContext {
  readonly transaction: TransactionObject;
  readonly transactionID: Buffer;
  readonly senderAddress: Buffer;
  /** Encoded size in bytes (the min fee is per byte). */
  readonly transactionSize: number;
  /** The transaction's encoding, where the caller has it: its signing bytes are a part of it, not encoded again. */
  readonly transactionBytes?: Buffer;
  /**
   * Where the auth module checks signatures, it hands the sender's multisignature keys
   * (undefined for a single-signature account) to this instead, when given: the pool's
   * ingest checks them in the signature worker pool.
   */
  readonly checkSignatures?: SignatureCheck;
}

export interface CommandContext<P = unknown> extends TransactionContext {
  readonly params: P;
}

/** Klayr's VerifyStatus: OK, FAIL, or PENDING (nonce ahead of the account's). */
export const VERIFY_STATUS = { FAIL: 0, OK: 1, PENDING: 2 } as const;
export type VerifyStatus = (typeof VERIFY_STATUS)[keyof typeof VERIFY_STATUS];

export interface Command<P = unknown> {
  readonly name: string;
  readonly schema: Schema;
  /** Throws when the params are not acceptable against the current state. */
  verify?(ctx: CommandContext<P>): void;
  execute(ctx: CommandContext<P>): void;
}

/** A substore a module declares: its index under the module's store prefix and its value schema. */
export interface StoreDeclaration {
  readonly index: number;
  readonly schema: Schema;
}

/** An event a module emits, with its data schema. */
export interface EventDeclaration {
  readonly name: string;
  readonly data: Schema;
}

/** A block asset a module writes, by block version. */
export interface AssetDeclaration {
  readonly version: number;
  readonly data: Schema;
}

/** The endpoints a module serves, as system_getMetadata publishes them (in Klayr's order). */
export interface EndpointDeclarations {
  readonly published: readonly EndpointMetadata[];
  /** Served, but left out of Klayr's metadata. */
  readonly unpublished?: readonly string[];
}

/** What the node gives module endpoints. */
export interface EndpointServices {
  readonly chainID: Buffer;
  /** A fresh read view of committed state (endpoints take one per call). */
  state(): StoreAccess;
  /** The header of the chain's last block. */
  lastHeader(): BlockHeader;
  /** The node's off-chain store (the generator database). */
  readonly offchain: BinaryDB;
  /** Hash onions computed off the main thread (the node's onion pool). */
  readonly onions: OnionGenerator;
}

/** What a module sees while the generator builds a block: the draft header, and where its asset goes. */
export interface InsertAssetsContext {
  /** The draft header (height, timestamp, generator); its roots are not computed yet. */
  readonly header: BlockHeader;
  readonly chainID: Buffer;
  /** The node's off-chain store (the generator database). */
  readonly offchain: BinaryDB;
  readonly logger: Pick<Logger, 'warn'>;
  setAsset(module: string, data: Buffer): void;
  /** Runs when the block is committed, in the same write (off-chain records that go with the block), given the finalized height before it. */
  onCommit(write: (finalizedHeight: number) => void): void;
}

/**
 * A module: its declarations (stores, commands, events, assets, endpoints; system_getMetadata
 * is derived from them), its endpoints, and Klayr's block lifecycle (hooks run in registration
 * order). Its config is parsed by its own config.ts before it is built.
 */
export interface Module {
  readonly name: string;
  /** Where its stores live: computeStorePrefix(name) unless given (interoperability's differs). */
  readonly storePrefix?: Buffer;
  readonly stores?: readonly StoreDeclaration[];
  readonly commands?: readonly Command<never>[];
  /** Commands that CCMs addressed to this module name (`ccm.module` = name). */
  readonly crossChainCommands?: readonly CrossChainCommand<never>[];
  /** Hooks the interoperability module calls for every CCM it verifies, applies, forwards or recovers. */
  readonly crossChainMethod?: CrossChainMethod;
  readonly events?: readonly EventDeclaration[];
  readonly assets?: readonly AssetDeclaration[];
  readonly endpointDeclarations?: EndpointDeclarations;
  /** The modules.<name> settings its config.ts reads (any other is reported as unused). */
  readonly configKeys?: readonly string[];
  /** The module's namespace: every endpoint in `endpointDeclarations`, and only those. */
  endpoints?(services: EndpointServices): Endpoints;
  /** system_getMetadata's entry, derived from the declarations. */
  metadata(): ModuleMetadata;
  initGenesisState?(ctx: GenesisContext): void;
  finalizeGenesisState?(ctx: GenesisContext): void;
  /** The BLS proofs of possession its initGenesisState will check in a genesis block's assets (checked ahead, on all cores). */
  genesisProofsOfPossession?(assets: readonly BlockAsset[]): { pk: Buffer; proof: Buffer }[];
  /** The BLS proofs of possession executing this transaction will check (checked ahead in the `bls` pool). */
  transactionProofsOfPossession?(tx: TransactionObject): { pk: Buffer; proof: Buffer }[];
  /**
   * The weighted aggregate BLS signatures executing this transaction will verify, computed from
   * committed state (checked ahead in the `bls` pool; a check whose inputs changed by the time it
   * runs is made on the spot).
   */
  transactionAggregateSignatures?(tx: TransactionObject, committed: StoreAccess, chainID: Buffer): AggregateCheck[];
  /** Block generation: the module's asset for the new block. */
  insertAssets?(ctx: InsertAssetsContext): void;
  verifyAssets?(ctx: BlockContext): void;
  /** Throws on an invalid transaction; returns PENDING for a future nonce. */
  verifyTransaction?(ctx: TransactionContext): VerifyStatus;
  beforeCommandExecute?(ctx: TransactionContext): void;
  afterCommandExecute?(ctx: TransactionContext): void;
  beforeTransactionsExecute?(ctx: BlockContext): void;
  afterTransactionsExecute?(ctx: BlockContext & { readonly transactions: readonly TransactionObject[] }): void;
}

/** The part of the module lifecycle the genesis block runs. */
export type GenesisModule = Pick<Module, 'name' | 'initGenesisState' | 'finalizeGenesisState'>;

export const assetsOf =
  (assets: readonly BlockAsset[]) =>
  (module: string): Buffer | undefined =>
    assets.find((a) => a.module === module)?.data;
