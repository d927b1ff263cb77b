import { klayr32ToAddress } from '../../lib/crypto/address.js';
import type { StoreAccess } from '../../engine/state_machine/module.js';
import type { EndpointDefinition } from '../../rpc/registry.js';
import { hexBytes } from '../../rpc/params.js';
import { getValidatorReveals, isSeedValidInput } from './method.js';

const SEED_REVEAL_LENGTH = 16;

/** The random module's on-chain reader (the hash onion endpoints belong to the generator's off-chain store). */
export const randomEndpoints = (state: () => StoreAccess): Record<string, EndpointDefinition> => ({
  isSeedRevealValid: {
    params: { type: 'object', required: ['generatorAddress', 'seedReveal'], properties: { generatorAddress: { type: 'string', format: 'klayr32' }, seedReveal: hexBytes(SEED_REVEAL_LENGTH) } },
    handler: ({ params }) => ({
      valid: isSeedValidInput(klayr32ToAddress(params.generatorAddress as string), Buffer.from(params.seedReveal as string, 'hex'), getValidatorReveals(state()), false),
    }),
  },
});
