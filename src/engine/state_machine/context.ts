import type { Block } from '../../lib/chain/block.js';
import type { TransactionObject } from '../../lib/transaction/index.js';
import { senderAddress, transactionID } from '../../lib/transaction/index.js';
import { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
import type { EventQueue } from './event_queue.js';
import { assetsOf } from './module.js';
import type { BlockContext, NextValidators, TransactionContext } from './module.js';

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

export const transactionContext = (base: BlockContext, transaction: TransactionObject, encodedSize: number, events: EventQueue = base.events): TransactionContext => ({
  ...base,
  events,
  transaction,
  transactionID: transactionID(transaction),
  senderAddress: senderAddress(transaction),
  transactionSize: encodedSize,
});
