import type { AggregateCommit } from '../../lib/chain/block.js';
import { certificateFromAggregateCommit } from '../../lib/interop/ccu_certificate.js';
import type { Certificate } from '../../lib/interop/certificate.js';
import type { ChainConnectorStore } from './store.js';

/** What the receiving chain holds of this chain's last certificate (its chain account's lastCertificate). */
export interface LastCertificate {
  height: number;
  timestamp: number;
  stateRoot: Buffer;
  validatorsHash: Buffer;
}

/** Klayr's first-certificate search: aggregate commits from registrationHeight on, over this many heights. */
export const FIRST_CERTIFICATE_SEARCH_HEIGHTS = 1000;

type Reader = Pick<ChainConnectorStore, 'header' | 'validatorsData' | 'aggregateCommit' | 'aggregateCommitsBetween'>;

const isSet = (bits: Buffer, index: number): boolean => ((bits[index >> 3] ?? 0) >> (index & 7)) % 2 === 1;

/**
 * Whether an aggregate commit can be trusted by a receiving chain that knows the validators of
 * the last certificate (Klayr's checkChainOfTrust): the validators of the block below the commit
 * are the same set, or those of them that signed carry at least the last certificate threshold
 * of the old weights. Unlike Klayr's plugin, which reads the aggregation bits' hex digits, the
 * bits are read as the certificate signature check reads them (bit i of byte i/8, low bit first,
 * validators in BLS key order).
 */
export const checkChainOfTrust = (
  lastValidatorsHash: Buffer,
  blsKeyToBFTWeight: ReadonlyMap<string, bigint>,
  lastCertificateThreshold: bigint,
  aggregateCommit: AggregateCommit,
  store: Reader,
): boolean => {
  const header = store.header(aggregateCommit.height - 1);
  if (header === undefined) {
    throw new Error(
      `No block header found for the given the previous height ${aggregateCommit.height - 1} of aggregate commit at height ${aggregateCommit.height} when calling checkChainOfTrust.`,
    );
  }
  if (lastValidatorsHash.equals(header.validatorsHash)) return true;
  const data = store.validatorsData(header.validatorsHash);
  if (data === undefined)
    throw new Error(`No validators data found for the given validatorsHash ${header.validatorsHash.toString('hex')}.`);
  const validators = [...data.validators].sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));
  let weight = 0n;
  for (const [i, v] of validators.entries()) {
    if (!isSet(aggregateCommit.aggregationBits, i)) continue;
    const known = blsKeyToBFTWeight.get(v.blsKey.toString('hex'));
    if (known === undefined || known === 0n) return false;
    weight += known;
  }
  return weight >= lastCertificateThreshold;
};

/** The highest trusted certificate after the last certified height, up to maxHeightCertified (Klayr's getNextCertificateFromAggregateCommits). */
export const getNextCertificateFromAggregateCommits = (
  store: Reader,
  bftHeights: { maxHeightCertified: number },
  lastCertificate: Pick<LastCertificate, 'height'>,
): Certificate | undefined => {
  const lastHeader = store.header(lastCertificate.height);
  if (lastHeader === undefined)
    throw new Error(`No block header found for the last certified height ${lastCertificate.height}.`);
  const lastData = store.validatorsData(lastHeader.validatorsHash);
  if (lastData === undefined)
    throw new Error(
      `No validatorsHash preimage data present for the given validatorsHash ${lastHeader.validatorsHash.toString('hex')}.`,
    );
  const weights = new Map(lastData.validators.map((v) => [v.blsKey.toString('hex'), v.bftWeight]));
  for (let height = bftHeights.maxHeightCertified; height > lastCertificate.height; height -= 1) {
    const commit = store.aggregateCommit(height);
    if (
      commit === undefined ||
      !checkChainOfTrust(lastHeader.validatorsHash, weights, lastData.certificateThreshold, commit, store)
    )
      continue;
    const header = store.header(commit.height);
    if (header === undefined)
      throw new Error(`Block header not found for the given aggregate commit for height: ${commit.height}`);
    return certificateFromAggregateCommit(commit, header);
  }
  return undefined;
};

/** The first certificate for a chain the receiving chain has not certified yet: the highest aggregate commit (with its header) in registrationHeight..registrationHeight + 1000, as Klayr's _findCertificate. */
export const getFirstCertificate = (store: Reader, registrationHeight: number): Certificate | undefined => {
  for (const commit of store.aggregateCommitsBetween(
    registrationHeight,
    registrationHeight + FIRST_CERTIFICATE_SEARCH_HEIGHTS,
    'descending',
  )) {
    const header = store.header(commit.height);
    if (header !== undefined) return certificateFromAggregateCommit(commit, header);
  }
  return undefined;
};
