// Random genesis blocks exercising every field of every module's genesis asset (auth, token,
// pos, interoperability, legacy), valid by klayr-framework's rules, for differential tests.

import { unsignedGenesisHeader } from '../../src/engine/genesis.js';
import type { Block, BlockAsset } from '../../src/lib/chain/block.js';
import { codec } from '../../src/lib/codec/index.js';
import type { AuthAccount } from '../../src/modules/auth/schemas.js';
import { genesisAuthStoreSchema } from '../../src/modules/auth/schemas.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import { genesisLegacyStoreSchema } from '../../src/modules/legacy/index.js';
import { ADDRESS_LEGACY_RESERVE } from '../../src/modules/legacy/stores.js';
import type { GenesisPoSStore } from '../../src/modules/pos/schemas.js';
import { genesisStoreSchema } from '../../src/modules/pos/schemas.js';
import type { GenesisTokenStore } from '../../src/modules/token/schemas.js';
import { genesisTokenStoreSchema } from '../../src/modules/token/schemas.js';
import { generateInterop } from './genesis_generator_interop.js';
import { generatePoS } from './genesis_generator_pos.js';
import type { BLSKeyPair } from './genesis_generator_values.js';
import { amount, CHAIN_ID, compareBytes, MAX_UINT64, TOKEN_KLY, uniqueSorted } from './genesis_generator_values.js';
import type { Rng } from './random.js';

export type { BLSKeyPair } from './genesis_generator_values.js';

export interface GeneratedGenesis {
  /** Header roots are left empty: the test computes them. */
  block: Block;
  /** modules config overrides for both Kestrel and klayr-framework. */
  moduleOverrides: Record<string, Record<string, unknown>>;
  /** The legacy asset's accounts, when the block has one (klayr-framework has no legacy module). */
  legacyAccounts?: { address: Buffer; balance: bigint }[];
  /** What the block exercises, for the test to check every feature was generated. */
  features: Set<string>;
}

const authAccount = (rng: Rng, features: Set<string>): AuthAccount => {
  const nonce = rng.next() < 0.3 ? 0n : rng.uint64();
  if (rng.next() < 0.5) return { nonce, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] };
  const total = rng.next() < 0.1 ? 64 : rng.int(rng.next() < 0.2 ? 65 : 6);
  const keys = uniqueSorted(Array.from({ length: total }, () => rng.bytes(32)));
  const mandatory = rng.int(keys.length + 1);
  const chosen = new Set(
    rng.next() < 0.5
      ? keys.slice(0, mandatory).map((k) => k.toString('hex'))
      : Array.from({ length: mandatory }, () => keys[rng.int(keys.length)]!.toString('hex')),
  );
  const mandatoryKeys = keys.filter((k) => chosen.has(k.toString('hex')));
  const optionalKeys = keys.filter((k) => !chosen.has(k.toString('hex')));
  const numberOfSignatures = mandatoryKeys.length + rng.int(optionalKeys.length + 1);
  features.add(`auth:keys=${keys.length === 64 ? 64 : keys.length === 0 ? 0 : 'some'}`);
  if (numberOfSignatures > 0) features.add('auth:multisignature');
  if (numberOfSignatures === 0 && optionalKeys.length > 0) features.add('auth:optional keys, no signatures');
  if (mandatoryKeys.length > 0 && optionalKeys.length > 0) features.add('auth:mandatory and optional');
  return { nonce, numberOfSignatures, mandatoryKeys, optionalKeys };
};

const generateAuth = (rng: Rng, people: Buffer[], features: Set<string>) => {
  const addresses = uniqueSorted(
    Array.from({ length: rng.int(rng.next() < 0.1 ? 40 : 10) }, () =>
      rng.next() < 0.5 ? rng.pick(people) : rng.bytes(20),
    ),
  );
  // the asset's order is kept (Klayr does not require sorted addresses)
  const ordered = rng.next() < 0.5 ? addresses : addresses.reverse();
  if (ordered.length === 0) features.add('auth:empty');
  return { authDataSubstore: ordered.map((address) => ({ address, authAccount: authAccount(rng, features) })) };
};

const LOCK_MODULES = [
  'auth',
  'dynamicReward',
  'fee',
  'interoperability',
  'legacy',
  'nft',
  'pos',
  'token',
  'Custom',
  'z_module',
];

interface TokenPlan {
  users: Map<string, GenesisTokenStore['userSubstore'][number]>;
  escrows: GenesisTokenStore['escrowSubstore'];
}

const userKey = (address: Buffer, tokenID: Buffer): string => address.toString('hex') + tokenID.toString('hex');

/** Sets (or removes, for 0) one module's lock on a user's balance of a token, creating the user if needed. */
export const setLock = (plan: TokenPlan, address: Buffer, tokenID: Buffer, module: string, locked: bigint): void => {
  const key = userKey(address, tokenID);
  const user = plan.users.get(key) ?? { address, tokenID, availableBalance: 0n, lockedBalances: [] };
  user.lockedBalances = user.lockedBalances.filter((l) => l.module !== module);
  if (locked > 0n) user.lockedBalances.push({ module, amount: locked });
  user.lockedBalances.sort((a, b) => a.module.localeCompare(b.module, 'en'));
  plan.users.set(key, user);
};

