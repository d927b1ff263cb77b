import type { EndpointDeclarations, StoreAccess } from '../../engine/state_machine/module.js';
import { klayr32ToAddress } from '../../lib/crypto/address.js';
import { blsPopVerify } from '../../lib/crypto/bls.js';
import type { Endpoints } from '../../lib/endpoint/definition.js';
import { booleanType, hex, hexOfLength } from '../../lib/endpoint/metadata.js';
import type { ValidatorKeys } from './schemas.js';
import { validatorKeysSchema } from './schemas.js';
import { validatorsStore } from './stores.js';

/** The validators namespace, answering as klayr-framework's ValidatorsEndpoint. */
export const validatorsEndpoints = (state: () => StoreAccess): Endpoints => ({
  validateBLSKey: {
    description:
      'Whether a BLS key with its proof of possession could be registered: {valid:false} for a registered key or a bad proof.',
    params: {
      type: 'object',
      required: ['proofOfPossession', 'blsKey'],
      properties: {
        proofOfPossession: { type: 'string', format: 'hex', minLength: 192, maxLength: 192 },
        blsKey: { type: 'string', format: 'hex', minLength: 96, maxLength: 96 },
      },
    },
    handler: ({ params }) => {
      const blsKey = Buffer.from(params.blsKey as string, 'hex');
      if (validatorsStore(state(), 'blsKeys').has(blsKey)) return { valid: false };
      return { valid: blsPopVerify(blsKey, Buffer.from(params.proofOfPossession as string, 'hex')) };
    },
  },
  getValidator: {
    description: "A validator's generator and BLS keys (empty strings for an address that is no validator).",
    params: { type: 'object', required: ['address'], properties: { address: { type: 'string', format: 'klayr32' } } },
    handler: ({ params }) => {
      const keys = validatorsStore(state(), 'validatorKeys').getWithSchema<ValidatorKeys>(
        klayr32ToAddress(params.address as string),
        validatorKeysSchema,
      );
      return keys === undefined
        ? { generatorKey: '', blsKey: '' }
        : { generatorKey: keys.generatorKey.toString('hex'), blsKey: keys.blsKey.toString('hex') };
    },
  },
});

/** The validators endpoints as Klayr's metadata publishes them. */
export const VALIDATORS_ENDPOINTS: EndpointDeclarations = {
  published: [
    {
      name: 'validateBLSKey',
      request: {
        $id: '/validators/endpoint/validateBLSKeyRequest',
        title: 'Bls Key Properties',
        type: 'object',
        properties: { proofOfPossession: hexOfLength(192), blsKey: hexOfLength(96) },
        required: ['proofOfPossession', 'blsKey'],
      },
      response: {
        $id: '/validators/endpoint/validateBLSKeyResponse',
        title: 'Bls Key Properties',
        type: 'object',
        properties: { valid: booleanType },
        required: ['valid'],
      },
    },
    {
      name: 'getValidator',
      // Klayr publishes the address with dataType (not type) 'string'
      request: {
        $id: '/validators/endpoint/getValidatorRequest',
        title: 'Validator properties',
        type: 'object',
        properties: { address: { dataType: 'string', format: 'klayr32' } },
        required: ['address'],
      },
      response: {
        $id: '/validators/endpoint/getValidatorResponse',
        title: 'Validator properties',
        type: 'object',
        properties: { generatorKey: hex, blsKey: hex },
        required: ['generatorKey', 'blsKey'],
      },
    },
  ],
};
