import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import { executeGenesis } from '../../src/engine/state_machine/genesis.js';
import { StateMachine } from '../../src/engine/state_machine/state_machine.js';
import type { Block, BlockHeader } from '../../src/lib/chain/block.js';
import { encodeBlockHeader, signBlockHeader } from '../../src/lib/chain/block.js';
import type { Schema } from '../../src/lib/codec/index.js';
import { codec } from '../../src/lib/codec/index.js';
import { addressFromPublicKey } from '../../src/lib/crypto/address.js';
import { blsKeyGen, blsPopProve, blsPublicKeyFromPrivateKey } from '../../src/lib/crypto/bls.js';
import { signData } from '../../src/lib/crypto/ed25519.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { keyPairFromSeed } from '../../src/lib/crypto/index.js';
import { MESSAGE_TAG_MULTISIG_REG } from '../../src/lib/crypto/tags.js';
import { computeStorePrefix } from '../../src/lib/state/keys.js';
import type { TransactionObject } from '../../src/lib/transaction/index.js';
import { computeMinFee, signMultiSignatureTransaction, signTransaction } from '../../src/lib/transaction/index.js';
import { loadConfig } from '../../src/main/config/index.js';
import { applicationModules } from '../../src/main/modules.js';
import { registerMultisignatureParamsSchema } from '../../src/modules/auth/commands/register_multisignature.js';
import { multisigRegMsgSchema } from '../../src/modules/auth/schemas.js';
import { changeCommissionParamsSchema } from '../../src/modules/pos/commands/change_commission.js';
import { registerValidatorParamsSchema } from '../../src/modules/pos/commands/register_validator.js';
import { reportMisbehaviorParamsSchema } from '../../src/modules/pos/commands/report_misbehavior.js';
import { stakeParamsSchema } from '../../src/modules/pos/commands/stake.js';
import { emptyParamsSchema, updateGeneratorKeyParamsSchema } from '../../src/modules/pos/commands/staker_commands.js';
import { randomAssetSchema } from '../../src/modules/random/method.js';
import { transferParamsSchema } from '../../src/modules/token/commands/transfer.js';
import { getValidatorsParams } from '../../src/modules/validators/method.js';
import { devValidators } from '../helpers/devnet.js';
import { devnetChainID, devnetGenesis } from '../helpers/genesis_compare.js';
import { klayrExecuteBlock } from '../helpers/klayr_block.js';
import { runKlayrGenesis } from '../helpers/klayr_genesis.js';

