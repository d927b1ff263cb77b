import type { Block } from '../../lib/chain/block.js';
import type { BlockEvent } from '../../lib/chain/events.js';
import type { PreparedTransaction, TransactionObject } from '../../lib/transaction/index.js';
import { asPrepared } from '../../lib/transaction/index.js';
import type { Chain } from '../chain/chain.js';
import type { StateDB } from '../state/state_db.js';
import { blockContext, transactionContext } from '../state_machine/context.js';
import { EventQueue } from '../state_machine/event_queue.js';
import type { SignatureCheck } from '../state_machine/module.js';
import type { ExecutionResult, StateMachine, VerifyResult } from '../state_machine/state_machine.js';
import { EVENT_TOPIC_TRANSACTION_EXECUTION } from '../state_machine/state_machine.js';

export interface TransactionVerifierOptions {
  chain: Chain;
  stateDB: StateDB;
  machine: StateMachine;
  chainID: Buffer;
}

/**
 * Single transactions against committed state with the tip's header, as Klayr's pool and
 * endpoints take them: verified, or executed on a throw-away overlay (dry run).
 */
export class TransactionVerifier {
  constructor(private readonly options: TransactionVerifierOptions) {}

  /** The block whose header transactions are verified with: the chain's tip. */
  tip(): Block {
    return this.options.chain.lastBlock();
  }

  /** With `checkSignatures`, the signature check is handed to it. */
  verify(
    tx: TransactionObject | PreparedTransaction,
    onlyCommand = false,
    checkSignatures?: SignatureCheck,
  ): VerifyResult {
    return this.options.machine.verifyTransaction(
      this.#context(asPrepared(tx), new EventQueue(0), checkSignatures),
      onlyCommand,
    );
  }

  /** The result and the events the transaction would emit; nothing is written. */
  dryRun(input: TransactionObject | PreparedTransaction): { result: ExecutionResult; events: BlockEvent[] } {
    const tx = asPrepared(input);
    const queue = new EventQueue(this.tip().header.height);
    const ctx = this.#context(tx, queue.childQueue(Buffer.concat([EVENT_TOPIC_TRANSACTION_EXECUTION, tx.id])));
    const result = this.options.machine.executeTransaction(ctx);
    return { result, events: queue.getEvents() };
  }

  #context(tx: PreparedTransaction, events: EventQueue, checkSignatures?: SignatureCheck) {
    const { stateDB, chainID } = this.options;
    const tip = this.tip();
    const state = stateDB.newOverlay();
    const base = blockContext({ block: tip, chainID, state, events, contextStore: new Map() });
    return transactionContext(base, tx, events, checkSignatures);
  }
}
