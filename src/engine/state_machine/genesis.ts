import type { Block } from '../../lib/chain/block.js';
import type { BlockEvent } from '../../lib/chain/events.js';
import type { StateReadWriter } from '../state/types.js';
import { blockContext } from './context.js';
import { EVENT_TOPIC_FINALIZE_GENESIS_STATE, EVENT_TOPIC_INIT_GENESIS_STATE, EventQueue } from './event_queue.js';
import type { GenesisModule, NextValidators } from './module.js';

export interface GenesisResult {
  events: BlockEvent[];
  nextValidators?: NextValidators;
}

/** Runs every module's initGenesisState, then every finalizeGenesisState, in registration order. */
export const executeGenesis = (
  modules: readonly GenesisModule[],
  block: Block,
  chainID: Buffer,
  state: StateReadWriter,
): GenesisResult => {
  const queue = new EventQueue(block.header.height);
  const shared = { block, chainID, state, contextStore: new Map<string, unknown>() };
  const init = blockContext({ ...shared, events: queue.childQueue(EVENT_TOPIC_INIT_GENESIS_STATE) });
  for (const m of modules) m.initGenesisState?.(init);
  const finalize = blockContext({
    ...shared,
    events: queue.childQueue(EVENT_TOPIC_FINALIZE_GENESIS_STATE),
    nextValidators: init.nextValidators,
  });
  for (const m of modules) m.finalizeGenesisState?.(finalize);
  const nextValidators = finalize.nextValidators.value;
  return { events: queue.getEvents(), ...(nextValidators !== undefined ? { nextValidators } : {}) };
};
