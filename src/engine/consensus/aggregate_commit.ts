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

/** Prefetched verdicts kept at most: a synchronization's batches hold far fewer (one commit per block). */
const MAX_PREFETCHED = 2048;

/** Everything a weighted aggregate check reads: equal keys, equal verdicts (the validators hash commits to the keys, weights and threshold). */
const requestKey = (r: WeightedAggregateRequest): string =>
  Buffer.concat([r.keySetID, r.chainID, r.aggregationBits, r.signature, r.message]).toString('latin1') +
  `|${r.tag}|${r.aggregationBits.length}|${r.signature.length}|${r.chainID.length}`;

/** A block's aggregate commit checked against BFT state (LIP 0061), for received blocks and for the generator's own. */
export class AggregateCommitVerifier {
  readonly #blsKeys = new BLSKeyCache();
  /** Signature checks started ahead (prefetch), by everything they read; undefined: the check failed to run. */
  readonly #prefetched = new Map<string, Promise<boolean | undefined>>();
  /** The headers of the last prefetch (the batch before the next one: its blocks may not be stored yet), by height. */
  #previousBatch = new Map<number, BlockHeader>();

  constructor(private readonly options: AggregateCommitVerifierOptions) {}

  /**
   * LIP 0061's rules for a block's aggregate commit: true for an empty commit repeating the
   * certified height, false for a commit that breaks a rule, otherwise the signature check
   * (a certificate of a precommitted block by enough BFT weight) still to run.
   */
  check(engine: BlockState, commit: AggregateCommit): boolean | WeightedAggregateRequest {
    const { bft, blocks, minimumCertifyHeight } = this.options;
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
    const certified = blocks.headerByHeight(commit.height);
    if (certified === undefined) return false;
    return this.#signatureRequest(engine, commit, certified);
  }

  /** The certificate of `certified` signed by the commit's bits of the validators active at its height. */
  #signatureRequest(engine: BlockState, commit: AggregateCommit, certified: BlockHeader): WeightedAggregateRequest {
    const { validators, certificateThreshold, validatorsHash } = this.options.bft.getBFTParametersActiveValidators(
      engine,
      commit.height,
    );
    return certificateSignatureRequest(
      validatorsHash,
      validators,
      certificateThreshold,
      this.options.chainID,
      unsignedCertificateOf(certified),
      commit.aggregationBits,
      commit.certificateSignature,
    );
  }

  /** The check on this thread (with a cache of each validator set's parsed BLS keys). */
  verify(engine: BlockState, commit: AggregateCommit): boolean {
    const check = this.check(engine, commit);
    return typeof check === 'boolean' ? check : this.#blsKeys.verifyWeighted(check);
  }

  /** The check with the signature checked by a verifier (in a node, the `bls` pool), or by a prefetched check of the same request. */
  async verifyBy(engine: BlockState, commit: AggregateCommit, verifier: BlsVerifier): Promise<boolean> {
    const check = this.check(engine, commit);
    if (typeof check === 'boolean') return check;
    if (this.#prefetched.size > 0) {
      const key = requestKey(check);
      const prefetched = this.#prefetched.get(key);
      this.#prefetched.delete(key);
      const verdict = prefetched === undefined ? undefined : await prefetched;
      if (verdict !== undefined) return verdict;
    }
    return verifier.verifyAggregate(check);
  }

  /**
   * Starts the signature checks of blocks about to be applied (a synchronization's next batch), with the
   * BFT state of now: each commit whose certified block is among `headers`, the previous call's (the
   * batch still executing) or stored, and whose validators at its height are known. The rules are
   * checked again when each block is verified (verifyBy), which uses a prefetched verdict only for the
   * very same request (same validators hash, certificate, bits, signature): a block that changes the
   * validators before a commit's height just makes it miss.
   */
  prefetch(engine: BlockState, headers: readonly BlockHeader[], verifier: BlsVerifier): void {
    const { blocks } = this.options;
    if (this.#prefetched.size > MAX_PREFETCHED) this.#prefetched.clear();
    const byHeight = new Map(headers.map((h) => [h.height, h]));
    const previous = this.#previousBatch;
    this.#previousBatch = byHeight;
    for (const { aggregateCommit: commit } of headers) {
      if (commit.aggregationBits.length === 0 || commit.certificateSignature.length === 0) continue;
      const certified =
        byHeight.get(commit.height) ?? previous.get(commit.height) ?? blocks.headerByHeight(commit.height);
      if (certified === undefined) continue;
      let request: WeightedAggregateRequest;
      try {
        request = this.#signatureRequest(engine, commit, certified);
      } catch {
        continue; // validators not known yet at that height (or any failure): checked when the block is verified
      }
      const key = requestKey(request);
      if (this.#prefetched.has(key)) continue;
      this.#prefetched.set(
        key,
        verifier.verifyAggregate(request).catch(() => undefined),
      );
    }
  }

  /** Forgets the prefetched checks (a synchronization ended). */
  clearPrefetched(): void {
    this.#prefetched.clear();
    this.#previousBatch = new Map();
  }
}
