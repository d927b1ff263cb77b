// The interoperability part of a random genesis block, by the mainchain rules: sidechains whose
// ID shares the mainchain's network byte, fees in KLY, terminated chains with their state and
// outbox accounts.
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { EMPTY_HASH } from '../../src/lib/tree/index.js';
import { CHAIN_ID, MAX_UINT64, randomName, TOKEN_KLY, uniqueSorted } from './genesis_generator_values.js';
import type { Rng } from './random.js';

const STATUS_TERMINATED = 2;

export interface GeneratedInterop {
  asset: Record<string, unknown>;
  /** Sidechains whose KLY escrow account the token asset must hold. */
  escrowChains: Buffer[];
}

const box = (rng: Rng) => ({
  appendPath: Array.from({ length: rng.int(4) }, () => rng.bytes(32)),
  size: rng.pick([0, rng.int(1000), rng.uint32()]),
  root: rng.bytes(32),
});

const chainValidators = (rng: Rng, features: Set<string>) => {
  const activeValidators = uniqueSorted(
    Array.from({ length: 1 + rng.int(rng.next() < 0.1 ? 40 : 5) }, () => rng.bytes(48)),
  ).map((blsKey) => ({
    blsKey,
    bftWeight: rng.next() < 0.05 ? MAX_UINT64 / 64n : 1n + BigInt(rng.int(2 ** 20)),
  }));
  const total = activeValidators.reduce((s, v) => s + v.bftWeight, 0n);
  const min = total / 3n + 1n;
  const certificateThreshold = rng.pick([min, total, min + (BigInt(rng.int(2 ** 30)) % (total - min + 1n))]);
  if (activeValidators.length > 5) features.add('interop:many chain validators');
  return { activeValidators, certificateThreshold };
};

export const generateInterop = (
  rng: Rng,
  { timestamp, features, noChains }: { timestamp: number; features: Set<string>; noChains: boolean },
): GeneratedInterop => {
  const chainIDs =
    noChains || rng.next() < 0.4
      ? []
      : uniqueSorted(
          Array.from({ length: 1 + rng.int(3) }, () => Buffer.concat([CHAIN_ID.subarray(0, 1), rng.bytes(3)])),
        ).filter((id) => !id.equals(CHAIN_ID));
  const names = new Set<string>();
  const chainInfos = chainIDs.map((chainID) => {
    let name = rng.next() < 0.05 ? 'klayr_mainchain' : randomName(rng, 32);
    while (names.has(name)) name = randomName(rng, 32);
    names.add(name);
    const validators = chainValidators(rng, features);
    const status = rng.int(3);
    features.add(`interop:status=${status}`);
    return {
      chainID,
      chainData: {
        name,
        lastCertificate: {
          height: rng.pick([0, rng.uint32()]),
          timestamp: rng.pick([0, timestamp - 1, rng.int(timestamp)]),
          stateRoot: rng.bytes(32),
          validatorsHash: computeValidatorsHash(validators.activeValidators, validators.certificateThreshold),
        },
        status,
      },
      channelData: {
        inbox: box(rng),
        outbox: box(rng),
        partnerChainOutboxRoot: rng.bytes(32),
        messageFeeTokenID: TOKEN_KLY,
        minReturnFeePerByte: 1000n,
      },
      chainValidators: validators,
    };
  });
  const terminated = chainInfos.filter((c) => c.chainData.status === STATUS_TERMINATED);
  const terminatedStateAccounts = terminated.map((c) => ({
    chainID: c.chainID,
    terminatedStateAccount: {
      stateRoot: c.chainData.lastCertificate.stateRoot,
      mainchainStateRoot: EMPTY_HASH,
      initialized: true,
    },
  }));
  const terminatedOutboxAccounts = terminated
    .filter(() => rng.next() < 0.6)
    .map((c) => ({
      chainID: c.chainID,
      terminatedOutboxAccount: {
        outboxRoot: rng.bytes(32),
        outboxSize: rng.uint32(),
        partnerChainInboxSize: rng.uint32(),
      },
    }));
  if (chainInfos.length === 0) features.add('interop:no chains');
  if (terminatedOutboxAccounts.length > 0) features.add('interop:terminated outbox');
  const ownChainNonce = chainInfos.length === 0 ? 0n : rng.pick([1n, rng.uint64() || 1n]);
  return {
    asset: {
      ownChainName: 'klayr_mainchain',
      ownChainNonce,
      chainInfos,
      terminatedStateAccounts,
      terminatedOutboxAccounts,
    },
    escrowChains: chainIDs,
  };
};
