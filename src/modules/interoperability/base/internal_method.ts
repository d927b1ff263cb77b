import type { CCMessage, SendContext } from '../../../engine/state_machine/cross_chain.js';
import type { MethodContext } from '../../../engine/state_machine/module.js';
import { computeValidatorsHash } from '../../../lib/chain/validators_hash.js';
import { compile } from '../../../lib/codec/index.js';
import { sha256 } from '../../../lib/crypto/hash.js';
import { verifyAggregateCheck } from '../../../lib/interop/aggregate_verdicts.js';
import { decodeCertificate } from '../../../lib/interop/certificate.js';
import type { CCUParams } from '../../../lib/interop/schemas.js';
import { outboxRootStateTreeKey } from '../../../lib/interop/store_keys.js';
import { appendToPath, calculateRootFromRightWitness } from '../../../lib/tree/index.js';
import { outboxRootSchema } from '../stores.js';
import {
  CCM_SENT_FAILED_CODE,
  CCM_STATUS,
  CHAIN_STATUS,
  CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
  EMPTY_BYTES,
  EMPTY_FEE_ADDRESS,
  EMPTY_HASH,
  LIVENESS_LIMIT,
  MAX_NUM_VALIDATORS,
  MAX_UINT64,
} from './constants.js';
import type { InteropTokenMethod } from './dependencies.js';
import { interopEvents } from './event_log.js';
import { certificateSignatureCheck } from './signatures.js';
import { verifyStateInclusionProof } from './smt.js';
import type { TerminatedStateAccount } from './state.js';
import {
  chainAccounts,
  chainValidators,
  channels,
  getOwnChainAccount,
  outboxRoots,
  setOwnChainAccount,
  terminatedOutboxes,
  terminatedStates,
} from './state.js';
import {
  bitmapBits,
  calculateNewActiveValidators,
  ccmID,
  ccmWithoutParams,
  encodeCCM,
  getMainchainID,
  isActiveValidatorsUpdateEmpty,
  validateCCMFormat,
} from './utils.js';

/** What the internal methods need of a context: stores, events, the context store (fees), the state (snapshots), the chain and block. */
export type InteropContext = Pick<SendContext, 'events' | 'contextStore' | 'store' | 'chainID' | 'state' | 'header'>;
type Store = Pick<MethodContext, 'store'>;
export type Variant = 'mainchain' | 'sidechain';

const outboxRootCodec = compile<{ root: Buffer }>(outboxRootSchema);

/** Klayr's BaseInteroperabilityInternalMethod with the mainchain's or the sidechain's isLive. */
export class InteropInternalMethod {
  #token?: InteropTokenMethod;

  constructor(readonly variant: Variant) {}

  setTokenMethod(token: InteropTokenMethod): void {
    this.#token = token;
  }

