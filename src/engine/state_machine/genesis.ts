import type { Block } from '../../lib/chain/block.js';
import type { BlockEvent } from '../../lib/chain/events.js';
import { SubStore } from '../state/substore.js';
import type { StateReadWriter } from '../state/types.js';
import { EVENT_TOPIC_FINALIZE_GENESIS_STATE, EVENT_TOPIC_INIT_GENESIS_STATE, EventQueue } from './event_queue.js';
import { assetsOf } from './module.js';
import type { GenesisContext, GenesisModule, NextValidators } from './module.js';

export interface GenesisResult {
  events: BlockEvent[];
  nextValidators?: NextValidators;
}

/** Runs every module's initGenesisState, then every finalizeGenesisState, in registration order. */
export const executeGenesis = (modules: readonly GenesisModule[], block: Block, chainID: Buffer, state: StateReadWriter): GenesisResult => {
  const queue = new EventQueue(block.header.height);
  let nextValidators: NextValidators | undefined;
  const context = (events: EventQueue): GenesisContext => ({
    header: block.header,
    chainID,
    state,
    events,
    asset: assetsOf(block.assets),
    store: (storePrefix, substorePrefix) => new SubStore(state, storePrefix, substorePrefix),
    setNextValidators: (next) => {
      nextValidators = next;
    },
  });
  const init = context(queue.childQueue(EVENT_TOPIC_INIT_GENESIS_STATE));
  for (const m of modules) m.initGenesisState?.(init);
  const finalize = context(queue.childQueue(EVENT_TOPIC_FINALIZE_GENESIS_STATE));
  for (const m of modules) m.finalizeGenesisState?.(finalize);
  return { events: queue.getEvents(), ...(nextValidators !== undefined ? { nextValidators } : {}) };
};
