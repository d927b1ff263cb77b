import type { BlockAsset, BlockHeader } from '../../lib/chain/block.js';
import type { Schema } from '../../lib/codec/index.js';
import type { MultisigKeys, TransactionObject } from '../../lib/transaction/index.js';
import type { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
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

/** The part of the module lifecycle the genesis block runs. */
export interface GenesisModule {
  readonly name: string;
  initGenesisState?(ctx: GenesisContext): void;
  finalizeGenesisState?(ctx: GenesisContext): void;
}

/** A module with Klayr's full block lifecycle (hooks run in registration order). */
export interface StateModule extends GenesisModule {
  readonly commands?: readonly Command<never>[];
  /** Events the module emits, with their data schemas (system_getMetadata). */
  readonly events?: readonly { name: string; data: Schema }[];
  /** Block assets the module writes, by block version (system_getMetadata). */
  readonly assets?: readonly { version: number; data: Schema }[];
  verifyAssets?(ctx: BlockContext): void;
  /** Throws on an invalid transaction; returns PENDING for a future nonce. */
  verifyTransaction?(ctx: TransactionContext): VerifyStatus;
  beforeCommandExecute?(ctx: TransactionContext): void;
  afterCommandExecute?(ctx: TransactionContext): void;
  beforeTransactionsExecute?(ctx: BlockContext): void;
  afterTransactionsExecute?(ctx: BlockContext & { readonly transactions: readonly TransactionObject[] }): void;
}

export const assetsOf = (assets: readonly BlockAsset[]) => (module: string): Buffer | undefined => assets.find((a) => a.module === module)?.data;
