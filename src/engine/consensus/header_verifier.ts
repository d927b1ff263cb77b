import type { BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID, verifyBlockHeaderSignature } from '../../lib/chain/block.js';
import type { Chain } from '../chain/chain.js';
import type { AggregateCommitVerifier } from './aggregate_commit.js';

export interface HeaderVerifierOptions {
  chain: Chain;
  aggregateCommits: AggregateCommitVerifier;
  chainID: Buffer;
  now: () => number;
}

/** A header's signature checked ahead (in the `verify` pool) under the key its generator had when the check started. */
export interface HeaderSignatureAhead {
  readonly key: Buffer;
  readonly valid: boolean;
}

/** Consensus checks of a received header against the tip and the committed BFT state (Klayr's Consensus._verify). */
export class HeaderVerifier {
  constructor(private readonly options: HeaderVerifierOptions) {}

  /**
   * Throws Klayr's message for the first rule the header breaks; the aggregate commit is left out when the caller
   * checks it. `signatureAhead` answers the signature check when its key is still the generator's.
   */
  verify(header: BlockHeader, aggregateCommitVerified = false, signatureAhead?: HeaderSignatureAhead): void {
    const { chain, chainID } = this.options;
    const { bft } = chain;
    // computed for an error message only
    const id = (): string => blockHeaderID(header).toString('hex');
    const tip = chain.lastBlock().header;
    const engine = chain.engineView();
    const slot = bft.getSlotNumber(header.timestamp);
    if (slot > bft.getSlotNumber(this.options.now()) || slot <= bft.getSlotNumber(tip.timestamp))
      throw new Error(`Invalid timestamp ${header.timestamp} of the block with id: ${id()}`);
    if (header.height !== tip.height + 1)
      throw new Error(`Invalid height ${header.height} of the block with id: ${id()}`);
    if (!header.previousBlockID.equals(blockHeaderID(tip)))
      throw new Error(
        `Invalid previousBlockID ${header.previousBlockID.toString('hex')} of the block with id: ${id()}`,
      );
    if (header.generatorAddress.length !== 20)
      throw new Error(
        `Invalid length of generatorAddress ${header.generatorAddress.toString('hex')} of the block with id: ${id()}`,
      );
    // read once: the generator's slot and its keys below come from the same parameters
    const parameters = bft.getBFTParameters(engine, header.height);
    const expected = bft.generatorIn(parameters, header.height, header.timestamp);
    if (!header.generatorAddress.equals(expected.address)) {
      throw new Error(
        `Generator with address ${header.generatorAddress.toString('hex')} of the block with id: ${id()} is ineligible to generate block for the current slot`,
      );
    }
    if (header.maxHeightPrevoted !== bft.getBFTHeights(engine).maxHeightPrevoted)
      throw new Error(`Invalid maxHeightPrevoted ${header.maxHeightPrevoted} of the block with id: ${id()}`);
    if (bft.isHeaderContradictingChain(engine, header))
      throw new Error(`Contradicting headers for the block with id: ${id()}`);
    if (header.impliesMaxPrevotes !== bft.impliesMaximalPrevotes(engine, header))
      throw new Error('Invalid imply max prevote.');
    const generator = parameters.validators.find((v) => v.address.equals(header.generatorAddress));
    if (generator === undefined)
      throw new Error(
        `Validator with address ${header.generatorAddress.toString('hex')} does not exist for height ${header.height}`,
      );
    const signed =
      signatureAhead?.key.equals(generator.generatorKey) === true
        ? signatureAhead.valid
        : verifyBlockHeaderSignature(header, generator.generatorKey, chainID);
    if (!signed) throw new Error(`Invalid signature ${header.signature.toString('hex')} of the block with id: ${id()}`);
    if (!aggregateCommitVerified && !this.options.aggregateCommits.verify(engine, header.aggregateCommit))
      throw new Error(`Invalid aggregateCommit for the block with id: ${id()}`);
  }
}