const planTokens = (rng: Rng, people: Buffer[], tokens: Buffer[], features: Set<string>): TokenPlan => {
  const users = new Map<string, GenesisTokenStore['userSubstore'][number]>();
  for (let i = rng.int(14); i > 0; i--) {
    const address = rng.next() < 0.7 ? rng.pick(people) : rng.bytes(20);
    const tokenID = rng.pick(tokens);
    const modules = LOCK_MODULES.filter(() => rng.next() < 0.15).sort((a, b) => a.localeCompare(b, 'en'));
    const lockedBalances = modules.map((module) => ({ module, amount: amount(rng, false) }));
    if (lockedBalances.length > 1) features.add('token:several locks');
    users.set(userKey(address, tokenID), { address, tokenID, availableBalance: amount(rng), lockedBalances });
  }
  const escrows = Array.from({ length: rng.int(3) }, () => ({
    escrowChainID: rng.next() < 0.5 ? rng.bytes(4) : Buffer.concat([CHAIN_ID.subarray(0, 1), rng.bytes(3)]),
    tokenID: rng.pick(tokens),
    amount: amount(rng),
  }));
  return { users, escrows };
};

/** Supplies that add up: every native token's users plus every escrowed token, never a stored 0 for a computed token. */
const finishTokens = (rng: Rng, plan: TokenPlan, tokens: Buffer[], features: Set<string>): GenesisTokenStore => {
  const userSubstore = [...plan.users.values()].sort(
    (a, b) => compareBytes(a.address, b.address) || compareBytes(a.tokenID, b.tokenID),
  );
  const escrowSubstore = [
    ...new Map(plan.escrows.map((e) => [e.escrowChainID.toString('hex') + e.tokenID.toString('hex'), e])).values(),
  ].sort((a, b) => compareBytes(a.escrowChainID, b.escrowChainID) || compareBytes(a.tokenID, b.tokenID));
  const computed = new Map<string, bigint>();
  const add = (tokenID: Buffer, value: bigint) =>
    computed.set(tokenID.toString('hex'), (computed.get(tokenID.toString('hex')) ?? 0n) + value);
  for (const u of userSubstore) {
    if (u.tokenID.subarray(0, 4).equals(CHAIN_ID))
      add(u.tokenID, u.availableBalance + u.lockedBalances.reduce((s, l) => s + l.amount, 0n));
  }
  for (const e of escrowSubstore) add(e.tokenID, e.amount);
  for (const [hex, total] of computed) {
    if (total !== 0n) continue;
    // a computed supply of 0 is refused by Klayr: give the token one unit somewhere
    const holder = userSubstore.find(
      (u) => u.tokenID.toString('hex') === hex && u.tokenID.subarray(0, 4).equals(CHAIN_ID),
    );
    if (holder !== undefined) holder.availableBalance += 1n;
    else escrowSubstore.find((e) => e.tokenID.toString('hex') === hex)!.amount += 1n;
    computed.set(hex, 1n);
  }
  const supplies = new Map<string, { tokenID: Buffer; totalSupply: bigint }>(
    [...computed].map(([hex, totalSupply]) => [hex, { tokenID: Buffer.from(hex, 'hex'), totalSupply }]),
  );
  // supplies of tokens nobody holds: allowed when 0
  if (rng.next() < 0.3) {
    const idle = rng.pick(tokens);
    if (!supplies.has(idle.toString('hex'))) {
      supplies.set(idle.toString('hex'), { tokenID: idle, totalSupply: 0n });
      features.add('token:zero supply of an unheld token');
    }
  }
  if ([...supplies.values()].some((s) => s.totalSupply === MAX_UINT64)) features.add('token:max supply');
  if (escrowSubstore.some((e) => !e.tokenID.subarray(0, 4).equals(CHAIN_ID)))
    features.add('token:escrow of a foreign token');
  if (userSubstore.some((u) => !u.tokenID.subarray(0, 4).equals(CHAIN_ID))) features.add('token:foreign token user');
  return {
    userSubstore,
    supplySubstore: [...supplies.values()].sort((a, b) => compareBytes(a.tokenID, b.tokenID)),
    escrowSubstore,
    supportedTokensSubstore: supportedTokens(rng, features),
  };
};

