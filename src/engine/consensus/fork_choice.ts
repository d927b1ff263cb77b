import type { BlockHeader } from '../../lib/chain/block.js';
import { blockHeaderID } from '../../lib/chain/block.js';
import type { BFTMethod } from '../bft/index.js';

/** What to do with a block received for the tip (Klayr's ForkStatus, same numbers). */
export const ForkStatus = {
  IDENTICAL_BLOCK: 1,
  VALID_BLOCK: 2,
  DOUBLE_FORGING: 3,
  TIE_BREAK: 4,
  DIFFERENT_CHAIN: 5,
  DISCARD: 6,
} as const;
export type ForkStatus = (typeof ForkStatus)[keyof typeof ForkStatus];

/** A header with the time (unix seconds) this node received it; no time for a block generated here. */
export interface ReceivedHeader {
  header: BlockHeader;
  /** Left out (or 0, as Klayr reads it) for a block not received from a peer: counted as received in its slot. */
  receivedAt?: number;
}

export type SlotClock = Pick<BFTMethod, 'getSlotNumber' | 'isWithinTimeslot'>;

const receivedInItsSlot = (slots: SlotClock, { header, receivedAt }: ReceivedHeader, now: number): boolean =>
  slots.isWithinTimeslot(slots.getSlotNumber(header.timestamp), receivedAt ?? now);

/** Same height, same parent, same maxHeightPrevoted: two blocks competing for one place. */
const isDuplicate = (tip: BlockHeader, received: BlockHeader): boolean =>
  tip.height === received.height &&
  tip.maxHeightPrevoted === received.maxHeightPrevoted &&
  tip.previousBlockID.equals(received.previousBlockID);

/**
 * The tip is replaced by a competitor of a later slot when the tip came late (outside its
 * slot) and the competitor in time. A tip without a received time counts as in time.
 */
const isTieBreak = (slots: SlotClock, tip: ReceivedHeader, received: ReceivedHeader, now: number): boolean =>
  isDuplicate(tip.header, received.header) &&
  slots.getSlotNumber(tip.header.timestamp) < slots.getSlotNumber(received.header.timestamp) &&
  // Klayr reads a missing or zero time alike (`!receivedAt`)
  !(tip.receivedAt === undefined || tip.receivedAt === 0 || receivedInItsSlot(slots, tip, now)) &&
  receivedInItsSlot(slots, received, now);

/** The received block is the tip's child (Klayr's isValidBlock). */
export const extendsTip = (tip: BlockHeader, received: Pick<BlockHeader, 'height' | 'previousBlockID'>): boolean =>
  tip.height + 1 === received.height && blockHeaderID(tip).equals(received.previousBlockID);

/** The received block claims a better chain: a higher maxHeightPrevoted, or the same one and a greater height. */
export const isDifferentChain = (
  tip: Pick<BlockHeader, 'height' | 'maxHeightPrevoted'>,
  received: Pick<BlockHeader, 'height' | 'maxHeightPrevoted'>,
): boolean =>
  tip.maxHeightPrevoted < received.maxHeightPrevoted ||
  (tip.height < received.height && tip.maxHeightPrevoted === received.maxHeightPrevoted);

/**
 * Klayr's fork choice rule (LIP 0014 as klayr-framework 0.12.3 runs it): how a received block
 * relates to the tip. `now` (unix seconds) stands for a missing received time of the received block.
 */
export const forkChoice = (
  received: ReceivedHeader,
  tip: ReceivedHeader,
  slots: SlotClock,
  now: number = Math.floor(Date.now() / 1000),
): ForkStatus => {
  if (extendsTip(tip.header, received.header)) return ForkStatus.VALID_BLOCK;
  if (blockHeaderID(tip.header).equals(blockHeaderID(received.header))) return ForkStatus.IDENTICAL_BLOCK;
  if (isDuplicate(tip.header, received.header) && tip.header.generatorAddress.equals(received.header.generatorAddress))
    return ForkStatus.DOUBLE_FORGING;
  if (isTieBreak(slots, tip, received, now)) return ForkStatus.TIE_BREAK;
  if (isDifferentChain(tip.header, received.header)) return ForkStatus.DIFFERENT_CHAIN;
  return ForkStatus.DISCARD;
};
