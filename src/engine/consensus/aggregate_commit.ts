import type { BlockHeader } from '../../lib/chain/block.js';
import { certificateSignatureRequest, unsignedCertificateOf } from '../../lib/chain/certificate.js';
import type { WeightedAggregateRequest } from '../../lib/crypto/bls_key_cache.js';
import { BLSKeyCache } from '../../lib/crypto/bls_key_cache.js';
import type { BFTMethod } from '../bft/index.js';
import { BFTParameterNotFoundError } from '../bft/index.js';
import type { BlockStore } from '../chain/block_store.js';
import type { BlsVerifier } from '../pools/bls_verifier.js';
import type { BlockState } from '../state/state_db.js';

type AggregateCommit = BlockHeader['aggregateCommit'];

export interface AggregateCommitVerifierOptions {
  bft: BFTMethod;
  blocks: BlockStore;
  chainID: Buffer;
  minimumCertifyHeight: number;
}

/** A block's aggregate commit checked against BFT state (LIP 0061), for received blocks and for the generator's own. */
export class AggregateCommitVerifier {
  readonly #blsKeys = new BLSKeyCache();

  constructor(private readonly options: AggregateCommitVerifierOptions) {}

  /**
   * LIP 0061's rules for a block's aggregate commit: true for an empty commit repeating the
   * certified height, false for a commit that breaks a rule, otherwise the signature check
   * (a certificate of a precommitted block by enough BFT weight) still to run.
   */
  check(engine: BlockState, commit: AggregateCommit): boolean | WeightedAggregateRequest {
    const { bft, blocks, chainID, minimumCertifyHeight } = this.options;
    const { maxHeightCertified, maxHeightPrecommitted } = bft.getBFTHeights(engine);
    const bitsEmpty = commit.aggregationBits.length === 0;
    const signatureEmpty = commit.certificateSignature.length === 0;
    if (bitsEmpty && signatureEmpty) return commit.height === maxHeightCertified;
    if (bitsEmpty || signatureEmpty) return false;
    if (
      commit.height <= maxHeightCertified ||
      commit.height > maxHeightPrecommitted ||
      commit.height < minimumCertifyHeight
    )
      return false;
    try {
      const next = Math.max(bft.getNextHeightBFTParameters(engine, maxHeightCertified + 1), minimumCertifyHeight + 1);
      if (commit.height > next - 1) return false;
    } catch (error) {
      if (!(error instanceof BFTParameterNotFoundError)) throw error;
    }
    const certified = blocks.byHeight(commit.height);
    if (certified === undefined) return false;
    const { validators, certificateThreshold, validatorsHash } = bft.getBFTParametersActiveValidators(
      engine,
      commit.height,
    );
    return certificateSignatureRequest(
      validatorsHash,
      validators,
      certificateThreshold,
      chainID,
      unsignedCertificateOf(certified.header),
      commit.aggregationBits,
      commit.certificateSignature,
    );
  }

  /** The check on this thread (with a cache of each validator set's parsed BLS keys). */
  verify(engine: BlockState, commit: AggregateCommit): boolean {
    const check = this.check(engine, commit);
    return typeof check === 'boolean' ? check : this.#blsKeys.verifyWeighted(check);
  }

  /** The check with the signature checked by a verifier (in a node, the `bls` pool). */
  async verifyBy(engine: BlockState, commit: AggregateCommit, verifier: BlsVerifier): Promise<boolean> {
    const check = this.check(engine, commit);
    return typeof check === 'boolean' ? check : verifier.verifyAggregate(check);
  }
}
