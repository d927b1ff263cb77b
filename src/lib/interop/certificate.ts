import { unsignedCertificateSchema } from '../chain/certificate.js';
import type { CompiledSchema, Schema } from '../codec/index.js';
import { compile } from '../codec/index.js';

/** At most 199 validators sign a certificate: ceil(199 / 8) bytes of aggregation bits. */
const MAX_LENGTH_AGGREGATION_BITS = 25;

/** A signed certificate as a cross-chain update carries it (klayr-framework certificate_generation certificateSchema). */
export const certificateSchema = {
  $id: '/consensus/certificate',
  type: 'object',
  required: [...unsignedCertificateSchema.required, 'aggregationBits', 'signature'],
  properties: {
    ...unsignedCertificateSchema.properties,
    timestamp: { minimum: 1, dataType: 'uint32', fieldNumber: 3 },
    aggregationBits: { dataType: 'bytes', fieldNumber: 6, maxLength: MAX_LENGTH_AGGREGATION_BITS },
    signature: { dataType: 'bytes', minLength: 96, maxLength: 96, fieldNumber: 7 },
  },
} as const satisfies Schema;

export interface Certificate {
  blockID: Buffer;
  height: number;
  timestamp: number;
  stateRoot: Buffer;
  validatorsHash: Buffer;
  aggregationBits: Buffer;
  signature: Buffer;
}

const certificateCodec: CompiledSchema<Certificate> = compile<Certificate>(certificateSchema);

/** Decodes and validates certificate bytes (Klayr decodes, then validates against the schema). */
export const decodeCertificate = (bytes: Buffer): Certificate => {
  const certificate = certificateCodec.decode(bytes);
  certificateCodec.validate(certificate);
  return certificate;
};

export const encodeCertificate = (certificate: Certificate): Buffer => certificateCodec.encode(certificate);
