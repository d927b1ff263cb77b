// Bad params of every interoperability command: refused by the command's schema as klayr-framework's
// validator refuses them with Klayr's schema, and good params accepted by both.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import type { CompiledSchema, Schema } from '../../src/lib/codec/index.js';
import { compile } from '../../src/lib/codec/index.js';
import {
  MainchainInteroperabilityModule,
  SidechainInteroperabilityModule,
} from '../../src/modules/interoperability/index.js';
import { klayrValidator } from '../helpers/klayr.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
const klayrSchemas = fw('modules/interoperability/schemas');

const key = (n: number) => Buffer.alloc(48, n);
const hash = (n: number) => Buffer.alloc(32, n);
const validators = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    blsKey: Buffer.concat([Buffer.from([i >> 8, i & 255]), Buffer.alloc(46)]),
    bftWeight: 1n,
  }));

const cases: Record<
  string,
  { klayr: Schema; good: Record<string, unknown>; bad: [string, Record<string, unknown>][] }
> = {
  registerSidechain: {
    klayr: klayrSchemas.sidechainRegParams,
    good: {
      chainID: Buffer.alloc(4, 1),
      name: 'side',
      sidechainValidators: validators(1),
      sidechainCertificateThreshold: 1n,
    },
    bad: [
      ['a 3-byte chain ID', { chainID: Buffer.alloc(3) }],
      ['an empty name', { name: '' }],
      ['a 33-character name', { name: 'a'.repeat(33) }],
      ['no validators', { sidechainValidators: [] }],
      ['200 validators', { sidechainValidators: validators(200) }],
      ['a 47-byte BLS key', { sidechainValidators: [{ blsKey: Buffer.alloc(47), bftWeight: 1n }] }],
    ],
  },
  registerMainchain: {
    klayr: klayrSchemas.mainchainRegParams,
    good: {
      ownChainID: Buffer.alloc(4, 1),
      ownName: 'side',
      mainchainValidators: validators(1),
      mainchainCertificateThreshold: 1n,
      signature: Buffer.alloc(96),
      aggregationBits: Buffer.alloc(1),
    },
    bad: [
      ['52 mainchain validators', { mainchainValidators: validators(52) }],
      ['a 95-byte signature', { signature: Buffer.alloc(95) }],
      ['a 5-byte own chain ID', { ownChainID: Buffer.alloc(5) }],
      ['a 33-character own name', { ownName: 'a'.repeat(33) }],
    ],
  },
  submitMainchainCrossChainUpdate: {
    klayr: klayrSchemas.crossChainUpdateTransactionParams,
    good: {
      sendingChainID: Buffer.alloc(4, 1),
      certificate: Buffer.alloc(0),
      activeValidatorsUpdate: {
        blsKeysUpdate: [key(1)],
        bftWeightsUpdate: [1n],
        bftWeightsUpdateBitmap: Buffer.alloc(1),
      },
      certificateThreshold: 1n,
      inboxUpdate: {
        crossChainMessages: [Buffer.alloc(3)],
        messageWitnessHashes: [hash(1)],
        outboxRootWitness: { bitmap: Buffer.alloc(1), siblingHashes: [hash(2)] },
      },
    },
    bad: [
      ['a 3-byte sending chain ID', { sendingChainID: Buffer.alloc(3) }],
      [
        'a 49-byte new key',
        {
          activeValidatorsUpdate: {
            blsKeysUpdate: [Buffer.alloc(49)],
            bftWeightsUpdate: [],
            bftWeightsUpdateBitmap: Buffer.alloc(0),
          },
        },
      ],
      [
        'a 31-byte witness hash',
        {
          inboxUpdate: {
            crossChainMessages: [],
            messageWitnessHashes: [Buffer.alloc(31)],
            outboxRootWitness: { bitmap: Buffer.alloc(0), siblingHashes: [] },
          },
        },
      ],
    ],
  },
  terminateSidechainForLiveness: {
    klayr: klayrSchemas.terminateSidechainForLivenessParamsSchema,
    good: { chainID: Buffer.alloc(4, 1) },
    bad: [['a 2-byte chain ID', { chainID: Buffer.alloc(2) }]],
  },
  initializeMessageRecovery: {
    klayr: klayrSchemas.messageRecoveryInitializationParamsSchema,
    good: { chainID: Buffer.alloc(4, 1), channel: Buffer.alloc(3), bitmap: Buffer.alloc(1), siblingHashes: [hash(1)] },
    bad: [['a 33-byte sibling hash', { siblingHashes: [Buffer.alloc(33)] }]],
  },
  recoverMessage: {
    klayr: klayrSchemas.messageRecoveryParamsSchema,
    good: { chainID: Buffer.alloc(4, 1), crossChainMessages: [Buffer.alloc(1)], idxs: [2], siblingHashes: [] },
    bad: [['a 1-byte chain ID', { chainID: Buffer.alloc(1) }]],
  },
  recoverState: {
    klayr: klayrSchemas.stateRecoveryParamsSchema,
    good: {
      chainID: Buffer.alloc(4, 1),
      module: 'token',
      storeEntries: [
        {
          substorePrefix: Buffer.alloc(2),
          storeKey: Buffer.alloc(28),
          storeValue: Buffer.alloc(3),
          bitmap: Buffer.alloc(1),
        },
      ],
      siblingHashes: [],
    },
    bad: [
      ['an empty module name', { module: '' }],
      [
        'a 3-byte substore prefix',
        {
          storeEntries: [
            {
              substorePrefix: Buffer.alloc(3),
              storeKey: Buffer.alloc(1),
              storeValue: Buffer.alloc(1),
              bitmap: Buffer.alloc(0),
            },
          ],
        },
      ],
    ],
  },
  initializeStateRecovery: {
    klayr: klayrSchemas.stateRecoveryInitParamsSchema,
    good: {
      chainID: Buffer.alloc(4, 1),
      sidechainAccount: Buffer.alloc(3),
      bitmap: Buffer.alloc(1),
      siblingHashes: [],
    },
    bad: [['a 4-byte sibling hash', { siblingHashes: [Buffer.alloc(4)] }]],
  },
};

