// The PoS part of a random genesis block: validators (banned or not, punished, with sharing
// coefficients), stakers with stakes and pending unlocks, and the genesis data.

import { compareUnlocks } from '../../src/modules/pos/commands/stake.js';
import type { GenesisPoSStore, PendingUnlock, SharingCoefficient } from '../../src/modules/pos/schemas.js';
import type { BLSKeyPair } from './genesis_generator_values.js';
import { amount, compareBytes, randomName } from './genesis_generator_values.js';
import type { Rng } from './random.js';

const NUMBER_ACTIVE_VALIDATORS = 51;
const MAX_NUMBER_SENT_STAKES = 10;
const MAX_NUMBER_PENDING_UNLOCKS = 20;

interface PoSInput {
  people: Buffer[];
  height: number;
  useInvalidBLSKey: boolean;
  blsPool: readonly BLSKeyPair[];
  tokens: Buffer[];
  features: Set<string>;
  noStakers: boolean;
}

export interface GeneratedPoS {
  asset: GenesisPoSStore;
  /** What each staker has staked and is unlocking (hex address), which the token asset must lock. */
  staked: Map<string, bigint>;
}

const sharingCoefficients = (rng: Rng, tokens: Buffer[], features: Set<string>): SharingCoefficient[] => {
  const list = Array.from({ length: rng.int(4) }, () => ({
    tokenID: rng.pick(tokens),
    coefficient: rng.bytes(rng.int(25)),
  }));
  // sorted by token ID; Klayr does not require them to be distinct
  list.sort((a, b) => compareBytes(a.tokenID, b.tokenID));
  if (list.length > 0) features.add('pos:sharing coefficients');
  if (list.some((c, i) => i > 0 && c.tokenID.equals(list[i - 1]!.tokenID)))
    features.add('pos:repeated coefficient token');
  return list;
};

/** A stake's coefficient may not exceed the validator's for the token (the first listed one). */
const stakeCoefficients = (rng: Rng, validator: GenesisPoSStore['validators'][number]): SharingCoefficient[] => {
  const byToken = new Map<string, SharingCoefficient>();
  for (const c of validator.sharingCoefficients)
    if (!byToken.has(c.tokenID.toString('hex'))) byToken.set(c.tokenID.toString('hex'), c);
  return [...byToken.values()]
    .filter(() => rng.next() < 0.6)
    .map(({ tokenID, coefficient }) => ({
      tokenID,
      coefficient: rng.next() < 0.5 ? coefficient : coefficient.subarray(0, rng.int(coefficient.length + 1)),
    }));
};

const validators = (rng: Rng, input: PoSInput): GenesisPoSStore['validators'] => {
  const count = rng.next() < 0.06 ? 0 : rng.pick([1, 1 + rng.int(4), 1 + rng.int(12), 10 + rng.int(3)]);
  const keys = [...input.blsPool].sort(() => rng.next() - 0.5).slice(0, count);
  const names = new Set<string>();
  const addresses = new Set<string>();
  const out: GenesisPoSStore['validators'] = [];
  for (const key of keys) {
    let name = randomName(rng, 20);
    while (names.has(name)) name = randomName(rng, 20);
    names.add(name);
    const address = rng.next() < 0.4 ? rng.pick(input.people) : rng.bytes(20);
    if (addresses.has(address.toString('hex'))) continue;
    addresses.add(address.toString('hex'));
    // with useInvalidBLSKey the keys are not registered: any bytes will do
    const bls =
      input.useInvalidBLSKey && rng.next() < 0.5 ? { blsKey: rng.bytes(48), proofOfPossession: rng.bytes(96) } : key;
    const isBanned = rng.next() < 0.3;
    const reportMisbehaviorHeights = Array.from({ length: rng.pick([0, 0, 1, rng.int(6)]) }, () => rng.uint32());
    if (isBanned) input.features.add('pos:banned validator');
    if (reportMisbehaviorHeights.length > 0) input.features.add('pos:punished validator');
    out.push({
      address,
      name,
      ...bls,
      generatorKey: rng.bytes(32),
      lastGeneratedHeight: rng.pick([0, rng.int(input.height + 1), rng.uint32()]),
      isBanned,
      reportMisbehaviorHeights,
      consecutiveMissedBlocks: rng.pick([0, rng.int(100), rng.uint32()]),
      commission: rng.pick([0, 10000, rng.int(10001)]),
      lastCommissionIncreaseHeight: rng.pick([0, input.height, rng.int(input.height + 1)]),
      sharingCoefficients: sharingCoefficients(rng, input.tokens, input.features),
    });
  }
  return out;
};

