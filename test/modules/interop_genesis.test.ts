import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import type { Block } from '../../src/lib/chain/block.js';
import { encodeBlock } from '../../src/lib/chain/block.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { codec } from '../../src/lib/codec/index.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { computeStorePrefix } from '../../src/lib/state/keys.js';
import { EMPTY_HASH } from '../../src/lib/tree/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { devValidators } from '../helpers/devnet.js';
import { devnetChainID, devnetGenesis } from '../helpers/genesis_compare.js';
import { runKlayrGenesis } from '../helpers/klayr_genesis.js';

const LEGACY = computeStorePrefix('legacy').toString('hex');
const withAssets = (block: Block, assets: Record<string, Buffer>): Block => ({
  ...block,
  assets: block.assets.map((a) => (assets[a.module] !== undefined ? { ...a, data: assets[a.module]! } : a)),
});

/** The devnet genesis with registered sidechains: one active (with its escrow account) and one terminated. */
const withSidechains = (mutate: (g: Record<string, unknown>) => void = () => undefined): Block => {
  const block = devnetGenesis();
  const blsKeys = devValidators()
    .slice(0, 4)
    .map((v) => Buffer.from(v.plain.blsKey, 'hex'))
    .sort(Buffer.compare);
  const activeValidators = blsKeys.map((blsKey) => ({ blsKey, bftWeight: 10n }));
  const certificateThreshold = 30n;
  const box = { appendPath: [], size: 0, root: EMPTY_HASH };
  const chainInfo = (chainID: string, name: string, status: number) => ({
    chainID: Buffer.from(chainID, 'hex'),
    chainData: {
      name,
      lastCertificate: {
        height: 10,
        timestamp: block.header.timestamp - 100,
        stateRoot: sha256(Buffer.from(name)),
        validatorsHash: computeValidatorsHash(activeValidators, certificateThreshold),
      },
      status,
    },
    channelData: {
      inbox: box,
      outbox: { ...box, size: 2, root: sha256(Buffer.from('outbox')) },
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: Buffer.from('0400000000000000', 'hex'),
      minReturnFeePerByte: 1000n,
    },
    chainValidators: { activeValidators, certificateThreshold },
  });
  const interop: Record<string, unknown> = {
    ownChainName: 'klayr_mainchain',
    ownChainNonce: 7n,
    chainInfos: [chainInfo('04000001', 'sidechain_one', 1), chainInfo('04000002', 'sidechain_two', 2)],
    terminatedStateAccounts: [
      {
        chainID: Buffer.from('04000002', 'hex'),
        terminatedStateAccount: {
          stateRoot: sha256(Buffer.from('sidechain_two')),
          mainchainStateRoot: EMPTY_HASH,
          initialized: true,
        },
      },
    ],
    terminatedOutboxAccounts: [
      {
        chainID: Buffer.from('04000002', 'hex'),
        terminatedOutboxAccount: {
          outboxRoot: sha256(Buffer.from('terminated')),
          outboxSize: 3,
          partnerChainInboxSize: 1,
        },
      },
    ],
  };
  mutate(interop);
  const token = codec.decode<GenesisTokenStore>(
    genesisTokenStoreSchema,
    block.assets.find((a) => a.module === 'token')!.data,
  );
  token.escrowSubstore = [
    { escrowChainID: Buffer.from('04000001', 'hex'), tokenID: Buffer.from('0400000000000000', 'hex'), amount: 0n },
    { escrowChainID: Buffer.from('04000002', 'hex'), tokenID: Buffer.from('0400000000000000', 'hex'), amount: 0n },
  ];
  return withAssets(block, {
    interoperability: codec.encode(genesisInteroperabilitySchema, interop),
    token: codec.encode(genesisTokenStoreSchema, token),
  });
};

describe('interoperability genesis with registered sidechains against klayr-framework', () => {
  it('active and terminated sidechains: every state entry and event equal', async () => {
    const block = withSidechains();
    const state = new BlockState(EMPTY_STATE);
    const ours = executeGenesis(applicationModules(loadConfig()), block, devnetChainID, state);
    const klayr = await runKlayrGenesis(encodeBlock(block));
    const mine = new Map(
      state.overlay
        .changes()
        .filter((c) => c.value !== undefined && !c.key.subarray(0, 4).toString('hex').startsWith(LEGACY))
        .map((c) => [c.key.toString('hex'), c.value!.toString('hex')]),
    );
    const theirs = new Map(klayr.entries.map((e) => [e.key.toString('hex'), e.value.toString('hex')]));
    assert.deepEqual(mine, theirs);
    const interopKeys = [...mine.keys()].filter((k) => k.startsWith('83ed0d25'));
    assert.ok(interopKeys.length >= 10, `interoperability entries: ${interopKeys.length}`);
    assert.equal(ours.events.length, klayr.events.length);
  });

  it('refuses what Klayr refuses, with its message', async () => {
    const cases: [string, (g: Record<string, unknown>) => void, RegExp][] = [
      ['nonce 0 with chains', (g) => (g.ownChainNonce = 0n), /ownChainNonce must be positive/],
      [
        'unordered chains',
        (g) => (g.chainInfos = [...(g.chainInfos as unknown[])].reverse()),
        /not ordered lexicographically/,
      ],
      [
        'terminated without state account',
        (g) => (g.terminatedStateAccounts = []),
        /corresponding entry in terminatedStateAccounts/,
      ],
      [
        'wrong threshold',
        (g) =>
          ((
            g.chainInfos as { chainValidators: { certificateThreshold: bigint } }[]
          )[0]!.chainValidators.certificateThreshold = 1000n),
        /Invalid certificateThreshold/,
      ],
      [
        'mainchain ID',
        (g) => ((g.chainInfos as { chainID: Buffer }[])[0]!.chainID = Buffer.from('04000000', 'hex')),
        /must not be equal to 04000000/,
      ],
    ];
    for (const [name, mutate, pattern] of cases) {
      const block = withSidechains(mutate);
      assert.throws(
        () => executeGenesis(applicationModules(loadConfig()), block, devnetChainID, new BlockState(EMPTY_STATE)),
        pattern,
        name,
      );
      await assert.rejects(() => runKlayrGenesis(encodeBlock(block)), pattern, `klayr: ${name}`);
    }
  });
});
