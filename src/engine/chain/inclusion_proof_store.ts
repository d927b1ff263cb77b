import type { Schema } from '../../lib/codec/index.js';
import { compile } from '../../lib/codec/index.js';
import type { SMTProof } from '../../lib/tree/index.js';
import type { KestrelDatabases } from '../../storage/database.js';
import { removeHeightsBelow } from '../../storage/prune.js';
import { TABLES, tableHeightKey } from '../../storage/tables.js';

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
      items: {
        type: 'object',
        properties: {
          key: { dataType: 'bytes', fieldNumber: 1 },
          value: { dataType: 'bytes', fieldNumber: 2 },
          bitmap: { dataType: 'bytes', fieldNumber: 3 },
        },
      },
    },
  },
} as const satisfies Schema;
const proofCodec = compile<SMTProof>(inclusionProofSchema);
const proofKey = (height: number): Buffer => tableHeightKey(TABLES.inclusionProofs, height);

/** Proofs of the configured state keys (system.inclusionProofKeys) at each height, kept like events; written inside the block's commit. */
export class InclusionProofStore {
  constructor(private readonly dbs: KestrelDatabases) {}

  save(dbs: KestrelDatabases, height: number, proof: SMTProof): void {
    dbs.meta.putSync(proofKey(height), proofCodec.encode(proof));
  }

  /** An empty proof for a height without one, as Klayr answers. */
  at(height: number): SMTProof {
    const raw = this.dbs.meta.get(proofKey(height));
    return raw === undefined ? { siblingHashes: [], queries: [] } : proofCodec.decode(raw);
  }

  remove(dbs: KestrelDatabases, height: number): void {
    dbs.meta.removeSync(proofKey(height));
  }

  removeBelow(dbs: KestrelDatabases, height: number): void {
    removeHeightsBelow(dbs.meta, TABLES.inclusionProofs, height);
  }
}
