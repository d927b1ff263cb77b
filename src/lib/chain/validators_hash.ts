import type { Schema } from '../codec/index.js';
import { compile } from '../codec/index.js';
import { sha256 } from '../crypto/hash.js';

export const validatorsHashInputSchema = {
  $id: '/modules/bft/validatorsHashInput',
  type: 'object',
  required: ['activeValidators', 'certificateThreshold'],
  properties: {
    activeValidators: {
      type: 'array',
      fieldNumber: 1,
      items: {
        type: 'object',
        required: ['blsKey', 'bftWeight'],
        properties: {
          blsKey: { dataType: 'bytes', fieldNumber: 1 },
          bftWeight: { dataType: 'uint64', fieldNumber: 2 },
        },
      },
    },
    certificateThreshold: { dataType: 'uint64', fieldNumber: 2 },
  },
} as const satisfies Schema;

const inputCodec = compile<{ activeValidators: { blsKey: Buffer; bftWeight: bigint }[]; certificateThreshold: bigint }>(
  validatorsHashInputSchema,
);

/** LIP 0058 validatorsHash: validators with positive BFT weight, sorted by BLS key, with the certificate threshold. */
export const computeValidatorsHash = (
  validators: readonly { blsKey: Buffer; bftWeight: bigint }[],
  certificateThreshold: bigint,
): Buffer =>
  sha256(
    inputCodec.encode({
      activeValidators: validators
        .filter((v) => v.bftWeight > 0n)
        .map((v) => ({ blsKey: v.blsKey, bftWeight: v.bftWeight }))
        .sort((a, b) => Buffer.compare(a.blsKey, b.blsKey)),
      certificateThreshold,
    }),
  );
