import { compile } from '../../lib/codec/index.js';
import type { Schema } from '../../lib/codec/index.js';
import type { SMTProof } from '../../lib/tree/index.js';
import type { BinaryDB } from '../storage/database.js';
import { heightKey, removeHeightsBelow } from '../storage/height_key.js';

/** @klayr/chain's stored inclusion proof. */
const inclusionProofSchema = {
  $id: '/storage/inclusionProof',
  type: 'object',
  required: ['siblingHashes', 'queries'],
  properties: {
    siblingHashes: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } },
    queries: {
      type: 'array',
      fieldNumber: 2,
      items: { type: 'object', properties: { key: { dataType: 'bytes', fieldNumber: 1 }, value: { dataType: 'bytes', fieldNumber: 2 }, bitmap: { dataType: 'bytes', fieldNumber: 3 } } },
    },
  },
} as const satisfies Schema;
const proofCodec = compile<SMTProof>(inclusionProofSchema);
const PREFIX = Buffer.from('proof:');

const proofKey = (height: number): Buffer => heightKey(PREFIX, height);

/** Proofs of the configured state keys (system.inclusionProofKeys) at each height, kept like events. */
export class InclusionProofStore {
  constructor(private readonly db: BinaryDB) {}

  save(height: number, proof: SMTProof): void {
    this.db.putSync(proofKey(height), proofCodec.encode(proof));
  }

  /** An empty proof for a height without one, as Klayr answers. */
  at(height: number): SMTProof {
    const raw = this.db.get(proofKey(height));
    return raw === undefined ? { siblingHashes: [], queries: [] } : proofCodec.decode(raw);
  }

  remove(height: number): void {
    this.db.removeSync(proofKey(height));
  }

  removeBelow(height: number): void {
    removeHeightsBelow(this.db, PREFIX, height);
  }
}
