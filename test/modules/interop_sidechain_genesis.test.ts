import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { blockContext } from '../../src/engine/state_machine/context.js';
import { EventQueue } from '../../src/engine/state_machine/event_queue.js';
import type { Block } from '../../src/lib/chain/block.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { codec } from '../../src/lib/codec/index.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { EMPTY_HASH } from '../../src/lib/tree/index.js';
import { SidechainInteroperabilityModule } from '../../src/modules/interoperability/index.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import '../helpers/klayr.js';
import { blsValidators } from '../helpers/interop_fixture.js';
import { MemoryStateReadWriter } from '../helpers/klayr_genesis.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);

const CHAIN_ID = Buffer.from('04000001', 'hex');
const TIMESTAMP = 1_700_000_000;
const validators = blsValidators(3, 61).map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight }));
const box = { appendPath: [] as Buffer[], size: 0, root: EMPTY_HASH };

const validAsset = (): Record<string, any> => ({
  ownChainName: 'sidechain_one',
  ownChainNonce: 3n,
  chainInfos: [
    {
      chainID: Buffer.from('04000000', 'hex'),
      chainData: {
        name: 'klayr_mainchain',
        lastCertificate: {
          height: 10,
          timestamp: TIMESTAMP - 100,
          stateRoot: sha256(Buffer.from('m')),
          validatorsHash: computeValidatorsHash(validators, 21n),
        },
        status: 1,
      },
      channelData: {
        inbox: box,
        outbox: { ...box, size: 1, root: sha256(Buffer.from('o')) },
        partnerChainOutboxRoot: EMPTY_HASH,
        messageFeeTokenID: Buffer.from('0400000000000000', 'hex'),
        minReturnFeePerByte: 1000n,
      },
      chainValidators: { activeValidators: validators, certificateThreshold: 21n },
    },
  ],
  terminatedStateAccounts: [
    {
      chainID: Buffer.from('04000005', 'hex'),
      terminatedStateAccount: {
        stateRoot: EMPTY_HASH,
        mainchainStateRoot: sha256(Buffer.from('x')),
        initialized: false,
      },
    },
    {
      chainID: Buffer.from('04000006', 'hex'),
      terminatedStateAccount: {
        stateRoot: sha256(Buffer.from('y')),
        mainchainStateRoot: EMPTY_HASH,
        initialized: true,
      },
    },
  ],
  terminatedOutboxAccounts: [],
});

const emptyAsset = (): Record<string, any> => ({
  ownChainName: '',
  ownChainNonce: 0n,
  chainInfos: [],
  terminatedStateAccounts: [],
  terminatedOutboxAccounts: [],
});

/** Kestrel's sidechain genesis: the state entries written, or the error. */
const ours = (asset: Buffer): Map<string, string> => {
  const state = new BlockState(EMPTY_STATE);
  const ctx = blockContext({
    block: {
      header: { height: 0, timestamp: TIMESTAMP } as Block['header'],
      assets: [{ module: 'interoperability', data: asset }],
    },
    chainID: CHAIN_ID,
    state,
    events: new EventQueue(0),
    contextStore: new Map(),
  });
  new SidechainInteroperabilityModule().initGenesisState(ctx);
  return new Map(
    state.overlay
      .changes()
      .filter((c) => c.value !== undefined)
      .map((c) => [c.key.toString('hex'), c.value!.toString('hex')]),
  );
};

/** klayr-framework's SidechainInteroperabilityModule.initGenesisState over a memory store. */
const theirs = async (asset: Buffer): Promise<Map<string, string>> => {
  const { PrefixedStateReadWriter } = fw('state_machine/prefixed_state_read_writer');
  const store = new MemoryStateReadWriter();
  const prefixed = new PrefixedStateReadWriter(store);
  const module = new (fw('modules/interoperability').SidechainInteroperabilityModule)();
  await module.initGenesisState({
    assets: { getAsset: () => asset },
    chainID: CHAIN_ID,
    header: { height: 0, timestamp: TIMESTAMP },
    getStore: (p: Buffer, sp: Buffer) => prefixed.getStore(p, sp),
    getMethodContext: () => ({ getStore: (p: Buffer, sp: Buffer) => prefixed.getStore(p, sp) }),
  });
  return new Map([...(store as any).data].map(([k, v]: [string, Buffer]) => [k, v.toString('hex')]));
};

