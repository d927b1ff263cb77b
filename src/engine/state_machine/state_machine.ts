import type { Block, BlockAsset } from '../../lib/chain/block.js';
import type { BlockEvent } from '../../lib/chain/events.js';
import type { CompiledSchema, Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { PreparedTransaction, TransactionObject } from '../../lib/transaction/index.js';
import { asPrepared } from '../../lib/transaction/index.js';
import type { StateReadWriter } from '../state/types.js';
import type { NextValidatorsSlot } from './context.js';
import { blockContext, commandContext, transactionContext } from './context.js';
import { EVENT_TOPIC_AFTER_TRANSACTIONS, EVENT_TOPIC_BEFORE_TRANSACTIONS, EventQueue } from './event_queue.js';
import type {
  BlockContext,
  Command,
  CommandContext,
  InsertAssetsContext,
  Module,
  NextValidators,
  SignatureCheck,
  TransactionContext,
  VerifyStatus,
} from './module.js';
import { VERIFY_STATUS } from './module.js';
import { StateMachinePanic } from './panic.js';

export const EVENT_TOPIC_TRANSACTION_EXECUTION = Buffer.from([4]);
export const EVENT_NAME_COMMAND_EXECUTION_RESULT = 'commandExecutionResult';

const standardEventDataSchema = {
  $id: '/block/event/standard',
  type: 'object',
  required: ['success'],
  properties: { success: { dataType: 'boolean', fieldNumber: 1 } },
} as const satisfies Schema;
const standardEventData = compile<{ success: boolean }>(standardEventDataSchema);

/** Klayr's TransactionExecutionResult: a failed command keeps the fee and nonce; an invalid one makes the block invalid. */
export const EXECUTION_RESULT = { INVALID: -1, FAIL: 0, OK: 1 } as const;
export type ExecutionResult = (typeof EXECUTION_RESULT)[keyof typeof EXECUTION_RESULT];

export interface VerifyResult {
  status: VerifyStatus;
  error?: Error;
}

export interface BlockExecution {
  events: BlockEvent[];
  nextValidators?: NextValidators;
  results: ExecutionResult[];
  /** The transactions executed: all of the block's, or in generation the candidates that fit and were valid. */
  transactions: PreparedTransaction[];
}

/** A block to execute; transactions already prepared (encoding, ID, sender) are not derived again. */
export type ExecutableBlock = Pick<Block, 'header' | 'assets'> & {
  transactions: readonly (TransactionObject | PreparedTransaction)[];
};

/** Generation: candidates that do not verify, are invalid or do not fit are left out instead of failing the block. */
export interface TransactionSelection {
  candidates: Iterable<TransactionObject | PreparedTransaction>;
  maxTransactionsSize: number;
  /** Told about each candidate left out (the pool may drop it). */
  onRejected?: (tx: TransactionObject, reason: Error) => void;
}

/** An event numbered by its place in the block (written out: an object spread costs several times a literal here). */
const withIndex = (e: BlockEvent, index: number): BlockEvent => ({
  module: e.module,
  name: e.name,
  data: e.data,
  topics: e.topics,
  height: e.height,
  index,
});

/** The modules' lifecycle over blocks and transactions, in Klayr's order and with its rollback rules. */
export class StateMachine {
  readonly #commands = new Map<string, Command<unknown>>();

  constructor(readonly modules: readonly Module[]) {
    for (const m of modules)
      for (const c of m.commands ?? []) this.#commands.set(`${m.name}:${c.name}`, c as Command<unknown>);
  }

  command(module: string, name: string): Command<unknown> {
    const command = this.#commands.get(`${module}:${name}`);
    if (command !== undefined) return command;
    if (!this.modules.some((m) => m.name === module)) throw new Error(`Module ${module} is not registered.`);
    throw new Error(`Module ${module} does not have command ${name} registered.`);
  }

  #commandContext(ctx: TransactionContext, command: Command<unknown>): CommandContext<unknown> {
    return commandContext(ctx, compile(command.schema).decode(ctx.transaction.params));
  }

  /** Every module's verifyTransaction (unless onlyCommand), then the command's params and verify. Never throws. */
  verifyTransaction(ctx: TransactionContext, onlyCommand = false): VerifyResult {
    try {
      if (!onlyCommand) {
        for (const m of this.modules) {
          const status = m.verifyTransaction?.(ctx) ?? VERIFY_STATUS.OK;
          if (status !== VERIFY_STATUS.OK) return { status };
        }
      }
      const command = this.command(ctx.transaction.module, ctx.transaction.command);
      const commandCtx = this.#commandContext(ctx, command);
      const codec: CompiledSchema<unknown> = compile(command.schema);
      codec.validate(commandCtx.params);
      command.verify?.(commandCtx);
      return { status: VERIFY_STATUS.OK };
    } catch (error) {
      return { status: VERIFY_STATUS.FAIL, error: error as Error };
    }
  }

  /**
   * Runs a verified transaction: before-hooks, the command (rolled back alone if it throws),
   * after-hooks; a throwing hook rolls the whole transaction back and makes it invalid.
   * Ends with the commandExecutionResult event.
   */
  executeTransaction(ctx: TransactionContext): ExecutionResult {
    const { state, events } = ctx;
    const eventSnapshot = events.snapshot();
    const stateSnapshot = state.snapshot();
    const invalid = (): ExecutionResult => {
      events.restoreSnapshot(eventSnapshot);
      state.restoreSnapshot(stateSnapshot);
      return EXECUTION_RESULT.INVALID;
    };
    try {
      for (const m of this.modules) m.beforeCommandExecute?.(ctx);
    } catch {
      return invalid();
    }
    let result: ExecutionResult = EXECUTION_RESULT.OK;
    const command = this.command(ctx.transaction.module, ctx.transaction.command);
    const commandEvents = events.snapshot();
    const commandState = state.snapshot();
    try {
      command.execute(this.#commandContext(ctx, command));
    } catch (error) {
      if (error instanceof StateMachinePanic) throw error;
      events.restoreSnapshot(commandEvents);
      state.restoreSnapshot(commandState);
      result = EXECUTION_RESULT.FAIL;
    }
    try {
      for (const m of this.modules) m.afterCommandExecute?.(ctx);
    } catch {
      return invalid();
    }
    events.add(
      ctx.transaction.module,
      EVENT_NAME_COMMAND_EXECUTION_RESULT,
      standardEventData.encode({ success: result === EXECUTION_RESULT.OK }),
    );
    return result;
  }

  /** Block generation: every module's asset for the new block, in module name order as a block holds them. */
  insertAssets(ctx: Omit<InsertAssetsContext, 'setAsset'>): BlockAsset[] {
    const assets: BlockAsset[] = [];
    const withAssets: InsertAssetsContext = { ...ctx, setAsset: (module, data) => assets.push({ module, data }) };
    for (const m of this.modules) m.insertAssets?.(withAssets);
    return assets.sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0));
  }

  verifyAssets(ctx: BlockContext, assets: readonly { module: string }[]): void {
    for (const { module } of assets) {
      if (!this.modules.some((m) => m.name === module)) throw new Error(`Module ${module} is not registered.`);
    }
    for (const m of this.modules) m.verifyAssets?.(ctx);
  }

  /** A received block's assets checked by the modules on `state` (before executing it, as Klayr's consensus does). */
  verifyBlockAssets(block: Pick<Block, 'header' | 'assets'>, chainID: Buffer, state: StateReadWriter): void {
    const queue = new EventQueue(block.header.height);
    const ctx = blockContext({
      block,
      chainID,
      state,
      events: queue.childQueue(EVENT_TOPIC_BEFORE_TRANSACTIONS),
      contextStore: new Map(),
    });
    this.verifyAssets(ctx, block.assets);
  }

  /**
   * Executes a block on `state` as Klayr's consensus does: before-transactions hooks, each
   * transaction (which must verify OK and not be invalid), after-transactions hooks.
   * Throws when the block is invalid; the caller then drops `state`. With `checkSignatures`, each
   * transaction's signature check is handed to the hook it returns for that transaction.
   */
  executeBlock(
    block: ExecutableBlock,
    chainID: Buffer,
    state: StateReadWriter,
    selection?: TransactionSelection,
    checkSignatures?: (tx: PreparedTransaction) => SignatureCheck,
  ): BlockExecution {
    const queue = new EventQueue(block.header.height);
    const contextStore = new Map<string, unknown>();
    const slot: NextValidatorsSlot = {};
    const stage = (topic: Buffer) =>
      blockContext({ block, chainID, state, events: queue.childQueue(topic), contextStore, nextValidators: slot });
    const verifyCtx = stage(EVENT_TOPIC_BEFORE_TRANSACTIONS);
    this.verifyAssets(verifyCtx, block.assets);
    const before = stage(EVENT_TOPIC_BEFORE_TRANSACTIONS);
    for (const m of this.modules) m.beforeTransactionsExecute?.(before);
    const results: ExecutionResult[] = [];
    const transactions: PreparedTransaction[] = [];
    if (selection === undefined) {
      for (const input of block.transactions) {
        const tx = asPrepared(input);
        results.push(this.#executeInBlock(before, queue, tx, checkSignatures?.(tx)));
        transactions.push(tx);
      }
    } else {
      let size = 0;
      for (const candidate of selection.candidates) {
        const tx = asPrepared(candidate);
        const txSize = tx.bytes.length;
        if (size + txSize > selection.maxTransactionsSize) continue;
        const snapshot = { state: state.snapshot(), events: queue.snapshot() };
        try {
          results.push(this.#executeInBlock(before, queue, tx, checkSignatures?.(tx)));
          transactions.push(tx);
          size += txSize;
        } catch (error) {
          state.restoreSnapshot(snapshot.state);
          queue.truncate(snapshot.events);
          selection.onRejected?.(tx.transaction, error as Error);
        }
      }
    }
    const after = { ...stage(EVENT_TOPIC_AFTER_TRANSACTIONS), transactions: transactions.map((p) => p.transaction) };
    for (const m of this.modules) m.afterTransactionsExecute?.(after);
    return {
      events: queue.getEvents().map((e, index) => withIndex(e, index)),
      results,
      transactions,
      ...(slot.value !== undefined ? { nextValidators: slot.value } : {}),
    };
  }

  #executeInBlock(
    base: BlockContext,
    queue: EventQueue,
    tx: PreparedTransaction,
    checkSignatures: SignatureCheck | undefined,
  ): ExecutionResult {
    const verifyCtx = transactionContext(base, tx, new EventQueue(0), checkSignatures);
    const verified = this.verifyTransaction(verifyCtx);
    if (verified.status !== VERIFY_STATUS.OK)
      throw new Error(
        `Failed to verify transaction ${verifyCtx.transactionID.toString('hex')}.${verified.error === undefined ? '' : ` ${verified.error.message}`}`,
      );
    const events = queue.childQueue(Buffer.concat([EVENT_TOPIC_TRANSACTION_EXECUTION, verifyCtx.transactionID]));
    const result = this.executeTransaction(transactionContext(base, tx, events));
    if (result === EXECUTION_RESULT.INVALID)
      throw new Error(`Failed to execute transaction ${verifyCtx.transactionID.toString('hex')}.`);
    return result;
  }
}
