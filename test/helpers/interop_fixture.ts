// In-memory fixtures for the interoperability module's unit tests: a state, contexts for
// commands, CCMs and methods, the token method wired in, BLS validator sets that sign.

import { BlockState, EMPTY_STATE } from '../../src/engine/state/state_db.js';
import { SubStore } from '../../src/engine/state/substore.js';
import type { CCMessage, CrossChainMessageContext } from '../../src/engine/state_machine/cross_chain.js';
import { EventQueue } from '../../src/engine/state_machine/event_queue.js';
import type { CommandContext } from '../../src/engine/state_machine/module.js';
import type { BlockHeader } from '../../src/lib/chain/block.js';
import { signCertificate, unsignedCertificateSchema } from '../../src/lib/chain/certificate.js';
import { computeValidatorsHash } from '../../src/lib/chain/validators_hash.js';
import type { Schema } from '../../src/lib/codec/index.js';
import { compile } from '../../src/lib/codec/index.js';
import { createAggSig } from '../../src/lib/crypto/aggregate.js';
import { blsKeyGen, blsPublicKeyFromPrivateKey } from '../../src/lib/crypto/bls.js';
import { sha256 } from '../../src/lib/crypto/hash.js';
import type { Certificate } from '../../src/lib/interop/certificate.js';
import { encodeCertificate } from '../../src/lib/interop/certificate.js';
import type { CCUParams } from '../../src/lib/interop/schemas.js';
import { crossChainUpdateParamsSchema } from '../../src/lib/interop/schemas.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from '../../src/modules/fee/method.js';
import { EMPTY_HASH } from '../../src/modules/interoperability/base/constants.js';
import type { ChainAccount, ChannelData } from '../../src/modules/interoperability/base/state.js';
import {
  chainAccounts,
  chainValidators,
  channels,
  outboxRoots,
  setOwnChainAccount,
} from '../../src/modules/interoperability/base/state.js';
import {
  MainchainInteroperabilityModule,
  SidechainInteroperabilityModule,
} from '../../src/modules/interoperability/index.js';
import { tokenConfig } from '../../src/modules/token/config.js';
import { TokenMethod } from '../../src/modules/token/method.js';

export const MAINCHAIN_ID = Buffer.from('04000000', 'hex');
export const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
export const KLY = Buffer.from('0400000000000000', 'hex');
export const SENDER = Buffer.alloc(20, 7);
export const HEADER_TIMESTAMP = 1_700_000_000;

export interface Fixture<M> {
  module: M;
  token: TokenMethod;
  state: BlockState;
  events: EventQueue;
  contextStore: Map<string, unknown>;
  chainID: Buffer;
  header: BlockHeader;
  store: (p: Buffer, sp: Buffer) => SubStore;
}

const fixture = <M extends MainchainInteroperabilityModule | SidechainInteroperabilityModule>(
  module: M,
  chainID: Buffer,
  ownName: string,
  nonce = 0n,
): Fixture<M> => {
  const token = new TokenMethod(tokenConfig(chainID));
  module.setTokenMethod(token);
  token.setInteroperabilityMethod(module.method);
  const state = new BlockState(EMPTY_STATE);
  const f: Fixture<M> = {
    module,
    token,
    state,
    events: new EventQueue(10),
    contextStore: new Map(),
    chainID,
    header: { height: 10, timestamp: HEADER_TIMESTAMP } as BlockHeader,
    store: (p, sp) => new SubStore(state, p, sp),
  };
  setOwnChainAccount(f, { name: ownName, chainID, nonce });
  return f;
};

export const mainchainFixture = (): Fixture<MainchainInteroperabilityModule> =>
  fixture(new MainchainInteroperabilityModule(), MAINCHAIN_ID, 'klayr_mainchain', 1n);
export const sidechainFixture = (): Fixture<SidechainInteroperabilityModule> => {
  const f = fixture(new SidechainInteroperabilityModule(), SIDECHAIN_ID, 'sidechain_one', 1n);
  return f;
};

/** A command context over the fixture's state (fee available to the command as the fee module leaves it). */
export const commandCtx = <P>(
  f: Fixture<unknown>,
  command: string,
  params: P,
  schema: Schema,
  fee = 10_000_000_000n,
): CommandContext<P> => {
  f.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, fee);
  const encoded = compile<P>(schema).encode(params);
  return {
    header: f.header,
    chainID: f.chainID,
    state: f.state,
    events: f.events,
    contextStore: f.contextStore,
    store: f.store,
    asset: () => undefined,
    setNextValidators: () => undefined,
    transaction: {
      module: 'interoperability',
      command,
      nonce: 0n,
      fee,
      senderPublicKey: Buffer.alloc(32),
      params: encoded,
      signatures: [],
    },
    transactionID: sha256(encoded),
    senderAddress: SENDER,
    transactionSize: encoded.length + 100,
    params,
  };
};

