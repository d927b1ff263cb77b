import type { ExecutedBlock } from '../engine/execution/executed_block.js';
import { blockHeaderToJSON } from '../lib/chain/block.js';
import { addressToKlayr32 } from '../lib/crypto/address.js';

type Publish = (event: string, data: unknown) => void;

/** Klayr Core's events for a committed block: chain_newBlock, network_newBlock and, when they change, the next validators. */
export const publishBlock = (publish: Publish, { block, nextValidators }: ExecutedBlock): void => {
  const header = blockHeaderToJSON(block.header);
  publish('chain_newBlock', { blockHeader: header });
  publish('network_newBlock', { blockHeader: header });
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
};
