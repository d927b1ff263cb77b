import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generatorEndpoints } from '../../src/engine/endpoint/generator.js';
import { createLocalBlsVerifier } from '../../src/engine/pools/bls_verifier.js';
import { createLocalOnionGenerator } from '../../src/engine/pools/onion_generator.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey, addressToKlayr32 } from '../../src/lib/crypto/address.js';
import {
  blsPopProve,
  blsPrivateKeyFromSeedAndPath,
  blsPublicKeyFromPrivateKey,
  ed25519KeyPairFromSeedAndPath,
  passphraseToSeed,
} from '../../src/lib/crypto/index.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signTransaction } from '../../src/lib/transaction/index.js';
import { openChain } from '../../src/main/chain_setup.js';
import { loadConfig } from '../../src/main/config/index.js';
import { rewardConfig } from '../../src/modules/dynamic_reward/config.js';
import { dynamicRewardEndpoints } from '../../src/modules/dynamic_reward/endpoint.js';
import { registerValidatorParamsSchema } from '../../src/modules/pos/commands/register_validator.js';
import { stakeParamsSchema } from '../../src/modules/pos/commands/stake.js';
import { HashOnionStores } from '../../src/modules/random/offchain.js';
import { hashOnionEndpoints } from '../../src/modules/random/onion_endpoint.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import { TokenMethod } from '../../src/modules/token/method.js';
import { openDatabases } from '../../src/storage/database.js';
import { devnetPassphrase, devValidators } from '../helpers/devnet.js';
import { devnetGenerator } from '../helpers/generator.js';
import { tempDataPath } from '../helpers/state.js';

const chainID = Buffer.from('04000000', 'hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
const KLY = 100000000n;
const rewardMintedSchema = {
  $id: '/reward/events/rewardMintedData',
  type: 'object',
  required: ['amount', 'reduction'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 }, reduction: { dataType: 'uint32', fieldNumber: 2 } },
} as const;

/** A validator's keys as keys:create derives them (offset 200+, chain id 4). */
const newValidator = (offset: number) => {
  const seed = passphraseToSeed(devnetPassphrase());
  const account = ed25519KeyPairFromSeedAndPath(seed, `m/44'/134'/${offset}'`);
  const generator = ed25519KeyPairFromSeedAndPath(seed, `m/25519'/134'/4'/${offset}'`);
  const blsPrivateKey = blsPrivateKeyFromSeedAndPath(seed, `m/12381/134/4/${offset}`);
  return {
    account,
    address: addressFromPublicKey(account.publicKey),
    generator,
    blsPrivateKey,
    blsKey: blsPublicKeyFromPrivateKey(blsPrivateKey),
    nonce: 0n,
  };
};

