import type { GenesisContext } from '../../engine/state_machine/module.js';
import type { CompiledSchema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import { addressToKlayr32 } from '../../lib/crypto/address.js';
import type { GenesisTokenStore, UserAccount } from './schemas.js';
import {
  escrowStoreSchema,
  genesisTokenStoreSchema,
  supplyStoreSchema,
  supportedTokensStoreSchema,
  userStoreSchema,
} from './schemas.js';
import { ALL_SUPPORTED_TOKENS_KEY, CHAIN_ID_LENGTH, MODULE_NAME, tokenStore, userKey } from './stores.js';

const MAX_UINT64 = 2n ** 64n - 1n;
const genesisCodec: CompiledSchema<GenesisTokenStore> = compile<GenesisTokenStore>(genesisTokenStoreSchema);
const hex = (b: Buffer): string => b.toString('hex');

/**
 * Klayr's checks over a genesis list, entry by entry (so the first offending entry names the
 * rule): its key seen before, then the entry out of its sorted place, then `each` on the entry.
 */
const checkEntries = <T>(
  items: readonly T[],
  key: (item: T) => Buffer,
  compare: (a: T, b: T) => number,
  duplicated: (item: T) => string,
  unsorted: string,
  each?: (item: T) => void,
): void => {
  // a valid list is already sorted (a live network's holds 76,000 accounts): then no entry is out of its place
  let inOrder = true;
  for (let i = 1; i < items.length && inOrder; i++) inOrder = compare(items[i - 1], items[i]) <= 0;
  const sorted = inOrder ? items : [...items].sort(compare);
  // latin1 strings are the key bytes one to one, and cheaper to build than hex
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item).toString('latin1');
    if (seen.has(k)) throw new Error(duplicated(item));
    seen.add(k);
    if (!inOrder && compare(item, sorted[i]) !== 0) throw new Error(unsorted);
    each?.(item);
  });
};
const byAddressThenToken = (a: { address: Buffer; tokenID: Buffer }, b: { address: Buffer; tokenID: Buffer }): number =>
  Buffer.compare(a.address, b.address) || Buffer.compare(a.tokenID, b.tokenID);

/** Klayr's UserStore.save: zero locks dropped, locks sorted by module. */
export const normalizeUser = (user: UserAccount): UserAccount => ({
  availableBalance: user.availableBalance,
  lockedBalances: user.lockedBalances
    .filter((l) => l.amount !== 0n)
    .sort((a, b) => a.module.localeCompare(b.module, 'en')),
});

