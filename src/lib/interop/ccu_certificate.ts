import type { AggregateCommit, BlockHeader } from '../chain/block.js';
import { unsignedCertificateOf } from '../chain/certificate.js';
import type { Certificate } from './certificate.js';

/** The certificate an aggregate commit makes of the header at its height (Klayr's getCertificateFromAggregateCommitByBlockHeader). */
export const certificateFromAggregateCommit = (aggregateCommit: AggregateCommit, header: BlockHeader): Certificate => ({
  ...unsignedCertificateOf(header),
  aggregationBits: aggregateCommit.aggregationBits,
  signature: aggregateCommit.certificateSignature,
});
