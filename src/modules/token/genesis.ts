import { addressToKlayr32 } from '../../lib/crypto/address.js';
import { compile } from '../../lib/codec/index.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import type { GenesisContext } from '../../engine/state_machine/module.js';
import { escrowStoreSchema, genesisTokenStoreSchema, supplyStoreSchema, supportedTokensStoreSchema, userStoreSchema } from './schemas.js';
import type { GenesisTokenStore, UserAccount } from './schemas.js';
import { ADDRESS_LENGTH, ALL_SUPPORTED_TOKENS_KEY, CHAIN_ID_LENGTH, MODULE_NAME, TOKEN_ID_LENGTH, tokenStore, userKey } from './stores.js';

const MAX_UINT64 = 2n ** 64n - 1n;
const genesisCodec: CompiledSchema<GenesisTokenStore> = compile<GenesisTokenStore>(genesisTokenStoreSchema);
const hex = (b: Buffer): string => b.toString('hex');

const assertSorted = <T>(items: readonly T[], compare: (a: T, b: T) => number, message: string): void => {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1]!, items[i]!) > 0) throw new Error(message);
};
const assertUnique = (keys: readonly Buffer[], describe: (i: number) => string): void => {
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    if (seen.has(hex(k))) throw new Error(describe(i));
    seen.add(hex(k));
  });
};
const byAddressThenToken = (a: { address: Buffer; tokenID: Buffer }, b: { address: Buffer; tokenID: Buffer }): number =>
  Buffer.compare(a.address, b.address) || Buffer.compare(a.tokenID, b.tokenID);

/** Klayr's UserStore.save: zero locks dropped, locks sorted by module. */
export const normalizeUser = (user: UserAccount): UserAccount => ({
  availableBalance: user.availableBalance,
  lockedBalances: user.lockedBalances.filter((l) => l.amount !== 0n).sort((a, b) => a.module.localeCompare(b.module, 'en')),
});

/** The token module's genesis asset: user balances, supplies, escrows and supported tokens, with Klayr's checks. */
export const initTokenGenesis = (ctx: GenesisContext): void => {
  const bytes = ctx.asset(MODULE_NAME);
  if (bytes === undefined) return;
  const genesis = genesisCodec.decode(bytes);
  genesisCodec.validate(genesis);

  const users = genesis.userSubstore;
  assertUnique(users.map((u) => userKey(u.address, u.tokenID)), (i) => `Address ${addressToKlayr32(users[i]!.address)} and tokenID ${hex(users[i]!.tokenID)} pair is duplicated.`);
  assertSorted(users, byAddressThenToken, 'UserSubstore must be sorted by address and tokenID.');
  const userStore = tokenStore(ctx, 'user');
  for (const user of users) {
    const modules = new Set<string>();
    let last = '';
    for (const locked of user.lockedBalances) {
      modules.add(locked.module);
      if (locked.amount === 0n) throw new Error(`Address ${addressToKlayr32(user.address)} contains 0 amount locked balance.`);
      if (locked.module.localeCompare(last, 'en') < 0) throw new Error('Locked balances must be sorted by module.');
      last = locked.module;
    }
    if (modules.size !== user.lockedBalances.length) throw new Error(`Address ${addressToKlayr32(user.address)} has duplicate module in locked balances.`);
    userStore.setWithSchema(userKey(user.address, user.tokenID), normalizeUser(user), userStoreSchema);
  }

  const supplies = genesis.supplySubstore;
  assertUnique(supplies.map((s) => s.tokenID), (i) => `Supply store token ID ${hex(supplies[i]!.tokenID)} is duplicated.`);
  assertSorted(supplies, (a, b) => Buffer.compare(a.tokenID, b.tokenID), 'SupplySubstore must be sorted by tokenID.');
  const supplyStore = tokenStore(ctx, 'supply');
  for (const s of supplies) supplyStore.setWithSchema(s.tokenID, { totalSupply: s.totalSupply }, supplyStoreSchema);

  const escrows = genesis.escrowSubstore;
  assertUnique(escrows.map((e) => Buffer.concat([e.escrowChainID, e.tokenID])), (i) => `Escrow store escrowChainID ${hex(escrows[i]!.escrowChainID)} and tokenID ${hex(escrows[i]!.tokenID)} pair is duplicated.`);
  assertSorted(escrows, (a, b) => Buffer.compare(a.escrowChainID, b.escrowChainID) || Buffer.compare(a.tokenID, b.tokenID), 'EscrowSubstore must be sorted by escrowChainID and tokenID.');
  const escrowStore = tokenStore(ctx, 'escrow');
  for (const e of escrows) escrowStore.setWithSchema(Buffer.concat([e.escrowChainID, e.tokenID]), { amount: e.amount }, escrowStoreSchema);

  const supported = genesis.supportedTokensSubstore;
  const supportedStore = tokenStore(ctx, 'supportedTokens');
  if (supported.length === 1 && supported[0]!.chainID.length === 0) {
    if (supported[0]!.supportedTokenIDs.length !== 0) throw new Error('supportedTokenIds must be an empty array when all tokens are supported.');
    supportedStore.setWithSchema(ALL_SUPPORTED_TOKENS_KEY, { supportedTokenIDs: [] }, supportedTokensStoreSchema);
  } else if (supported.length > 0) {
    for (const s of supported) if (s.chainID.length !== CHAIN_ID_LENGTH) throw new Error(`supportedTokensSubstore chainIDs must be of length ${CHAIN_ID_LENGTH}.`);
    assertUnique(supported.map((s) => s.chainID), (i) => `supportedTokenIDsSet chain ID ${hex(supported[i]!.chainID)} is duplicated.`);
    assertSorted(supported, (a, b) => Buffer.compare(a.chainID, b.chainID), 'supportedTokensSubstore must be sorted by chainID.');
    for (const s of supported) {
      const ids = s.supportedTokenIDs;
      const unique = new Set(ids.map(hex)).size === ids.length;
      const ordered = ids.every((id, i) => i === 0 || Buffer.compare(ids[i - 1]!, id) < 0);
      if (!unique || !ordered) throw new Error('supportedTokensSubstore tokenIDs must be unique and sorted by lexicographically.');
      if (!ids.every((id) => id.subarray(0, CHAIN_ID_LENGTH).equals(s.chainID))) throw new Error('supportedTokensSubstore tokenIDs must match the chainID.');
      supportedStore.setWithSchema(s.chainID, { supportedTokenIDs: ids }, supportedTokensStoreSchema);
    }
  }

  checkSupplies(ctx);
};

