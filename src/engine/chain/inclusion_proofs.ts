import type { SMTProof } from '../../lib/tree/index.js';
import type { KestrelDatabases } from '../../storage/database.js';
import type { PreparedState, StateDB } from '../state/state_db.js';
import { InclusionProofStore } from './inclusion_proof_store.js';
import { prunableBelow } from './retention.js';

/** system.inclusionProofKeys and system.keepInclusionProofsForHeights (-1: all). */
export interface InclusionProofConfig {
  keys: Buffer[];
  keepForHeights: number;
}

/** As Klayr after each block: a proof of the configured state keys against the block's state root, kept by height. */
export class InclusionProofs {
  readonly #store: InclusionProofStore;

  constructor(
    dbs: KestrelDatabases,
    private readonly stateDB: StateDB,
    private readonly config?: InclusionProofConfig,
  ) {
    this.#store = new InclusionProofStore(dbs);
  }

  /** The proof for a block about to be committed (none configured: undefined). */
  prove(prepared: PreparedState): SMTProof | undefined {
    const { config } = this;
    if (config === undefined || config.keys.length === 0 || config.keepForHeights === 0) return undefined;
    return this.stateDB.provePrepared(prepared, config.keys);
  }

  /** Stores the block's proof and prunes old ones like events; inside the commit's transaction. */
  save(dbs: KestrelDatabases, height: number, proof: SMTProof, maxHeightPrecommitted: number): void {
    this.#store.save(dbs, height, proof);
    const keep = this.config?.keepForHeights ?? -1;
    if (keep > 0) {
      const below = prunableBelow(maxHeightPrecommitted, height, keep);
      if (below > 0) this.#store.removeBelow(dbs, below);
    }
  }

  remove(dbs: KestrelDatabases, height: number): void {
    this.#store.remove(dbs, height);
  }

  at(height: number): SMTProof {
    return this.#store.at(height);
  }
}
