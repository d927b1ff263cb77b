import { unsignedCertificateSchema } from '../../../lib/chain/certificate.js';
import { compile } from '../../../lib/codec/index.js';
import { MESSAGE_TAG_CERTIFICATE, MESSAGE_TAG_CHAIN_REG } from '../../../lib/crypto/tags.js';
import type { AggregateCheck } from '../../../lib/interop/aggregate_verdicts.js';
import { registrationSignatureMessageSchema } from '../../../lib/interop/ccm_params.js';
import type { Certificate } from '../../../lib/interop/certificate.js';
import type { ActiveValidator } from './utils.js';

const unsignedCodec = compile<Omit<Certificate, 'aggregationBits' | 'signature'>>(unsignedCertificateSchema);
const registrationMessageCodec = compile<{
  ownChainID: Buffer;
  ownName: string;
  mainchainValidators: ActiveValidator[];
  mainchainCertificateThreshold: bigint;
}>(registrationSignatureMessageSchema);

const sortedByKey = (validators: readonly ActiveValidator[]): ActiveValidator[] =>
  [...validators].sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));

/** The aggregate check of a partner chain's certificate (Klayr's verifyAggregateCertificateSignature). */
export const certificateSignatureCheck = (
  validators: { activeValidators: readonly ActiveValidator[]; certificateThreshold: bigint },
  chainID: Buffer,
  certificate: Certificate,
): AggregateCheck => {
  const sorted = sortedByKey(validators.activeValidators);
  const { aggregationBits, signature, ...unsigned } = certificate;
  return {
    publicKeys: sorted.map((v) => v.blsKey),
    weights: sorted.map((v) => v.bftWeight),
    threshold: validators.certificateThreshold,
    aggregationBits,
    signature,
    tag: MESSAGE_TAG_CERTIFICATE,
    chainID,
    message: unsignedCodec.encode(unsigned),
  };
};

export interface RegisterMainchainSignatureInput {
  ownChainID: Buffer;
  ownName: string;
  mainchainValidators: ActiveValidator[];
  mainchainCertificateThreshold: bigint;
  signature: Buffer;
  aggregationBits: Buffer;
}

/** The aggregate check of registerMainchain: the sidechain's own active validators sign the registration message. */
export const registrationSignatureCheck = (
  ownValidators: readonly ActiveValidator[],
  certificateThreshold: bigint,
  params: RegisterMainchainSignatureInput,
): AggregateCheck => {
  const active = sortedByKey(ownValidators.filter((v) => v.bftWeight > 0n));
  const { ownChainID, ownName, mainchainValidators, mainchainCertificateThreshold } = params;
  return {
    publicKeys: active.map((v) => v.blsKey),
    weights: active.map((v) => v.bftWeight),
    threshold: certificateThreshold,
    aggregationBits: params.aggregationBits,
    signature: params.signature,
    tag: MESSAGE_TAG_CHAIN_REG,
    chainID: ownChainID,
    message: registrationMessageCodec.encode({
      ownChainID,
      ownName,
      mainchainValidators,
      mainchainCertificateThreshold,
    }),
  };
};
