import type { Block, BlockHeader } from '../../lib/chain/block.js';
import { computeAssetRoot } from '../../lib/chain/block.js';
import { computeEventRoot, EVENT_INDEX_LENGTH_BITS, eventEncodings } from '../../lib/chain/events.js';
import type { AggregateCheck } from '../../lib/interop/aggregate_verdicts.js';
import type { PreparedTransaction, TransactionObject } from '../../lib/transaction/index.js';
import { prepareTransactions } from '../../lib/transaction/index.js';
import { merkleRoot } from '../../lib/tree/index.js';
import type { BFTModule } from '../bft/index.js';
import type { Chain } from '../chain/chain.js';
import type { EventRootComputer } from '../pools/event_root_computer.js';
import type { StateDB } from '../state/state_db.js';
import { SubStore } from '../state/substore.js';
import type { StateMachine, TransactionSelection } from '../state_machine/state_machine.js';
import { SignatureRecorder } from './deferred_signatures.js';
import type { ExecutedBlock } from './executed_block.js';

/** Klayr's MAX_EVENTS_PER_BLOCK. */
export const MAX_EVENTS_PER_BLOCK = 2 ** EVENT_INDEX_LENGTH_BITS;

/**
 * The roots only executing a block gives, which a received block's header is checked against (its transaction
 * and asset roots are checked before, from its content: validateBlock).
 */
export type BlockRoots = Pick<BlockHeader, 'stateRoot' | 'eventRoot' | 'validatorsHash'>;

/** The roots of a block's content, which a generated block's header carries beside its BlockRoots. */
export type ContentRoots = Pick<BlockHeader, 'transactionRoot' | 'assetRoot'>;

export interface BlockExecutorOptions {
  chain: Chain;
  stateDB: StateDB;
  machine: StateMachine;
  bft: BFTModule;
  chainID: Buffer;
  /** Where a deferred execution's event root is computed (in a node, the `roots` pool); on this thread when left out. */
  eventRoots?: EventRootComputer;
}

/**
 * Executes a block on top of the chain's tip on overlays (application state and engine state),
 * for the generator and for received blocks alike; nothing is written until the chain commits it.
 */
export class BlockExecutor {
  constructor(private readonly options: BlockExecutorOptions) {}

  /** The aggregate signatures the transactions' execution will verify, from the committed state (to check them ahead in the `bls` pool). */
  aggregateSignatureChecks(transactions: readonly TransactionObject[]): AggregateCheck[] {
    const { stateDB, machine, chainID } = this.options;
    const withChecks = machine.modules.filter((m) => m.transactionAggregateSignatures !== undefined);
    if (withChecks.length === 0 || transactions.length === 0) return [];
    const committed = stateDB.newOverlay();
    const view = {
      store: (storePrefix: Buffer, substorePrefix: Buffer) => new SubStore(committed, storePrefix, substorePrefix),
    };
    return transactions.flatMap((tx) =>
      withChecks.flatMap((m) => m.transactionAggregateSignatures?.(tx, view, chainID) ?? []),
    );
  }

  /** The modules' checks of a block's assets, on the committed state (nothing is written). */
  verifyAssets(block: Pick<Block, 'header' | 'assets'>): void {
    const { stateDB, machine, chainID } = this.options;
    machine.verifyBlockAssets(block, chainID, stateDB.newOverlay());
  }

  /** The modules' lifecycle the blocks run through (the generator asks it for block assets). */
  get machine(): StateMachine {
    return this.options.machine;
  }

  /**
   * BFT's vote update, the modules' hooks and transactions, the validator-set change. With
   * `selection`, the transactions are chosen while executing (generation) and the returned block
   * carries them. With `deferred` (a caller that awaits before committing), the transactions'
   * signatures are not checked here (the returned `signatureChecks` must pass before committing), and
   * the event root is started in the executor's `eventRoots`, before the state root is computed here
   * (`roots` awaits it).
   */
  execute(
    block: Block,
    selection?: TransactionSelection,
    prepared: readonly PreparedTransaction[] = prepareTransactions(block.transactions),
    deferred = false,
  ): ExecutedBlock {
    const { chain, stateDB, machine, bft, chainID, eventRoots } = this.options;
    const engine = chain.engineView();
    bft.beforeTransactionsExecute(engine, block.header, chain.maxRemovalHeight());
    const state = stateDB.newOverlay(true);
    const recorder = deferred ? new SignatureRecorder() : undefined;
    const result = machine.executeBlock(
      { header: block.header, assets: block.assets, transactions: prepared },
      chainID,
      state,
      selection,
      recorder?.hookFor,
    );
    if (result.events.length > MAX_EVENTS_PER_BLOCK)
      throw new Error(`Number of events cannot exceed ${MAX_EVENTS_PER_BLOCK} per block`);
    if (result.nextValidators !== undefined) {
      const { precommitThreshold, certificateThreshold, validators } = result.nextValidators;
      bft.method.setBFTParameters(engine, precommitThreshold, certificateThreshold, validators);
    }
    const encodedEvents = eventEncodings(result.events);
    const eventRoot = deferred ? eventRoots?.root(result.events, encodedEvents()) : undefined;
    // a block dropped before its roots are asked for (a signature failed) leaves no unhandled rejection
    eventRoot?.catch(() => undefined);
    return {
      block: { ...block, transactions: result.transactions.map((p) => p.transaction) },
      transactionIDs: result.transactions.map((p) => p.id),
      events: result.events,
      encodedEvents,
      ...(eventRoot !== undefined ? { eventRoot } : {}),
      prepared: stateDB.prepare(state),
      engine,
      ...(result.nextValidators !== undefined ? { nextValidators: result.nextValidators } : {}),
      ...(recorder !== undefined ? { signatureChecks: recorder.checksOf(result.transactions) } : {}),
    };
  }

  /** The roots a header must carry for an executed block, all computed on this thread. */
  rootsOf(executed: ExecutedBlock): BlockRoots {
    return {
      ...this.#rootsBesidesEvents(executed),
      eventRoot: computeEventRoot(executed.events, executed.encodedEvents()),
    };
  }

  /** rootsOf, with the event root a deferred execution started elsewhere, awaited after the others are computed. */
  async roots(executed: ExecutedBlock): Promise<BlockRoots> {
    const roots = this.#rootsBesidesEvents(executed);
    const eventRoot = await (executed.eventRoot ?? computeEventRoot(executed.events, executed.encodedEvents()));
    return { ...roots, eventRoot };
  }

  #rootsBesidesEvents(executed: ExecutedBlock): Omit<BlockRoots, 'eventRoot'> {
    const { height } = executed.block.header;
    return {
      stateRoot: executed.prepared.root,
      validatorsHash: this.options.bft.method.getBFTParameters(executed.engine, height + 1).validatorsHash,
    };
  }

  /** The transaction and asset roots of the block as executed (a generated block's chosen transactions). */
  contentRoots(executed: ExecutedBlock): ContentRoots {
    return {
      transactionRoot: merkleRoot(executed.transactionIDs),
      assetRoot: computeAssetRoot(executed.block.assets),
    };
  }
}