/** The token module's genesis asset: user balances, supplies, escrows and supported tokens, with Klayr's checks. */
export const initTokenGenesis = (ctx: GenesisContext): void => {
  const bytes = ctx.asset(MODULE_NAME);
  if (bytes === undefined) return;
  const genesis = genesisCodec.decode(bytes);
  genesisCodec.validate(genesis);

  const userStore = tokenStore(ctx, 'user');
  const checkUser = (user: GenesisTokenStore['userSubstore'][number]): void => {
    const modules = new Set<string>();
    let last = '';
    for (const locked of user.lockedBalances) {
      modules.add(locked.module);
      if (locked.amount === 0n)
        throw new Error(`Address ${addressToKlayr32(user.address)} contains 0 amount locked balance.`);
      if (locked.module.localeCompare(last, 'en') < 0) throw new Error('Locked balances must be sorted by module.');
      last = locked.module;
    }
    if (modules.size !== user.lockedBalances.length)
      throw new Error(`Address ${addressToKlayr32(user.address)} has duplicate module in locked balances.`);
    userStore.setWithSchema(userKey(user.address, user.tokenID), normalizeUser(user), userStoreSchema);
  };
  checkEntries(
    genesis.userSubstore,
    (u) => userKey(u.address, u.tokenID),
    byAddressThenToken,
    (u) => `Address ${addressToKlayr32(u.address)} and tokenID ${hex(u.tokenID)} pair is duplicated.`,
    'UserSubstore must be sorted by address and tokenID.',
    checkUser,
  );

  const supplies = genesis.supplySubstore;
  checkEntries(
    supplies,
    (s) => s.tokenID,
    (a, b) => Buffer.compare(a.tokenID, b.tokenID),
    (s) => `Supply store token ID ${hex(s.tokenID)} is duplicated.`,
    'SupplySubstore must be sorted by tokenID.',
  );
  const supplyStore = tokenStore(ctx, 'supply');
  for (const s of supplies) supplyStore.setWithSchema(s.tokenID, { totalSupply: s.totalSupply }, supplyStoreSchema);

  const escrows = genesis.escrowSubstore;
  checkEntries(
    escrows,
    (e) => Buffer.concat([e.escrowChainID, e.tokenID]),
    (a, b) => Buffer.compare(a.escrowChainID, b.escrowChainID) || Buffer.compare(a.tokenID, b.tokenID),
    (e) => `Escrow store escrowChainID ${hex(e.escrowChainID)} and tokenID ${hex(e.tokenID)} pair is duplicated.`,
    'EscrowSubstore must be sorted by escrowChainID and tokenID.',
  );
  const escrowStore = tokenStore(ctx, 'escrow');
  for (const e of escrows)
    escrowStore.setWithSchema(Buffer.concat([e.escrowChainID, e.tokenID]), { amount: e.amount }, escrowStoreSchema);

  const supported = genesis.supportedTokensSubstore;
  const supportedStore = tokenStore(ctx, 'supportedTokens');
  if (supported.length === 1 && supported[0].chainID.length === 0) {
    if (supported[0].supportedTokenIDs.length !== 0)
      throw new Error('supportedTokenIds must be an empty array when all tokens are supported.');
    supportedStore.setWithSchema(ALL_SUPPORTED_TOKENS_KEY, { supportedTokenIDs: [] }, supportedTokensStoreSchema);
  } else if (supported.length > 0) {
    const byChain = (a: { chainID: Buffer }, b: { chainID: Buffer }): number => Buffer.compare(a.chainID, b.chainID);
    const sorted = [...supported].sort(byChain);
    const seen = new Set<string>();
    supported.forEach((s, i) => {
      // Klayr's order, entry by entry: the chain ID's length, a repeated chain, the sorted place, the token IDs
      if (s.chainID.length !== CHAIN_ID_LENGTH)
        throw new Error(`supportedTokensSubstore chainIDs must be of length ${CHAIN_ID_LENGTH}.`);
      if (seen.has(hex(s.chainID))) throw new Error(`supportedTokenIDsSet chain ID ${hex(s.chainID)} is duplicated.`);
      seen.add(hex(s.chainID));
      if (byChain(s, sorted[i]) !== 0) throw new Error('supportedTokensSubstore must be sorted by chainID.');
      const ids = s.supportedTokenIDs;
      const unique = new Set(ids.map(hex)).size === ids.length;
      const ordered = ids.every((id, j) => j === 0 || Buffer.compare(ids[j - 1], id) < 0);
      if (!unique || !ordered)
        throw new Error('supportedTokensSubstore tokenIDs must be unique and sorted by lexicographically.');
      if (!ids.every((id) => id.subarray(0, CHAIN_ID_LENGTH).equals(s.chainID)))
        throw new Error('supportedTokensSubstore tokenIDs must match the chainID.');
      supportedStore.setWithSchema(s.chainID, { supportedTokenIDs: ids }, supportedTokensStoreSchema);
    });
  }

  checkSupplies(ctx, genesis);
};

/**
 * Every native token's stored total supply equals its balances, locks and escrows. Klayr sums
 * the stores it just wrote; genesis starts from empty stores, so those hold exactly the asset's
 * (checked unique, sorted) entries, which are summed here without reading them back.
 */
const checkSupplies = (ctx: GenesisContext, genesis: GenesisTokenStore): void => {
  const computed = new Map<string, bigint>();
  const add = (tokenID: Buffer, amount: bigint): void => {
    const id = hex(tokenID);
    computed.set(id, (computed.get(id) ?? 0n) + amount);
  };
  for (const user of genesis.userSubstore) {
    if (user.tokenID.subarray(0, CHAIN_ID_LENGTH).equals(ctx.chainID))
      add(
        user.tokenID,
        user.lockedBalances.reduce((s, l) => s + l.amount, user.availableBalance),
      );
  }
  for (const escrow of genesis.escrowSubstore) add(escrow.tokenID, escrow.amount);
  for (const [tokenID, supply] of computed)
    if (supply > MAX_UINT64) throw new Error(`Total supply for tokenID: ${tokenID} exceeds uint64 range.`);
  const stored = new Map(genesis.supplySubstore.map((s) => [hex(s.tokenID), s.totalSupply]));
  // a stored supply of 0 conflicts even with a computed 0 (Klayr tests the stored value's truthiness)
  for (const [tokenID, supply] of computed)
    if (!stored.get(tokenID) || stored.get(tokenID) !== supply)
      throw new Error('Stored total supply conflicts with computed supply.');
  for (const [tokenID, supply] of stored)
    if (!computed.has(tokenID) && supply !== 0n)
      throw new Error('Stored total supply is non zero but cannot be computed.');
};
