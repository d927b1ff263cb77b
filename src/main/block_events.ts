import type { ExecutedBlock } from '../engine/execution/executed_block.js';
import type { Block } from '../lib/chain/block.js';
import { blockHeaderToJSON } from '../lib/chain/block.js';
import { addressToKlayr32 } from '../lib/crypto/address.js';

type Publish = (event: string, data: unknown) => void;

/** The data of Klayr Core's RPC events about one block (chain_newBlock, chain_forked, chain_deleteBlock, network_newBlock). */
export const blockHeaderEvent = (block: Block) => ({ blockHeader: blockHeaderToJSON(block.header) });

/**
 * Klayr Core's events for a committed block: when they change, the next validators (Klayr publishes
 * them while it executes the block, so before the others), then chain_newBlock and network_newBlock.
 */
export const publishBlock = (publish: Publish, { block, nextValidators }: ExecutedBlock): void => {
  if (nextValidators !== undefined) {
    publish('chain_validatorsChanged', {
      nextValidators: nextValidators.validators.map((v) => ({
        address: addressToKlayr32(v.address),
        blsKey: v.blsKey.toString('hex'),
        generatorKey: v.generatorKey.toString('hex'),
        bftWeight: v.bftWeight.toString(),
      })),
      preCommitThreshold: nextValidators.precommitThreshold.toString(),
      certificateThreshold: nextValidators.certificateThreshold.toString(),
    });
  }
  const event = blockHeaderEvent(block);
  publish('chain_newBlock', event);
  publish('network_newBlock', event);
};
