import type { Block } from '../../lib/chain/block.js';
import type { BlockEvent } from '../../lib/chain/events.js';
import type { BlockState, PreparedState } from '../state/state_db.js';
import type { NextValidators } from '../state_machine/module.js';
import type { SignatureCheckItem } from './deferred_signatures.js';

/** A block executed on overlays, with everything needed to commit it. */
export interface ExecutedBlock {
  block: Block;
  /** The block's transaction IDs, in order. */
  transactionIDs: Buffer[];
  events: BlockEvent[];
  /** The events' encodings, made once (for the event root and the event store alike). */
  encodedEvents: () => readonly Buffer[];
  /** The event root, when a deferred execution started it in the executor's `eventRoots` (BlockExecutor.roots awaits it). */
  eventRoot?: Promise<Buffer>;
  prepared: PreparedState;
  engine: BlockState;
  nextValidators?: NextValidators;
  /** With deferred signature checks: the checks of the block's transactions, still to run before the block may be committed. */
  signatureChecks?: readonly SignatureCheckItem[];
}
