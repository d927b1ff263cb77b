import { areDistinctHeadersContradicting, areHeadersContradicting } from '../../lib/chain/contradiction.js';
import type { StateReadWriter } from '../state/types.js';
import type { ImpliesMaxPrevotesHeader } from './implies_max_prevotes.js';
import { impliesMaximalPrevotes } from './implies_max_prevotes.js';
import { existBFTParameters, getBFTParameters, getNextHeightBFTParameters } from './parameters.js';
import { setBFTParameters } from './set_parameters.js';
import { bftParametersStore, readBFTHeights, readBFTVotesShared } from './stores.js';
import type { BFTHeader, BFTHeights, BFTParameters, BFTValidator, IdentifiedBFTHeader } from './types.js';

export interface BFTConfig {
  /** Klayr's genesis.bftBatchSize: the most validators a set may have; the votes keep 3x as many blocks. */
  batchSize: number;
  /** Seconds per slot; slots count from Unix time 0, as Klayr's do. */
  blockTime: number;
}

export interface GeneratorSlot {
  address: Buffer;
  nextAllocatedTime: number;
}

/** What consensus, the generator and the commit pool ask of BFT (Klayr's BFTMethod). */
export class BFTMethod {
  readonly #batchSize: number;
  readonly #blockTime: number;

  constructor({ batchSize, blockTime }: BFTConfig) {
    if (!Number.isInteger(batchSize) || batchSize < 1)
      throw new Error(`BFT batch size must be a positive integer, got ${batchSize}`);
    if (!(blockTime > 0)) throw new Error(`Block time must be positive, got ${blockTime}`);
    this.#batchSize = batchSize;
    this.#blockTime = blockTime;
  }

  get batchSize(): number {
    return this.#batchSize;
  }

  blockTime(): number {
    return this.#blockTime;
  }

  areHeadersContradicting(header1: IdentifiedBFTHeader, header2: IdentifiedBFTHeader): boolean {
    return areHeadersContradicting(header1, header2);
  }

  /** Whether the header contradicts the newest block held from the same generator. */
  isHeaderContradictingChain(state: StateReadWriter, header: BFTHeader): boolean {
    const own = readBFTVotesShared(state).blockBFTInfos.find((info) =>
      info.generatorAddress.equals(header.generatorAddress),
    );
    return own !== undefined && areDistinctHeadersContradicting(own, header);
  }

  existBFTParameters(state: StateReadWriter, height: number): boolean {
    return existBFTParameters(bftParametersStore(state), height);
  }

  getBFTParameters(state: StateReadWriter, height: number): BFTParameters {
    return getBFTParameters(bftParametersStore(state), height);
  }

  /** The parameters at `height` with only the validators of positive BFT weight. */
  getBFTParametersActiveValidators(state: StateReadWriter, height: number): BFTParameters {
    const params = this.getBFTParameters(state, height);
    return { ...params, validators: params.validators.filter((v) => v.bftWeight > 0n) };
  }

  getBFTHeights(state: StateReadWriter): BFTHeights {
    const { maxHeightPrevoted, maxHeightPrecommitted, maxHeightCertified } = readBFTHeights(state);
    return { maxHeightPrevoted, maxHeightPrecommitted, maxHeightCertified };
  }

  impliesMaximalPrevotes(state: StateReadWriter, header: ImpliesMaxPrevotesHeader): boolean {
    return impliesMaximalPrevotes(readBFTVotesShared(state), header);
  }

  getNextHeightBFTParameters(state: StateReadWriter, height: number): number {
    return getNextHeightBFTParameters(bftParametersStore(state), height);
  }

  setBFTParameters(
    state: StateReadWriter,
    precommitThreshold: bigint,
    certificateThreshold: bigint,
    validators: readonly BFTValidator[],
  ): void {
    setBFTParameters(state, this.#batchSize, precommitThreshold, certificateThreshold, validators);
  }

  /** The validator whose slot contains `timestamp`, in the set that applies at `height`. */
  getGeneratorAtTimestamp(state: StateReadWriter, height: number, timestamp: number): BFTValidator {
    return this.generatorIn(this.getBFTParameters(state, height), height, timestamp);
  }

  /** getGeneratorAtTimestamp with the parameters that apply at `height` read already. */
  generatorIn(parameters: BFTParameters, height: number, timestamp: number): BFTValidator {
    const { validators } = parameters;
    const generator = validators[this.getSlotNumber(timestamp) % validators.length];
    if (generator === undefined)
      throw new Error(`No validator for the slot of timestamp ${timestamp} at height ${height}`);
    return generator;
  }

  /** The validators for the block after `lastBlockHeight` (the generator's and the network's view). */
  getCurrentValidators(state: StateReadWriter, lastBlockHeight: number): BFTValidator[] {
    return this.getBFTParameters(state, lastBlockHeight + 1).validators;
  }

  /**
   * One round of generators from the slot of `timestamp` on, each with its slot's start time,
   * for the set that applies after the newest block held (Klayr's chain_getGeneratorList).
   */
  getGeneratorList(state: StateReadWriter, timestamp: number): GeneratorSlot[] {
    const newestHeight = readBFTVotesShared(state).blockBFTInfos[0]?.height ?? 0;
    const { validators } = this.getBFTParameters(state, newestHeight + 1);
    const slot = this.getSlotNumber(timestamp);
    const startTime = this.getSlotTime(slot);
    return validators.map((_, i) => ({
      address: validators[(slot + i) % validators.length].address,
      nextAllocatedTime: startTime + i * this.#blockTime,
    }));
  }

  getSlotNumber(timestamp: number): number {
    return Math.floor(timestamp / this.#blockTime);
  }

  getSlotTime(slot: number): number {
    return slot * this.#blockTime;
  }

  isWithinTimeslot(slot: number, timestamp: number): boolean {
    return this.getSlotNumber(timestamp) === slot;
  }
}
