import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { ExecutedBlock } from '../../src/engine/execution/executed_block.js';
import { blockHeaderToJSON, decodeBlock } from '../../src/lib/chain/block.js';
import { klayr32ToAddress } from '../../src/lib/crypto/address.js';
import { publishBlock } from '../../src/main/block_events.js';
import { devnetFile, devValidators } from '../helpers/devnet.js';

describe("a committed block's RPC events", () => {
  const block = decodeBlock(readFileSync(devnetFile('genesis_block.blob')));
  const published = (executed: Partial<ExecutedBlock>): { event: string; data: unknown }[] => {
    const out: { event: string; data: unknown }[] = [];
    publishBlock((event, data) => out.push({ event, data }), { block, ...executed } as ExecutedBlock);
    return out;
  };

  it('chain_validatorsChanged first, as Klayr Core publishes it while executing the block, then chain_newBlock and network_newBlock', () => {
    const validator = devValidators()[0]!;
    const events = published({
      nextValidators: {
        validators: [
          {
            address: klayr32ToAddress(validator.address),
            bftWeight: 1n,
            blsKey: Buffer.from(validator.plain.blsKey, 'hex'),
            generatorKey: Buffer.from(validator.plain.generatorKey, 'hex'),
          },
        ],
        precommitThreshold: 1n,
        certificateThreshold: 1n,
      },
    });
    assert.deepEqual(
      events.map((e) => e.event),
      ['chain_validatorsChanged', 'chain_newBlock', 'network_newBlock'],
    );
    assert.equal(
      JSON.stringify(events[0]!.data),
      JSON.stringify({
        nextValidators: [
          {
            address: validator.address,
            blsKey: validator.plain.blsKey,
            generatorKey: validator.plain.generatorKey,
            bftWeight: '1',
          },
        ],
        preCommitThreshold: '1',
        certificateThreshold: '1',
      }),
    );
    assert.deepEqual(events[1]!.data, { blockHeader: blockHeaderToJSON(block.header) });
    assert.deepEqual(
      published({}).map((e) => e.event),
      ['chain_newBlock', 'network_newBlock'],
    );
  });
});
