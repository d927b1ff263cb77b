import { compile } from '../codec/index.js';
import { calculateRightWitness } from '../tree/index.js';
import type { CCM } from './ccm_events.js';
import { ccmSchema } from './schemas.js';

export const ccmCodec = compile<CCM>(ccmSchema);

/** A CCM as the chain connector keeps it: with the height of the block whose events logged it. */
export interface CCMWithHeight extends CCM {
  height: number;
}

export interface LastSentCCM {
  height: number;
  nonce: bigint;
}

export interface MessageWitnesses {
  crossChainMessages: Buffer[];
  messageWitnessHashes: Buffer[];
  /** The last CCM included (with the sending chain's outbox size), undefined when none is. */
  lastCCMToBeSent?: CCMWithHeight & { outboxSize: number };
}

const withoutHeight = ({ height: _height, ...ccm }: CCMWithHeight): CCM => ccm;

/**
 * The CCMs a CCU carries and the witness of the ones left out (Klayr's calculateMessageWitnesses):
 * CCMs after the last sent one, in the given order, while their total encoded size stays below
 * maxCCUSize; the rest become right-witness hashes of the receiving chain's inbox tree.
 */
export const calculateMessageWitnesses = (
  inboxSizeOnReceivingChain: number,
  outboxSizeOnSendingChain: number,
  lastSentCCM: LastSentCCM,
  ccmsToBeIncluded: readonly CCMWithHeight[],
  maxCCUSize: number,
): MessageWitnesses => {
  const all: Buffer[] = [];
  const included: Buffer[] = [];
  let lastIncluded: CCMWithHeight | undefined;
  let totalSize = 0;
  for (const ccm of ccmsToBeIncluded) {
    if (ccm.height !== 0 && lastSentCCM.height === ccm.height && ccm.nonce === lastSentCCM.nonce) continue;
    if (inboxSizeOnReceivingChain < outboxSizeOnSendingChain) {
      const bytes = ccmCodec.encode(withoutHeight(ccm));
      totalSize += bytes.length;
      if (totalSize < maxCCUSize) {
        included.push(bytes);
        lastIncluded = ccm;
      }
      all.push(bytes);
    }
  }
  if (lastIncluded === undefined) return { crossChainMessages: [], messageWitnessHashes: [] };
  const lastCCMToBeSent = { ...lastIncluded, outboxSize: outboxSizeOnSendingChain };
  if (included.length === all.length)
    return { crossChainMessages: included, messageWitnessHashes: [], lastCCMToBeSent };
  return {
    crossChainMessages: included,
    messageWitnessHashes: calculateRightWitness(
      inboxSizeOnReceivingChain + included.length,
      all.slice(included.length),
    ),
    lastCCMToBeSent,
  };
};
