import { computeStorePrefix } from '../../lib/state/keys.js';
import { arrayOf, booleanType, endpointSchema, hex, klayr32, storeMetadata, stringType } from '../metadata.js';
import type { ModuleMetadataDeclaration } from '../metadata.js';
import { MODULE_NAME } from './module.js';
import { authAccountSchema, multisigRegMsgSchema } from './schemas.js';

const transactionRequest = endpointSchema('/auth/transactionRequest', { transaction: hex }, ['transaction']);
const verifyResult = endpointSchema('/auth/verifyResult', { verified: booleanType }, ['verified']);

/** A member's hex public key and signature in sortMultisignatureGroup (an optional member may not have signed). */
const member = (fieldNumber: number, minSignatureLength: number) => ({
  type: 'object',
  required: ['publicKey', 'signature'],
  properties: {
    publicKey: { type: 'string', minLength: 64, maxLength: 64, fieldNumber },
    signature: { type: 'string', minLength: minSignatureLength, maxLength: 128, fieldNumber: fieldNumber + 1 },
  },
}) as const;

const keys = (fieldNumber: number) => ({ ...arrayOf({ dataType: 'bytes', minLength: 32, maxLength: 32 }), fieldNumber, minItems: 0, maxItems: 64 }) as const;

export const authMetadata: ModuleMetadataDeclaration = {
  name: MODULE_NAME,
  stores: [storeMetadata(computeStorePrefix(MODULE_NAME), 0, authAccountSchema)],
  endpoints: [
    { name: 'getAuthAccount', request: endpointSchema('/auth/addressRequest', { address: klayr32 }, ['address']), response: authAccountSchema },
    { name: 'isValidNonce', request: transactionRequest, response: verifyResult },
    { name: 'isValidSignature', request: transactionRequest, response: verifyResult },
    { name: 'getMultiSigRegMsgSchema', response: multisigRegMsgSchema },
    {
      name: 'sortMultisignatureGroup',
      request: endpointSchema(
        '/auth/command/sortMultisig',
        { mandatory: { ...arrayOf(member(1, 128)), minItems: 1, maxItems: 64 }, optional: { ...arrayOf(member(3, 0)), minItems: 0, maxItems: 64 } },
        ['mandatory', 'optional'],
      ),
      response: endpointSchema(
        '/auth/sortMultisignatureGroupResponse',
        { mandatoryKeys: keys(1), optionalKeys: keys(2), signatures: { ...arrayOf({ dataType: 'bytes', minLength: 64, maxLength: 64 }), fieldNumber: 3 } },
        ['mandatoryKeys', 'optionalKeys', 'signatures'],
      ),
    },
    { name: 'getMultiSigRegMsgTag', response: endpointSchema('/auth/mutliSignatureRegistrationSignatureMessageTagResponse', { tag: stringType }, ['tag']) },
  ],
};
