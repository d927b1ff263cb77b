// A partner chain as the chain under test sees it (a sidechain sending to the mainchain, or the
// mainchain sending to a sidechain), built with Kestrel's lib: its validators (BLS keys), its outbox
// to the receiving chain (CCMs), and for each certificate a state tree holding its outbox root, its
// channel to the receiving chain and token accounts, whose root the certificate carries. From it come
// cross-chain update params: a certificate its validators sign (aggregation bits over the validators
// by BLS key, at least the threshold), an active validators update with its bitmap, and an inbox
// update whose outbox root witness proves the outbox root under the certificate's state root.
import { createRequire } from 'node:module';
import type { CCMessage } from '../../src/engine/state_machine/cross_chain.js';
import { unsignedCertificateSchema } from '../../src/lib/chain/certificate.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import { codec } from '../../src/lib/codec/index.js';
import { createAggSig } from '../../src/lib/crypto/aggregate.js';
import { blsKeyGen, blsPublicKeyFromPrivateKey, blsSignData } from '../../src/lib/crypto/bls.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import { MESSAGE_TAG_CERTIFICATE } from '../../src/lib/crypto/tags.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { ccmSchema, crossChainUpdateParamsSchema } from '../../src/lib/interop/schemas.js';
import { stateSMTKey, stateSMTValue } from '../../src/lib/state/keys.js';
import {
  appendToPath,
  calculateRightWitness,
  EMPTY_HASH,
  InMemorySMTStore,
  merkleRoot,
  SparseMerkleTree,
} from '../../src/lib/tree/index.js';
import type { Rng } from './random.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const fw = (path: string): any => require(`klayr-framework/dist-node/${path}`);
/* eslint-enable @typescript-eslint/no-explicit-any */
export const klayrInteropSchemas = fw('modules/interoperability/schemas');
export const klayrTokenSchemas = fw('modules/token/schemas');
/** klayr-framework's store classes the scenarios read (their keys and values) on Klayr's side. */
export const klayrStores = {
  chainAccount: fw('modules/interoperability/stores/chain_account').ChainAccountStore,
  channel: fw('modules/interoperability/stores/channel_data').ChannelDataStore,
  outboxRoot: fw('modules/interoperability/stores/outbox_root').OutboxRootStore,
  terminatedState: fw('modules/interoperability/stores/terminated_state').TerminatedStateStore,
  terminatedOutbox: fw('modules/interoperability/stores/terminated_outbox').TerminatedOutboxStore,
  user: fw('modules/token/stores/user').UserStore,
  escrow: fw('modules/token/stores/escrow').EscrowStore,
  validatorsParams: fw('modules/validators/stores/validators_params').ValidatorsParamsStore,
};
const { certificateSchema } = fw('engine/consensus/certificate_generation/schema');
const { outboxRootSchema } = fw('modules/interoperability/stores/outbox_root');
const { channelSchema } = fw('modules/interoperability/stores/channel_data');
const { userStoreSchema } = fw('modules/token/stores/user');

export const MAINCHAIN_ID = Buffer.from('04000000', 'hex');
export const KLY = Buffer.from('0400000000000000', 'hex');
export const CCM_STATUS_OK = 0;

export interface ChainValidator {
  blsKey: Buffer;
  privateKey: Buffer;
  bftWeight: bigint;
}

/** State keys (store prefix + substore prefix, 6 bytes) of the stores a sidechain proves. */
export interface StoreKeys {
  outboxRoot: Buffer;
  channel: Buffer;
  tokenUser: Buffer;
}

/** A token account held on the sidechain, recoverable from a terminated state. */
export interface SidechainUser {
  address: Buffer;
  tokenID: Buffer;
  availableBalance: bigint;
}

const blsKeyPool = new Map<number, ChainValidator>();
/** Deterministic BLS validators (key generation is slow, so a small pool is reused across scenarios). */
const poolValidator = (i: number): ChainValidator => {
  let v = blsKeyPool.get(i);
  if (v === undefined) {
    const privateKey = blsKeyGen(sha256(Buffer.from(`kestrel interop validator ${i}`)));
    v = { privateKey, blsKey: blsPublicKeyFromPrivateKey(privateKey), bftWeight: 0n };
    blsKeyPool.set(i, v);
  }
  return v;
};
export const BLS_POOL_SIZE = 24;

