import type { Schema } from '../../lib/codec/index.js';
import type { StateReadWriter } from '../state/types.js';
import type { MethodContext } from './module.js';

/**
 * Cross-chain messaging as Klayr's interoperability module drives it (klayr-framework 0.12.3
 * modules/interoperability/types.d.ts, base_cc_method.d.ts, base_cc_command.d.ts), synchronous
 * like the rest of Kestrel's state machine. The interoperability module calls these hooks of every
 * module that declares them; modules send messages through `InteroperabilityMethod`.
 */

/** A cross-chain message (Klayr's CCMsg, ccmSchema). */
export interface CCMessage {
  readonly nonce: bigint;
  readonly module: string;
  readonly crossChainCommand: string;
  readonly sendingChainID: Buffer;
  readonly receivingChainID: Buffer;
  readonly fee: bigint;
  readonly status: number;
  readonly params: Buffer;
}

/** What a module sees while a CCM from a cross-chain update is verified, applied, forwarded or bounced. */
export interface CrossChainMessageContext extends MethodContext {
  readonly chainID: Buffer;
  readonly state: StateReadWriter;
  readonly header: { readonly height: number; readonly timestamp: number };
  /** The cross-chain update transaction carrying the CCM (its relayer is `senderAddress`). */
  readonly transaction: { readonly senderAddress: Buffer; readonly fee: bigint; readonly params: Buffer };
  readonly ccm: CCMessage;
  /**
   * The CCU transaction's method context (Klayr's getMethodContext()): its events go to the
   * transaction's event queue (topic 0x04 || transaction ID), not to the CCM's (0x05 || CCM ID).
   * Klayr's token and fee hooks and the token's crossChainTransfer log through it. The
   * interoperability module always provides it (optional only for contexts built in tests).
   */
  getMethodContext?(): MethodContext;
}

export interface BeforeCCMForwardingContext extends CrossChainMessageContext {
  readonly ccmFailed: boolean;
}

export interface CCCommandExecuteContext<P = unknown> extends CrossChainMessageContext {
  readonly params: P;
}

/** recoverState: one entry of a terminated chain's state, proven against its state root. */
export interface RecoverContext extends MethodContext {
  readonly chainID: Buffer;
  readonly state: StateReadWriter;
  readonly terminatedChainID: Buffer;
  readonly module: string;
  readonly substorePrefix: Buffer;
  readonly storeKey: Buffer;
  readonly storeValue: Buffer;
}

/** A module's cross-chain hooks (Klayr's BaseCCMethod); each throws to fail the CCM. */
export interface CrossChainMethod {
  beforeRecoverCCM?(ctx: CrossChainMessageContext): void;
  recover?(ctx: RecoverContext): void;
  verifyCrossChainMessage?(ctx: CrossChainMessageContext): void;
  beforeCrossChainCommandExecute?(ctx: CrossChainMessageContext): void;
  afterCrossChainCommandExecute?(ctx: CrossChainMessageContext): void;
  beforeCrossChainMessageForwarding?(ctx: BeforeCCMForwardingContext): void;
}

/** A command a CCM names (Klayr's BaseCCCommand): `module` + `crossChainCommand` select it. */
export interface CrossChainCommand<P = unknown> {
  readonly name: string;
  readonly schema: Schema;
  verify?(ctx: CrossChainMessageContext): void;
  execute(ctx: CCCommandExecuteContext<P>): void;
}

/** A method context for sending: the block being executed (header) and, inside a transaction, its sender and fee. */
export interface SendContext extends MethodContext {
  readonly chainID: Buffer;
  readonly state: StateReadWriter;
  readonly header: { readonly height: number; readonly timestamp: number };
  readonly transaction?: { readonly senderAddress: Buffer; readonly fee: bigint };
}

/** What other modules call on the interoperability module (Klayr's BaseInteroperabilityMethod). */
export interface InteroperabilityMethod {
  /** Appends a CCM to the receiving chain's outbox (or the mainchain's for a sidechain), paying `fee` in the message fee token; emits ccmSendSuccess or ccmSentFailed. */
  send(
    ctx: SendContext,
    sendingAddress: Buffer,
    module: string,
    crossChainCommand: string,
    receivingChainID: Buffer,
    fee: bigint,
    params: Buffer,
    timestamp?: number,
  ): void;
  /** Fails a CCM being applied with an error status (it is bounced when the status allows). */
  error(ctx: CrossChainMessageContext, ccm: CCMessage, errorStatus: number): void;
  terminateChain(ctx: SendContext, chainID: Buffer): void;
  getMessageFeeTokenID(ctx: MethodContext, chainID: Buffer): Buffer;
  getMessageFeeTokenIDFromCCM(ctx: MethodContext, ccm: CCMessage): Buffer;
  getMinReturnFeePerByte(ctx: MethodContext, chainID: Buffer): bigint;
  /** The own chain account's name, chainID and nonce; throws when the chain has none. */
  getOwnChainAccount(ctx: MethodContext): { name: string; chainID: Buffer; nonce: bigint };
  /** Whether a chain account exists for the chain ID. */
  hasChainAccount(ctx: MethodContext, chainID: Buffer): boolean;
  /** Whether a terminated state account exists for the chain ID. */
  isTerminated(ctx: MethodContext, chainID: Buffer): boolean;
}