  get token(): InteropTokenMethod {
    if (this.#token === undefined) throw new Error('The interoperability module has no token method.');
    return this.#token;
  }

  /** Whether a chain is live: the mainchain checks the liveness limit against `timestamp` (when given). */
  isLive(ctx: Store, chainID: Buffer, timestamp?: number): boolean {
    const own = getOwnChainAccount(ctx);
    if (chainID.equals(own.chainID)) return true;
    const account = chainAccounts.get(ctx, chainID);
    if (this.variant === 'mainchain') {
      if (account === undefined || account.status === CHAIN_STATUS.TERMINATED) return false;
      // Klayr computes undefined - timestamp (NaN) without a timestamp: never over the limit
      if (
        account.status === CHAIN_STATUS.ACTIVE &&
        timestamp !== undefined &&
        timestamp - account.lastCertificate.timestamp > LIVENESS_LIMIT
      )
        return false;
      return true;
    }
    if (account !== undefined && account.status === CHAIN_STATUS.TERMINATED) return false;
    return !terminatedStates.has(ctx, chainID);
  }

  appendToInboxTree(ctx: Store, chainID: Buffer, appendData: Buffer): void {
    const channel = channels.getOrThrow(ctx, chainID);
    channels.set(ctx, chainID, { ...channel, inbox: appendToPath(channel.inbox, sha256(appendData)) });
  }

  appendToOutboxTree(ctx: Store, chainID: Buffer, appendData: Buffer): void {
    const channel = channels.getOrThrow(ctx, chainID);
    channels.set(ctx, chainID, { ...channel, outbox: appendToPath(channel.outbox, sha256(appendData)) });
  }

  /** Appends the CCM to the channel's outbox and records the new outbox root. */
  addToOutbox(ctx: Store, chainID: Buffer, ccm: CCMessage): void {
    this.appendToOutboxTree(ctx, chainID, encodeCCM(ccm));
    outboxRoots.set(ctx, chainID, { root: channels.getOrThrow(ctx, chainID).outbox.root });
  }

  createTerminatedOutboxAccount(
    ctx: InteropContext,
    chainID: Buffer,
    outboxRoot: Buffer,
    outboxSize: number,
    partnerChainInboxSize: number,
  ): void {
    const account = { outboxRoot, outboxSize, partnerChainInboxSize };
    terminatedOutboxes.set(ctx, chainID, account);
    interopEvents.terminatedOutboxCreated(ctx, chainID, account);
  }

  createTerminatedStateAccount(ctx: InteropContext, chainID: Buffer, stateRoot: Buffer = EMPTY_HASH): void {
    let terminated: TerminatedStateAccount;
    const account = chainAccounts.get(ctx, chainID);
    if (account !== undefined) {
      chainAccounts.set(ctx, chainID, { ...account, status: CHAIN_STATUS.TERMINATED });
      // Klayr logs the account as it was before the status change
      interopEvents.chainAccountUpdated(ctx, chainID, account);
      outboxRoots.del(ctx, chainID);
      terminated = {
        stateRoot: stateRoot.equals(EMPTY_HASH) ? account.lastCertificate.stateRoot : stateRoot,
        mainchainStateRoot: EMPTY_HASH,
        initialized: true,
      };
    } else {
      const own = getOwnChainAccount(ctx);
      const mainchainID = getMainchainID(own.chainID);
      if (own.chainID.equals(mainchainID)) throw new Error('Chain to be terminated is not valid.');
      const mainchain = chainAccounts.getOrThrow(ctx, mainchainID);
      terminated = stateRoot.equals(EMPTY_HASH)
        ? { stateRoot: EMPTY_HASH, mainchainStateRoot: mainchain.lastCertificate.stateRoot, initialized: false }
        : { stateRoot, mainchainStateRoot: EMPTY_HASH, initialized: true };
    }
    terminatedStates.set(ctx, chainID, terminated);
    interopEvents.terminatedStateCreated(ctx, chainID, terminated);
  }

  /** Sends channelTerminated to the chain and creates its terminated state account, unless it has one. */
  terminateChainInternal(ctx: InteropContext, chainID: Buffer): void {
    if (terminatedStates.has(ctx, chainID)) return;
    this.sendInternal(
      ctx,
      EMPTY_FEE_ADDRESS,
      'interoperability',
      CROSS_CHAIN_COMMAND_CHANNEL_TERMINATED,
      chainID,
      0n,
      CCM_STATUS.OK,
      EMPTY_BYTES,
    );
    this.createTerminatedStateAccount(ctx, chainID);
  }

  updateValidators(ctx: Store, ccu: CCUParams): void {
    const current = chainValidators.getOrThrow(ctx, ccu.sendingChainID);
    const { blsKeysUpdate, bftWeightsUpdate, bftWeightsUpdateBitmap } = ccu.activeValidatorsUpdate;
    chainValidators.set(ctx, ccu.sendingChainID, {
      activeValidators: calculateNewActiveValidators(
        current.activeValidators,
        blsKeysUpdate,
        bftWeightsUpdate,
        bftWeightsUpdateBitmap,
      ),
      certificateThreshold: ccu.certificateThreshold,
    });
  }

  updateCertificate(ctx: InteropContext, ccu: CCUParams): void {
    const certificate = decodeCertificate(ccu.certificate);
    const account = chainAccounts.getOrThrow(ctx, ccu.sendingChainID);
    const updated = {
      ...account,
      lastCertificate: {
        height: certificate.height,
        stateRoot: certificate.stateRoot,
        timestamp: certificate.timestamp,
        validatorsHash: certificate.validatorsHash,
      },
    };
    chainAccounts.set(ctx, ccu.sendingChainID, updated);
    interopEvents.chainAccountUpdated(ctx, ccu.sendingChainID, updated);
  }

  /** The partner chain's outbox root: the inbox extended by the message witness. */
  updatePartnerChainOutboxRoot(ctx: Store, ccu: CCUParams): void {
    const channel = channels.getOrThrow(ctx, ccu.sendingChainID);
    const partnerChainOutboxRoot = calculateRootFromRightWitness(
      channel.inbox.size,
      channel.inbox.appendPath,
      ccu.inboxUpdate.messageWitnessHashes,
    );
    channels.set(ctx, ccu.sendingChainID, { ...channel, partnerChainOutboxRoot });
  }

  verifyValidatorsUpdate(ctx: Store, ccu: CCUParams): void {
    if (ccu.certificate.length === 0) throw new Error('Certificate must be non-empty if validators have been updated.');
    const { bftWeightsUpdate, bftWeightsUpdateBitmap, blsKeysUpdate } = ccu.activeValidatorsUpdate;
    if (!blsKeysUpdate.every((b, i) => i === 0 || Buffer.compare(blsKeysUpdate[i - 1], b) <= 0))
      throw new Error('Keys are not sorted in lexicographic order.');
    const { activeValidators } = chainValidators.getOrThrow(ctx, ccu.sendingChainID);
    const allKeys = [...activeValidators.map((v) => v.blsKey), ...blsKeysUpdate].sort(Buffer.compare);
    if (new Set(allKeys.map((k) => k.toString('hex'))).size !== allKeys.length)
      throw new Error('Keys have duplicated entry.');
    const expectedBitmapLength = Math.floor((allKeys.length + 7) / 8);
    if (bftWeightsUpdateBitmap.length !== expectedBitmapLength)
      throw new Error(`Invalid bftWeightsUpdateBitmap. Expected length ${expectedBitmapLength}.`);
    const bits = bitmapBits(bftWeightsUpdateBitmap);
    const ones = [...bits.toString(2)].filter((c) => c === '1').length;
    if (ones !== bftWeightsUpdate.length)
      throw new Error('The number of 1s in the bitmap is not equal to the number of new BFT weights.');
    let weightIndex = 0;
    for (let i = 0; i < allKeys.length; i++) {
      const digit = (bits >> BigInt(i)) & 1n;
      if (blsKeysUpdate.some((k) => k.equals(allKeys[i]))) {
        if (digit !== 1n) throw new Error('New validators must have a BFT weight update.');
        if (bftWeightsUpdate[weightIndex] === 0n) throw new Error('New validators must have a positive BFT weight.');
      }
      if (digit === 1n) weightIndex++;
    }
    const next = calculateNewActiveValidators(
      activeValidators,
      blsKeysUpdate,
      bftWeightsUpdate,
      bftWeightsUpdateBitmap,
    );
    if (next.length < 1 || next.length > MAX_NUM_VALIDATORS)
      throw new Error(
        `Invalid validators array. It must have at least 1 element and at most ${MAX_NUM_VALIDATORS} elements.`,
      );
    let total = 0n;
    for (const v of next) {
      if (v.bftWeight === 0n) throw new Error('Validator bft weight must be positive integer.');
      total += v.bftWeight;
      if (total > MAX_UINT64) throw new Error('Total BFT weight exceeds maximum value.');
    }
    const certificate = decodeCertificate(ccu.certificate);
    if (ccu.certificateThreshold < total / 3n + 1n) throw new Error('Certificate threshold is too small.');
    if (ccu.certificateThreshold > total) throw new Error('Certificate threshold is too large.');
    if (!certificate.validatorsHash.equals(computeValidatorsHash(next, ccu.certificateThreshold)))
      throw new Error('ValidatorsHash in certificate and the computed values do not match.');
  }

  verifyCertificate(ctx: Store, ccu: CCUParams, blockTimestamp: number): void {
    const certificate = decodeCertificate(ccu.certificate);
    const account = chainAccounts.getOrThrow(ctx, ccu.sendingChainID);
    if (certificate.height <= account.lastCertificate.height)
      throw new Error('Certificate height is not greater than last certificate height.');
    if (certificate.timestamp >= blockTimestamp)
      throw new Error('Certificate timestamp is not smaller than timestamp of the block including the CCU.');
    const validators = chainValidators.getOrThrow(ctx, ccu.sendingChainID);
    if (
      !certificate.validatorsHash.equals(account.lastCertificate.validatorsHash) &&
      isActiveValidatorsUpdateEmpty(ccu.activeValidatorsUpdate) &&
      ccu.certificateThreshold === validators.certificateThreshold
    ) {
      throw new Error('Certifying an update to the validators hash requires an active validators update.');
    }
  }

  verifyCertificateSignature(ctx: InteropContext, ccu: CCUParams): void {
    const certificate = decodeCertificate(ccu.certificate);
    const validators = chainValidators.getOrThrow(ctx, ccu.sendingChainID);
    if (!verifyAggregateCheck(certificateSignatureCheck(validators, ccu.sendingChainID, certificate))) {
      interopEvents.invalidCertificateSignature(ctx, ccu.sendingChainID);
      throw new Error('Certificate is not a valid aggregate signature.');
    }
  }

  /** Builds a CCM from the own chain account and appends it to the partner chain's outbox (Klayr's sendInternal). */
  sendInternal(
    ctx: InteropContext,
    sendingAddress: Buffer,
    module: string,
    crossChainCommand: string,
    receivingChainID: Buffer,
    fee: bigint,
    status: number,
    params: Buffer,
    timestamp?: number,
  ): void {
    const own = getOwnChainAccount(ctx);
    const ccm: CCMessage = {
      module,
      crossChainCommand,
      fee,
      nonce: own.nonce,
      params,
      receivingChainID,
      sendingChainID: own.chainID,
      status,
    };
    try {
      validateCCMFormat(ccm);
    } catch {
      interopEvents.ccmSentFailed(ctx, ccmWithoutParams(ccm), CCM_SENT_FAILED_CODE.INVALID_FORMAT);
      throw new Error('Invalid CCM format.');
    }
    if (receivingChainID.equals(own.chainID)) {
      interopEvents.ccmSentFailed(ctx, ccmWithoutParams(ccm), CCM_SENT_FAILED_CODE.INVALID_RECEIVING_CHAIN);
      throw new Error('Sending chain cannot be the receiving chain.');
    }
    const mainchainID = getMainchainID(own.chainID);
    const onMainchain = own.chainID.equals(mainchainID);
    if (onMainchain && !timestamp) throw new Error('Timestamp must be provided in mainchain context.');
    if (!this.isLive(ctx, receivingChainID, onMainchain ? timestamp : undefined)) {
      interopEvents.ccmSentFailed(ctx, ccmWithoutParams(ccm), CCM_SENT_FAILED_CODE.RECEIVING_CHAIN_NOT_LIVE);
      throw new Error('Receiving chain is not live.');
    }
    const receivingAccount = chainAccounts.get(ctx, receivingChainID);
    if (fee > 0n) {
      try {
        this.token.payMessageFee(ctx, sendingAddress, ccm.receivingChainID, fee);
      } catch {
        interopEvents.ccmSentFailed(ctx, ccmWithoutParams(ccm), CCM_SENT_FAILED_CODE.MESSAGE_FEE_EXCEPTION);
        throw new Error('Failed to pay message fee.');
      }
    }
    const partnerChainID = onMainchain || receivingAccount !== undefined ? receivingChainID : mainchainID;
    if (receivingAccount !== undefined && receivingAccount.status !== CHAIN_STATUS.ACTIVE) {
      interopEvents.ccmSentFailed(ctx, ccmWithoutParams(ccm), CCM_SENT_FAILED_CODE.RECEIVING_CHAIN_NOT_LIVE);
      throw new Error('Receiving chain is not active.');
    }
    const id = ccmID(encodeCCM(ccm));
    this.addToOutbox(ctx, partnerChainID, ccm);
    setOwnChainAccount(ctx, { ...own, nonce: own.nonce + 1n });
    interopEvents.ccmSendSuccess(ctx, ccm.sendingChainID, ccm.receivingChainID, id, ccm);
  }

  verifyOutboxRootWitness(ccu: CCUParams): void {
    const { bitmap, siblingHashes } = ccu.inboxUpdate.outboxRootWitness;
    if (bitmap.length === 0 && siblingHashes.length > 0)
      throw new Error('The bitmap in the outbox root witness must be non-empty if the sibling hashes are non-empty.');
    if (bitmap.length !== 0 && siblingHashes.length === 0)
      throw new Error('The sibling hashes in the outbox root witness must be non-empty if the bitmap is non-empty.');
    if (bitmap.length === 0 && ccu.certificate.length > 0)
      throw new Error('The outbox root witness must be non-empty to authenticate the new partnerChainOutboxRoot.');
    if (bitmap.length !== 0 && ccu.certificate.length === 0)
      throw new Error('The outbox root witness can be non-empty only if the certificate is non-empty.');
  }

  /** The inbox extended by the CCU's messages and witness must be the partner chain's outbox root: its stored root, or proven in the certificate's state root. */
  verifyPartnerChainOutboxRoot(ctx: InteropContext, ccu: CCUParams): void {
    const channel = channels.getOrThrow(ctx, ccu.sendingChainID);
    let box = { appendPath: channel.inbox.appendPath, size: channel.inbox.size };
    for (const ccm of ccu.inboxUpdate.crossChainMessages) box = appendToPath(box, sha256(ccm));
    const newInboxRoot = calculateRootFromRightWitness(box.size, box.appendPath, ccu.inboxUpdate.messageWitnessHashes);
    if (ccu.certificate.length === 0) {
      if (!newInboxRoot.equals(channel.partnerChainOutboxRoot)) {
        interopEvents.invalidOutboxRootVerification(ctx, ccu.sendingChainID, {
          inboxRoot: newInboxRoot,
          partnerChainOutboxRoot: channel.partnerChainOutboxRoot,
        });
        throw new Error('Inbox root does not match partner chain outbox root.');
      }
      return;
    }
    const own = getOwnChainAccount(ctx);
    const outboxKey = outboxRootStateTreeKey(own.chainID);
    const { bitmap, siblingHashes } = ccu.inboxUpdate.outboxRootWitness;
    const query = { key: outboxKey, value: sha256(outboxRootCodec.encode({ root: newInboxRoot })), bitmap };
    const certificate = decodeCertificate(ccu.certificate);
    const valid = verifyStateInclusionProof(certificate.stateRoot, [outboxKey], { siblingHashes, queries: [query] });
    if (!valid) {
      interopEvents.invalidSMTVerification(ctx);
      throw new Error('Invalid inclusion proof for inbox update.');
    }
  }
}