const LEGACY = computeStorePrefix('legacy').toString('hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
const BLOCK_TIME = 7;
const KLY = 100000000n;

/** Hash onion per generator: reveal i is the preimage of reveal i-1 (LIP 0022). */
const onion = (length: number): Buffer[] => {
  const hashes: Buffer[] = [randomBytes(16)];
  for (let i = 1; i < length; i++) hashes.unshift(sha256(hashes[0]!).subarray(0, 16));
  return hashes;
};

interface Account {
  privateKey: Buffer;
  publicKey: Buffer;
  address: Buffer;
  nonce: bigint;
}
const devAccount = (i: number): Account => {
  const k = devValidators()[i]!;
  const publicKey = Buffer.from(k.publicKey, 'hex');
  return {
    privateKey: Buffer.from(k.privateKey, 'hex'),
    publicKey,
    address: addressFromPublicKey(publicKey),
    nonce: 0n,
  };
};
const newAccount = (seed: number): Account => {
  const { privateKey, publicKey } = keyPairFromSeed(sha256(Buffer.from(`kestrel test account ${seed}`)));
  return { privateKey, publicKey, address: addressFromPublicKey(publicKey), nonce: 0n };
};
const sign = (
  from: Account,
  module: string,
  command: string,
  schema: Schema,
  params: Record<string, unknown>,
  extraFee = 0n,
): TransactionObject => {
  const base = {
    module,
    command,
    nonce: from.nonce++,
    senderPublicKey: from.publicKey,
    params: codec.encode(schema, params),
  };
  return signTransaction(
    { ...base, fee: computeMinFee(base, { additionalFee: extraFee }), signatures: [] },
    devnetChainID,
    from.privateKey,
  );
};
const transfer = (from: Account, recipientAddress: Buffer, amount: bigint, extraFee = 0n) =>
  sign(
    from,
    'token',
    'transfer',
    transferParamsSchema,
    { tokenID: TOKEN_ID, amount, recipientAddress, data: '' },
    extraFee,
  );

interface Scenario {
  blocks: number;
  moduleOverrides?: Record<string, Record<string, unknown>>;
  transactions: (
    height: number,
    balanceOf: (address: Buffer) => Promise<bigint>,
    generatorAt: (height: number) => Buffer,
  ) => Promise<TransactionObject[]>;
}

/** Runs the same blocks through Kestrel's modules and klayr-framework's, comparing everything after every block. */
const runScenario = async ({ blocks, moduleOverrides = {}, transactions }: Scenario) => {
  const config = loadConfig();
  for (const [name, values] of Object.entries(moduleOverrides))
    config.modules[name] = { ...config.modules[name], ...values };
  const machine = new StateMachine(applicationModules(config));
  const genesis = devnetGenesis();
  const state = new BlockState(EMPTY_STATE);
  executeGenesis(machine.modules, genesis, devnetChainID, state);
  const oracle = await runKlayrGenesis(undefined, moduleOverrides);
  const balanceOf = async (address: Buffer): Promise<bigint> =>
    oracle.modules.token.method.getAvailableBalance(
      oracle.endpointContext({}).getImmutableMethodContext(),
      address,
      TOKEN_ID,
    );
  const onions = new Map<string, { hashes: Buffer[]; used: number }>();
  let previous: BlockHeader = genesis.header;
  const timestamps = [genesis.header.timestamp];
  for (let h = 1; h <= blocks; h++) timestamps.push(timestamps[h - 1]! + BLOCK_TIME * (h % 17 === 0 ? 3 : 1)); // some missed slots
  const genesisValidators = getValidatorsParams({ store: (p, s) => new SubStore(state, p, s) }).validators;
  /** The generator of a height, while the genesis validator set lasts. */
  const generatorAt = (h: number): Buffer =>
    genesisValidators[Math.floor(timestamps[h]! / BLOCK_TIME) % genesisValidators.length]!.address;
  const stats = { failures: 0, elections: [] as number[], events: new Map<string, number>() };
  for (let height = 1; height <= blocks; height++) {
    const timestamp = timestamps[height]!;
    const validators = getValidatorsParams({ store: (p, s) => new SubStore(state, p, s) }).validators;
    const generatorAddress = validators[Math.floor(timestamp / BLOCK_TIME) % validators.length]!.address;
    const g = onions.get(generatorAddress.toString('hex')) ?? { hashes: onion(40), used: 0 };
    onions.set(generatorAddress.toString('hex'), g);
    const seedReveal = height % 13 === 0 ? randomBytes(16) : g.hashes[g.used++]!;
    const header: BlockHeader = {
      ...previous,
      height,
      timestamp,
      generatorAddress,
      impliesMaxPrevotes: height % 11 !== 0,
      previousBlockID: Buffer.alloc(32),
    };
    const block: Block = {
      header,
      transactions: await transactions(height, balanceOf, generatorAt),
      assets: [{ module: 'random', data: codec.encode(randomAssetSchema, { seedReveal }) }],
    };

    let ours: ReturnType<StateMachine['executeBlock']>;
    try {
      ours = machine.executeBlock(block, devnetChainID, state);
    } catch (error) {
      throw new Error(`height ${height}: ${(error as Error).message}`);
    }
    const theirs = await klayrExecuteBlock(oracle, block);
    assert.deepEqual(ours.results, theirs.results, `execution results at height ${height}`);
    stats.failures += ours.results.filter((r) => r === 0).length;
    assert.deepEqual(
      ours.events.map((e) => ({ ...e })),
      theirs.events.map((e) => ({
        module: e.module,
        name: e.name,
        data: e.data,
        topics: e.topics,
        height: e.height,
        index: e.index,
      })),
      `events at height ${height}`,
    );
    for (const e of ours.events)
      stats.events.set(`${e.module}:${e.name}`, (stats.events.get(`${e.module}:${e.name}`) ?? 0) + 1);
    assert.equal(
      ours.nextValidators?.validators.length ?? 0,
      theirs.nextValidators.length,
      `next validators at height ${height}`,
    );
    if (ours.nextValidators !== undefined) stats.elections.push(height);
    const mine = new Map(
      state.overlay
        .changes()
        .filter((c) => c.value !== undefined && !c.key.subarray(0, 4).toString('hex').startsWith(LEGACY))
        .map((c) => [c.key.toString('hex'), c.value!.toString('hex')]),
    );
    const klayr = new Map([...oracle.store.data].map(([k, v]) => [k, v.toString('hex')]));
    const diff = [...new Set([...mine.keys(), ...klayr.keys()])].filter((k) => mine.get(k) !== klayr.get(k));
    assert.deepEqual(
      diff.slice(0, 5).map((k) => ({ key: k, ours: mine.get(k), klayr: klayr.get(k) })),
      [],
      `state at height ${height}`,
    );
    previous = header;
  }
  return stats;
};

describe("block execution: Kestrel's modules against klayr-framework's, block by block", () => {
  it('same state entries, events and execution results over 162 blocks with transfers, failures, missed slots, round ends and the first validator election', async () => {
    const keys = devValidators();
    const sender = devAccount(0);
    const stats = await runScenario({
      blocks: 162,
      transactions: async (height, balanceOf) => {
        const txs: TransactionObject[] = [];
        if (height % 3 === 1)
          txs.push(
            transfer(
              sender,
              addressFromPublicKey(Buffer.from(keys[height % 50]!.publicKey, 'hex')),
              100000000n * BigInt(height),
            ),
          );
        if (height % 10 === 2) txs.push(transfer(sender, randomBytes(20), 1000n, 5000000n)); // new account, pays its initialization
        if (height % 10 === 5) txs.push(transfer(sender, randomBytes(20), 1000n)); // new account, fee too small to initialize it: fails
        // passes verification (amount <= balance) but the locked fee leaves too little: fails at execution
        if (height === 41)
          txs.push(
            transfer(
              sender,
              addressFromPublicKey(Buffer.from(keys[7]!.publicKey, 'hex')),
              await balanceOf(sender.address),
            ),
          );
        return txs;
      },
    });
    assert.deepEqual(stats.elections, [159]);
    assert.ok(stats.failures >= 10, `some transactions failed (${stats.failures})`);
  });

  it('validator registration, stakes and unstakes, commission, shared rewards claimed, unlock, generator key update, multisignature registration and a multisignature transfer, a misbehaviour report, with rewards from height 1', async () => {
    const funder = devAccount(0);
    const candidate = newAccount(1);
    const stakers = [newAccount(2), newAccount(3)];
    const cosigner = newAccount(9);
    const generatorKeys = [newAccount(10), newAccount(11)];
    let genesisValidator: Account | { address: Buffer } = { address: Buffer.alloc(20) };
    const blsPrivateKey = blsKeyGen(sha256(Buffer.from('kestrel candidate bls')));
    const stats = await runScenario({
      blocks: 60,
      moduleOverrides: { dynamicReward: { offset: 1 } },
      transactions: async (height, _balanceOf, generatorAt) => {
        const txs: TransactionObject[] = [];
        // the stakers stake on the genesis validator that generates block 10: it shares that block's reward
        if (height === 1)
          genesisValidator = devAccount(
            devValidators().findIndex((k) =>
              addressFromPublicKey(Buffer.from(k.publicKey, 'hex')).equals(generatorAt(10)),
            ),
          );
        // it keeps 20% of its rewards and shares the rest with its stakers
        if (height === 2)
          txs.push(
            sign(genesisValidator as Account, 'pos', 'changeCommission', changeCommissionParamsSchema, {
              newCommission: 2000,
            }),
          );
        if (height === 1)
          for (const to of [candidate, ...stakers]) txs.push(transfer(funder, to.address, 5000n * KLY, 5000000n));
        if (height === 2) {
          txs.push(
            sign(
              candidate,
              'pos',
              'registerValidator',
              registerValidatorParamsSchema,
              {
                name: 'kestrel_candidate',
                blsKey: blsPublicKeyFromPrivateKey(blsPrivateKey),
                proofOfPossession: blsPopProve(blsPrivateKey),
                generatorKey: generatorKeys[0]!.publicKey,
              },
              1000000000n,
            ),
            // a second registration of the same name fails verification in Klayr too, so it is not sent; a duplicate key fails at execution:
          );
        }
        if (height === 3)
          txs.push(
            sign(candidate, 'pos', 'stake', stakeParamsSchema, {
              stakes: [{ validatorAddress: candidate.address, amount: 1000n * KLY }],
            }),
          );
        if (height === 4) {
          txs.push(
            sign(stakers[0]!, 'pos', 'stake', stakeParamsSchema, {
              stakes: [
                { validatorAddress: candidate.address, amount: 200n * KLY },
                { validatorAddress: genesisValidator.address, amount: 300n * KLY },
              ],
            }),
          );
          txs.push(
            sign(stakers[1]!, 'pos', 'stake', stakeParamsSchema, {
              stakes: [{ validatorAddress: genesisValidator.address, amount: 1000n * KLY }],
            }),
          );
        }
        // genesis validator 4 now shares its rewards with its stakers; restaking collects them
        if (height === 30)
          txs.push(
            sign(stakers[1]!, 'pos', 'stake', stakeParamsSchema, {
              stakes: [{ validatorAddress: genesisValidator.address, amount: -100n * KLY }],
            }),
          );
        if (height === 31)
          txs.push(
            sign(stakers[0]!, 'pos', 'stake', stakeParamsSchema, {
              stakes: [
                { validatorAddress: genesisValidator.address, amount: 100n * KLY },
                { validatorAddress: candidate.address, amount: -200n * KLY },
              ],
            }),
          );
        // failures at execution: no such validator; unstaking more than staked; staking more than the balance
        if (height === 32)
          txs.push(
            sign(stakers[0]!, 'pos', 'stake', stakeParamsSchema, {
              stakes: [{ validatorAddress: randomBytes(20), amount: 10n * KLY }],
            }),
          );
        if (height === 33)
          txs.push(
            sign(stakers[1]!, 'pos', 'stake', stakeParamsSchema, {
              stakes: [{ validatorAddress: genesisValidator.address, amount: -5000n * KLY }],
            }),
          );
        if (height === 34)
          txs.push(
            sign(stakers[1]!, 'pos', 'stake', stakeParamsSchema, {
              stakes: [{ validatorAddress: candidate.address, amount: 100000n * KLY }],
            }),
          );
        // claiming collects the shared rewards; unlocking before the locking period ends fails; a validator rotates its generator key
        if (height === 40) txs.push(sign(stakers[0]!, 'pos', 'claimRewards', emptyParamsSchema, {}));
        if (height === 41) txs.push(sign(stakers[1]!, 'pos', 'unlock', emptyParamsSchema, {}));
        if (height === 42)
          txs.push(
            sign(candidate, 'pos', 'updateGeneratorKey', updateGeneratorKeyParamsSchema, {
              generatorKey: generatorKeys[1]!.publicKey,
            }),
          );
        // two different blocks at one height signed by the candidate's generator key: reported, punished, the reporter rewarded
        if (height === 50) {
          const draft = {
            ...devnetGenesis().header,
            version: 2,
            height: 30,
            generatorAddress: candidate.address,
            maxHeightGenerated: 20,
            maxHeightPrevoted: 25,
          };
          const [h1, h2] = [1, 2].map((n) => {
            const { signature: _s, ...unsigned } = { ...draft, stateRoot: Buffer.alloc(32, n) };
            return encodeBlockHeader(signBlockHeader(unsigned, devnetChainID, generatorKeys[1]!.privateKey));
          });
          txs.push(
            sign(funder, 'pos', 'reportMisbehavior', reportMisbehaviorParamsSchema, { header1: h1, header2: h2 }),
          );
        }
        // stakers[0] becomes a 2-of-2 multisignature account with a second key, then sends a transfer both keys sign;
        // stakers[1]'s registration carries a wrong member signature and fails
        if (height === 44 || height === 45) {
          const owner = height === 44 ? stakers[0]! : stakers[1]!;
          const mandatoryKeys = [owner.publicKey, cosigner.publicKey].sort(Buffer.compare);
          const message = codec.encode(multisigRegMsgSchema, {
            address: owner.address,
            nonce: owner.nonce,
            numberOfSignatures: 2,
            mandatoryKeys,
            optionalKeys: [],
          });
          const signatures = mandatoryKeys.map((k) =>
            signData(
              MESSAGE_TAG_MULTISIG_REG,
              devnetChainID,
              height === 45 && k.equals(cosigner.publicKey) ? Buffer.alloc(1) : message,
              k.equals(owner.publicKey) ? owner.privateKey : cosigner.privateKey,
            ),
          );
          txs.push(
            sign(owner, 'auth', 'registerMultisignature', registerMultisignatureParamsSchema, {
              numberOfSignatures: 2,
              mandatoryKeys,
              optionalKeys: [],
              signatures,
            }),
          );
        }
        if (height === 46) {
          const owner = stakers[0]!;
          const keys = { mandatoryKeys: [owner.publicKey, cosigner.publicKey], optionalKeys: [] };
          const base = {
            module: 'token',
            command: 'transfer',
            nonce: owner.nonce++,
            senderPublicKey: owner.publicKey,
            params: codec.encode(transferParamsSchema, {
              tokenID: TOKEN_ID,
              amount: 7n,
              recipientAddress: funder.address,
              data: '',
            }),
          };
          const unsigned = { ...base, fee: computeMinFee(base, { numberOfSignatures: 2 }), signatures: [] };
          txs.push(
            signMultiSignatureTransaction(
              signMultiSignatureTransaction(unsigned, devnetChainID, owner.privateKey, keys),
              devnetChainID,
              cosigner.privateKey,
              keys,
            ),
          );
        }
        return txs;
      },
    });
    for (const name of [
      'pos:validatorPunished',
      'auth:multisignatureRegistration',
      'auth:invalidSignature',
      'validators:generatorKeyRegistration',
      'pos:commissionChange',
      'pos:validatorRegistered',
      'pos:validatorStaked',
      'pos:rewardsAssigned',
      'dynamicReward:rewardMinted',
      'token:lock',
      'token:unlock',
      'token:mint',
    ]) {
      assert.ok((stats.events.get(name) ?? 0) > 0, `${name} events were emitted`);
    }
    assert.equal(stats.failures, 5);
  });
});