/** Every native token's stored total supply equals its balances, locks and escrows. */
const checkSupplies = (ctx: GenesisContext): void => {
  const computed = new Map<string, bigint>();
  const add = (tokenID: Buffer, amount: bigint): void => {
    computed.set(hex(tokenID), (computed.get(hex(tokenID)) ?? 0n) + amount);
  };
  const users = tokenStore(ctx, 'user').iterateWithSchema<UserAccount>(
    { gte: Buffer.alloc(ADDRESS_LENGTH + TOKEN_ID_LENGTH, 0), lte: Buffer.alloc(ADDRESS_LENGTH + TOKEN_ID_LENGTH, 255) },
    userStoreSchema,
  );
  for (const { key, value } of users) {
    const tokenID = key.subarray(ADDRESS_LENGTH);
    if (tokenID.subarray(0, CHAIN_ID_LENGTH).equals(ctx.chainID)) add(tokenID, value.availableBalance + value.lockedBalances.reduce((s, l) => s + l.amount, 0n));
  }
  const escrows = tokenStore(ctx, 'escrow').iterateWithSchema<{ amount: bigint }>(
    { gte: Buffer.alloc(CHAIN_ID_LENGTH + TOKEN_ID_LENGTH, 0), lte: Buffer.alloc(CHAIN_ID_LENGTH + TOKEN_ID_LENGTH, 255) },
    escrowStoreSchema,
  );
  for (const { key, value } of escrows) add(key.subarray(CHAIN_ID_LENGTH), value.amount);
  for (const [tokenID, supply] of computed) if (supply > MAX_UINT64) throw new Error(`Total supply for tokenID: ${tokenID} exceeds uint64 range.`);
  const stored = new Map(
    tokenStore(ctx, 'supply')
      .iterateWithSchema<{ totalSupply: bigint }>({ gte: Buffer.alloc(TOKEN_ID_LENGTH, 0), lte: Buffer.alloc(TOKEN_ID_LENGTH, 255) }, supplyStoreSchema)
      .map(({ key, value }) => [hex(key), value.totalSupply]),
  );
  for (const [tokenID, supply] of computed) if (stored.get(tokenID) !== supply) throw new Error('Stored total supply conflicts with computed supply.');
};