describe('validator flow (issue 7) on the devnet with rewards from height 1', () => {
  it('new validators register and self-stake, get elected, generate with their keys; with a hash onion every block is rewarded, without one a later block earns nothing', async () => {
    let now = 0;
    const config = loadConfig({ dataPath: tempDataPath() });
    config.modules.dynamicReward = { ...config.modules.dynamicReward, offset: 1 };
    const dbs = openDatabases(tempDataPath());
    const opened = openChain(config, dbs, { now: () => now });
    const { chain, events, state } = opened;
    // key registrations' proofs of possession are checked ahead in the bls verifier (the pool in a node)
    const checkedPops: string[] = [];
    const local = createLocalBlsVerifier();
    const bls = {
      ...local,
      verifyProofsOfPossession: async (items: readonly { pk: Buffer; proof: Buffer }[]) => {
        checkedPops.push(...items.map((i) => i.pk.toString('hex')));
        return local.verifyProofsOfPossession(items);
      },
    };
    const generator = devnetGenerator(opened, config, dbs.generator, () => now, {
      candidates: () => pending.splice(0),
      bls,
      proofsOfPossession: (tx) =>
        opened.executor.machine.modules.flatMap((m) => m.transactionProofsOfPossession?.(tx) ?? []),
    });
    const pending: TransactionObject[] = [];
    const funder = devValidators()[0]!;
    let funderNonce = 0n;
    const sign = (
      privateKey: Buffer,
      publicKey: Buffer,
      nonce: bigint,
      module: string,
      command: string,
      schema: Parameters<typeof codec.encode>[0],
      params: Record<string, unknown>,
      extraFee = 0n,
    ) => {
      const base = { module, command, nonce, senderPublicKey: publicKey, params: codec.encode(schema, params) };
      return signTransaction(
        { ...base, fee: computeMinFee(base, { additionalFee: extraFee }), signatures: [] },
        chainID,
        privateKey,
      );
    };
    const withOnion = newValidator(200);
    const withoutOnion = newValidator(201);
    for (const [v, stake] of [
      [withOnion, 5000n * KLY],
      [withoutOnion, 2000n * KLY],
    ] as const) {
      pending.push(
        sign(
          Buffer.from(funder.privateKey, 'hex'),
          Buffer.from(funder.publicKey, 'hex'),
          funderNonce++,
          'token',
          'transfer',
          transferParamsSchema,
          { tokenID: TOKEN_ID, amount: stake + 100n * KLY, recipientAddress: v.address, data: '' },
          5000000n,
        ),
      );
    }
    const step = async () => {
      now = chain.lastBlock().header.timestamp + config.genesis.blockTime;
      const block = await generator.tick();
      assert.ok(block, `a block at ${now}`);
      return block;
    };
    await step();
    for (const v of [withOnion, withoutOnion]) {
      pending.push(
        sign(
          v.account.privateKey,
          v.account.publicKey,
          v.nonce++,
          'pos',
          'registerValidator',
          registerValidatorParamsSchema,
          {
            name: `kestrel_${v.address.toString('hex').slice(0, 6)}`,
            blsKey: v.blsKey,
            proofOfPossession: blsPopProve(v.blsPrivateKey),
            generatorKey: v.generator.publicKey,
          },
          1000000000n,
        ),
      );
    }
    await step();
    assert.deepEqual(checkedPops, [withOnion.blsKey.toString('hex'), withoutOnion.blsKey.toString('hex')]);
    pending.push(
      sign(
        withOnion.account.privateKey,
        withOnion.account.publicKey,
        withOnion.nonce++,
        'pos',
        'stake',
        stakeParamsSchema,
        { stakes: [{ validatorAddress: withOnion.address, amount: 5000n * KLY }] },
      ),
    );
    pending.push(
      sign(
        withoutOnion.account.privateKey,
        withoutOnion.account.publicKey,
        withoutOnion.nonce++,
        'pos',
        'stake',
        stakeParamsSchema,
        { stakes: [{ validatorAddress: withoutOnion.address, amount: 2000n * KLY }] },
      ),
    );
    await step();

    // the operator's side, through the same endpoints RPC serves: keys, onion, status, enable
    const generatorAPI = generatorEndpoints({
      chain,
      generator,
      db: dbs.generator,
      blockTime: config.genesis.blockTime,
      genesisHeight: 0,
    });
    const call = async (
      endpoints: Record<string, { handler: (ctx: { params: Record<string, unknown>; transport: 'ipc' }) => unknown }>,
      name: string,
      params: Record<string, unknown>,
    ) => endpoints[name]!.handler({ params, transport: 'ipc' });
    const onionAPI = hashOnionEndpoints(new HashOnionStores(dbs.generator), createLocalOnionGenerator());
    for (const v of [withOnion, withoutOnion]) {
      const address = addressToKlayr32(v.address);
      await call(generatorAPI, 'setKeys', {
        address,
        type: 'plain',
        data: {
          generatorKey: v.generator.publicKey.toString('hex'),
          generatorPrivateKey: v.generator.privateKey.toString('hex'),
          blsKey: v.blsKey.toString('hex'),
          blsPrivateKey: v.blsPrivateKey.toString('hex'),
        },
      });
      if (v === withOnion) await call(onionAPI, 'setHashOnion', { address, count: 1000, distance: 100 });
      await call(generatorAPI, 'setStatus', { address, height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 });
      assert.deepEqual(
        await call(generatorAPI, 'updateStatus', {
          address,
          password: '',
          enable: true,
          height: 0,
          maxHeightGenerated: 0,
          maxHeightPrevoted: 0,
        }),
        { address, enabled: true },
      );
    }

    const token = new TokenMethod({
      ownChainID: chainID,
      userAccountInitializationFee: 5000000n,
      escrowAccountInitializationFee: 5000000n,
    });
    const balance = (address: Buffer) =>
      token.getAvailableBalance({ store: (p, s) => new SubStore(state.newOverlay(), p, s) }, address, TOKEN_ID);
    const generated = new Map<
      string,
      { height: number; amount: bigint; reduction: number; gain: bigint; expected: bigint }[]
    >();
    const rewardAPI = dynamicRewardEndpoints(
      () => ({ store: (p: Buffer, s: Buffer) => new SubStore(state.newOverlay(), p, s) }),
      rewardConfig(chainID, config.modules.dynamicReward),
      {
        blockTime: config.genesis.blockTime,
        roundLength: 53,
        height: () => chain.lastBlock().header.height + 1,
      },
    );
    while (chain.lastBlock().header.height < 320) {
      const address = chain.bft.getGeneratorAtTimestamp(
        chain.engineView(),
        chain.lastBlock().header.height + 1,
        chain.lastBlock().header.timestamp + config.genesis.blockTime,
      ).address;
      const before = balance(address);
      const expected = (await call(rewardAPI, 'getExpectedValidatorRewards', {
        validatorAddress: addressToKlayr32(address),
      })) as { blockReward: string };
      const block = await step();
      const minted = events.at(block.header.height).find((e) => e.name === 'rewardMinted')!;
      const { amount, reduction } = codec.decode<{ amount: bigint; reduction: number }>(
        rewardMintedSchema,
        minted.data,
      );
      for (const v of [withOnion, withoutOnion]) {
        if (!block.header.generatorAddress.equals(v.address)) continue;
        const list = generated.get(v.address.toString('hex')) ?? [];
        list.push({
          height: block.header.height,
          amount,
          reduction,
          gain: balance(v.address) - before,
          expected: BigInt(expected.blockReward),
        });
        generated.set(v.address.toString('hex'), list);
      }
    }
    const onionBlocks = generated.get(withOnion.address.toString('hex')) ?? [];
    const plainBlocks = generated.get(withoutOnion.address.toString('hex')) ?? [];
    assert.ok(onionBlocks.length >= 2, `the validator with an onion generated ${onionBlocks.length} blocks`);
    for (const b of onionBlocks) {
      assert.equal(b.reduction, 0, `valid seed reveal at ${b.height}`);
      assert.ok(b.amount > 0n && b.gain === b.amount, `its reward is credited at ${b.height}`);
      assert.equal(
        b.amount,
        b.expected,
        `dynamicReward_getExpectedValidatorRewards predicted the reward at ${b.height}`,
      );
    }
    assert.ok(plainBlocks.length >= 2, `the validator without an onion generated ${plainBlocks.length} blocks`);
    assert.equal(plainBlocks[0]!.reduction, 0, 'a first reveal needs no previous one');
    for (const b of plainBlocks.slice(1)) {
      assert.equal(b.reduction, 1, `invalid seed reveal at ${b.height}`);
      assert.equal(b.amount, 0n);
      assert.equal(b.gain, 0n, 'it earns nothing');
    }
  });
});