const commands = [...new MainchainInteroperabilityModule().commands, ...new SidechainInteroperabilityModule().commands];
const ours = (name: string): Schema => commands.find((c) => c.name === name)!.schema;
const refusedByUs = (schema: Schema, value: unknown) => {
  try {
    const compiled: CompiledSchema<unknown> = compile(schema);
    compiled.validate(value);
    return false;
  } catch {
    return true;
  }
};
const refusedByKlayr = (schema: Schema, value: unknown) => {
  try {
    klayrValidator.validator.validate(schema, value);
    return false;
  } catch {
    return true;
  }
};

describe("interoperability command params, against klayr-framework's schemas and validator", () => {
  for (const [name, { klayr, good, bad }] of Object.entries(cases)) {
    it(`${name}: good params accepted by both`, () => {
      assert.equal(refusedByUs(ours(name), good), false);
      assert.equal(refusedByKlayr(klayr, good), false);
    });
    for (const [what, change] of bad) {
      it(`${name}: ${what} refused by both`, () => {
        const value = { ...good, ...change };
        assert.equal(refusedByKlayr(klayr, value), true, 'Klayr refuses');
        assert.equal(refusedByUs(ours(name), value), true, 'Kestrel refuses');
      });
    }
  }

  it('submitSidechainCrossChainUpdate takes the same params as submitMainchainCrossChainUpdate', () => {
    assert.deepEqual(ours('submitSidechainCrossChainUpdate'), ours('submitMainchainCrossChainUpdate'));
  });
});
/* eslint-enable @typescript-eslint/no-explicit-any */
