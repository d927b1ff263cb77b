// Random token module states for the cross-chain differential tests (test/modules/token_cross_chain*.test.ts).
import { compile } from '../../src/lib/codec/index.js';
import { computeStorePrefix, computeSubstorePrefix } from '../../src/lib/state/keys.js';
import type { UserAccount } from '../../src/modules/token/schemas.js';
import {
  escrowStoreSchema,
  supplyStoreSchema,
  supportedTokensStoreSchema,
  userStoreSchema,
} from '../../src/modules/token/schemas.js';
import type { InteropSetup } from './klayr_token_interop.js';
import type { Rng } from './random.js';

export const hex = (s: string): Buffer => Buffer.from(s, 'hex');
export const TOKEN_PREFIX = computeStorePrefix('token');
export const key = (substore: number, k: Buffer): Buffer =>
  Buffer.concat([TOKEN_PREFIX, computeSubstorePrefix(substore), k]);
export const userCodec = compile<UserAccount>(userStoreSchema);

export const MAINCHAIN = hex('04000000');
export const SIDECHAIN = hex('04000002');
export const PARTNER = hex('04000001');
export const OTHER = hex('04000005');
export const KLY = hex('0400000000000000');
export const AVAILABLE_FEE = 'CONTEXT_STORE_KEY_AVAILABLE_FEE';

/** Our errors for an account or escrow Klayr reads with get (which throws lisk-db's NotFoundError there). */
export const missingEntry = (message: string): boolean =>
  /^(Token|Escrow) account (of|for) .* does not exist\.$/.test(message);

export interface World {
  setup: InteropSetup;
  addresses: Buffer[];
  tokens: Buffer[];
}

export const amountOf = (rng: Rng): bigint =>
  rng.pick([0n, 1n, 999n, 5000000n, 7000000n, 100000000n, 10n ** 12n, BigInt(rng.int(2 ** 31))]);

/** A random token state: accounts of native, KLY and foreign tokens, escrows for two chains, supported tokens, on a mainchain or a sidechain. */
export const randomWorld = (rng: Rng, overrides: Partial<InteropSetup> = {}): World => {
  const chainID = rng.pick([MAINCHAIN, SIDECHAIN]);
  const native = [Buffer.concat([chainID, hex('00000000')]), Buffer.concat([chainID, hex('00000001')])];
  const tokens = [
    ...native,
    KLY,
    Buffer.concat([PARTNER, hex('00000000')]),
    Buffer.concat([PARTNER, hex('00000003')]),
    Buffer.concat([OTHER, hex('00000000')]),
  ];
  const addresses = [rng.bytes(20), rng.bytes(20), rng.bytes(20), rng.bytes(20)];
  const entries: { key: Buffer; value: Buffer }[] = [];
  for (const address of addresses) {
    for (const tokenID of tokens) {
      if (rng.next() < 0.45) continue;
      const locked = rng.next() < 0.3 ? [{ module: rng.pick(['fee', 'pos', 'dex']), amount: amountOf(rng) || 1n }] : [];
      entries.push({
        key: key(0, Buffer.concat([address, tokenID])),
        value: userCodec.encode({ availableBalance: amountOf(rng), lockedBalances: locked }),
      });
    }
  }
  for (const tokenID of native)
    entries.push({ key: key(1, tokenID), value: compile(supplyStoreSchema).encode({ totalSupply: 2n ** 62n }) });
  if (chainID.equals(MAINCHAIN))
    entries.push({ key: key(1, KLY), value: compile(supplyStoreSchema).encode({ totalSupply: 2n ** 62n }) });
  for (const escrowChain of [PARTNER, OTHER]) {
    for (const tokenID of chainID.equals(MAINCHAIN) ? [...native, KLY] : native) {
      if (rng.next() < 0.6)
        entries.push({
          key: key(2, Buffer.concat([escrowChain, tokenID])),
          value: compile(escrowStoreSchema).encode({ amount: amountOf(rng) }),
        });
    }
  }
  const supported = compile<{ supportedTokenIDs: Buffer[] }>(supportedTokensStoreSchema);
  const support = rng.pick(['none', 'all', 'chain', 'token']);
  if (support === 'all')
    entries.push({ key: key(3, Buffer.alloc(0)), value: supported.encode({ supportedTokenIDs: [] }) });
  if (support === 'chain') entries.push({ key: key(3, PARTNER), value: supported.encode({ supportedTokenIDs: [] }) });
  if (support === 'token')
    entries.push({ key: key(3, PARTNER), value: supported.encode({ supportedTokenIDs: [tokens[3]!] }) });
  const contextStore: [string, unknown][] = [];
  if (rng.next() < 0.8) contextStore.push([AVAILABLE_FEE, rng.pick([0n, 4999999n, 5000000n, 7000000n, 30000000n])]);
  const setup: InteropSetup = {
    chainID,
    userAccountInitializationFee: 5000000n,
    escrowAccountInitializationFee: 7000000n,
    ...(rng.next() < 0.3 ? { feePoolAddress: rng.pick(addresses) } : {}),
    messageFeeTokenID: rng.next() < 0.7 ? KLY : native[0]!,
    entries,
    contextStore,
    height: 10 + rng.int(1000),
    timestamp: 1700000000 + rng.int(100000),
    senderAddress: rng.next() < 0.85 ? rng.pick(addresses) : rng.bytes(20),
    transactionFee: amountOf(rng),
    ...overrides,
  };
  return { setup, addresses, tokens };
};
