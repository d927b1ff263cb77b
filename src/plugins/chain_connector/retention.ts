import { transactionID } from '../../lib/transaction/index.js';
import { FIRST_CERTIFICATE_SEARCH_HEIGHTS } from './certificate_choice.js';
import type { ChainConnectorStore } from './store.js';

/** Headers, aggregate commits and validators data are kept for this many latest heights. */
export const KEEP_HEIGHTS = 1000;

/**
 * The store's retention rule (Klayr's plugin prunes only below the receiving chain's finalized
 * certificate and so grows without bound while no CCU is sent). What a future CCU can still
 * need is kept:
 * - headers and aggregate commits of the last KEEP_HEIGHTS heights (the next certificate is the
 *   highest trusted commit up to maxHeightCertified, which trails the tip by a few blocks; its
 *   chain-of-trust check reads the header below it);
 * - the header at the receiving chain's last certified height L (its validators hash is what
 *   the next CCU's validators update starts from) and, while L is 0, the headers and commits
 *   of registrationHeight..registrationHeight + 1000 (Klayr's first-certificate search);
 * - validators data of the hashes of those headers and of the last certificate's validators hash;
 * - every CCM from the last sent CCM's height on (each must still reach the receiving inbox);
 * - the newest ccuSaveLimit sent CCUs (Klayr's rule).
 * Without CCMs the store is bounded by about 2 x 1001 headers and commits whatever the chain length.
 */
export const pruneStore = (
  store: ChainConnectorStore,
  tip: number,
  registrationHeight: number,
  lastSentCCMHeight: number | undefined,
): void => {
  const lastCertified = store.lastCertifiedHeight;
  const headersFrom = Math.max(0, tip - KEEP_HEIGHTS + 1);
  const firstSearch = (h: number) =>
    lastCertified === 0 && h >= registrationHeight && h <= registrationHeight + FIRST_CERTIFICATE_SEARCH_HEIGHTS;
  const keepHash = store.lastCertifiedValidatorsHash;
  store.prune({
    headersFrom,
    ccmsFrom: lastSentCCMHeight ?? 0,
    keep: (h) => h === lastCertified || firstSearch(h),
    ...(keepHash !== undefined ? { keepHash } : {}),
  });
};

/** Trims the sent CCUs to the newest `limit` (-1 keeps all), as Klayr's cleanup. */
export const trimSentCCUs = (store: ChainConnectorStore, limit: number): void => {
  if (limit === -1) return;
  const list = store.sentCCUs();
  for (const tx of list.slice(limit)) store.deleteCCU(transactionID(tx));
};