export const sortedByKey = <T extends { blsKey: Buffer }>(vs: readonly T[]): T[] =>
  [...vs].sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));

/** An outbox or inbox root: Klayr's regular Merkle tree over the CCMs' hashes. */
export const outboxRootOf = (ccms: readonly Buffer[]): Buffer => merkleRoot(ccms.map(sha256));

export const encodeCCM = (ccm: CCMessage): Buffer => codec.encode(ccmSchema, ccm);

export interface CertifiedTree {
  root: Buffer;
  smt: SparseMerkleTree;
  store: InMemorySMTStore;
  channel: Buffer;
  users: SidechainUser[];
  outboxSize: number;
  timestamp: number;
}

export interface CCUOptions {
  /** The block timestamp the CCU is submitted in. */
  blockTimestamp: number;
  /** With a certificate (default), or an inbox-only update against the last certified outbox root. */
  certificate?: boolean;
  /** How many pending CCMs of the outbox to deliver (default: all that can be). */
  include?: number;
  /** Seconds between the certificate and the block (default 1..60). */
  certificateAge?: number;
  /** New validators and weight changes to certify (an active validators update). */
  validatorsUpdate?: { add: number; reweigh: number; remove: number };
  /** How many of the mainchain's CCMs the sidechain's channel has received, stated in its state tree. */
  receivedFromMainchain?: number;
  tamper?:
    | 'signature'
    | 'bitmap'
    | 'witness'
    | 'belowThreshold'
    | 'keysUnsorted'
    | 'oldCertificate'
    | 'futureCertificate'
    | 'validatorsHash'
    | 'messageWitness'
    | 'thresholdOnly'
    | 'zeroWeight';
}

export interface BuiltCCU {
  params: CCUParams;
  bytes: Buffer;
  /** What the sidechain model becomes when the CCU executes successfully. */
  commit: () => void;
}

export class PartnerChain {
  validators: ChainValidator[];
  threshold: bigint;
  /** CCMs in the sidechain's outbox to the mainchain, in order. */
  readonly outbox: Buffer[] = [];
  /** How many of them the mainchain's inbox holds. */
  delivered = 0;
  nonce = 0n;
  height = 0;
  /** The tree of the last certificate the mainchain accepted. */
  certified: CertifiedTree | undefined;
  /** Every certified tree by state root (a terminated state account names one). */
  readonly trees = new Map<string, CertifiedTree>();
  readonly users: SidechainUser[] = [];
  /** Other entries its next certified states hold (full state keys), e.g. chain accounts the mainchain keeps. */
  readonly extraEntries = new Map<string, { key: Buffer; value: Buffer }>();
  #nextPool: number;

  constructor(
    readonly chainID: Buffer,
    readonly name: string,
    readonly rng: Rng,
    readonly keys: StoreKeys,
    validatorCount: number,
    poolOffset: number,
    /** The chain receiving this chain's CCUs (the mainchain, or a sidechain receiving from the mainchain). */
    readonly receiverID: Buffer = MAINCHAIN_ID,
  ) {
    this.#nextPool = poolOffset;
    this.validators = sortedByKey(
      Array.from({ length: validatorCount }, () => ({
        ...this.#newValidator(),
        bftWeight: 1n + BigInt(rng.int(1000)),
      })),
    );
    const total = this.totalWeight();
    this.threshold = total / 3n + 1n + BigInt(rng.int(Number(total - total / 3n)));
  }