const pendingUnlocks = (rng: Rng, targets: GenesisPoSStore['validators'], features: Set<string>): PendingUnlock[] => {
  if (targets.length === 0) return [];
  const count = rng.next() < 0.05 ? MAX_NUMBER_PENDING_UNLOCKS : rng.int(4);
  const list = Array.from({ length: count }, () => ({
    validatorAddress: rng.pick(targets).address,
    amount: amount(rng),
    unstakeHeight: rng.pick([0, rng.int(10000), rng.uint32()]),
  }));
  if (list.length > 0) features.add('pos:pending unlocks');
  return list.sort(compareUnlocks);
};

/** Stakers (self-stakes included) and the genesis data, given the validators. */
export const generatePoS = (rng: Rng, input: PoSInput): GeneratedPoS => {
  const list = validators(rng, input);
  const stakerAddresses = new Map<string, Buffer>();
  for (let i = input.noStakers ? 0 : rng.int(7); i > 0; i--) {
    const address =
      list.length > 0 && rng.next() < 0.4
        ? rng.pick(list).address
        : rng.next() < 0.6
          ? rng.pick(input.people)
          : rng.bytes(20);
    stakerAddresses.set(address.toString('hex'), address);
  }
  const staked = new Map<string, bigint>();
  const stakers: GenesisPoSStore['stakers'] = [...stakerAddresses.values()].map((address) => {
    const most = Math.min(MAX_NUMBER_SENT_STAKES, list.length);
    const targets = [...list].sort(() => rng.next() - 0.5).slice(0, rng.next() < 0.1 ? most : rng.int(most + 1));
    targets.sort((a, b) => compareBytes(a.address, b.address));
    const stakes = targets.map((v) => ({
      validatorAddress: v.address,
      amount: amount(rng),
      sharingCoefficients: stakeCoefficients(rng, v),
    }));
    if (stakes.some((s) => s.validatorAddress.equals(address))) input.features.add('pos:self-stake');
    if (stakes.some((s) => s.sharingCoefficients.length > 0)) input.features.add('pos:stake coefficients');
    if (stakes.length === MAX_NUMBER_SENT_STAKES) input.features.add('pos:max stakes');
    const unlocks = pendingUnlocks(rng, list, input.features);
    staked.set(
      address.toString('hex'),
      stakes.reduce((s, x) => s + x.amount, 0n) + unlocks.reduce((s, x) => s + x.amount, 0n),
    );
    return { address, stakes, pendingUnlocks: unlocks };
  });
  // stakers need not be sorted
  if (rng.next() < 0.5) stakers.reverse();
  const initValidators = [...list]
    .sort(() => rng.next() - 0.5)
    .slice(0, Math.min(NUMBER_ACTIVE_VALIDATORS, rng.next() < 0.2 ? list.length : 1 + rng.int(list.length)))
    .map((v) => v.address);
  const initRounds = rng.pick([3, 3 + rng.int(600), rng.uint32()]);
  if (initRounds > 100) input.features.add('pos:hundreds of init rounds');
  if (list.length === 0) input.features.add('pos:no validators');
  return { asset: { validators: list, stakers, genesisData: { initRounds, initValidators } }, staked };
};
