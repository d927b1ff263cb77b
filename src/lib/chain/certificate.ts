import type { Schema } from '../codec/index.js';
import { compile } from '../codec/index.js';
import { blsSignData, blsVerifyData } from '../crypto/bls.js';
import type { WeightedAggregateRequest } from '../crypto/bls_key_cache.js';
import type { SingleSignatureRequest } from '../crypto/bls_requests.js';
import { MESSAGE_TAG_CERTIFICATE } from '../crypto/tags.js';
import type { BlockHeader } from './block.js';
import { blockHeaderID } from './block.js';

const hash = (fieldNumber: number) => ({ dataType: 'bytes', minLength: 32, maxLength: 32, fieldNumber }) as const;

/** LIP 0061's unsigned certificate: what validators sign to certify a block. */
export const unsignedCertificateSchema = {
  $id: '/consensus/unsignedCertificate',
  type: 'object',
  required: ['blockID', 'height', 'timestamp', 'stateRoot', 'validatorsHash'],
  properties: {
    blockID: hash(1),
    height: { dataType: 'uint32', fieldNumber: 2 },
    timestamp: { dataType: 'uint32', fieldNumber: 3 },
    stateRoot: hash(4),
    validatorsHash: hash(5),
  },
} as const satisfies Schema;

export interface UnsignedCertificate {
  blockID: Buffer;
  height: number;
  timestamp: number;
  stateRoot: Buffer;
  validatorsHash: Buffer;
}

const certificateCodec = compile<UnsignedCertificate>(unsignedCertificateSchema);

export const unsignedCertificateOf = (header: BlockHeader): UnsignedCertificate => ({
  blockID: blockHeaderID(header),
  height: header.height,
  timestamp: header.timestamp,
  stateRoot: header.stateRoot,
  validatorsHash: header.validatorsHash,
});

export const signCertificate = (
  blsPrivateKey: Uint8Array,
  chainID: Uint8Array,
  certificate: UnsignedCertificate,
): Buffer => blsSignData(MESSAGE_TAG_CERTIFICATE, chainID, certificateCodec.encode(certificate), blsPrivateKey);

export const verifySingleCertificateSignature = (
  blsKey: Uint8Array,
  signature: Uint8Array,
  chainID: Uint8Array,
  certificate: UnsignedCertificate,
): boolean => blsVerifyData(MESSAGE_TAG_CERTIFICATE, chainID, certificateCodec.encode(certificate), signature, blsKey);

/** Validators ordered by BLS key, as aggregation bits index them. */
export const sortByBLSKey = <V extends { blsKey: Buffer }>(validators: readonly V[]): V[] =>
  [...validators].sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));

/** The check of an aggregate certificate signature: validators ordered by BLS key, as aggregation bits index them. */
export const certificateSignatureRequest = (
  validatorsHash: Buffer,
  validators: readonly { blsKey: Buffer; bftWeight: bigint }[],
  threshold: bigint,
  chainID: Uint8Array,
  certificate: UnsignedCertificate,
  aggregationBits: Uint8Array,
  signature: Uint8Array,
): WeightedAggregateRequest => {
  const sorted = sortByBLSKey(validators);
  return {
    keySetID: validatorsHash,
    publicKeys: sorted.map((v) => v.blsKey),
    weights: sorted.map((v) => v.bftWeight),
    threshold,
    aggregationBits,
    signature,
    tag: MESSAGE_TAG_CERTIFICATE,
    chainID,
    message: certificateCodec.encode(certificate),
  };
};

/** The check of one validator's signature of a certificate (a single commit). */
export const singleCertificateSignatureRequest = (
  blsKey: Uint8Array,
  signature: Uint8Array,
  chainID: Uint8Array,
  certificate: UnsignedCertificate,
): SingleSignatureRequest => ({
  publicKey: blsKey,
  signature,
  tag: MESSAGE_TAG_CERTIFICATE,
  chainID,
  message: certificateCodec.encode(certificate),
});
