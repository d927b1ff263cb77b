import type { Logger } from 'pino';
import type { AggregateCommit, Block, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import { singleCertificateSignatureRequest, sortByBLSKey, unsignedCertificateOf } from '../../lib/chain/certificate.js';
import { PENALTY_BAN } from '../../lib/chain/p2p_penalties.js';
import type { SingleCommit } from '../../lib/chain/single_commit.js';
import {
  decodeSingleCommit,
  decodeSingleCommitsPacket,
  encodeSingleCommitsPacket,
  NETWORK_EVENT_COMMIT_MESSAGES,
} from '../../lib/chain/single_commit.js';
import { createAggSig } from '../../lib/crypto/aggregate.js';
import type { SingleSignatureRequest } from '../../lib/crypto/bls_requests.js';
import type { BFTMethod } from '../bft/index.js';
import { BFTParameterNotFoundError } from '../bft/index.js';
import type { Peers } from '../network/peers.js';
import type { BlsVerifier } from '../pools/bls_verifier.js';
import type { StateReadWriter } from '../state/types.js';
import { CommitList } from './commit_list.js';

export type { SingleCommit } from '../../lib/chain/single_commit.js';

/** Commits this far below the precommitted height are kept only where the validator set changes after them. */
export const COMMIT_RANGE_STORED = 100;

const EMPTY = Buffer.alloc(0);

/** What the pool reads of the chain (Kestrel's Chain). */
export interface CommitPoolChain {
  readonly bft: Pick<
    BFTMethod,
    'getBFTHeights' | 'existBFTParameters' | 'getBFTParametersActiveValidators' | 'getNextHeightBFTParameters'
  >;
  lastBlock(): Block;
  headerAt(height: number): BlockHeader | undefined;
  /** The finalized block's certified height, at least minCertifyHeight - 1 (Klayr's getMaxRemovalHeight). */
  maxRemovalHeight(): number;
  engineView(): StateReadWriter;
}

export interface CommitPoolOptions {
  chain: CommitPoolChain;
  chainID: Buffer;
  minCertifyHeight: number;
  /** Checks received commits' signatures (in a node, the `bls` pool). */
  bls: BlsVerifier;
  /** Gossips to peers (Peers.send); without it the periodic job sends nothing and keeps commits unsent. */
  send?: (event: string, data: Buffer) => void;
  logger?: Logger;
}

/**
 * Klayr's commit pool (LIP 0061): single commits of this node's validators and of peers', kept
 * apart until gossiped, aggregated into the aggregate commit a new block carries, pruned and
 * gossiped by a periodic job.
 */
export class CommitPool {
  readonly #nonGossiped = new CommitList();
  readonly #nonGossipedLocal = new CommitList();
  readonly #gossiped = new CommitList();
  #timer?: NodeJS.Timeout;

  constructor(private readonly options: CommitPoolOptions) {}

  /** Runs the job every half block time (Klayr's interval); the timer does not keep the process alive. */
  start(blockTimeSeconds: number): void {
    this.#timer ??= setInterval(() => {
      this.job().catch((error: unknown) => this.options.logger?.error({ err: error }, 'Commit pool job failed'));
    }, blockTimeSeconds * 500).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Adds a commit not yet held unsent; `local` for one signed by this node's validators. */
  addCommit(commit: SingleCommit, local = false): void {
    if (this.#nonGossiped.exists(commit) || this.#nonGossipedLocal.exists(commit)) return;
    (local ? this.#nonGossipedLocal : this.#nonGossiped).add(commit);
  }

  /** Commits held for a height: received, local, gossiped. */
  getCommitsByHeight(height: number): SingleCommit[] {
    return [
      ...this.#nonGossiped.getByHeight(height),
      ...this.#nonGossipedLocal.getByHeight(height),
      ...this.#gossiped.getByHeight(height),
    ];
  }

  /** Klayr's getMaxRemovalHeight: commits at or below it can no longer be certified. */
  getMaxRemovalHeight(): number {
    return this.options.chain.maxRemovalHeight();
  }

  /**
   * Klayr's validateCommit for a received commit: false for one not worth keeping (held already,
   * too old, out of range, of another block); throws for one a peer must not send (its validator
   * not active at its height, its signature invalid).
   */
  async validateCommit(commit: SingleCommit): Promise<boolean> {
    const request = this.#checkCommit(commit, this.options.chain.engineView());
    if (request === false) return false;
    const [valid] = await this.options.bls.verifySingles([request]);
    if (valid !== true) throw new Error('Certificate signature is not valid.');
    return true;
  }

  /**
   * A packet of single commits from a peer (Klayr's handleEventSingleCommit, without its rate
   * limit): each commit decoded, checked and added, in order. The peer is banned for bytes that
   * do not decode, a commit its schema refuses or one validateCommit throws for; the commits
   * before it are kept. The signatures are checked together in one request to the verifier.
   */
  async handleSingleCommitsPacket(data: Buffer, peerId: string, peers: Pick<Peers, 'applyPenalty'>): Promise<void> {
    const engine = this.options.chain.engineView();
    const accepted: { commit: SingleCommit; request: SingleSignatureRequest }[] = [];
    const inPacket = new CommitList();
    let failure: unknown;
    try {
      for (const encoded of decodeSingleCommitsPacket(data)) {
        const commit = decodeSingleCommit(encoded);
        if (inPacket.exists(commit)) continue;
        const request = this.#checkCommit(commit, engine);
        if (request === false) continue;
        inPacket.add(commit);
        accepted.push({ commit, request });
      }
    } catch (error) {
      failure = error;
    }
    const verdicts =
      accepted.length === 0
        ? []
        : await this.options.bls.verifySingles(
            accepted.map((a) => a.request),
            { batchable: true },
          );
    for (const [i, { commit }] of accepted.entries()) {
      if (verdicts[i] !== true) {
        failure = new Error('Certificate signature is not valid.');
        break;
      }
      this.addCommit(commit);
    }
    if (failure !== undefined) {
      this.options.logger?.warn(
        { err: failure, peerId },
        `${NETWORK_EVENT_COMMIT_MESSAGES} fail to verify single commit. Applying a penalty to the peer`,
      );
      peers.applyPenalty(peerId, PENALTY_BAN);
    }
  }

  /** validateCommit's rules but the signature: false, a signature check to run, or an error. */
  #checkCommit(commit: SingleCommit, engine: StateReadWriter): SingleSignatureRequest | false {
    const { chain, chainID } = this.options;
    if (this.#nonGossiped.exists(commit) || this.#nonGossipedLocal.exists(commit) || this.#gossiped.exists(commit))
      return false;
    if (commit.height <= this.getMaxRemovalHeight()) return false;
    const { maxHeightPrecommitted } = chain.bft.getBFTHeights(engine);
    const inRange =
      commit.height >= maxHeightPrecommitted - COMMIT_RANGE_STORED && commit.height <= chain.lastBlock().header.height;
    if (!inRange && !chain.bft.existBFTParameters(engine, commit.height + 1)) return false;
    const header = chain.headerAt(commit.height);
    if (header === undefined) throw new Error(`No block at height ${commit.height} for a single commit`);
    if (!blockHeaderID(header).equals(commit.blockID)) return false;
    const { validators } = chain.bft.getBFTParametersActiveValidators(engine, commit.height);
    const validator = validators.find((v) => v.address.equals(commit.validatorAddress));
    if (validator === undefined) throw new Error('Commit validator was not active for its height.');
    return singleCertificateSignatureRequest(
      validator.blsKey,
      commit.certificateSignature,
      chainID,
      unsignedCertificateOf(header),
    );
  }

  /** The aggregate commit for the next block: the highest certifiable height whose commits reach the certificate threshold. */
  select(engine: StateReadWriter): AggregateCommit {
    const { bft } = this.options.chain;
    const { minCertifyHeight } = this.options;
    const { maxHeightCertified, maxHeightPrecommitted } = bft.getBFTHeights(engine);
    let next = maxHeightPrecommitted;
    try {
      const nextParams = Math.max(bft.getNextHeightBFTParameters(engine, maxHeightCertified + 1), minCertifyHeight + 1);
      next = Math.min(nextParams - 1, maxHeightPrecommitted);
    } catch (error) {
      if (!(error instanceof BFTParameterNotFoundError)) throw error;
    }
    const certifyUpTo = Math.max(maxHeightCertified, minCertifyHeight - 1);
    for (let height = next; height > certifyUpTo; height--) {
      const commits = this.getCommitsByHeight(height);
      if (commits.length === 0) continue;
      const { validators, certificateThreshold } = bft.getBFTParametersActiveValidators(engine, height);
      const signers = commits.map((c) => {
        const validator = validators.find((v) => v.address.equals(c.validatorAddress));
        if (validator === undefined) throw new Error('Validator address not found in commit pool');
        return { validator, signature: c.certificateSignature };
      });
      const weight = signers.reduce((sum, s) => sum + s.validator.bftWeight, 0n);
      if (weight < certificateThreshold) continue;
      const { aggregationBits, signature } = createAggSig(
        sortByBLSKey(validators).map((v) => v.blsKey),
        signers.map((s) => ({ publicKey: s.validator.blsKey, signature: s.signature })),
      );
      return { height, aggregationBits, certificateSignature: signature };
    }
    return { height: maxHeightCertified, aggregationBits: EMPTY, certificateSignature: EMPTY };
  }

  /**
   * Klayr's periodic job: commits that can no longer be certified are dropped; then up to twice
   * the active validators' count are gossiped (commits older than the stored range first, then
   * local ones newest first, then received ones newest first) and kept as gossiped.
   */
  async job(): Promise<void> {
    const { chain, send } = this.options;
    const engine = chain.engineView();
    const removalHeight = this.getMaxRemovalHeight();
    const currentHeight = chain.lastBlock().header.height;
    const { maxHeightPrecommitted } = chain.bft.getBFTHeights(engine);
    for (const list of [this.#nonGossiped, this.#nonGossipedLocal, this.#gossiped]) {
      for (const height of this.#deleteHeights(engine, list, removalHeight, maxHeightPrecommitted, currentHeight))
        list.deleteByHeight(height);
    }
    if (send === undefined) return;
    const { validators } = chain.bft.getBFTParametersActiveValidators(engine, currentHeight + 1);
    const selected = selectForGossip(
      this.#allCommits(),
      this.#nonGossipedLocal.getAll('descending'),
      this.#nonGossiped.getAll('descending'),
      2 * validators.length,
      maxHeightPrecommitted - COMMIT_RANGE_STORED,
    );
    send(NETWORK_EVENT_COMMIT_MESSAGES, encodeSingleCommitsPacket(selected));
    for (const commit of selected) {
      if (!this.#gossiped.exists(commit)) this.#gossiped.add(commit);
      this.#nonGossiped.deleteSingle(commit);
      this.#nonGossipedLocal.deleteSingle(commit);
    }
  }

  /** Klayr's _getDeleteHeights: heights at or below the removal height, and those holding a commit out of range with no validator change after it. */
  #deleteHeights(
    engine: StateReadWriter,
    list: CommitList,
    removalHeight: number,
    maxHeightPrecommitted: number,
    currentHeight: number,
  ): number[] {
    const heights: number[] = [];
    for (const height of list.heights()) {
      if (height <= removalHeight) {
        heights.push(height);
        continue;
      }
      for (const commit of list.getByHeight(height)) {
        if (maxHeightPrecommitted - COMMIT_RANGE_STORED <= commit.height && commit.height <= currentHeight) continue;
        if (this.options.chain.bft.existBFTParameters(engine, commit.height + 1)) continue;
        heights.push(height);
      }
    }
    return heights;
  }

  #allCommits(): SingleCommit[] {
    return [...this.#nonGossiped.getAll(), ...this.#nonGossipedLocal.getAll(), ...this.#gossiped.getAll()].sort(
      (a, b) => a.height - b.height,
    );
  }
}

/** The job's choice, as Klayr's (which may pick a commit twice: an old unsent one is also among the unsent). */
const selectForGossip = (
  all: readonly SingleCommit[],
  localNewestFirst: readonly SingleCommit[],
  receivedNewestFirst: readonly SingleCommit[],
  max: number,
  oldBelow: number,
): SingleCommit[] => {
  const selected: SingleCommit[] = [];
  for (const commit of all) {
    if (selected.length >= max) break;
    if (commit.height < oldBelow) selected.push(commit);
  }
  for (const commit of [...localNewestFirst, ...receivedNewestFirst]) {
    if (selected.length >= max) break;
    selected.push(commit);
  }
  return selected;
};
