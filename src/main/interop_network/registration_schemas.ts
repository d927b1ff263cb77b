import type { Schema } from '../../lib/codec/index.js';
import { activeValidatorsItems } from '../../lib/interop/ccm_params.js';

/**
 * Params of the two registration commands, as klayr-framework 0.12.3's interoperability
 * schemas.js declares them (sidechainRegParams, mainchainRegParams): the transactions
 * `network:interop` posts are encoded with these.
 */
const chainID = (fieldNumber: number) => ({ dataType: 'bytes', fieldNumber, minLength: 4, maxLength: 4 }) as const;
const chainName = (fieldNumber: number) => ({ dataType: 'string', fieldNumber, minLength: 1, maxLength: 32 }) as const;

/** Klayr's MAX_NUM_VALIDATORS (a sidechain) and NUMBER_ACTIVE_VALIDATORS_MAINCHAIN. */
const MAX_SIDECHAIN_VALIDATORS = 199;
const MAINCHAIN_ACTIVE_VALIDATORS = 51;

export const sidechainRegParamsSchema = {
  $id: '/modules/interoperability/mainchain/sidechainRegistration',
  type: 'object',
  required: ['chainID', 'name', 'sidechainValidators', 'sidechainCertificateThreshold'],
  properties: {
    chainID: chainID(1),
    name: chainName(2),
    sidechainValidators: activeValidatorsItems(MAX_SIDECHAIN_VALIDATORS, 3),
    sidechainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
  },
} as const satisfies Schema;

export const mainchainRegParamsSchema = {
  $id: '/modules/interoperability/sidechain/mainchainRegistration',
  type: 'object',
  required: ['ownChainID', 'ownName', 'mainchainValidators', 'mainchainCertificateThreshold', 'signature', 'aggregationBits'],
  properties: {
    ownChainID: chainID(1),
    ownName: chainName(2),
    mainchainValidators: activeValidatorsItems(MAINCHAIN_ACTIVE_VALIDATORS, 3),
    mainchainCertificateThreshold: { dataType: 'uint64', fieldNumber: 4 },
    signature: { dataType: 'bytes', fieldNumber: 5, minLength: 96, maxLength: 96 },
    aggregationBits: { dataType: 'bytes', fieldNumber: 6 },
  },
} as const satisfies Schema;