export const ccmCtx = (f: Fixture<unknown>, ccm: CCMessage, ccu: CCUParams): CrossChainMessageContext => {
  const params = compile<CCUParams>(crossChainUpdateParamsSchema).encode(ccu);
  return {
    events: f.events,
    contextStore: f.contextStore,
    store: f.store,
    chainID: f.chainID,
    state: f.state,
    header: f.header,
    transaction: { senderAddress: SENDER, fee: 0n, params },
    ccm,
    getMethodContext: () => ({ events: f.events, contextStore: f.contextStore, store: f.store }),
  };
};

/** BLS validators with their secret keys, sorted by public key. */
export const blsValidators = (count: number, seed: number, weight = 10n) =>
  Array.from({ length: count }, (_, i) => {
    const sk = blsKeyGen(sha256(Buffer.from(`interop-${seed}-${i}`)));
    return { sk, blsKey: blsPublicKeyFromPrivateKey(sk), bftWeight: weight };
  }).sort((a, b) => Buffer.compare(a.blsKey, b.blsKey));

export type TestValidator = ReturnType<typeof blsValidators>[number];

/** A certificate of `chainID` signed by `signers` of `validators` (all by default). */
export const signedCertificate = (
  chainID: Buffer,
  validators: readonly TestValidator[],
  unsigned: Omit<Certificate, 'aggregationBits' | 'signature'>,
  signers = validators,
): Buffer => {
  const sigs = signers.map((v) => ({ publicKey: v.blsKey, signature: signCertificate(v.sk, chainID, unsigned) }));
  const { aggregationBits, signature } = createAggSig(
    validators.map((v) => v.blsKey),
    sigs,
  );
  return encodeCertificate({ ...unsigned, aggregationBits, signature });
};

export const unsignedCodec = compile<Omit<Certificate, 'aggregationBits' | 'signature'>>(unsignedCertificateSchema);

const emptyBox = () => ({ appendPath: [] as Buffer[], size: 0, root: EMPTY_HASH });

/** A partner chain registered in the fixture's state with the validators, as registerSidechain / registerMainchain leave it. */
export const registerPartner = (
  f: Fixture<unknown>,
  chainID: Buffer,
  name: string,
  validators: readonly TestValidator[],
  threshold: bigint,
  status = 0,
  lastCertificate: Partial<ChainAccount['lastCertificate']> = {},
): void => {
  const activeValidators = validators.map(({ blsKey, bftWeight }) => ({ blsKey, bftWeight }));
  chainAccounts.set(f, chainID, {
    name,
    status,
    lastCertificate: {
      height: 0,
      timestamp: HEADER_TIMESTAMP - 1000,
      stateRoot: EMPTY_HASH,
      validatorsHash: computeValidatorsHash(activeValidators, threshold),
      ...lastCertificate,
    },
  });
  const channel: ChannelData = {
    inbox: emptyBox(),
    outbox: emptyBox(),
    partnerChainOutboxRoot: EMPTY_HASH,
    messageFeeTokenID: KLY,
    minReturnFeePerByte: 1000n,
  };
  channels.set(f, chainID, channel);
  chainValidators.set(f, chainID, { activeValidators, certificateThreshold: threshold });
  outboxRoots.set(f, chainID, { root: EMPTY_HASH });
};

export const emptyCCU = (sendingChainID: Buffer, certificateThreshold: bigint): CCUParams => ({
  sendingChainID,
  certificate: Buffer.alloc(0),
  activeValidatorsUpdate: { blsKeysUpdate: [], bftWeightsUpdate: [], bftWeightsUpdateBitmap: Buffer.alloc(0) },
  certificateThreshold,
  inboxUpdate: {
    crossChainMessages: [],
    messageWitnessHashes: [],
    outboxRootWitness: { bitmap: Buffer.alloc(0), siblingHashes: [] },
  },
});

/** The events of the queue as name, topics in hex and data. */
export const eventList = (events: EventQueue) =>
  events
    .getEvents()
    .map((e) => ({ module: e.module, name: e.name, topics: e.topics.map((t) => t.toString('hex')), data: e.data }));