  #newValidator(): ChainValidator {
    return { ...poolValidator(this.#nextPool++ % BLS_POOL_SIZE) };
  }

  totalWeight(validators = this.validators): bigint {
    return validators.reduce((s, v) => s + v.bftWeight, 0n);
  }

  /** registerSidechain params (klayr-framework sidechainRegParams). */
  registrationParams(): Record<string, unknown> {
    return {
      chainID: this.chainID,
      name: this.name,
      sidechainValidators: this.validators.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight })),
      sidechainCertificateThreshold: this.threshold,
    };
  }

  /** Appends a CCM from this sidechain to its outbox (nonce from its own chain account). */
  send(ccm: Omit<CCMessage, 'nonce' | 'sendingChainID'> & { sendingChainID?: Buffer }): Buffer {
    const bytes = encodeCCM({ ...ccm, sendingChainID: ccm.sendingChainID ?? this.chainID, nonce: this.nonce++ });
    this.outbox.push(bytes);
    return bytes;
  }

  /** Puts arbitrary bytes in the outbox as a CCM (malformed messages). */
  sendRaw(bytes: Buffer): void {
    this.outbox.push(bytes);
  }

  /** Forgets the CCMs not delivered yet (nonces need not be contiguous, only the registration message's is fixed: 0). */
  dropUndelivered(): void {
    this.outbox.length = this.delivered;
    if (this.delivered === 0) this.nonce = 0n;
  }

  /** The first CCM of a new channel: the registration message naming the receiving chain. */
  sendRegistration(receiverName = 'klayr_mainchain'): Buffer {
    const params = codec.encode(klayrInteropSchemas.registrationCCMParamsSchema, {
      name: receiverName,
      chainID: this.receiverID,
      messageFeeTokenID: KLY,
      minReturnFeePerByte: 1000n,
    });
    return this.send({
      module: 'interoperability',
      crossChainCommand: 'registration',
      receivingChainID: this.receiverID,
      fee: 0n,
      status: CCM_STATUS_OK,
      params,
    });
  }

  sendTransfer(
    tokenID: Buffer,
    amount: bigint,
    senderAddress: Buffer,
    recipientAddress: Buffer,
    fee: bigint,
    receivingChainID: Buffer = this.receiverID,
  ): Buffer {
    const params = codec.encode(klayrTokenSchemas.crossChainTransferMessageParams, {
      tokenID,
      amount,
      senderAddress,
      recipientAddress,
      data: '',
    });
    return this.send({
      module: 'token',
      crossChainCommand: 'transferCrossChain',
      receivingChainID,
      fee,
      status: CCM_STATUS_OK,
      params,
    });
  }

  /** The state tree the sidechain has at a certificate: the given outbox size certified. */
  #stateTree(outboxSize: number, channel: Buffer, timestamp: number): CertifiedTree {
    const entries = new Map<string, { key: Buffer; value: Buffer }>();
    const put = (key: Buffer, value: Buffer) =>
      entries.set(stateSMTKey(key).toString('hex'), { key: stateSMTKey(key), value: stateSMTValue(value) });
    put(
      Buffer.concat([this.keys.outboxRoot, this.receiverID]),
      codec.encode(outboxRootSchema, { root: outboxRootOf(this.outbox.slice(0, outboxSize)) }),
    );
    put(Buffer.concat([this.keys.channel, this.receiverID]), channel);
    for (const { key, value } of this.extraEntries.values()) put(key, value);
    for (const u of this.users)
      put(
        Buffer.concat([this.keys.tokenUser, u.address, u.tokenID]),
        codec.encode(userStoreSchema, { availableBalance: u.availableBalance, lockedBalances: [] }),
      );
    // other modules' entries: the proofs need sibling hashes
    for (let i = 0; i < 2 + this.rng.int(6); i++)
      put(Buffer.concat([this.rng.bytes(6), this.rng.bytes(20)]), this.rng.bytes(1 + this.rng.int(40)));
    const store = new InMemorySMTStore();
    const smt = new SparseMerkleTree(38, store);
    const root = store.apply(smt.update(EMPTY_HASH, [...entries.values()]));
    return { root, smt, store, channel, users: this.users.map((u) => ({ ...u })), outboxSize, timestamp };
  }

  /** The sidechain's channel to the mainchain: `received` of `mainchainOutbox` in its inbox (trees over CCM hashes, as Klayr's). */
  channelBytes(mainchainOutbox: readonly Buffer[], received: number): Buffer {
    const box = (ccms: readonly Buffer[]) =>
      ccms.reduce((state, ccm) => appendToPath(state, sha256(ccm)), {
        root: EMPTY_HASH,
        appendPath: [] as Buffer[],
        size: 0,
      });
    return codec.encode(channelSchema, {
      inbox: box(mainchainOutbox.slice(0, received)),
      outbox: box(this.outbox),
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: KLY,
      minReturnFeePerByte: 1000n,
    });
  }

  /** Proof of `keys` (full state keys) in a certified tree. */
  prove(tree: CertifiedTree, keys: Buffer[]) {
    return tree.smt.prove(tree.root, keys.map(stateSMTKey));
  }

  #certificate(
    tree: CertifiedTree,
    validators: ChainValidator[],
    threshold: bigint,
    tamper: CCUOptions['tamper'],
  ): Buffer {
    this.height += 1 + this.rng.int(20);
    const unsigned = {
      blockID: this.rng.bytes(32),
      height: this.height,
      timestamp: tree.timestamp,
      stateRoot: tree.root,
      validatorsHash: computeValidatorsHash(validators, threshold),
    };
    if (tamper === 'oldCertificate') unsigned.height = 0;
    if (tamper === 'futureCertificate') unsigned.timestamp += 1000;
    // a validators hash the update does not produce
    if (tamper === 'validatorsHash') unsigned.validatorsHash = sha256(unsigned.validatorsHash);
    // signers: the current validators (the ones the mainchain knows) in random order until the threshold is reached
    const signers: ChainValidator[] = [];
    let weight = 0n;
    const order = [...this.validators].sort(() => this.rng.next() - 0.5);
    for (const v of order) {
      if (weight >= this.threshold && this.rng.next() < 0.7) break;
      signers.push(v);
      weight += v.bftWeight;
    }
    if (tamper === 'belowThreshold') {
      while (signers.length > 0 && weight >= this.threshold) weight -= signers.pop()!.bftWeight;
      if (signers.length === 0) signers.push(order[0]!);
    }
    const message = codec.encode(unsignedCertificateSchema, unsigned);
    const signingChainID = tamper === 'signature' ? this.receiverID : this.chainID;
    const pairs = signers.map((v) => ({
      publicKey: v.blsKey,
      signature: blsSignData(MESSAGE_TAG_CERTIFICATE, signingChainID, message, v.privateKey),
    }));
    const { aggregationBits, signature } = createAggSig(
      this.validators.map((v) => v.blsKey),
      pairs,
    );
    return codec.encode(certificateSchema, { ...unsigned, aggregationBits, signature });
  }

  /** Validators after an update, and the update's params (keys added sorted, bitmap over all keys by BLS key, LSB first). */
  #validatorsUpdate(change: NonNullable<CCUOptions['validatorsUpdate']>) {
    const added = Array.from({ length: change.add }, () => ({
      ...this.#newValidator(),
      bftWeight: 1n + BigInt(this.rng.int(1000)),
    })).filter((v) => !this.validators.some((c) => c.blsKey.equals(v.blsKey)));
    const addedUnique = added.filter((v, i) => added.findIndex((w) => w.blsKey.equals(v.blsKey)) === i);
    const all = sortedByKey([...this.validators.map((v) => ({ ...v })), ...addedUnique]);
    const changed = new Set(addedUnique.map((v) => v.blsKey.toString('hex')));
    const existing = all.filter((v) => !changed.has(v.blsKey.toString('hex')));
    for (let i = 0; i < change.reweigh && existing.length > 0; i++) {
      const v = this.rng.pick(existing);
      v.bftWeight = 1n + BigInt(this.rng.int(1000));
      changed.add(v.blsKey.toString('hex'));
    }
    for (let i = 0; i < change.remove && existing.length > 1; i++) {
      const v = this.rng.pick(existing);
      v.bftWeight = 0n;
      changed.add(v.blsKey.toString('hex'));
    }
    let bits = 0n;
    const weights: bigint[] = [];
    all.forEach((v, i) => {
      if (changed.has(v.blsKey.toString('hex'))) {
        bits |= 1n << BigInt(i);
        weights.push(v.bftWeight);
      }
    });
    const bitmapLength = Math.ceil(all.length / 8);
    const bitmap = Buffer.from(bits.toString(16).padStart(bitmapLength * 2, '0'), 'hex');
    const next = all.filter((v) => v.bftWeight > 0n);
    const total = this.totalWeight(next);
    const threshold = total / 3n + 1n + BigInt(this.rng.int(Number(total - total / 3n)));
    return {
      next,
      threshold,
      update: {
        blsKeysUpdate: addedUnique.map((v) => v.blsKey),
        bftWeightsUpdate: weights,
        bftWeightsUpdateBitmap: bitmap,
      },
    };
  }

  /**
   * A cross-chain update delivering pending CCMs. With a certificate, the sidechain's whole outbox is
   * certified and the CCMs not delivered yet are the message witness; without one, the update must
   * match the outbox root the mainchain holds from the last certificate.
   */
  buildCCU(options: CCUOptions, mainchainOutbox: readonly Buffer[]): BuiltCCU {
    const withCertificate = options.certificate ?? true;
    const certifiedSize = withCertificate ? this.outbox.length : (this.certified?.outboxSize ?? 0);
    const available = certifiedSize - this.delivered;
    const include = Math.max(0, Math.min(options.include ?? available, available));
    const deliveredAfter = this.delivered + include;
    const messages = this.outbox.slice(this.delivered, deliveredAfter);
    const rest = this.outbox.slice(deliveredAfter, certifiedSize);
    const messageWitnessHashes: Buffer[] =
      rest.length === 0 || deliveredAfter === 0 ? [] : calculateRightWitness(deliveredAfter, rest.map(sha256));
    let certificate: Buffer = Buffer.alloc(0);
    let activeValidatorsUpdate: CCUParams['activeValidatorsUpdate'] = {
      blsKeysUpdate: [],
      bftWeightsUpdate: [],
      bftWeightsUpdateBitmap: Buffer.alloc(0),
    };
    let { threshold } = this;
    let nextValidators = this.validators;
    let tree: CertifiedTree | undefined;
    let outboxRootWitness: { bitmap: Buffer; siblingHashes: Buffer[] } = { bitmap: Buffer.alloc(0), siblingHashes: [] };
    if (withCertificate) {
      if (options.validatorsUpdate !== undefined) {
        const u = this.#validatorsUpdate(options.validatorsUpdate);
        nextValidators = u.next;
        threshold = u.threshold;
        activeValidatorsUpdate = u.update;
      }
      const received = Math.min(options.receivedFromMainchain ?? mainchainOutbox.length, mainchainOutbox.length);
      tree = this.#stateTree(
        certifiedSize,
        this.channelBytes(mainchainOutbox, received),
        options.blockTimestamp - (options.certificateAge ?? 1 + this.rng.int(60)),
      );
      certificate = this.#certificate(tree, nextValidators, threshold, options.tamper);
      if (messages.length > 0 || messageWitnessHashes.length > 0) {
        const proof = this.prove(tree, [Buffer.concat([this.keys.outboxRoot, this.receiverID])]);
        outboxRootWitness = { bitmap: proof.queries[0]!.bitmap, siblingHashes: proof.siblingHashes };
      }
    }
    if (options.tamper === 'bitmap') {
      const bitmap = activeValidatorsUpdate.bftWeightsUpdateBitmap;
      activeValidatorsUpdate = {
        ...activeValidatorsUpdate,
        bftWeightsUpdateBitmap: Buffer.concat([Buffer.alloc(1), bitmap.length === 0 ? Buffer.alloc(1, 1) : bitmap]),
      };
      if (activeValidatorsUpdate.bftWeightsUpdate.length === 0) activeValidatorsUpdate.bftWeightsUpdate = [1n];
    }
    if (options.tamper === 'keysUnsorted' && activeValidatorsUpdate.blsKeysUpdate.length > 1)
      activeValidatorsUpdate.blsKeysUpdate.reverse();
    // a new certificate threshold without a certified validators hash for it
    if (options.tamper === 'thresholdOnly') threshold += 1n;
    if (options.tamper === 'zeroWeight' && activeValidatorsUpdate.bftWeightsUpdate.length > 0)
      activeValidatorsUpdate.bftWeightsUpdate[0] = 0n;
    if (options.tamper === 'messageWitness') messageWitnessHashes.push(sha256(Buffer.from('not a message')));
    if (options.tamper === 'witness' && outboxRootWitness.siblingHashes.length > 0) {
      const i = this.rng.int(outboxRootWitness.siblingHashes.length);
      outboxRootWitness = {
        ...outboxRootWitness,
        siblingHashes: outboxRootWitness.siblingHashes.map((h, j) => (j === i ? sha256(h) : h)),
      };
    }
    const params: CCUParams = {
      sendingChainID: this.chainID,
      certificate,
      activeValidatorsUpdate,
      certificateThreshold: threshold,
      inboxUpdate: { crossChainMessages: messages, messageWitnessHashes, outboxRootWitness },
    };
    const bytes = codec.encode(crossChainUpdateParamsSchema, params);
    return {
      params,
      bytes,
      commit: () => {
        this.delivered = deliveredAfter;
        this.validators = sortedByKey(nextValidators);
        this.threshold = threshold;
        if (tree !== undefined) {
          this.certified = tree;
          this.trees.set(tree.root.toString('hex'), tree);
        }
      },
    };
  }
}
