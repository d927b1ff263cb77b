import type { Block } from '../../lib/chain/block.js';
import type { PreparedTransaction } from '../../lib/transaction/index.js';
import { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
import type { EventQueue } from './event_queue.js';
import type { BlockContext, CommandContext, NextValidators, SignatureCheck, TransactionContext } from './module.js';
import { assetsOf } from './module.js';

/** Where setNextValidators writes, shared by the contexts of one block. */
export interface NextValidatorsSlot {
  value?: NextValidators;
}

export interface BlockContextInput {
  block: Pick<Block, 'header' | 'assets'>;
  chainID: Buffer;
  state: StateReadWriter;
  events: EventQueue;
  contextStore: Map<string, unknown>;
  nextValidators?: NextValidatorsSlot;
}

export const blockContext = (input: BlockContextInput): BlockContext & { nextValidators: NextValidatorsSlot } => {
  const slot = input.nextValidators ?? {};
  return {
    header: input.block.header,
    chainID: input.chainID,
    state: input.state,
    events: input.events,
    contextStore: input.contextStore,
    nextValidators: slot,
    asset: assetsOf(input.block.assets),
    store: (storePrefix, substorePrefix) => new SubStore(input.state, storePrefix, substorePrefix),
    setNextValidators: (next) => {
      slot.value = next;
    },
  };
};

type TransactionFields = Pick<
  TransactionContext,
  'transaction' | 'transactionID' | 'senderAddress' | 'transactionSize' | 'transactionBytes'
>;

/**
 * Every field spelt out rather than spread from `base`: this runs a few times for each
 * transaction verified or executed, a spread costs several times more, and one shape for
 * transaction and command contexts keeps the modules' hooks monomorphic.
 */
const contextOf = <P>(
  base: BlockContext,
  tx: TransactionFields,
  events: EventQueue,
  checkSignatures: SignatureCheck | undefined,
  params: P,
): CommandContext<P> => ({
  header: base.header,
  chainID: base.chainID,
  state: base.state,
  events,
  contextStore: base.contextStore,
  store: base.store,
  asset: base.asset,
  setNextValidators: base.setNextValidators,
  transaction: tx.transaction,
  transactionID: tx.transactionID,
  senderAddress: tx.senderAddress,
  transactionSize: tx.transactionSize,
  transactionBytes: tx.transactionBytes,
  checkSignatures,
  params,
});

export const transactionContext = (
  base: BlockContext,
  prepared: PreparedTransaction,
  events: EventQueue = base.events,
  checkSignatures?: SignatureCheck,
): TransactionContext =>
  contextOf(
    base,
    {
      transaction: prepared.transaction,
      transactionID: prepared.id,
      senderAddress: prepared.senderAddress,
      transactionSize: prepared.bytes.length,
      transactionBytes: prepared.bytes,
    },
    events,
    checkSignatures,
    undefined,
  );

/** The context a command's verify and execute get: the transaction's, with its decoded params. */
export const commandContext = <P>(ctx: TransactionContext, params: P): CommandContext<P> =>
  contextOf(ctx, ctx, ctx.events, ctx.checkSignatures, params);
