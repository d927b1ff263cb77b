import type { AggregateCommit, BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import { signCertificate, sortByBLSKey, unsignedCertificateOf } from '../../lib/chain/certificate.js';
import { createAggSig } from '../../lib/crypto/aggregate.js';
import { BFTParameterNotFoundError } from '../bft/index.js';
import type { BFTMethod } from '../bft/index.js';
import type { StateReadWriter } from '../state/types.js';
import { required } from '../../lib/required.js';

/** One validator's BLS signature of a block's certificate (LIP 0061). */
export interface SingleCommit {
  blockID: Buffer;
  height: number;
  validatorAddress: Buffer;
  certificateSignature: Buffer;
}

export interface CertifyingKeys {
  address: Buffer;
  blsKey: Buffer;
  blsPrivateKey: Buffer;
}

const EMPTY = Buffer.alloc(0);

/**
 * Single commits of the local validators and their aggregation into the aggregate commit a new
 * block carries (Klayr's commit pool and single-commit handler, for validators whose keys are on
 * this node; commits from the network arrive with networking).
 */
export class CommitPool {
  readonly #byHeight = new Map<number, SingleCommit[]>();

  constructor(
    private readonly bft: BFTMethod,
    private readonly chainID: Buffer,
    private readonly minCertifyHeight: number,
  ) {}

  /** Commits held for a height. */
  at(height: number): readonly SingleCommit[] {
    return this.#byHeight.get(height) ?? [];
  }

  /**
   * Finality moved from `from` to `to`: each local validator active at a height signs the
   * certificate of `to`, and of every height in between after which the validator set changes.
   */
  onFinalized(
    engine: StateReadWriter,
    keys: readonly CertifyingKeys[],
    from: number,
    to: number,
    headerAt: (height: number) => BlockHeader | undefined,
  ): number {
    let signed = 0;
    for (let height = from + 1; height <= to; height++) {
      if (height < to && !this.bft.existBFTParameters(engine, height + 1)) continue;
      const header = headerAt(height);
      if (header === undefined) continue;
      const { validators } = this.bft.getBFTParametersActiveValidators(engine, height);
      const certificate = unsignedCertificateOf(header);
      const blockID = blockHeaderID(header);
      for (const key of keys) {
        const validator = validators.find((v) => v.address.equals(key.address));
        if (validator === undefined || !validator.blsKey.equals(key.blsKey)) continue;
        const commits = this.#byHeight.get(height) ?? [];
        if (commits.some((c) => c.validatorAddress.equals(key.address))) continue;
        commits.push({
          blockID,
          height,
          validatorAddress: key.address,
          certificateSignature: signCertificate(key.blsPrivateKey, this.chainID, certificate),
        });
        this.#byHeight.set(height, commits);
        signed += 1;
      }
    }
    return signed;
  }

  /** The aggregate commit for the next block: the highest certifiable height whose commits reach the certificate threshold. */
  select(engine: StateReadWriter): AggregateCommit {
    const { maxHeightCertified, maxHeightPrecommitted } = this.bft.getBFTHeights(engine);
    let next = maxHeightPrecommitted;
    try {
      const nextParams = Math.max(
        this.bft.getNextHeightBFTParameters(engine, maxHeightCertified + 1),
        this.minCertifyHeight + 1,
      );
      next = Math.min(nextParams - 1, maxHeightPrecommitted);
    } catch (error) {
      if (!(error instanceof BFTParameterNotFoundError)) throw error;
    }
    const certifyUpTo = Math.max(maxHeightCertified, this.minCertifyHeight - 1);
    for (let height = next; height > certifyUpTo; height--) {
      const commits = this.at(height);
      if (commits.length === 0) continue;
      const { validators, certificateThreshold } = this.bft.getBFTParametersActiveValidators(engine, height);
      const weight = commits.reduce(
        (sum, c) => sum + (validators.find((v) => v.address.equals(c.validatorAddress))?.bftWeight ?? 0n),
        0n,
      );
      if (weight < certificateThreshold) continue;
      const keys = sortByBLSKey(validators).map((v) => v.blsKey);
      const pairs = commits.map((c) => ({
        publicKey: required(
          validators.find((v) => v.address.equals(c.validatorAddress)),
          'The active validator of a single commit',
        ).blsKey,
        signature: c.certificateSignature,
      }));
      const { aggregationBits, signature } = createAggSig(keys, pairs);
      return { height, aggregationBits, certificateSignature: signature };
    }
    return { height: maxHeightCertified, aggregationBits: EMPTY, certificateSignature: EMPTY };
  }

  /** Drops commits at or below a height that can no longer be certified. */
  prune(upTo: number): void {
    for (const height of this.#byHeight.keys()) if (height <= upTo) this.#byHeight.delete(height);
  }
}
