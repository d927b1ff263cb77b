import { klayr32ToAddress } from '../../lib/crypto/address.js';
import { sha256 } from '../../lib/crypto/hash.js';
import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { EMPTY_KEY, seedRevealSchema, SEED_LENGTH, validatorRevealsStore } from './stores.js';
import type { ValidatorReveal } from './stores.js';

/**
 * LIP 0046: a seed reveal is valid when it hashes to the generator's last revealed seed;
 * without a previous reveal it is valid only where no previous seed is required.
 */
export const isSeedValidInput = (generatorAddress: Buffer, seedReveal: Buffer, reveals: readonly ValidatorReveal[], previousSeedRequired = true): boolean => {
  const last = [...reveals].reverse().find((r) => r.generatorAddress.equals(generatorAddress));
  if (last === undefined) return !previousSeedRequired;
  return last.seedReveal.equals(sha256(seedReveal).subarray(0, SEED_LENGTH));
};

/** The random module's on-chain reader (the hash onion endpoints belong to the generator's off-chain store). */
export const randomEndpoints = (state: () => StoreAccess): Record<string, EndpointDefinition> => ({
  isSeedRevealValid: {
    params: { type: 'object', required: ['generatorAddress', 'seedReveal'], properties: { generatorAddress: { type: 'string', format: 'klayr32' }, seedReveal: { type: 'string', format: 'hex' } } },
    handler: ({ params }) => {
      const reveals = validatorRevealsStore(state()).getWithSchema<{ validatorReveals: ValidatorReveal[] }>(EMPTY_KEY, seedRevealSchema)?.validatorReveals ?? [];
      return { valid: isSeedValidInput(klayr32ToAddress(params.generatorAddress as string), Buffer.from(params.seedReveal as string, 'hex'), reveals, false) };
    },
  },
});
