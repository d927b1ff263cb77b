import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeBlock } from '../../src/lib/chain/block.js';
import { computeEventRoot } from '../../src/lib/chain/events.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import type { Schema } from '../../src/lib/codec/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix, stateSMTKey, stateSMTValue } from '../../src/lib/state/keys.js';
import { EMPTY_HASH, InMemorySMTStore, SparseMerkleTree } from '../../src/lib/tree/index.js';
import { devnetFile } from '../helpers/devnet.js';
import { klayrDevnetGenesis } from '../helpers/genesis_compare.js';

// Klayr Core's own `legacy` module (not in klayr-framework): the genesis asset's accounts are stored
// under store index 0, keyed by the 8-byte legacy address, value { balance }.
const legacyGenesisSchema = {
  $id: '/legacy/module/genesis',
  type: 'object',
  required: ['accounts'],
  properties: {
    accounts: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['address', 'balance'],
        properties: {
          address: { dataType: 'bytes', minLength: 8, maxLength: 8, fieldNumber: 1 },
          balance: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
  },
} as const satisfies Schema;
const legacyAccountSchema = {
  $id: '/legacy/store/genesis',
  type: 'object',
  required: ['balance'],
  properties: { balance: { dataType: 'uint64', fieldNumber: 1 } },
} as const satisfies Schema;

describe("devnet genesis roots from Klayr's own modules (oracle for the chain engine)", () => {
  const block = decodeBlock(readFileSync(devnetFile('genesis_block.blob')));

  it("Kestrel's state tree over the genesis state of klayr-framework's modules and Klayr Core's legacy store reproduces the header stateRoot", async () => {
    const klayr = await klayrDevnetGenesis();
    const { accounts } = codec.decode<{ accounts: { address: Buffer; balance: bigint }[] }>(
      legacyGenesisSchema,
      block.assets.find((a) => a.module === 'legacy')!.data,
    );
    const legacy = accounts.map((a) => ({
      key: Buffer.concat([computeStorePrefix('legacy'), computeSubstorePrefix(0), a.address]),
      value: codec.encode(legacyAccountSchema, { balance: a.balance }),
    }));
    const entries = [...klayr.entries, ...legacy];
    const tree = new SparseMerkleTree(38, new InMemorySMTStore());
    const root = tree.update(
      EMPTY_HASH,
      entries.map((e) => ({ key: stateSMTKey(e.key), value: stateSMTValue(e.value) })),
    ).root;
    assert.equal(root.toString('hex'), block.header.stateRoot.toString('hex'));
    // without the legacy module's store the root differs: the legacy asset does belong to a module
    const withoutLegacy = new SparseMerkleTree(38, new InMemorySMTStore()).update(
      EMPTY_HASH,
      klayr.entries.map((e) => ({ key: stateSMTKey(e.key), value: stateSMTValue(e.value) })),
    ).root;
    assert.notEqual(withoutLegacy.toString('hex'), block.header.stateRoot.toString('hex'));
  });

  it("Kestrel's event root over Klayr's genesis events reproduces the header eventRoot, and the validators hash the header validatorsHash", async () => {
    const klayr = await klayrDevnetGenesis();
    assert.equal(klayr.events.length, 206);
    assert.equal(computeEventRoot(klayr.events).toString('hex'), block.header.eventRoot.toString('hex'));
    assert.equal(
      computeValidatorsHash(klayr.nextValidators, klayr.certificateThreshold).toString('hex'),
      block.header.validatorsHash.toString('hex'),
    );
  });
});