const supportedTokens = (rng: Rng, features: Set<string>): GenesisTokenStore['supportedTokensSubstore'] => {
  const pattern = rng.int(3);
  if (pattern === 0) return [];
  if (pattern === 1) {
    features.add('token:all tokens supported');
    return [{ chainID: Buffer.alloc(0), supportedTokenIDs: [] }];
  }
  features.add('token:supported chains');
  return uniqueSorted(Array.from({ length: 1 + rng.int(3) }, () => rng.bytes(4))).map((chainID) => {
    const supportedTokenIDs = uniqueSorted(
      Array.from({ length: rng.int(4) }, () => Buffer.concat([chainID, rng.bytes(4)])),
    );
    if (supportedTokenIDs.length === 0) features.add('token:whole chain supported');
    return { chainID, supportedTokenIDs };
  });
};

const generateLegacy = (rng: Rng, features: Set<string>) => {
  const addresses = [
    ...new Map(Array.from({ length: rng.int(6) }, () => rng.bytes(8)).map((a) => [a.toString('hex'), a])).values(),
  ];
  if (addresses.length === 0) features.add('legacy:no accounts');
  return addresses.map((address) => ({ address, balance: amount(rng) }));
};

/** One random genesis block (height, timestamp and every asset) from the seeded generator. */
export const generateGenesis = (rng: Rng, blsPool: readonly BLSKeyPair[]): GeneratedGenesis => {
  const features = new Set<string>();
  const height = rng.pick([0, 0, rng.int(1000), rng.int(2 ** 24)]);
  const timestamp = 1_000_000 + rng.int(2 ** 31);
  const people = Array.from({ length: 3 + rng.int(12) }, () => rng.bytes(20));
  const tokens = [
    TOKEN_KLY,
    Buffer.concat([CHAIN_ID, rng.bytes(4)]),
    Buffer.concat([rng.bytes(4), Buffer.alloc(4)]),
    rng.bytes(8),
  ];
  const useInvalidBLSKey = rng.next() < 0.3;
  // a bare block (no stakers, sidechains or legacy accounts) needs no token asset
  const bare = rng.next() < 0.06;
  features.add(`pos:useInvalidBLSKey=${useInvalidBLSKey}`);

  const plan = planTokens(rng, people, tokens, features);
  if (rng.next() < 0.05) {
    // a token whose whole uint64 supply one account holds
    const whale = Buffer.concat([CHAIN_ID, Buffer.from('ffffffff', 'hex')]);
    plan.users.set(userKey(people[0]!, whale), {
      address: people[0]!,
      tokenID: whale,
      availableBalance: MAX_UINT64,
      lockedBalances: [],
    });
  }
  const pos = generatePoS(rng, { people, height, useInvalidBLSKey, blsPool, tokens, features, noStakers: bare });
  for (const [address, staked] of pos.staked) setLock(plan, Buffer.from(address, 'hex'), TOKEN_KLY, 'pos', staked);
  const interop = generateInterop(rng, { timestamp, features, noChains: bare });
  for (const chainID of interop.escrowChains)
    plan.escrows.push({ escrowChainID: chainID, tokenID: TOKEN_KLY, amount: amount(rng) });
  const legacy = !bare && rng.next() < 0.7 ? generateLegacy(rng, features) : undefined;
  if (legacy !== undefined)
    setLock(
      plan,
      ADDRESS_LEGACY_RESERVE,
      TOKEN_KLY,
      'legacy',
      legacy.reduce((s, a) => s + a.balance, 0n),
    );

  const assets: BlockAsset[] = [
    { module: 'interoperability', data: codec.encode(genesisInteroperabilitySchema, interop.asset) },
    { module: 'pos', data: codec.encode(genesisStoreSchema, pos.asset satisfies GenesisPoSStore) },
  ];
  const tokenOptional = pos.staked.size === 0 && legacy === undefined && interop.escrowChains.length === 0;
  if (!tokenOptional || rng.next() < 0.5)
    assets.push({
      module: 'token',
      data: codec.encode(genesisTokenStoreSchema, finishTokens(rng, plan, tokens, features)),
    });
  else features.add('token:no asset');
  if (rng.next() < 0.85)
    assets.push({ module: 'auth', data: codec.encode(genesisAuthStoreSchema, generateAuth(rng, people, features)) });
  else features.add('auth:no asset');
  if (legacy !== undefined)
    assets.push({ module: 'legacy', data: codec.encode(genesisLegacyStoreSchema, { accounts: legacy }) });
  assets.sort((a, b) => (a.module < b.module ? -1 : 1));

  const block: Block = {
    header: unsignedGenesisHeader({ height, timestamp, previousBlockID: rng.bytes(32), assets }),
    transactions: [],
    assets,
  };
  // Klayr's genesis checks its own stake limit (10), whatever modules.pos.maxNumberSentStakes says
  const maxNumberSentStakes = rng.next() < 0.3 ? 1 + rng.int(10) : undefined;
  if (maxNumberSentStakes !== undefined) features.add('pos:maxNumberSentStakes config');
  return {
    block,
    moduleOverrides: {
      pos: { useInvalidBLSKey, ...(maxNumberSentStakes !== undefined ? { maxNumberSentStakes } : {}) },
    },
    ...(legacy !== undefined ? { legacyAccounts: legacy } : {}),
    features,
  };
};
