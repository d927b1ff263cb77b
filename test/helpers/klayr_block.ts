// Oracle: executes a block with klayr-framework's StateMachine the way Klayr's consensus does
// (before-transactions hooks, verify + execute each transaction, after-transactions hooks),
// on the oracle's in-memory state, and returns the events with their block indices.
import { createRequire } from 'node:module';
import type { Block } from '../../src/lib/chain/block.js';
import { encodeBlockHeader } from '../../src/lib/chain/block.js';
import { encodeTransaction } from '../../src/lib/transaction/index.js';
import { klayrChain } from './klayr.js';
import type { KlayrGenesisResult } from './klayr_genesis.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
const silent: any = {
  info: () => undefined,
  debug: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  trace: () => undefined,
  fatal: () => undefined,
};
silent.child = () => silent;

export interface KlayrBlockResult {
  events: { module: string; name: string; data: Buffer; topics: Buffer[]; height: number; index: number }[];
  results: number[];
  nextValidators: { address: Buffer; bftWeight: bigint }[];
}

export const klayrExecuteBlock = async (oracle: KlayrGenesisResult, block: Block): Promise<KlayrBlockResult> => {
  const { BlockContext, TransactionContext, EventQueue } = fw('state_machine');
  const { PrefixedStateReadWriter } = fw('state_machine/prefixed_state_read_writer');
  const header = klayrChain.BlockHeader.fromBytes(encodeBlockHeader(block.header));
  const assets = new klayrChain.BlockAssets(block.assets.map((a) => ({ ...a })));
  const stateStore = new PrefixedStateReadWriter(oracle.store);
  const contextStore = new Map();
  const blockCtx = (transactions: unknown[] = []) =>
    new BlockContext({
      header,
      logger: silent,
      stateStore,
      contextStore,
      chainID: oracle.chainID,
      assets,
      eventQueue: new EventQueue(header.height),
      transactions,
    });
  const events: any[] = [];
  await oracle.machine.verifyAssets(blockCtx());
  const before = blockCtx();
  await oracle.machine.beforeTransactionsExecute(before);
  events.push(...before.eventQueue.getEvents());
  const results: number[] = [];
  const transactions = block.transactions.map((tx) => klayrChain.Transaction.fromBytes(encodeTransaction(tx)));
  for (const transaction of transactions) {
    const verifyCtx = new TransactionContext({
      eventQueue: new EventQueue(0),
      logger: silent,
      transaction,
      stateStore,
      contextStore,
      chainID: oracle.chainID,
      header,
    });
    const verified = await oracle.machine.verifyTransaction(verifyCtx, false);
    if (verified.status !== 1)
      throw new Error(
        `Klayr: failed to verify transaction ${transaction.id.toString('hex')}: ${verified.error?.message}`,
      );
    const execCtx = new TransactionContext({
      eventQueue: new EventQueue(header.height),
      logger: silent,
      transaction,
      stateStore,
      contextStore,
      chainID: oracle.chainID,
      assets,
      header,
    });
    const result = await oracle.machine.executeTransaction(execCtx);
    if (result === -1) throw new Error(`Klayr: failed to execute transaction ${transaction.id.toString('hex')}`);
    results.push(result);
    events.push(...execCtx.eventQueue.getEvents());
  }
  const after = blockCtx(transactions);
  await oracle.machine.afterExecuteBlock(after);
  events.push(...after.eventQueue.getEvents());
  return {
    events: events.map((e, index) => ({ ...e.toObject(), index })),
    results,
    nextValidators: after.nextValidators.validators,
  };
};
/* eslint-enable @typescript-eslint/no-explicit-any */
