import { compile } from '../../lib/codec/index.js';
import type { GenesisTokenStore, UserAccount } from '../../modules/token/schemas.js';
import {
  escrowStoreSchema,
  genesisTokenStoreSchema,
  supplyStoreSchema,
  supportedTokensStoreSchema,
  userStoreSchema,
} from '../../modules/token/schemas.js';
import { MODULE_NAME, TOKEN_STORES } from '../../modules/token/stores.js';
import type { MigratedAsset, MigrationContext } from '../context.js';

const userCodec = compile<UserAccount>(userStoreSchema);
const supplyCodec = compile<{ totalSupply: bigint }>(supplyStoreSchema);
const escrowCodec = compile<{ amount: bigint }>(escrowStoreSchema);
const supportedCodec = compile<{ supportedTokenIDs: Buffer[] }>(supportedTokensStoreSchema);
const genesisCodec = compile<GenesisTokenStore>(genesisTokenStoreSchema);

/** An amount that moves from one account's balance to another's (a staker's unclaimed reward held locked by its validator). */
export interface BalanceMove {
  from: Buffer;
  to: Buffer;
  /** The old chain's token ID. */
  tokenID: Buffer;
  amount: bigint;
}

/** A lock that stays locked (the legacy reserve backing the legacy accounts). */
export interface KeptLock {
  address: Buffer;
  module: string;
}

export interface TokenMigration extends MigratedAsset {
  accounts: number;
  /** Per successor token ID (hex): the sum of every balance, available and locked, before and after. */
  totals: Map<string, { before: bigint; after: bigint }>;
  /** Per successor token ID (hex): the supply store's total supply. */
  supply: Map<string, bigint>;
  returnedLocked: bigint;
}

const userKeyHex = (address: Buffer, tokenID: Buffer): string => `${address.toString('hex')}${tokenID.toString('hex')}`;

/**
 * One token entry per account and token: every locked amount (stakes, pending unlocks, unclaimed
 * rewards) returned to the available balance, except the kept locks; the moves applied first.
 * Supplies, escrows and supported tokens are carried over; old-chain token IDs become the successor's.
 */
export const migrateToken = (
  ctx: MigrationContext,
  moves: readonly BalanceMove[],
  kept: readonly KeptLock[],
  onEntry: () => void = () => undefined,
): TokenMigration => {
  const { snapshot } = ctx;
  const delta = new Map<string, bigint>();
  const add = (address: Buffer, tokenID: Buffer, amount: bigint): void => {
    const k = userKeyHex(address, tokenID);
    delta.set(k, (delta.get(k) ?? 0n) + amount);
  };
  for (const m of moves) {
    add(m.from, m.tokenID, -m.amount);
    add(m.to, m.tokenID, m.amount);
  }
  const keptLocks = new Set(kept.map((k) => `${k.address.toString('hex')}/${k.module}`));
  const totals = new Map<string, { before: bigint; after: bigint }>();
  const total = (tokenID: Buffer) => {
    const k = tokenID.toString('hex');
    let t = totals.get(k);
    if (t === undefined) {
      t = { before: 0n, after: 0n };
      totals.set(k, t);
    }
    return t;
  };
  let returnedLocked = 0n;
  const users: GenesisTokenStore['userSubstore'] = [];
  for (const { key, value } of snapshot.substore(MODULE_NAME, TOKEN_STORES.user, userCodec)) {
    const address = key.subarray(0, 20);
    const oldTokenID = key.subarray(20);
    const tokenID = ctx.tokenID(oldTokenID);
    const lockedBalances = value.lockedBalances.filter((l) => keptLocks.has(`${address.toString('hex')}/${l.module}`));
    const returned = value.lockedBalances
      .filter((l) => !keptLocks.has(`${address.toString('hex')}/${l.module}`))
      .reduce((s, l) => s + l.amount, 0n);
    const k = userKeyHex(address, oldTokenID);
    const availableBalance = value.availableBalance + returned + (delta.get(k) ?? 0n);
    delta.delete(k);
    if (availableBalance < 0n)
      throw new Error(
        `Account ${address.toString('hex')} would hold a negative balance of token ${tokenID.toString('hex')} after the unclaimed rewards it holds are paid out.`,
      );
    returnedLocked += returned;
    const t = total(tokenID);
    t.before += value.availableBalance + value.lockedBalances.reduce((s, l) => s + l.amount, 0n);
    t.after += availableBalance + lockedBalances.reduce((s, l) => s + l.amount, 0n);
    users.push({ address, tokenID, availableBalance, lockedBalances });
    onEntry();
  }
  if (delta.size > 0)
    throw new Error(
      `Unclaimed rewards move to ${delta.size} account(s) without a token entry (first: ${[...delta.keys()][0]}).`,
    );
  for (const [tokenID, t] of totals) {
    if (t.before !== t.after)
      throw new Error(`Token ${tokenID}: the balances sum to ${t.after} after migration, ${t.before} before.`);
  }
  users.sort((a, b) => Buffer.compare(a.address, b.address) || Buffer.compare(a.tokenID, b.tokenID));

  const supply = new Map<string, bigint>();
  const supplySubstore = [...snapshot.substore(MODULE_NAME, TOKEN_STORES.supply, supplyCodec)]
    .map(({ key, value }) => ({ tokenID: ctx.tokenID(key), totalSupply: value.totalSupply }))
    .sort((a, b) => Buffer.compare(a.tokenID, b.tokenID));
  for (const s of supplySubstore) supply.set(s.tokenID.toString('hex'), s.totalSupply);
  const escrowSubstore = [...snapshot.substore(MODULE_NAME, TOKEN_STORES.escrow, escrowCodec)]
    .map(({ key, value }) => ({
      escrowChainID: key.subarray(0, 4),
      tokenID: ctx.tokenID(key.subarray(4)),
      amount: value.amount,
    }))
    .sort((a, b) => Buffer.compare(a.escrowChainID, b.escrowChainID) || Buffer.compare(a.tokenID, b.tokenID));
  const supportedTokensSubstore = [...snapshot.substore(MODULE_NAME, TOKEN_STORES.supportedTokens, supportedCodec)].map(
    ({ key, value }) => ({
      chainID: key,
      supportedTokenIDs: value.supportedTokenIDs.map((id) => ctx.tokenID(id)).sort(Buffer.compare),
    }),
  );
  const data = genesisCodec.encode({ userSubstore: users, supplySubstore, escrowSubstore, supportedTokensSubstore });
  return { module: MODULE_NAME, data, accounts: users.length, totals, supply, returnedLocked };
};
