import type { Block } from '../lib/chain/block.js';
import { validateGenesisBlock } from '../lib/chain/block.js';
import { computeEventRoot } from '../lib/chain/events.js';
import type { BlockEvent } from '../lib/chain/events.js';
import { computeValidatorsHash } from '../lib/chain/validators_hash.js';
import { stateSMTKey, stateSMTValue } from '../lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../lib/tree/index.js';
import { BlockState } from './state/state_db.js';
import type { StateBase } from './state/state_db.js';
import { executeGenesis } from './state_machine/genesis.js';
import type { GenesisModule, NextValidators } from './state_machine/module.js';

export interface ProcessedGenesis {
  state: BlockState;
  events: BlockEvent[];
  nextValidators: NextValidators;
  stateRoot: Buffer;
  eventRoot: Buffer;
  validatorsHash: Buffer;
}

/**
 * Processes a genesis block: Klayr's genesis rules (asset root included), every module's
 * genesis, then the header's stateRoot, eventRoot and validatorsHash must equal what the
 * modules produced; the first root that does not is named in the error.
 */
export const processGenesisBlock = (block: Block, chainID: Buffer, modules: readonly GenesisModule[], base: StateBase): ProcessedGenesis => {
  validateGenesisBlock(block);
  const state = new BlockState(base);
  const { events, nextValidators } = executeGenesis(modules, block, chainID, state);
  if (nextValidators === undefined) throw new Error('Genesis block processing did not set the initial validators (is the pos asset missing?)');
  const changes = state.overlay.changes();
  const stateRoot = new SparseMerkleTree(38, new InMemorySMTStore()).update(
    EMPTY_HASH,
    changes.filter((c) => c.value !== undefined).map((c) => ({ key: stateSMTKey(c.key), value: stateSMTValue(c.value!) })),
  ).root;
  const eventRoot = computeEventRoot(events);
  const validatorsHash = computeValidatorsHash(nextValidators.validators, nextValidators.certificateThreshold);
  const checks: [string, Buffer, Buffer][] = [
    ['stateRoot', stateRoot, block.header.stateRoot],
    ['eventRoot', eventRoot, block.header.eventRoot],
    ['validatorsHash', validatorsHash, block.header.validatorsHash],
  ];
  for (const [name, computed, header] of checks) {
    if (!computed.equals(header)) throw new Error(`Genesis block ${name} mismatch: the header has ${header.toString('hex')}, processing the block gives ${computed.toString('hex')}`);
  }
  return { state, events, nextValidators, stateRoot, eventRoot, validatorsHash };
};
