import { compile } from '../codec/index.js';
import { stateSMTKey } from '../state/keys.js';
import type { CCMWithHeight, LastSentCCM } from './ccu_inbox_update.js';
import { calculateMessageWitnesses } from './ccu_inbox_update.js';
import type { ValidatorsData } from './ccu_validators_update.js';
import { calculateActiveValidatorsUpdate, EMPTY_ACTIVE_VALIDATORS_UPDATE } from './ccu_validators_update.js';
import type { Certificate } from './certificate.js';
import { encodeCertificate } from './certificate.js';
import type { CCUParams } from './schemas.js';
import { crossChainUpdateParamsSchema } from './schemas.js';

export const ccuParamsCodec = compile<CCUParams>(crossChainUpdateParamsSchema);

/**
 * What a CCU is built from (the chain connector gathers it; the `ccu` pool builds it). With a
 * certificate, the outbox-root witness is proved against the state committed at the
 * certificate's height, whose root must be the certificate's stateRoot.
 */
export interface CCUBuildRequest {
  /** The sending chain's data path (whose LMDB environment the builder opens read-only). */
  dataPath: string;
  sendingChainID: Uint8Array;
  /** The new certificate, when there is one after the receiving chain's last certified height. */
  certificate?: Certificate;
  /** Validators data at the receiving chain's last certificate. */
  validatorsAtLastCertificate?: ValidatorsData;
  /** Validators data at the new certificate (needed when its validatorsHash differs from the last one's). */
  validatorsAtNewCertificate?: ValidatorsData;
  /** Store key of the outbox root of the channel to the receiving chain (store_keys.ts outboxRootStoreKey). */
  outboxRootStoreKey: Uint8Array;
  inboxSizeOnReceivingChain: number;
  outboxSizeOnSendingChain: number;
  lastSentCCM: LastSentCCM;
  /** CCMs from the last sent one up to the certified height, in the order the receiving inbox takes them. */
  ccms: CCMWithHeight[];
  maxCCUSize: number;
}

export interface CCUBuildResult {
  /** The encoded crossChainUpdate params. */
  params: Buffer;
  /** The last CCM included, with the sending chain's outbox size (what getLastSentCCM answers once the CCU is included). */
  lastCCMToBeSent?: CCMWithHeight & { outboxSize: number };
}

/** Proves store keys against the root committed at `height` (queries keyed by state-tree key), refusing any other root. */
export type SnapshotProver = (
  height: number,
  expectedRoot: Buffer,
  storeKeys: Buffer[],
) => { siblingHashes: Buffer[]; queries: { key: Buffer; bitmap: Buffer }[] };

export class CCUBuildError extends Error {
  override readonly name = 'CCUBuildError';
}

/**
 * The CCU params of Klayr's CCUHandler.computeCCU from gathered data: undefined when there is
 * nothing to send (no new certificate and no pending CCM).
 */
export const buildCCU = (request: CCUBuildRequest, prove: SnapshotProver): CCUBuildResult | undefined => {
  const { certificate } = request;
  const witnesses = calculateMessageWitnesses(
    request.inboxSizeOnReceivingChain,
    request.outboxSizeOnSendingChain,
    request.lastSentCCM,
    request.ccms,
    request.maxCCUSize,
  );
  const last = request.validatorsAtLastCertificate;
  let activeValidatorsUpdate = EMPTY_ACTIVE_VALIDATORS_UPDATE;
  let certificateThreshold = last?.certificateThreshold;
  let outboxRootWitness: { bitmap: Buffer; siblingHashes: Buffer[] } = { bitmap: Buffer.alloc(0), siblingHashes: [] };
  if (certificate === undefined) {
    if (witnesses.crossChainMessages.length === 0) return undefined;
  } else {
    if (last === undefined) throw new CCUBuildError('No validators data at the last certificate');
    if (!last.validatorsHash.equals(certificate.validatorsHash)) {
      const next = request.validatorsAtNewCertificate;
      if (next === undefined)
        throw new CCUBuildError(
          `No validators data at new certificate with hash ${certificate.validatorsHash.toString('hex')}`,
        );
      ({ activeValidatorsUpdate, certificateThreshold } = calculateActiveValidatorsUpdate(last, next));
    }
    // the snapshot is checked whether or not a witness is needed: a certificate of a block this store does not hold is refused
    const storeKey = Buffer.from(request.outboxRootStoreKey);
    const key = stateSMTKey(storeKey);
    const proof = prove(certificate.height, certificate.stateRoot, [key]);
    if (witnesses.crossChainMessages.length > 0) {
      const query = proof.queries.find((q) => q.key.equals(key));
      if (query === undefined) throw new CCUBuildError(`No inclusion proof was found for key ${key.toString('hex')}`);
      outboxRootWitness = {
        bitmap: Buffer.from(query.bitmap),
        siblingHashes: proof.siblingHashes.map((h) => Buffer.from(h)),
      };
    }
  }
  if (certificateThreshold === undefined)
    throw new CCUBuildError('No certificate threshold: no validators data at the last certificate');
  const params = ccuParamsCodec.encode({
    sendingChainID: Buffer.from(request.sendingChainID),
    certificate: certificate === undefined ? Buffer.alloc(0) : encodeCertificate(certificate),
    activeValidatorsUpdate,
    certificateThreshold,
    inboxUpdate: {
      crossChainMessages: witnesses.crossChainMessages,
      messageWitnessHashes: witnesses.messageWitnessHashes,
      outboxRootWitness,
    },
  });
  return { params, ...(witnesses.lastCCMToBeSent !== undefined ? { lastCCMToBeSent: witnesses.lastCCMToBeSent } : {}) };
};

/** Buffers cross a thread boundary as plain Uint8Arrays: this turns them back, deeply (plain objects and arrays). */
export const reviveBuffers = <T>(value: T): T => {
  if (value instanceof Uint8Array)
    return (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)) as T;
  if (Array.isArray(value)) return value.map(reviveBuffers) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reviveBuffers(v)])) as T;
  return value;
};