const outcome = async <T>(run: () => T | Promise<T>): Promise<{ ok: T } | { error: string }> => {
  try {
    return { ok: await run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

const encode = (asset: Record<string, any>) => codec.encode(genesisInteroperabilitySchema, asset);

describe('sidechain interoperability genesis against klayr-framework', () => {
  it('the mainchain account with terminated state accounts: the same state entries', async () => {
    const asset = encode(validAsset());
    const mine = ours(asset);
    assert.ok(mine.size > 0);
    assert.deepEqual(mine, await theirs(asset));
  });

  it('an empty asset: nothing stored, on both', async () => {
    const asset = encode(emptyAsset());
    assert.deepEqual(ours(asset), await theirs(asset));
  });

  const mutations: [string, (a: Record<string, any>) => void][] = [
    ['an own name with chainInfos empty', (a) => Object.assign(a, { ...emptyAsset(), ownChainName: 'x' })],
    ['a nonce with chainInfos empty', (a) => Object.assign(a, { ...emptyAsset(), ownChainNonce: 1n })],
    [
      'terminated state accounts with chainInfos empty',
      (a) => Object.assign(a, { ...emptyAsset(), terminatedStateAccounts: validAsset().terminatedStateAccounts }),
    ],
    ['an invalid own name', (a) => (a.ownChainName = 'Side')],
    ["the mainchain's name as its own", (a) => (a.ownChainName = 'klayr_mainchain')],
    ['nonce 0', (a) => (a.ownChainNonce = 0n)],
    ['two chainInfos', (a) => a.chainInfos.push({ ...a.chainInfos[0], chainID: Buffer.from('04000003', 'hex') })],
    ['a chainInfo that is not the mainchain', (a) => (a.chainInfos[0].chainID = Buffer.from('04000003', 'hex'))],
    ['a mainchain of another name', (a) => (a.chainInfos[0].chainData.name = 'mainchain')],
    ['a terminated mainchain', (a) => (a.chainInfos[0].chainData.status = 2)],
    [
      'a certificate not older than the block',
      (a) => (a.chainInfos[0].chainData.lastCertificate.timestamp = TIMESTAMP),
    ],
    [
      'another message fee token',
      (a) => (a.chainInfos[0].channelData.messageFeeTokenID = Buffer.from('0400000100000000', 'hex')),
    ],
    ['another minimum return fee', (a) => (a.chainInfos[0].channelData.minReturnFeePerByte = 999n)],
    ['unordered validators', (a) => a.chainInfos[0].chainValidators.activeValidators.reverse()],
    ['a zero weight', (a) => (a.chainInfos[0].chainValidators.activeValidators[0].bftWeight = 0n)],
    ['a threshold too high', (a) => (a.chainInfos[0].chainValidators.certificateThreshold = 31n)],
    [
      'a validators hash that does not match',
      (a) => (a.chainInfos[0].chainData.lastCertificate.validatorsHash = EMPTY_HASH),
    ],
    ['unordered terminated state accounts', (a) => a.terminatedStateAccounts.reverse()],
    [
      'a terminated state account for the mainchain',
      (a) => (a.terminatedStateAccounts[0].chainID = Buffer.from('04000000', 'hex')),
    ],
    [
      'a terminated state account of another network',
      (a) => (a.terminatedStateAccounts[0].chainID = Buffer.from('03000005', 'hex')),
    ],
    ['a terminated state account for itself', (a) => (a.terminatedStateAccounts[0].chainID = CHAIN_ID)],
    [
      'an initialized account without state root',
      (a) => (a.terminatedStateAccounts[1].terminatedStateAccount.stateRoot = EMPTY_HASH),
    ],
    [
      'an initialized account with a mainchain state root',
      (a) => (a.terminatedStateAccounts[1].terminatedStateAccount.mainchainStateRoot = sha256(Buffer.from('z'))),
    ],
    [
      'an uninitialized account with a state root',
      (a) => (a.terminatedStateAccounts[0].terminatedStateAccount.stateRoot = sha256(Buffer.from('z'))),
    ],
    [
      'an uninitialized account without mainchain state root',
      (a) => (a.terminatedStateAccounts[0].terminatedStateAccount.mainchainStateRoot = EMPTY_HASH),
    ],
    [
      'a terminated outbox account',
      (a) =>
        a.terminatedOutboxAccounts.push({
          chainID: Buffer.from('04000005', 'hex'),
          terminatedOutboxAccount: { outboxRoot: EMPTY_HASH, outboxSize: 1, partnerChainInboxSize: 0 },
        }),
    ],
  ];
  for (const [what, mutate] of mutations) {
    it(`refuses ${what}, with Klayr's message`, async () => {
      const asset = validAsset();
      mutate(asset);
      const bytes = encode(asset);
      const mine = await outcome(() => ours(bytes));
      const klayr = await outcome(() => theirs(bytes));
      assert.ok('error' in klayr, `Klayr refuses ${what}`);
      assert.deepEqual(mine, klayr);
    });
  }
});
/* eslint-enable @typescript-eslint/no-explicit-any */
